"""The run behind ``cardzones bench``: every figure of a position, each
against its floor, in rounds, and the report.

Each figure is reported with its floor and the ratio of the two, as the ratio
holds from run to run on a shared machine where the figures do not. The
floors do the same work on the same objects with nothing else: a bare move
(:func:`~cardzones.bench.floors.replay_bare`), a bare copy
(:func:`~cardzones.bench.floors.bare_copy`) and a bare view
(:func:`~cardzones.bench.floors.bare_view`); ``copy.deepcopy`` of the game is
the baseline of a copy. docs/performance.md defines them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from cardzones.bench.floors import Workload, make_workload
from cardzones.bench.games import time_games
from cardzones.bench.position import GAME, STANDARD_OBJECTS, build_position
from cardzones.bench.timing import (
    example_files,
    time_copy,
    time_legal,
    time_moves,
    time_scenarios,
    time_undo,
    time_view,
)
from cardzones.kernel.game import Game

# -- the run ----------------------------------------------------------------

#: The figures of the whole run rather than of one position: scenario files,
#: and whole games under the game procedure (:mod:`cardzones.bench.games`).
RUN_KEYS = (
    "scenarios_per_s",
    "games_per_s",
    "turns_per_game",
    "acts_per_game",
    "acts_per_s",
    "us_per_act",
)

#: The figures of one position, in the order the report shows them.
KEYS = (
    "objects",
    "moves_per_s",
    "move_us",
    "move_floor_us",
    "move_ratio",
    "undo_us",
    "undo_ratio",
    "copy_us",
    "copy_floor_us",
    "copy_ratio",
    "deepcopy_us",
    "copy_speedup_vs_deepcopy",
    "view_us",
    "view_floor_us",
    "view_ratio",
    "view_dicts",
    "legal_ms",
    "legal_candidates",
    "legal_tried",
    "legal_listed",
    "legal_us_per_action",
    "legal_action_ratio",
    "legal_tried_ms",
    "legal_per_try_us",
    "legal_try_ratio",
    *RUN_KEYS,
)

#: What a bigger position adds to its figures: each cost against the first
#: position's (a view's per dict it shows).
GROWTH_KEYS = ("move_growth", "undo_growth", "copy_growth", "view_growth", "legal_growth")

#: The targets, as ratios measured in the same run: (key, at most, bound).
TARGETS = (
    ("move_ratio", True, 12.0),
    ("undo_ratio", True, 10.0),
    ("copy_ratio", True, 2.0),
    ("view_ratio", True, 2.0),
    ("copy_speedup_vs_deepcopy", False, 1000.0),
    ("legal_action_ratio", True, 1.0),
)

#: How much a move, an undo, a copy, a view per dict it shows, and legal
#: actions per action listed, may cost on a bigger position, against the
#: first one (flat or nearly: linear in what is shown or listed).
GROWTH_TARGET = 1.5


class _Position(NamedTuple):
    objects: int
    game: Game
    pristine: Game
    workload: Workload


def parse_sizes(text: str) -> list[int]:
    """``"126,500,2000"`` as sizes of positions, each at least 126.

    >>> parse_sizes("126, 500")
    [126, 500]
    """
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        raise ValueError(f"expected numbers of objects like 126,500,2000, got {text!r}") from None
    small = [n for n in sizes if n < STANDARD_OBJECTS]
    if small:
        raise ValueError(f"a position has at least {STANDARD_OBJECTS} objects, got {small[0]}")
    return sizes


def _progress(show: bool) -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=not show,
    )


def run_bench(
    quick: bool = False,
    objects: int | Sequence[int] = STANDARD_OBJECTS,
    scale: float = 1.0,
    progress: bool = False,
) -> dict[str, Any]:
    """Measure every figure and its floor on positions of ``objects`` objects.

    One size gives the figures of :data:`KEYS`. Several give ``{"runs": [...],
    "scenarios_per_s": ...}``: each size's figures, with :data:`GROWTH_KEYS`
    against the first size.

    The measurements are made in rounds; each round measures every figure of
    every size once, each interleaved with its floor, and each figure's best
    round counts: a busy spell of the machine, which can last seconds, then
    spoils one round of every figure rather than one figure of the run.
    ``quick`` makes a short run; ``scale`` multiplies the iteration counts (the
    tests use a tiny one); ``progress`` shows a progress bar on stderr.
    """
    sizes = [objects] if isinstance(objects, int) else list(objects)

    def n(full: int, short: int) -> int:
        return max(1, int((short if quick else full) * scale))

    rounds = n(10, 8)
    figures = ("moves", "undo", "copies", "views", "legal")
    with _progress(progress) as bar:
        task = bar.add_task("", total=len(sizes) + rounds * (len(sizes) * len(figures) + 1))
        positions = []
        for size in sizes:
            bar.update(task, description=f"workload, {size} objects")
            game = build_position(size)
            workload = make_workload(game, n(100_000, 30_000), segment=200)
            positions.append(_Position(size, game, build_position(size), workload))
            bar.advance(task)
        best: list[dict[str, float]] = [{} for _ in sizes]
        scenario_s = float("inf")
        for r in range(rounds):
            for pos, low in zip(positions, best, strict=True):
                for figure in figures:
                    bar.update(
                        task, description=f"round {r + 1}/{rounds}: {figure}, {pos.objects} objects"
                    )
                    for key, value in _measure(figure, pos, n).items():
                        low[key] = min(low.get(key, value), value)
                    bar.advance(task)
            bar.update(task, description=f"round {r + 1}/{rounds}: scenarios")
            files = example_files()
            scenario_s = min(scenario_s, 1 / time_scenarios(files, 1, n(20, 5)))
            bar.advance(task)
        bar.update(task, description="whole games")
        games = time_games(n(20, 5))
    runs = [_figures(pos.objects, low) for pos, low in zip(positions, best, strict=True)]
    whole = {
        "scenarios_per_s": round(1 / scenario_s, 1),
        "games_per_s": round(games["games_per_s"], 2),
        "turns_per_game": round(games["turns_per_game"], 1),
        "acts_per_game": round(games["acts_per_game"], 1),
        "acts_per_s": round(games["acts_per_s"]),
        "us_per_act": round(games["us_per_act"], 1),
    }
    if isinstance(objects, int) or len(runs) == 1:
        return {**runs[0], **whole}
    first = runs[0]
    for run in runs:
        run["move_growth"] = round(run["move_us"] / first["move_us"], 2)
        run["undo_growth"] = round(run["undo_us"] / first["undo_us"], 2)
        run["copy_growth"] = round(run["copy_us"] / first["copy_us"], 2)
        run["view_growth"] = round(
            run["view_us"] / run["view_dicts"] / (first["view_us"] / first["view_dicts"]), 2
        )
        run["legal_growth"] = round(run["legal_us_per_action"] / first["legal_us_per_action"], 2)
    return {"runs": runs, **whole}


def _measure(figure: str, pos: _Position, n: Callable[[int, int], int]) -> dict[str, float]:
    """One round of one figure, with its floor, in microseconds."""
    if figure == "moves":
        move, floor = time_moves(pos.game, pos.workload, n(4, 3))
        return {"move_us": move, "move_floor_us": floor}
    if figure == "undo":
        undo, floor = time_undo(pos.game, pos.workload, n(3, 2))
        return {"undo_us": undo, "move_floor_us": floor}
    if figure == "copies":
        copy_us, floor, deep = time_copy(pos.game, pos.pristine, n(100, 50))
        return {"copy_us": copy_us, "copy_floor_us": floor, "deepcopy_us": deep}
    if figure == "legal":
        return time_legal(pos.game, n(3, 2))
    view_us, floor, dicts = time_view(pos.game, n(200, 100))
    return {"view_us": view_us, "view_floor_us": floor, "view_dicts": dicts}


def _figures(objects: int, best: dict[str, float]) -> dict[str, Any]:
    move, floor = best["move_us"], best["move_floor_us"]
    copy_us, copy_floor, deep = best["copy_us"], best["copy_floor_us"], best["deepcopy_us"]
    view_us, view_floor = best["view_us"], best["view_floor_us"]
    per_try = best["legal_tried_us"] / max(1, best["legal_candidates"])
    per_action = best["legal_us"] / max(1, best["legal_listed"])
    return {
        "objects": objects,
        "moves_per_s": round(1e6 / move),
        "move_us": round(move, 3),
        "move_floor_us": round(floor, 4),
        "move_ratio": round(move / floor, 2),
        "undo_us": round(best["undo_us"], 3),
        "undo_ratio": round(best["undo_us"] / floor, 2),
        "copy_us": round(copy_us, 3),
        "copy_floor_us": round(copy_floor, 3),
        "copy_ratio": round(copy_us / copy_floor, 2),
        "deepcopy_us": round(deep, 1),
        "copy_speedup_vs_deepcopy": round(deep / copy_us, 1),
        "view_us": round(view_us, 2),
        "view_floor_us": round(view_floor, 2),
        "view_ratio": round(view_us / view_floor, 2),
        "view_dicts": int(best["view_dicts"]),
        "legal_ms": round(best["legal_us"] / 1e3, 2),
        "legal_candidates": int(best["legal_candidates"]),
        "legal_tried": int(best["legal_tried"]),
        "legal_listed": int(best["legal_listed"]),
        "legal_us_per_action": round(per_action, 2),
        "legal_action_ratio": round(per_action / move, 2),
        "legal_tried_ms": round(best["legal_tried_us"] / 1e3, 2),
        "legal_per_try_us": round(per_try, 2),
        "legal_try_ratio": round(per_try / (move + best["undo_us"]), 2),
    }


# -- the report -------------------------------------------------------------

#: The rows of the report: (what, engine key, floor key, what the floor is, ratio key).
_ROWS = (
    ("move, µs per action", "move_us", "move_floor_us", "bare move", "move_ratio"),
    ("undo, µs per action", "undo_us", "move_floor_us", "bare move", "undo_ratio"),
    ("copy, µs", "copy_us", "copy_floor_us", "bare copy", "copy_ratio"),
    ("view, µs", "view_us", "view_floor_us", "bare view", "view_ratio"),
    ("copy against deepcopy, µs", "copy_us", "deepcopy_us", "deepcopy", "copy_speedup_vs_deepcopy"),
    (
        "legal actions, µs per action listed",
        "legal_us_per_action",
        "move_us",
        "one move",
        "legal_action_ratio",
    ),
    (
        "legal actions, µs per try",
        "legal_per_try_us",
        "move_undo_us",
        "move + undo",
        "legal_try_ratio",
    ),
)


def _mark(ok: bool) -> str:
    return "[green]ok[/green]" if ok else "[red]missed[/red]"


def _target(key: str, value: float) -> str:
    for target_key, at_most, bound in TARGETS:
        if target_key == key:
            ok = value <= bound if at_most else value >= bound
            return f"{'<=' if at_most else '>='} {bound:,g}× {_mark(ok)}"
    return ""


def report(result: dict[str, Any]) -> Table:
    """The figures as a table: each engine figure, its floor, the ratio and its
    target; for several sizes, :func:`growth_report`."""
    if "runs" in result:
        return growth_report(result)
    table = Table(
        title=f"cardzones bench ({GAME}, {result['objects']} objects)",
        caption=(
            f"{result['moves_per_s']:,} moves/s, {result['scenarios_per_s']:,} scenarios/s, "
            f"{result['games_per_s']:,} whole games/s ({result['turns_per_game']:,} turns, "
            f"{result['acts_per_game']:,} acts a game, {result['acts_per_s']:,} acts/s, "
            f"{result['us_per_act']:,} µs an act); "
            f"the view shows {result['view_dicts']:,} dicts; legal actions take "
            f"{result['legal_ms']:,} ms ({result['legal_listed']:,} listed of "
            f"{result['legal_candidates']:,} candidates, {result['legal_tried']:,} tried; "
            f"{result['legal_tried_ms']:,} ms trying them all). Ratios are to floors "
            "measured in the same run (docs/performance.md)."
        ),
    )
    for column in ("figure", "engine", "floor", "the floor", "ratio", "target"):
        table.add_column(column, justify="left" if column in ("figure", "the floor") else "right")
    for label, engine, floor, floor_name, ratio in _ROWS:
        base = (
            round(result["move_us"] + result["undo_us"], 3)
            if floor == "move_undo_us"
            else result[floor]
        )
        table.add_row(
            label,
            f"{result[engine]:,}",
            f"{base:,}",
            floor_name,
            f"{result[ratio]:,}×",
            _target(ratio, result[ratio]),
        )
    return table


#: The rows of the growth report: (what, key, growth key). A view's row is
#: per dict it shows, as a view is linear in what its viewer sees.
_GROWTH_ROWS = (
    ("move, µs per action", "move_us", "move_growth"),
    ("undo, µs per action", "undo_us", "undo_growth"),
    ("copy, µs", "copy_us", "copy_growth"),
    ("view, µs", "view_us", None),
    ("view, dicts shown", "view_dicts", None),
    ("view, ns per dict shown", "view_ns_per_dict", "view_growth"),
    ("bare move, µs per action", "move_floor_us", None),
    ("move ratio", "move_ratio", None),
    ("undo ratio", "undo_ratio", None),
    ("copy ratio", "copy_ratio", None),
    ("view ratio", "view_ratio", None),
    ("copy against deepcopy", "copy_speedup_vs_deepcopy", None),
    ("legal actions, ms", "legal_ms", None),
    ("legal actions, listed", "legal_listed", None),
    ("legal actions, candidates tried", "legal_tried", None),
    ("legal actions, µs per action listed", "legal_us_per_action", "legal_growth"),
    ("legal actions by trying, ms", "legal_tried_ms", None),
)


def _number(value: float) -> str:
    """A figure with three significant digits or so, and thousands separated."""
    if isinstance(value, int) or abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def growth_report(result: dict[str, Any]) -> Table:
    """How each figure grows with the number of objects: one column per size,
    then the largest size's cost against the first one's, and its target."""
    runs = result["runs"]
    table = Table(
        title=f"cardzones bench: growth with the number of objects ({GAME})",
        caption=(
            f"every size measured in the same run; {result['scenarios_per_s']:,} scenarios/s, "
            f"{result['games_per_s']:,} whole games/s"
        ),
    )
    table.add_column("objects")
    for run in runs:
        table.add_column(f"{run['objects']:,}", justify="right")
    table.add_column("growth", justify="right")
    table.add_column("target", justify="right")
    for label, key, growth in _GROWTH_ROWS:
        cells = []
        for run in runs:
            value = (
                run["view_us"] / run["view_dicts"] * 1e3 if key == "view_ns_per_dict" else run[key]
            )
            cells.append(_number(value))
        if growth is None:
            table.add_row(label, *cells, "", "")
            continue
        g = runs[-1][growth]
        target = f"<= {GROWTH_TARGET:g}× {_mark(g <= GROWTH_TARGET)}"
        table.add_row(label, *cells, f"{g:,}×", target)
    return table
