"""The one exception family, and refusals that change nothing."""

from __future__ import annotations

import pytest

from cardzones import (
    CardzonesError,
    IllegalAction,
    NeedsChoice,
    ScenarioError,
    UnknownReference,
    new_game,
)
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.game import MoveResult
from cardzones.rulesets.fab import actions
from cardzones.scenario.runner import same_state


def test_every_error_is_a_value_error() -> None:
    for cls in (IllegalAction, NeedsChoice, ScenarioError, UnknownReference):
        assert issubclass(cls, CardzonesError)
        assert issubclass(cls, ValueError)


def test_needs_choice_lists_the_options_3_0_10a() -> None:
    game = new_game("fab")
    actions.create_zone(game, "alice", "arsenal")
    card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    before = game.copy()
    with pytest.raises(NeedsChoice) as info:
        game.move(card, Dest("arsenal", "alice"))
    assert str(info.value).startswith("needs a choice")
    assert "alice.arsenal.1" in str(info.value) and "alice.arsenal.2" in str(info.value)
    assert info.value.rule == "3.0.10a"
    assert same_state(before, game)


@pytest.mark.parametrize("ztype", ["stack", "combat_chain", "permanent"])
def test_a_shared_zone_does_not_cease_to_exist_3_0_10b(ztype: str) -> None:
    """3.0.10b and c speak of the zone of a player; a shared zone is no
    player's, so it is refused, as creating one is (3.0.10)."""
    game = new_game("fab")
    before = game.copy()
    with pytest.raises(IllegalAction) as info:
        actions.remove_zone(game, "alice", ztype, None)
    assert info.value.rule == "3.0.10b"
    assert "shared by all players" in str(info.value)
    assert same_state(before, game)
    assert game.zone(None, ztype) is not None


def test_a_failed_effect_move_changes_nothing_3_0_11() -> None:
    game = new_game("fab")
    card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    before = game.copy()
    assert game.move(card, Dest("arsenal", "alice", 2)) is MoveResult.FAILED
    assert same_state(before, game)


def test_a_rule_move_that_cannot_be_made_clears_3_0_11() -> None:
    game = new_game("fab")
    card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    assert game.move(card, Dest("arsenal", "alice", 2), cause="rule") is MoveResult.CLEARED
    assert game.location(card) == game.zone("alice", "graveyard")


def test_refused_play_names_the_rule_and_changes_nothing_3_0_4e() -> None:
    from cardzones.kernel.cards import PlayFrom

    tome = CardDef("Tome of Torment", frozenset({"action"}), abilities=(PlayFrom("banished"),))
    game = new_game("fab")
    card = game.new_card(tome, game.zone("alice", "banished"), public=False)
    before = game.copy()
    with pytest.raises(IllegalAction) as info:
        actions.play(game, card, "alice")
    assert info.value.rule == "3.0.4e"
    assert "Tome" not in str(info.value)  # the message does not name a private card
    assert same_state(before, game)


def test_unknown_card_is_an_unknown_reference() -> None:
    game = new_game("fab")
    with pytest.raises(UnknownReference):
        game.move(999, Dest("hand", "alice"))
