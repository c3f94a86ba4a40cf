"""Whole games per second: two decks played under the benchmark game's
procedure to the end, each act chosen at random among the legal actions
(:mod:`cardzones.rulesets.fab.procedure.playout`).

The decks are a Blitz-sized game of the bench's own cards (a hero of 20
life, a weapon, two pieces of equipment and 30 deck cards of every kind the
procedure plays: attacks, actions with go again, attack and defense
reactions, instants); every game ends with a winner.

>>> figures = time_games(1)
>>> figures["games"], figures["turns_per_game"] > 1
(1, True)
"""

from __future__ import annotations

import random
from typing import Any

from cardzones import new_game
from cardzones.bench.position import GAME
from cardzones.bench.timing import _clock
from cardzones.kernel.cards import CardDef
from cardzones.rulesets.base import ruleset_of
from cardzones.rulesets.fab.procedure.playout import deal, play_out

PLAYERS = ("alice", "bob")


def _card(name: str, *types: str, text: str = "", **stats: int) -> CardDef:
    keywords = frozenset({"go_again"}) if stats.pop("go_again", 0) else frozenset()
    return CardDef(name, frozenset(types), stats, keywords, text=text)


HERO = _card("Dorinthea", "hero", "warrior", life=20, intellect=4)
WEAPON = _card(
    "Dawnblade", "weapon", "sword", "2h", power=3, text="Once per Turn Action - {r}: Attack"
)
EQUIPMENT = (
    _card("Ironrot Helm", "equipment", "head", defense=1),
    _card("Ironrot Legs", "equipment", "legs", defense=1),
)
DECK = (
    *[_card("Snatch", "action", "attack", power=4, cost=0, pitch=1, defense=2)] * 4,
    *[_card("Wounding Blow", "action", "attack", power=4, cost=0, pitch=3, defense=3)] * 4,
    *[_card("Drone of Brutality", "action", "attack", power=6, cost=2, pitch=1, defense=2)] * 4,
    *[_card("Head Jab", "action", "attack", power=2, cost=0, pitch=2, defense=3, go_again=1)] * 4,
    *[_card("Warrior's Valor", "action", power=0, cost=1, pitch=2, defense=3, go_again=1)] * 3,
    *[_card("Ironsong Response", "attack_reaction", cost=0, pitch=3, defense=3)] * 3,
    *[_card("Sink Below", "defense_reaction", cost=0, pitch=3, defense=4)] * 4,
    *[_card("Sigil of Solace", "instant", cost=0, pitch=3)] * 2,
    *[_card("Cracked Bauble", "resource", pitch=2)] * 2,
)


def time_games(games: int, seed: int = 0) -> dict[str, Any]:
    """Play ``games`` whole games: how many a second, and how many turns and
    acts a game took on average."""
    turns = acts = 0
    elapsed = 0.0
    for n in range(games):
        game = new_game(GAME, PLAYERS, seed=seed + n)
        for player in PLAYERS:
            deal(game, player, HERO, [WEAPON], EQUIPMENT, DECK)
        ruleset_of(game).start_procedure(game)
        t0 = _clock()
        result = play_out(game, random.Random(seed + n))
        elapsed += _clock() - t0
        turns += result.turns
        acts += result.acts
    return {
        "games": games,
        "games_per_s": games / elapsed,
        "turns_per_game": turns / games,
        "acts_per_game": acts / games,
    }
