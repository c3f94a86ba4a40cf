"""The garbage collector of a server process, set for short pauses.

CPython's cyclic collector stops the whole process while it walks a
generation. With the interpreter's default thresholds, a server of 256 busy
tables collected the two older generations, which held every open table's
game, every few seconds, for 40 to 70 ms and 150 to 290 ms: every act and
menu due meanwhile waited, and those pauses were the slowest acts of the
capacity ladder (its p99).

So what survives a young collection is moved out of the collector's reach
at once (``gc.freeze``, from the collection's own callback): the middle and
oldest generations stay about empty, and their collections cost next to
nothing. An object out of reach is still freed by its reference count as
soon as it is dropped, as a game's states are, act after act, and as a
table's whole game is once its table is let go of (a game holds no
reference cycle: tests/test_game_cycles.py). What only the collector frees,
a cycle some other object makes, is not freed out of reach; such strays are
swept together (:meth:`Collector.sweep`: everything back in reach and one
full collection) once the objects out of reach have grown
:data:`SWEEP_GROWTH` times since the last sweep, which a steady set of
tables never makes them do; the sweep runs on the event loop between two
of its tasks (:func:`sweeping`), a full collection's pause at those rare
moments.

What is left is the young collection, and its pause grows with the objects
it walks. The interpreter starts one when the container objects made, less
those freed, pass the threshold; a server frees old objects as fast as it
makes new ones (each act replaces parts of a game's state), so the young
objects alive at a collection were four to five times the threshold: at
1,000 tables, a threshold of 50,000 made a collection every 9 s that walked
about 230,000 objects for 140 ms, the acts due meanwhile that level's p99.
With :data:`YOUNG` at 2,000 a collection walks about 10,000 objects for
about 7 ms (28 ms at most), four times a second, for 3 to 4 % of the
process's time where it was 1 to 2 %.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any

#: New container objects (less those freed) before the youngest generation
#: is collected; the interpreter's default is 700. Small, so that each
#: collection is short (see the module).
YOUNG = 2_000
#: Collections of a generation before the next one is collected too (the
#: defaults are 10 and 10); the oldest also waits, as always, for a quarter
#: more long-lived objects than it last found.
MIDDLE, OLD = 20, 10
#: How many times the objects out of the collector's reach may grow after
#: a sweep before the next one.
SWEEP_GROWTH = 2.0
#: Seconds between two looks at whether a sweep is due.
SWEEP_LOOK = 5.0
#: Young collections between two counts of the objects out of reach: a count
#: walks all of them (a million objects at 768 tables, 15 to 50 ms), so it
#: is made about every minute and a half at 1,000 tables, not after every
#: young collection.
COUNT_EVERY = 400


class Collector:
    """The collector of a serving process (see the module)."""

    def __init__(self) -> None:
        #: objects out of reach after the last sweep (or at start)
        self.swept = gc.get_freeze_count()
        #: whether a sweep is due
        self.due = False
        #: young collections since the objects out of reach were last counted
        self.young = 0
        #: sweeps made, and the objects they found unreachable (for the tests)
        self.sweeps = 0
        self.found = 0

    def after_collection(self, phase: str, info: dict[str, Any]) -> None:
        """The collector's callback: after a young collection, what survived
        it goes out of reach."""
        if phase != "stop" or info["generation"] != 0:
            return
        gc.freeze()
        self.young += 1
        if self.young >= COUNT_EVERY:
            self.young = 0
            self.due = self.due or gc.get_freeze_count() > SWEEP_GROWTH * self.swept

    def sweep(self) -> int:
        """Everything back in the collector's reach, one full collection,
        and what survives out of reach again: the objects found unreachable."""
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.swept = gc.get_freeze_count()
        self.due = False
        self.sweeps += 1
        self.found += found
        return found


#: This process's collector once it serves (:func:`for_serving`).
current: Collector | None = None


def for_serving() -> Collector:
    """Set this process's collector for a server (see the module), and move
    what is alive now, the modules and data loaded to start, out of its
    reach: none of it is ever garbage.

    >>> before = gc.get_threshold()
    >>> serving = for_serving(); gc.get_threshold()
    (2000, 20, 10)
    >>> stop_serving(); gc.set_threshold(*before)
    """
    global current
    gc.set_threshold(YOUNG, MIDDLE, OLD)
    gc.freeze()
    if current is None:
        current = Collector()
        gc.callbacks.append(current.after_collection)
    return current


def stop_serving() -> None:
    """Undo :func:`for_serving`'s freezing and callback (the thresholds stay)."""
    global current
    if current is not None:
        gc.callbacks.remove(current.after_collection)
        current = None
    gc.unfreeze()


async def sweeping() -> None:
    """Sweep this process's collector when it is due (a task of the
    server's life; nothing to do in a process that does not serve)."""
    while True:
        await asyncio.sleep(SWEEP_LOOK)
        if current is not None and current.due:
            current.sweep()
