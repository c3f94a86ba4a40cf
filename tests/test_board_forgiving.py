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

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from boardkit import (
    CHROMIUM,
    CHROMIUM_MISSING,
    SCREENSHOTS,
    ThreadServer,
    board_body,
    real_board_body,
)
from test_board import Table, Viewer, browser, names_in, server  # noqa: F401 (fixtures)
from test_board_match import picture_folder

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


@contextmanager
def alice_at(host: ThreadServer, chromium: Any, body: dict[str, Any], size: str) -> Iterator[Table]:
    """A table of ``body`` whose alice looks at a screen of ``size``."""
    t = Table(host, chromium, body)
    try:
        t["alice"].page.set_viewport_size(SIZES[size])
        yield t
    finally:
        t.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_refused_drop_says_why_beside_its_card_inside_the_window(
    browser: Any,  # noqa: F811 (the fixture)
    server: ThreadServer,  # noqa: F811 (the fixture)
    size: str,
) -> None:
    with alice_at(server, browser, board_body("fab"), size) as t:
        screen = SIZES[size]
        alice = t["alice"]
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
        if size == "laptop":
            # The README's picture of a refusal (docs/images with CARDZONES_README_IMAGES=1).
            alice.card("alice.hero").scroll_into_view_if_needed()
            path = picture_folder() / "board-refusal.png"
            alice.page.screenshot(path=path)
            assert path.stat().st_size < 200_000
        # The refusal used up no number: the next act is event 1.
        drag(alice, alice.card("alice.deck"), "alice.hand", screen)
        t.applied()
        assert store.head(t.id) == t.number == 1
        assert alice.page.locator("#board .refusal").count() == 0


@pytest.mark.parametrize("size", sorted(SIZES))
def test_dragging_a_placed_card_moves_it_alone(
    browser: Any,  # noqa: F811 (the fixture)
    server: ThreadServer,  # noqa: F811 (the fixture)
    size: str,
) -> None:
    with alice_at(server, browser, real_board_body("redemption"), size) as t:
        screen = SIZES[size]
        alice = t["alice"]
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


#: Where the player's hand, the zones between the players and the page are.
PLACES_JS = """() => {
  const box = (s) => {
    const r = document.querySelector(s).getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  };
  return { hand: box('.mat.bottom [data-zone$=".hand"]'), middle: box('#board .shared'),
           page: document.documentElement.scrollHeight, scrolled: scrollY,
           width: innerWidth, height: innerHeight };
}"""


def in_view(place: dict[str, float], width: int, height: int) -> bool:
    return (
        place["top"] >= 0
        and place["left"] >= 0
        and (place["bottom"] <= height and place["right"] <= width)
    )


@pytest.mark.parametrize("ruleset", ["fab", "redemption"])
def test_the_hand_and_the_middle_are_in_view_and_a_phone_takes_about_two_screens(
    browser: Any,  # noqa: F811 (the fixture)
    server: ThreadServer,  # noqa: F811 (the fixture)
    ruleset: str,
) -> None:
    """At 1366×768, without scrolling, the player's whole hand and the zones
    between the players are in the window; on a 390×844 phone, so is the
    hand, and the page is about two screens tall."""
    t = Table(server, browser, real_board_body(ruleset))
    try:
        alice = t["alice"].page
        for size in (LAPTOP_768, PHONE):
            alice.set_viewport_size(size)
            alice.reload()
            t["alice"].connected()
            places = alice.evaluate(PLACES_JS)
            assert places["scrolled"] == 0
            assert in_view(places["hand"], size["width"], size["height"]), places
            if size is LAPTOP_768:
                assert in_view(places["middle"], size["width"], size["height"]), places
                # The README's picture of a laptop's screen is Redemption's.
                folder = picture_folder() if ruleset == "redemption" else SCREENSHOTS
                name = "board-laptop.png" if ruleset == "redemption" else f"{ruleset}-768.png"
                alice.screenshot(path=folder / name)
                assert (folder / name).stat().st_size < 200_000
            else:
                assert places["page"] <= 2.1 * size["height"], places
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                alice.screenshot(path=SCREENSHOTS / f"{ruleset}-phone-top.png")
        t.check()
    finally:
        t.close()


def test_a_pile_is_one_card_high_with_its_count_and_opens_to_browse(
    browser: Any,  # noqa: F811 (the fixture)
    server: ThreadServer,  # noqa: F811 (the fixture)
) -> None:
    t = Table(server, browser, board_body("fab"))
    try:
        alice, bob = t["alice"], t["bob"]
        alice.page.set_viewport_size(LAPTOP_768)
        heights = []
        for _ in range(3):
            alice.one_click(alice.card("alice.hand", 0), "move", '"to":"alice.graveyard"')
            t.applied()
            heights.append(alice.zone("alice.graveyard").bounding_box()["height"])
        # Three cards, one card high: the pile does not grow.
        assert max(heights) - min(heights) < 12, heights
        title = bob.zone("alice.graveyard").locator(".zone-title")
        assert title.locator(".count").inner_text() == "3"
        # Every card is on the page, the newest on top, the others behind it.
        shown = (
            bob.zone("alice.graveyard")
            .locator(".card .name")
            .evaluate_all("ns => ns.map(n => n.textContent.trim())")
        )
        assert len(shown) == 3 and names_in(bob, "alice.graveyard")[-1] == shown[-1]
        bob.page.click('[data-browse="alice.graveyard"]')
        panel = bob.page.locator("#browse")
        panel.wait_for()
        assert "alice's graveyard: 3 cards" in panel.inner_text()
        browsed = [n.strip() for n in panel.locator(".card .name").all_inner_texts()]
        assert sorted(browsed) == sorted(shown) and len(browsed) == 3
        t.check()
        panel.locator(".browse-close").click()
        panel.wait_for(state="hidden")
    finally:
        t.close()


def test_the_page_asks_for_nothing_it_lacks_and_its_glyphs_are_common(
    browser: Any,  # noqa: F811 (the fixture)
    server: ThreadServer,  # noqa: F811 (the fixture)
) -> None:
    """No request of the board's page fails (the icon among them), and the
    replay's buttons use glyphs every system font has."""
    created = server.create(board_body("fab"))
    context = browser.new_context(viewport=LAPTOP_768)
    try:
        page = context.new_page()
        failed: list[str] = []
        page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
        page.on("requestfailed", lambda r: failed.append(r.url))
        page.goto(server.url + created["links"]["alice"])
        page.wait_for_selector("#conn[data-state=connected]")
        page.wait_for_function("() => window.cardzonesBoard.actions !== null")
        page.wait_for_load_state("networkidle")
        assert failed == []
        icon = page.evaluate("() => document.querySelector('link[rel=icon]').href")
        assert icon.endswith("/static/favicon.svg")
        for button in ("#replay-first", "#replay-last"):
            text = page.evaluate(f"() => document.querySelector('{button}').textContent")
            assert not any(0x2300 <= ord(c) <= 0x23FF for c in text), text
    finally:
        context.close()


#: The entries of the open menu a player sees now (those under More aside).
VISIBLE_ENTRIES_JS = """() => [...document.querySelectorAll('#menu button')]
  .filter(b => b.offsetParent !== null && !b.classList.contains('menu-more'))
  .map(b => (b.getAttribute('aria-label') || b.textContent).trim())"""


@pytest.mark.parametrize("ruleset", ["fab", "redemption"])
def test_menus_are_short_likeliest_first_and_speak_the_games_words(
    browser: Any,  # noqa: F811 (the fixture)
    server: ThreadServer,  # noqa: F811 (the fixture)
    ruleset: str,
) -> None:
    t = Table(server, browser, real_board_body(ruleset))
    try:
        alice = t["alice"]
        page = alice.page
        page.set_viewport_size(LAPTOP_768)
        for opener in (
            alice.card("alice.hand", 0),
            alice.card("alice.deck"),
            page.locator("#actions-btn"),
        ):
            opener.click()
            page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
            shown = page.evaluate(VISIBLE_ENTRIES_JS)
            assert 0 < len(shown) <= 12, shown
            assert len(shown) == len(set(shown)), shown  # nothing twice (End the turn)
            # No move to the other player's zones before the seat's own.
            to_bob = [i for i, s in enumerate(shown) if "bob's" in s]
            to_own = [i for i, s in enumerate(shown) if "alice's" in s]
            if to_bob and to_own:
                assert max(to_own) < min(to_bob), shown
            more = page.locator("#menu .menu-more")
            if more.count():
                hidden = page.locator("#menu .more-entry").count()
                more.click()
                assert len(page.evaluate(VISIBLE_ENTRIES_JS)) == len(shown) + hidden
            page.keyboard.press("Escape")
        # A play the rules refuse now is not among the first entries: fab's
        # "Attack with it" for a card in a hand is under More, if anywhere.
        alice.card("alice.hand", 0).click()
        page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
        shown = page.evaluate(VISIBLE_ENTRIES_JS)
        assert not any(s.startswith("Attack") for s in shown), shown
        page.keyboard.press("Escape")
        # A change of stats asks for the card's own stats, in its game's words.
        card = page.locator('#board [data-zone="alice.hand"] .cards > .card:has(.stat)').first
        card.click()
        page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
        entry = page.locator('#menu button[data-action="modify"]:not(.legal)')
        alice.reveal(entry)
        entry.click()
        fields = page.locator("#form [data-kind=delta]").evaluate_all("fs => fs.map(f => f.name)")
        mine = {
            "fab": {"power", "defense", "cost", "pitch"},
            "redemption": {"strength", "toughness"},
        }
        assert fields and set(fields) <= mine[ruleset], (fields, page.inner_text("#form"))
        # A card list offers the seat's unseen deck by its top and bottom card.
        choices = page.locator("#form select option").all_inner_texts()
        deck = [c for c in choices if "alice's deck" in c]
        assert len(deck) <= 2 * page.locator("#form select").count(), deck
        page.keyboard.press("Escape")
        t.check()
    finally:
        t.close()


def test_a_preview_draws_the_rules_texts_marks_and_the_log_tells_a_change_of_stats(
    browser: Any,  # noqa: F811 (the fixture)
    server: ThreadServer,  # noqa: F811 (the fixture)
) -> None:
    body = board_body("fab")
    body["cards"]["Marked"] = {
        "types": ["action"],
        "power": 3,
        "text": "**Go again**\nGain {r}{r}. Your next attack gets +1{p}. {x} stays.",
    }
    body["cards"]["Stormy Seas (set 3E)"] = {"types": ["action"], "power": 1}
    body["setup"]["alice.hand"] += ["Marked", "Stormy Seas (set 3E)"]
    t = Table(server, browser, body)
    try:
        alice = t["alice"]
        page = alice.page
        page.set_viewport_size(LAPTOP_768)
        card = alice.named("alice.hand", "Marked")
        card.hover()
        page.wait_for_selector("#preview:not([hidden])")
        text = page.inner_text("#preview")
        assert "**" not in text and "{r}" not in text and "{p}" not in text
        assert page.locator("#preview .p-text strong").all_inner_texts() == ["Go again"]
        marks = page.locator("#preview .p-symbol")
        assert marks.evaluate_all("ms => ms.map(m => m.title)") == ["resource", "resource", "power"]
        assert "{x} stays" in text  # a mark the rule set does not have is left as written
        # A printing's mark is left off the card's face, and shown in its preview.
        seas = alice.named("alice.hand", "Stormy Seas")
        assert seas.locator(":scope > .name").inner_text() == "Stormy Seas"
        seas.hover()
        page.wait_for_function(
            "() => document.querySelector('#preview .p-name').textContent.includes('set 3E')"
        )
        # A change of its stats reaches every log, in words; the card is in
        # alice's hand, so the others read where it is, not what it is.
        alice.menu(card, "modify", {"power": "+2"})
        t.applied()
        assert alice.page.evaluate(
            "() => document.querySelector('#log li:last-child').textContent"
        ) == ("alice: a card in alice's hand gets +2 power")
        for viewer in (t["bob"], t[None]):
            last = viewer.page.evaluate(
                "() => document.querySelector('#log li:last-child').textContent"
            )
            assert last == "alice: a card in alice's hand gets +2 power"
    finally:
        t.close()
