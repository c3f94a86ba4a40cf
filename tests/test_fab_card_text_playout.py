"""Whole games under fab's game procedure over cards whose text the
procedure carries out (each form of docs/card-text.md), played by legal
actions alone with the procedure's invariants checked along the way: a plan
is what its apply does, a saved game keeps the effects' records, undo takes
an act back exactly, and hidden cards traded change nothing a player is
shown."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_fab_procedure import Checker

from cardzones import Game, new_game
from cardzones.kernel.cards import CardDef
from cardzones.rulesets.fab.procedure.playout import deal, play_out


def card(
    name: str, types: str, text: str = "", keywords: tuple[str, ...] = (), **stats: Any
) -> CardDef:
    return CardDef(
        name, frozenset(types.split()), stats=stats, text=text, keywords=frozenset(keywords)
    )


HERO = card("Hero", "hero warrior", life=12, intellect=4)
SWORD = card("Sword", "weapon sword 2h", "Once per Turn Action - {r}: Attack", power=2)
HELM = card("Helm", "equipment head", defense=1)
TEXT_CARDS = [
    card(
        "Snatch",
        "generic action attack",
        "If Snatch hits, draw a card.",
        power=3,
        cost=0,
        pitch=1,
        defense=2,
    ),
    card(
        "Feast",
        "generic action attack",
        "When this hits a hero, gain 1{h}.",
        power=3,
        cost=1,
        pitch=2,
        defense=2,
    ),
    card("Bully", "generic action attack", "", ("dominate",), power=4, cost=1, pitch=1, defense=2),
    card(
        "Crusher",
        "generic action attack",
        "This can't be defended by more than one card from hand.",
        power=5,
        cost=2,
        pitch=3,
        defense=2,
    ),
    card(
        "Lunge",
        "generic attack_reaction",
        "Target attack action card gets +2{p}.",
        cost=0,
        pitch=1,
        defense=2,
    ),
    card(
        "Riposte",
        "warrior attack_reaction",
        "Target sword attack gains go again.",
        cost=0,
        pitch=2,
        defense=2,
    ),
    card("Brace", "generic defense_reaction", "This gets +1{d}.", cost=0, pitch=1, defense=2),
    card(
        "Rally",
        "warrior action",
        "The next attack action card you play this turn gains +1{p}.",
        ("go_again",),
        cost=0,
        pitch=3,
        defense=2,
    ),
    card("Sigil", "generic instant", "Draw a card. Gain 1{h}.", cost=1, pitch=1),
]


def dealt(seed: int) -> Game:
    game = new_game("fab", ["alice", "bob"], seed=seed)
    for player in game.players:
        deal(game, player, HERO, [SWORD], [HELM], TEXT_CARDS * 3)
    game.ruleset.start_procedure(game)
    return game


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_over_cards_with_text_keep_the_procedures_invariants(seed: int) -> None:
    game = dealt(seed)
    checker = Checker(every=15)
    checker.turn_player = game.turn_player
    result = play_out(game, random.Random(seed), max_acts=5_000, after=checker)
    assert result.turns >= 1
