"""Group commit: the actions of many tables in one transaction.

Every act is durable before it is acknowledged: its action is committed, and
a commit waits for the disk (SQLite's fsync, or Postgres's, after a round
trip). Committed one by one, the acts of all the tables a process serves
queue for that wait. :class:`GroupCommit` lets the acts that arrive while a
commit runs wait for it together and go in the next commit, all of them: the
first caller to find no commit under way becomes the leader, writes every
row waiting in one transaction, and hands each caller its own outcome; when
more rows came in meanwhile, the first of them leads the next commit. No
row is acknowledged before the commit that holds it returns.

A row may also come from an event loop (:meth:`GroupCommit.submit`), whose
thread must not wait for a disk: such a row is led by the group's writer
thread, and its outcome set on an asyncio future. The futures of one commit
are settled by one call onto their loop, and the writer is woken only when
no commit is under way, so that under load a batch, not each act, pays for
the hand-offs between threads as it does for the commit.

>>> written = []
>>> group = GroupCommit(lambda rows: [written.append(len(rows))] and [None] * len(rows))
>>> group.append({"number": 1})
>>> written
[1]
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from cardzones.errors import CardzonesError
from cardzones.table import pauses

#: Writes rows in one transaction and commits it: for each row, None when it
#: is stored, or the error that says why not (the others are stored).
Writer = Callable[[list[dict[str, Any]]], list[CardzonesError | None]]


class _Waiting:
    """One row waiting for its commit: a thread's (``done``) or an event
    loop's (``future``)."""

    __slots__ = ("done", "error", "future", "lead", "row")

    def __init__(self, row: dict[str, Any], future: asyncio.Future[float] | None = None) -> None:
        self.row = row
        self.future = future
        self.done = threading.Event() if future is None else None
        self.lead = False
        self.error: BaseException | None = None


def _settle(outcomes: list[tuple[asyncio.Future[float], BaseException | None, float]]) -> None:
    """On the futures' loop: each future's outcome, or its share of the
    commit's CPU when it is stored."""
    for future, error, cpu in outcomes:
        if future.done():
            continue  # its caller gave up waiting; the outcome stands all the same
        if error is None:
            future.set_result(cpu)
        else:
            future.set_exception(error)


class GroupCommit:
    """Rows appended from many threads, written by ``write`` in as few
    transactions as the commits' own time allows (see the module)."""

    def __init__(self, write: Writer) -> None:
        self._write = write
        self._lock = threading.Lock()
        self._queue: list[_Waiting] = []
        self._leading = False
        #: wakes the writer thread to lead the rows of event loops
        self._kick: queue.SimpleQueue[bool] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        #: transactions committed, and rows in them (for the tests and the bench)
        self.commits = 0
        self.rows = 0

    def waiting(self) -> int:
        """How many rows wait for a commit to begin."""
        with self._lock:
            return len(self._queue)

    def append(self, row: dict[str, Any]) -> None:
        """Write ``row``; returns once it is committed, or raises what the
        writer said of it (or the error that failed its transaction)."""
        me = _Waiting(row)
        assert me.done is not None
        with self._lock:
            self._queue.append(me)
            lead = not self._leading
            if lead:
                self._leading = True
        if not lead:
            me.done.wait()
            lead = me.lead  # handed the lead: the rows after the last commit are ours
        if lead:
            if self._lead():
                self._wake_writer()
            me.done.wait()
        if me.error is not None:
            raise me.error

    def submit(self, row: dict[str, Any]) -> asyncio.Future[float]:
        """Write ``row`` from an event loop, without waiting on it: the
        future is set once the row is committed (to the CPU seconds its share
        of the commit took in the writer), or to what the writer said of it.
        The row is written whatever becomes of the future."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        with self._lock:
            self._queue.append(_Waiting(row, future))
            wake = not self._leading
            if wake:
                self._leading = True
        if wake:
            self._wake_writer()
        return future

    def close(self) -> None:
        """Stop the writer thread once the rows it was woken for are written."""
        writer, self._writer = self._writer, None
        if writer is not None:
            self._kick.put(False)
            writer.join(10)

    def _wake_writer(self) -> None:
        """Hand the lead to the writer thread (started at its first use)."""
        if self._writer is None:
            self._writer = threading.Thread(
                target=self._writing, name="cardzones-group-commit", daemon=True
            )
            self._writer.start()
        self._kick.put(True)

    def _writing(self) -> None:
        """The writer thread: lead every commit it is handed, and the next
        ones while their first row is an event loop's."""
        while self._kick.get():
            while self._lead():
                pass

    def _lead(self) -> bool:
        """Write the rows waiting in one transaction and tell each its
        outcome; hand the lead to the first row that came meanwhile. True
        when that row is an event loop's, whose lead the writer thread takes."""
        with self._lock:
            batch, self._queue = self._queue, []
        start, began = time.thread_time(), time.perf_counter()
        try:
            outcomes: list[Any] = list(self._write([w.row for w in batch]))
        except BaseException as exc:  # the transaction failed: no row of it is stored
            outcomes = [exc] * len(batch)
        cpu = (time.thread_time() - start) / max(1, len(batch))
        if pauses.current is not None:
            took = time.perf_counter() - began
            pauses.note("commit", time.time() - took, took * 1000, rows=len(batch))
        loops: dict[asyncio.AbstractEventLoop, list[Any]] = {}
        with self._lock:
            self.commits += 1
            self.rows += len(batch)
            for waiting, outcome in zip(batch, outcomes, strict=True):
                waiting.error = outcome
                if waiting.future is not None:
                    loop = waiting.future.get_loop()
                    loops.setdefault(loop, []).append((waiting.future, outcome, cpu))
                else:
                    assert waiting.done is not None
                    waiting.done.set()
            writer_leads = False
            if self._queue:
                nxt = self._queue[0]
                if nxt.done is not None:
                    nxt.lead = True
                    nxt.done.set()
                else:
                    writer_leads = True
            else:
                self._leading = False
        for loop, settled in loops.items():
            # A closed loop: nobody waits for these rows any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, settled)
        return writer_leads
