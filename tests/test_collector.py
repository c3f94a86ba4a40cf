"""The collector of a server process (cardzones/web/collector.py): what
survives a young collection goes out of the collector's reach, so the older
collections walk next to nothing; a table's game dropped out of reach is
freed by its reference counts, a stray cycle only by a sweep, and a sweep
comes once the objects out of reach have grown enough."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from tablekit import migrated_store

from cardzones.table.creation import Creation
from cardzones.table.host import Host
from cardzones.table.store import Store
from cardzones.web import collector


@pytest.fixture
def serving() -> Iterator[collector.Collector]:
    before = gc.get_threshold()
    try:
        yield collector.for_serving()
    finally:
        collector.stop_serving()
        gc.set_threshold(*before)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with migrated_store(str(tmp_path / "tables.sqlite3")) as store:
        yield store


DRAW = {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}


def test_what_survives_a_young_collection_goes_out_of_reach(
    serving: collector.Collector,
) -> None:
    kept = [[i] for i in range(1000)]  # alive: survives the collection
    frozen = gc.get_freeze_count()
    gc.collect(0)
    assert gc.get_freeze_count() >= frozen + 1000
    # the older generations are left empty: their collections walk nothing
    assert gc.get_objects(generation=1) == gc.get_objects(generation=2) == []
    del kept


def test_a_dropped_tables_game_is_freed_out_of_reach_without_a_sweep(
    serving: collector.Collector, store: Store
) -> None:
    host = Host(store)
    created = host.create(Creation("fab", ("alice", "bob"), 7, {}, {"alice.deck": ["C1", "C2"]}))
    table = host.load(created.table_id)
    assert table is not None
    host.act(table, "alice", DRAW)
    game, context = weakref.ref(table.game), weakref.ref(table.ctx)
    frozen = gc.get_freeze_count()
    gc.collect(0)  # the table's objects survive, out of reach
    assert gc.get_freeze_count() > frozen
    del table
    # no cycle: its reference counts free it though the collector cannot reach it
    assert game() is None and context() is None and serving.sweeps == 0


class _Stray:
    """An object in a reference cycle (its own ``me``)."""

    def __init__(self) -> None:
        self.me = self


def test_a_cycle_out_of_reach_is_freed_by_a_sweep(serving: collector.Collector) -> None:
    stray = _Stray()
    kept = weakref.ref(stray)
    gc.collect(0)  # the cycle survives, out of reach
    del stray
    gc.collect()
    assert kept() is not None  # a cycle out of reach: no collection frees it
    assert serving.sweep() > 0
    assert kept() is None and serving.sweeps == 1


def test_a_sweep_is_due_once_the_objects_out_of_reach_have_grown(
    serving: collector.Collector,
) -> None:
    serving.swept = gc.get_freeze_count()
    kept = [[i] for i in range(int(collector.SWEEP_GROWTH * serving.swept) + 1000)]
    serving.young, serving.due = 0, False  # the collections the list itself made
    for _ in range(collector.COUNT_EVERY - 1):
        gc.collect(0)
        assert not serving.due  # counted only every COUNT_EVERY young collections
    gc.collect(0)
    assert serving.due
    serving.sweep()
    assert not serving.due
    del kept
