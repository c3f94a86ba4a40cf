"""Limits kept across every process of the event store
(:mod:`cardzones.table.store`), one row a key in the table ``rate_windows``,
whose ``times`` column holds the key's state as JSON, of one of three kinds:

- **a window** (:meth:`RateWindows.count_event`): at most so many events of
  one key (a client address's new tables, its new WebSockets, a seat's
  votes) in any window of so many seconds; the state is the times of the
  events still in the window;
- **a bucket** (:meth:`RateWindows.draw`): a credit (of frames, of seconds
  of computing) that comes back at a rate up to a burst, from which each
  process draws a share at a time; the state is ``[credit, at]``, and no row
  is a full bucket;
- **holds** (:meth:`RateWindows.hold`): how many of something (a seat's
  connections) each process holds now, at most so many in all; the state is
  ``{process: [count, until]}``, each process's entry kept alive by
  :meth:`RateWindows.renew` so that a process that dies stops counting
  once its entry's time is past.

Each change reads the row under a lock and writes it in one transaction:
two processes changing the same key at once take turns, so the limit holds
however the load is spread. On Postgres the row is made or found, locked
and read in one statement (``INSERT ... ON CONFLICT DO UPDATE ...
RETURNING``), so that no other process's forgetting of old rows can take
it from between a make and a read, and the transaction runs on one of the
store's own connections (``BEGIN``, that statement, the write, ``COMMIT``:
four round trips, where the engine took six and its pool's work). On
Postgres a bucket's draw, the change made most often (a seat's frames and
its budget of computing, a share at a time), is one statement instead
(:data:`_DRAW`): ``INSERT ... ON CONFLICT DO UPDATE`` makes the row or
changes it under the row's lock, the draw computed from the old state in
SQL as :func:`drawn` computes it, and ``RETURNING`` gives the new state
with what was drawn. Sent in autocommit mode on one of the store's own connections
(:attr:`~cardzones.table.database.Database.direct_short`), it is one round
trip and one transaction, where the engine took six (its ping, ``BEGIN``,
the row made, read under its lock, written, ``COMMIT``).
Times are the wall clock's, the one clock the processes share (a few
milliseconds apart on machines kept in time). A row's ``until`` is when it
says nothing any more (its window passed, its bucket full, its holds
expired); such rows are forgotten now and then.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from cardzones.table.database import Database
from cardzones.table.direct_postgres import DirectPostgres
from cardzones.table.direct_sqlite import Run
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


def drawn(
    state: tuple[float, float] | None,
    want: float,
    spent: float,
    burst: float,
    rate: float,
    now: float,
) -> tuple[tuple[float, float], float, float]:
    """A bucket of ``burst`` that comes back at ``rate`` a second, in
    ``state`` (its credit and when; None: full), once ``spent`` (what was
    used ahead of the credit drawn; negative: credit given back) is paid
    and up to ``want`` is drawn: the new state, what was drawn, and the
    seconds until the credit is back above nothing (0 when something was
    drawn or nothing was owed). What is spent is always paid: a debt makes
    the caller wait, it is never forgotten.

    >>> drawn(None, 5.0, 0.0, 20.0, 20.0, 0.0)
    ((15.0, 0.0), 5.0, 0.0)
    >>> drawn((1.0, 0.0), 5.0, 3.0, 20.0, 20.0, 0.0)  # 3 owed, 1 there: 2 short
    ((-2.0, 0.0), 0.0, 0.1)
    >>> drawn((-2.0, 0.0), 5.0, 0.0, 20.0, 20.0, 1.0)  # a second later: 18 back
    ((13.0, 1.0), 5.0, 0.0)
    """
    credit, at = state if state is not None else (burst, now)
    credit = min(burst, credit + max(0.0, now - at) * rate) - spent
    credit = min(credit, burst)
    if credit <= 0:
        return (credit, max(at, now)), 0.0, round(-credit / rate, 6)
    got = min(want, credit)
    return (credit - got, max(at, now)), got, 0.0


class RateWindows(Database):
    """The shared limits of every key, in the store's database."""

    @contextmanager
    def _changing(self) -> Iterator[Run]:
        """One transaction for :meth:`_change`: on Postgres on one of the
        store's own connections (no ping, no pool; four round trips), else
        through the engine."""
        if self.direct_short is not None:
            with self.direct_short.transaction() as run:
                yield run
            return
        with self.engine.begin() as conn:

            def run(statement: Any, params: dict[str, Any]) -> list[Any]:
                result = conn.execute(statement, params)
                return list(result.all()) if result.returns_rows else []

            yield run

    def _change(
        self, run: Run, key: str, now: float, change: Callable[[Any], tuple[Any, float]]
    ) -> None:
        """Apply ``change`` to the state of ``key`` (``[]``: no row yet) under
        the row's lock; ``change`` gives the new state and its ``until``."""
        if random.randrange(FORGET_EVERY) == 0:
            run(_FORGET_POSTGRES if self.postgres else _FORGET, {"now": now})
        if self.postgres:
            # Made or found, locked and read in one statement: a row found
            # by a separate read could be forgotten by another process's
            # _FORGET in between.
            ((text,),) = run(_LOCKED_POSTGRES, {"k": key, "u": now})
        else:
            run(_MAKE_SQLITE, {"k": key, "u": now})
            ((text,),) = run(_LOCKED, {"k": key})
        state, until = change(json.loads(text))
        run(_WRITE, {"k": key, "t": json.dumps(state), "u": until})

    def count_event(self, key: str, count: int, window: float, now: float) -> float:
        """Count one event of ``key`` at ``now`` (wall-clock seconds) and
        return 0, or return the seconds to wait before one is allowed (and
        count nothing): at most ``count`` events in any ``window`` seconds,
        across every process of the store."""
        wait = 0.0

        def change(state: Any) -> tuple[Any, float]:
            nonlocal wait
            times, wait = counted([float(t) for t in state or ()], count, window, now)
            return times, (times[-1] if times else now) + window

        with self._changing() as run:
            self._change(run, key, now, change)
        return wait

    def draw(
        self, key: str, want: float, spent: float, burst: float, rate: float, now: float
    ) -> tuple[float, float]:
        """Pay ``spent`` into the bucket of ``key`` and draw up to ``want``
        from it (:func:`drawn`): what was drawn, and the seconds to wait
        when nothing could be."""
        if self.direct_short is not None:
            return self._draw_at_once(self.direct_short, key, want, spent, burst, rate, now)
        out = (0.0, 0.0)

        def change(state: Any) -> tuple[Any, float]:
            nonlocal out
            old = (float(state[0]), float(state[1])) if state else None
            new, got, wait = drawn(old, want, spent, burst, rate, now)
            out = (got, wait)
            return list(new), new[1] + (burst - new[0]) / rate

        with self._changing() as run:
            self._change(run, key, now, change)
        return out

    @staticmethod
    def _draw_at_once(
        direct: DirectPostgres,
        key: str,
        want: float,
        spent: float,
        burst: float,
        rate: float,
        now: float,
    ) -> tuple[float, float]:
        """:meth:`draw` on Postgres in one statement (see the module)."""
        params = {"k": key, "want": want, "spent": spent, "burst": burst, "rate": rate, "now": now}
        with direct.statements() as run:
            if random.randrange(FORGET_EVERY) == 0:
                run(_FORGET_POSTGRES, {"now": now})
            ((text,),) = run(_DRAW, params)
        credit, _at, got = (float(x) for x in json.loads(text))
        # As drawn(): a wait only when nothing was drawn and the credit is
        # not above nothing.
        wait = round(-credit / rate, 6) if got == 0 and credit <= 0 else 0.0
        return got, wait

    def hold(self, key: str, holder: str, limit: int, now: float, ttl: float) -> bool:
        """Hold one more of ``key`` for ``holder`` (a process), unless the
        live holds of every process already come to ``limit``."""
        held = False

        def change(state: Any) -> tuple[Any, float]:
            nonlocal held
            holds = _live(state, now)
            held = sum(n for n, _ in holds.values()) < limit
            if held:
                holds[holder] = [holds.get(holder, [0, 0.0])[0] + 1, now + ttl]
            return holds, max((u for _, u in holds.values()), default=now)

        with self._changing() as run:
            self._change(run, key, now, change)
        return held

    def release(self, key: str, holder: str, now: float) -> None:
        """Let go of one of ``key`` that ``holder`` held."""

        def change(state: Any) -> tuple[Any, float]:
            holds = _live(state, now)
            count, until = holds.get(holder, [0, now])
            if count > 1:
                holds[holder] = [count - 1, until]
            else:
                holds.pop(holder, None)
            return holds, max((u for _, u in holds.values()), default=now)

        with self._changing() as run:
            self._change(run, key, now, change)

    def renew(self, holder: str, keys: Iterable[str], now: float, ttl: float) -> None:
        """Keep ``holder``'s holds of ``keys`` alive for ``ttl`` more seconds,
        in one transaction: on Postgres one statement for every key (a
        process renews the holds of all its sockets' seats every few
        seconds, a thousand rows and more), which changes the holder's entry
        alone and leaves the others as they are."""
        if self.direct_short is not None:
            params = {"keys": sorted(keys), "holder": holder, "now": now, "until": now + ttl}
            with self.direct_short.statements() as run:
                run(_RENEW, params)
            return

        def change(state: Any) -> tuple[Any, float]:
            holds = _live(state, now)
            if holder in holds:
                holds[holder][1] = now + ttl
            return holds, max((u for _, u in holds.values()), default=now)

        with self._changing() as run:
            for key in sorted(keys):  # one order, so two renewals never deadlock
                self._change(run, key, now, change)


def _live(state: Any, now: float) -> dict[str, list[Any]]:
    """The holds of a state whose time is not past."""
    if not isinstance(state, dict):
        return {}
    return {h: [int(n), float(u)] for h, (n, u) in state.items() if float(u) > now}


# Built once; each count costs only their parameters.
_FORGET = rate_windows.delete().where(rate_windows.c.until < sa.bindparam("now"))
#: Postgres: the same, passing over the rows another transaction has
#: locked (they are forgotten next time): a forgetting that waited for a
#: row, while holding others, could close a circle with a renewal that
#: locks many rows, and one of the two would be refused for a deadlock.
_FORGET_POSTGRES = rate_windows.delete().where(
    rate_windows.c.key.in_(
        sa.select(rate_windows.c.key)
        .where(rate_windows.c.until < sa.bindparam("now"))
        .with_for_update(skip_locked=True)
    )
)
_MAKE_SQLITE = (
    sqlite_insert(rate_windows)
    .values(key=sa.bindparam("k"), times="[]", until=sa.bindparam("u"))
    .on_conflict_do_nothing()
)
#: Postgres: the row of a key made (empty) or found, locked until the
#: transaction ends, and its state returned.
_LOCKED_POSTGRES = (
    postgresql_insert(rate_windows)
    .values(key=sa.bindparam("k"), times="[]", until=sa.bindparam("u"))
    .on_conflict_do_update(
        index_elements=[rate_windows.c.key], set_={"times": rate_windows.c.times}
    )
    .returning(rate_windows.c.times)
)
_LOCKED = (
    sa.select(rate_windows.c.times).where(rate_windows.c.key == sa.bindparam("k")).with_for_update()
)
_WRITE = (
    rate_windows.update()
    .where(rate_windows.c.key == sa.bindparam("k"))
    .values(times=sa.bindparam("t"), until=sa.bindparam("u"))
)


def _bucket(credit: str, at: str) -> str:
    """The state and ``until`` of a bucket after a draw, in SQL, from its
    credit and time before (SQL expressions): :func:`drawn`, step by step.
    The state holds what was drawn as a third element, for ``RETURNING``;
    :meth:`RateWindows.draw` in Python reads the first two alone."""
    return f"""
        SELECT json_build_array(p.credit - p.got, p.at, p.got)::text AS times,
               p.at + (:burst - (p.credit - p.got)) / :rate AS until
        FROM (SELECT q.credit, q.at,
                     CASE WHEN q.credit <= 0 THEN 0.0::float8
                          ELSE LEAST(:want, q.credit) END AS got
              FROM (SELECT LEAST(:burst, LEAST(:burst,
                        o.credit + GREATEST(0.0::float8, :now - o.at) * :rate) - :spent) AS credit,
                           GREATEST(o.at, :now) AS at
                    FROM (SELECT ({credit})::float8 AS credit, ({at})::float8 AS at) AS o) AS q
             ) AS p"""


#: A bucket's draw on Postgres in one statement: a full bucket drawn from
#: when the key has no row, else the row's state drawn from under its lock.
_OLD = "w.times::json"
_DRAW = sa.text(
    "INSERT INTO rate_windows AS w (key, times, until) "
    f"SELECT :k, b.times, b.until FROM ({_bucket(':burst', ':now')}) AS b "
    "ON CONFLICT (key) DO UPDATE SET (times, until) = ("
    + _bucket(
        f"CASE WHEN json_array_length({_OLD}) >= 2 THEN ({_OLD}->>0)::float8 ELSE :burst END",
        f"CASE WHEN json_array_length({_OLD}) >= 2 THEN ({_OLD}->>1)::float8 ELSE :now END",
    )
    + ") RETURNING w.times"
)


#: Postgres: a holder's live entries in the rows of some keys given a new
#: time, in one statement; the rows are locked in the keys' order (as one
#: hold locks its one row), so two processes renewing at once never wait
#: for each other in a circle. An entry already past its time is left to
#: lapse, as :func:`_live` drops it.
_RENEW = sa.text(
    """
    UPDATE rate_windows AS w
    SET times = jsonb_set(
            w.times::jsonb, ARRAY[CAST(:holder AS text), '1'], to_jsonb(CAST(:until AS float8))
        )::text,
        until = GREATEST(w.until, CAST(:until AS float8))
    FROM (
        SELECT key FROM rate_windows WHERE key = ANY(CAST(:keys AS varchar[]))
        ORDER BY key FOR UPDATE
    ) AS locked
    WHERE w.key = locked.key
      AND jsonb_typeof(w.times::jsonb) = 'object'
      AND (w.times::jsonb -> CAST(:holder AS text) ->> 1)::float8 > :now
    """
)
