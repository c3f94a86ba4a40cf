"""A move is its plan, applied: the plan (stages 1 to 5) changes nothing, and
applying it does exactly what :meth:`Game.move` does, whose judgement
(:meth:`Game.foresee_move`) is the plan's verdict."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cardzones import new_game
from cardzones.errors import NeedsChoice
from cardzones.kernel.cards import CardDef, Dest, Move
from cardzones.kernel.foresee import plan
from cardzones.kernel.game import Game
from cardzones.kernel.pipeline import apply
from cardzones.kernel.results import MoveResult

TOKEN = CardDef("Quicken", frozenset({"token", "aura"}))

#: A position: the game, the card to move, its destination, the face, the cause.
Case = tuple[Game, int, Dest | int, str | None, str]


def _hand_card(dest: Dest, face: str | None = None, cause: str = "effect") -> Case:
    game = new_game("fab", ["alice", "bob"], seed=3)
    card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    return game, card, dest, face, cause


def _token() -> Case:
    game = new_game("fab", ["alice", "bob"], seed=3)
    card = game.new_card(TOKEN, game.zone("alice", "permanent"))
    return game, card, Dest("graveyard", "alice"), None, "effect"


_M = MoveResult

#: Each position, and what its move gives.
CASES: dict[str, tuple[Callable[[], Case], MoveResult]] = {
    "moved (3.0.8)": (lambda: _hand_card(Dest("graveyard", "alice")), _M.MOVED),
    "face down (3.0.8)": (lambda: _hand_card(Dest("banished", "alice"), "down"), _M.MOVED),
    "no move (3.0.7b)": (lambda: _hand_card(Dest("hand", "alice")), _M.NO_MOVE),
    "turned where it is (3.0.7b)": (lambda: _hand_card(Dest("hand", "alice"), "up"), _M.NO_MOVE),
    "an effect fails (3.0.11)": (lambda: _hand_card(Dest("graveyard", "bob")), _M.FAILED),
    "a rule move clears (3.0.11)": (
        lambda: _hand_card(Dest("graveyard", "bob"), cause="rule"),
        _M.CLEARED,
    ),
    "no such zone (3.0.11)": (lambda: _hand_card(Dest("arsenal", "alice", index=2)), _M.FAILED),
    "a token ceases (8.1.8a)": (_token, _M.CEASED),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_move_is_its_plan_applied(name: str) -> None:
    make, expected = CASES[name]
    game, card, dest, face, cause = make()
    moved = make()[0]
    before = game.copy()
    planned = plan(game, *Move(card, dest, "top", face, cause, "alice"))
    assert game.same_state(before), "a plan changes nothing"
    # A rule move's plan fails where the zone cannot take the card; applied, it clears it.
    assert planned[0] is (_M.FAILED if expected is _M.CLEARED else expected)
    judged = game.foresee_move(card, dest, face=face, cause=cause, by="alice")
    assert judged is (None if expected is _M.CLEARED else expected)
    with game.atomic():
        applied = apply(game, planned)
    assert applied is moved.move(card, dest, face=face, cause=cause, by="alice") is expected
    assert game.same_state(moved)
    assert game.same_state(before) is (expected is _M.FAILED or name == "no move (3.0.7b)")


def test_a_plan_that_needs_a_choice_asks_as_the_move_does() -> None:
    """3.0.10a: two graveyards that can take the card, and no choice given."""
    game = new_game("fab", ["alice", "bob"], seed=3)
    game.create_zone("alice", "graveyard")
    card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    before = game.copy()
    with pytest.raises(NeedsChoice):
        plan(game, *Move(card, Dest("graveyard", "alice"), by="alice"))
    with pytest.raises(NeedsChoice):
        game.move(card, Dest("graveyard", "alice"), by="alice")
    assert game.same_state(before)
