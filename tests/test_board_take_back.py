"""Take-backs on the board, in Chromium (docs/protocol.md, Taking back acts):
alice asks to take back her last act, and every board (hers, bob's and the
spectator's) shows the request; bob accepts, and every board goes back to
the earlier position with the take-back in its log; then bob refuses the
next one, and every board says so while the game stands as it was. Each
page and frame is checked for leaks after every step, knowing what each
viewer has seen: a card alice drew and took back stays in her log, and only
there. On a laptop's screen (fab) and on a phone's (Redemption).

With ``CARDZONES_README_IMAGES=1``, the picture of a request is written to
docs/images/board-take-back.png; otherwise to build/screenshots/.
"""

from __future__ import annotations

from typing import Any

import pytest
from boardkit import CHROMIUM, CHROMIUM_MISSING, ThreadServer, board_body
from test_board import LAPTOP, PHONE, Viewer, browser, names_in, server  # noqa: F401 (fixtures)
from test_board_match import PICTURE, Match, checked, picture_folder, snapshot_page

if not CHROMIUM.exists():
    pytest.skip(CHROMIUM_MISSING, allow_module_level=True)

#: The text of the board's newest log entry.
LAST_LOG_JS = "() => document.querySelector('#log li:last-child').textContent"
#: Whether an element is wholly inside the window, as the player looks at it.
IN_VIEW_JS = """(selector) => {
  const r = document.querySelector(selector).getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0
    && r.bottom <= innerHeight && r.right <= innerWidth;
}"""


def draw(t: Match) -> None:
    """alice takes her deck's top card into her hand, from its menu."""
    alice = t["alice"]
    alice.one_click(alice.card("alice.deck"), "move", '"to":"alice.hand"')
    t.applied()


def bar_text(viewer: Viewer) -> str:
    viewer.page.wait_for_selector("#takeback-bar:not([hidden])")
    assert viewer.page.evaluate(IN_VIEW_JS, "#takeback-bar"), "the request is out of sight"
    return str(viewer.page.inner_text("#takeback-text"))


@pytest.mark.parametrize("ruleset,size", [("fab", LAPTOP), ("redemption", PHONE)])
def test_a_take_back_accepted_and_one_refused_seen_from_both_seats_and_the_spectator(
    browser: Any,  # noqa: F811 (the fixture)
    server: ThreadServer,  # noqa: F811 (the fixture)
    ruleset: str,
    size: dict[str, int],
) -> None:
    t = Match(server, browser, board_body(ruleset))
    try:
        for viewer in t.viewers.values():
            viewer.page.set_viewport_size(size)
        alice, bob, spectator = t["alice"], t["bob"], t[None]
        hand = len(names_in(alice, "alice.hand"))
        draw(t)
        assert len(names_in(alice, "alice.hand")) == hand + 1
        assert bob.page.locator("#takeback-btn").is_hidden()
        assert spectator.page.locator("#takeback-btn").is_hidden()
        # alice asks: every board shows the request, bob may answer it.
        alice.page.click("#takeback-btn")
        assert "you ask to take back your last 1 act" in bar_text(alice)
        for viewer in (bob, spectator):
            assert "alice asks to take back their last 1 act · waiting for bob" in bar_text(viewer)
        assert alice.page.locator("#takeback-accept").is_hidden()
        assert alice.page.inner_text("#takeback-refuse") == "Withdraw"
        assert spectator.page.locator("#takeback-accept").is_hidden()
        assert spectator.page.locator("#takeback-refuse").is_hidden()
        assert bob.page.evaluate(IN_VIEW_JS, "#takeback-accept")
        t.check()
        if size is LAPTOP:
            page = snapshot_page(t, browser, "bob", PICTURE)
            page.wait_for_selector("#takeback-bar:not([hidden])")
            checked(t, page, "bob")
            folder = picture_folder()
            page.screenshot(path=folder / "board-take-back.png")
            page.context.close()
            assert (folder / "board-take-back.png").stat().st_size < 200_000
        # bob accepts: the take-back is the next event, and every board is
        # back where it was, with the take-back in its log.
        bob.page.click("#takeback-accept")
        t.applied()
        assert len(names_in(alice, "alice.hand")) == hand
        for viewer in t.viewers.values():
            viewer.page.wait_for_selector("#takeback-bar", state="hidden")
            log = viewer.page.evaluate(LAST_LOG_JS)
            assert "alice took back 1 act, with the other seats' consent" in log
        store = server.app.state.server.store
        assert store.head(t.id) == t.number == 2
        # The next one bob refuses: every board says so, and nothing changes.
        draw(t)
        alice.page.click("#takeback-btn")
        bar_text(bob)
        bob.page.click("#takeback-refuse")
        assert "bob refused: your last 1 act stand" in _refused(alice)
        assert "you refused: alice's last 1 act stand" in _refused(bob)
        assert "bob refused: alice's last 1 act stand" in _refused(spectator)
        assert len(names_in(alice, "alice.hand")) == hand + 1
        assert store.head(t.id) == t.number == 3
        t.check()
        # The next act leaves the refusal behind.
        draw(t)
        for viewer in t.viewers.values():
            viewer.page.wait_for_selector("#takeback-bar", state="hidden")
    finally:
        t.close()


def _refused(viewer: Viewer) -> str:
    viewer.page.wait_for_function("() => (window.cardzonesBoard.takeBack || {}).refused")
    return bar_text(viewer)
