"""When the server keeps a snapshot of a table it plays: at the events the
host says (:meth:`~cardzones.table.host.Host.snapshot_due`), and only once
the acts since the last snapshot cost at least :data:`ACTS_PER_SNAPSHOT`
times the CPU that snapshot did.

A snapshot is a shortcut for loading: a restart replays the events after it.
Its worth is that replay, and its price the CPU of building the whole game as
data and storing it, which grows with the game while an act's cost does not.
In a young game, whose acts are cheap, a snapshot every 50 events cost the
live server about a sixth of an act's CPU: more than the acts' own rules and
store together (a sixth of an act), for replays that cost less. Paced by CPU
as well, a restart replays at most about :data:`ACTS_PER_SNAPSHOT`
snapshots' CPU beyond the host's interval (a replay redoes an act's rules but
not its store or its frames, so it costs less than the act path measured
here), and the snapshots cost at most a fifth of what the acts' rules and
store do.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: A snapshot is kept once the acts since the last one cost this many times
#: its CPU (built and stored).
ACTS_PER_SNAPSHOT = 4


class SnapshotPace:
    """One table's CPU since its last snapshot, and that snapshot's CPU.

    Changed on the event loop only, with figures the worker threads measure
    (:func:`timed`), so that no two threads add to it at once.

    >>> pace = SnapshotPace()
    >>> pace.worth()  # no snapshot yet: the first one is due at once
    True
    >>> pace.took(0.008); pace.stored(0.002); pace.spent(0.035); pace.worth()
    False
    >>> pace.spent(0.005); pace.worth()
    True
    """

    __slots__ = ("cost", "since")

    def __init__(self) -> None:
        #: the CPU seconds the last snapshot took, built and stored (0: none yet)
        self.cost = 0.0
        #: the CPU seconds the table's acts took since then
        self.since = 0.0

    def spent(self, seconds: float) -> None:
        """An act took ``seconds`` of CPU."""
        self.since += seconds

    def worth(self) -> bool:
        """Whether the acts since the last snapshot cost at least
        :data:`ACTS_PER_SNAPSHOT` times what it did."""
        return self.since >= ACTS_PER_SNAPSHOT * self.cost

    def took(self, seconds: float) -> None:
        """A snapshot was taken, at ``seconds`` of CPU so far (its storing
        adds to it with :meth:`stored`)."""
        self.cost = seconds
        self.since = 0.0

    def stored(self, seconds: float) -> None:
        """Storing the last snapshot took ``seconds`` more."""
        self.cost += seconds


def timed(work: Callable[[], T]) -> tuple[T, float]:
    """``work()`` and the CPU seconds its thread spent on it (waits for the
    disk or a lock not counted)."""
    start = time.thread_time()
    result = work()
    return result, time.thread_time() - start
