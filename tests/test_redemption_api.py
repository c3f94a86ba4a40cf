"""The Redemption rule set through its Python API (not through scenarios)."""

from __future__ import annotations

import pytest

from cardzones import Game, IllegalAction, MoveResult, NeedsChoice, new_game
from cardzones.kernel.cards import CardDef, Move
from cardzones.rulesets.redemption import (
    Ongoing,
    advance_to,
    discard,
    is_set_aside,
    negate,
    place,
    relocate,
    return_cards,
    set_aside,
)
from cardzones.rulesets.redemption.cards import own_fields

GIDEON = CardDef(
    "Gideon", frozenset({"hero"}), {"strength": 6, "toughness": 4}, extra=own_fields({"red"})
)
SAMSON = CardDef(
    "Samson", frozenset({"hero"}), {"strength": 8, "toughness": 6}, extra=own_fields({"blue"})
)
TRUMPET = CardDef("Trumpet", frozenset({"artifact"}))
SOUL = CardDef("Lost Soul", frozenset({"lost_soul"}))
HEBRON = CardDef("Hebron", frozenset({"site"}))
CAVE = CardDef("Hidden in the Cave", frozenset({"enhancement"}), extra=own_fields({"blue"}))


def zone(game: Game, owner: str | None, ztype: str) -> int:
    zid = game.zone(owner, ztype)
    assert zid is not None
    return zid


def same_state(a: Game, b: Game) -> bool:
    return a.same_state(b)


@pytest.fixture
def game() -> Game:
    return new_game("redemption", ["alice", "bob"])


def test_placed_card_follows_its_host_and_undo_restores_everything(game: Game) -> None:
    territory = zone(game, "alice", "territory")
    gideon = game.new_card(GIDEON, territory)
    trumpet = game.new_card(TRUMPET, territory)
    before = game.copy()
    result, _ = place(
        game, [trumpet], by="alice", onto=gideon, ongoing=Ongoing(gideon, (("toughness", 2),))
    )
    assert result is MoveResult.MOVED
    assert game.stat(gideon, "toughness") == 6
    discard(game, gideon)
    assert game.location(trumpet) == zone(game, "alice", "discard")
    assert game.host(trumpet) == gideon
    game.undo()
    game.undo()
    assert same_state(before, game)


def test_place_refuses_a_card_out_of_play_and_changes_nothing(game: Game) -> None:
    gideon = game.new_card(GIDEON, zone(game, "alice", "territory"))
    trumpet = game.new_card(TRUMPET, zone(game, "alice", "discard"))
    before = game.copy()
    with pytest.raises(IllegalAction, match="in play") as refused:
        place(game, [trumpet], by="alice", onto=gideon)
    assert refused.value.rule == "place/default-targets-in-play"
    assert same_state(before, game)


def test_two_cards_onto_one_card_need_an_order(game: Game) -> None:
    territory = zone(game, "alice", "territory")
    gideon, trumpet, samson = (game.new_card(c, territory) for c in (GIDEON, TRUMPET, SAMSON))
    with pytest.raises(NeedsChoice) as needed:
        place(game, [trumpet, samson], by="alice", onto=gideon)
    assert str(needed.value).startswith("needs a choice")
    place(game, [trumpet, samson], by="alice", onto=gideon, order=[samson, trumpet])
    assert game.kids(gideon) == (samson, trumpet)


def test_lost_soul_placed_in_a_site_goes_back_to_its_land_of_bondage(game: Game) -> None:
    soul = game.new_card(SOUL, zone(game, "bob", "land_of_bondage"))
    site = game.new_card(HEBRON, zone(game, "alice", "territory"))
    place(game, [soul], by="alice", onto=site)
    assert game.obj(soul).controller == "bob"
    discard(game, site)
    assert game.location(soul) == zone(game, "bob", "land_of_bondage")
    assert game.host(soul) is None


def test_negating_a_labelled_move_puts_the_placed_card_back(game: Game) -> None:
    territory = zone(game, "alice", "territory")
    gideon = game.new_card(GIDEON, territory)
    trumpet = game.new_card(TRUMPET, territory)
    place(game, [trumpet], by="alice", onto=gideon)
    with game.atomic():
        _, handle = relocate(
            game, Move(trumpet, zone(game, "alice", "discard"), by="bob"), label="r"
        )
    assert game.host(trumpet) is None
    assert negate(game, handle) is MoveResult.DONE
    assert game.host(trumpet) == gideon
    assert game.location(trumpet) == territory


def test_duration_counts_the_setters_upkeeps_and_returns_in_preparation(game: Game) -> None:
    moses = game.new_card(SAMSON, zone(game, "alice", "territory"))
    advance_to(game, "preparation")
    set_aside(game, [moses], by="alice", duration=1)
    assert is_set_aside(game, moses)
    with pytest.raises(IllegalAction) as refused:
        return_cards(game, [moses], by="alice")
    assert refused.value.rule == "set-aside/duration-remain"
    game.end_turn()
    copy = game.copy()
    game.end_turn()  # bob's turn passes; alice's turn 3 begins in its draw phase
    assert is_set_aside(game, moses)
    advance_to(game, "preparation")
    assert game.location(moses) == zone(game, "alice", "territory")
    assert is_set_aside(copy, moses)  # a copy made before is untouched


def test_set_aside_enhancement_outside_battle_needs_a_matching_brigade(game: Game) -> None:
    territory = zone(game, "alice", "territory")
    gideon = game.new_card(GIDEON, territory)
    cave = game.new_card(CAVE, zone(game, "alice", "hand"))
    advance_to(game, "preparation")
    before = game.copy()
    with pytest.raises(IllegalAction) as refused:
        set_aside(game, [gideon], by="alice", source=cave, played_on=gideon)
    assert refused.value.rule == "set-aside/enhancement-outside-battle"
    assert same_state(before, game)


def test_phases_only_move_forward(game: Game) -> None:
    advance_to(game, "battle")
    with pytest.raises(IllegalAction, match="upkeep"):
        advance_to(game, "upkeep")
    assert game.phase == "battle"
