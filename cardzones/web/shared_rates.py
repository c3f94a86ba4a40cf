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

import logging
import time
from collections.abc import Callable

from cardzones.table.rate_windows import RateWindows
from cardzones.web.rates import PerAddress

log = logging.getLogger("cardzones.web")


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
        until = self.refused.get(address)
        if until is not None:
            if now < until:
                return round(until - now, 3)
            del self.refused[address]
        wait = super().take(address, now)
        if wait:
            return wait  # over the limit in this process alone
        try:
            wait = self.store.count_event(
                f"{self.kind}:{address}", self.count, self.window, self.clock()
            )
        except Exception as exc:
            # The store cannot be reached: the count of this process holds.
            log.warning("the shared %s rate could not be read (%s)", self.kind, exc)
            return 0.0
        if wait:
            self.times[address].pop()  # not allowed: counted nowhere
            if len(self.refused) >= len(self.times) + 1000:
                self.refused.clear()
            self.refused[address] = now + wait
        return wait
