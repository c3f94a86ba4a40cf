"""The changes to a life total the procedure makes itself (7.5.2a, 8.5.7a;
:mod:`cardzones.rulesets.fab.life`): made by the ``life`` action's own rule,
without binding arguments by name, they leave a game exactly as
``Game.act("life", ...)`` leaves it, refusals included."""

from __future__ import annotations

from typing import Any

import pytest

from cardzones import new_game
from cardzones.errors import CardzonesError, IllegalAction
from cardzones.rulesets.fab import life


def _game() -> tuple[Any, int, int]:
    game = new_game("fab", ["alice", "bob"])
    make = game.ruleset.make_card
    hero = game.new_card(
        make("Dorinthea", {"types": ("hero",), "life": 20}), game.zone("bob", "hero")
    )
    ally = game.new_card(
        make("Ally", {"types": ("ally",), "life": 3}), game.zone("bob", "permanent")
    )
    return game, hero, ally


def _same(one: Any, other: Any) -> None:
    assert one.same_state(other)
    for viewer in ("alice", "bob", None):
        assert one.log(viewer) == other.log(viewer)


@pytest.mark.parametrize("card_of", [lambda h, a: h, lambda h, a: a], ids=["hero", "ally"])
def test_damage_and_gain_are_the_life_actions_own(card_of: Any) -> None:
    game, hero, ally = _game()
    card = card_of(hero, ally)
    mine = game.copy()
    for kind, amount, by in (("damage", 4, "alice"), ("gain", 2, "bob"), ("damage", 1, None)):
        game.act("life", card=card, **{kind: amount}, by=by)
        change = life.deal_damage if kind == "damage" else life.gain_life
        change(mine, card, amount, by)
        _same(mine, game)
    assert mine.stat(card, "life") == (17 if card == hero else 0)


@pytest.mark.parametrize(
    ("amount", "setup"),
    [(1000, None), (5, "private"), (5, "no life")],
)
def test_a_change_the_action_refuses_is_refused_alike_and_changes_nothing(
    amount: int, setup: str | None
) -> None:
    game, hero, _ = _game()
    card = hero
    if setup == "private":
        card = game.new_card(
            game.ruleset.make_card("Secret", {"types": ("action",), "life": 9}),
            game.zone("alice", "hand"),
        )
    elif setup == "no life":
        card = game.new_card(
            game.ruleset.make_card("Rock", {"types": ("hero",)}),
            game.zone("alice", "hero"),
            public=True,
        )
    before = game.copy()
    with pytest.raises(CardzonesError) as by_act:
        game.act("life", card=card, damage=amount, by="alice")
    with pytest.raises(type(by_act.value)) as mine:
        life.deal_damage(game, card, amount, "alice")
    assert str(mine.value) == str(by_act.value)
    assert isinstance(mine.value, IllegalAction) == isinstance(by_act.value, IllegalAction)
    _same(game, before)
