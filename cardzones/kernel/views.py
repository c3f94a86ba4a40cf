"""Player views and redacted logs: the only things that leave the engine.

A view shows one player (or a spectator, ``None``) every zone. Each object is
shown with its properties when that player may look at it (3.0.3a), or as
``{"hidden": true}`` with nothing else: no name, no id, no position that an
unordered zone would not show anyway. The target property is
non-interference: two games that differ only in what a player may not see give
that player identical views and identical logs.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
>>> zone = next(z for z in view(game, "bob")["zones"] if z["zone"] == "alice.hand")
>>> zone["objects"]
[{'hidden': True}]
"""

from __future__ import annotations

import hashlib
from typing import Any

from cardzones.kernel.events import CEASED, CREATED, FLIPPED, MOVED, SHUFFLED, Event, iter_log
from cardzones.kernel.objects import PLACED, Obj

HIDDEN: dict[str, Any] = {"hidden": True}


def object_handle(seed: int, oid: int) -> str:
    """A keyed hash of an object id: stable for one object, unrelated across
    resets, and telling nothing about the order objects were made in."""
    key = hashlib.blake2b(f"cardzones:{seed}".encode(), digest_size=16).digest()
    digest = hashlib.blake2b(oid.to_bytes(8, "little"), key=key, digest_size=6).hexdigest()
    return f"o{digest}"


def _props(game: Any, card: int, obj: Obj) -> dict[str, Any]:
    out: dict[str, Any] = {"id": game.handle(card)}
    out.update(obj.cdef.to_json())
    for name in obj.cdef.stats:
        out[name] = game.stat(card, name)
    for effect in game.effects_on(card):
        for key, _ in effect.mods:
            out[key] = game.stat(card, key)
    keywords = game.keywords(card)
    if keywords:
        out["keywords"] = sorted(keywords)
    out["public"] = obj.public
    out["owner"] = obj.owner
    if obj.controller is not None:
        out["controller"] = obj.controller
    if obj.kind != "card":
        out["kind"] = obj.kind
    if obj.equipped:
        out["equipped_to"] = [game.zone_name(z) for z in obj.equipped]
    return out


#: The viewer that may look at everything: the scenario's author. Secret-bearing.
OMNISCIENT = "*"


def _show(game: Any, player: str | None, card: int, ordered: bool) -> dict[str, Any]:
    obj: Obj = game._objs[card]
    if player == OMNISCIENT:
        shown = _props(game, card, obj)
    elif not game.may_look(player, card):
        shown = dict(HIDDEN)
    else:
        shown = _props(game, card, obj)
    kids = game._kids.get(card)
    if kids:
        under = [_show(game, player, k, True) for k in kids if game._objs[k].rel != PLACED]
        placed = [_show(game, player, k, True) for k in kids if game._objs[k].rel == PLACED]
        if under:
            shown["under"] = under
        if placed:
            shown["placed"] = placed
    return shown


def _sort_key(entry: dict[str, Any]) -> tuple[int, str]:
    # In an unordered zone the stored order is how cards arrived, which a
    # player who cannot see them must not learn: show a canonical order.
    return (1, "") if entry.get("hidden") else (0, str(entry.get("id")))


def zone_view(game: Any, player: str | None, zid: int) -> dict[str, Any]:
    info = game._zinfo[zid]
    spec = info.spec
    objects = [_show(game, player, c, spec.ordered) for c in game._contents.get(zid, ())]
    if not spec.ordered:
        objects.sort(key=_sort_key)
    out: dict[str, Any] = {
        "zone": game.zone_name(zid),
        "type": info.type,
        "owner": info.owner,
        "public": spec.public,
        "ordered": spec.ordered,
        "count": len(objects),
        "objects": objects,
    }
    if spec.equipment:
        out["empty"] = game.is_empty(zid)
    return out


def view(game: Any, player: str | None) -> dict[str, Any]:
    """What ``player`` (None: a spectator) may know of the game, JSON-ready.

    ``OMNISCIENT`` shows everything, for a scenario's author; it is secret-bearing.
    """
    if player is not None and player != OMNISCIENT:
        game.check_player(player)
    return {
        "ruleset": game.ruleset.name,
        "viewer": player,
        "players": list(game.players),
        "turn": game.turn,
        "turn_player": game.turn_player,
        "phase": game.phase,
        "zones": [zone_view(game, player, z) for z in game.all_zones()],
    }


def _zone_label(game: Any, zid: int | None) -> str | None:
    return None if zid is None else game.zone_name(zid)


def event_view(game: Any, player: str | None, event: Event) -> dict[str, Any]:
    """One log entry as ``player`` may know it.

    A move shows the card only when the object was public as it moved (3.0.7a),
    or when the player may look at it where it went (a player sees their own
    draw). Otherwise it shows the zones and nothing about the card.
    """
    out: dict[str, Any] = {"seq": event.seq, "event": event.kind, "turn": event.turn}
    if event.kind in (MOVED, CEASED, FLIPPED, CREATED):
        out["from"] = _zone_label(game, event.src)
        out["to"] = _zone_label(game, event.dst)
        if event.note:
            out["note"] = event.note
        if _event_visible_to(game, player, event):
            out["card"] = _event_card(game, event)
    elif event.kind == SHUFFLED:
        out["zone"] = _zone_label(game, event.src)
    else:
        out["note"] = event.note
    if event.by is not None:
        out["by"] = event.by
    return out


def _event_visible_to(game: Any, player: str | None, event: Event) -> bool:
    if event.lki is None:
        # A created object: visible when the player may look at the new object.
        return event.card is not None and event.card in game._objs and _may_look_now(
            game, player, event)
    if event.public:
        return True
    return _may_look_now(game, player, event)


def _may_look_now(game: Any, player: str | None, event: Event) -> bool:
    """Whether the player may look at the object this event produced, judged
    from the state as it is now only if that object still exists unchanged."""
    if player is None or event.card is None or event.dst is None:
        return False
    obj: Obj | None = game._objs.get(event.card)
    if obj is None or obj.oid != event.new_oid:
        # The object moved on; judge by where it arrived and who owned it.
        owner = event.lki.obj.owner if event.lki is not None else None
        info = game._zinfo[event.dst]
        return bool(info.spec.owner_may_look and not info.spec.public
                    and (player == owner or player == info.owner))
    return bool(game.may_look(player, event.card))


def _event_card(game: Any, event: Event) -> dict[str, Any]:
    if event.lki is not None:
        obj = event.lki.obj
        out: dict[str, Any] = {"name": obj.cdef.name}
        for name in obj.cdef.stats:
            out[name] = game.stat(obj.card, name, snapshot=event.lki)
        return out
    obj = game._objs[event.card]
    return {"name": obj.cdef.name}


def log_view(game: Any, player: str | None) -> list[dict[str, Any]]:
    """The event log as ``player`` may know it, oldest first."""
    return [event_view(game, player, e) for e in iter_log(game._vars["log"])]


def omniscient_log(game: Any) -> list[dict[str, Any]]:
    """The full log for a scenario's author: every card named. Secret-bearing."""
    out = []
    for event in iter_log(game._vars["log"]):
        entry = event_view(game, None, event)
        if event.card is not None and "card" not in entry:
            if event.lki is not None:
                entry["card"] = {"name": event.lki.obj.cdef.name}
            elif event.card in game._objs:
                entry["card"] = {"name": game._objs[event.card].cdef.name}
            entry["private"] = True
        out.append(entry)
    return out
