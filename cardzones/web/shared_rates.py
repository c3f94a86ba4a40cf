"""The rates per client address held across every server process of one
Postgres store: :class:`SharedPerAddress` counts as
:class:`~cardzones.web.rates.PerAddress` does, with the same ``take``, and
keeps the count in the store (:mod:`cardzones.table.rate_windows`), so that a
client spreading its requests over several processes gets no more than from
one.

Each process also counts in memory what it let through, which the store's
count includes: a request its own count already refuses is refused without
asking the store; one the store refused is refused in memory until the wait
the store gave is over. So the store is asked only for requests that may be
allowed, and an address over its limit costs the store nothing more.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import Counter
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool

from cardzones.table.rate_windows import RateWindows, drawn
from cardzones.web.rates import PerAddress

log = logging.getLogger("cardzones.web")

#: How long a full count of holds is asked again before a hold is refused,
#: and how many times in all it is asked.
GRACE, GRACE_TRIES = 0.5, 4


#: The store's updates on their way (:func:`behind`), kept from the collector.
_BEHIND: set[asyncio.Task[None]] = set()


def behind(update: Callable[..., object], *args: object) -> None:
    """Run ``update(*args)`` on the store in a worker thread, in a task of
    its own: what a connection's end tells the store is told even when the
    connection's handler is cancelled, whose cleanup cannot await."""

    async def run() -> None:
        try:
            await run_in_threadpool(update, *args)
        except Exception as exc:
            log.warning("the shared limits could not be updated (%s)", exc)

    task = asyncio.get_running_loop().create_task(run())
    _BEHIND.add(task)
    task.add_done_callback(_BEHIND.discard)


class SharedPerAddress(PerAddress):
    """At most ``count`` events in any ``window`` seconds from one address,
    across every process of ``store`` (``kind`` names the limit in its keys)."""

    def __init__(
        self,
        count: int,
        window: float,
        store: RateWindows,
        kind: str,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(count, window)
        self.store = store
        self.kind = kind
        #: the wall clock, shared by the processes (``take``'s ``now`` is the caller's own)
        self.clock = clock
        #: addresses the store refused, and until when (on the caller's clock)
        self.refused: dict[str, float] = {}

    def take(self, address: str, now: float) -> float:
        wait = self._here(address, now)
        if wait is not None:
            return wait
        return self._heard(address, now, self._ask(address))

    async def turn(self, address: str, now: float) -> float:
        """:meth:`take`, the store asked in a worker thread: the event loop
        serves every table, and a round trip on it would hold all of them."""
        wait = self._here(address, now)
        if wait is not None:
            return wait
        return self._heard(address, now, await run_in_threadpool(self._ask, address))

    def _here(self, address: str, now: float) -> float | None:
        """The wait this process knows of alone (counting the event when
        there is none), or None when the store is to be asked."""
        until = self.refused.get(address)
        if until is not None:
            if now < until:
                return round(until - now, 3)
            del self.refused[address]
        wait = super().take(address, now)
        return wait if wait else None  # over the limit in this process alone, or ask

    def _ask(self, address: str) -> float | None:
        """The store's wait for one more event of ``address`` (None: it
        cannot be reached, and the count of this process holds)."""
        try:
            return self.store.count_event(
                f"{self.kind}:{address}", self.count, self.window, self.clock()
            )
        except Exception as exc:
            log.warning("the shared %s rate could not be read (%s)", self.kind, exc)
            return None

    def _heard(self, address: str, now: float, wait: float | None) -> float:
        if not wait:
            return 0.0
        self.times[address].pop()  # not allowed: counted nowhere
        if len(self.refused) >= len(self.times) + 1000:
            self.refused.clear()
        self.refused[address] = now + wait
        return wait


class SharedBucket:
    """A credit (a seat's frames, its seconds of computing) that comes back
    at ``rate`` a second up to ``burst``, shared by every process of
    ``store`` through the bucket of ``key`` (:meth:`RateWindows.draw`).

    Each process draws ``share`` of the credit at a time and spends it in
    memory, so the store is asked once every ``share`` frames, not once a
    frame; what a process spends beyond its share is paid into the store
    when it next draws, so a debt is never lost. What one process has drawn
    and not spent is the most the others miss of the burst; no process,
    and no set of processes, gets more than the limit.

    As a seat's frames, :meth:`turn` counts one and says how long it waits;
    as a budget of computing, :meth:`settle` says how long to wait before
    asking and :meth:`charge` spends what an answer cost.
    """

    def __init__(
        self,
        store: RateWindows,
        key: str,
        burst: float,
        rate: float,
        share: float,
    ) -> None:
        self.store = store
        self.key = key
        self.burst = burst
        self.rate = rate
        self.share = share
        #: the last time given (wall-clock seconds, the clock every process shares)
        self.now = 0.0
        #: all this process charged it
        self.charged = 0.0
        #: credit drawn and not spent; below 0, spent ahead of it (owed)
        self.local = 0.0
        #: the bucket as this process alone would keep it, while the store
        #: cannot be reached
        self.alone: tuple[float, float] | None = None
        #: the draw on its way to the store, if any: a frame short of credit
        #: meanwhile waits for it rather than drawing again
        self.drawing: asyncio.Future[None] | None = None

    def charge(self, amount: float, now: float) -> None:
        """Spend ``amount`` of the credit (paid to the store at the next draw)."""
        self.local -= amount
        self.charged += amount

    async def turn(self, now: float) -> float:
        """Count one frame at ``now`` (wall-clock seconds): 0, or the
        seconds it waits for its turn. Frames short of credit while a draw
        is on its way wait for that draw (a thousand seats joining at once
        from one address draw its bucket once, not once each), and draw
        again only if its share did not cover them."""
        self.local -= 1.0
        while self.local < 0 and self.drawing is not None:
            await asyncio.shield(self.drawing)
        return 0.0 if self.local >= 0 else await self._draw(now)

    async def settle(self, now: float) -> float:
        """0 when there is credit, after drawing from the store if this
        process has none left; else the seconds until there is. With none
        left while a draw is on its way (a seat's first share, drawn as it
        is welcomed), that draw is waited for rather than another made."""
        while self.local <= 0 and self.drawing is not None:
            await asyncio.shield(self.drawing)
        if self.local > 0:
            return 0.0
        wait = await self._draw(now)
        return wait if self.local > 0 or wait > 0 else 1e-9

    async def _draw(self, now: float) -> float:
        """Pay what was spent ahead into the store and draw a share: the
        seconds to wait when nothing could be drawn. What is spent while
        the draw is on its way is owed from the share it brings (added to
        the credit, not put in its place, so that nothing spent meanwhile
        goes unpaid, and two draws at once both count)."""
        spent, self.local, self.now = -self.local, 0.0, now
        drawing = self.drawing = asyncio.get_running_loop().create_future()
        try:
            got, wait = await run_in_threadpool(
                self.store.draw, self.key, self.share, spent, self.burst, self.rate, now
            )
            self.alone = None
        except Exception as exc:
            # The store cannot be reached: the bucket of this process holds.
            log.warning("the shared %s credit could not be read (%s)", self.key, exc)
            self.alone, got, wait = drawn(self.alone, self.share, spent, self.burst, self.rate, now)
        finally:
            if self.drawing is drawing:
                self.drawing = None
            drawing.set_result(None)
        self.local += got
        return wait

    def give_back(self) -> None:
        """Return the credit drawn and not spent (a connection that closes),
        by a task of its own, as :meth:`SharedHolds.release` does."""
        if self.local > 0:
            back, self.local = self.local, 0.0
            behind(self.store.draw, self.key, 0.0, -back, self.burst, self.rate, self.now)


class SharedHolds:
    """How many of each key (a seat's connections) the processes of
    ``store`` hold together, at most a limit (:meth:`RateWindows.hold`).

    Each process keeps its own holds alive (:meth:`keep_alive`, every
    ``ttl / 3`` seconds); the holds of a process that dies stop counting
    ``ttl`` seconds after its last renewal, so a seat whose process was
    killed can connect again through another within that time, however
    many connections the dead process held for it.
    """

    def __init__(self, store: RateWindows, ttl: float = 30.0) -> None:
        self.store = store
        self.ttl = ttl
        self.holder = uuid.uuid4().hex
        #: this process's holds of each key
        self.mine: Counter[str] = Counter()

    async def hold(self, key: str, limit: int) -> bool:
        """Hold one more of ``key``, unless ``limit`` are held already.

        A full count is asked again a few times over :data:`GRACE` seconds
        before the answer is no: a connection closed a moment ago is let go
        of by its process after its close is seen, and a client that closes
        one connection and opens another at once should not be turned away
        for that moment."""
        for attempt in range(GRACE_TRIES):
            try:
                held = await run_in_threadpool(
                    self.store.hold, key, self.holder, limit, time.time(), self.ttl
                )
            except Exception as exc:
                log.warning("the shared hold of %s could not be read (%s)", key, exc)
                held = self.mine[key] < limit  # the holds of this process alone
            if held:
                self.mine[key] += 1
                return True
            if attempt + 1 < GRACE_TRIES:
                await asyncio.sleep(GRACE / (GRACE_TRIES - 1))
        return False

    def release(self, key: str) -> None:
        """Let go of one of ``key`` held by this process. The store is told
        by a task of its own, which the end of a cancelled connection (whose
        cleanup may not await) does not stop."""
        self.mine[key] -= 1
        if self.mine[key] <= 0:
            del self.mine[key]
        behind(self.store.release, key, self.holder, time.time())

    async def keep_alive(self) -> None:
        """Renew this process's holds for ever (a task of the server's life)."""
        while True:
            await asyncio.sleep(self.ttl / 3)
            if self.mine:
                try:
                    keys = list(self.mine)
                    await run_in_threadpool(
                        self.store.renew, self.holder, keys, time.time(), self.ttl
                    )
                except Exception as exc:
                    log.warning("the shared holds could not be renewed (%s)", exc)


class LocalHolds:
    """:class:`SharedHolds` for one process alone (a SQLite store)."""

    def __init__(self) -> None:
        self.mine: Counter[str] = Counter()

    async def hold(self, key: str, limit: int) -> bool:
        if self.mine[key] >= limit:
            return False
        self.mine[key] += 1
        return True

    def release(self, key: str) -> None:
        self.mine[key] -= 1
        if self.mine[key] <= 0:
            del self.mine[key]

    async def keep_alive(self) -> None:
        return None
