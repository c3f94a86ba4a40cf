"""A view built the slow way, for tests to hold the fast one against."""

from __future__ import annotations

from typing import Any

from cardzones.kernel import views
from cardzones.kernel.contents import _layout
from cardzones.kernel.game import Game
from cardzones.kernel.objects import PLACED


def reference_view(game: Game, observer: str | None) -> list[dict[str, Any]]:
    """The zones of a view built the slow way, object by object, straight from
    3.0.3a (``Game.may_look``), with no cache and nothing decided per zone."""

    def entry(card: int) -> dict[str, Any]:
        obj = game.obj(card)
        if game.may_look(observer, card):
            shown = views._fresh_props(game, card, obj)
            handle = views._handle_for(game, observer, card, obj)
            if handle is not None:
                shown["id"] = handle
        else:
            shown = {"hidden": True}
        under = [entry(k) for k in game.kids(card) if game.obj(k).rel != PLACED]
        placed = [entry(k) for k in game.kids(card) if game.obj(k).rel == PLACED]
        if under:
            under.sort(key=views._sort_key)  # sub-cards are a collection (3.11.5)
            shown["under"] = under
        if placed:
            shown["placed"] = placed
        return shown

    out = []
    for zid in _layout(game):
        info = game.zone_info(zid)
        objects = [entry(c) for c in game.contents(zid)]
        if not info.spec.ordered:
            objects.sort(key=views._sort_key)
        zone: dict[str, Any] = {
            "zone": game.zone_name(zid),
            "type": info.type,
            "owner": info.owner,
            "public": info.spec.public,
            "ordered": info.spec.ordered,
            "count": len(objects),
            "objects": objects,
        }
        if info.spec.equipment:
            zone["empty"] = game.is_empty(zid)
        out.append(zone)
    return out
