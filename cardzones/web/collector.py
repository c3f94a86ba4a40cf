"""The garbage collector of a server process, set for short pauses.

CPython's cyclic collector stops the whole process while it walks a
generation, and the oldest generation holds every open table's game. With
the interpreter's default thresholds, a server of 256 busy tables collected
the two older generations every few seconds, for 40 to 70 ms and 150 to
290 ms: every act and menu due meanwhile waited, and those pauses were the
slowest acts of the capacity ladder (its p99) while the server's core was
less than half used. A table's objects are freed by their reference counts
as soon as they are dropped; the collector is only for cycles, which the act
path makes few of. So a server collects the youngest generation after
:data:`YOUNG` new objects rather than 700, and the older ones after
proportionally as many of those, so that a full collection is rare; what it
costs each time is the same.
"""

from __future__ import annotations

import gc

#: New container objects (less those freed) before the youngest generation
#: is collected; the interpreter's default is 700.
YOUNG = 50_000
#: Collections of a generation before the next one is collected too (the
#: defaults are 10 and 10); the oldest also waits, as always, for a quarter
#: more long-lived objects than it last found.
MIDDLE, OLD = 20, 10


def for_serving() -> None:
    """Set this process's collector for a server (see the module), and move
    what is alive now, the modules and data loaded to start, out of its
    reach: none of it is ever garbage.

    >>> before = gc.get_threshold()
    >>> for_serving(); gc.get_threshold()
    (50000, 20, 10)
    >>> gc.unfreeze(); gc.set_threshold(*before)
    """
    gc.set_threshold(YOUNG, MIDDLE, OLD)
    gc.freeze()
