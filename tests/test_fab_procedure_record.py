"""The procedure's record as ``current`` gives it, read once per point of a
game's history: at every point it is the record there, whichever game was
read last, after a rollback, an undo, in a copy, and in games without a
history. Rule ids: 1.11.4a (a pass hands priority on, which each read must
show)."""

from __future__ import annotations

import random

from cardzones import Game, new_game
from cardzones.rulesets.base import ruleset_of
from cardzones.rulesets.fab.bench_games import deal_both
from cardzones.rulesets.fab.procedure.flow import awaited
from cardzones.rulesets.fab.procedure.state import PROCEDURE, Procedure, _read, current


def _started(seed: int) -> Game:
    game = new_game("fab", ["alice", "bob"], seed=seed)
    deal_both(game)
    ruleset_of(game).start_procedure(game)
    return game


def _record(game: Game) -> Procedure:
    proc = current(game)
    assert proc is not None
    return proc


def _act(game: Game, rng: random.Random) -> None:
    player, names = awaited(game, _record(game))
    assert player is not None
    rng.choice(game.legal_actions(player, names)).apply(game)


def test_each_read_is_the_record_at_that_point_of_each_game() -> None:
    game, other = _started(1), _started(2)
    rng = random.Random(1)
    for _ in range(120):
        if _record(game).over:
            break
        mark = game.checkpoint()
        before = _record(game)
        _act(game, rng)
        after = _record(game)
        assert after == _read(game)
        # Another game read in between leaves each its own record.
        assert _record(other) == _read(other)
        assert _record(game) == after
        # Back at the earlier point, the record read there is that point's.
        game.rollback(mark)
        assert _record(game) == before == _read(game)
        _act(game, random.Random(rng.random()))
        assert _record(game) == _read(game)


def test_a_pass_undone_and_a_copy_each_read_their_own_record() -> None:
    game = _started(3)
    rng = random.Random(3)
    while _record(game).priority is None:  # a pass hands priority on (1.11.4a)
        _act(game, rng)
    before = _record(game)
    copy = game.copy()
    assert _record(copy) == before
    game.act("pass", by=before.priority)
    passed = _record(game)
    assert passed != before and passed == _read(game)
    # The copy shares the history up to the pass, and not the pass.
    assert _record(copy) == before
    game.undo()
    assert _record(game) == before
    copy.act("pass", by=before.priority)
    assert _record(copy) == passed
    assert _record(game) == before


def test_games_without_a_history_are_read_every_time() -> None:
    one, two = _started(4), _started(4)
    one.forget_history()
    two.forget_history()
    changed = _record(two)._replace(passes=_record(two).passes + 1)
    two.records.put(PROCEDURE, changed)
    two.forget_history()
    # Neither game has a point to name: each is read for itself.
    assert _record(one) != _record(two)
    assert _record(two) == changed
    assert _record(one) == _read(one)
