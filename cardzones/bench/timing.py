"""The measurements of the benchmark: each figure of the engine, timed beside
its floor (:mod:`cardzones.bench.floors`), the best of several samples."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path

from cardzones.bench.floors import (
    Bare,
    Op,
    Workload,
    bare_copy,
    bare_view,
    copy_state,
    count_dicts,
    replay_bare,
    view_plan,
)
from cardzones.bench.position import CLEAR, FLIP, MOVE, Action, apply_action, host_of
from cardzones.kernel.game import Game
from cardzones.kernel.views import view
from cardzones.rulesets.fab.actions import put_under
from cardzones.scenario.runner import run_file

# -- measurements -----------------------------------------------------------

_clock = time.perf_counter


def _engine_segment(game: Game, actions: Sequence[Action], hosts: dict[str, int]) -> float:
    move, flip, clear = game.move, game.flip, game.clear
    t0 = _clock()
    for kind, card, dest, position, face, by in actions:
        if kind == MOVE:
            move(card, dest, position=position, face=face, by=by)
        elif kind == FLIP:
            flip(card, face, by)  # type: ignore[arg-type]
        elif kind == CLEAR:
            clear(card, by)
        else:
            put_under(game, card, hosts[by], by)
    return _clock() - t0


def _floor_segment(ops: Sequence[Op], start: Bare) -> float:
    lists, where = start.fresh()
    t0 = _clock()
    replay_bare(ops, lists, where)
    return _clock() - t0


def time_moves(game: Game, workload: Workload, repeats: int) -> tuple[float, float]:
    """Microseconds per action through the public pipeline, and for its floor.

    Each segment starts from the state ``game`` is in and is timed ``repeats``
    times, then the floor replays the same segment as often; each one's best
    time counts, so a pause of the machine spoils one sample, not the run, and
    a busy spell longer than a few milliseconds falls on both."""
    start = game.checkpoint()
    hosts = {p: host_of(game, p) for p in game.players}
    engine = floor = 0.0
    for actions, ops in zip(workload.segments, workload.traces, strict=True):
        best = float("inf")
        for _ in range(repeats):
            best = min(best, _engine_segment(game, actions, hosts))
            game.rollback(start)
        engine += best
        floor += min(_floor_segment(ops, workload.start) for _ in range(repeats))
    n = workload.actions
    return engine / n * 1e6, floor / n * 1e6


def time_undo(game: Game, workload: Workload, repeats: int) -> tuple[float, float]:
    """Microseconds to undo one action, and per action of the bare move.

    Each segment of the workload is played (untimed), then undone one action at
    a time back to where it started, ``repeats`` times; then the bare move
    replays the segment as often. Each one's best time counts."""
    undo, can_undo = game.undo, game.can_undo
    base = game.checkpoint()
    if can_undo():
        raise ValueError("time_undo needs a game with no history")
    elapsed = floor = 0.0
    undone = 0
    for actions, ops in zip(workload.segments, workload.traces, strict=True):
        best = float("inf")
        n = 0
        for _ in range(repeats):
            for action in actions:
                apply_action(game, action)
            n = 0
            t0 = _clock()
            while can_undo():
                undo()
                n += 1
            best = min(best, _clock() - t0)
            game.rollback(base)
        elapsed += best
        undone += n
        floor += min(_floor_segment(ops, workload.start) for _ in range(repeats))
    return elapsed / max(undone, 1) * 1e6, floor / workload.actions * 1e6


def _calls_per_sample(call: Callable[[], object], seconds: float) -> int:
    """How many calls make a sample of about ``seconds`` (short samples keep a
    pause of the machine out of most of them). The first call warms caches."""
    call()
    t0 = _clock()
    call()
    return max(1, int(seconds / max(_clock() - t0, 1e-7)))


def _sample(call: Callable[[], object], number: int) -> float:
    t0 = _clock()
    for _ in range(number):
        call()
    return (_clock() - t0) / number * 1e6


#: About how long one sample of a short call lasts, in seconds.
SAMPLE_S = 2e-4


def per_call_us(
    calls: Sequence[Callable[[], object]], samples: int, every: Sequence[int] = ()
) -> list[float]:
    """Microseconds per call of each of ``calls``: the best of its samples.

    The samples are taken in turn, one of each call after the other, so that a
    busy spell of the machine falls on all of them. ``every`` gives, per call,
    one sample in how many turns it takes (1 for all), for calls so slow that
    a sample is a single call."""
    every = list(every) + [1] * (len(calls) - len(every))
    numbers = [_calls_per_sample(call, SAMPLE_S) for call in calls]
    best = [float("inf")] * len(calls)
    for turn in range(samples):
        for i, call in enumerate(calls):
            if turn % every[i] == 0:
                best[i] = min(best[i], _sample(call, numbers[i]))
    return best


#: Deepcopy takes milliseconds: one sample of it in this many of a copy.
DEEPCOPY_EVERY = 10


def time_copy(game: Game, pristine: Game, samples: int) -> tuple[float, float, float]:
    """Microseconds per :meth:`Game.copy`, per copy of its floor, and per
    ``copy.deepcopy`` of ``pristine``: a game in the same state that no move or
    view has filled caches in, so the naive way to copy at its cheapest."""
    state = copy_state(game)
    copy_us, floor_us, deep_us = per_call_us(
        [game.copy, lambda: bare_copy(state), lambda: copy.deepcopy(pristine)],
        samples,
        every=(1, 1, DEEPCOPY_EVERY),
    )
    return copy_us, floor_us, deep_us


def time_view(game: Game, samples: int, player: str = "alice") -> tuple[float, float, int]:
    """Microseconds per view of the game for one player, per build of the same
    JSON value by its floor, and how many dicts that value holds."""
    shown = view(game, player)
    plan = view_plan(shown)
    if bare_view(plan) != shown:
        raise RuntimeError("the bare view does not build the engine's view")
    view_us, floor_us = per_call_us([lambda: view(game, player), lambda: bare_view(plan)], samples)
    return view_us, floor_us, count_dicts(shown)


def time_legal(game: Game, samples: int, player: str = "alice") -> dict[str, float]:
    """Microseconds per :meth:`Game.legal_actions` of one player, and per
    listing by trying every candidate (:func:`~cardzones.acts.legal.tried_legal_actions`,
    what legal actions were before the rules judged them), timed in turn; how
    many candidates there are (after the seat policy), how many the judged
    listing still tries and how many it lists."""
    from cardzones.acts.legal import legal_counts, tried_legal_actions

    candidates, tried, listed = legal_counts(game, player)
    legal_us, tried_us = per_call_us(
        [lambda: game.legal_actions(player), lambda: tried_legal_actions(game, player)], samples
    )
    return {
        "legal_us": legal_us,
        "legal_tried_us": tried_us,
        "legal_candidates": candidates,
        "legal_tried": tried,
        "legal_listed": listed,
    }


def example_files() -> list[Path]:
    """The scenario files bundled with the package."""
    root = resources.files("cardzones") / "examples"
    return sorted(Path(str(p)) for p in root.iterdir() if p.name.endswith(".scenario.yaml"))


def time_scenarios(files: Sequence[Path], rounds: int, repeats: int) -> float:
    """Scenario files run per second, loading and checking included."""

    def run() -> float:
        t0 = _clock()
        for _ in range(rounds):
            for file in files:
                run_file(file)
        return _clock() - t0

    return len(files) * rounds / min(run() for _ in range(repeats))
