"""When an object becomes a new object (3.0.9), in one place.

An object becomes new when it enters a zone that makes new objects (the rule
set's zone data, or its :meth:`~cardzones.kernel.ruleset.Ruleset.resets_on_enter`),
when it becomes a sub-card (3.0.14b), or whenever a public object becomes a
private one, wherever that happens: turned face down, moved, attached under
a private top-card, carried along with a host that turned private, or put
under a new top-card with it (3.0.9, 3.0.14c, 3.0.14d). Every place in the
kernel that gives an object a new visibility asks :func:`renew` for its
identity, so no path can make a public object private and keep its id, and
with it the handle a player watched.

>>> renews(True, False, False), renews(False, True, False), renews(False, False, True)
(True, False, True)
"""

from __future__ import annotations

from cardzones.kernel.objects import Obj, Origin
from cardzones.kernel.state import State

#: Builds a record from a tuple of all its fields (see pipeline.py).
_new_record = tuple.__new__


def renews(was_public: bool, public: bool, reset: bool) -> bool:
    """Whether the object becomes new: asked for (``reset``), or it goes from
    public to private (3.0.9)."""
    return reset or (was_public and not public)


def renew(
    game: State,
    obj: Obj,
    public: bool,
    reset: bool,
    from_type: str | None,
    to_type: str | None,
    cause: str,
    by: str | None,
) -> tuple[int, Origin | None, bool]:
    """The identity ``obj`` has once it is ``public`` (or private): its object
    id, its history (3.0.9c), and whether it is a new object. A new object
    gets the next id and a history made of this change; the caller ends the
    effects bound to the old one (:func:`~cardzones.kernel.effects._end_bound_effects`)
    once the new record is written."""
    if not (reset or (obj.public and not public)):
        return obj.oid, obj.origin, False
    origin: Origin = _new_record(Origin, (from_type, to_type, game._vars["turn"], cause, by))
    return game._next("next_oid"), origin, True
