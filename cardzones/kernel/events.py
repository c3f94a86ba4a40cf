"""The event log.

Every change of zone is logged as a ``moved`` event, and an object that ceases
to exist as a ``ceased`` event. An event carries the last known information
(1.2.3) of the object as it left: the record and the effects on it then. That
snapshot is secret-bearing; player views redact it (see views.py).

The log is a persistent linked list, so copies share it and appending is O(1).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from cardzones.kernel.effects import Effect
from cardzones.kernel.objects import Obj

MOVED = "moved"
CEASED = "ceased"
FLIPPED = "flipped"
SHUFFLED = "shuffled"
CREATED = "created"
TURN = "turn"
PHASE = "phase"


class Snapshot(NamedTuple):
    """Last known information: the object and the effects on it as it left (1.2.3b)."""

    obj: Obj
    effects: tuple[Effect, ...]


class Event(NamedTuple):
    """One entry of the log. ``public`` says whether the object was public as it
    moved; a private object has no properties for rules and effects (3.0.7a)."""

    seq: int
    kind: str
    turn: int
    card: int | None = None
    public: bool = False
    lki: Snapshot | None = None
    src: int | None = None
    dst: int | None = None
    new_oid: int | None = None
    by: str | None = None
    cause: str = "effect"
    note: str = ""
    #: whether the object the event left behind is public (None: none is left,
    #: or the event is older than this field), for the handles of log entries
    after: bool | None = None


Log = tuple[Event, "Log"] | None


def iter_log(log: Log) -> Iterator[Event]:
    """Events oldest first."""
    items: list[Event] = []
    while log is not None:
        items.append(log[0])
        log = log[1]
    return reversed(items)
