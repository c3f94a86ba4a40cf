"""Appending acts to Postgres through the driver itself, one round trip a
batch.

Through SQLAlchemy's engine a batch of acts cost four round trips to the
Postgres backend, each a wait for another process to be scheduled and a
pair of system calls on either side: the pool's ping of the connection it
hands out, ``BEGIN``, the statement, and ``COMMIT``. The statement that
appends a batch (:data:`~cardzones.table.action_log._INSERT_ALL`) is one
statement, inserting the rows and sending their notifications; run on a
connection in autocommit mode it is a transaction of its own, committed
before its answer comes back (``synchronous_commit`` stays on: the answer
waits for the commit's flush), so one round trip stores and announces the
whole batch with the same guarantees. :class:`DirectPostgres` keeps such
connections (psycopg 3, autocommit, statements prepared on the server at
their first use) and runs each statement compiled once by SQLAlchemy for
the engine's dialect. A connection that fails is closed, and the next
statement opens a new one; a kept connection is looked at before it is
used, in place of the pool's ping (a round trip): an idle connection in
autocommit mode is sent nothing, so one whose socket has something to read
was closed by the server (a restart, a terminated backend), and is
replaced before a statement is lost on it. A change that reads before it
writes (the shared limits' holds and counts) runs its statements in one
transaction on such a connection (:meth:`DirectPostgres.transaction`).
"""

from __future__ import annotations

import select
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.conninfo import make_conninfo
from sqlalchemy.engine import URL, Engine
from sqlalchemy.engine.interfaces import Compiled

from cardzones.table.direct_sqlite import CompiledOnce, Run


class DirectPostgres:
    """Statements in autocommit mode on connections of their own: one per
    thread writing at once (at most ``connections``; a thread that finds
    them all in use waits for one), kept for the next statement."""

    def __init__(self, engine: Engine, url: URL, connections: int, *, flushed: bool = True) -> None:
        self.engine = engine
        #: whether a commit's answer waits for its flush to disk
        #: (``synchronous_commit``): False only for writes a crash of the
        #: database may lose the last moment of (see :class:`Database`)
        self.flushed = flushed
        #: the libpq form of the URL (psycopg's own, without SQLAlchemy's driver name)
        self._conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        if not flushed:
            self._conninfo = make_conninfo(self._conninfo, options="-c synchronous_commit=off")
        self._lock = threading.Lock()
        self._turns = threading.BoundedSemaphore(connections)
        #: the idle connections, for the next statements
        self.kept: list[psycopg.Connection[Any]] = []
        #: each statement as the driver's text and its literal parameters
        self._compiled = CompiledOnce(engine.dialect, _for_psycopg)

    def _connect(self) -> psycopg.Connection[Any]:
        # prepare_threshold=0: the act path's few statements are prepared at
        # their first use, so the backend plans each once per connection.
        return psycopg.connect(self._conninfo, autocommit=True, prepare_threshold=0)

    @contextmanager
    def statements(self) -> Iterator[Run]:
        """Statements each committed on its own as it runs (autocommit): for
        a batch of acts, the one statement that holds them all."""
        with self._connection() as conn:
            yield lambda statement, params: self.run(conn, statement, params)

    @contextmanager
    def transaction(self) -> Iterator[Run]:
        """Statements in one transaction (``BEGIN`` before the first,
        ``COMMIT`` after the block; ``ROLLBACK`` if it raised): for a change
        that reads a row under its lock before it writes it."""
        with self._connection() as conn, conn.transaction():
            yield lambda statement, params: self.run(conn, statement, params)

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A kept connection, or a new one; kept again after the block
        unless the block raised."""
        with self._turns:
            with self._lock:
                conn = self.kept.pop() if self.kept else None
            if conn is not None and not _usable(conn):
                conn.close()
                conn = None
            if conn is None:
                conn = self._connect()
            try:
                yield conn
            except BaseException:
                conn.close()  # it may be broken: the next statement opens another
                raise
            with self._lock:
                self.kept.append(conn)

    def run(self, conn: psycopg.Connection[Any], statement: Any, params: dict[str, Any]) -> Any:
        """Run ``statement`` (compiled at its first use) on ``conn``: its rows."""
        sql, literals = self._compiled(statement)
        with conn.cursor() as cursor:
            cursor.execute(sql, {**literals, **params})
            # A statement without rows (a DELETE) answers none.
            return cursor.fetchall() if cursor.description is not None else []

    def close(self) -> None:
        """Close the connections kept."""
        with self._lock:
            free, self.kept = self.kept, []
        for conn in free:
            conn.close()


def _for_psycopg(compiled: Compiled) -> tuple[str, dict[str, Any]]:
    return str(compiled), dict(compiled.params)


def _usable(conn: psycopg.Connection[Any]) -> bool:
    """Whether a kept, idle connection can take a statement: not closed or
    broken, and nothing waiting on its socket (the server's goodbye, or
    the end of the stream), found with one system call and no round trip.

    ``poll``, not ``select``: a server with a thousand sockets open has
    descriptors past ``select``'s limit (1,024), which it refuses, and every
    kept connection then looked unusable and was replaced at each statement
    (a connection made, its statements prepared again)."""
    if conn.closed or conn.broken:
        return False
    try:
        poller = select.poll()
        poller.register(conn.pgconn.socket, select.POLLIN | select.POLLPRI)
        readable = poller.poll(0)
    except (OSError, ValueError, psycopg.Error):
        return False
    return not readable
