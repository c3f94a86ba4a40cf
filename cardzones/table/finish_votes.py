"""The votes to finish a table and its end, as the event store
(:mod:`cardzones.table.store`) keeps them; what a vote means is
:mod:`cardzones.table.finish`. With Postgres, a vote sends ``NOTIFY
cardzones`` with ``TABLE:finish``, and the end ``TABLE:finished``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from cardzones.table.database import CHANNEL, Database, last_number
from cardzones.table.finish import AGREE, CONCEDE, DECLINE, FinishRefused, Votes
from cardzones.table.schema import actions, finish_votes, tables


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


class FinishVotes(Database):
    """The votes to finish each table, and its end."""

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
        head = last_number(actions.c.number, table_id).scalar_subquery()
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
        """The table's end, or None while it is being played: one statement
        for a table being played (on Postgres one round trip on the store's
        own connections, as a welcome asks it), the votes read only for a
        finished one."""
        if not self.read(_ENDED, {"table_id": table_id}):
            return None
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


#: Whether a table is finished, built once with its parameter.
_ENDED = sa.select(tables.c.id).where(
    tables.c.id == sa.bindparam("table_id"), tables.c.finished_at.is_not(None)
)
