"""A move is a value (:class:`~cardzones.kernel.cards.Move`): ``game.move``
takes one or its fields, and the ``move`` action makes its move the same way,
so the two agree on every destination, a rule set's piles included (fab's
hero's soul, 3.11.5, 3.0.14)."""

from __future__ import annotations

import pytest

from cardzones import new_game
from cardzones.errors import IllegalAction
from cardzones.kernel.cards import CardDef, Dest, Move
from cardzones.kernel.game import Game

HERO = CardDef("Dorinthea", frozenset({"hero", "warrior"}))


def table() -> tuple[Game, int, int]:
    game = new_game("fab", ["alice", "bob"], seed=1)
    hero = game.new_card(HERO, game.zone("alice", "hero"))
    card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    return game, hero, card


@pytest.mark.parametrize(
    "dest",
    [Dest("soul", "owner"), Dest("soul", "alice"), Dest("soul"), Dest("graveyard", "alice")],
    ids=str,
)
def test_game_move_and_the_move_action_agree(dest: Dest) -> None:
    """3.11.5: the soul is the cards under the hero, for a move and an act alike."""
    by_move, hero, card = table()
    by_act, _, _ = table()
    by_value, _, _ = table()
    assert by_move.foresee_move(card, dest) is by_act.foresee_move(card, dest)
    moved = by_move.move(card, dest, by="alice")
    acted = by_act.act("move", card=card, to=dest, by="alice").result
    valued = by_value.move(Move(card, dest, by="alice"))
    assert moved is acted is valued
    assert by_move.same_state(by_act) and by_move.same_state(by_value)
    if dest.type == "soul":
        assert by_move.kids(hero) == (card,)


def test_a_soul_without_a_hero_is_refused_alike() -> None:
    """3.11.5: with no hero there is no soul; nothing changes."""
    for go in (
        lambda g, c: g.move(c, Dest("soul", "bob"), by="alice"),
        lambda g, c: g.act("move", card=c, to=Dest("soul", "bob"), by="alice"),
    ):
        game, _, card = table()
        before = game.copy()
        with pytest.raises(IllegalAction, match="bob has no hero"):
            go(game, card)
        assert game.same_state(before)


def test_a_move_value_is_not_given_with_a_destination_too() -> None:
    game, _, card = table()
    with pytest.raises(TypeError):
        game.move(Move(card, Dest("graveyard", "alice")), Dest("graveyard", "alice"))
