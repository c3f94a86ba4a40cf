"""Place abilities (the Place rules text, ids ``place/...``).

A card placed *on* a card is a kernel kid of that card with ``rel=PLACED``: it
is in its host's zone and goes wherever the host is relocated
(place/movement-follows-underlying), except as the two exceptions say. A card
placed *in* a zone is an ordinary card of that zone.

>>> from cardzones import new_game
>>> game = new_game("redemption")
>>> territory = game.zone("alice", "territory")
>>> gideon = game.new_card(game.card_def("Gideon"), territory)
>>> trumpet = game.new_card(game.card_def("Trumpet"), territory)
>>> result, handle = place(game, [trumpet], by="alice", onto=gideon)
>>> result.value, game.host(trumpet) == gideon
('moved', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardzones.errors import IllegalAction, NeedsChoice
from cardzones.kernel.cards import Dest, Position
from cardzones.kernel.naming import name_for
from cardzones.kernel.objects import PLACED, UNDER, Obj, ObjRef
from cardzones.kernel.results import MoveResult
from cardzones.rulesets.redemption import records
from cardzones.rulesets.redemption.cards import is_lost_soul, is_site
from cardzones.rulesets.redemption.records import (
    IN,
    ON,
    PLACE,
    PLACE_IDS,
    EffectHandle,
    Loc,
    Ongoing,
    PlacedAt,
    PlaceRecord,
    Relocated,
)
from cardzones.rulesets.redemption.zones import DISCARD, HAND, LAND_OF_BONDAGE

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


# ----------------------------------------------------------------------
# Where a card is placed
# ----------------------------------------------------------------------


def at(game: Game, card: ObjRef, loc: Loc, placing: int | None = None) -> bool:
    """Whether the placed object is where ``loc`` says: on that card, or in
    that zone as an ordinary card of it.

    The object is the one that was placed: a card that became a new object
    since, even one that came back, is not it (3.0.9). On a card, it is there
    while it has stayed on it since ``placing`` put it there, or when it is
    on it again and that card is still the public object it was placed on:
    a card under it that was, or has been, private is one no one could
    follow, so coming back to it cannot be told from coming to another."""
    obj = game.referent(card)
    if obj is None:
        return False
    if loc.kind == ON:
        assert isinstance(loc.ref, ObjRef)
        if obj.host != loc.ref.card or obj.rel != PLACED:
            return False
        return stayed(game, card.card, placing) or game.referent(loc.ref) is not None
    return obj.zone == loc.ref and obj.host is None


def stayed(game: Game, card: int, placing: int | None) -> bool:
    """Whether ``card`` is still placed by ``placing``: not placed again since."""
    now: PlacedAt | None = game.records.get(("placed_at", card))
    return placing is not None and now is not None and now.placing == placing


def placing_of(game: Game, card: int) -> int | None:
    """The number of the placing that put ``card`` on the card it is on, if any."""
    now: PlacedAt | None = game.records.get(("placed_at", card))
    return None if now is None else now.placing


def current_placement(game: Game, card: int) -> Loc | None:
    """Where the card is placed now, or None when it is not a placed card: on the
    card it lies on, or in a zone a place ability put it in and it has not left."""
    obj = game.obj(card)
    if obj.host is not None and obj.rel == PLACED:
        return Loc(ON, game.ref(obj.host))
    named = game.ref(card)
    for rid in reversed(records.ids(game, PLACE_IDS)):
        rec: PlaceRecord = records.get(game, PLACE, rid)
        for placed, loc in zip(rec.cards, rec.locs, strict=True):
            if placed == named and loc.kind == IN and at(game, placed, loc):
                return loc
    return None


def relocated_from(game: Game, card: int, was: Obj, placement: Loc) -> Relocated:
    """The record of an effect that took ``card`` from ``placement``, where it
    was the object ``was``, to where it is now."""
    obj = game.obj(card)
    host = None if obj.host is None else game.ref(obj.host)
    placing = None if obj.host is None else placing_of(game, card)
    return Relocated(game.ref(card), was.oid, placement, obj.zone, host, placing)


def place_holds(game: Game, rec: PlaceRecord) -> bool:
    """The condition of a place ability's paired ongoing ability: every placed
    card is still where it was placed (place/implied-condition), or with a colon,
    the source is (place/colon-reading). It holds again when a card comes back
    (place/return-conditions)."""
    if rec.negated:
        return False
    entries = zip(rec.cards, rec.locs, rec.placings, strict=True)
    if rec.colon and rec.source is not None:
        return any(at(game, c, loc, p) for c, loc, p in entries if c == rec.source)
    return all(at(game, c, loc, p) for c, loc, p in entries)


# ----------------------------------------------------------------------
# Negated relocations: a placed card goes back where it was placed
# ----------------------------------------------------------------------


def still_where_put(game: Game, entry: Relocated) -> bool:
    """Whether the relocated card is still where the effect put it, as the
    object the effect made: on the same card, wherever that card is now, or
    in the same zone and on no card. A card the effect made private, or that
    became a new object since, is not (3.0.9b)."""
    obj = game.referent(entry.card)
    if obj is None:
        return False
    if entry.host is None:
        return obj.host is None and obj.zone == entry.zone
    if obj.host != entry.host.card or obj.rel != PLACED:
        return False
    return stayed(game, entry.card.card, entry.placing) or game.referent(entry.host) is not None


def put_back(game: Game, entry: Relocated, by: str) -> bool:
    """Return a relocated card to where it was placed, once the effect that
    relocated it is negated (place/return-conditions): if it is still where
    that effect put it, and that place is still there (a zone that exists, or
    the card it was on, still the public object it was). Returns whether it
    went back.

    To every record, the card that goes back is the object it was where it
    was placed: its place abilities hold again, and so does a bonus on it."""
    if not still_where_put(game, entry):
        return False
    card = entry.card.card
    if entry.placement.kind == IN:
        assert isinstance(entry.placement.ref, int)
        if not game.zone_exists(entry.placement.ref):
            return False
        game.move(card, entry.placement.ref, face="up", by=by)
    else:
        assert isinstance(entry.placement.ref, ObjRef)
        host = game.referent(entry.placement.ref)
        if host is None:
            return False
        attach_placed(game, card, host.card, by)
    _renamed(game, card, entry.was)
    return True


def _renamed(game: Game, card: int, was: int) -> None:
    """``card``, the object ``was`` before an effect took it away, is back
    where it was placed: every record that named that object names the
    object it is now, and a bonus that was on it is on it again."""
    if game.obj(card).oid == was:
        return
    old, new = ObjRef(card, was), game.ref(card)
    for key, value in game.records.items():
        renamed = _rename(value, old, new)
        if renamed is not value:
            game.records.put(key, renamed)
    for rid in records.ids(game, PLACE_IDS):
        rec: PlaceRecord = records.get(game, PLACE, rid)
        if (
            rec.ongoing is not None
            and rec.ongoing.card == card
            and rec.bonus_oid == was
            and not rec.negated
        ):
            eid = records.bonus(game, rec.ongoing, EffectHandle(PLACE, rid))
            rec = rec._replace(eid=eid, bonus_oid=game.obj(card).oid)
            records.put(game, PLACE, rid, rec)


def _rename(value: Any, old: ObjRef, new: ObjRef) -> Any:
    """``value`` with every ``old`` in it replaced by ``new``; the same value
    when there is none."""
    if isinstance(value, ObjRef):
        return new if value == old else value
    if isinstance(value, tuple):
        items = [_rename(v, old, new) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    return value


# ----------------------------------------------------------------------
# Placed cards follow their host
# ----------------------------------------------------------------------


def attach_placed(
    game: Game, card: int, host: int, by: str, position: Position = "top"
) -> MoveResult:
    """Put ``card`` on ``host`` as a placed card, face up (place/default-face-up).
    The cards placed on ``card`` come with it (:func:`carry_placed`). Each
    placing gets a number of its own (:class:`PlacedAt`); a card that was
    already there keeps the one it has."""
    result = game.attach(card, host, PLACED, position=position, by=by, public=True)
    now: PlacedAt | None = game.records.get(("placed_at", card))
    if result is MoveResult.MOVED or now is None or now.host.card != host:
        placed = PlacedAt(game.ref(host), game.obj(host).zone, records.new_placing(game))
        game.records.put(("placed_at", card), placed)
    return result


def carry_placed(game: Game, before: Obj, after: Obj, reset: bool) -> None:
    """The host moved from ``before`` to ``after``: its placed cards go to the same
    zone and stay on it (place/movement-follows-underlying), except that a Lost
    Soul placed in a site goes to its controller's Land of Bondage
    (place/movement-exception-sites), and a card on a Lost Soul that left its
    original Land of Bondage is discarded (place/movement-exception-lost-soul)."""
    # What the host and each card on it are, as the rules know them: a private
    # card has no type (3.0.7a), so a face-down site keeps its Lost Souls and a
    # face-down Lost Soul keeps its cards, whatever the cards are.
    host = game.characteristics(before)
    for kid in tuple(game.kids(before.card)):
        kobj = game.obj(kid)
        if kobj.rel == UNDER:
            game.carry(kid, after)
        elif is_site(host) and is_lost_soul(game.characteristics(kobj)):
            keeper = kobj.controller or kobj.owner
            game.move(kid, Dest(LAND_OF_BONDAGE, keeper), cause="rule")
        elif is_lost_soul(host) and _left_original_land(game, kid, before, after):
            game.move(kid, Dest(DISCARD, "owner"), cause="rule")
        elif after.zone == before.zone and not reset and kobj.public == after.public:
            # Relocated with its host within one zone (placed on a card there),
            # it changes nothing of its own, but is relocated: so are the cards
            # on it, and the exceptions apply to them.
            carry_placed(game, kobj, kobj, False)
        else:
            # It shares its host's visibility there, and becomes a new object
            # when the host did or when it turns private.
            game.carry(kid, after, reset=reset)


def foresee_carried(game: Game, before: Obj) -> bool | None:
    """What :func:`carry_placed` gives, judged: True when every card under or
    on ``before`` simply goes along with it (place/movement-follows-underlying);
    None where an exception may move one elsewhere (a site's Lost Soul, a card
    on a Lost Soul), or where a card on it has cards of its own."""
    host = game.characteristics(before)
    if is_site(host) or is_lost_soul(host):
        return None
    kids = game.kids(before.card)
    return None if any(game.kids(kid) for kid in kids) else True


def _left_original_land(game: Game, kid: int, before: Obj, after: Obj) -> bool:
    """Whether the Lost Soul is now outside the Land of Bondage it was in when
    ``kid`` was placed on it. A card placed at setup has no record: the soul is
    taken to have been where it is now. A soul that was in no Land of Bondage
    then has no original Land of Bondage, and its cards follow it."""
    placed: PlacedAt | None = game.records.get(("placed_at", kid))
    original = (
        placed.zone if placed is not None and placed.host.card == before.card else before.zone
    )
    if game.zone_info(original).type != LAND_OF_BONDAGE:
        return False
    return after.zone != original


# ----------------------------------------------------------------------
# The place action
# ----------------------------------------------------------------------


def place(
    game: Game,
    cards: Sequence[int],
    *,
    by: str,
    onto: int | None = None,
    into: Dest | int | None = None,
    position: Position = "top",
    source: int | None = None,
    order: Sequence[int] | None = None,
    ongoing: Ongoing | None = None,
    colon: bool = False,
    label: str | None = None,
) -> tuple[MoveResult, EffectHandle]:
    """Place ``cards`` onto a card (``onto``) or in a zone (``into``).

    The targets must be in play, except the ``source`` card itself, which may
    come from its owner's hand (place/default-targets-in-play). ``order`` lists
    the cards top first; it is needed when several go to an ordered location
    (place/order-choice). ``ongoing`` is the paired ability, active while its
    condition holds (see :func:`place_holds`). Refused, it changes nothing.
    Returns what happened and a handle for ``negate``.
    """
    try:
        with game.atomic():
            return _place(
                game, tuple(cards), by, onto, into, position, source, order, ongoing, colon, label
            )
    except _Failed:
        return MoveResult.FAILED, EffectHandle(PLACE, 0)


def _place(
    game: Game,
    cards: tuple[int, ...],
    by: str,
    onto: int | None,
    into: Dest | int | None,
    position: Position,
    source: int | None,
    order: Sequence[int] | None,
    ongoing: Ongoing | None,
    colon: bool,
    label: str | None,
) -> tuple[MoveResult, EffectHandle]:
    if (onto is None) == (into is None):
        raise IllegalAction(
            "a place ability puts cards onto a card or in a zone: give exactly one of onto and in",
            rule="place/definition",
        )
    if not cards or len(set(cards)) != len(cards):
        raise IllegalAction(
            "a place ability needs distinct cards to place", rule="place/targets-placed-cards"
        )
    for card in cards:
        _check_target(game, card, source, by)
    if colon and (source is None or source not in cards):
        raise IllegalAction(
            "a colon reads 'while this card remains placed': the source must "
            "be one of the placed cards",
            rule="place/colon-reading",
        )
    if onto is not None:
        _check_host(game, onto, cards, by)
        locs = tuple(Loc(ON, game.ref(onto)) for _ in cards)
        ordered = len(cards) > 1
    else:
        assert into is not None
        locs = tuple(Loc(IN, _zone_for(game, card, into, by)) for card in cards)
        ordered = any(
            game.zone_info(_zone_of(loc)).spec.ordered and locs.count(loc) > 1 for loc in set(locs)
        )
    sequence = _order(game, cards, order, ordered, by)
    before = {card: (current_placement(game, card), game.obj(card)) for card in cards}
    where = dict(zip(cards, locs, strict=True))

    results = []
    # Cards going to one location are put there one at a time so that they lie
    # as the sequence says, top first.
    for loc in dict.fromkeys(locs):
        group = tuple(card for card in sequence if where[card] == loc)
        for card, pos in _positions(group, position):
            if loc.kind == ON:
                assert onto is not None
                results.append(attach_placed(game, card, onto, by, pos))
            else:
                results.append(game.move(card, _zone_of(loc), position=pos, face="up", by=by))
    if MoveResult.FAILED in results:
        raise _Failed()

    relocated = []
    for card, loc in zip(cards, locs, strict=True):
        was, obj = before[card]
        if was is not None and was != loc:
            relocated.append(relocated_from(game, card, obj, was))
    handle, eid = records.start(game, PLACE, ongoing, label)
    rid = handle.rid
    rec = PlaceRecord(
        rid,
        tuple(game.ref(card) for card in cards),
        locs,
        tuple(placing_of(game, card) if loc.kind == ON else None for card, loc in where.items()),
        None if source is None or source not in cards else game.ref(source),
        colon,
        eid,
        tuple(relocated),
        ongoing=ongoing,
        bonus_oid=None if ongoing is None else game.obj(ongoing.card).oid,
    )
    records.put(game, PLACE, rid, rec)
    records.add_id(game, PLACE_IDS, rid)
    return (MoveResult.MOVED if MoveResult.MOVED in results else MoveResult.NO_MOVE), handle


def _zone_of(loc: Loc) -> int:
    assert isinstance(loc.ref, int)
    return loc.ref


class _Failed(IllegalAction):
    """Internal: a card could not go where it was to be placed, so the whole
    place ability fails and, like any failed effect, leaves no trace."""

    def __init__(self) -> None:
        super().__init__("the place ability fails")


def _zone_for(game: Game, card: int, into: Dest | int, by: str) -> int:
    """The zone a card is placed in; ``owner.TYPE`` names each card's owner's zone."""
    zid = into if isinstance(into, int) else game.resolve_destination(game.obj(card), into, by)
    if zid is None or not game.zone_exists(zid):
        raise IllegalAction(
            f"there is no {into} zone to place the cards in", rule="place/definition"
        )
    return zid


def _check_target(game: Game, card: int, source: int | None, by: str) -> None:
    obj = game.obj(card)
    if game.in_play(card):
        return
    info = game.zone_info(obj.zone)
    if card == source and info.type == HAND and info.owner == obj.owner and obj.host is None:
        return  # the source may be placed from its owner's hand
    raise IllegalAction(
        f"cannot place {name_for(game, by, card)}: it is in {game.zone_name(obj.zone)}, and "
        "the targets of a "
        "place ability must be in play (territory, Land of Bondage, field of battle)",
        rule="place/default-targets-in-play",
    )


def _check_host(game: Game, host: int, cards: tuple[int, ...], by: str) -> None:
    """A card cannot be placed on itself, or on a card that lies on it."""
    current: int | None = host
    while current is not None:
        if current in cards:
            raise IllegalAction(
                f"cannot place {name_for(game, by, current)} on itself or on a card placed on it",
                rule="place/definition",
            )
        current = game.obj(current).host


def _order(
    game: Game, cards: tuple[int, ...], order: Sequence[int] | None, needed: bool, by: str
) -> tuple[int, ...]:
    """The cards top first, as the placing player chose (place/order-choice).
    The options name each card as the placing player may know it."""
    if order is None:
        if needed:
            raise NeedsChoice(
                "order",
                [name_for(game, by, c) for c in cards],
                what="the order of the placed cards, top first",
                rule="place/order-choice",
            )
        return cards
    if sorted(order) != sorted(cards):
        raise IllegalAction(
            "order must list exactly the placed cards, top first", rule="place/order-choice"
        )
    return tuple(order)


def _positions(sequence: tuple[int, ...], position: Position) -> list[tuple[int, Position]]:
    """Where to put each card, one at a time, so that they lie as ``sequence``
    says, top first, starting at ``position``."""
    if position == "top":
        return [(card, "top") for card in reversed(sequence)]
    if position == "bottom":
        return [(card, "bottom") for card in sequence]
    return [(card, int(position) + i) for i, card in enumerate(sequence)]
