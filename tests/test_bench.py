"""Smoke tests of the benchmark: it runs, it reports every figure, and its
workload is legal. No timing is asserted: timings belong to docs/performance.md."""

from __future__ import annotations

import json

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardzones import bench
from cardzones.cli import app
from cardzones.errors import CardzonesError

_RUN_BENCH = bench.run_bench


def _tiny(quick: bool = False) -> dict[str, float]:
    return _RUN_BENCH(quick=quick, scale=0.005)


def test_run_bench_reports_every_figure() -> None:
    figures = _tiny(quick=True)
    assert list(figures) == list(bench.KEYS)
    assert all(isinstance(v, int | float) and v > 0 for v in figures.values())
    console = Console(record=True, width=100)
    console.print(bench.report(figures))
    text = console.export_text()
    assert all(key in text for key in bench.KEYS)


def test_cli_json_prints_one_object(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "run_bench", _tiny)
    result = CliRunner().invoke(app, ["bench", "--quick", "--json"])
    assert result.exit_code == 0, result.output
    assert set(json.loads(result.stdout)) == set(bench.KEYS)


@pytest.mark.parametrize("objects", [bench.STANDARD_OBJECTS, 300])
def test_positions_have_the_objects_asked_for(objects: int) -> None:
    game = bench.build_position(objects)
    assert len(game.cards()) == objects
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


def test_the_workload_is_legal_and_replays_the_same() -> None:
    game = bench.build_position()
    start = game.checkpoint()
    workload = bench.make_workload(game, 300, segment=100)
    assert sum(len(s) for s in workload) >= 300
    for actions in workload:
        for action in actions:
            try:
                bench._apply(game, action)
            except CardzonesError as exc:  # pragma: no cover - a failure message
                pytest.fail(f"{action} was refused on replay: {exc}")
        game.rollback(start)
    with pytest.raises(ValueError):
        bench.build_position(10)
