"""A Redemption turn played at the table with the game procedure, through the
board in Chromium: the rescuer opens the game, makes a rescue attempt from
the Hero's menu, the defender blocks, both enhance from the procedure's
panel, both pass, and the battle's end rescues the fifth Lost Soul, which
wins the game. Every seat and the spectator see the battle drawn as a
battle at each step, and the winner at the end (the view's ``procedure``
and the table's ``won``). The rescuer's clicks are counted: at most eight.
And a turn's phases and its discard down to the hand limit, one click each
from the panel, in words.

After every act each viewer's page (the procedure's panel with it) and
every frame it received are checked against what the engine says that
viewer may look at (tests/boardkit.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
from boardkit import SCREENSHOTS, ThreadServer, assert_nothing_secret, secrets_of, thread_server
from tablekit import card_name
from test_board import (  # noqa: F401 (fixture; skips without Chromium)
    LAPTOP,
    WAIT_MS,
    Table,
    Viewer,
    browser,
)

#: The most clicks the rescuer may take for the turn: open the game, the
#: rescue attempt, an enhancement and a pass.
RESCUER_CLICKS = 8


def _scenario() -> str:
    """A start where alice has four Redeemed Souls, a Hero in her territory
    and a good enhancement to draw, and bob a Lost Soul, an Evil Character and an evil
    enhancement; each also draws a card nobody else ever sees."""
    alice_secret, bob_secret = card_name(1), card_name(2)
    return "\n".join(
        [
            "ruleset: redemption",
            "procedure: true",
            "seed: 5",
            "cards:",
            "  Moses: {type: hero, brigade: gold, strength: 8, toughness: 6}",
            "  Pharaoh: {type: evil_character, brigade: pale_green, strength: 6, toughness: 6}",
            "  Staff: {type: enhancement, brigade: gold, alignment: good, strength: 3,"
            " toughness: 2}",
            "  Spear: {type: enhancement, brigade: pale_green, alignment: evil, strength: 5,"
            " toughness: 0}",
            "  Soul: {type: lost_soul}",
            f"  {alice_secret}: {{type: artifact}}",
            f"  {bob_secret}: {{type: artifact}}",
            "setup:",
            "  alice.territory: [Moses]",
            f"  alice.deck: [Staff, {alice_secret}]",
            f"  bob.deck: [Soul, Pharaoh, Spear, {bob_secret}]",
            "  alice.land_of_redemption: [Soul, Soul, Soul, Soul]",
            "",
        ]
    )


class Clicks:
    """Each seat's clicks on its board, counted as they are made."""

    def __init__(self) -> None:
        self.of: dict[str, int] = {}

    def click(self, viewer: Viewer, target: Any) -> None:
        target.click()
        assert viewer.name is not None
        self.of[viewer.name] = self.of.get(viewer.name, 0) + 1


def panel_act(viewer: Viewer, text: str) -> Any:
    """The procedure panel's one-click entry that says ``text``, once the
    seat's legal acts are in."""
    viewer.page.wait_for_selector("#procedure .proc-acts[data-ready=yes]")
    # as a CSS string: "…" stays itself (json's \u2026 is no CSS escape)
    label = json.dumps(text, ensure_ascii=False)
    entry = viewer.page.locator(f"#procedure .proc-acts button[aria-label={label}]")
    entry.wait_for()
    return entry


def menu_entry(viewer: Viewer, text: str) -> Any:
    """The open card menu's one-click entry that says ``text``."""
    viewer.page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
    label = json.dumps(text, ensure_ascii=False)
    entry = viewer.page.locator(f"#menu button.legal[aria-label={label}]")
    viewer.reveal(entry)
    return entry


def panel_acts(viewer: Viewer) -> list[str]:
    viewer.page.wait_for_selector("#procedure .proc-acts[data-ready=yes]")
    return [t.strip() for t in viewer.page.locator("#procedure .proc-acts > *").all_inner_texts()]


def battle_of(viewer: Viewer) -> dict[str, Any]:
    """The battle as the viewer's panel draws it."""
    page = viewer.page
    battle = page.locator("#procedure .proc-battle")
    battle.wait_for()

    def texts(selector: str) -> list[str]:
        return [t.strip() for t in battle.locator(selector).all_inner_texts()]

    return {
        "heroes": texts(".proc-side.good .proc-chars > .proc-char > .proc-name"),
        "blockers": texts(".proc-side.evil .proc-chars > .proc-char > .proc-name"),
        "enhancements": texts(".proc-enhancement"),
        "soul": texts(".proc-soul"),
        "stage": texts(".proc-stage"),
        "initiative": battle.get_attribute("data-initiative"),
        "initiative_side": texts('.proc-side[data-initiative="yes"] .proc-side-title'),
        "outcome": texts(".proc-outcome"),
        "totals": texts(".proc-total"),
    }


def everyone_sees(t: Table, expected: dict[str, Any]) -> None:
    """Every seat and the spectator draw the battle alike, as ``expected``
    says (the keys it gives)."""
    for viewer in t.viewers.values():
        viewer.page.wait_for_function("n => window.cardzonesBoard.number >= n", arg=t.number)
        shown = battle_of(viewer)
        for key, value in expected.items():
            assert shown[key] == value, (viewer.label, key, shown)


def panel_leaks_nothing(t: Table) -> None:
    """The panel, as each viewer's page holds it, names no card that viewer
    may not look at (the whole page is checked by Table.check too)."""
    game = t.server.game(t.id)
    for name, viewer in t.viewers.items():
        names, stats = secrets_of(game, name)
        panel = viewer.page.locator("#procedure")
        text = panel.evaluate("e => e.outerHTML + '\\n' + e.innerText")
        assert_nothing_secret(f"{viewer.label}'s procedure panel", text, names, stats)


def test_a_turn_with_a_rescue_a_block_enhancements_and_the_battles_end(
    browser: Any,  # noqa: F811 (fixture)
) -> None:
    with thread_server() as server:
        _play(server, browser)


def _play(server: ThreadServer, chromium: Any) -> None:
    t = Table(server, chromium, {"scenario": _scenario()})
    alice, bob, spectator = t["alice"], t["bob"], t[None]
    clicks = Clicks()
    try:
        # Before the game opens: every board shows the procedure; only the
        # first player has an act, and the spectator has no acts at all.
        for viewer in t.viewers.values():
            viewer.page.locator("#procedure").wait_for()
            assert "alice rescued 0 souls" in viewer.page.inner_text("#procedure")
        assert panel_acts(alice) == ["Open the game"]
        assert panel_acts(bob) == ["nothing for you to do now"]
        assert spectator.page.locator("#procedure .proc-acts").count() == 0

        clicks.click(alice, panel_act(alice, "Open the game"))
        t.applied()
        # bob's Lost Soul went to his Land of Bondage by itself
        bob.page.locator('#board [data-zone="bob.land_of_bondage"] .card').first.wait_for()
        assert "Rescue Soul with Moses" in panel_acts(alice)
        panel_leaks_nothing(t)

        # The rescue attempt: the menu of the Hero in her territory names the
        # Lost Soul, one click.
        clicks.click(alice, alice.named("alice.territory", "Moses"))
        clicks.click(alice, menu_entry(alice, "Rescue Soul"))
        t.applied()
        everyone_sees(
            t,
            {
                "heroes": ["Moses"],
                "blockers": [],
                "soul": ["for Soul"],
                "stage": ["bob decides on the block"],
                "initiative": "bob",
                "initiative_side": ["bob blocks with"],
            },
        )
        panel_leaks_nothing(t)
        # bob may block or not; alice waits
        assert panel_acts(bob) == ["Block with Pharaoh", "Do not block"]
        assert panel_acts(alice) == ["nothing for you to do now"]

        clicks.click(bob, panel_act(bob, "Block with Pharaoh"))
        t.applied()
        everyone_sees(
            t,
            {
                "blockers": ["Pharaoh"],
                "stage": ["enhancements"],
                "initiative": "alice",
                "outcome": ["if it ended now: mutual destruction"],
                "totals": ["total 8/6", "total 6/6"],
            },
        )

        # The enhancement from the card in hand: one click, then the character.
        clicks.click(alice, alice.named("alice.hand", "Staff"))
        clicks.click(alice, menu_entry(alice, "Play it on Moses"))
        t.applied()
        everyone_sees(
            t,
            {
                "enhancements": ["+ Staff (alice)"],
                "initiative": "bob",
                "outcome": ["if it ended now: hero wins"],
                "totals": ["total 11/8", "total 6/6"],
            },
        )
        panel_leaks_nothing(t)

        clicks.click(bob, panel_act(bob, "Play Spear on Pharaoh"))
        t.applied()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for viewer in (alice, spectator):
            viewer.page.locator("#procedure").screenshot(
                path=SCREENSHOTS / f"procedure-battle-{viewer.label}.png"
            )
        alice.page.screenshot(path=SCREENSHOTS / "procedure-board-alice.png", full_page=True)
        everyone_sees(
            t,
            {
                "enhancements": ["+ Staff (alice)", "+ Spear (bob)"],
                "initiative": "alice",
                "outcome": ["if it ended now: mutual destruction"],
            },
        )

        # In a mutual destruction a pass hands initiative over; two end it.
        clicks.click(alice, panel_act(alice, "Pass"))
        t.applied()
        everyone_sees(t, {"initiative": "bob"})
        clicks.click(bob, panel_act(bob, "Pass"))
        t.applied()

        # The Lost Soul is rescued: alice's fifth, and the game is hers.
        for viewer in t.viewers.values():
            page = viewer.page
            page.locator("#procedure .proc-winner").wait_for()
            assert page.inner_text("#procedure .proc-winner") == "alice won the game"
            assert page.locator("#procedure .proc-battle").count() == 0
            assert "alice rescued 1 soul" in page.inner_text("#procedure")
            assert "alice won" in page.inner_text("#turn")
            assert page.evaluate("() => window.cardzonesBoard.won") == "alice"
            assert page.locator("#procedure .proc-acts").count() == 0
        t.check()
        panel_leaks_nothing(t)

        # The table says so to anyone who asks, and to a board that comes back.
        token = t.created["links"]["spectator"].split("#", 1)[1]
        answer = httpx.get(
            f"{server.url}/api/tables/{t.id}/finish",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        ).json()
        assert answer["won"] == "alice" and answer["finished"] is None
        spectator.page.reload()
        spectator.connected()
        assert "alice won" in spectator.page.inner_text("#turn")

        assert clicks.of["alice"] <= RESCUER_CLICKS, clicks.of
        assert clicks.of["alice"] == 6 and clicks.of["bob"] == 3
        assert t.checks >= 8
    finally:
        t.close()


#: What a one-click entry never says: a handle, a zone's name as the engine
#: writes it, a position in a zone, or JSON.
RAW = re.compile(r"\bo[0-9a-f]{12}\b|\b[a-z]+\.[a-z_]+\b|\[-?\d+\]|[{}\"]")


def _long_hand() -> str:
    """alice draws eleven cards she must bring down to eight; bob's Lost
    Soul goes to his Land of Bondage by itself."""
    mine = [card_name(n) for n in range(1, 13)]
    his = [card_name(n) for n in range(20, 24)]
    lines = [
        "ruleset: redemption",
        "procedure: true",
        "seed: 3",
        "cards:",
        # (a name the panel's own words do not hold, as "souls rescued" does "Soul")
        "  Wanderer: {type: lost_soul}",
    ]
    lines += [f"  {name}: {{type: artifact}}" for name in mine + his]
    lines += [
        "setup:",
        f"  alice.deck: [{', '.join(mine)}]",
        f"  bob.deck: [Wanderer, {', '.join(his)}]",
        "",
    ]
    return "\n".join(lines)


def test_the_turns_phases_and_the_discard_down_are_one_click_each(
    browser: Any,  # noqa: F811 (fixture)
) -> None:
    with thread_server() as server:
        t = Table(server, browser, {"scenario": _long_hand()})
        alice, bob = t["alice"], t["bob"]
        try:
            panel_act(alice, "Open the game").click()
            t.applied()
            # the Lost Soul went to the Land of Bondage by itself, for all to see
            for viewer in t.viewers.values():
                bondage = viewer.zone("bob.land_of_bondage").locator(".card")
                assert bondage.all_inner_texts() and "Wanderer" in bondage.first.inner_text()
            acts = panel_acts(alice)
            assert acts == [
                "Next phase (upkeep)",
                "Go to the preparation phase",
                "Go to the battle phase",
                "Go to the discard phase",
            ]
            panel_act(alice, "Go to the discard phase").click()
            t.applied()
            for gone in range(3):
                acts = panel_acts(alice)
                # eleven cards: each may go, and the turn does not end before
                assert len(acts) == 11 - gone and all(
                    re.fullmatch(r"Discard Kx\d{4}q \(down to 8\)", a) for a in acts
                )
                alice.page.locator("#procedure .proc-act").first.click()
                t.applied()
            assert panel_acts(alice) == ["End the turn"]
            for text in panel_acts(alice) + acts:
                assert not RAW.search(re.sub(r"Kx\d{4}q", "NAME", text)), text
            panel_act(alice, "End the turn").click()
            t.applied()
            assert panel_acts(bob)[0] == "Next phase (upkeep)"
            assert panel_acts(alice) == ["nothing for you to do now"]
            panel_leaks_nothing(t)
        finally:
            t.close()


def test_the_create_page_makes_a_table_from_deck_lists_that_runs_the_procedure(
    browser: Any,  # noqa: F811 (fixture)
) -> None:
    """The create page offers the game procedure for a rule set that has one,
    beside deck lists: the table made runs it, and the first player's board
    opens the game in one click."""
    decks = Path(__file__).parent / "fixtures" / "decks"
    with thread_server() as server:
        context = browser.new_context(viewport=LAPTOP)
        context.set_default_timeout(WAIT_MS)
        try:
            page = context.new_page()
            page.goto(server.url + "/")
            page.wait_for_selector("#ruleset option[value=redemption]", state="attached")
            label = page.locator("#procedure-label")
            page.select_option("#ruleset", "fab")
            page.check("input[name=from][value=decks]")
            assert label.is_visible()  # fab plays its game procedure too
            page.select_option("#ruleset", "redemption")
            page.check("input[name=from][value=scenario]")
            assert label.is_hidden()  # a scenario text says it itself
            page.check("input[name=from][value=decks]")
            assert label.is_visible()
            page.check("#procedure")
            for player in ("alice", "bob"):
                page.set_input_files(
                    f'input[aria-label="{player}\'s deck list file"]', decks / "k-starter-part.dek"
                )
                page.wait_for_function(
                    "p => document.querySelector(`textarea.deck[data-player=${p}]`).value",
                    arg=player,
                )
            page.click("#create button[type=submit]")
            page.wait_for_selector("#links:not([hidden])")
            link = page.locator('#link-list input.link[data-seat="alice"]').input_value()
            page.goto(link)
            page.wait_for_selector("#conn[data-state=connected]")
            opening = page.locator("#procedure .proc-acts[data-ready=yes] .proc-act")
            assert opening.all_inner_texts() == ["Open the game"]
            opening.click()
            page.wait_for_function("() => window.cardzonesBoard.number >= 1")
            hand = page.locator('#board [data-zone="alice.hand"] .cards > .card')
            assert hand.count() == 8 + 3
            # The new position's acts are filled in when its /legal answers.
            acts = page.locator("#procedure .proc-acts[data-ready=yes]")
            acts.wait_for()
            assert "Next phase (upkeep)" in acts.inner_text()
        finally:
            context.close()
