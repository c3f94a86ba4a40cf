"""Whether an action is on or into a zone (:func:`concerns`): the filter of
:func:`~cardzones.acts.legal.legal_actions` by zone, which a board asks when a
player opens a zone's menu.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardzones.acts.actions import Action, ParamKind
from cardzones.kernel.cards import Dest

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def concerns(game: Game, action: Action, args: Mapping[str, Any], zone: int) -> bool:
    """Whether an action with ``args`` (as ``run`` takes them) is on or into
    ``zone``: a zone parameter names it, or a destination names its type and
    owner (and its number, or the zone chosen among several)."""
    info = game.zone_info(zone)
    chosen = None
    for param in action.params:
        value = args.get(param.name)
        if value is None:
            continue
        if param.kind is ParamKind.ZONE_CHOICE:
            # The zone a card goes to among several (3.0.10a): the one given, or
            # this one among those given by player or card.
            zones = (value,) if isinstance(value, int) else [z for _, g in value.pairs for z in g]
            chosen = zone if zone in zones else zones[0]
        elif param.kind is ParamKind.ZONE:
            if param.name == "choose_zone":
                chosen = value
            elif value == zone:
                return True
    for param in action.params:
        value = args.get(param.name)
        if value is None or param.kind not in (ParamKind.DEST, ParamKind.ZONE_NAME):
            continue
        if not _names_zone(game, args, value, info) or chosen not in (None, zone):
            continue
        if value.index is None or game.zone(info.owner, value.type, value.index) == zone:
            return True
    return False


def _names_zone(game: Game, args: Mapping[str, Any], dest: Dest, info: Any) -> bool:
    ruleset = game.ruleset
    if dest.type in ruleset.destinations:
        card = args.get("card")
        if not isinstance(card, int) or not game.exists(card):
            return False
        by = args.get("by") or game.turn_player
        resolved = ruleset.resolve_pseudo(game, game.obj(card), dest, by)
        if resolved is None:
            return False
        dest = resolved
    spec = ruleset.zone_specs.get(dest.type)
    if spec is None or dest.type != info.type:
        return False
    if spec.shared:
        return True
    owner = dest.owner
    if owner == "owner":
        card = args.get("card")
        owner = game.obj(card).owner if isinstance(card, int) and game.exists(card) else None
    elif owner in (None, "you"):
        owner = args.get("by") or game.turn_player
    return bool(owner == info.owner)
