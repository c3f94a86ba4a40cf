"""A board that forgives and fits, in Chromium, at a laptop's size
(1366×768) and a phone's (390×844):

- a refused drop is never silent: its message, in words with the rule id
  once, is beside its card and inside the window, and it uses up no event
  number (the next act is the next number);
- dragging a card placed on another moves that card alone: its host stays.

Each page and frame is checked for leaks after every step, as in the other
board tests.
"""

from __future__ import annotations

from typing import Any

import pytest
from boardkit import CHROMIUM, CHROMIUM_MISSING, ThreadServer, board_body, real_board_body
from test_board import Table, Viewer, browser, names_in, server  # noqa: F401 (fixtures)

if not CHROMIUM.exists():
    pytest.skip(CHROMIUM_MISSING, allow_module_level=True)

LAPTOP_768 = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
SIZES = {"laptop": LAPTOP_768, "phone": PHONE}
#: Whether an element is wholly inside the window, as the player looks at it.
IN_VIEW_JS = """(node) => {
  const r = node.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0
    && r.bottom <= innerHeight && r.right <= innerWidth;
}"""


def drag(viewer: Viewer, source: Any, zone: str, size: dict[str, int]) -> None:
    """Drag a card to a zone at a screen of ``size``. A synthetic drag cannot
    scroll the page, so the window is as tall as the page for the drag, and
    back to ``size`` after it."""
    height = int(viewer.page.evaluate("() => document.documentElement.scrollHeight"))
    viewer.page.set_viewport_size({"width": size["width"], "height": max(height, size["height"])})
    try:
        source.drag_to(viewer.zone(zone))
    finally:
        viewer.page.set_viewport_size(size)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_refused_drop_says_why_beside_its_card_inside_the_window(
    browser: Any,  # noqa: F811 (the fixture)
    server: ThreadServer,  # noqa: F811 (the fixture)
    size: str,
) -> None:
    t = Table(server, browser, board_body("fab"))
    try:
        screen = SIZES[size]
        alice = t["alice"]
        alice.page.set_viewport_size(screen)
        # The hero dropped on its own soul: the rules refuse it (3.0.14).
        drag(alice, alice.card("alice.hero"), "alice.soul", screen)
        bubble = alice.card("alice.hero").locator(".refusal")
        bubble.wait_for()
        text = bubble.inner_text()
        assert text == "a card cannot be put under itself [rule 3.0.14]"
        assert text.count("3.0.14") == 1
        # Where the player is looking: the hero is scrolled into view, and
        # the message is inside the window, however the page scrolls.
        alice.card("alice.hero").scroll_into_view_if_needed()
        assert bubble.evaluate(IN_VIEW_JS)
        alice.page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        assert bubble.evaluate(IN_VIEW_JS)
        # Its words are on a few lines, not one word a line.
        lines = bubble.evaluate("b => Math.round(b.getBoundingClientRect().height / 17)")
        assert lines <= 3, lines
        store = server.app.state.server.store
        assert store.head(t.id) == 0
        t.check()
        # The refusal used up no number: the next act is event 1.
        drag(alice, alice.card("alice.deck"), "alice.hand", screen)
        t.applied()
        assert store.head(t.id) == t.number == 1
        assert alice.page.locator("#board .refusal").count() == 0
    finally:
        t.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_dragging_a_placed_card_moves_it_alone(
    browser: Any,  # noqa: F811 (the fixture)
    server: ThreadServer,  # noqa: F811 (the fixture)
    size: str,
) -> None:
    t = Table(server, browser, real_board_body("redemption"))
    try:
        screen = SIZES[size]
        alice = t["alice"]
        alice.page.set_viewport_size(screen)
        dread = alice.named("alice.land_of_bondage", 'Lost Soul "Dread"')
        alice.menu(dread, "place", {"onto": "Assyria (alice's territory)"}, param="cards")
        t.applied()
        site = alice.named("alice.territory", "Assyria")
        placed = site.locator(".tucked.placed > .card")
        assert placed.count() == 1
        territory = sorted(names_in(alice, "alice.territory"))
        drag(alice, placed.first, "alice.land_of_bondage", screen)
        t.applied()
        # Dread alone went back; Assyria, its host, stays where it was.
        assert 'Lost Soul "Dread" [Exodus 15:16 - K]' in names_in(t[None], "alice.land_of_bondage")
        after = sorted(names_in(alice, "alice.territory"))
        assert after == sorted(n for n in territory if not n.startswith("Lost Soul"))
        assert alice.named("alice.territory", "Assyria").locator(".tucked.placed").count() == 0
    finally:
        t.close()
