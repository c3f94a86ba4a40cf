"""How every connection to a SQLite store is set up: the engine's
(:mod:`cardzones.table.database`), the action log's own
(:mod:`cardzones.table.direct_sqlite`) and its checkpoints'
(:mod:`cardzones.table.checkpoints`)."""

from __future__ import annotations

from typing import Any


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """How every connection to a SQLite store is set up, the engine's and
    the action log's own (:mod:`cardzones.table.direct_sqlite`)."""
    cursor = dbapi_connection.cursor()
    # WAL: readers never block the writer, and a commit is one append to the log.
    cursor.execute("PRAGMA journal_mode=WAL")
    # FULL: a commit is on disk before it returns, so an acknowledged action
    # survives a killed process and a power cut alike.
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
