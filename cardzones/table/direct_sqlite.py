"""Appending acts to a SQLite file through the driver itself.

Every act is one transaction on the act path (in a group commit with the acts
of other tables), and through SQLAlchemy's engine each transaction cost about
twice the CPU of the same statements and commit through Python's ``sqlite3``
module: a connection taken from the pool and given back (with its rollback),
the events around it, and the statement's execution and result. So the
action log writes its transactions on a SQLite file through connections of
its own (:class:`DirectSqlite`), each opened as the engine opens its own (WAL,
full synchronous commits: an act is on disk before it is acknowledged), with
each statement compiled once by SQLAlchemy for SQLite and run with its
parameters in order. Reads, and every other write, still go through the
engine.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.engine.interfaces import Compiled
from sqlalchemy.sql.expression import ClauseElement

from cardzones.table.checkpoints import Checkpoints, without_checkpoints
from cardzones.table.sqlite_setup import sqlite_pragmas

#: Runs one statement with its parameters in the transaction: its rows.
Run = Callable[[Any, dict[str, Any]], list[Any]]

T = TypeVar("T")


class CompiledOnce(Generic[T]):
    """Each statement of the act path compiled once for a dialect, and what a
    driver needs of it (``derive``), by statement. A statement is kept with
    what was derived of it: its id alone could be a later statement's."""

    def __init__(self, dialect: Dialect, derive: Callable[[Compiled], T]) -> None:
        self._dialect = dialect
        self._derive = derive
        self._held: dict[int, tuple[ClauseElement, T]] = {}

    def __call__(self, statement: ClauseElement) -> T:
        held = self._held.get(id(statement))
        if held is None or held[0] is not statement:
            held = (statement, self._derive(statement.compile(dialect=self._dialect)))
            self._held[id(statement)] = held
        return held[1]


def _for_sqlite(compiled: Compiled) -> tuple[str, tuple[str, ...], dict[str, Any]]:
    # SQLite takes parameters by position (qmark), in this order.
    order = tuple(getattr(compiled, "positiontup", None) or ())
    return str(compiled), order, dict(compiled.params)


class DirectSqlite:
    """Transactions on one SQLite file through connections of their own:
    one per thread writing at once, kept for the next transaction."""

    def __init__(self, engine: Engine, path: str) -> None:
        self.engine = engine
        self.path = path
        self._lock = threading.Lock()
        self._free: list[sqlite3.Connection] = []
        #: each statement as SQLite text, its parameters' order and their
        #: values where the statement holds them (literals)
        self._compiled = CompiledOnce(engine.dialect, _for_sqlite)
        #: the log's checkpoints, which these connections leave to a thread
        #: of their own so that no act waits for one
        self.checkpoints = Checkpoints(path)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        # Transactions are begun here, not by the module.
        conn.isolation_level = None
        sqlite_pragmas(conn, None)
        without_checkpoints(conn)
        return conn

    @contextmanager
    def transaction(self) -> Iterator[Run]:
        """One transaction, committed (on disk) when the block ends, rolled
        back if it raises."""
        with self._lock:
            conn = self._free.pop() if self._free else None
        if conn is None:
            conn = self._connect()
        try:
            # IMMEDIATE: the write lock from the start, as SQLite's one writer.
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield lambda statement, params: self._run(conn, statement, params)
                conn.execute("COMMIT")
                self.checkpoints.committed()
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except BaseException:
            conn.close()  # it may be broken: the next transaction opens another
            raise
        with self._lock:
            self._free.append(conn)

    def _run(
        self, conn: sqlite3.Connection, statement: ClauseElement, params: dict[str, Any]
    ) -> Any:
        sql, order, literals = self._compiled(statement)
        values = [params[k] if k in params else literals[k] for k in order]
        return conn.execute(sql, values).fetchall()

    def close(self) -> None:
        """Close the connections kept, and stop the checkpoints."""
        self.checkpoints.close()
        with self._lock:
            free, self._free = self._free, []
        for conn in free:
            conn.close()
