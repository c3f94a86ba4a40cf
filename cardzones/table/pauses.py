"""A record of what makes a server's acts wait, to line up with its slowest
acts: each run of the garbage collector, each group commit of acts (its
duration and size), each checkpoint of a SQLite store's log, and the event
loop's lag (a ticker that finds itself late).

It is off unless ``CARDZONES_PAUSES`` names a file: then each line of that
file is one JSON object, ``{"at": wall-clock seconds, "kind": ..., ...}``:

- ``gc``: ``generation``, ``ms`` (how long the collection stopped the process),
  ``collected``;
- ``commit``: ``ms`` (from the batch's start to its commit), ``rows``;
- ``checkpoint``: ``ms``, ``pages`` (of the log written back to the file);
- ``lag``: ``ms`` by which the ticker woke late, when more than
  :data:`LAG_MS`;
- ``second``: once a second, ``ms`` the length of that second, ``cpu_ms``
  the CPU this process used in it and ``machine`` the share of the
  machine's cores busy (all processes), so that a pause while the machine
  was busy with others is told from one of the server's own.

``at`` is when the pause began. The lines are written by the event loop's
thread once a second, so that recording costs the act path an append to a
list and no write.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import threading
import time
from collections.abc import AsyncIterator
from typing import Any, TextIO

#: The environment variable that names the file (unset: no record).
ENV = "CARDZONES_PAUSES"
#: Seconds between two of the ticker's wake-ups.
TICK = 0.01
#: The smallest lag recorded, in milliseconds.
LAG_MS = 20.0


class Pauses:
    """The record of one process (see the module): :meth:`note` from any
    thread, written by :meth:`flush`."""

    def __init__(self, out: TextIO) -> None:
        self._out = out
        self._lock = threading.Lock()
        self._lines: list[dict[str, Any]] = []
        self._gc_start: tuple[float, float] | None = None

    def note(self, kind: str, at: float, ms: float, **more: Any) -> None:
        """Record a pause of ``kind`` that began at ``at`` (wall clock)."""
        line = {"at": round(at, 4), "kind": kind, "ms": round(ms, 3), **more}
        with self._lock:
            self._lines.append(line)

    def flush(self) -> None:
        """Write the lines noted since the last flush."""
        with self._lock:
            lines, self._lines = self._lines, []
        if lines:
            self._out.write("".join(json.dumps(line) + "\n" for line in lines))
            self._out.flush()

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        """The collector's callback (:data:`gc.callbacks`)."""
        if phase == "start":
            self._gc_start = (time.time(), time.perf_counter())
        elif self._gc_start is not None:
            at, began = self._gc_start
            self._gc_start = None
            ms = (time.perf_counter() - began) * 1000
            self.note("gc", at, ms, generation=info["generation"], collected=info["collected"])

    async def tick(self) -> None:
        """Note the event loop's lag and write the record, until cancelled."""
        last_flush = time.perf_counter()
        last_cpu, last_machine = time.process_time(), _machine_times()
        while True:
            due = time.perf_counter() + TICK
            await asyncio.sleep(TICK)
            now = time.perf_counter()
            late = (now - due) * 1000
            if late > LAG_MS:
                self.note("lag", time.time() - late / 1000 - TICK, late)
            if now - last_flush >= 1.0:
                cpu, machine = time.process_time(), _machine_times()
                busy = None
                if machine is not None and last_machine is not None:
                    total = machine[1] - last_machine[1]
                    busy = round((machine[0] - last_machine[0]) / total, 3) if total else None
                took = now - last_flush
                at = time.time() - took
                self.note(
                    "second",
                    at,
                    took * 1000,
                    cpu_ms=round((cpu - last_cpu) * 1000, 1),
                    machine=busy,
                )
                last_flush, last_cpu, last_machine = now, cpu, machine
                self.flush()


def _machine_times() -> tuple[int, int] | None:
    """The machine's busy and total CPU ticks since it started (None:
    unknown), from ``/proc/stat``."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    # user nice system idle iowait irq softirq steal ...: idle and iowait are not busy.
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields) - idle, sum(fields)


#: The record of this process while one is open (see :func:`recording`).
current: Pauses | None = None


def note(kind: str, at: float, ms: float, **more: Any) -> None:
    """Record a pause in this process's record, if it keeps one."""
    record = current
    if record is not None:
        record.note(kind, at, ms, **more)


@contextlib.asynccontextmanager
async def recording(path: str | None = None) -> AsyncIterator[Pauses | None]:
    """Keep the record in the file ``path`` (by default the one
    :data:`ENV` names; none: no record) while the block runs."""
    global current
    path = path if path is not None else os.environ.get(ENV)
    if not path:
        yield None
        return
    with open(path, "a", encoding="utf-8") as out:
        record = Pauses(out)
        current = record
        gc.callbacks.append(record.on_gc)
        ticker = asyncio.create_task(record.tick())
        try:
            yield record
        finally:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
            gc.callbacks.remove(record.on_gc)
            current = None
            record.flush()
