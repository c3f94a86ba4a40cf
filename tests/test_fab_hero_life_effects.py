"""4.5.3a: fab looks for a hero at zero life after every act, reading each
hero's life total over the effects on the hero. Damage, life loss and life
gain of one duration are kept in one effect (as the ``life`` action
makes them), so that look reads as many effects in the last turn of a long
game as in the first: the effects on a hero do not pile up."""

from __future__ import annotations

import random

import pytest

from cardzones import new_game
from cardzones.acts.counters import LIFE
from cardzones.bench.position import GAME
from cardzones.rulesets.base import ruleset_of
from cardzones.rulesets.fab.bench_games import deal_both
from cardzones.rulesets.fab.procedure.flow import awaited
from cardzones.rulesets.fab.procedure.state import current


@pytest.mark.parametrize("seed", [0, 1])
def test_a_heros_life_changes_stay_one_effect_through_a_whole_game(seed: int) -> None:
    game = new_game(GAME, ("alice", "bob"), seed=seed)
    deal_both(game)
    ruleset_of(game).start_procedure(game)
    heroes = [game.contents(game.zones_of(p, "hero")[0])[0] for p in game.players]
    rng = random.Random(seed)
    changed = 0
    lives = [game.stat(h, "life") for h in heroes]
    while not (proc := current(game)).over:
        player, choices = awaited(game, proc)
        rng.choice(game.legal_actions(player, choices)).apply(game)
        for hero in heroes:
            life_effects = [e for e in game.effects_on(hero) if e.kind == LIFE]
            assert len(life_effects) <= 1, (game.turn, life_effects)
        now = [game.stat(h, "life") for h in heroes]
        changed += now != lives
        lives = now
    assert changed > 5  # life totals changed over and over, in one effect each
    # the game ended as 4.5.3a says: the loser's hero is at zero life or less
    (loser,) = [p for p in game.players if p != proc.winner]
    assert lives[game.players.index(loser)] <= 0
