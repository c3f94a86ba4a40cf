"""Equipping (8.5.41), two-handers (8.2.2), off-hands (8.2.10) and quivers (8.2.15)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardzones.kernel.objects import Obj
from cardzones.kernel.ruleset import Admission
from cardzones.rulesets.fab.cards import EQUIP_SUBTYPES

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

_SLOT_RULES = {"arms": "3.2.2a", "chest": "3.5.2a", "head": "3.10.2a", "legs": "3.12.2a"}


def empty_for(game: Game, zid: int, mover: int) -> bool:
    """8.5.41c: the zone is empty, not counting the object that is moving."""
    if any(c != mover for c in game.contents(zid)):
        return False
    return all(c == mover for c in game.equipped_in(zid))


def equip_admission(game: Game, obj: Obj, zid: int) -> Admission:
    """Whether ``obj`` can be equipped to ``zid``, and the zones it then is equipped to."""
    info = game.zone_info(zid)
    # A private object has no subtypes (3.0.7a), so it cannot be equipped at all.
    types = game.characteristics(obj).types
    if obj.kind != "card":
        return Admission("only a card can be equipped", rule="8.5.41")
    if types.isdisjoint(EQUIP_SUBTYPES):
        return Admission("the card has no subtype that can be equipped", rule="8.5.41b")
    if obj.card in game.cards() and any(
        z != zid and game.zone_info(z).type == info.type for z in obj.equipped
    ):
        # The move is one event (3.0.7): it is still equipped to a zone of that type.
        return Admission(f"it is already equipped to a {info.type} zone", rule="8.5.41c")
    if info.type != "weapon":
        if info.type not in types:
            return Admission(
                f"only a card with subtype {info.type} can be equipped there",
                rule=_SLOT_RULES[info.type],
            )
        if not empty_for(game, zid, obj.card):
            return Admission(f"{game.zone_name(zid)} is not empty", rule="8.5.41c")
        return Admission(equip=(zid,))
    return _weapon_admission(game, obj, zid)


def _weapon_admission(game: Game, obj: Obj, zid: int) -> Admission:
    types = game.characteristics(obj).types
    if "weapon" not in types and "off-hand" not in types and "quiver" not in types:
        return Admission(
            "only a weapon, off-hand or quiver can be equipped to a weapon zone", rule="3.16.2a"
        )
    zones = game.zones_of(game.zone_info(zid).owner, "weapon")
    others = [z for z in zones if z != zid]
    mine = [c for z in zones for c in game.contents(z) if c != obj.card]
    if "off-hand" in types and any("off-hand" in game.characteristics(c).types for c in mine):
        return Admission("a player cannot equip more than one off-hand", rule="8.2.10b")
    if "quiver" in types:
        if any("quiver" in game.characteristics(c).types for c in mine):
            return Admission("a player cannot equip more than one quiver", rule="8.2.15b")
        if not game.contents(zid) and _only_unoccupying_bow(game, zid, obj.card):
            return Admission(equip=(zid,))  # 8.2.15a
    if not empty_for(game, zid, obj.card):
        return Admission(f"{game.zone_name(zid)} is not empty", rule="8.5.41c")
    if "2h" in types:
        # 8.2.2b: two empty weapon zones; the two-hander occupies the first (8.2.2c).
        later = [z for z in others if zones.index(z) > zones.index(zid)]
        partner = next((z for z in later if empty_for(game, z, obj.card)), None)
        if partner is None:
            return Admission(
                "a two-hander needs two empty weapon zones and occupies the first of them",
                rule="8.2.2b",
            )
        return Admission(equip=(zid, partner))
    return Admission(equip=(zid,))


def _only_unoccupying_bow(game: Game, zid: int, mover: int) -> bool:
    equipped = [c for c in game.equipped_in(zid) if c != mover]
    if len(equipped) != 1:
        return False
    bow = game.obj(equipped[0])
    types = game.characteristics(bow).types
    return "2h" in types and "bow" in types and bow.zone != zid
