"""Where each card lies: the contents of zones, the piles of cards under or on
a card, and the list of zones. These are the kernel's own low-level writes,
each one journaled; every change of zone that uses them is made by the move
pipeline (pipeline.py) or by attaching (attached.py), never directly."""

from __future__ import annotations

import json

from cardzones.kernel.cards import CardDef, Position
from cardzones.kernel.objects import UNDER, Obj
from cardzones.kernel.ruleset import GameState
from cardzones.kernel.state import CONTENTS, KIDS, OBJS


def _insert(game: GameState, zid: int, card: int, position: Position) -> None:
    """Put a card into a zone's contents at ``position``."""
    contents = game._contents
    current = contents[zid]
    # Tuple concatenation is about twice as fast as unpacking, hence the noqa.
    if position == "top":
        # Only an ordered zone has a top; elsewhere the order is arrival order.
        ordered = game._zinfo[zid].spec.ordered
        new = (card,) + current if ordered else current + (card,)  # noqa: RUF005
    elif position == "bottom":
        new = current + (card,)  # noqa: RUF005
    else:
        i = max(0, min(int(position), len(current)))
        new = current[:i] + (card,) + current[i:]  # noqa: RUF005
    game._journal = (CONTENTS, zid, current, game._journal)  # an inlined _put
    contents[zid] = new


def _detach(game: GameState, obj: Obj) -> None:
    """Take an object out of its zone, or off the card it is under or on."""
    card = obj.card
    if obj.host is None:
        contents = game._contents
        zid = obj.zone
        current = contents[zid]
        i = current.index(card)
        game._journal = (CONTENTS, zid, current, game._journal)  # an inlined _put
        contents[zid] = current[1:] if i == 0 else current[:i] + current[i + 1 :]
    else:
        rest = tuple(k for k in game._kids[obj.host] if k != card)
        if rest:
            game._put(KIDS, obj.host, rest)
        else:
            game._pop(KIDS, obj.host)


def _attach_record(game: GameState, card: int, host: int, rel: int, position: Position) -> None:
    """Record ``card`` as under or on ``host`` (``rel``), at ``position`` in its
    pile; a sub-card (``UNDER``) at its place in :func:`pile_key` order instead.

    Sub-cards are a collection (3.0.14, 3.11.5), and a card may become one out
    of sight (under a private top-card, 3.0.14d): kept in the order they
    arrived, the pile would tell, once its cards are revealed together (the
    top-card turned face up, moved, or gone, and its pile with it), which
    hidden arrival brought which card. So a sub-card goes after every sub-card
    of the pile that comes before it or is equal in :func:`pile_key` order,
    which depends on the printed card alone."""
    obj: Obj = game._objs[card]
    game._put(OBJS, card, obj._replace(host=host, rel=rel))
    pile = game._kids.get(host, ())
    if rel == UNDER:
        objs = game._objs
        key = pile_key(obj.cdef)
        # A count, not a search: the rest of the pile is in this order too,
        # except where a test has traded two cards' places.
        i = sum(1 for k in pile if objs[k].rel != UNDER or pile_key(objs[k].cdef) <= key)
        pile = (*pile[:i], card, *pile[i:])
    elif position == "bottom":
        pile = (*pile, card)
    elif position == "top":
        pile = (card, *pile)
    else:
        i = max(0, min(int(position), len(pile)))
        pile = (*pile[:i], card, *pile[i:])
    game._put(KIDS, host, pile)


#: Pile keys by the identity of their card: (card, key). A card is immutable.
_PILE_KEYS: dict[int, tuple[CardDef, tuple[str, str]]] = {}


def pile_key(cdef: CardDef) -> tuple[str, str]:
    """The order of sub-cards in a pile (:func:`_attach_record`): by the
    printed card, its name first. Cards that are alike here are alike to
    every player once revealed, so their order among themselves tells
    nothing.

    >>> pile_key(CardDef("Snatch", frozenset({"action"}))) < pile_key(CardDef("Tome"))
    True
    """
    hit = _PILE_KEYS.get(id(cdef))
    if hit is not None and hit[0] is cdef:
        return hit[1]
    key = (cdef.name, json.dumps(cdef.to_json(), sort_keys=True))
    if len(_PILE_KEYS) >= 4096:
        _PILE_KEYS.pop(next(iter(_PILE_KEYS)))
    _PILE_KEYS[id(cdef)] = (cdef, key)
    return key


def _layout(game: GameState) -> tuple[int, ...]:
    """Every existing zone: shared ones first, then each player's, in spec order."""
    # Zones are made and removed rarely (3.0.10) and listed on every view, so
    # the list is kept in the state, where undo restores it with the rest.
    out: list[int] = []
    specs = game.ruleset.zone_specs.values()
    for spec in specs:
        if spec.shared:
            out.extend(game._zones.get((None, spec.type), ()))
    for player in game.players:
        for spec in specs:
            if not spec.shared:
                out.extend(game._zones.get((player, spec.type), ()))
    return tuple(out)
