"""Putting new cards and new zones into a game, and removing zones (3.0.10).

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> second = game.create_zone("alice", "arsenal")
>>> game.zone_name(second), len(game.zones_of("alice", "arsenal"))
('alice.arsenal.2', 2)
>>> game.remove_zone(second)
>>> game.zone_name(game.zone("alice", "arsenal"))
'alice.arsenal'
"""

from __future__ import annotations

from cardzones.errors import IllegalAction
from cardzones.kernel import queries
from cardzones.kernel.cards import CardDef, Position
from cardzones.kernel.contents import _attach_record, _insert, _layout
from cardzones.kernel.events import CREATED, Snapshot
from cardzones.kernel.log import _log
from cardzones.kernel.naming import name_for
from cardzones.kernel.objects import CARD, TOP, UNDER, Obj, Origin
from cardzones.kernel.ruleset import GameState
from cardzones.kernel.state import CONTENTS, OBJS, VARS, ZINFO, ZONES
from cardzones.kernel.zones import ZoneInfo, ZoneSpec


def new_card(
    game: GameState,
    cdef: CardDef,
    zid: int,
    *,
    owner: str | None = None,
    controller: str | None = None,
    public: bool | None = None,
    position: Position = "bottom",
    host: int | None = None,
    rel: int = TOP,
    kind: str = CARD,
    pcontrol: str | None = None,
    data: object = None,
    check: bool = True,
    log: bool = False,
    by: str | None = None,
) -> int:
    """Put a new card into the game, as at setup or when a token is created,
    and return its card id.

    With ``check``, a zone that cannot contain it is refused (3.0.11), and so
    is a card it cannot be under or on (``host`` and ``rel``). The new card is
    logged only with ``log``.
    """
    info: ZoneInfo = game._zinfo[zid]
    if owner is None:
        owner = info.owner if info.owner is not None else game.players[0]
    if public is None:
        public = info.spec.public if host is None else game.obj(host).public
    card = game._next("next_card")
    oid = game._next("next_oid")
    if rel == UNDER or not info.spec.controlled:
        controller = None  # 1.2.1b: no controller outside the arena and the stack
    elif controller is None:
        controller = owner
    origin = Origin(None, info.type, game.turn, "setup", by)
    pcontrol = pcontrol or owner
    obj = Obj(
        card, oid, cdef, owner, controller, zid, public, None, TOP, origin, (), kind, pcontrol, data
    )
    # The card being made is not an object of the game yet: its name is the
    # caller's own words (a set-up entry, a token), so a refusal may repeat it.
    asked = cdef.name
    if check and host is None:
        adm = game.ruleset.admit(game, obj, zid, controller or owner)
        if not adm.ok:
            raise IllegalAction(
                f"{queries.zone_name(game, zid)} cannot contain {asked}: {adm.reason}",
                rule=adm.rule,
            )
        obj = obj._replace(equipped=adm.equip)
    elif check and host is not None:
        adm = game.ruleset.admit_on(game, obj, host, rel)
        if not adm.ok:
            word = "under" if rel == UNDER else "on"
            raise IllegalAction(
                f"{asked} cannot be {word} {name_for(game, by, host)}: {adm.reason}",
                rule=adm.rule,
            )
    if host is None:
        game._put(OBJS, card, obj)
        _insert(game, zid, card, position)
    else:
        game._put(OBJS, card, obj._replace(zone=game.obj(host).zone))
        _attach_record(game, card, host, rel, position)
    if cdef.triggers:
        game._put(VARS, "watchers", (*game._vars["watchers"], card))
    if log:
        shown = bool(public)
        _log(game, CREATED, card, shown, Snapshot(obj, ()), None, zid, oid, by, "create", "", shown)
    return card


def probe(
    game: GameState,
    cdef: CardDef,
    zid: int = 0,
    *,
    owner: str | None = None,
    controller: str | None = None,
    public: bool = True,
) -> Obj:
    """The object a card not yet in the game would be, to ask where it may go
    (:meth:`Game.resolve_destination`) or whether a zone admits it, before it
    exists. It has card id -1 and is never part of the state."""
    return Obj(-1, -1, cdef, owner, controller, zid, public)


def _new_zone(game: GameState, owner: str | None, spec: ZoneSpec) -> int:
    zid = game._next("next_zid")
    game._put(ZINFO, zid, ZoneInfo(zid, spec, owner))
    game._put(CONTENTS, zid, ())
    key = (owner, spec.type)
    game._put(ZONES, key, (*game._zones.get(key, ()), zid))
    game._put(VARS, "layout", _layout(game))
    return zid


def create_zone(game: GameState, owner: str | None, ztype: str) -> int:
    """A new zone of ``ztype`` for ``owner`` (None for a shared type), numbered
    after the others of its type (3.0.10); it is like any other zone of the type.
    One action, or one step of the action it is part of."""
    spec = queries.spec(game, ztype)
    if spec.shared != (owner is None):
        whose = "has no owner" if spec.shared else "belongs to a player"
        raise IllegalAction(f"a {ztype} zone {whose}")
    if owner is not None:
        game.check_player(owner)
    with game.atomic():
        return _new_zone(game, owner, spec)


def remove_zone(game: GameState, zid: int) -> None:
    """The zone ceases to exist; the others of its type are numbered again from
    1 (3.0.10). It must hold nothing: the rule set clears its cards first. One
    action, or one step of the action it is part of."""
    if not queries.zone_exists(game, zid):
        raise IllegalAction(f"{queries.zone_name(game, zid)} does not exist")
    if queries.contents(game, zid) or queries.equipped_in(game, zid):
        raise IllegalAction(f"{queries.zone_name(game, zid)} still holds cards")
    info: ZoneInfo = game._zinfo[zid]
    key = (info.owner, info.type)
    with game.atomic():
        game._put(ZONES, key, tuple(z for z in game._zones[key] if z != zid))
        game._put(VARS, "layout", _layout(game))
