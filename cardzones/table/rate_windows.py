"""Rates counted across every process of the event store
(:mod:`cardzones.table.store`): at most so many events of one key (a client
address's new tables, its new WebSockets) in any window of so many seconds,
whichever process each event came to.

Each key's row holds the times of its events still in the window. Counting
one reads the row under a lock (``SELECT ... FOR UPDATE`` on Postgres), drops
the times past the window, and adds the new one only if there is room, in one
transaction: two processes counting the same key at once take turns, so the
limit holds however the events are spread. Times are the wall clock's, the
one clock the processes share (a few milliseconds apart on machines kept in
time). Rows whose window has passed are forgotten now and then.
"""

from __future__ import annotations

import json
import random

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from cardzones.table.database import Database
from cardzones.table.schema import rate_windows

#: One count in this many also forgets the rows whose window has passed.
FORGET_EVERY = 256


def counted(times: list[float], count: int, window: float, now: float) -> tuple[list[float], float]:
    """The times still in the window with ``now`` added, and 0, when there is
    room for one more event; otherwise the times in the window and the
    seconds until there is room.

    >>> counted([0.0, 1.0], 2, 60.0, 2.0)
    ([0.0, 1.0], 58.0)
    >>> counted([0.0, 1.0], 2, 60.0, 60.5)
    ([1.0, 60.5], 0.0)
    """
    recent = [t for t in times if now - t < window]
    if len(recent) >= count:
        return recent, round(window - (now - recent[0]), 3)
    return [*recent, now], 0.0


class RateWindows(Database):
    """The rate windows of every key, in the store's database."""

    def count_event(self, key: str, count: int, window: float, now: float) -> float:
        """Count one event of ``key`` at ``now`` (wall-clock seconds) and
        return 0, or return the seconds to wait before one is allowed (and
        count nothing): at most ``count`` events in any ``window`` seconds,
        across every process of the store."""
        with self.engine.begin() as conn:
            if random.randrange(FORGET_EVERY) == 0:
                conn.execute(_FORGET, {"now": now})
            make = _MAKE_POSTGRES if self.postgres else _MAKE_SQLITE
            conn.execute(make, {"k": key, "u": now})
            text = conn.execute(_LOCKED, {"k": key}).scalar_one()
            times, wait = counted([float(t) for t in json.loads(text)], count, window, now)
            until = (times[-1] if times else now) + window
            conn.execute(_WRITE, {"k": key, "t": json.dumps(times), "u": until})
        return wait


# Built once; each count costs only their parameters.
_FORGET = rate_windows.delete().where(rate_windows.c.until < sa.bindparam("now"))
_MAKE_POSTGRES, _MAKE_SQLITE = (
    insert(rate_windows)
    .values(key=sa.bindparam("k"), times="[]", until=sa.bindparam("u"))
    .on_conflict_do_nothing()
    for insert in (postgresql_insert, sqlite_insert)
)
_LOCKED = (
    sa.select(rate_windows.c.times).where(rate_windows.c.key == sa.bindparam("k")).with_for_update()
)
_WRITE = (
    rate_windows.update()
    .where(rate_windows.c.key == sa.bindparam("k"))
    .values(times=sa.bindparam("t"), until=sa.bindparam("u"))
)
