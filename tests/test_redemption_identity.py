"""Redemption identity: a card is the same card through every public zone.

A card keeps its object (and the handle every player sees) through the
discard pile, a set-aside area, the Land of Redemption and banishment, in
play or out of it, so the records of place and set-aside abilities follow it
there and back (place/return-conditions). It becomes a new card only after
a private stretch (a hand, a deck, the reserve, face down), and then nothing
a player sees links it to what it was. A set-aside still ends for good once
a target leaves its area, even if it comes back as the same card
(set-aside/premature-no-benefit), however many actions later, and after an
undo, a copy or a save.
"""

from __future__ import annotations

import pytest
from test_redemption_api import GIDEON, SAMSON, TRUMPET, zone

from cardzones import Game, new_game
from cardzones.kernel.cards import CardDef, Move
from cardzones.rulesets.redemption import Ongoing, discard, negate, place, relocate, set_aside
from cardzones.rulesets.redemption.held import REACH, is_set_aside

MOSES = CardDef("Moses", frozenset({"hero"}), {"strength": 5, "toughness": 5})
LAMP = CardDef("Lamp", frozenset({"artifact"}))
PLAYERS = ("alice", "bob", "carol")


@pytest.fixture
def game() -> Game:
    return new_game("redemption", PLAYERS, handle_key="k")


@pytest.mark.parametrize("away", ["discard", "set_aside", "land_of_redemption", "banish"])
def test_redemption_identity_public_zones_keep_the_card(game: Game, away: str) -> None:
    territory = zone(game, "alice", "territory")
    gideon = game.new_card(GIDEON, territory)
    oid = game.obj(gideon).oid
    seen = {p: _handle_of(game.view(p), "Gideon") for p in PLAYERS}
    game.move(gideon, zone(game, "alice", away))
    game.move(gideon, territory)
    assert game.obj(gideon).oid == oid
    assert {p: _handle_of(game.view(p), "Gideon") for p in PLAYERS} == seen


def test_redemption_identity_a_private_stretch_makes_a_new_card(game: Game) -> None:
    territory = zone(game, "alice", "territory")
    gideon = game.new_card(GIDEON, territory)
    before = {p: _handle_of(game.view(p), "Gideon") for p in PLAYERS}
    oid = game.obj(gideon).oid
    game.move(gideon, zone(game, "alice", "hand"))
    game.move(gideon, zone(game, "alice", "discard"), face="up")
    assert game.obj(gideon).oid != oid
    after = {p: _handle_of(game.view(p), "Gideon") for p in PLAYERS}
    assert all(after[p] != before[p] for p in PLAYERS)


def test_redemption_identity_placed_cards_of_two_owners_follow_through_a_discard_pile(
    game: Game,
) -> None:
    territory = zone(game, "alice", "territory")
    gideon = game.new_card(GIDEON, territory)
    trumpet = game.new_card(TRUMPET, territory)
    lamp = game.new_card(LAMP, territory, owner="carol")
    _, handle = place(
        game,
        [trumpet, lamp],
        by="alice",
        onto=gideon,
        order=[trumpet, lamp],
        ongoing=Ongoing(gideon, (("strength", 2),)),
    )
    discard(game, gideon, by="bob")
    assert game.host(trumpet) == gideon and game.host(lamp) == gideon
    assert game.location(lamp) == zone(game, "alice", "discard")
    assert game.is_active(handle) and game.stat(gideon, "strength") == 8
    relocate(game, Move(gideon, territory, by="alice"))
    assert game.is_active(handle) and game.stat(gideon, "strength") == 8


def test_redemption_identity_negated_discard_finds_a_set_aside_host(game: Game) -> None:
    territory = zone(game, "alice", "territory")
    gideon = game.new_card(GIDEON, territory)
    trumpet = game.new_card(TRUMPET, territory, owner="bob")
    _, placed = place(game, [trumpet], by="alice", onto=gideon)
    _, gone = discard(game, trumpet, by="carol", remember=True)
    assert game.location(trumpet) == zone(game, "bob", "discard")
    set_aside(game, [gideon], by="bob")
    before = game.copy()
    negate(game, gone, by="alice")
    assert game.host(trumpet) == gideon and is_set_aside(game, trumpet)
    assert game.is_active(placed)
    game.undo()
    assert game.same_state(before)


def test_redemption_identity_set_aside_left_and_back_in_one_action_stays_over(game: Game) -> None:
    territory = zone(game, "alice", "territory")
    moses = game.new_card(MOSES, territory)
    _, handle = set_aside(game, [moses], by="alice")
    with game.atomic():
        game.move(moses, zone(game, "alice", "discard"))
        game.move(moses, zone(game, "alice", "set_aside"))
    assert is_set_aside(game, moses) and not game.is_active(handle)


def test_redemption_identity_set_aside_stays_over_past_the_record_reach(game: Game) -> None:
    """A set-aside looks back at most REACH events; one whose target left and
    came back long ago, or long after it was made, is over all the same, and
    one whose target stayed holds, also in a copy, after undo and after a save."""
    territory = zone(game, "alice", "territory")
    moses = game.new_card(MOSES, territory)
    samson = game.new_card(SAMSON, territory)
    gideon = game.new_card(GIDEON, territory)
    other = game.new_card(TRUMPET, territory)
    _, stayed = set_aside(game, [gideon], by="alice", ongoing=Ongoing(gideon, (("strength", 1),)))
    # Samson stays set aside, so the set-aside Moses leaves is not finished.
    _, left = set_aside(game, [moses, samson], by="alice")
    for i in range(3 * REACH):
        game.move(other, zone(game, "alice", "discard" if i % 2 == 0 else "territory"))
    game.move(moses, zone(game, "alice", "discard"))
    game.move(moses, zone(game, "alice", "set_aside"))
    for i in range(3 * REACH):
        game.move(other, zone(game, "alice", "discard" if i % 2 == 0 else "territory"))
    saved = Game.from_json(game.to_json(), game.ruleset)
    for each in (game, game.copy(), saved):
        assert is_set_aside(each, moses) and is_set_aside(each, samson)
        assert not each.is_active(left)
        assert each.is_active(stayed) and each.stat(gideon, "strength") == 7
    game.undo()
    assert not game.is_active(left) and game.is_active(stayed)


def _handle_of(view: dict[str, object], name: str) -> str:
    """The handle of the one card called ``name`` that a view shows."""
    found = [c for c in _cards(view) if c.get("name") == name]
    assert len(found) == 1, found
    handle = found[0]["id"]
    assert isinstance(handle, str)
    return handle


def _cards(value: object) -> list[dict[str, object]]:
    """Every card a view's JSON holds, wherever it lies."""
    out: list[dict[str, object]] = []
    if isinstance(value, dict):
        if "id" in value and "name" in value:
            out.append(value)
        for item in value.values():
            out.extend(_cards(item))
    elif isinstance(value, list):
        for item in value:
            out.extend(_cards(item))
    return out
