"""The actions of the event store (:mod:`cardzones.table.store`): each table's
numbered actions, appended together with those of other tables (group
commit, :mod:`cardzones.table.group`), and read back in order.

``(table, number)`` is the primary key of the actions, and an act is appended
with the number after the last one its writer has seen. A writer that lost the
race to another gets :class:`Conflict`, reloads the actions it has not seen,
and tries again: nothing is written twice and no number is skipped. With
Postgres, a commit also sends ``NOTIFY cardzones`` with ``TABLE:NUMBER``.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import URL

from cardzones.errors import CardzonesError
from cardzones.table.database import CHANNEL, DEFAULT_DB, Database, last_number
from cardzones.table.direct_postgres import DirectPostgres
from cardzones.table.direct_sqlite import DirectSqlite, Run
from cardzones.table.finish import CONCEDE
from cardzones.table.group import GroupCommit
from cardzones.table.schema import actions, finish_votes, tables


class Conflict(CardzonesError):
    """Another writer stored an action with this number first."""


class GameOver(CardzonesError):
    """The table is finished: it takes no more actions."""


@dataclass(frozen=True)
class StoredAction:
    """One numbered action of a table."""

    number: int
    seat: str
    at: float
    act: dict[str, Any]


#: The columns of an action row, in order.
_ROW = ("table_id", "number", "seat", "at", "act")


class ActionLog(Database):
    """The numbered actions of every table."""

    def __init__(self, url: str | URL = DEFAULT_DB) -> None:
        super().__init__(url)
        self.group = GroupCommit(self.write_together)
        #: a SQLite file's transactions of actions, through the driver itself
        #: (None: Postgres, or SQLite in memory, through the engine)
        self.direct: DirectSqlite | None = None
        #: Postgres: the appends of acts on connections of their own (one
        #: writer leads a group commit at a time), each batch one statement
        #: and one round trip
        self.direct_pg: DirectPostgres | None = None
        if self.postgres:
            self.direct_pg = DirectPostgres(self.engine, self.url, connections=2)
        #: this store's mark at the head of the notifications of the acts it
        #: appends (``ORIGIN TABLE:NUMBER``), by which it knows its own
        #: among those it hears (:meth:`~cardzones.table.store.Store.notifications`)
        self.origin = secrets.token_hex(6)
        database = self.url.database
        # A plain file only: a URL with options (a shared memory database,
        # a URI filename) keeps the engine's own way of opening it.
        if not self.postgres and database not in (None, "", ":memory:") and not self.url.query:
            self.direct = DirectSqlite(self.engine, str(database))

    def close(self) -> None:
        self.group.close()
        if self.direct is not None:
            self.direct.close()
        if self.direct_pg is not None:
            self.direct_pg.close()
        super().close()

    @contextmanager
    def _writing(self) -> Iterator[Run]:
        """The act path's statements: on a SQLite file, one transaction on
        the action log's own connection; on Postgres, each statement its own
        transaction (autocommit) on its own connection, so that a batch,
        one statement, is one round trip; else through the engine."""
        if self.direct is not None:
            with self.direct.transaction() as run:
                yield run
            return
        if self.direct_pg is not None:
            with self.direct_pg.statements() as run:
                yield run
            return
        with self.engine.begin() as conn:
            yield lambda statement, params: list(conn.execute(statement, params).all())

    def append(
        self,
        table_id: str,
        number: int,
        seat: str,
        act: dict[str, Any],
        now: float | None = None,
    ) -> None:
        """Store action ``number`` of the table and commit it (with Postgres, and
        notify the other processes in the same transaction). Raises
        :class:`Conflict` if that number is taken, :class:`GameOver` if the table
        is finished, its proposal to finish is past its time limit at ``now``,
        or ``seat`` conceded; nothing is written then.

        It returns once the action is committed, so an act acknowledged after
        it is durable. Actions appended at the same time by other threads (the
        acts of other tables) are committed in the same transaction: the
        first caller writes every action waiting, commits once, and tells
        each caller how its own action fared (group commit); while that
        commit runs, the next actions wait for it and go together in the next
        one. So one commit (one fsync) serves as many tables as act at once."""
        self.group.append(_row(table_id, number, seat, act, now))

    def append_soon(
        self,
        table_id: str,
        number: int,
        seat: str,
        act: dict[str, Any],
        now: float | None = None,
    ) -> asyncio.Future[float]:
        """:meth:`append` from an event loop: the action goes in the next
        group commit, written by the group's writer thread, and the future is
        set once it is committed (to the CPU seconds its share of the commit
        took), or to :class:`Conflict` or :class:`GameOver` as :meth:`append`
        would raise them. The loop's thread never waits for the disk."""
        return self.group.submit(_row(table_id, number, seat, act, now))

    def write_together(self, rows: list[dict[str, Any]]) -> list[CardzonesError | None]:
        """Write ``rows`` in one transaction and commit it: for each, None
        when it is stored, or why it is not (:class:`Conflict`,
        :class:`GameOver`), which leaves the others stored. Each row is
        appended only while its table is being played, in the same statement,
        so that no act lands after the end another process recorded, after
        the time limit of a proposal to finish, or from a seat that conceded;
        a number taken is skipped, not an error that would end the
        transaction of every row in it. On Postgres the rows and their
        notifications go in one statement, committed on its own, so that a
        batch costs one round trip and a commit whatever its size (a row
        refused is then asked why in a read of its own).

        The statements are built once, with parameters (see
        :data:`_INSERT_ONE`, :data:`_INSERT_ALL`): an act costs their
        execution, not their construction."""
        # Two writers of one table (two processes, or two copies of a table)
        # may give the same number in one batch: the first of them is tried,
        # and the others find it taken.
        firsts: dict[tuple[str, int], int] = {}
        for i, row in enumerate(rows):
            firsts.setdefault((row["table_id"], row["number"]), i)
        tried = [rows[i] for i in sorted(firsts.values())]
        with self._writing() as run:
            if self.postgres:
                stored = self._insert_all(run, tried)
            else:
                stored = {key for row in tried if (key := self._insert_one(run, row))}
            outcomes: list[CardzonesError | None] = []
            for i, row in enumerate(rows):
                table_id, number = row["table_id"], row["number"]
                if (table_id, number) in stored and firsts[(table_id, number)] == i:
                    outcomes.append(None)
                elif run(_STOPPED, _stop_params(row))[0][0]:
                    outcomes.append(GameOver(f"table {table_id} is finished"))
                else:
                    outcomes.append(Conflict(f"table {table_id} already has an action {number}"))
        return outcomes

    @staticmethod
    def _insert_one(run: Run, row: dict[str, Any]) -> tuple[str, int] | None:
        """SQLite: one row, its key when it is stored."""
        # RETURNING, not rowcount: a driver may report no rowcount for an
        # INSERT ... SELECT that inserted nothing.
        found = run(_INSERT_ONE, row)
        return None if not found else (str(found[0][0]), int(found[0][1]))

    def _insert_all(self, run: Run, rows: list[dict[str, Any]]) -> set[tuple[str, int]]:
        """Postgres: every row in one statement that also sends one
        notification each for the other processes; the keys of those stored."""
        columns: dict[str, Any] = {f"{k}s": [row[k] for row in rows] for k in _ROW}
        columns["origin"] = self.origin
        return {(str(t), int(n)) for t, n, _ in run(_INSERT_ALL, columns)}

    def actions(self, table_id: str, after: int = 0, upto: int | None = None) -> list[StoredAction]:
        """The actions numbered after ``after`` (up to ``upto``), in order."""
        query = _ACTIONS if upto is None else _ACTIONS_UPTO
        params = {"table_id": table_id, "after": after, "upto": upto}
        rows = self.read(query, params)
        return [StoredAction(n, s, at, json.loads(a)) for n, s, at, a in rows]

    def head(self, table_id: str) -> int:
        """The number of the table's last action (0: none yet)."""
        return int(self.read(_HEAD, {"table_id": table_id})[0][0])


def _row(
    table_id: str, number: int, seat: str, act: dict[str, Any], now: float | None
) -> dict[str, Any]:
    """An action's row as :meth:`ActionLog.write_together` writes it."""
    return {
        "table_id": table_id,
        "number": number,
        "seat": seat,
        "at": time.time() if now is None else now,
        "act": json.dumps(act, separators=(",", ":")),
    }


def _stopped(table_id: Any, seat: Any, at: Any) -> Any:
    """Whether the row's table takes no act from its seat at its time: the
    table is finished, its proposal to finish is past its time limit, or the
    seat conceded (the values are parameters of one row, or the columns of
    many rows at once)."""
    over = sa.or_(tables.c.finished_at.is_not(None), tables.c.finish_until <= at)
    return sa.or_(
        sa.exists().where(tables.c.id == table_id, over),
        sa.exists().where(
            finish_votes.c.table_id == table_id,
            finish_votes.c.player == seat,
            finish_votes.c.vote == CONCEDE,
        ),
    )


def _stop_params(row: dict[str, Any]) -> dict[str, Any]:
    return {"s_table_id": row["table_id"], "s_seat": row["seat"], "s_at": row["at"]}


# The statements of the act path, built once: SQLAlchemy compiles each once
# per dialect and keeps it, and executing one costs only its parameters.

#: Whether a table takes no act from a seat at a time (:func:`_stopped`).
_STOPPED = sa.select(
    _stopped(sa.bindparam("s_table_id"), sa.bindparam("s_seat"), sa.bindparam("s_at"))
)

#: SQLite: one row, inserted while its table is played, its key returned.
_INSERT_ONE = (
    sqlite_insert(actions)
    .from_select(
        list(_ROW),
        sa.select(*(sa.bindparam(k, type_=actions.c[k].type).label(k) for k in _ROW)).where(
            ~_stopped(sa.bindparam("table_id"), sa.bindparam("seat"), sa.bindparam("at"))
        ),
    )
    .on_conflict_do_nothing()
    .returning(actions.c.table_id, actions.c.number)
)

#: Postgres: the rows given as one array per column, those whose table is
#: played inserted, and a notification ``ORIGIN TABLE:NUMBER`` sent for each
#: stored (``ORIGIN``: the appending store's :attr:`ActionLog.origin`).
_INSERT_ALL = sa.text(
    f"""
    WITH given AS (
        SELECT * FROM unnest(
            CAST(:table_ids AS varchar[]), CAST(:numbers AS integer[]),
            CAST(:seats AS varchar[]), CAST(:ats AS double precision[]),
            CAST(:acts AS text[])
        ) AS g(table_id, number, seat, at, act)
    ), stored AS (
        INSERT INTO actions (table_id, number, seat, at, act)
        SELECT g.table_id, g.number, g.seat, g.at, g.act FROM given AS g
        WHERE NOT (
            EXISTS (
                SELECT 1 FROM tables AS t WHERE t.id = g.table_id
                AND (t.finished_at IS NOT NULL OR t.finish_until <= g.at)
            )
            OR EXISTS (
                SELECT 1 FROM finish_votes AS v WHERE v.table_id = g.table_id
                AND v.player = g.seat AND v.vote = '{CONCEDE}'
            )
        )
        ON CONFLICT DO NOTHING
        RETURNING table_id, number
    )
    SELECT table_id, number,
           pg_notify('{CHANNEL}', CAST(:origin AS text) || ' ' || table_id || ':' || number)
    FROM stored
    """
)

#: The actions of a table after a number, in order (and up to one).
_ACTIONS = (
    sa.select(actions.c.number, actions.c.seat, actions.c.at, actions.c.act)
    .where(actions.c.table_id == sa.bindparam("table_id"), actions.c.number > sa.bindparam("after"))
    .order_by(actions.c.number)
)
_ACTIONS_UPTO = _ACTIONS.where(actions.c.number <= sa.bindparam("upto"))
_HEAD = last_number(actions.c.number, sa.bindparam("table_id", type_=sa.String))
