"""The game state as a handful of dictionaries of immutable records, with an
undo journal.

Every write goes through :meth:`State._put` or :meth:`State._pop`, which record
the previous value in a journal. The journal is a persistent linked list of
tuples, so a copy shares it; copying the state costs one ``dict.copy`` per map
that changes with nearly every action, and undoing a step costs one write per
change. The maps that change seldom (zones, effects, the rule set's records)
are shared by a copy and its original until either one writes to one of them.

>>> s = State()
>>> s._put(VARS, "turn", 2)
>>> cp = s.checkpoint()
>>> s._put(VARS, "turn", 3)
>>> s.rollback(cp)
>>> s._vars["turn"]
2
"""

from __future__ import annotations

from itertools import islice
from typing import Any, NamedTuple

from cardzones.errors import IllegalAction, UnknownReference
from cardzones.kernel.objects import Obj

# Indexes of the journaled maps, in the order of State._maps.
OBJS, CONTENTS, ZONES, ZINFO, KIDS, EFFECTS, FX_BY_CARD, VARS, RULES = range(9)

_MISSING: Any = object()

#: The attribute that holds each map, in the order of State._maps.
_NAMES = (
    "_objs",
    "_contents",
    "_zones",
    "_zinfo",
    "_kids",
    "_effects",
    "_fx_by_card",
    "_vars",
    "_rules",
)

Journal = tuple[int, Any, Any, "Journal"] | None


class _Removed:
    """A journal entry's old value for a key that was removed: the value, and
    how many keys came after it in its map."""

    __slots__ = ("after", "value")

    def __init__(self, value: Any, after: int) -> None:
        self.value = value
        self.after = after

    def restore(self, d: dict[Any, Any], key: Any) -> None:
        """Put the key back in its place. The map is as it was just after the
        removal, so the keys that followed it are its last ``after`` keys."""
        after = self.after
        if not after:
            d[key] = self.value
        elif after <= _SHORT_TAIL:
            # Removed keys are most often recent ones: take the few keys after
            # it out, put it back, and put them after it again.
            tail = list(islice(reversed(d), after))
            tail.reverse()
            moved = [(k, d.pop(k)) for k in tail]
            d[key] = self.value
            d.update(moved)
        else:
            # Build the map again. This also drops the holes that removals leave
            # in a dict, which would otherwise make ``dict.copy`` take its slow path.
            items = list(d.items())
            items.insert(len(items) - after, (key, self.value))
            d.clear()  # the same dict: the state's attributes refer to it
            d.update(items)


#: Up to how many following keys :meth:`_Removed.restore` moves, not rebuilds.
_SHORT_TAIL = 32


class Checkpoint(NamedTuple):
    """A point in the history of one game, to roll back to."""

    journal: Journal
    marks: Any


class State:
    """The journaled maps that make up a game.

    - ``_objs``: physical card id -> :class:`~cardzones.kernel.objects.Obj`
    - ``_contents``: zone id -> top-level card ids, top first
    - ``_zones``: (owner, type) -> zone ids in their numbering order
    - ``_zinfo``: zone id -> :class:`~cardzones.kernel.zones.ZoneInfo`
    - ``_kids``: host card id -> cards under or placed on it, top first
    - ``_effects``: effect id -> :class:`~cardzones.kernel.effects.Effect`
    - ``_fx_by_card``: card id -> effect ids that apply to it
    - ``_vars``: scalars (turn, phase, counters, the log)
    - ``_rules``: the rule set's own records
    """

    __slots__ = (*_NAMES, "_holes", "_journal", "_lent", "_marks", "_w")
    point = property(lambda self: self._journal, doc="checkpoint().journal, without the tuple")

    def __init__(self) -> None:
        self._objs: dict[int, Obj] = {}
        self._contents: dict[int, tuple[int, ...]] = {}
        self._zones: dict[tuple[str | None, str], tuple[int, ...]] = {}
        self._zinfo: dict[int, Any] = {}
        self._kids: dict[int, tuple[int, ...]] = {}
        self._effects: dict[int, Any] = {}
        self._fx_by_card: dict[int, tuple[int, ...]] = {}
        self._vars: dict[str, Any] = {}
        self._rules: dict[Any, Any] = {}
        # The maps as written to, in the order of _maps: None for a map that
        # is shared with a copy and must be copied before a write (_own).
        self._w: tuple[dict[Any, Any] | None, ...] = self._maps
        # Whether every seldom-written map is shared (None in _w).
        self._lent = False
        # Keys removed from each map since it was last compacted (_removed).
        self._holes: list[int] | None = None
        self._journal: Journal = None
        self._marks: Any = None

    @property
    def _maps(self) -> tuple[dict[Any, Any], ...]:
        """Every map, in the order of the indexes (OBJS, CONTENTS, ...)."""
        return tuple(getattr(self, name) for name in _NAMES)

    def obj(self, card: int) -> Obj:
        """The card's object now; a card that does not exist is refused."""
        try:
            return self._objs[card]
        except KeyError:
            raise UnknownReference(f"card {card} does not exist") from None

    def _own(self, m: int) -> dict[Any, Any]:
        """Map ``m``, copied first if it is shared with a copy of this state."""
        d = self._w[m]
        if d is None:
            d = getattr(self, _NAMES[m]).copy()
            setattr(self, _NAMES[m], d)
            w = list(self._w)
            w[m] = d
            self._w = tuple(w)
            self._lent = False
        return d

    def _own_all(self) -> None:
        """Make every map this state's own, before writes that do not go
        through :meth:`_put` or :meth:`_pop` (loading a saved game)."""
        for m in range(len(_NAMES)):
            self._own(m)

    # -- journaled writes -------------------------------------------------

    def _put(self, m: int, key: Any, value: Any) -> None:
        d = self._w[m]
        if d is None:
            d = self._own(m)
        self._journal = (m, key, d.get(key, _MISSING), self._journal)
        d[key] = value

    def _pop(self, m: int, key: Any) -> None:
        d = self._w[m]
        if d is None:
            d = self._own(m)
        if key in d:
            # Undo puts the key back where it was: the order of a map shows when
            # it is iterated (``Game.cards()``, a saved game), so it is state too.
            after = 0
            for k in reversed(d):
                if k == key:
                    break
                after += 1
            self._journal = (m, key, _Removed(d.pop(key), after), self._journal)
            self._removed(m, d)

    def _removed(self, m: int, d: dict[Any, Any]) -> None:
        """Count a key removed from map ``m`` (``d``), and compact the map once
        there have been more removals than it has keys.

        A removed key leaves a hole in a dict until it grows again, and a map
        with many holes takes ``dict.copy``'s slow path, several times slower:
        trying actions and rolling them back (legal actions) adds and removes
        the same keys over and over. Compacting keeps the order of the keys."""
        # A copy starts without the slot (Game.copy sets no more than it must).
        holes = getattr(self, "_holes", None)
        if holes is None:
            holes = self._holes = [0] * len(_NAMES)
        holes[m] += 1
        if holes[m] > len(d) + 8:
            holes[m] = 0
            items = list(d.items())
            d.clear()  # the same dict: the state's attributes refer to it
            d.update(items)

    def _next(self, counter: str) -> int:
        """Take the next value of a journaled counter."""
        v = self._vars
        value: int = v[counter]
        self._journal = (VARS, counter, value, self._journal)  # an inlined _put
        v[counter] = value + 1
        return value

    # -- checkpoints and undo ----------------------------------------------

    def checkpoint(self) -> Checkpoint:
        """The current point, for :meth:`rollback`. Costs nothing."""
        return Checkpoint(self._journal, self._marks)

    def rollback(self, checkpoint: Checkpoint) -> None:
        """Restore the exact state of ``checkpoint``, which must be an earlier
        point of this game (or of the game it was copied from). Any other
        checkpoint is refused, and the state is unchanged."""
        target = checkpoint.journal
        j = self._journal
        while j is not target:
            if j is None:
                raise IllegalAction("that checkpoint is not in this game's history")
            j = j[3]
        self._rollback(target, checkpoint.marks)

    def _rollback(self, target: Journal, marks: Any) -> None:
        """:meth:`rollback` to a point known to be in this game's history."""
        j = self._journal
        maps = self._w
        while j is not target:
            m, key, old, j = j  # type: ignore[misc]
            d = maps[m]
            if d is None:
                d = self._own(m)
                maps = self._w
            if old is _MISSING:
                del d[key]
                self._removed(m, d)
            elif old.__class__ is _Removed:
                old.restore(d, key)
            else:
                d[key] = old
        self._journal = target
        self._marks = marks

    def _commit(self, head: Journal) -> None:
        """Close one top-level action that started at ``head``, for :meth:`undo`."""
        if self._journal is not head:
            self._marks = (head, self._marks)

    def _abort(self, head: Journal) -> None:
        self._rollback(head, self._marks)

    def can_undo(self) -> bool:
        return self._marks is not None

    def forget_history(self) -> None:
        """Make the current state the start of the history: nothing before it can
        be undone or rolled back to, and the journal no longer holds it. Useful
        after building a position, as setup is not an action."""
        self._journal = None
        self._marks = None

    def undo(self) -> None:
        """Undo the last action that changed the state, restoring it exactly.

        Raises :class:`~cardzones.errors.IllegalAction` when there is nothing to undo.
        """
        if self._marks is None:
            raise IllegalAction("nothing to undo")
        head, marks = self._marks
        self._rollback(head, marks)
