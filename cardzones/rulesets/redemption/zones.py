"""The ten Redemption zone types as data.

Only the deck is ordered. The deck, the hand and the reserve are private; a
deck card may not be looked at even by its owner. Territory, Land of Bondage
and the field of battle are "in play" (the place and set-aside texts: "Targets
must be in play"). Every zone gives its cards a controller, since a card's
controller decides where it is set aside and who may return it
(set-aside/area-controller, set-aside/no-duration-controller-chooses).

A card is the same card through every public zone, in play or out of it: it
keeps its object (and with it its place records, bonuses and other effects)
in the discard pile, a set-aside area, the Land of Redemption or banishment,
and on its way back, so a placed card can come back to where it was placed by
any of the Place text's ways (place/return-conditions) through them. It
becomes a new card only after a private stretch: the private zones (deck,
hand, reserve) make new objects, and the kernel makes one of every card that
turns private anywhere else (face down). No id a player sees then links it
to what it was.
"""

from __future__ import annotations

from cardzones.kernel.zones import ZoneSpec


def _in_play(ztype: str, **kw: bool) -> ZoneSpec:
    return ZoneSpec(ztype, public=True, in_play=True, resets=False, controlled=True, **kw)


def _out_of_play(ztype: str, *, public: bool = True, **kw: bool) -> ZoneSpec:
    # Only a private zone makes a new object: a private stretch ends a card's
    # identity, a public zone keeps it.
    return ZoneSpec(ztype, public=public, resets=not public, controlled=True, **kw)


#: Every Redemption zone type, in the order docs/scenarios.md lists them.
ZONE_SPECS: dict[str, ZoneSpec] = {
    spec.type: spec
    for spec in (
        _out_of_play("deck", public=False, ordered=True, owner_may_look=False),
        _out_of_play("hand", public=False),
        _out_of_play("discard"),
        _in_play("territory"),
        _in_play("land_of_bondage"),
        _out_of_play("land_of_redemption"),
        _out_of_play("set_aside"),
        _out_of_play("reserve", public=False),
        _out_of_play("banish"),
        _in_play("field_of_battle", shared=True),
    )
}

#: Zone type names used by the rules code.
DECK = "deck"
HAND = "hand"
DISCARD = "discard"
TERRITORY = "territory"
LAND_OF_BONDAGE = "land_of_bondage"
SET_ASIDE = "set_aside"
FIELD_OF_BATTLE = "field_of_battle"
