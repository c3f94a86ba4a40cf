"""The board asks which cards to pitch when a card may be paid for in more
than one way under Flesh and Blood's game procedure: the panel's entry for
the card opens a prompt listing each way by its cards' names and pitch
values, and one click pays with the chosen way, here the second listed.
Every viewer's page is checked against what that viewer may look at
(tests/boardkit.py)."""

from __future__ import annotations

from typing import Any

from boardkit import thread_server
from tablekit import card_name
from test_board import (  # noqa: F401 (fixture; skips without Chromium)
    browser,
)
from test_board_fab_procedure import points_of, settle
from test_board_match import Match
from test_board_procedure import Clicks, panel_act, panel_leaks_nothing


def _position() -> str:
    """alice holds a card costing one and two cards that may pay for it (and
    draws nothing at the start: her intellect is three);
    bob's hand and both decks hold cards named for the leak check."""
    hidden = [card_name(n) for n in range(31, 37)]
    lines = [
        "ruleset: fab",
        "procedure: {first: alice}",
        "seed: 3",
        "cards:",
        "  Dorinthea: {types: [hero, warrior], life: 20, intellect: 3}",
        "  Bravo: {types: [hero, guardian], life: 20, intellect: 4}",
        "  Snatch: {types: [generic, action, attack], power: 4, pitch: 1, cost: 1, defense: 2}",
        "  Blue Wall: {types: [generic, action], pitch: 3, cost: 0, defense: 2}",
        "  Yellow Feint: {types: [generic, action], pitch: 2, cost: 0, defense: 2}",
    ]
    lines += [
        f"  {name}: {{types: [generic, action], pitch: 1, cost: 0, defense: 2}}" for name in hidden
    ]
    lines += [
        "setup:",
        "  alice.hero: [Dorinthea]",
        "  bob.hero: [Bravo]",
        "  alice.hand: [Snatch, Blue Wall, Yellow Feint]",
        f"  bob.hand: [{', '.join(hidden[:2])}]",
        f"  alice.deck: [{', '.join(hidden[2:4])}]",
        f"  bob.deck: [{', '.join(hidden[4:])}]",
        "",
    ]
    return "\n".join(lines)


def test_a_play_with_two_ways_to_pay_asks_which_and_pays_with_the_chosen_card(
    browser: Any,  # noqa: F811 (fixture)
) -> None:
    with thread_server() as server:
        t = Match(server, browser, {"scenario": _position()})
        alice = t["alice"]
        clicks = Clicks()
        try:
            opener = panel_act(alice, "Play Snatch, choose the pitch…")
            assert alice.page.locator("#procedure .proc-way").count() == 0
            clicks.click(alice, opener)
            ways = alice.page.locator("#procedure .proc-ways .proc-way")
            ways.first.wait_for()
            assert ways.all_inner_texts() == ["Blue Wall (pitch 3)", "Yellow Feint (pitch 2)"]
            assert opener.get_attribute("aria-expanded") == "true"
            panel_leaks_nothing(t)
            clicks.click(alice, ways.nth(1))
            t.applied()
            settle(t, lambda field: field["resource_points"]["alice"] == 1)
            game = t.server.game(t.id)
            pitched = [game.obj(c).cdef.name for c in game.contents(game.zone("alice", "pitch"))]
            hand = [game.obj(c).cdef.name for c in game.contents(game.zone("alice", "hand"))]
            assert pitched == ["Yellow Feint"] and "Blue Wall" in hand
            for viewer in t.viewers.values():
                assert points_of(viewer, "alice") == ["action points 0", "resource points 1"]
            assert clicks.of == {"alice": 2}
            t.check()
        finally:
            t.close()
