"""The fifteen fab zone types as data (3.0.1 to 3.16)."""

from __future__ import annotations

from cardzones.kernel.zones import ZoneSpec
from cardzones.rulesets.base import Exposable


def _arena(ztype: str, **kw: object) -> ZoneSpec:
    # Objects entering the arena keep their identity (3.0.9) and have a controller (1.2.1b).
    return ZoneSpec(ztype, public=True, in_arena=True, resets=False, controlled=True, **kw)  # type: ignore[arg-type]


#: Every fab zone type, in the order of 3.0.1.
ZONE_SPECS: dict[str, ZoneSpec] = {
    spec.type: spec
    for spec in (
        _arena("arms", capacity=1, equipment=True),  # 3.2
        ZoneSpec("arsenal", public=False, capacity=1),  # 3.3
        ZoneSpec("banished", public=True),  # 3.4
        _arena("chest", capacity=1, equipment=True),  # 3.5
        _arena("combat_chain", shared=True),  # 3.6
        ZoneSpec("deck", public=False, ordered=True, owner_may_look=False),  # 3.7, 3.7.4, 3.7.5
        ZoneSpec("graveyard", public=True),  # 3.8
        ZoneSpec("hand", public=False),  # 3.9
        _arena("head", capacity=1, equipment=True),  # 3.10
        _arena("hero", capacity=1),  # 3.11
        _arena("legs", capacity=1, equipment=True),  # 3.12
        _arena("permanent", shared=True),  # 3.13
        ZoneSpec("pitch", public=True),  # 3.14
        # 3.15: the stack is outside the arena, but entering it is no reset (3.0.9).
        ZoneSpec("stack", public=True, ordered=True, shared=True, resets=False, controlled=True),
        _arena("weapon", per_player=2, capacity=1, equipment=True),  # 3.16, 3.0.2
    )
}

EQUIPMENT_SUBTYPE = {"arms": "arms", "chest": "chest", "head": "head", "legs": "legs"}
#: 3.0.1a: an equipment zone is exposed while no equipment is in it.
EXPOSABLE = Exposable("equipment zones", tuple(EQUIPMENT_SUBTYPE))
