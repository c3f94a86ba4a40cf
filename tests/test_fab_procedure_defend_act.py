"""A declaration of defending cards judges the cards it names (7.3.2a,
7.3.2b) as the listing judges every card that could defend: at each defend
step of whole games, every card of the game alone is accepted by the act's
plan exactly when it is among the defending player's defending cards."""

from __future__ import annotations

import random

import pytest

from cardzones import new_game
from cardzones.bench.position import GAME
from cardzones.errors import IllegalAction
from cardzones.rulesets.base import ruleset_of
from cardzones.rulesets.fab.bench_games import deal_both
from cardzones.rulesets.fab.procedure import combat, flow, plans
from cardzones.rulesets.fab.procedure.state import current


@pytest.mark.parametrize("seed", [4, 5])
def test_a_declared_card_defends_as_the_listing_says(seed: int) -> None:
    game = new_game(GAME, ("alice", "bob"), seed=seed)
    deal_both(game)
    ruleset_of(game).start_procedure(game)
    rng = random.Random(seed)
    steps = accepted = refused = 0
    while not current(game).over and steps < 6:  # type: ignore[union-attr]
        proc = current(game)
        assert proc is not None
        player, choices = flow.awaited(game, proc)
        assert player is not None
        if choices == flow.DEFEND_ACTS:
            steps += 1
            may = set(combat.defending_cards(game, player))
            for card in list(game.cards()):
                try:
                    plans.plan_defend(game, (card,), player)
                except IllegalAction as refusal:
                    assert card not in may
                    assert refusal.rule == "7.3.2b"
                    refused += 1
                else:
                    assert card in may
                    accepted += 1
        rng.choice(game.legal_actions(player, choices)).apply(game)
    assert steps == 6 and accepted > 0 and refused > 0
