"""The standing requests to take back acts and their answers, as the event
store (:mod:`cardzones.table.store`) keeps them; what a request means is
:mod:`cardzones.table.take_back`. An accepted take-back is stored as an
action (:mod:`cardzones.table.action_log`), not here. With Postgres, every
change sends ``NOTIFY cardzones`` with ``TABLE:take_back``.
"""

from __future__ import annotations

import json

import sqlalchemy as sa

from cardzones.table.database import CHANNEL, Database
from cardzones.table.schema import take_backs
from cardzones.table.take_back import Request


class TakeBackVotes(Database):
    """Each table's standing request to take back acts."""

    def take_back(self, table_id: str) -> Request | None:
        """The table's request as stored (it may be left behind by a later
        event: see :attr:`Request.head`)."""
        with self.engine.connect() as conn:
            return self._request(conn, table_id)

    @staticmethod
    def _request(conn: sa.Connection, table_id: str) -> Request | None:
        row = conn.execute(
            sa.select(
                take_backs.c.player,
                take_backs.c.acts,
                take_backs.c.target,
                take_backs.c.head,
                take_backs.c.at,
                take_backs.c.accepted,
                take_backs.c.refused,
            ).where(take_backs.c.table_id == table_id)
        ).one_or_none()
        if row is None:
            return None
        by, acts, to, head, at, accepted, refused = row
        return Request(
            str(by),
            int(acts),
            int(to),
            int(head),
            float(at),
            tuple(json.loads(accepted)),
            None if refused is None else str(refused),
        )

    def _told(self, conn: sa.Connection, table_id: str) -> None:
        if self.postgres:
            conn.execute(sa.select(sa.func.pg_notify(CHANNEL, f"{table_id}:take_back")))

    def ask_take_back(self, table_id: str, request: Request) -> None:
        """Store a new request, in place of any the table held."""
        with self.engine.begin() as conn:
            conn.execute(take_backs.delete().where(take_backs.c.table_id == table_id))
            conn.execute(
                take_backs.insert().values(
                    table_id=table_id,
                    player=request.by,
                    acts=request.acts,
                    target=request.to,
                    head=request.head,
                    at=request.at,
                    accepted=json.dumps(list(request.accepted)),
                )
            )
            self._told(conn, table_id)

    def answer_take_back(
        self, table_id: str, request: Request, seat: str, accept: bool
    ) -> Request | None:
        """Add ``seat``'s acceptance to ``request``, or its refusal, if the
        request still stands as given (the same seat, after the same event,
        unrefused): the request as it is then, or None when it does not
        stand. Two seats answering at once take turns, and both count."""
        with self.engine.begin() as conn:
            same = sa.and_(
                take_backs.c.table_id == table_id,
                take_backs.c.player == request.by,
                take_backs.c.head == request.head,
                take_backs.c.at == request.at,
                take_backs.c.refused.is_(None),
            )
            # Write the row first, so that the processes that answer take
            # turns (a row lock on Postgres, the write lock on SQLite).
            if conn.execute(take_backs.update().where(same).values(at=request.at)).rowcount != 1:
                return None
            found = self._request(conn, table_id)
            assert found is not None
            if not accept:
                conn.execute(take_backs.update().where(same).values(refused=seat))
            elif seat not in found.accepted:
                accepted = json.dumps([*found.accepted, seat])
                conn.execute(take_backs.update().where(same).values(accepted=accepted))
            self._told(conn, table_id)
            return self._request(conn, table_id)

    def drop_take_back(self, table_id: str, head: int) -> None:
        """Remove the table's request asked after event ``head`` or before
        (it was carried out, or fell); a newer one stays."""
        where = sa.and_(take_backs.c.table_id == table_id, take_backs.c.head <= head)
        with self.engine.begin() as conn:
            if conn.execute(take_backs.delete().where(where)).rowcount:
                self._told(conn, table_id)
