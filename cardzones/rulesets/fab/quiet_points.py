"""Points of a game's history where a check fab makes after every action
found nothing to do, so that it is not made again where nothing it reads
changed since.

A point is ``Game.point`` (``checkpoint().journal``): every write makes a new one, a
rollback or an undo returns to an earlier one, and a copy shares the history
it was copied at, so the state at a point is the state there, whichever game
holds it. A check that found nothing to do at a point (it wrote nothing)
finds nothing there again. The steps known to change nothing the checks
read are those of the game procedure that write its records alone: priority
handed on (1.11.4a), and a step of combat that moved nothing (the end of the
attack step, 7.3.1, of the defend step, 7.4.1, the link resolving, 7.6.2),
which writes the procedure's record and the chain links' record, keeping the
players in the game, and the combat chain's contents the latter holds. The
checks read objects, zones, effects (fab judges every effect active,
whatever the record says), records of their own, and of the procedure's
record only who is in the game and whether it ended. The procedure notes each
such step (:func:`handed_on`); a check that found nothing at the point the
step started from finds nothing at the point it reached.

Each value here is one tuple or one attribute, replaced whole, as games on
other threads read them too; holding a point keeps it from being reused for
another.
"""

from __future__ import annotations

from typing import Any

#: The last step that handed on priority alone: the point it started from and
#: the point it reached.
_HANDED: tuple[Any, Any] = (None, None)


def handed_on(start: Any, reached: Any) -> None:
    """Note that the game went from the point ``start`` to the point
    ``reached`` by a step that wrote the procedure's records alone, as the
    module's documentation says (priority handed on, a step of combat that
    moved nothing)."""
    global _HANDED
    _HANDED = (start, reached)


class QuietPoint:
    """The last point at which one check, named ``name``, found nothing to do."""

    __slots__ = ("name", "point")

    def __init__(self, name: str) -> None:
        self.name = name
        self.point: Any = None
        _EVERY[name] = self

    def still(self, point: Any) -> bool:
        """Whether the check would find nothing at ``point`` again: it found
        nothing there, or at the point a step that handed on priority alone
        started from and ``point`` is where that step reached."""
        last = self.point
        if point is last:
            return point is not None
        start, reached = _HANDED
        if reached is point and start is last and point is not None:
            self.point = point
            return True
        return False

    def found_nothing(self, point: Any) -> None:
        """The check found nothing to do at ``point`` (and wrote nothing)."""
        self.point = point


#: Every check's quiet point, by the check's name.
_EVERY: dict[str, QuietPoint] = {}


def quiet_points() -> dict[str, QuietPoint]:
    """Every check's quiet point, by the check's name."""
    return dict(_EVERY)


def forget_all() -> None:
    """Forget where every check found nothing: each is made afresh next time."""
    for quiet in _EVERY.values():
        quiet.point = None
