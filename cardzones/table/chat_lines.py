"""The chat lines of each table, as the event store
(:mod:`cardzones.table.store`) keeps them; what a line may say is
:mod:`cardzones.table.chat`. With Postgres, a line stored sends ``NOTIFY
cardzones`` with ``TABLE:chat``.
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from cardzones.table.chat import MAX_LINES, RATE_LINES, RATE_SECONDS, ChatLine, ChatRefused
from cardzones.table.database import CHANNEL, Database, StoreError, last_number
from cardzones.table.schema import chat


class ChatLines(Database):
    """The chat of every table."""

    def say(self, table_id: str, seat: str, text: str, after: int) -> ChatLine:
        """Store a chat line of ``seat`` with the next number of the table's
        chat, and commit it (with Postgres, the other processes are told:
        ``TABLE:chat``). Raises :class:`~cardzones.table.chat.ChatRefused`
        when the table has :data:`~cardzones.table.chat.MAX_LINES` lines, or
        when the seat said :data:`~cardzones.table.chat.RATE_LINES` lines in
        the last :data:`~cardzones.table.chat.RATE_SECONDS` seconds.

        The rate is read from the stored lines in the transaction that adds
        the line, so it holds across every process of the store: two
        processes that store a line of one table at once race for its
        number, and the one that lost it reads the other's line when it tries
        again (a seat talking through two processes goes no faster than
        through one)."""
        for _ in range(20):
            at = time.time()
            try:
                with self.engine.begin() as conn:
                    last = conn.execute(last_number(chat.c.seq, table_id)).scalar_one()
                    if int(last) >= MAX_LINES:
                        raise ChatRefused(
                            f"this table's chat is full ({MAX_LINES} lines): it takes no more"
                        )
                    recent = conn.execute(_RECENT, {"table_id": table_id, "seat": seat}).scalars()
                    if _too_fast(list(recent), at):
                        raise ChatRefused("too many chat lines: wait a few seconds")
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
        return int(self.read(_HEAD, {"table_id": table_id})[0][0])

    def chat(self, table_id: str, after: int = 0, newest: int | None = None) -> list[ChatLine]:
        """The chat lines numbered after ``after``, in order (only the
        ``newest`` of them, when given). One statement built once (on
        Postgres one round trip on the store's own connections, as a
        welcome reads it)."""
        query = _LINES if newest is None else _NEWEST
        rows = self.read(query, {"table_id": table_id, "after": after, "newest": newest})
        lines = [ChatLine(int(q), str(s), float(at), int(a), str(t)) for q, s, at, a, t in rows]
        return sorted(lines, key=lambda line: line.seq)


# The reads of a welcome, built once with their parameters.
_HEAD = last_number(chat.c.seq, sa.bindparam("table_id", type_=sa.String))
_LINES = sa.select(chat.c.seq, chat.c.seat, chat.c.at, chat.c.after, chat.c.text).where(
    chat.c.table_id == sa.bindparam("table_id"), chat.c.seq > sa.bindparam("after")
)
_NEWEST = _LINES.order_by(chat.c.seq.desc()).limit(sa.bindparam("newest", type_=sa.Integer))


#: When a seat said its last :data:`~cardzones.table.chat.RATE_LINES` lines at a table.
_RECENT = (
    sa.select(chat.c.at)
    .where(chat.c.table_id == sa.bindparam("table_id"), chat.c.seat == sa.bindparam("seat"))
    .order_by(chat.c.seq.desc())
    .limit(RATE_LINES)
)


def _too_fast(recent: list[float], now: float) -> bool:
    """Whether a seat whose last lines were said at ``recent`` (newest first)
    says one more too soon: it said :data:`~cardzones.table.chat.RATE_LINES`
    lines in the last :data:`~cardzones.table.chat.RATE_SECONDS` seconds.

    >>> _too_fast([9.0] * RATE_LINES, 10.0), _too_fast([9.0] * (RATE_LINES - 1), 10.0)
    (True, False)
    >>> _too_fast([20.0] * (RATE_LINES - 1) + [10.0], 20.0 + 0.1)  # the oldest is 10 s old
    False
    """
    return len(recent) >= RATE_LINES and now - min(recent) < RATE_SECONDS
