"""The event store: SQLite by default, Postgres by URL.

The store keeps the inputs of each game, not its states: the creation record
(rule set, players, seed, start position), the digests of its seat tokens, and
its actions, numbered from 1, each with its seat, its time and the stored act
(:mod:`cardzones.table.acts`). A snapshot of the table every few actions makes
a restart cheap; replaying the actions from the creation record or from a
snapshot rebuilds the game exactly.

``(table, number)`` is the primary key of the actions, and an act is appended
with the number after the last one its writer has seen. A writer that lost the
race to another gets :class:`Conflict`, reloads the actions it has not seen,
and tries again: nothing is written twice and no number is skipped.

SQLite runs in WAL mode with full synchronous commits, so an acknowledged
action survives a killed process (and a power cut), and a half-written one is
never seen. With Postgres, a commit also sends ``NOTIFY cardzones`` with
``TABLE:NUMBER``, which :meth:`Store.notifications` yields to every server
process that listens.

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
cardzones.table.store.Conflict: table t1 already has an action 1
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
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError
from sqlalchemy.pool import StaticPool

from cardzones.errors import CardzonesError
from cardzones.table.chat import MAX_LINES, ChatLine, ChatRefused
from cardzones.table.finish import AGREE, CONCEDE, DECLINE, FinishRefused, Votes
from cardzones.table.group import GroupCommit
from cardzones.table.record import Record
from cardzones.table.schema import actions, chat, finish_votes, seats, snapshots, tables
from cardzones.table.tokens import matches

#: The database a server uses when given none: a SQLite file in the current folder.
DEFAULT_DB = "cardzones-tables.sqlite3"
#: The channel of Postgres notifications.
CHANNEL = "cardzones"
SEAT, SPECTATOR = "seat", "spectator"
#: A digest no token has, compared against when a table does not exist, so that
#: a missing table costs the same as a wrong token.
_NO_DIGEST = "0" * 64


class StoreError(CardzonesError):
    """The database cannot be used: a bad URL, or it cannot be reached."""


class Conflict(CardzonesError):
    """Another writer stored an action with this number first."""


class GameOver(CardzonesError):
    """The table is finished: it takes no more actions."""


@dataclass(frozen=True)
class Seat:
    """Who a token is: a player's seat, or the spectator (``player`` None)."""

    player: str | None


@dataclass(frozen=True)
class Finished:
    """A table's end: the seat that proposed it, after which event, when, and
    the seats that agreed and conceded (a seat in neither list let the time
    limit pass: :mod:`cardzones.table.finish`)."""

    by: str
    number: int
    at: float
    agreed: tuple[str, ...] = ()
    conceded: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "number": self.number,
            "at": self.at,
            "agreed": list(self.agreed),
            "conceded": list(self.conceded),
        }


@dataclass(frozen=True)
class StoredAction:
    """One numbered action of a table."""

    number: int
    seat: str
    at: float
    act: dict[str, Any]


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


#: The columns of an action row, in order.
_ROW = ("table_id", "number", "seat", "at", "act")


class Store:
    """The event store of every table, on one database."""

    def __init__(self, url: str | URL = DEFAULT_DB) -> None:
        self.url = url if isinstance(url, URL) else database_url(url)
        self.engine = _engine(self.url)
        self.group = GroupCommit(self.write_together)

    @property
    def postgres(self) -> bool:
        return self.url.get_backend_name() == "postgresql"

    def describe(self) -> str:
        return self.url.render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

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
        with self.engine.connect() as conn:
            text = conn.execute(
                sa.select(tables.c.creation).where(tables.c.id == table_id)
            ).scalar_one_or_none()
        return None if text is None else Record.from_json(json.loads(text))

    def table_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return list(conn.execute(sa.select(tables.c.id).order_by(tables.c.created)).scalars())

    def seat(self, table_id: str, token: str) -> Seat | None:
        """Who ``token`` is at ``table_id``, or None, the same way whether the
        token is wrong or the table does not exist. Every digest of the table
        is compared in constant time."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(seats.c.role, seats.c.player, seats.c.token_digest).where(
                    seats.c.table_id == table_id
                )
            ).all()
        found: Seat | None = None
        candidates: list[tuple[str, str | None, str]] = [tuple(r) for r in rows]
        for role, player, digest in candidates or [(SPECTATOR, None, _NO_DIGEST)]:
            if matches(token, digest) and digest != _NO_DIGEST:
                found = Seat(player if role == SEAT else None)
        return found

    # -- finishing (cardzones.table.finish) ----------------------------------------

    def votes(self, table_id: str) -> Votes:
        """The standing votes to finish the table."""
        with self.engine.connect() as conn:
            return self._votes(conn, table_id)

    @staticmethod
    def _votes(conn: sa.Connection, table_id: str) -> Votes:
        until = conn.execute(
            sa.select(tables.c.finish_until).where(tables.c.id == table_id)
        ).scalar_one_or_none()
        rows = conn.execute(
            sa.select(finish_votes.c.player, finish_votes.c.vote)
            .where(finish_votes.c.table_id == table_id)
            .order_by(finish_votes.c.at, finish_votes.c.player)
        ).all()
        return Votes(tuple((str(p), str(v)) for p, v in rows), until)

    @staticmethod
    def _take_turn(conn: sa.Connection, table_id: str) -> None:
        """Write to the table's row first, so that the processes that change
        its votes take turns (a row lock on Postgres, the write lock on SQLite)."""
        conn.execute(
            tables.update()
            .where(tables.c.id == table_id)
            .values(finish_until=tables.c.finish_until)
        )

    def _end(self, conn: sa.Connection, table_id: str, by: str, at: float) -> None:
        head = (
            sa.select(sa.func.coalesce(sa.func.max(actions.c.number), 0))
            .where(actions.c.table_id == table_id)
            .scalar_subquery()
        )
        conn.execute(
            tables.update()
            .where(tables.c.id == table_id, tables.c.finished_at.is_(None))
            .values(finished_at=at, finished_by=by, finished_number=head, finish_until=None)
        )
        if self.postgres:
            conn.execute(sa.select(sa.func.pg_notify(CHANNEL, f"{table_id}:finished")))

    def vote(
        self,
        table_id: str,
        player: str,
        vote: str,
        players: tuple[str, ...],
        finish_after: float,
        now: float,
    ) -> tuple[Votes, Finished | None]:
        """Record ``player``'s vote to finish the table, all at once: the
        first agreement or concession starts the proposal's time limit
        (``now + finish_after``), a decline withdraws every agreement and
        stops it, and the vote that makes every seat agree or concede
        finishes the game. A finished table changes no more. Returns the
        votes and the end (None while the game goes on). Raises
        :class:`~cardzones.table.finish.FinishRefused` for a vote the table
        does not take. With Postgres, the other processes are told
        (``TABLE:finish``)."""
        with self.engine.begin() as conn:
            self._take_turn(conn, table_id)
            if self._finished(conn, table_id) is None:
                current = self._votes(conn, table_id)
                mine = current.vote_of(player)
                if vote == DECLINE:
                    if mine == CONCEDE:
                        raise FinishRefused("you conceded: your vote stands until the end")
                    conn.execute(
                        finish_votes.delete().where(
                            finish_votes.c.table_id == table_id, finish_votes.c.vote == AGREE
                        )
                    )
                    conn.execute(
                        tables.update().where(tables.c.id == table_id).values(finish_until=None)
                    )
                elif mine != CONCEDE:
                    # A seat that conceded votes no more: its concession
                    # stands, and does not start the clock again.
                    if mine != vote:
                        conn.execute(
                            finish_votes.delete().where(
                                finish_votes.c.table_id == table_id,
                                finish_votes.c.player == player,
                            )
                        )
                        conn.execute(
                            finish_votes.insert().values(
                                table_id=table_id, player=player, vote=vote, at=now
                            )
                        )
                    if current.until is None:
                        conn.execute(
                            tables.update()
                            .where(tables.c.id == table_id)
                            .values(finish_until=now + finish_after)
                        )
                after = self._votes(conn, table_id)
                if self.postgres:
                    conn.execute(sa.select(sa.func.pg_notify(CHANNEL, f"{table_id}:finish")))
                if after.complete(players):
                    self._end(conn, table_id, after.votes[0][0], now)
        with self.engine.connect() as conn:
            return self._votes(conn, table_id), self._finished(conn, table_id)

    def finish_due(self, table_id: str, now: float) -> Finished | None:
        """Finish the table if its proposal's time limit has passed by
        ``now`` (at that limit, after its last stored action: no act is
        stored after it). Returns the end, or None while the game goes on."""
        with self.engine.begin() as conn:
            self._take_turn(conn, table_id)
            found = self._finished(conn, table_id)
            if found is not None:
                return found
            votes = self._votes(conn, table_id)
            if votes.until is None or not votes.due(now) or not votes.votes:
                return None
            self._end(conn, table_id, votes.votes[0][0], votes.until)
            return self._finished(conn, table_id)

    def finished(self, table_id: str) -> Finished | None:
        """The table's end, or None while it is being played."""
        with self.engine.connect() as conn:
            return self._finished(conn, table_id)

    def _finished(self, conn: sa.Connection, table_id: str) -> Finished | None:
        row = conn.execute(
            sa.select(tables.c.finished_by, tables.c.finished_number, tables.c.finished_at).where(
                tables.c.id == table_id, tables.c.finished_at.is_not(None)
            )
        ).one_or_none()
        if row is None:
            return None
        votes = self._votes(conn, table_id)
        return Finished(
            str(row[0]),
            int(row[1]),
            float(row[2]),
            tuple(votes.agreed),
            tuple(votes.conceded),
        )

    # -- actions ---------------------------------------------------------------------

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
        at = time.time() if now is None else now
        row = {
            "table_id": table_id,
            "number": number,
            "seat": seat,
            "at": at,
            "act": json.dumps(act, separators=(",", ":")),
        }
        self.group.append(row)

    def write_together(self, rows: list[dict[str, Any]]) -> list[CardzonesError | None]:
        """Write ``rows`` in one transaction and commit it: for each, None
        when it is stored, or why it is not (:class:`Conflict`,
        :class:`GameOver`), which leaves the others stored. Each row is
        appended only while its table is being played, in the same statement,
        so that no act lands after the end another process recorded, after
        the time limit of a proposal to finish, or from a seat that conceded;
        a number taken is skipped, not an error that would end the
        transaction of every row in it. On Postgres the rows go in one
        statement and their notifications in one more, so that a batch costs
        a few round trips whatever its size."""
        # Two writers of one table (two processes, or two copies of a table)
        # may give the same number in one batch: the first of them is tried,
        # and the others find it taken.
        firsts: dict[tuple[str, int], int] = {}
        for i, row in enumerate(rows):
            firsts.setdefault((row["table_id"], row["number"]), i)
        tried = [rows[i] for i in sorted(firsts.values())]
        with self.engine.begin() as conn:
            if self.postgres:
                stored = self._insert_all(conn, tried)
            else:
                stored = {key for row in tried if (key := self._insert_one(conn, row))}
            outcomes: list[CardzonesError | None] = []
            for i, row in enumerate(rows):
                table_id, number = row["table_id"], row["number"]
                if (table_id, number) in stored and firsts[(table_id, number)] == i:
                    outcomes.append(None)
                elif conn.execute(sa.select(_stopped(row))).scalar():
                    outcomes.append(GameOver(f"table {table_id} is finished"))
                else:
                    outcomes.append(Conflict(f"table {table_id} already has an action {number}"))
        return outcomes

    @staticmethod
    def _insert_one(conn: sa.Connection, row: dict[str, Any]) -> tuple[str, int] | None:
        """SQLite: one row, its key when it is stored."""
        values = sa.select(*(sa.literal(row[k]).label(k) for k in _ROW)).where(~_stopped(row))
        insert = (
            sqlite_insert(actions)
            .from_select(list(_ROW), values)
            .on_conflict_do_nothing()
            .returning(actions.c.table_id, actions.c.number)
        )
        # RETURNING, not rowcount: a driver may report no rowcount for an
        # INSERT ... SELECT that inserted nothing.
        found = conn.execute(insert).first()
        return None if found is None else (str(found[0]), int(found[1]))

    @staticmethod
    def _insert_all(conn: sa.Connection, rows: list[dict[str, Any]]) -> set[tuple[str, int]]:
        """Postgres: every row in one statement, and one notification each
        for the other processes; the keys of those stored."""
        given = sa.values(
            sa.column("table_id", sa.String),
            sa.column("number", sa.Integer),
            sa.column("seat", sa.String),
            sa.column("at", sa.Float),
            sa.column("act", sa.String),
            name="given",
        ).data([tuple(row[k] for k in _ROW) for row in rows])
        select = sa.select(*(given.c[k] for k in _ROW)).where(
            ~_stopped({"table_id": given.c.table_id, "seat": given.c.seat, "at": given.c.at})
        )
        insert = (
            postgresql_insert(actions)
            .from_select(list(_ROW), select)
            .on_conflict_do_nothing()
            .returning(actions.c.table_id, actions.c.number)
        )
        stored = {(str(t), int(n)) for t, n in conn.execute(insert).all()}
        if stored:
            conn.execute(
                sa.text("SELECT pg_notify(:channel, x) FROM unnest(CAST(:items AS text[])) AS x"),
                {"channel": CHANNEL, "items": [f"{t}:{n}" for t, n in sorted(stored)]},
            )
        return stored

    def actions(self, table_id: str, after: int = 0, upto: int | None = None) -> list[StoredAction]:
        """The actions numbered after ``after`` (up to ``upto``), in order."""
        query = (
            sa.select(actions.c.number, actions.c.seat, actions.c.at, actions.c.act)
            .where(actions.c.table_id == table_id, actions.c.number > after)
            .order_by(actions.c.number)
        )
        if upto is not None:
            query = query.where(actions.c.number <= upto)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [StoredAction(n, s, at, json.loads(a)) for n, s, at, a in rows]

    def head(self, table_id: str) -> int:
        """The number of the table's last action (0: none yet)."""
        with self.engine.connect() as conn:
            value = conn.execute(
                sa.select(sa.func.max(actions.c.number)).where(actions.c.table_id == table_id)
            ).scalar()
        return int(value or 0)

    # -- the chat ----------------------------------------------------------------------

    def say(self, table_id: str, seat: str, text: str, after: int) -> ChatLine:
        """Store a chat line of ``seat`` with the next number of the table's
        chat, and commit it (with Postgres, the other processes are told:
        ``TABLE:chat``). Raises :class:`~cardzones.table.chat.ChatRefused`
        when the table has :data:`~cardzones.table.chat.MAX_LINES` lines."""
        for _ in range(20):
            at = time.time()
            try:
                with self.engine.begin() as conn:
                    last = conn.execute(
                        sa.select(sa.func.coalesce(sa.func.max(chat.c.seq), 0)).where(
                            chat.c.table_id == table_id
                        )
                    ).scalar_one()
                    if int(last) >= MAX_LINES:
                        raise ChatRefused(
                            f"this table's chat is full ({MAX_LINES} lines): it takes no more"
                        )
                    seq = int(last) + 1
                    conn.execute(
                        chat.insert().values(
                            table_id=table_id, seq=seq, seat=seat, at=at, after=after, text=text
                        )
                    )
                    if self.postgres:
                        conn.execute(sa.select(sa.func.pg_notify(CHANNEL, f"{table_id}:chat")))
            except IntegrityError:
                continue  # another writer took the number: take the next one
            return ChatLine(seq, seat, at, after, text)
        raise StoreError("the chat line could not be stored; try again")

    def chat_head(self, table_id: str) -> int:
        """The number of the table's last chat line (0: none yet)."""
        with self.engine.connect() as conn:
            value = conn.execute(
                sa.select(sa.func.max(chat.c.seq)).where(chat.c.table_id == table_id)
            ).scalar()
        return int(value or 0)

    def chat(self, table_id: str, after: int = 0, newest: int | None = None) -> list[ChatLine]:
        """The chat lines numbered after ``after``, in order (only the
        ``newest`` of them, when given)."""
        query = sa.select(chat.c.seq, chat.c.seat, chat.c.at, chat.c.after, chat.c.text).where(
            chat.c.table_id == table_id, chat.c.seq > after
        )
        if newest is not None:
            query = query.order_by(chat.c.seq.desc()).limit(newest)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        lines = [ChatLine(int(q), str(s), float(at), int(a), str(t)) for q, s, at, a, t in rows]
        return sorted(lines, key=lambda line: line.seq)

    # -- snapshots ---------------------------------------------------------------------

    def save_snapshot(self, table_id: str, number: int, state: dict[str, Any]) -> None:
        """Keep the table's state after action ``number``; a second one of the
        same number is ignored."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    snapshots.insert().values(
                        table_id=table_id, number=number, state=json.dumps(state)
                    )
                )
        except IntegrityError:
            pass

    def snapshot(self, table_id: str, upto: int | None = None) -> dict[str, Any] | None:
        """The newest snapshot of the table (at or before ``upto``)."""
        query = (
            sa.select(snapshots.c.state)
            .where(snapshots.c.table_id == table_id)
            .order_by(snapshots.c.number.desc())
            .limit(1)
        )
        if upto is not None:
            query = query.where(snapshots.c.number <= upto)
        with self.engine.connect() as conn:
            text = conn.execute(query).scalar_one_or_none()
        return None if text is None else dict(json.loads(text))

    # -- notifications -----------------------------------------------------------------

    async def notifications(self) -> AsyncIterator[tuple[str, int | str | None]]:
        """With Postgres, every ``(table, number)`` committed by any process,
        as it is committed, ``(table, None)`` when a table is finished,
        ``(table, "chat")`` when a chat line is stored, and ``(table,
        "finish")`` when a seat votes to finish it. Ends when the
        connection is lost."""
        import psycopg

        libpq = self.url.set(drivername="postgresql").render_as_string(hide_password=False)
        async with await psycopg.AsyncConnection.connect(libpq, autocommit=True) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            async for note in conn.notifies():
                table_id, _, number = note.payload.rpartition(":")
                if number.isdigit():
                    yield table_id, int(number)
                elif number == "finished":
                    yield table_id, None
                elif number in ("chat", "finish"):
                    yield table_id, number


def _engine(url: URL) -> Engine:
    if url.get_backend_name() == "sqlite":
        memory = url.database in (None, "", ":memory:")
        if not memory and url.database is not None:
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        options: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
        if memory:
            options["poolclass"] = StaticPool  # one connection: the memory is the database
        engine = sa.create_engine(url, **options)
        sa.event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return sa.create_engine(url, pool_pre_ping=True)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL: readers never block the writer, and a commit is one append to the log.
    cursor.execute("PRAGMA journal_mode=WAL")
    # FULL: a commit is on disk before it returns, so an acknowledged action
    # survives a killed process and a power cut alike.
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _stopped(row: dict[str, Any]) -> Any:
    """Whether the row's table takes no act from its seat at its time: the
    table is finished, its proposal to finish is past its time limit, or the
    seat conceded (the values may be columns, for many rows at once)."""
    over = sa.or_(tables.c.finished_at.is_not(None), tables.c.finish_until <= row["at"])
    return sa.or_(
        sa.exists().where(tables.c.id == row["table_id"], over),
        sa.exists().where(
            finish_votes.c.table_id == row["table_id"],
            finish_votes.c.player == row["seat"],
            finish_votes.c.vote == CONCEDE,
        ),
    )
