"""The rule set's own records, kept in the game's journaled ``RULES`` map.

Every record is an immutable tuple, written only through ``game.records``
(the kernel's journaled record store), so undo, rollback and copies of a game
restore them like any other state.

Keys of the ``RULES`` map:

- ``("place", id)``: a :class:`PlaceRecord`, one per place ability used;
- ``("set_aside", id)``: a :class:`SetAsideRecord`, one per set-aside ability;
- ``("move", id)``: a :class:`MoveRecord`, one per labelled relocation;
- ``("placed_at", card)``: a :class:`PlacedAt`, where a placed card's host was
  when the card was placed on it;
- ``PLACE_IDS``, ``LIVE_SET_ASIDES``: the ids of the place records, and of the
  set-aside records that are not finished yet;
- ``NEXT_ID``: the next record id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

ON = "on"  #: placed on a card
IN = "in"  #: placed in a zone, as an ordinary card of it

PLACE = "place"
SET_ASIDE = "set_aside"
MOVE = "move"

NEXT_ID = "next_record"
PLACE_IDS = "place_ids"
LIVE_SET_ASIDES = "live_set_asides"


class Loc(NamedTuple):
    """Where a card was placed: on a card (``ON``, ``ref`` is the host card) or
    in a zone (``IN``, ``ref`` is the zone id)."""

    kind: str
    ref: int


class Ongoing(NamedTuple):
    """An ongoing bonus paired with a place or set-aside ability: ``mods`` on ``card``."""

    card: int
    mods: tuple[tuple[str, int], ...]


class EffectHandle(NamedTuple):
    """Names one effect for ``negate`` and for effect expectations."""

    kind: str  # PLACE | SET_ASIDE | MOVE
    rid: int


class Relocated(NamedTuple):
    """A placed card an effect took away from where it was placed: ``placement``
    is that place, and ``zone`` and ``host`` where the effect put it."""

    card: int
    placement: Loc
    zone: int
    host: int | None


class PlacedAt(NamedTuple):
    """The host a card was placed on, and the zone the host was in then."""

    host: int
    zone: int


class PlaceRecord(NamedTuple):
    """One use of a place ability: the cards, where each was placed, and the
    paired ongoing effect (``eid``) if any."""

    rid: int
    cards: tuple[int, ...]
    locs: tuple[Loc, ...]
    source: int | None
    colon: bool
    eid: int | None
    relocated: tuple[Relocated, ...]
    negated: bool = False


class SetAsideRecord(NamedTuple):
    """One use of a set-aside ability.

    ``oids`` are the objects the targets became in the set-aside area: a target
    still counts as set aside by this ability only while it is that object
    there, so a card that left, even if it came back, ends the set-aside for
    good (set-aside/paired-ongoing, set-aside/premature-no-benefit). ``counted``
    is the number of the setter's upkeeps counted so far.
    """

    rid: int
    by: str
    cards: tuple[int, ...]
    oids: tuple[int, ...]
    duration: int | None
    start_turn: int
    counted: int = 0
    enhancement: int | None = None
    area: int | None = None
    in_battle: bool = False
    eid: int | None = None
    negated: bool = False
    done: bool = False

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
    eid = game.add_effect(
        ongoing.card, "ongoing", mods=ongoing.mods, bound=False, label=label, data=handle
    )
    return handle, eid


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
