"""Whole games per second: two decks played under the benchmark game's
procedure to the end, each act chosen at random among the legal actions
(:mod:`cardzones.rulesets.fab.procedure.playout`).

The decks are the rule set's own benchmark decks
(:mod:`cardzones.rulesets.fab.bench_games`); every game ends with a winner.

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
from cardzones.rulesets.base import ruleset_of
from cardzones.rulesets.fab.bench_games import deal_both
from cardzones.rulesets.fab.procedure.playout import play_out

PLAYERS = ("alice", "bob")


def time_games(games: int, seed: int = 0) -> dict[str, Any]:
    """Play ``games`` whole games: how many a second, how many turns and acts
    a game took on average, and the acts a second and time an act that makes
    (the fairer figure beside engines whose games take fewer acts)."""
    turns = acts = 0
    elapsed = 0.0
    for n in range(games):
        game = new_game(GAME, PLAYERS, seed=seed + n)
        deal_both(game)
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
        "acts_per_s": acts / elapsed,
        "us_per_act": elapsed / acts * 1e6,
    }
