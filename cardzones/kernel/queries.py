"""Reading the state: zones, objects, who may look at what (3.0.3a), and the
characteristics of objects with the effects on them.

Every function here reads and none writes. :class:`~cardzones.kernel.game.Game`
has each of them as a method of the same name, which is how they are called:

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> hand = game.zone("alice", "hand")
>>> card = game.new_card(game.card_def("Snatch"), hand)
>>> game.contents(hand) == (card,), game.seen_by(card), game.find(card + 1)
(True, ('alice',), None)
"""

from __future__ import annotations

from collections.abc import Iterable

from cardzones.errors import UnknownReference
from cardzones.kernel.cards import CardDef
from cardzones.kernel.effects import COUNTER, Counters, Effect
from cardzones.kernel.events import Snapshot
from cardzones.kernel.objects import UNDER, Obj, ObjRef
from cardzones.kernel.ruleset import GameState
from cardzones.kernel.zones import ZoneInfo, ZoneSpec

# ----------------------------------------------------------------------
# Zones
# ----------------------------------------------------------------------


def spec(game: GameState, ztype: str) -> ZoneSpec:
    """The rule set's description of a zone type; an unknown type is refused."""
    found = game.ruleset.zone_specs.get(ztype)
    if found is None:
        raise UnknownReference(
            f"unknown zone type {ztype!r} for {game.ruleset.name}; "
            f"types are {' '.join(sorted(game.ruleset.zone_specs))}"
        )
    return found


def zones_of(game: GameState, owner: str | None, ztype: str) -> tuple[int, ...]:
    """The zones of a type a player owns (or the shared ones), in number order."""
    # spec(), inlined for a known type: rule set hooks ask this after every action.
    found = game.ruleset.zone_specs.get(ztype) or spec(game, ztype)
    return game._zones.get((None if found.shared else owner, ztype), ())


def zone(game: GameState, owner: str | None, ztype: str, index: int = 1) -> int | None:
    """The zone id of ``owner``'s ``index``-th zone of ``ztype``, or None if
    it does not exist."""
    zids = zones_of(game, owner, ztype)
    return zids[index - 1] if 1 <= index <= len(zids) else None


def zone_info(game: GameState, zid: int) -> ZoneInfo:
    """The zone's id, type and owner; a removed zone still has its record."""
    return game._zinfo[zid]  # type: ignore[no-any-return]


def zone_exists(game: GameState, zid: int) -> bool:
    """Whether the zone exists now (it was not removed, 3.0.10)."""
    info = game._zinfo.get(zid)
    return info is not None and zid in game._zones.get((info.owner, info.spec.type), ())


def zone_name(game: GameState, zid: int) -> str:
    """The scenario name of a zone: ``alice.hand``, ``alice.weapon.2``, ``stack``."""
    info: ZoneInfo = game._zinfo[zid]
    siblings = game._zones.get((info.owner, info.spec.type), ())
    # Views name every zone every time; the name only changes with the zone's
    # record or with its siblings (3.0.10), both immutable values.
    cached = game._zone_names.get(zid)
    if cached is not None and cached[0] is info and cached[1] is siblings:
        return cached[2]
    base = info.type if info.owner is None else f"{info.owner}.{info.type}"
    if zid not in siblings:
        name = f"{base} (removed)"
    elif info.spec.per_player > 1 or len(siblings) > 1:
        name = f"{base}.{siblings.index(zid) + 1}"
    else:
        name = base
    game._zone_names[zid] = (info, siblings, name)
    return name


def all_zones(game: GameState) -> list[int]:
    """Every existing zone: shared ones first, then each player's, in spec order."""
    return list(game._vars["layout"])


def contents(game: GameState, zid: int) -> tuple[int, ...]:
    """The top-level cards of a zone, top first. Cards under or on them are not
    listed; see :func:`kids`."""
    return game._contents.get(zid, ())


def is_empty(game: GameState, zid: int) -> bool:
    """3.0.1a: no objects (sub-cards included) and no permanent equipped to it."""
    if game._contents.get(zid):
        return False
    return not equipped_in(game, zid)


def equipped_in(game: GameState, zid: int) -> tuple[int, ...]:
    """Cards equipped to ``zid``, including a two-hander that does not occupy it."""
    info: ZoneInfo = game._zinfo[zid]
    if not info.spec.equipment:
        return ()
    out = []
    for other in game._zones.get((info.owner, info.spec.type), ()):
        for card in game._contents.get(other, ()):
            if zid in game._objs[card].equipped:
                out.append(card)
    return tuple(out)


# ----------------------------------------------------------------------
# Objects
# ----------------------------------------------------------------------


def card_def(game: GameState, name: str) -> CardDef:
    """The rule set's default card of that name (a vanilla card)."""
    return game.ruleset.default_card(name)


def find(game: GameState, card: int) -> Obj | None:
    """The card's object now, or None when it does not exist (it ceased, or
    never was)."""
    return game._objs.get(card)


def exists(game: GameState, card: int) -> bool:
    return card in game._objs


def ref(game: GameState, card: int) -> ObjRef:
    """The card's object now, as a record names it: with its object id while
    it is public, and naming nothing while it is private (see :class:`ObjRef`)."""
    found = game.obj(card)
    return ObjRef(card, found.oid if found.public else None)


def referent(game: GameState, named: ObjRef | None) -> Obj | None:
    """The object a reference names, or None: the card is still that object
    and it is public (3.0.9, 3.0.9a, 3.0.9b). A card that became a new object,
    even one that came back where it was, is not the object a record named.

    >>> from cardzones import new_game
    >>> game = new_game("redemption")
    >>> card = game.new_card(game.card_def("Moses"), game.zone("alice", "territory"))
    >>> named = game.ref(card)
    >>> game.referent(named) is game.obj(card)
    True
    >>> _ = game.move(card, game.zone("alice", "hand"))
    >>> _ = game.move(card, game.zone("alice", "territory"))
    >>> game.referent(named) is None
    True
    """
    if named is None or named.oid is None:
        return None
    found: Obj | None = game._objs.get(named.card)
    if found is None or found.oid != named.oid or not found.public:
        return None
    return found


def cards(game: GameState) -> Iterable[int]:
    """Every existing object's card id."""
    return game._objs.keys()


def location(game: GameState, card: int) -> int:
    """The zone of a card; a sub-card or placed card is in its host's zone."""
    return (game._objs.get(card) or game.obj(card)).zone


def kids(game: GameState, card: int) -> tuple[int, ...]:
    """Cards under (sub-cards) or placed on ``card``, top first."""
    return game._kids.get(card, ())


def host(game: GameState, card: int) -> int | None:
    """The card that ``card`` is under or placed on, or None."""
    return (game._objs.get(card) or game.obj(card)).host


def position(game: GameState, card: int) -> int:
    """Index from the top of the card in its zone, or in its host's pile."""
    found = game.obj(card)
    if found.host is not None:
        return game._kids[found.host].index(card)
    return game._contents[found.zone].index(card)


def in_arena(game: GameState, card: int) -> bool:
    """3.1.2a: in an arena zone and not a sub-card."""
    found = game._objs.get(card) or game.obj(card)
    return found.rel != UNDER and game._zinfo[found.zone].spec.in_arena


def in_play(game: GameState, card: int) -> bool:
    """In a zone the rule set calls "in play" (``ZoneSpec.in_play``)."""
    found = game.obj(card)
    return bool(game._zinfo[found.zone].spec.in_play)


def is_public(game: GameState, card: int) -> bool:
    return bool((game._objs.get(card) or game.obj(card)).public)


def is_permanent(game: GameState, card: int) -> bool:
    """Whether the object is a permanent, as the rule set says (1.3.3)."""
    return game.ruleset.is_permanent(game, game._objs.get(card) or game.obj(card))


def may_look(game: GameState, player: str | None, card: int) -> bool:
    """3.0.3a: everyone may look at a public object; a player may look at a
    private object they own, or in a zone they own, unless it is in a deck."""
    found = game._objs.get(card) or game.obj(card)  # obj() refuses a missing card
    return found.public or (player is not None and _may_look_at(game, player, found))


def seen_by(game: GameState, card: int) -> tuple[str, ...]:
    """Exactly the players who may look at the card (3.0.3a)."""
    return tuple(p for p in game.players if may_look(game, p, card))


def characteristics(game: GameState, card: int | Obj, by: str | None = None) -> CardDef:
    """The object's characteristics as the rules may use them: the one door
    through which every rule set hook learns what an object is.

    A public object has its card. A private object has no properties for the
    rules and effects that act on it (3.0.7a): it is the rule set's
    :meth:`~cardzones.kernel.ruleset.Ruleset.private_card`, the same for every
    card that looks alike from the back, so no refusal, result or choice can
    depend on which card it is. The one exception is a player using a private
    card they may look at, given as ``by``: a card they play or activate from
    their hand, say, which they show by using it (3.0.4e: an ability that says
    it works face down).

    ``card`` is a card id, or an object record as a hook holds it (a moving
    object has the visibility it moves with, 3.0.8).

    >>> from cardzones import new_game
    >>> game = new_game("fab", ["alice", "bob"])
    >>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    >>> game.characteristics(card).name, game.characteristics(card, by="alice").name
    ('', 'Snatch')
    """
    found = card if isinstance(card, Obj) else game.obj(card)
    if found.public:
        return found.cdef
    if by is not None and _may_look_at(game, by, found):
        return found.cdef
    return game.ruleset.private_card(found.cdef)


def _may_look_at(game: GameState, player: str, found: Obj) -> bool:
    """3.0.3a for a private object record (see :func:`may_look`)."""
    info: ZoneInfo | None = game._zinfo.get(found.zone)
    if info is None:
        return False
    if not info.spec.owner_may_look:  # unless a rule or effect allows it (3.7.4)
        return (player, found.zone) in game._vars.get("looks", ())
    return player == found.owner or player == info.owner


def may_play(game: GameState, card: int, player: str) -> bool:
    """Whether ``player`` may play the card now, as the rule set says."""
    return game.ruleset.may_play(game, card, player)


# ----------------------------------------------------------------------
# Characteristics
# ----------------------------------------------------------------------


def effects_on(game: GameState, card: int) -> tuple[Effect, ...]:
    """The continuous effects that apply to the card's current object now."""
    eids = game._fx_by_card.get(card)
    if not eids:
        return ()
    found = game._objs.get(card)
    if found is None:
        return ()
    out = []
    for eid in eids:
        effect: Effect = game._effects[eid]
        if effect.oid is not None and effect.oid != found.oid:
            continue
        if game.ruleset.effect_active(game, effect):
            out.append(effect)
    return tuple(out)


def stat(game: GameState, card: int, name: str, snapshot: Snapshot | None = None) -> int | None:
    """A numeric property with the effects on it, or None if it has none.

    With ``snapshot``, the value as last known information records it (1.2.3b).
    """
    if snapshot is not None:
        cdef, effects = snapshot.obj.cdef, snapshot.effects
    else:
        cdef, effects = (game._objs.get(card) or game.obj(card)).cdef, effects_on(game, card)
    base = cdef.stat(name)
    total = 0
    touched = False
    for effect in effects:
        for key, delta in effect.mods:
            if key == name:
                total += delta
                touched = True
    if base is None and not touched:
        return None
    return (base or 0) + total


def keywords(game: GameState, card: int) -> frozenset[str]:
    """The object's keywords, printed and granted."""
    found = game.obj(card)
    extra = [k for e in effects_on(game, card) for k in e.keywords]
    return found.cdef.keywords.union(extra) if extra else found.cdef.keywords


def counters(game: GameState, card: int) -> dict[str, int]:
    """The counters on the card's current object: name -> how many (COUNTER effects)."""
    out: dict[str, int] = {}
    for found in effects_on(game, card):
        if found.kind == COUNTER and isinstance(found.data, Counters):
            out[found.data.name] = out.get(found.data.name, 0) + found.data.number
    return out


def effect(game: GameState, eid: int) -> Effect | None:
    """The continuous effect with that id, or None once it has ended."""
    found: Effect | None = game._effects.get(eid)
    return found
