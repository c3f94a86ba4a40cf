"""Player views and redacted logs: the only things that leave the engine.

A view shows one player (or a spectator, ``None``) every zone. Each object is
shown with its properties when that player may look at it (3.0.3a), or as
``{"hidden": true}`` with nothing else: no name, no id, and no place in an
unordered zone beyond what every viewer sees. The target property is
non-interference: two games that differ only in what a player may not see give
that player identical views and identical logs (tests/test_noninterference.py).

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
>>> zone = next(z for z in view(game, "bob")["zones"] if z["zone"] == "alice.hand")
>>> zone["objects"]
[{'hidden': True}]
>>> next(z for z in view(game, "alice")["zones"] if z["zone"] == "alice.hand")["count"]
1

Only :func:`omniscient_view` and :func:`omniscient_log` show hidden cards. They
are for a scenario's author and are secret-bearing, like the game itself.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, NamedTuple

from cardzones.codec import canonical
from cardzones.errors import UnknownReference
from cardzones.kernel import queries
from cardzones.kernel.cards import CardDef
from cardzones.kernel.handles import _handle_for, _Summary, _summary
from cardzones.kernel.naming import name_for as name_for  # where it was first defined
from cardzones.kernel.objects import PLACED, Obj
from cardzones.kernel.ruleset import GameState

HIDDEN: dict[str, Any] = {"hidden": True}


def _props(game: GameState, card: int, obj: Obj, layout: Any = None) -> dict[str, Any]:
    """The properties of an object its viewer may look at, as a new dict.

    Without effects on the card they depend on the immutable record and on the
    zone layout (an equipped object names its zones, which 3.0.10 renumbers)
    alone, so they are built once per record and layout and copied. Sequences
    in them are tuples, which serialise as JSON arrays.
    """
    if card in game._fx_by_card:
        return _fresh_props(game, card, obj)
    if layout is None:
        layout = game._vars["layout"]
    cached = game._shown.get(card)
    if cached is None or cached[0] is not obj or cached[1] is not layout:
        cached = game._shown[card] = (obj, layout, _fresh_props(game, card, obj))
    # A new dict each time, so the caller may change its view freely; the values
    # in it are immutable.
    return cached[2].copy()


def _fresh_props(game: GameState, card: int, obj: Obj) -> dict[str, Any]:
    out: dict[str, Any] = {"id": game.handle(card)}
    out.update(_printed(obj.cdef))
    if card in game._fx_by_card:
        # Effects change what is printed; without them, the printed card is all.
        for name in obj.cdef.stats:
            out[name] = queries.stat(game, card, name)
        for effect in queries.effects_on(game, card):
            for key, _ in effect.mods:
                out[key] = queries.stat(game, card, key)
        keywords = queries.keywords(game, card)
        if keywords:
            out["keywords"] = sorted(keywords)
        if counters := queries.counters(game, card):
            out["counters"] = counters  # made anew for each view
    out["public"] = obj.public
    out["owner"] = obj.owner
    if obj.controller is not None:
        out["controller"] = obj.controller
    if obj.kind != "card":
        out["kind"] = obj.kind
    if obj.equipped:
        out["equipped_to"] = tuple(queries.zone_name(game, z) for z in obj.equipped)
    # Sequences are tuples: JSON arrays all the same, and immutable, so a cached
    # description can be handed out without copying them.
    for key, value in out.items():
        if value.__class__ is list:
            out[key] = tuple(value)
    return out


#: Printed descriptions by the identity of their card: (card, description).
#: A card is immutable, so its description is made once; the dict is never
#: handed out, only copied from.
_PRINTED: dict[int, tuple[CardDef, dict[str, Any]]] = {}
_PRINTED_LIMIT = 4096


def _printed(cdef: CardDef) -> dict[str, Any]:
    hit = _PRINTED.get(id(cdef))
    if hit is not None and hit[0] is cdef:
        return hit[1]
    out = {k: tuple(v) if v.__class__ is list else v for k, v in cdef.to_json().items()}
    if len(_PRINTED) >= _PRINTED_LIMIT:
        _PRINTED.pop(next(iter(_PRINTED)))
    _PRINTED[id(cdef)] = (cdef, out)
    return out


def _show(
    game: GameState,
    player: str | None,
    card: int,
    omniscient: bool,
    summary: _Summary | None = None,
) -> dict[str, Any]:
    """One object (and the pile under or on it) as ``player`` may know it."""
    obj: Obj = game._objs[card]
    if omniscient or obj.public or queries.may_look(game, player, card):
        shown = _props(game, card, obj)
        # The author sees a public object by the handle every viewer sees, and
        # a private one by its owner's.
        who = (None if obj.public else obj.owner) if omniscient else player
        handle = _handle_for(game, who, card, obj, summary)
        if handle is not None:
            shown["id"] = handle
    else:
        # Nothing of the object, not even a handle: a handle would let the
        # viewer follow a hidden card through moves and shuffles.
        shown = {"hidden": True}
    if card in game._kids:
        _add_pile(game, player, card, shown, summary or _summary(game), omniscient)
    return shown


def _sort_key(entry: dict[str, Any]) -> tuple[int, str]:
    # In an unordered zone the stored order is how cards arrived, which a
    # player who cannot see them must not learn: show a canonical order. Hidden
    # entries differ only in what is visible about them (their piles), so they
    # are ordered by that, never by where they are stored.
    if entry.get("hidden"):
        # A bare hidden entry (the common case) always has the same canonical form.
        return _HIDDEN_KEY if len(entry) == 1 else (1, canonical(entry))
    return (0, str(entry.get("id")))


_HIDDEN_KEY = (1, canonical(HIDDEN))


#: Visible entries of an unordered zone sort by their handle.
_BY_ID = operator.itemgetter("id")


class _ZoneRow(NamedTuple):
    """What a view needs of one zone that changes only with the layout."""

    zid: int
    info: Any
    header: dict[str, Any]
    ordered: bool
    owner_may_look: bool
    equipment: bool


def _row(game: GameState, zid: int) -> _ZoneRow:
    info = game._zinfo[zid]
    spec = info.spec
    header = {
        "zone": queries.zone_name(game, zid),
        "type": info.type,
        "owner": info.owner,
        "public": spec.public,
        "ordered": spec.ordered,
    }
    return _ZoneRow(zid, info, header, spec.ordered, spec.owner_may_look, spec.equipment)


#: The rows of a layout (``Game.all_zones``), by the identity of the layout
#: tuple, which is replaced whenever a zone is made or removed. A zone's record
#: never changes and its name depends on the layout alone, so one entry serves
#: every game that shares the tuple (copies, and undo back to it).
#: With the rows, each zone's place among them by its name (a view's
#: ``by_name``), which a view copies.
_LAYOUTS: dict[int, tuple[tuple[int, ...], list[_ZoneRow], dict[str, int]]] = {}
_LAYOUT_LIMIT = 2048  # a server's open tables each have their own


def _layout_entry(game: GameState) -> tuple[tuple[int, ...], list[_ZoneRow], dict[str, int]]:
    layout = game._vars["layout"]
    hit = _LAYOUTS.get(id(layout))
    if hit is not None and hit[0] is layout:
        return hit
    rows = [_row(game, zid) for zid in layout]
    if len(_LAYOUTS) >= _LAYOUT_LIMIT:
        _LAYOUTS.pop(next(iter(_LAYOUTS)))
    hit = _LAYOUTS[id(layout)] = (
        layout,
        rows,
        {row.header["zone"]: i for i, row in enumerate(rows)},
    )
    return hit


def _author_zone(game: GameState, row: _ZoneRow, summary: _Summary) -> dict[str, Any]:
    """One zone of the omniscient view, every object shown (a player's
    zones are :func:`_player_zones`)."""
    cards = game._contents.get(row.zid)
    objects = [_show(game, None, c, True, summary) for c in cards] if cards else []
    if not row.ordered:
        objects.sort(key=_sort_key)
    out = row.header.copy()
    out["count"] = len(objects)
    out["objects"] = objects
    if row.equipment:
        out["empty"] = not objects and not queries.equipped_in(game, row.zid)
    return out


#: From how many objects a zone is first checked for being wholly hidden.
_MANY = 8


def _player_zones(
    game: GameState, player: str | None, rows: Sequence[_ZoneRow], summary: _Summary
) -> list[dict[str, Any]]:
    """The entries of ``rows`` for a player (or a spectator), in the order
    the view shows each zone's objects.

    This is :func:`_show` over every zone with :meth:`Game.may_look` (3.0.3a)
    decided once per zone rather than once per object, and the canonical
    order of :func:`_sort_key` built directly; what depends on the game and
    not on the zone is looked up once for the whole view, since a view is
    built many times a second."""
    objs, piles, contents, fx = game._objs, game._kids, game._contents, game._fx_by_card
    layout = game._vars["layout"]
    public_ids, own_ids = summary.public, summary.own
    cache, looks = game._shown, game._vars.get("looks", ())
    out: list[dict[str, Any]] = []
    for zid, info, header, ordered, owner_may_look, equipment in rows:
        zone = header.copy()
        out.append(zone)
        cards = contents.get(zid)
        if not cards:
            zone["count"] = 0
            zone["objects"] = []
            if equipment:
                zone["empty"] = not queries.equipped_in(game, zid)
            continue
        zone["count"] = len(cards)
        # A private object here may be looked at by its owner, or by the zone's
        # owner, unless the zone forbids it and no rule or effect lets them (3.7.4).
        may_look_private = player is not None and (owner_may_look or (player, zid) in looks)
        zone_owner_looks = may_look_private and player == info.owner
        if len(cards) > _MANY and not zone_owner_looks:
            for card in cards:
                obj: Obj = objs[card]
                if obj.public or (may_look_private and player == obj.owner) or card in piles:
                    break
            else:
                # Every object is hidden and none has a pile (a deck, an
                # opponent's hand): one bare entry each, whatever the cards are.
                zone["objects"] = [{"hidden": True} for _ in cards]
                if equipment:
                    zone["empty"] = False
                continue
        objects: list[dict[str, Any]] = []
        hidden: list[dict[str, Any]] = []
        hidden_piles = False
        for card in cards:
            obj = objs[card]
            if obj.public or zone_owner_looks or (may_look_private and player == obj.owner):
                # Without effects on the card, a description is a copy of the one
                # cached for its record and layout (_props, inlined).
                cached = cache.get(card)
                if (
                    cached is not None
                    and cached[0] is obj
                    and cached[1] is layout
                    and not (fx and card in fx)
                ):
                    shown = cached[2].copy()
                else:
                    shown = _props(game, card, obj, layout)
                if obj.public:
                    handle = public_ids.get(card)
                elif player == obj.owner:
                    handle = own_ids.get(card)
                else:
                    handle = _handle_for(game, player, card, obj, summary)
                if handle is not None:
                    shown["id"] = handle
                objects.append(shown)
            else:
                shown = {"hidden": True}
                if ordered:
                    objects.append(shown)
                else:
                    hidden.append(shown)
                    hidden_piles = hidden_piles or card in piles
            if card in piles:
                _add_pile(game, player, card, shown, summary)
        if not ordered:
            # Unordered: the canonical order of _sort_key, public entries by id,
            # then the hidden ones, which differ only in their piles.
            if len(objects) > 1:
                objects.sort(key=_BY_ID)
            if hidden:
                if hidden_piles:
                    hidden.sort(key=_sort_key)
                objects.extend(hidden)
        zone["objects"] = objects
        if equipment:
            zone["empty"] = False
    return out


def _add_pile(
    game: GameState,
    player: str | None,
    card: int,
    shown: dict[str, Any],
    summary: _Summary,
    omniscient: bool = False,
) -> None:
    """The cards under or on ``card``, in its entry ``shown``: each decided by
    3.0.3a on its own record (the author, ``omniscient``, sees every one) and
    described as the objects of :func:`_player_zones` are."""
    # Cards placed on a card lie in the order they were placed, which every
    # player watched (each is placed face up), so it is kept. Sub-cards are a
    # collection (3.0.14, 3.11.5) that may have been built out of sight (under
    # a private top-card, 3.0.14d): they are listed as an unordered zone is.
    objs = game._objs
    under: list[dict[str, Any]] = []
    placed: list[dict[str, Any]] = []
    for kid in game._kids[card]:
        # Each one as an object of a zone is (3.0.3a, 3.7.4), its own pile with it.
        (placed if objs[kid].rel == PLACED else under).append(
            _show(game, player, kid, omniscient, summary)
        )
    if under:
        under.sort(key=_sort_key)
        shown["under"] = under
    if placed:
        shown["placed"] = placed


#: The version of the view's form (docs/json.md, cardzones/schema/view.schema.json).
VIEW_FORMAT = "cardzones-view/1"


def _board(game: GameState, player: str | None, omniscient: bool, zones: Any) -> dict[str, Any]:
    summary = _summary(game)
    _, rows, by_name = _layout_entry(game)
    out: dict[str, Any] = {
        "format": VIEW_FORMAT,
        "ruleset": game.ruleset.name,
        "viewer": player,
        "players": list(game.players),
        "turn": game.turn,
        "turn_player": game.turn_player,
        "phase": game.phase,
        "zones": (
            [_author_zone(game, row, summary) for row in rows]
            if omniscient
            else _player_zones(game, player, rows, summary)
            if zones is None
            else zones(rows, lambda some: _player_zones(game, player, some, summary))
        ),
        # Each zone's place in ``zones``, by its name: ``zones[by_name["alice.hand"]]``.
        "by_name": by_name.copy(),
    }
    procedure = game.ruleset.procedure_view(game, player)
    if procedure is not None:
        out["procedure"] = procedure
    if omniscient:
        out["omniscient"] = True
    return out


def shown_cards(game: GameState, player: str | None, zid: int) -> list[int]:
    """The top-level cards of a zone in the order ``player``'s view lists them.

    In an ordered zone that is the zone's own order; in an unordered one, the
    objects the player may look at by their handle, then the hidden ones (see
    :func:`_sort_key`). So ``ZONE[i]`` can mean the i-th object the player is
    shown, and never depends on anything the player may not see beyond what
    its view already shows.
    """
    cards = game._contents.get(zid, ())
    if game._zinfo[zid].spec.ordered:
        return list(cards)
    return _in_view_order(game, player, cards)


def shown_pile(game: GameState, player: str | None, card: int) -> list[int]:
    """The cards under or on ``card`` in the order ``player``'s view lists
    them: its sub-cards as an unordered zone's objects (:func:`_add_pile`),
    then the cards placed on it, in the order they were placed."""
    kids = game._kids.get(card, ())
    if not kids:
        return []
    objs = game._objs
    placed = [k for k in kids if objs[k].rel == PLACED]
    under = [k for k in kids if objs[k].rel != PLACED]
    if len(under) > 1:
        under = _in_view_order(game, player, under)
    return under + placed


def _in_view_order(game: GameState, player: str | None, cards: Sequence[int]) -> list[int]:
    """A collection of cards (an unordered zone's, a pile's sub-cards) in the
    order ``player``'s view lists them (:func:`_sort_key`): those the player
    may look at by their handle, then the hidden ones."""
    summary = _summary(game)
    keyed: list[tuple[tuple[int, str], int]] = []
    for card in cards:
        if queries.may_look(game, player, card):  # the key of its entry, {"id": handle}
            keyed.append(((0, _shown_handle(game, player, card, summary)), card))
        else:  # a hidden entry shows only its pile, and is ordered by that
            shown = _show(game, player, card, False, summary) if card in game._kids else HIDDEN
            keyed.append((_sort_key(shown), card))
    keyed.sort(key=operator.itemgetter(0))  # stable: stored order among equals
    return [card for _, card in keyed]


def _shown_handle(game: GameState, player: str | None, card: int, summary: _Summary) -> str:
    """The handle ``player``'s view shows for an object they may look at."""
    obj: Obj = game._objs[card]
    return _handle_for(game, player, card, obj, summary) or game.handle(card)


def card_for_handle(game: GameState, player: str | None, handle: str) -> int:
    """The card that ``player``'s current view shows with the handle ``handle``.

    Only a handle that this viewer's view gives now names a card: a handle of
    another viewer, an old handle, or a made-up one is refused with the same
    :class:`UnknownReference`, whatever card it may once have named, so that the
    refusal tells the viewer nothing.

    >>> from cardzones import new_game
    >>> game = new_game("fab", ["alice", "bob"])
    >>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    >>> handle = next(z for z in view(game, "alice")["zones"] if z["zone"] == "alice.hand")
    >>> card_for_handle(game, "alice", handle["objects"][0]["id"]) == card
    True
    >>> card_for_handle(game, "bob", handle["objects"][0]["id"])
    Traceback (most recent call last):
    ...
    cardzones.errors.UnknownReference: no such card
    """
    summary = _summary(game)
    kids = game._kids
    stack: list[int] = []
    for zid in game._vars["layout"]:
        stack.extend(game._contents.get(zid, ()))
    while stack:
        card = stack.pop()
        if (
            queries.may_look(game, player, card)
            and _shown_handle(game, player, card, summary) == handle
        ):
            return card
        # The pile under or on a card is shown whether or not the card is.
        stack.extend(kids.get(card, ()))
    raise UnknownReference("no such card")


def handle_for(game: GameState, player: str | None, card: int) -> str | None:
    """The handle ``player``'s view shows for the card now, the inverse of
    :func:`card_for_handle`; None when the player may not look at the card
    (their view shows it with no handle).

    >>> from cardzones import new_game
    >>> game = new_game("fab", ["alice", "bob"])
    >>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    >>> card_for_handle(game, "alice", handle_for(game, "alice", card)) == card
    True
    >>> print(handle_for(game, "bob", card))
    None
    """
    if not queries.may_look(game, player, card):
        return None
    return _shown_handle(game, player, card, _summary(game))


def view(game: GameState, player: str | None, zones: Any = None) -> dict[str, Any]:
    """What ``player`` (None: a spectator) may know of the game now, JSON-ready.

    Every name is a player: no player name, ``"*"`` included, means "everything".
    ``zones(rows, make)`` gives the zones, ``make(rows)`` making those of ``rows``
    (each with its ``zid``): a caller's own zones kept since the game last changed.
    """
    if player is not None:
        game.check_player(player)
    return _board(game, player, False, zones)


def omniscient_view(game: GameState) -> dict[str, Any]:
    """Every card, hidden ones included, for a scenario's author. Secret-bearing."""
    return _board(game, None, True, None)
