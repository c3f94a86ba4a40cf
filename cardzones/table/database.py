"""The database of the event store (:mod:`cardzones.table.store`): a SQLite
file by default, or Postgres by URL, and the engine that reaches it.

SQLite runs in WAL mode with full synchronous commits, so an acknowledged
action survives a killed process (and a power cut), and a half-written one is
never seen.

>>> database_url("tables.sqlite3").render_as_string()
'sqlite:///tables.sqlite3'
>>> database_url("postgresql://me:secret@db/cz").render_as_string(hide_password=True)
'postgresql+psycopg://me:***@db/cz'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.pool import StaticPool

from cardzones.errors import CardzonesError
from cardzones.table.direct_postgres import DirectPostgres
from cardzones.table.sqlite_setup import sqlite_pragmas

#: The database a server uses when given none: a SQLite file in the current folder.
DEFAULT_DB = "cardzones-tables.sqlite3"
#: The channel of Postgres notifications.
CHANNEL = "cardzones"


class StoreError(CardzonesError):
    """The database cannot be used: a bad URL, or it cannot be reached."""


def database_url(text: str) -> URL:
    """The SQLAlchemy URL of a ``--db`` value: a ``postgresql://`` URL (driven by
    psycopg 3), a ``sqlite:///`` URL, or the path of a SQLite file."""
    if "://" not in text:
        return URL.create("sqlite", database=str(Path(text)))
    try:
        url = make_url(text)
    except ArgumentError:
        raise StoreError(f"not a database URL: {safe_text(text)}") from None
    if url.drivername in ("postgresql", "postgres", "postgresql+psycopg"):
        return url.set(drivername="postgresql+psycopg")
    if url.drivername == "sqlite":
        return url
    raise StoreError(
        f"unsupported database {url.drivername!r}: use postgresql://... or a SQLite file"
    )


def safe_text(text: str) -> str:
    """A database URL with its password hidden, for messages."""
    try:
        return make_url(text).render_as_string(hide_password=True)
    except ArgumentError:
        return "<database URL>"


def last_number(number: sa.Column[int], table_id: str | sa.BindParameter[str]) -> sa.Select[int]:
    """The query for the last number a table has in ``number``, a column of a
    table of rows numbered per table (its actions, its chat lines): 0 when it
    has none (``table_id`` a parameter: a query built once)."""
    rows = number.table
    return sa.select(sa.func.coalesce(sa.func.max(number), 0)).where(rows.c.table_id == table_id)


#: Postgres: the connections of the store's short statements (one per
#: worker thread running one at once; more wait for one).
SHORT_CONNECTIONS = 4


class Database:
    """A connection to the store's database: what each part of the store
    (its actions, its votes to finish, its chat) writes and reads through.

    On Postgres the reads of a table's load, join and catch-up, and the
    draws of the shared limits, are each one statement in autocommit mode on
    connections of the store's own (:attr:`direct_short`): one round trip,
    where the engine takes four for a read (its ping of the connection,
    ``BEGIN``, the ``SELECT`` and ``ROLLBACK``). Each read was its own
    transaction through the engine too, so it sees what it saw before."""

    def __init__(self, url: str | URL = DEFAULT_DB) -> None:
        self.url = url if isinstance(url, URL) else database_url(url)
        self.engine = _engine(self.url)
        #: Postgres: short statements on connections of their own (None:
        #: through the engine)
        self.direct_short: DirectPostgres | None = None
        if self.postgres:
            self.direct_short = DirectPostgres(
                self.engine, self.url, SHORT_CONNECTIONS, flushed=False
            )

    def read(self, statement: sa.Executable, params: dict[str, Any] | None = None) -> list[Any]:
        """The rows of a read, built once with its parameters (a statement
        is compiled once for the store's own connections, and kept)."""
        if self.direct_short is not None:
            with self.direct_short.statements() as run:
                return list(run(statement, params or {}))
        with self.engine.connect() as conn:
            return list(conn.execute(statement, params or {}).all())

    @property
    def postgres(self) -> bool:
        return self.url.get_backend_name() == "postgresql"

    def describe(self) -> str:
        return self.url.render_as_string(hide_password=True)

    def close(self) -> None:
        if self.direct_short is not None:
            self.direct_short.close()
        self.engine.dispose()


def _engine(url: URL) -> Engine:
    if url.get_backend_name() == "sqlite":
        memory = url.database in (None, "", ":memory:")
        if not memory and url.database is not None:
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        options: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
        if memory:
            options["poolclass"] = StaticPool  # one connection: the memory is the database
        engine = sa.create_engine(url, **options)
        sa.event.listen(engine, "connect", sqlite_pragmas)
        return engine
    return sa.create_engine(url, pool_pre_ping=True)
