"""The board in a real browser: Debian's Chromium driven by Playwright, one
browser context per seat and one for the spectator, on a table server on
127.0.0.1.

- A whole short game of each rule set is played by dragging cards and by the
  menus of the rule set's action table; a refused act shows the engine's
  message and rule id beside its card; a seat finishes the game and replays it
  from the other seat's point of view.
- No leak in the page: after every act, for each viewer, the page's HTML, its
  text, every attribute, the data its script keeps and every WebSocket frame
  it received hold no name and no stat of a card the engine says that viewer
  may not look at now.
- A reload, and a restart of the server on the same SQLite file, keep the
  game: the board reconnects by itself.

Screenshots of every board are left in build/screenshots/.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from boardkit import (
    CHROMIUM,
    CHROMIUM_ARGS,
    CHROMIUM_MISSING,
    SCREENSHOTS,
    VIEWERS,
    ThreadServer,
    assert_nothing_secret,
    board_body,
    frames_text,
    page_blobs,
    real_board_body,
    secrets_of,
    thread_server,
)

from cardzones.cards.index import HOME_VARIABLE

if not CHROMIUM.exists():
    pytest.skip(CHROMIUM_MISSING, allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

#: How long any one wait in a page may take, in milliseconds.
WAIT_MS = 15_000
REFUSAL_JS = "() => JSON.stringify(window.cardzonesBoard.refusal)"
LAPTOP = {"width": 1366, "height": 900}
#: Scrolls the board so that the zones between the players are just below the bar.
SCROLL_TO_MIDDLE_JS = """() => {
  const top = document.querySelector('#board .shared').getBoundingClientRect().top;
  window.scrollBy(0, top - document.querySelector('#bar').offsetHeight - 4);
}"""
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # launch() gives the browser a fresh user-data folder of its own (under
    # TMPDIR, here a new one), removed when it closes; one context per viewer
    # keeps their storage apart.
    profile = tempfile.mkdtemp(prefix="cardzones-chromium-")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=CHROMIUM_ARGS,
            env={**os.environ, "TMPDIR": profile},
            timeout=60_000,
        )
        try:
            yield browser
        finally:
            browser.close()
            shutil.rmtree(profile, ignore_errors=True)


class Viewer:
    """One browser context at the table: its page and every WebSocket frame
    that page received."""

    def __init__(self, browser: Any, name: str | None, url: str) -> None:
        self.name = name
        self.context = browser.new_context(viewport=LAPTOP)
        self.context.set_default_timeout(WAIT_MS)
        self.page = self.context.new_page()
        self.frames: list[Any] = []
        self.sent: list[Any] = []
        self.errors: list[str] = []
        #: the page's HTTP requests for its legal acts
        self.legal_http = 0
        self.page.on("websocket", self._socket)
        self.page.on("request", self._request)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.goto(url)
        self.connected()

    @property
    def label(self) -> str:
        return self.name or "spectator"

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(payload))
        ws.on("framesent", lambda payload: self.sent.append(payload))

    def _request(self, request: Any) -> None:
        if request.url.split("?")[0].endswith("/legal"):
            self.legal_http += 1

    @property
    def legal_requests(self) -> int:
        """The page's requests for its legal acts: on its socket (``legal``
        frames) and over HTTP."""
        frames = sum(1 for f in self.sent if isinstance(f, str) and f.startswith('{"legal"'))
        return frames + self.legal_http

    def connected(self) -> None:
        self.page.wait_for_selector("#conn[data-state=connected]")
        self.page.wait_for_function("() => window.cardzonesBoard.actions !== null")

    def number(self) -> int:
        return int(self.page.evaluate("() => window.cardzonesBoard.number"))

    def wait_number(self, number: int) -> None:
        self.page.wait_for_function("n => window.cardzonesBoard.number >= n", arg=number)

    def card(self, zone: str, index: int = 0) -> Any:
        return self.page.locator(f'#board [data-zone="{zone}"] .cards > .card').nth(index)

    def named(self, zone: str, name: str) -> Any:
        """The first card of a zone with that name on its face."""
        face = self.page.locator(":scope > .name", has_text=name)
        return self.page.locator(f'#board [data-zone="{zone}"] .cards > .card', has=face).first

    def zone(self, zone: str) -> Any:
        return self.page.locator(f'#board [data-zone="{zone}"]').first

    def drag(self, source: Any, zone: str) -> None:
        """Drag a card to a zone. A synthetic drag cannot scroll the page, so
        a board taller than the screen is shown whole for the drag."""
        height = int(self.page.evaluate("() => document.documentElement.scrollHeight"))
        if height > LAPTOP["height"]:
            self.page.set_viewport_size({"width": LAPTOP["width"], "height": height})
        try:
            source.drag_to(self.zone(zone))
        finally:
            self.page.set_viewport_size(LAPTOP)

    def menu(
        self,
        card: Any,
        action: str,
        fields: dict[str, str] | None = None,
        param: str | None = None,
    ) -> None:
        """Click a card and do an action from its menu: its one-click entry
        when there is one and nothing to fill in, else its form (with the card
        as ``param``, when the action takes several cards), filled in."""
        card.click()
        self.pick(action, fields, param)

    def one_click(self, opener: Any, action: str, *parts: str) -> dict[str, Any]:
        """Open a menu (click ``opener``: a card, or the bar's Actions button),
        wait for its one-click entries from ``/legal``, and click the first of
        ``action`` whose act holds each of ``parts`` (pieces of its JSON).
        Returns the act the entry sends."""
        opener.click()
        self.page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
        entry = self.page.locator(f'#menu .menu-legal button.legal[data-action="{action}"]')
        for part in parts:
            entry = entry.and_(self.page.locator(f"[data-act*='{part}']"))
        entry = entry.first
        step: dict[str, Any] = json.loads(entry.get_attribute("data-act") or "null")
        self.reveal(entry)
        entry.click()
        return step

    def reveal(self, entry: Any) -> None:
        """Open the menu's "More" when ``entry`` is among the entries under it."""
        more = self.page.locator("#menu .menu-more")
        if entry.count() and not entry.is_visible() and more.count():
            more.click()

    def actions(self, action: str, fields: dict[str, str] | None = None) -> None:
        """Do an action from the bar's Actions menu, as :meth:`menu` does."""
        self.page.click("#actions-btn")
        self.pick(action, fields, None)

    def pick(self, action: str, fields: dict[str, str] | None, param: str | None) -> None:
        self.page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
        if fields is None and param is None:
            one = self.page.locator(f'#menu button.legal[data-action="{action}"]')
            if one.count():
                self.reveal(one.first)
                one.first.click()
                return
        which = f'[data-param="{param}"]' if param else ""
        form = self.page.locator(f'#menu button[data-action="{action}"]:not(.legal){which}').first
        self.reveal(form)
        form.click()
        self.submit(fields)

    def submit(self, fields: dict[str, str] | None) -> None:
        form = self.page.locator("#form")
        for name, value in (fields or {}).items():
            field = form.locator(f'[name="{name}"]')
            if field.evaluate("e => e.tagName") == "SELECT":
                # A card is chosen by what the option says: "Assyria (alice's territory)".
                has = field.evaluate("(e, v) => [...e.options].some(o => o.value === v)", value)
                field.select_option(value) if has else field.select_option(label=value)
            else:
                field.fill(value)
        form.locator("button[type=submit]").click()

    def close(self) -> None:
        self.context.close()


class Table:
    """A table and its three viewers, with the no-leak check after each act."""

    def __init__(self, server: ThreadServer, browser: Any, body: dict[str, Any]) -> None:
        self.server = server
        self.created = server.create(body)
        self.id = self.created["table"]
        self.viewers: dict[str | None, Viewer] = {}
        for name in VIEWERS:
            link = self.created["links"][name or "spectator"]
            self.viewers[name] = Viewer(browser, name, server.url + link)
        self.checked = {name: 0 for name in VIEWERS}
        self.number = 0
        self.checks = 0
        self.check()

    def __getitem__(self, name: str | None) -> Viewer:
        return self.viewers[name]

    def applied(self) -> None:
        """The last act was applied: every page shows its event, then the check."""
        self.number += 1
        for viewer in self.viewers.values():
            try:
                viewer.wait_number(self.number)
            except sync_api.TimeoutError:
                refusals = {
                    v.label: (v.page.evaluate(REFUSAL_JS), v.page.inner_text("#notice"))
                    for v in self.viewers.values()
                }
                raise AssertionError(f"event {self.number} did not arrive: {refusals}") from None
        self.check()

    def refused(self, seat: str, rule: str, card: Any) -> None:
        """The last act was refused: its message and rule id are beside its card."""
        bubble = card.locator(".refusal")
        bubble.wait_for()
        assert bubble.get_attribute("data-rule") == rule
        assert f"[rule {rule}]" in bubble.inner_text()
        assert self.server.app.state.server.store.head(self.id) == self.number
        self.check()

    def check(self) -> None:
        """No page holds a name or stat of a card its viewer may not look at
        now, and no frame it received since the last check does either."""
        game = self.server.game(self.id)
        for name, viewer in self.viewers.items():
            names, stats = secrets_of(game, name)
            assert names, "the check needs cards the viewer may not see"
            for where, text in page_blobs(viewer.page).items():
                assert_nothing_secret(f"{viewer.label}'s page ({where})", text, names, stats)
            new = viewer.frames[self.checked[name] :]
            self.checked[name] = len(viewer.frames)
            assert_nothing_secret(f"{viewer.label}'s frames", frames_text(new), names, stats)
            assert not viewer.errors, viewer.errors
        self.checks += 1

    def screenshots(self, prefix: str) -> None:
        """Each viewer's whole board on a laptop screen, and alice's on a phone:
        the screen that shows the middle of the table and her own area, and
        the whole page."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for viewer in self.viewers.values():
            # A fresh page: Chromium may still paint the image of the last drag.
            viewer.page.reload()
            viewer.connected()
            viewer.page.screenshot(
                path=SCREENSHOTS / f"{prefix}-{viewer.label}.png", full_page=True
            )
        alice = self.viewers["alice"].page
        alice.set_viewport_size(PHONE)
        alice.screenshot(path=SCREENSHOTS / f"{prefix}-alice-phone-full.png", full_page=True)
        alice.evaluate(SCROLL_TO_MIDDLE_JS)
        alice.screenshot(path=SCREENSHOTS / f"{prefix}-alice-phone.png")
        alice.set_viewport_size(LAPTOP)
        self.check()

    def close(self) -> None:
        for viewer in self.viewers.values():
            viewer.close()


@pytest.fixture
def server() -> Iterator[ThreadServer]:
    with thread_server() as server:
        yield server


def names_in(viewer: Viewer, zone: str) -> list[str]:
    return [
        n.strip()
        for n in viewer.page.locator(f'#board [data-zone="{zone}"] .card .name').all_inner_texts()
    ]


def play_fab(t: Table) -> None:
    alice, bob, spectator = t["alice"], t["bob"], t[None]
    # alice draws: her deck's top card, dragged to her hand
    alice.drag(alice.card("alice.deck"), "alice.hand")
    t.applied()
    assert len(names_in(alice, "alice.hand")) == 4
    assert spectator.card("alice.hand", 3).get_attribute("class") == "card back"
    # a hand card dragged to the graveyard: now everybody sees it
    alice.drag(alice.card("alice.hand", 0), "alice.graveyard")
    t.applied()
    assert len(names_in(bob, "alice.graveyard")) == 1
    # play one from the menu, then resolve the stack from the bar's menu
    alice.menu(alice.card("alice.hand", 0), "play")
    t.applied()
    assert len(names_in(spectator, "stack")) == 1
    alice.actions("resolve")
    t.applied()
    assert len(names_in(spectator, "alice.graveyard")) == 2
    # the hero dragged onto its own soul: the rules refuse it (3.0.14)
    hero = alice.card("alice.hero")
    alice.drag(hero, "alice.soul")
    t.refused("alice", "3.0.14", alice.card("alice.hero"))
    # a menu act the table refuses by rule: resolve with an empty stack
    alice.actions("resolve")
    bubble = alice.page.locator("#board > .refusal")
    bubble.wait_for()
    assert bubble.get_attribute("data-rule") == "3.15.5"
    t.check()
    alice.actions("end_turn")
    t.applied()
    # bob's turn: he draws, banishes a card face down, arms his arsenal
    bob.drag(bob.card("bob.deck"), "bob.hand")
    t.applied()
    bob.menu(bob.card("bob.hand", 0), "move", {"to": "bob.banished", "face": "down"})
    t.applied()
    assert bob.page.locator('[data-zone="bob.banished"] .card.facedown').count() == 1
    assert alice.page.locator('[data-zone="bob.banished"] .card.back').count() == 1
    bob.drag(bob.card("bob.hand", 0), "bob.arsenal")
    t.applied()
    assert spectator.page.locator('[data-zone="bob.arsenal"] .card.back').count() == 1


def play_redemption(t: Table) -> None:
    alice, bob, spectator = t["alice"], t["bob"], t[None]
    alice.drag(alice.card("alice.deck"), "alice.hand")
    t.applied()
    alice.drag(alice.card("alice.hand", 0), "alice.territory")
    t.applied()
    assert len(names_in(bob, "alice.territory")) == 3
    alice.actions("phase", {"phase": "preparation"})
    t.applied()
    assert "preparation" in spectator.page.inner_text("#turn")
    # returning a card that is not set aside: the rules refuse it
    alice.menu(alice.card("alice.territory", 0), "return")
    t.refused("alice", "set-aside/definition", alice.card("alice.territory", 0))
    alice.drag(alice.card("alice.territory", 0), "alice.land_of_redemption")
    t.applied()
    alice.menu(alice.card("alice.hand", 0), "discard")
    t.applied()
    assert len(names_in(spectator, "alice.discard")) == 1
    alice.actions("end_turn")
    t.applied()
    bob.drag(bob.card("bob.deck"), "bob.hand")
    t.applied()
    bob.menu(bob.card("bob.hand", 0), "move", {"to": "bob.banish", "face": "down"})
    t.applied()
    assert alice.page.locator('[data-zone="bob.banish"] .card.back').count() == 1
    assert bob.page.locator('[data-zone="bob.banish"] .card.facedown').count() == 1


GAMES = {"fab": play_fab, "redemption": play_redemption}


def play_fab_real(t: Table) -> None:
    """Dorinthea's first acts: a draw, a pitch, an attack on the combat chain
    and an action on the stack."""
    alice = t["alice"]
    alice.drag(alice.card("alice.deck"), "alice.hand")
    t.applied()
    alice.drag(alice.named("alice.hand", "Sink Below"), "alice.pitch")
    t.applied()
    alice.menu(alice.named("alice.hand", "Snatch"), "play")
    t.applied()
    alice.menu(alice.named("stack", "Snatch"), "move", {"to": "combat_chain"})
    t.applied()
    alice.menu(alice.named("alice.hand", "Steelblade Supremacy"), "play")
    t.applied()
    assert names_in(t[None], "combat_chain") == ["Snatch"]
    assert names_in(t["bob"], "stack") == ["Steelblade Supremacy"]


def play_redemption_real(t: Table) -> None:
    """A draw, a Lost Soul placed in a site, and a hero set aside by an
    enhancement in the preparation phase."""
    alice = t["alice"]
    alice.drag(alice.card("alice.deck"), "alice.hand")
    t.applied()
    dread = alice.named("alice.land_of_bondage", 'Lost Soul "Dread"')
    alice.menu(dread, "place", {"onto": "Assyria (alice's territory)"}, param="cards")
    t.applied()
    alice.actions("phase", {"phase": "preparation"})
    t.applied()
    abraham = alice.named("alice.territory", "Abraham (CoW)")
    fields = {"source": "Pleading for the City (alice's hand)", "duration": "1"}
    alice.menu(abraham, "set_aside", fields, param="cards")
    t.applied()
    assert sorted(names_in(t["bob"], "alice.set_aside")) == [
        "Abraham (CoW)",
        "Pleading for the City",
    ]
    site = t[None].named("alice.territory", "Assyria")
    assert site.locator(".tucked.placed .name").all_inner_texts() == [
        'Lost Soul "Dread" [Exodus 15:16 - K]'
    ]


REAL_GAMES = {"fab": play_fab_real, "redemption": play_redemption_real}


@pytest.mark.parametrize("ruleset", sorted(REAL_GAMES))
def test_a_board_of_real_cards_leaks_nothing_and_is_photographed(
    browser: Any, server: ThreadServer, ruleset: str
) -> None:
    """The README's screenshots: a realistic position of real cards from the
    card fixtures, after a few acts, each checked for leaks like any game."""
    table = Table(server, browser, real_board_body(ruleset))
    try:
        REAL_GAMES[ruleset](table)
        assert table.checks > table.number
        table.screenshots(ruleset)
        # Nothing on a card's face spills out of it or is cut off.
        for viewer in table.viewers.values():
            assert viewer.page.evaluate(OVERFLOW_JS) == []
    finally:
        table.close()


#: The parts of card faces that stick out of their card, or whose text is cut.
OVERFLOW_JS = """() => {
  const out = [];
  for (const card of document.querySelectorAll('#board .card')) {
    const box = card.getBoundingClientRect();
    for (const part of card.querySelectorAll('.name, .types, .keywords, .stat, .face-note')) {
      const r = part.getBoundingClientRect();
      if (!part.getClientRects().length) continue;  // not shown
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5
          || part.scrollWidth > part.clientWidth + 1) {
        out.push(card.dataset.ref + ': ' + part.textContent);
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_a_whole_game_by_drag_and_menu_leaks_nothing_and_replays_from_any_seat(
    browser: Any, server: ThreadServer, ruleset: str
) -> None:
    table = Table(server, browser, board_body(ruleset))
    try:
        GAMES[ruleset](table)
        assert table.checks > table.number  # a check after every act, refused or not
        table.screenshots(f"{ruleset}-leak-test")
        for viewer in table.viewers.values():
            assert viewer.page.evaluate(OVERFLOW_JS) == []
        final = {v: names_in(table[v], "bob.hand") for v in VIEWERS}
        assert final["alice"] == final[None] == []  # bob's hand shows backs only
        # Until the game is finished, alice replays it only as she saw it.
        alice = table["alice"]
        headers = {"Authorization": f"Bearer {table.created['seats']['alice']}"}
        history = f"{server.url}/api/tables/{table.id}/history"
        assert httpx.get(history, params={"as": "bob"}, headers=headers).status_code == 403
        # bob proposes to finish the game (two clicks); every board shows the
        # proposal, and it is not finished until alice agrees.
        bob = table["bob"]
        bob.page.click("#finish-btn")
        bob.page.click("#finish-btn")
        for viewer in table.viewers.values():
            viewer.page.wait_for_selector("#finish-bar:not([hidden])")
            assert "bob proposes to finish the game" in viewer.page.inner_text("#finish-text")
            assert viewer.page.evaluate("() => window.cardzonesBoard.finished") is None
        assert bob.page.locator("#finish-accept").is_hidden()
        assert table[None].page.locator("#finish-accept").is_hidden()
        assert httpx.get(history, params={"as": "bob"}, headers=headers).status_code == 403
        alice.page.click("#finish-accept")
        for viewer in table.viewers.values():
            viewer.page.wait_for_function("() => window.cardzonesBoard.finished !== null")
            assert "game over" in viewer.page.inner_text("#turn")
        assert alice.page.locator("#actions-btn").is_hidden()
        # alice replays it as bob saw it: his first drawn card, step by step
        alice.page.click("#replay-btn")
        alice.page.wait_for_selector("#replay-bar:not([hidden])")
        alice.page.select_option("#replay-as", "bob")
        alice.page.wait_for_function(
            "() => window.cardzonesBoard.replay && window.cardzonesBoard.replay.as === 'bob'"
        )
        game = server.game(table.id)
        bob_hand = [game.obj(c).cdef.name for c in game.contents(game.zone("bob", "hand"))]
        alice.page.click("#replay-last")
        assert sorted(names_in(alice, "bob.hand")) == sorted(bob_hand)
        alice.page.click("#replay-first")
        assert "event 0" in alice.page.inner_text("#replay-pos")
        assert len(names_in(alice, "bob.hand")) == 3
        alice.page.click("#replay-close")
        assert names_in(alice, "bob.hand") == []
    finally:
        table.close()


def one_click_fab(t: Table) -> list[dict[str, Any]]:
    """A fab game played from the menus' one-click entries alone."""
    alice, bob = t["alice"], t["bob"]
    acts = [alice.one_click(alice.card("alice.deck"), "move", '"to":"alice.hand"')]
    t.applied()
    acts.append(alice.one_click(alice.card("alice.hand", 0), "play"))
    t.applied()
    # Another menu at the same position asks nothing more of the server.
    alice.card("alice.hand", 0).click()
    alice.page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
    asked = alice.legal_requests
    alice.page.keyboard.press("Escape")
    acts.append(alice.one_click(alice.page.locator("#actions-btn"), "resolve"))
    assert alice.legal_requests == asked
    t.applied()
    assert len(names_in(t[None], "alice.graveyard")) == 1
    acts.append(alice.one_click(alice.card("alice.hand", 0), "move", '"to":"alice.arsenal"'))
    t.applied()
    acts.append(alice.one_click(alice.page.locator("#actions-btn"), "end_turn"))
    t.applied()
    acts.append(bob.one_click(bob.page.locator("#actions-btn"), "draw"))
    t.applied()
    acts.append(bob.one_click(bob.card("bob.hand", 0), "flip", '"face":"up"'))
    t.applied()
    acts.append(bob.one_click(bob.card("bob.hand", 1), "move", '"to":"bob.graveyard"'))
    t.applied()
    assert len(names_in(alice, "bob.graveyard")) == 1
    # (A pitched card goes to the bottom of its deck at the end of the turn,
    # 4.4.3c: a name its owner saw, and the check here would count it.)
    acts.append(bob.one_click(bob.card("bob.hand", 1), "pitch"))
    t.applied()
    assert len(names_in(alice, "bob.pitch")) == 1
    return acts


def one_click_redemption(t: Table) -> list[dict[str, Any]]:
    """A Redemption game played from the menus' one-click entries alone."""
    alice, bob = t["alice"], t["bob"]
    acts = [alice.one_click(alice.card("alice.deck"), "move", '"to":"alice.hand"')]
    t.applied()
    acts.append(alice.one_click(alice.card("alice.hand", 0), "move", '"to":"alice.territory"'))
    t.applied()
    acts.append(alice.one_click(alice.page.locator("#actions-btn"), "phase", "preparation"))
    t.applied()
    assert "preparation" in t[None].page.inner_text("#turn")
    acts.append(alice.one_click(alice.card("alice.hand", 0), "discard"))
    t.applied()
    acts.append(alice.one_click(alice.page.locator("#actions-btn"), "end_turn"))
    t.applied()
    acts.append(bob.one_click(bob.page.locator("#actions-btn"), "draw"))
    t.applied()
    acts.append(bob.one_click(bob.card("bob.hand", 0), "move", '"to":"bob.land_of_redemption"'))
    t.applied()
    acts.append(bob.one_click(bob.page.locator("#actions-btn"), "end_turn"))
    t.applied()
    assert len(names_in(alice, "alice.discard")) == 1
    assert len(names_in(t[None], "bob.land_of_redemption")) == 1
    return acts


ONE_CLICK_GAMES = {"fab": one_click_fab, "redemption": one_click_redemption}


@pytest.mark.parametrize("ruleset", sorted(ONE_CLICK_GAMES))
def test_a_whole_game_from_the_legal_menus_one_click_entries(
    browser: Any, server: ThreadServer, ruleset: str
) -> None:
    """Every act of the game is a one-click entry of a menu, made from the
    seat's legal acts: each is sent as the act itself and accepted. A page
    asks for its legal acts only when its player opens a menu, once per
    position."""
    table = Table(server, browser, board_body(ruleset))
    try:
        acts = ONE_CLICK_GAMES[ruleset](table)
        assert table.number == len(acts)
        sent = [json.loads(f) for v in ("alice", "bob") for f in table[v].sent]
        sent_acts = [f["act"] for f in sent if "act" in f]
        assert sorted(map(json.dumps, sent_acts)) == sorted(map(json.dumps, acts))
        stored = server.app.state.server.store.actions(table.id)
        assert [a.number for a in stored] == list(range(1, len(acts) + 1))
        # Asked only on opening a menu: the spectator never, each seat at most
        # once per position it opened menus at.
        assert table[None].legal_requests == 0
        for seat in ("alice", "bob"):
            assert 0 < table[seat].legal_requests <= len(acts)
            # on the socket the page holds, not over HTTP
            assert table[seat].legal_http == 0
    finally:
        table.close()


def test_without_its_socket_a_page_asks_its_legal_acts_over_http(
    browser: Any, server: ThreadServer
) -> None:
    """The board asks on its socket while it is open, and over HTTP while it
    is not: the same list either way."""
    table = Table(server, browser, board_body("fab"))
    try:
        alice = table["alice"]
        over_http = alice.page.evaluate(
            """async () => {
                const held = socket;
                socket = null;
                try { return await loadLegal(); } finally { socket = held; }
            }"""
        )
        assert alice.legal_http == 1 and over_http
        alice.page.evaluate(
            "() => { window.cardzonesBoard.legalNumber = null; legalAsked = null; }"
        )
        on_socket = alice.page.evaluate("() => loadLegal()")
        assert alice.legal_http == 1 and alice.legal_requests == 2
        assert on_socket == over_http
    finally:
        table.close()


def test_reload_and_a_server_restart_keep_the_game(browser: Any, tmp_path: Path) -> None:
    server = ThreadServer(str(tmp_path / "tables.sqlite3")).start()
    table = Table(server, browser, board_body("fab"))
    try:
        alice, bob = table["alice"], table["bob"]
        alice.drag(alice.card("alice.deck"), "alice.hand")
        table.applied()
        hand = names_in(alice, "alice.hand")
        alice.page.reload()
        alice.connected()
        assert alice.number() == 1
        assert names_in(alice, "alice.hand") == hand
        log = alice.page.locator("#log li").all_inner_texts()
        assert log and "moved" in log[-1]
        # The server goes away: the boards say so, and come back by themselves
        # when it is started again on the same port and SQLite file.
        server.stop()
        for viewer in (alice, bob):
            viewer.page.wait_for_selector("#conn[data-state=reconnecting]")
        server.start()
        for viewer in (alice, bob):
            viewer.connected()
            assert viewer.number() == 1
        assert names_in(alice, "alice.hand") == hand
        assert alice.page.locator("#log li").all_inner_texts() == log
        alice.drag(alice.card("alice.hand", 0), "alice.graveyard")
        table.applied()
        assert names_in(bob, "alice.graveyard") == [hand[0]]
    finally:
        table.close()
        server.stop()


def test_the_create_page_makes_a_table_and_shows_each_seats_link(
    browser: Any, server: ThreadServer
) -> None:
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(WAIT_MS)
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#ruleset option[value=redemption]", state="attached")
        page.fill(
            "#scenario", "ruleset: redemption\nplayers: [ann, ben]\nsetup:\n  ann.hand: [Gideon]\n"
        )
        page.click("#create button[type=submit]")
        page.wait_for_selector("#links:not([hidden])")
        links = {
            field.get_attribute("data-seat"): field.input_value()
            for field in page.locator("#link-list input.link").all()
        }
        assert set(links) == {"ann", "ben", "spectator"}
        assert all(
            link.startswith(server.url + "/play/") and "#" in link for link in links.values()
        )
        # A bad start is refused with the server's message, and no links.
        page.goto(server.url + "/")
        page.wait_for_selector("#ruleset option[value=fab]", state="attached")
        page.fill("#scenario", "ruleset: fab\nsetup:\n  alice.nope: [A]\n")
        page.click("#create button[type=submit]")
        page.wait_for_selector("#error:not([hidden])")
        assert "scenario line" in page.inner_text("#error")
        assert page.locator("#links").is_hidden()
        # The seat's link opens its board, as that seat.
        page.goto(links["ann"])
        page.wait_for_selector("#conn[data-state=connected]")
        assert page.inner_text("#who") == "you are ann"
        assert page.locator('[data-zone="ann.hand"] .card .name').all_inner_texts() == ["Gideon"]
    finally:
        context.close()


def test_the_create_page_makes_a_table_from_deck_lists(
    browser: Any, server: ThreadServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    context = browser.new_context(viewport=LAPTOP)
    context.set_default_timeout(WAIT_MS)
    decks = Path(__file__).parent / "fixtures" / "decks"
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#ruleset option[value=fab]", state="attached")
        page.select_option("#ruleset", "fab")
        page.check("input[name=from][value=decks]")
        page.fill("#seed", "5")
        # alice's list typed in, bob's chosen as a file
        page.fill("textarea.deck[data-player=alice]", (decks / "dorinthea.fabdb.txt").read_text())
        page.set_input_files('input[aria-label="bob\'s deck list file"]', decks / "azalea.txt")
        bob_list = "textarea.deck[data-player=bob]"
        page.wait_for_function(
            f"() => document.querySelector('{bob_list}').value.includes('Azalea')"
        )
        # A bad list first: the server's message with the list and its line, no links.
        alice_list = page.input_value("textarea.deck[data-player=alice]")
        page.fill(
            "textarea.deck[data-player=alice]", alice_list.replace("Driving Blade", "Drivng Blade")
        )
        page.click("#create button[type=submit]")
        page.wait_for_selector("#error:not([hidden])")
        error = page.inner_text("#error")
        assert "decks.alice:10: no fab card called 'Drivng Blade'" in error
        assert "closest: 'Driving Blade'" in error
        assert page.locator("#links").is_hidden()
        page.fill("textarea.deck[data-player=alice]", alice_list)
        page.click("#create button[type=submit]")
        page.wait_for_selector("#links:not([hidden])")
        assert page.locator("#error").is_hidden()
        links = {
            field.get_attribute("data-seat"): field.input_value()
            for field in page.locator("#link-list input.link").all()
        }
        assert set(links) == {"alice", "bob", "spectator"}
        # alice's link: her hero, weapon and equipment in their zones, her deck a pile.
        page.goto(links["alice"])
        page.wait_for_selector("#conn[data-state=connected]")
        face = '[data-zone="{}"] .cards > .card > .name'
        assert page.locator(face.format("alice.hero")).all_inner_texts() == ["Dorinthea Ironsong"]
        assert page.locator(face.format("alice.weapon.1")).all_inner_texts() == ["Dawnblade"]
        assert page.locator(face.format("bob.weapon.2")).all_inner_texts() == ["Crow's Nest"]
        # Deck lists play by the rules' turn unless the box is cleared: the
        # procedure began, and each player drew up to intellect (4, 4.1.9).
        assert page.inner_text('[data-zone="alice.deck"] .pile-count') == "11"
        assert page.locator('[data-zone="alice.hand"] .cards > .card').count() == 4
        # Redemption: LackeyCCG files for both players.
        page.goto(server.url + "/")
        page.wait_for_selector("#ruleset option[value=redemption]", state="attached")
        page.select_option("#ruleset", "redemption")
        page.check("input[name=from][value=decks]")
        assert "LackeyCCG" in page.inner_text("#decks-help")
        assert page.is_checked("#procedure")
        page.uncheck("#procedure")  # this table is played by hand
        for player in ("alice", "bob"):
            label = f"{player}'s deck list file"
            page.set_input_files(f'input[aria-label="{label}"]', decks / "k-starter-part.dek")
        page.wait_for_function(
            "() => [...document.querySelectorAll('textarea.deck')]"
            ".every(a => a.value.includes('<deck'))"
        )
        page.click("#create button[type=submit]")
        page.wait_for_selector("#links:not([hidden])")
        bob = page.locator('#link-list input.link[data-seat="bob"]').input_value()
        page.goto(bob)
        page.wait_for_selector("#conn[data-state=connected]")
        reserve = page.locator(face.format("bob.reserve")).all_inner_texts()
        assert sorted(reserve) == ["Covenant with David [K]", "Pharaoh's Curse"]
        assert page.locator('[data-zone="alice.reserve"] .card.back').count() == 2
        # A server whose card index has no cards offers no deck lists.
        monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "no-index"))
        page.goto(server.url + "/")
        page.wait_for_selector("#ruleset option[value=fab]", state="attached")
        assert page.locator("#from-decks-label").is_hidden()
    finally:
        context.close()
