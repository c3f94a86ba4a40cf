"""The rule set's own records, kept in the game's journaled ``RULES`` map.

Every record is an immutable tuple, written only through ``game.records``
(the kernel's journaled record store), so undo, rollback and copies of a game
restore them like any other state.

Keys of the ``RULES`` map:

- ``("place", id)``: a :class:`PlaceRecord`, one per place ability used;
- ``("set_aside", id)``: a :class:`SetAsideRecord`, one per set-aside ability;
- ``("move", id)``: a :class:`MoveRecord`, one per labelled relocation;
- ``("placed_at", card)``: a :class:`PlacedAt`, the last time the card was
  placed on a card: that card, where it was then, and the placing's number;
- ``PLACE_IDS``, ``LIVE_SET_ASIDES``: the ids of the place records, and of the
  set-aside records that are not finished yet;
- ``NEXT_ID``, ``NEXT_PLACING``: the next record id, the next placing number.

A record names a card as an object (:class:`~cardzones.kernel.objects.ObjRef`),
never by its physical number alone: a new object is a new thing (3.0.9), and
an effect follows an object only while it is public (3.0.9a, 3.0.9b), so a
card that went where no one could follow it and came back is not the card a
record is about. A card keeps its object through every public zone, in play
or out of it (zones.py), so a record follows it there. Only a placed card's
own number is kept, under ``("placed_at", card)``, for where that card is
now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from cardzones.kernel.objects import ObjRef

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

ON = "on"  #: placed on a card
IN = "in"  #: placed in a zone, as an ordinary card of it

PLACE = "place"
SET_ASIDE = "set_aside"
MOVE = "move"

NEXT_ID = "next_record"
NEXT_PLACING = "next_placing"
PLACE_IDS = "place_ids"
LIVE_SET_ASIDES = "live_set_asides"


class Loc(NamedTuple):
    """Where a card was placed: on a card (``ON``, ``ref`` is that card as
    the object it was then) or in a zone (``IN``, ``ref`` is the zone id)."""

    kind: str
    ref: ObjRef | int


class Ongoing(NamedTuple):
    """An ongoing bonus paired with a place or set-aside ability: ``mods`` on ``card``."""

    card: int
    mods: tuple[tuple[str, int], ...]


class EffectHandle(NamedTuple):
    """Names one effect for ``negate`` and for effect expectations."""

    kind: str  # PLACE | SET_ASIDE | MOVE
    rid: int


class Relocated(NamedTuple):
    """A placed card an effect took away from where it was placed.

    ``card`` is the object the effect made of it, which the effect follows
    only while it stays that public object (3.0.9b); ``was`` is the object id
    it had where it was placed, and ``placement`` that place. ``zone`` and
    ``host`` are where the effect put it, and ``placing`` the placing that put
    it on ``host`` (see :class:`PlacedAt`)."""

    card: ObjRef
    was: int
    placement: Loc
    zone: int
    host: ObjRef | None = None
    placing: int | None = None


class PlacedAt(NamedTuple):
    """The last time a card was placed on a card: the card under it, the zone
    that card was in then, and a number of its own for that placing, so that
    a record can tell a card that stayed where it was placed from one that
    left and came back."""

    host: ObjRef
    zone: int
    placing: int


class PlaceRecord(NamedTuple):
    """One use of a place ability: the objects it placed, where each was
    placed (with the placing that put it on a card), and the paired ongoing
    effect (``eid``, on the object ``bonus_oid`` of ``ongoing.card``) if any."""

    rid: int
    cards: tuple[ObjRef, ...]
    locs: tuple[Loc, ...]
    placings: tuple[int | None, ...]
    source: ObjRef | None
    colon: bool
    eid: int | None
    relocated: tuple[Relocated, ...]
    negated: bool = False
    ongoing: Ongoing | None = None
    bonus_oid: int | None = None


class SetAsideRecord(NamedTuple):
    """One use of a set-aside ability.

    ``cards`` are the targets as the objects they are in the set-aside area.
    A target counts as set aside by this ability only while it has stayed
    there since: a card that left, even one that came back as the same card
    through public zones, ends the set-aside for good
    (set-aside/paired-ongoing, set-aside/premature-no-benefit). ``left``
    holds the targets seen to have left, and ``since`` the log position up
    to which that was checked (see ``held.py``); -1, in a record saved
    before it was kept, checks nothing but where the card is.
    ``counted`` is the number of the setter's upkeeps counted so far;
    ``relocated`` the placed cards it took from where they were placed, which
    go back there if it is negated (place/return-conditions).
    """

    rid: int
    by: str
    cards: tuple[ObjRef, ...]
    duration: int | None
    start_turn: int
    counted: int = 0
    enhancement: ObjRef | None = None
    area: int | None = None
    in_battle: bool = False
    eid: int | None = None
    negated: bool = False
    done: bool = False
    relocated: tuple[Relocated, ...] = ()
    since: int = -1
    left: tuple[int, ...] = ()

    @property
    def due(self) -> bool:
        """The duration was reached (set-aside/duration-returns)."""
        return self.duration is not None and self.counted >= self.duration


class MoveRecord(NamedTuple):
    """A labelled move or discard, kept so that it can be negated."""

    rid: int
    relocated: tuple[Relocated, ...]
    negated: bool = False


def new_id(game: Game) -> int:
    rid: int = game.records.get(NEXT_ID, 1)
    game.records.put(NEXT_ID, rid + 1)
    return rid


def start(
    game: Game, kind: str, ongoing: Ongoing | None, label: str | None
) -> tuple[EffectHandle, int | None]:
    """A new effect of ``kind`` (PLACE or SET_ASIDE): its handle, and the id of
    the ongoing bonus paired with it (place/paired-ability,
    set-aside/paired-ongoing), started now, or None without one."""
    handle = EffectHandle(kind, new_id(game))
    if ongoing is None:
        return handle, None
    return handle, bonus(game, ongoing, handle, label)


def bonus(game: Game, ongoing: Ongoing, handle: EffectHandle, label: str | None = None) -> int:
    """Start the bonus of an ongoing ability on its card's object now. It is
    on that object alone (3.0.9): it goes with the card through every public
    zone, and a card that becomes a new object, after a hand or face down,
    comes back without it, whichever card it is. While the object lasts, the
    bonus applies exactly while its ability's condition holds (the rule
    set's ``effect_active``)."""
    return game.add_effect(
        ongoing.card, "ongoing", mods=ongoing.mods, bound=True, label=label, data=handle
    )


def new_placing(game: Game) -> int:
    """A number for one placing of a card on a card (:class:`PlacedAt`)."""
    n: int = game.records.get(NEXT_PLACING, 1)
    game.records.put(NEXT_PLACING, n + 1)
    return n


def get(game: Game, kind: str, rid: int) -> Any:
    return game.records.get((kind, rid))


def put(game: Game, kind: str, rid: int, record: Any) -> None:
    game.records.put((kind, rid), record)


def ids(game: Game, key: str) -> tuple[int, ...]:
    found: tuple[int, ...] = game.records.get(key, ())
    return found


def add_id(game: Game, key: str, rid: int) -> None:
    game.records.put(key, (*ids(game, key), rid))


def drop_id(game: Game, key: str, rid: int) -> None:
    game.records.put(key, tuple(i for i in ids(game, key) if i != rid))
