"""The event store: SQLite by default, Postgres by URL.

The store keeps the inputs of each game, not its states: the creation record
(rule set, players, seed, start position), the digests of its seat tokens, and
its actions, numbered from 1, each with its seat, its time and the stored act
(:mod:`cardzones.table.acts`). A snapshot of the table every few actions makes
a restart cheap; replaying the actions from the creation record or from a
snapshot rebuilds the game exactly.

The store is in parts, each in a module of its own, and :class:`Store` holds
them all: the database and its engine (:mod:`cardzones.table.database`;
SQLite with full synchronous commits, so that an acknowledged action survives
a killed process), the numbered actions, appended by group commit
(:mod:`cardzones.table.action_log`; a writer that lost the race for a number
gets :class:`~cardzones.table.action_log.Conflict` and nothing is written
twice), the votes to finish (:mod:`cardzones.table.finish_votes`), the
requests to take back acts (:mod:`cardzones.table.take_back_votes`), the chat
(:mod:`cardzones.table.chat_lines`) and the rates that hold across processes
(:mod:`cardzones.table.rate_windows`). With Postgres, each commit also sends
``NOTIFY cardzones`` (``ORIGIN TABLE:NUMBER`` for an action, ``ORIGIN``
the appending store's own mark), which
:meth:`Store.notifications` yields to every server process that listens.

Schema changes are Alembic migrations (``migrations/versions``), run by
:meth:`Store.migrate` when a server starts.

>>> store = Store("sqlite://")
>>> store.migrate()
>>> from cardzones.table.record import Record
>>> store.create_table("t1", Record("fab", ("alice", "bob"), 7, {}, {}), {"alice": "d1"}, "d0")
>>> store.append("t1", 1, "alice", {"end_turn": {}})
>>> store.append("t1", 1, "alice", {"end_turn": {}})
Traceback (most recent call last):
...
cardzones.table.action_log.Conflict: table t1 already has an action 1
>>> [a.number for a in store.actions("t1")]
[1]
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError, OperationalError

from cardzones.table import json_text
from cardzones.table.action_log import ActionLog
from cardzones.table.chat_lines import ChatLines
from cardzones.table.database import CHANNEL, StoreError
from cardzones.table.finish_votes import FinishVotes
from cardzones.table.rate_windows import RateWindows
from cardzones.table.record import Record
from cardzones.table.schema import seats, snapshots, tables
from cardzones.table.take_back_votes import TakeBackVotes
from cardzones.table.tokens import matches

SEAT, SPECTATOR = "seat", "spectator"
#: A digest no token has, compared against when a table does not exist, so that
#: a missing table costs the same as a wrong token.
_NO_DIGEST = "0" * 64


@dataclass(frozen=True)
class TokenSeat:
    """Who a token is: a player's seat, or the spectator (``player`` None)."""

    player: str | None


class Store(ActionLog, FinishVotes, ChatLines, TakeBackVotes, RateWindows):
    """The event store of every table, on one database: its actions
    (:class:`~cardzones.table.action_log.ActionLog`), its votes to finish
    (:class:`~cardzones.table.finish_votes.FinishVotes`) and its chat
    (:class:`~cardzones.table.chat_lines.ChatLines`), its requests to take
    back acts (:class:`~cardzones.table.take_back_votes.TakeBackVotes`), the
    rates counted across processes
    (:class:`~cardzones.table.rate_windows.RateWindows`), and here the schema,
    the tables and their seats, the snapshots and the notifications."""

    # -- schema ----------------------------------------------------------------

    def migrate(self) -> None:
        """Bring the schema to the newest version. Several processes may call
        it at once: on Postgres they take turns under an advisory lock."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
        try:
            with self.engine.begin() as conn:
                if self.postgres:
                    conn.execute(sa.select(sa.func.pg_advisory_xact_lock(0x6361_7264_7A6F)))
                config.attributes["connection"] = conn
                command.upgrade(config, "head")
        except OperationalError as exc:
            raise StoreError(f"cannot use the database {self.describe()}: {exc.orig}") from None

    # -- tables and seats ----------------------------------------------------------

    def create_table(
        self,
        table_id: str,
        creation: Record,
        seat_digests: dict[str, str],
        spectator_digest: str,
    ) -> None:
        """Store a new table with the digests of its tokens, all or nothing."""
        rows: list[dict[str, str | None]] = [
            {"table_id": table_id, "role": SEAT, "player": p, "token_digest": d}
            for p, d in seat_digests.items()
        ]
        rows.append(
            {
                "table_id": table_id,
                "role": SPECTATOR,
                "player": None,
                "token_digest": spectator_digest,
            }
        )
        with self.engine.begin() as conn:
            conn.execute(
                tables.insert().values(
                    id=table_id,
                    created=time.time(),
                    ruleset=creation.ruleset,
                    creation=json.dumps(creation.to_json()),
                )
            )
            conn.execute(seats.insert(), rows)

    def creation(self, table_id: str) -> Record | None:
        found = self.read(_CREATION, {"table_id": table_id})
        return None if not found else Record.from_json(json.loads(found[0][0]))

    def table_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return list(conn.execute(sa.select(tables.c.id).order_by(tables.c.created)).scalars())

    def seat(self, table_id: str, token: str) -> TokenSeat | None:
        """Who ``token`` is at ``table_id``, or None, the same way whether the
        token is wrong or the table does not exist. Every digest of the table
        is compared in constant time."""
        rows = self.read(_SEATS, {"table_id": table_id})
        found: TokenSeat | None = None
        candidates: list[tuple[str, str | None, str]] = [tuple(r) for r in rows]
        for role, player, digest in candidates or [(SPECTATOR, None, _NO_DIGEST)]:
            if matches(token, digest) and digest != _NO_DIGEST:
                found = TokenSeat(player if role == SEAT else None)
        return found

    # -- snapshots ---------------------------------------------------------------------

    def save_snapshot(self, table_id: str, number: int, state: dict[str, Any]) -> None:
        """Keep the table's state after action ``number``; a second one of the
        same number is ignored."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    snapshots.insert().values(
                        table_id=table_id, number=number, state=json_text.dumps(state)
                    )
                )
        except IntegrityError:
            pass

    def snapshot(self, table_id: str, upto: int | None = None) -> dict[str, Any] | None:
        """The newest snapshot of the table (at or before ``upto``)."""
        query = _SNAPSHOT if upto is None else _SNAPSHOT_UPTO
        found = self.read(query, {"table_id": table_id, "upto": upto})
        return None if not found else dict(json.loads(found[0][0]))

    # -- notifications -----------------------------------------------------------------

    async def notifications(self) -> AsyncIterator[tuple[str, int | str | None]]:
        """With Postgres, every ``(table, number)`` committed by any other
        process (or another store in this one), as it is committed, ``(table,
        None)`` when a table is finished, ``(table, "chat")`` when a chat line
        is stored, ``(table, "finish")`` when a seat votes to finish it, and
        ``(table, "take_back")`` when its request to take back acts changes.
        Ends when the connection is lost."""
        import psycopg

        libpq = self.url.set(drivername="postgresql").render_as_string(hide_password=False)
        # This process's own acts come back too: they are known here already,
        # and skipped by their head before anything else is made of them.
        own = f"{self.origin} "
        async with await psycopg.AsyncConnection.connect(libpq, autocommit=True) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            async for note in conn.notifies():
                payload = note.payload
                if payload.startswith(own):
                    continue
                table_id, _, number = payload.rpartition(":")
                # An act's notification has its writer's origin at its head.
                table_id = table_id.rpartition(" ")[2]
                if number.isdigit():
                    yield table_id, int(number)
                elif number == "finished":
                    yield table_id, None
                elif number in ("chat", "finish", "take_back"):
                    yield table_id, number


# The reads of a table's load and join, built once with their parameters.
_CREATION = sa.select(tables.c.creation).where(tables.c.id == sa.bindparam("table_id"))
_SEATS = sa.select(seats.c.role, seats.c.player, seats.c.token_digest).where(
    seats.c.table_id == sa.bindparam("table_id")
)
_SNAPSHOT = (
    sa.select(snapshots.c.state)
    .where(snapshots.c.table_id == sa.bindparam("table_id"))
    .order_by(snapshots.c.number.desc())
    .limit(1)
)
_SNAPSHOT_UPTO = _SNAPSHOT.where(snapshots.c.number <= sa.bindparam("upto"))
