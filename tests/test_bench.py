"""Smoke tests of the benchmark: it runs, it reports every figure with its floor
and ratio, its workload is legal, and its floors do the engine's work and no
more. No timing is asserted: timings belong to docs/performance.md."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardzones import bench
from cardzones.cli import app
from cardzones.errors import CardzonesError
from cardzones.kernel.views import view

_RUN_BENCH = bench.run_bench

#: The keys the issue of floors and ratios added beside the older figures.
RATIO_KEYS = {
    "move_floor_us",
    "move_ratio",
    "copy_floor_us",
    "copy_ratio",
    "undo_ratio",
    "view_floor_us",
    "view_ratio",
    "copy_speedup_vs_deepcopy",
}
OLDER_KEYS = {
    "moves_per_s",
    "copy_us",
    "deepcopy_us",
    "undo_us",
    "view_us",
    "scenarios_per_s",
}


def _tiny(quick: bool = False, objects: Any = bench.STANDARD_OBJECTS, **_: Any) -> dict[str, Any]:
    return _RUN_BENCH(quick=quick, objects=objects, scale=0.005)


def _text(result: dict[str, Any]) -> str:
    console = Console(record=True, width=160)
    console.print(bench.report(result))
    return console.export_text()


def test_run_bench_reports_every_figure_its_floor_and_ratio() -> None:
    figures = _tiny(quick=True)
    assert list(figures) == list(bench.KEYS)
    assert set(figures) >= RATIO_KEYS | OLDER_KEYS
    # Every figure is a positive number, but for the candidates legal actions
    # still try, which are none where the rules judge every one.
    assert all(isinstance(v, int | float) for v in figures.values())
    assert all(v > 0 for k, v in figures.items() if k != "legal_tried")
    assert figures["legal_tried"] >= 0
    assert figures["objects"] == bench.STANDARD_OBJECTS
    # Each ratio is its figure over its floor (both as reported, so rounded;
    # a ratio is reported to two places, so a small one is within 0.005).
    for ratio, engine, floor in (
        ("move_ratio", "move_us", "move_floor_us"),
        ("undo_ratio", "undo_us", "move_floor_us"),
        ("copy_ratio", "copy_us", "copy_floor_us"),
        ("view_ratio", "view_us", "view_floor_us"),
        ("copy_speedup_vs_deepcopy", "deepcopy_us", "copy_us"),
    ):
        quotient = figures[engine] / figures[floor]
        assert figures[ratio] == pytest.approx(quotient, rel=0.02, abs=0.005)
    assert figures["moves_per_s"] == pytest.approx(1e6 / figures["move_us"], rel=0.01)
    # The games' acts a second are their games a second times their acts.
    acts_per_s = figures["games_per_s"] * figures["acts_per_game"]
    assert figures["acts_per_s"] == pytest.approx(acts_per_s, rel=0.02)
    assert figures["us_per_act"] == pytest.approx(1e6 / figures["acts_per_s"], rel=0.02)


def test_the_report_shows_each_ratio_against_its_target() -> None:
    figures = dict.fromkeys(bench.KEYS, 1.0)
    figures.update(objects=126, move_ratio=11.0, view_ratio=2.5, copy_speedup_vs_deepcopy=1500.0)
    text = _text(figures)
    lines = {line.split("│")[1].strip(): line for line in text.splitlines() if "│" in line}
    assert "<= 12× ok" in lines["move, µs per action"]
    assert "<= 2× missed" in lines["view, µs"]
    assert ">= 1,000× ok" in lines["copy against deepcopy, µs"]
    assert "<= 10×" in lines["undo, µs per action"]
    assert "<= 2×" in lines["copy, µs"]
    for floor in ("bare move", "bare copy", "bare view", "deepcopy"):
        assert floor in text


def test_cli_json_prints_one_object_with_every_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "run_bench", _tiny)
    result = CliRunner().invoke(app, ["bench", "--quick", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert set(figures) == set(bench.KEYS)
    assert set(figures) >= RATIO_KEYS | OLDER_KEYS


def test_cli_objects_gives_the_growth(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "run_bench", _tiny)
    result = CliRunner().invoke(app, ["bench", "--quick", "--json", "--objects", "126,300"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert set(out) == {"runs", *bench.RUN_KEYS}
    runs = out["runs"]
    assert [r["objects"] for r in runs] == [126, 300]
    for run in runs:
        assert set(run) == (set(bench.KEYS) - set(bench.RUN_KEYS)) | set(bench.GROWTH_KEYS)
    assert all(runs[0][key] == 1.0 for key in bench.GROWTH_KEYS)
    assert runs[1]["view_dicts"] > runs[0]["view_dicts"]

    table = CliRunner().invoke(app, ["bench", "--quick", "--objects", "126,300"])
    assert table.exit_code == 0, table.output
    for label in ("move, µs per action", "undo, µs per action", "copy, µs", "view, dicts shown"):
        assert label in table.stdout
    assert "growth" in table.stdout


@pytest.mark.parametrize("objects", ["12", "126,x", ""])
def test_cli_refuses_bad_sizes(objects: str) -> None:
    result = CliRunner().invoke(app, ["bench", "--objects", objects])
    assert result.exit_code == 2
    assert "--objects" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("objects", [bench.STANDARD_OBJECTS, 300])
def test_positions_have_the_objects_asked_for(objects: int) -> None:
    game = bench.build_position(objects)
    assert len(list(game.cards())) == objects
    assert not game.can_undo()
    types = {game.zone_info(game.obj(c).zone).type for c in game.cards()}
    assert types >= {
        "deck",
        "hand",
        "graveyard",
        "banished",
        "arsenal",
        "pitch",
        "hero",
        "arms",
        "chest",
        "head",
        "legs",
        "weapon",
        "permanent",
    }
    assert any(game.kids(c) for c in game.cards()), "a hero has a soul"
    with pytest.raises(ValueError):
        bench.build_position(10)


def test_the_workload_is_legal_and_replays_the_same() -> None:
    game = bench.build_position()
    start = game.checkpoint()
    workload = bench.make_workload(game, 300, segment=100)
    assert workload.actions >= 300
    for actions in workload.segments:
        for action in actions:
            try:
                bench.apply_action(game, action)
            except CardzonesError as exc:  # pragma: no cover - a failure message
                pytest.fail(f"{action} was refused on replay: {exc}")
        game.rollback(start)


def test_the_bare_move_does_what_the_engine_did() -> None:
    """Replaying a segment's trace on the bare lists ends where the engine's
    actions end: the same cards in the same order in every zone and pile."""
    game = bench.build_position()
    start = game.checkpoint()
    workload = bench.make_workload(game, 400, segment=200)
    for actions, ops in zip(workload.segments, workload.traces, strict=True):
        assert ops, "a segment moves cards"
        bare = workload.start.fresh()
        bench.replay_bare(ops, *bare)
        for action in actions:
            bench.apply_action(game, action)
        expected = bench.bare_state(game)
        assert {k: v for k, v in bare.lists.items() if v or k in expected.lists} == expected.lists
        assert bare.where == expected.where
        game.rollback(start)
    # The trace is one operation per card the engine changed, no more: a
    # segment of plain moves has about one per action.
    ops_per_action = sum(map(len, workload.traces)) / workload.actions
    assert 0.8 < ops_per_action < 1.3


def test_a_wrong_trace_is_caught() -> None:
    game = bench.build_position()
    bare = bench.bare_state(game)
    deck = game.zone("alice", "deck")
    assert deck is not None
    bare.lists[deck].reverse()
    with pytest.raises(RuntimeError):
        bench.check_bare(game, bare)


def test_a_bigger_position_keeps_the_mix_of_actions() -> None:
    """Drawn uniformly, the tokens filling a big arena would make many more
    actions a token that ceases; the workload keeps the standard mix."""

    def mix(objects: int) -> dict[str, float]:
        game = bench.build_position(objects)
        start = game.checkpoint()
        workload = bench.make_workload(game, 2000, segment=200)
        counts: dict[str, int] = {}
        for actions in workload.segments:
            for action in actions:
                result = str(bench.apply_action(game, action))
                counts[result] = counts.get(result, 0) + 1
            game.rollback(start)
        return {k: v / workload.actions for k, v in counts.items()}

    small, big = mix(bench.STANDARD_OBJECTS), mix(2000)
    assert big.get("ceased", 0) < 2.5 * small.get("ceased", 0) + 0.01
    assert abs(big["moved"] - small["moved"]) < 0.05


def test_the_bare_copy_copies_every_dict_and_shares_the_records() -> None:
    game = bench.build_position()
    state = bench.copy_state(game)
    copied = bench.bare_copy(state)
    for original, copy in zip(state, copied, strict=True):
        assert copy == original and copy is not original
    records = state[0]
    assert len(records) == len(list(game.cards()))
    assert all(copied[0][card] is records[card] for card in records)


def test_the_bare_view_builds_the_same_value_all_new() -> None:
    game = bench.build_position(300)
    shown = view(game, "alice")
    plan = bench.view_plan(shown)
    built = bench.bare_view(plan)
    assert built == shown
    assert bench.count_dicts(built) == bench.count_dicts(shown) > 300

    def containers(value: Any) -> list[Any]:
        if isinstance(value, dict):
            return [value, *(c for v in value.values() for c in containers(v))]
        if isinstance(value, list):
            return [value, *(c for v in value for c in containers(v))]
        return []

    ids = {id(c) for c in containers(built)}
    assert not ids & {id(c) for c in containers(shown)}
    assert not ids & {id(c) for c in containers(bench.bare_view(plan))}


def test_parse_sizes() -> None:
    assert bench.parse_sizes("126,500,2000") == [126, 500, 2000]
    with pytest.raises(ValueError, match="at least 126"):
        bench.parse_sizes("100")


def test_legal_actions_are_measured_per_action_listed_against_a_move() -> None:
    figures = _tiny(quick=True)
    assert figures["legal_tried"] <= figures["legal_candidates"]
    assert figures["legal_listed"] > 100  # the standard position offers many
    per_action = figures["legal_ms"] * 1e3 / figures["legal_listed"]
    # Each figure is rounded to two decimals (of a millisecond, of a
    # microsecond), which a tiny run's small figures feel.
    rounding = 0.005 * 1e3 / figures["legal_listed"] + 0.005
    assert figures["legal_us_per_action"] == pytest.approx(per_action, rel=0.05, abs=rounding)
    assert figures["legal_action_ratio"] == pytest.approx(
        figures["legal_us_per_action"] / figures["move_us"], rel=0.05, abs=0.01
    )
    assert "legal actions, µs per action listed" in _text(figures)


def test_trying_every_candidate_is_measured_per_try_against_a_move_and_its_undo() -> None:
    figures = _tiny(quick=True)
    per_try = figures["legal_tried_ms"] * 1e3 / figures["legal_candidates"]
    assert figures["legal_per_try_us"] == pytest.approx(per_try, rel=0.05)
    base = figures["move_us"] + figures["undo_us"]
    assert figures["legal_try_ratio"] == pytest.approx(figures["legal_per_try_us"] / base, rel=0.05)
    assert "legal actions, µs per try" in _text(figures)
