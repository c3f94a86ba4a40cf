"""Rates a server allows its clients in one process: tables created per
address, frames per seat (:mod:`cardzones.web.shared_rates` keeps them
across processes). Both take the clock as an argument, so that they can be checked
without waiting.

>>> creates = PerAddress(2, 60.0)
>>> creates.take("10.0.0.1", now=0.0), creates.take("10.0.0.1", now=1.0)
(0.0, 0.0)
>>> creates.take("10.0.0.1", now=2.0)  # the third within a minute: wait 58 s
58.0
>>> creates.take("10.0.0.2", now=2.0)
0.0

>>> seat = SeatRate(10)
>>> [seat.take(now=0.0) for _ in range(11)][-2:]  # ten at once, then a tenth of a second
[0.0, 0.1]
"""

from __future__ import annotations

from collections import deque
from typing import Protocol

#: Addresses remembered before the ones with nothing recent are forgotten.
ADDRESSES = 10_000


class PerAddress:
    """At most ``count`` events in any ``window`` seconds from one address."""

    def __init__(self, count: int, window: float) -> None:
        self.count = count
        self.window = window
        self.times: dict[str, deque[float]] = {}

    def take(self, address: str, now: float) -> float:
        """Count one event from ``address`` and return 0, or return the seconds
        to wait before one is allowed (and count nothing)."""
        times = self.times.get(address)
        if times is None:
            if len(self.times) >= ADDRESSES:
                self._forget(now)
            times = self.times[address] = deque()
        while times and now - times[0] >= self.window:
            times.popleft()
        if len(times) >= self.count:
            return round(self.window - (now - times[0]), 3)
        times.append(now)
        return 0.0

    async def turn(self, address: str, now: float) -> float:
        """:meth:`take`, as a limit kept across processes takes it."""
        return self.take(address, now)

    def _forget(self, now: float) -> None:
        stale = [a for a, t in self.times.items() if not t or now - t[-1] >= self.window]
        for address in stale:
            del self.times[address]
        if len(self.times) >= ADDRESSES:  # all recent: forget the oldest half
            oldest = sorted(self.times, key=lambda a: self.times[a][-1])
            for address in oldest[: len(oldest) // 2]:
                del self.times[address]


class SeatRate:
    """A seat's frames, all its connections together: ``rate`` a second, with
    bursts of up to ``rate`` at once. A frame over the rate is not refused but
    held back until its turn, so that a seat with many connections goes no
    faster than a seat with one."""

    def __init__(self, rate: int) -> None:
        self.rate = float(rate)
        self.tokens = float(rate)
        self.then: float | None = None

    def take(self, now: float) -> float:
        """Count one frame; returns how long it must wait, in seconds."""
        if self.then is not None:
            self.tokens = min(self.rate, self.tokens + (now - self.then) * self.rate)
        self.then = now
        self.tokens -= 1.0
        return 0.0 if self.tokens >= 0 else round(-self.tokens / self.rate, 6)

    async def turn(self, now: float) -> float:
        """:meth:`take`, as a :class:`FrameRate`."""
        return self.take(now)


class FrameRate(Protocol):
    """A rate of frames: :class:`SeatRate` in one process, or one shared by
    several (:class:`~cardzones.web.shared_rates.SharedBucket`)."""

    async def turn(self, now: float) -> float:
        """Count one frame; returns how long it must wait, in seconds."""
        ...


class Rates:
    """Several rates a frame counts against at once (its seat's, its
    client address's): it waits for the slowest.

    >>> import asyncio
    >>> both = Rates(SeatRate(10), SeatRate(2))
    >>> [asyncio.run(both.turn(now=0.0)) for _ in range(3)]
    [0.0, 0.0, 0.5]
    """

    def __init__(self, *rates: FrameRate) -> None:
        self.rates = rates

    async def turn(self, now: float) -> float:
        return max([await rate.turn(now) for rate in self.rates])
