"""Moves whose admission fails whatever is tried, read before any candidate
is made: from the same rules as :meth:`FabRuleset.admit
<cardzones.rulesets.fab.ruleset.FabRuleset.admit>`, on the card as it would
enter the zone, so that legal actions need not judge each such move (it
fails, 3.0.11, and a failed move of a card the player sees is not listed).

>>> from cardzones import new_game
>>> from cardzones.kernel.cards import Dest
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "graveyard"))
>>> types = ("hero", "head", "weapon", "permanent", "banished", "arena")
>>> taken = cannot_take(game, card, [Dest(t, "alice") for t in types])
>>> [t for t, no in zip(types, taken) if no]
['hero', 'head', 'weapon', 'permanent', 'arena']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardzones.acts.legal import judging
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.objects import CARD
from cardzones.kernel.zones import ZoneSpec
from cardzones.rulesets.fab.cards import EQUIP_SUBTYPES, becomes_permanent, is_deck_card
from cardzones.rulesets.fab.equip import empty_for

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The zone types that contain only their owner's deck-cards, with the rule.
OWN_DECK_CARDS_ONLY = {"arsenal": "3.3.2", "deck": "3.7.2", "hand": "3.9.2", "pitch": "3.14.2"}
#: The zone types that contain only their owner's cards, any card, with the rule.
OWN_CARDS_ONLY = {"banished": "3.4.2", "graveyard": "3.8.2"}

#: What admission reads of a card's characteristics (:data:`ADMISSION_READS`):
#: whether it is a token, its category, or its types and subtypes.
TOKEN, CATEGORY, TYPES = "token", "category", "types"

#: What :meth:`FabRuleset.admit <cardzones.rulesets.fab.ruleset.FabRuleset.admit>`
#: reads of a card's characteristics, by the type of zone it is to enter:
#: whether it is a token (:data:`TOKEN`; 8.1.8a), its category (:data:`CATEGORY`;
#: a deck-card or not, 1.3.2), or, for any type not named, its types and
#: subtypes (:data:`TYPES`). Where it reads only whether it is a token, it reads
#: of the card's record its owner, visibility and kind alone: a stack and a
#: combat chain take any card (3.15.3, 3.6.2), a banished zone and a graveyard
#: any of their owner's (3.4.2, 3.8.2). Admission is written from the same
#: tables, and legal actions judge once the moves of cards that agree in what
#: it reads (:mod:`cardzones.rulesets.fab.move_foresight`).
ADMISSION_READS: dict[str, str] = {
    **dict.fromkeys(("stack", "combat_chain", *OWN_CARDS_ONLY), TOKEN),
    **dict.fromkeys(OWN_DECK_CARDS_ONLY, CATEGORY),
}

#: What a weapon zone can contain (3.16.2a).
_WEAPON_TYPES = frozenset({"weapon", "off-hand", "quiver"})


def cannot_take(game: Game, card: int, dests: Sequence[Dest]) -> list[bool] | None:
    """For each of ``dests``, whether the zone it names (a move candidate's: no
    face, place or choice of zone given) cannot take ``card`` now, as
    admission judges it:
    a hero zone one that is not a hero or a hero zone that has one (3.11.2),
    an equipment zone one without a subtype it takes (8.5.41b, 3.2.2a,
    3.5.2a, 3.10.2a, 3.12.2a, 3.16.2a) or one that is not empty (8.5.41c),
    the permanent zone (``arena``, 3.0.5a) one that would not be a permanent
    there (3.13.2), an arsenal, deck, hand or pitch zone another player's
    card or one that is no deck-card (3.3.2, 3.7.2, 3.9.2, 3.14.2), an
    arsenal that is not empty (3.3.2a).

    Judged only where admission reads the card as it is: a top-level card or
    a sub-card (which is in none of the zones judged) moving out of another
    type of zone, into a zone that none of its replacement effects names
    (none sends it elsewhere, 3.0.8a); a token only into a zone of the arena,
    as out of the arena it ceases to exist instead (8.1.8a). It is read with
    the visibility it will have there (3.0.8: public, its card; private, its
    category only, 3.0.7a). None for any other object; False for every other
    zone."""
    obj = game.obj(card)
    cdef = obj.cdef
    if obj.kind != CARD:
        return None
    # A sub-card is not in its top-card's zone: it is judged as coming from none.
    here = game.zone_info(obj.zone).spec.type if obj.host is None else ""
    replacing = frozenset(r.moved_to for r in cdef.replacements) if cdef.abilities else _NONE
    # Out of a zone of another type, the card is in none of the zones judged,
    # so what is found holds for every card alike that is equipped to none:
    # found once per listing of legal actions. Of its characteristics, only
    # its types and subtypes are read (its category with them, 1.3.2).
    memo = judging(game)
    key = ("fab.cannot_take", id(dests), cdef.types, obj.owner, here, replacing)
    if memo is not None and not obj.equipped and key in memo:
        found: list[bool] = memo[key][2]
        return found
    private = game.ruleset.private_card(cdef)
    token = "token" in cdef.types or "token" in private.types
    found = [False] * len(dests)
    for i, ztype, spec, dest, zid in _judged(game, dests, memo):
        if ztype == here or ztype in replacing or (token and not spec.in_arena):
            continue
        there = cdef if spec.public else private
        found[i] = _refused(game, card, obj.owner, there, ztype, dest, zid)
    if memo is not None and not obj.equipped:
        memo[key] = (dests, cdef, found)  # held, so that the id stays theirs
    return found


#: No zone types.
_NONE: frozenset[str] = frozenset()
#: A destination admission is judged for: its place among the destinations,
#: its zone type, that type's spec, the destination, and the one zone it
#: names (None when there are several, a choice, 3.0.10a).
_Judged = tuple[int, str, ZoneSpec, Dest, int | None]


def _judged(game: Game, dests: Sequence[Dest], memo: dict[Any, Any] | None) -> list[_Judged]:
    """The destinations whose admission reads the card (a hero zone, an
    equipment zone, the permanent zone, an arsenal, deck, hand or pitch zone),
    found once per listing."""
    key = ("fab.cannot_take.dests", id(dests))
    if memo is not None and key in memo:
        judged: list[_Judged] = memo[key][1]
        return judged
    specs = game.ruleset.zone_specs
    judged = []
    for i, dest in enumerate(dests):
        ztype = "permanent" if dest.type == "arena" else dest.type  # 3.0.5a
        spec = specs.get(ztype)
        if spec is None:
            continue
        judged_type = ztype in ("permanent", "hero") or ztype in OWN_DECK_CARDS_ONLY
        if not judged_type and not spec.equipment:
            continue
        if ztype != "permanent" and not spec.shared and dest.owner not in game.players:
            continue
        zids = game.zones_of(dest.owner, ztype)
        judged.append((i, ztype, spec, dest, zids[0] if len(zids) == 1 else None))
    if memo is not None:
        memo[key] = (dests, judged)  # held, so that the id stays theirs
    return judged


def _refused(
    game: Game,
    card: int,
    owner: str | None,
    there: CardDef,
    ztype: str,
    dest: Dest,
    zid: int | None,
) -> bool:
    """Whether admission refuses the card, seen as ``there``, in a zone of
    ``ztype`` (``zid``, when the destination names one). Asked for every
    candidate a listing judges, it tests a zone's other cards without a
    generator, which would make a cell for ``card`` at every call."""
    if ztype == "permanent":
        return not becomes_permanent(there, ztype)  # 3.13.2
    types = there.types
    if ztype == "hero":
        if "hero" not in types:
            return True  # 3.11.2
        return zid is not None and not {card}.issuperset(game.contents(zid))
    if ztype in OWN_DECK_CARDS_ONLY:
        if owner != dest.owner or not is_deck_card(there):
            return True  # 3.3.2, 3.7.2, 3.9.2, 3.14.2
        if ztype != "arsenal":
            return False
        return zid is not None and not {card}.issuperset(game.contents(zid))  # 3.3.2a
    if types.isdisjoint(EQUIP_SUBTYPES):
        return True  # 8.5.41b
    if ztype == "weapon":
        return types.isdisjoint(_WEAPON_TYPES)  # 3.16.2a
    if ztype not in types:
        return True  # 3.2.2a, 3.5.2a, 3.10.2a, 3.12.2a
    return zid is not None and not empty_for(game, zid, card)  # 8.5.41c
