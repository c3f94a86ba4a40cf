"""fab's checks after every action are not made again where nothing they
read changed since they found nothing to do (cardzones.rulesets.fab.quiet_points):
the end of the game (4.5.3a), the attack-proxies' sources (1.4.3a, 1.4.3c,
1.4.3d) and the whole of fab's after_action, after a pass that only hands on
priority (1.11.4a) or a step of combat that moved nothing (7.3.1, 7.4.1, 7.6.2).

The oracle: after every act of whole games, each check made afresh on a copy
(its quiet point forgotten) finds nothing to do either, so a check left out
would have done nothing.
"""

from __future__ import annotations

import random

import pytest

from cardzones import new_game
from cardzones.bench.position import GAME
from cardzones.kernel.game import Game
from cardzones.rulesets.base import ruleset_of
from cardzones.rulesets.fab import layers, proxies, turn
from cardzones.rulesets.fab.bench_games import deal_both
from cardzones.rulesets.fab.procedure import flow
from cardzones.rulesets.fab.procedure.state import ATTACK, DEFEND, current
from cardzones.rulesets.fab.quiet_points import QuietPoint, forget_all, handed_on, quiet_points


def _game(seed: int) -> Game:
    game = new_game(GAME, ("alice", "bob"), seed=seed)
    deal_both(game)
    ruleset_of(game).start_procedure(game)
    return game


@pytest.mark.parametrize("seed", [0, 3])
def test_a_check_left_out_would_have_done_nothing(seed: int) -> None:
    game = _game(seed)
    rng = random.Random(seed)
    skipped = hook_skipped = 0
    end_of_game = quiet_points()["end of the game"]
    every_action = quiet_points()["after every action"]
    while not current(game).over:  # type: ignore[union-attr]
        proc = current(game)
        assert proc is not None
        player, choices = flow.awaited(game, proc)
        rng.choice(game.legal_actions(player, choices)).apply(game)
        point = game.checkpoint().journal
        skipped += end_of_game.point is point
        hook_skipped += every_action.point is point
        copy = game.copy()
        forget_all()
        flow.check_end(copy)
        turn.cease_proxies_without_source(copy)
        proxies.follow_sources(copy)
        ruleset_of(copy).after_action(copy)
        assert copy.checkpoint().journal is point, "a check left out had work to do"
        assert current(copy) == current(game)
    # The passes that hand on priority are about two in five of the acts.
    assert skipped > 100
    assert hook_skipped > 100


def test_a_step_of_combat_that_moved_nothing_is_a_hand_off() -> None:
    """A pass that ends the attack step (7.3.1) writes the procedure's record
    alone: the checks after it are where they were before it."""
    game = _game(2)
    rng = random.Random(2)
    seen = played = 0
    while not current(game).over and seen < 3:  # type: ignore[union-attr]
        proc = current(game)
        assert proc is not None
        player, choices = flow.awaited(game, proc)
        legal = game.legal_actions(player, choices)
        ending_attack_step = (
            proc.step == ATTACK
            and proc.passes + 1 == len(game.players)
            and not game.contents(layers.stack(game))
        )
        if ending_attack_step:
            act = next(a for a in legal if a.name == "pass")
        else:
            act = rng.choice(legal)
        check = QuietPoint("a check of the test's")
        check.found_nothing(game.checkpoint().journal)
        act.apply(game)
        if ending_attack_step:
            seen += 1
            assert check.still(game.checkpoint().journal)  # handed on from where it was
            assert current(game).step == DEFEND  # type: ignore[union-attr]
        elif act.name in ("play", "attack", "defend"):
            played += 1
            assert not check.still(game.checkpoint().journal)  # cards moved: checked again
    assert seen == 3 and played > 0


def test_a_step_that_started_elsewhere_is_no_sign() -> None:
    quiet = QuietPoint("a check of the test's")
    first, second, third = object(), object(), object()
    assert not quiet.still(first)  # never found nothing
    quiet.found_nothing(first)
    assert quiet.still(first)
    handed_on(second, third)  # a hand-off from a point the check never saw
    assert not quiet.still(third)
    handed_on(first, second)
    assert quiet.still(second)  # found nothing at its start: nothing at its end
    handed_on(second, third)
    assert quiet.still(third)  # and so on, from hand-off to hand-off
    assert not quiet.still(first)  # an earlier point (undone to): made again
    quiet.found_nothing(None)
    assert not quiet.still(None)  # a game without a history is checked every time
    assert set(quiet_points()) >= {
        "end of the game",
        "attack-proxies without a source",
        "attack-proxies following their sources",
        "after every action",
    }


def test_a_loss_by_a_write_before_the_pass_is_found() -> None:
    """The hero's life taken to zero by a write no action ended (no check
    made after it), then priority handed on: the check after the pass is
    made, from where it last found nothing, and the player loses (4.5.3a)."""
    game = _game(1)
    proc = current(game)
    assert proc is not None and proc.priority == game.turn_player
    flow.check_end(game)  # nothing found here
    hero = game.contents(game.zone(game.turn_player, "hero"))[0]  # type: ignore[arg-type]
    life = game.stat(hero, "life")
    assert life is not None and life > 0
    game.add_effect(hero, "life", mods=(("life", -life),))
    before = game.checkpoint().journal
    flow.pass_priority(game, proc)  # hands on priority alone
    assert game.checkpoint().journal is not before
    flow.check_end(game)
    after = current(game)
    assert after is not None and after.over and game.turn_player in after.losers
