"""Checkpoints of a SQLite store's write-ahead log, off the act path.

In WAL mode a commit appends its pages to the log, and by default the
commit that takes the log past 1,000 pages then copies the log back into
the database file and syncs that file (a checkpoint) before it returns. On
the act path, that commit is a batch of acts whose players wait for their
acknowledgement: at hundreds of commits a second one of them every second or
two waited for a checkpoint, and the acts behind it for both. So the action
log's own connections do not checkpoint (``wal_autocheckpoint`` 0), and a
thread of its own (:class:`Checkpoints`) checkpoints the log on a
connection of its own every :data:`EVERY` seconds while acts are written.
Its checkpoints are ``PASSIVE``: they copy what no reader still needs and
wait for nobody, and a writer goes on appending meanwhile. The log is
started over by the first commit after a checkpoint that copied all of it;
a commit made while a checkpoint ran leaves it a few pages short, so a
checkpoint that did not copy the whole log is followed at once by another,
which has only those pages to copy (:data:`AGAIN` times at most). Should
the log still pass :data:`LONG` pages (commits without a pause for that
long), a ``RESTART`` checkpoint makes the next commits wait for it once,
so that the log never grows without bound. The engine's connections keep
SQLite's own checkpoints, which then rarely find the log long enough to
run.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time

from cardzones.table import pauses
from cardzones.table.sqlite_setup import sqlite_pragmas

#: Seconds between two checkpoints while acts are committed.
EVERY = 0.5
#: Checkpoints run at once after one that left part of the log uncopied.
AGAIN = 3
#: Pages of log past which a checkpoint waits for the writers (about 32 MB).
LONG = 8000


def without_checkpoints(conn: sqlite3.Connection) -> None:
    """Set a connection of the act path not to checkpoint at its commits."""
    conn.execute("PRAGMA wal_autocheckpoint=0")


class Checkpoints:
    """Checkpoints of one SQLite file's log in a thread of their own, every
    :data:`EVERY` seconds after a commit (see the module)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._written = threading.Event()
        self._stop = False
        self._thread: threading.Thread | None = None
        #: checkpoints run, those that copied the whole log, and the log's
        #: pages they copied (for the tests)
        self.runs = 0
        self.whole = 0
        self.pages = 0

    def committed(self) -> None:
        """A transaction was committed on the file: checkpoint it soon."""
        self._written.set()
        if self._thread is None:
            with self._lock:
                if self._thread is None and not self._stop:
                    self._thread = threading.Thread(
                        target=self._checkpointing, name="cardzones-checkpoints", daemon=True
                    )
                    self._thread.start()

    def run(self, conn: sqlite3.Connection, mode: str = "PASSIVE") -> tuple[int, int]:
        """One checkpoint on ``conn``: the pages in the log, and those
        copied into the database file."""
        began = time.perf_counter()
        _busy, log, copied = conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        took = time.perf_counter() - began
        self.runs += 1
        self.pages += max(0, copied)
        if copied == log:
            self.whole += 1
        pauses.note("checkpoint", time.time() - took, took * 1000, pages=copied, log=log, mode=mode)
        return log, copied

    def catch_up(self, conn: sqlite3.Connection) -> None:
        """Checkpoint the log until a checkpoint copies all of it (see the
        module)."""
        log, copied = self.run(conn)
        for _ in range(AGAIN):
            if copied == log:
                return
            log, copied = self.run(conn)
        if log > LONG:
            self.run(conn, "RESTART")

    def running(self) -> bool:
        """Whether the thread is running."""
        thread = self._thread
        return thread is not None and thread.is_alive()

    def close(self) -> None:
        """Stop the thread (after its checkpoint under way, if any)."""
        with self._lock:
            self._stop = True
            thread, self._thread = self._thread, None
        self._written.set()
        if thread is not None:
            thread.join(10)

    def _checkpointing(self) -> None:
        conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        conn.isolation_level = None
        sqlite_pragmas(conn, None)
        try:
            while True:
                self._written.wait()
                if self._stop:
                    return
                self._written.clear()
                # Busy or failed: the next one copies the log.
                with contextlib.suppress(sqlite3.Error):
                    self.catch_up(conn)
                time.sleep(EVERY)
        finally:
            conn.close()
