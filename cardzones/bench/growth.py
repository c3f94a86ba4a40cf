"""Whether an act costs more late in a long game than early in it.

An act's path in the server is the same at every point of a game: catch up
with the store, bind and apply the act, append it to the store (in a shared
commit), and build the event's frame for each connected viewer from the view
and the log entries since the last event. None of it should grow with the
events before it. This measures it, in one process, through the table and
store layers the server uses (:class:`~cardzones.table.host.Host` and the
hub's frames), with no sockets:

- **early**: the first :data:`WINDOW` acts of a new benchmark table;
- **late**: :data:`WINDOW` acts of the same table after :data:`AGE` events;
- **fresh**: a new table's first acts, each taken right after one of the late
  window's, so that a busy spell of the machine falls on both alike.

The acts are drawn as the closed loop's seats draw them (:class:`_Seat`),
from each seat's view, which is built outside the timer. A snapshot, which
holds the whole game and so does grow with it, is kept after the ack, as
the server keeps it (:meth:`Host.snapshot_due`); it is timed apart, at the
end of each window, and spread over the acts of its interval
(``snapshot_ms_per_act``). The ratios say what grows (the aim: about 1):
``p50`` is the late median over the early one, ``p50_fresh`` the late median
over the fresh one, and ``with_snapshots`` the late mean with its snapshots
spread over the early mean with its own. The early and late windows are
seconds apart, and a shared machine's load can move between them;
``p50_fresh`` compares acts taken in turn, in the same moments.
"""

from __future__ import annotations

import random
import time
from typing import Any

from cardzones.bench.seat import _Seat
from cardzones.bench.table import Sample, table_body
from cardzones.table.creation import creation_from_request
from cardzones.table.host import Host
from cardzones.table.store import Store
from cardzones.table.table import Table

#: Acts timed in each window, and events played before the late one.
WINDOW, AGE = 400, 4000
QUICK_WINDOW, QUICK_AGE = 60, 300
#: The viewers connected to a benchmark table: its two seats.
VIEWERS = ("alice", "bob")


class _Game:
    """A benchmark table played through the host, as the server plays it."""

    def __init__(self, host: Host, seed: int) -> None:
        rng = random.Random(seed)
        created = host.create(creation_from_request(table_body(rng.randrange(1 << 31))))
        table = host.load(created.table_id)
        assert table is not None
        self.host, self.table, self.rng = host, table, rng
        self.seats = [_Seat(p, random.Random(rng.randrange(1 << 31))) for p in table.players]

    def act(self) -> float:
        """One act and its frames, as the hub makes them; its time, in seconds.
        A snapshot due after it is kept untimed, as the server keeps it after
        the ack."""
        from cardzones.table.json_text import dumps

        table, host = self.table, self.host
        seat = self.rng.choice(self.seats)
        seat.view = table.view(seat.name)
        act = seat.next_act()
        events: list[Any] = []
        started = time.perf_counter()
        done = host.act(
            table, seat.name, act, lambda t, a: events.append(a), snapshot=False, read_first=False
        )
        frames = {v: dumps(table.event_frame(v, seat.name)) for v in VIEWERS}
        took = time.perf_counter() - started
        assert frames and not events  # nobody else writes to this table
        if host.snapshot_due(done.number):
            host.keep_snapshot(table)
        return took


def _snapshot(host: Host, table: Table) -> dict[str, Any]:
    """The time to keep one snapshot of the table now, and spread over the
    acts between two snapshots at this point of the game."""
    started = time.perf_counter()
    host.store.save_snapshot(table.id, table.number, table.snapshot())
    took = (time.perf_counter() - started) * 1000
    every = host.snapshot_interval(table.number)
    return {
        "snapshot_ms": round(took, 3),
        "snapshot_every": every,
        "snapshot_ms_per_act": round(took / every, 3),
    }


def _window(sample: Sample, first: int, last: int) -> dict[str, Any]:
    figures = sample.figures(1.0, "acts")
    del figures["acts_per_s"]
    return {"events": [first, last], **figures}


def run_growth(db: str, quick: bool = False, seed: int = 1) -> dict[str, Any]:
    """Time the act path early in a game, late in it and on a fresh table
    (see the module); ``db`` is the store's URL or SQLite file."""
    window, age = (QUICK_WINDOW, QUICK_AGE) if quick else (WINDOW, AGE)
    store = Store(db)
    store.migrate()
    host = Host(store)
    try:
        old = _Game(host, seed)
        early = Sample([old.act() for _ in range(window)])
        early_figures = _window(early, 1, old.table.number) | _snapshot(host, old.table)
        while old.table.number < age:
            old.act()
        start = old.table.number + 1
        fresh_game = _Game(host, seed + 1)
        late, fresh = Sample(), Sample()
        for _ in range(window):
            late.latencies.append(old.act())
            fresh.latencies.append(fresh_game.act())
        late_figures = _window(late, start, old.table.number) | _snapshot(host, old.table)
        fresh_figures = _window(fresh, 1, fresh_game.table.number)
    finally:
        store.close()

    def spread(part: dict[str, Any]) -> float:
        return float(part["mean_ms"]) + float(part["snapshot_ms_per_act"])

    return {
        "early": early_figures,
        "late": late_figures,
        "fresh": fresh_figures,
        "ratios": {
            "p50": _ratio(late_figures["p50_ms"], early_figures["p50_ms"]),
            "p50_fresh": _ratio(late_figures["p50_ms"], fresh_figures["p50_ms"]),
            "mean": _ratio(late_figures["mean_ms"], early_figures["mean_ms"]),
            "with_snapshots": _ratio(spread(late_figures), spread(early_figures)),
        },
    }


def _ratio(a: float, b: float) -> float:
    return round(a / b, 3) if b else 0.0
