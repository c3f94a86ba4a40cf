"""Where an event of the log went or came from, as an event filter names it
(``from:``, ``to:``): a zone, a zone type for every player, ``arena`` for
any arena zone, or a pile on a card (a player's soul, under their hero)."""

from __future__ import annotations

from collections.abc import Callable

from cardzones.kernel.events import Event
from cardzones.kernel.objects import UNDER
from cardzones.position.context import Context
from cardzones.position.loader import YMap
from cardzones.position.refs import ZoneRef, parse_zone


def zone_matcher(ctx: Context, flt: YMap, key: str, attr: str) -> Callable[[Event], bool]:
    """The test of an event's ``attr`` (``src`` or ``dst``) that the filter's
    ``key`` asks for."""
    value = flt[key]
    ref = parse_zone(value)
    game = ctx.game
    if ref is None:
        raise ctx.fail(flt, key, f"{value!r} is not a zone or zone type")
    if ref.type == "arena" and ref.owner is None:

        def in_arena(e: Event) -> bool:
            zid = getattr(e, attr)
            return zid is not None and game.zone_info(zid).spec.in_arena

        return in_arena
    if ref.owner is None and ref.number is None:
        if ref.type not in ctx.zone_types:
            raise ctx.fail(flt, key, f"unknown zone type {ref.type!r}")

        def of_type(e: Event) -> bool:
            zid = getattr(e, attr)
            return zid is not None and game.zone_info(zid).type == ref.type

        return of_type
    named = ctx.zone_ref(flt, key)
    if ctx.is_pile(named):
        return _pile_matcher(ctx, flt, key, named, attr)
    zid = ctx.zone_id(named, flt, key)
    if zid is None:
        # A filter that could match nothing would make any count of 0 hold.
        raise ctx.fail(
            flt,
            key,
            f"{key}: {value} names no zone now: an event filter names a zone as it exists "
            "at this step, numbered as it is now (3.0.10)",
        )
    return lambda e: getattr(e, attr) == zid


def _pile_matcher(
    ctx: Context, flt: YMap, key: str, ref: ZoneRef, attr: str
) -> Callable[[Event], bool]:
    """A card that went under (or onto) the card whose pile ``ref`` names, a
    player's soul under their hero (``to:``), or that left that pile
    (``from:``); the pile's card as it is at this step."""
    game = ctx.game
    host = ctx.pile_host(ref, flt, key)
    zid = game.obj(host).zone
    rel = game.ruleset.piles[ref.type]
    if attr == "dst":
        note = "under" if rel == UNDER else "placed"
        return lambda e: e.dst == zid and e.card != host and e.note == note
    return lambda e: (
        e.src == zid and e.lki is not None and e.lki.obj.host == host and e.lki.obj.rel == rel
    )
