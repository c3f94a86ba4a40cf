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

>>> written = []
>>> group = GroupCommit(lambda rows: [written.append(len(rows))] and [None] * len(rows))
>>> group.append({"number": 1})
>>> written
[1]
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from cardzones.errors import CardzonesError

#: Writes rows in one transaction and commits it: for each row, None when it
#: is stored, or the error that says why not (the others are stored).
Writer = Callable[[list[dict[str, Any]]], list[CardzonesError | None]]


class _Waiting:
    """One row waiting for its commit."""

    __slots__ = ("done", "error", "lead", "row")

    def __init__(self, row: dict[str, Any]) -> None:
        self.row = row
        self.done = threading.Event()
        self.lead = False
        self.error: BaseException | None = None


class GroupCommit:
    """Rows appended from many threads, written by ``write`` in as few
    transactions as the commits' own time allows (see the module)."""

    def __init__(self, write: Writer) -> None:
        self._write = write
        self._lock = threading.Lock()
        self._queue: list[_Waiting] = []
        self._leading = False
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
        with self._lock:
            self._queue.append(me)
            lead = not self._leading
            if lead:
                self._leading = True
        if not lead:
            me.done.wait()
            lead = me.lead  # handed the lead: the rows after the last commit are ours
        if lead:
            self._lead()
            me.done.wait()
        if me.error is not None:
            raise me.error

    def _lead(self) -> None:
        with self._lock:
            batch, self._queue = self._queue, []
        try:
            outcomes: list[Any] = list(self._write([w.row for w in batch]))
        except BaseException as exc:  # the transaction failed: no row of it is stored
            outcomes = [exc] * len(batch)
        with self._lock:
            self.commits += 1
            self.rows += len(batch)
            for waiting, outcome in zip(batch, outcomes, strict=True):
                waiting.error = outcome
                waiting.done.set()
            if self._queue:
                nxt = self._queue[0]
                nxt.lead = True
                nxt.done.set()
            else:
                self._leading = False
