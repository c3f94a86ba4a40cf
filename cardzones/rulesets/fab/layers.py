"""The stack and its layers (1.6, 3.15), and triggered layers (3.0.9a)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from cardzones.errors import IllegalAction
from cardzones.kernel.cards import CardDef, Dest, Trigger
from cardzones.kernel.objects import ACTIVATED, CARD, TRIGGERED, Obj
from cardzones.kernel.results import MoveResult

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


#: The kind of an attack-proxy (1.4.3): a non-card object that represents a
#: weapon's attack, a layer on the stack and then a chain link (3.6.2).
ATTACK_PROXY = "attack_proxy"
#: The record of the attack-proxies made that may still exist: while there is
#: none, the check of 1.4.3c after every action has nothing to look at.
PROXIES = "attack_proxies"


class LayerData(NamedTuple):
    """What a non-card layer remembers: its source, and for a triggered layer
    the trigger, the object it references and the event of the move that
    produced it (3.0.9a)."""

    source: int | None
    trigger: Trigger | None = None
    ref_card: int | None = None
    ref_oid: int | None = None
    ref_event: int | None = None


class LayerRef(NamedTuple):
    """Names a layer added by an action, for ``as:`` labels: its effect is
    active while the layer exists."""

    card: int


def stack(game: Game) -> int:
    """The stack's zone (3.15), found as zones_of has it: the procedure asks
    after every pass whether it holds a layer."""
    zids = game.zones_of(None, "stack")
    assert zids
    return zids[0]


def layers(game: Game) -> tuple[int, ...]:
    """The layers, layer 1 (the bottom) first (3.15.4)."""
    return tuple(reversed(game.contents(stack(game))))


def layer(game: Game, number: int) -> int:
    """The card id of layer ``number`` (3.15.5: layer N is the top)."""
    current = layers(game)
    if not 1 <= number <= len(current):
        raise IllegalAction(
            f"there is no layer {number}; the stack has {len(current)}", rule="3.15.4"
        )
    return current[number - 1]


def layer_kind(game: Game, card: int) -> str:
    kind = game.obj(card).kind
    return "card" if kind == CARD else kind


def add_layer(game: Game, kind: str, source: int, by: str) -> int:
    """Put a new activated- or triggered-layer on the stack; it becomes layer N+1
    (3.15.4). Its owner is the player who activated it, or who controlled its
    source (1.6.1a); its controller is the player who put it there (1.6.1b)."""
    check_layer(game, kind, source, by)
    src = game.obj(source)
    owner = by if kind == ACTIVATED else (src.controller or src.owner or by)
    cdef = game.characteristics(source, by=by)
    return push_layer(game, cdef, kind, LayerData(source), owner, by)


def check_layer(game: Game, kind: str, source: int, by: str) -> None:
    """Refused unless :func:`add_layer` may put that layer on the stack."""
    if kind not in (ACTIVATED, TRIGGERED):
        raise IllegalAction(
            f"a layer added this way is activated or triggered, not {kind!r}", rule="1.6.2"
        )
    game.obj(source)
    if not game.may_look(by, source):
        # The layer is public and shows its source's properties: a layer made
        # from a card its player may not look at would reveal that card.
        raise IllegalAction(
            "a layer cannot come from a private card its player may not look at",
            rule="3.0.3a",
        )
    stack(game)


def new_public(
    game: Game, cdef: CardDef, zid: int, owner: str, controller: str, **more: Any
) -> int:
    """A new public object on top of ``zid``, made and logged by its
    controller: a token (8.1.8a) or a layer (1.6.1); ``more`` as
    :meth:`Game.new_card` takes it (a layer's kind and data)."""
    return game.new_card(
        cdef,
        zid,
        owner=owner,
        controller=controller,
        public=True,
        position="top",
        log=True,
        by=controller,
        **more,
    )


def push_layer(
    game: Game, cdef: CardDef, kind: str, data: LayerData, owner: str, controller: str
) -> int:
    """A new public layer on top of the stack (1.6.1, 3.15.4), made by its
    controller."""
    card = new_public(game, cdef, stack(game), owner, controller, kind=kind, data=data, check=False)
    if kind == ATTACK_PROXY:
        game.records.put(PROXIES, (*game.record(PROXIES, ()), card))
    return card


def remove_layer(game: Game, number: int, by: str) -> MoveResult:
    """3.15.6: remove layer N; a card-layer is cleared and a non-card layer
    ceases to exist (3.0.12a). Layers above it are numbered down by one."""
    return game.clear(layer(game, number), by)


def resolve_top(game: Game, by: str) -> MoveResult:
    """Resolve layer N. A card-layer goes to its owner's graveyard, an
    attack-proxy to the combat chain; a triggered layer does what its
    trigger says and then leaves the stack."""
    current = game.contents(stack(game))
    if not current:
        raise IllegalAction("the stack is empty: there is no layer to resolve", rule="3.15.5")
    return resolve_layer(game, current[0], by)


def resolve_layer(game: Game, card: int, by: str) -> MoveResult:
    """What resolving the layer ``card`` does (:func:`resolve_top` resolves
    the top one, 3.15.5): a card-layer goes to its owner's graveyard; a
    triggered layer does what its trigger says and then leaves the stack."""
    obj = game.obj(card)
    if obj.kind == CARD:
        game.move(card, Dest("graveyard", "owner"), cause="rule", by=by)
        return MoveResult.DONE
    if obj.kind == ATTACK_PROXY:
        # 3.6.2: the attack becomes a chain link on the combat chain.
        game.move(card, Dest("combat_chain"), cause="rule", by=by)
        return MoveResult.DONE
    data = obj.data
    if obj.kind == TRIGGERED and isinstance(data, LayerData) and data.trigger is not None:
        _resolve_trigger(game, obj, data)
    if game.exists(card):
        game.cease(card, by, cause="rule")
    return MoveResult.DONE


def _resolve_trigger(game: Game, layer_obj: Obj, data: LayerData) -> None:
    """3.0.9a: "it" is the new object the move produced, only while it still
    exists as that object, is public, and has not moved to another zone since.
    Otherwise the layer does nothing. An object keeps its id when it moves
    into an arena zone (3.0.9), so the layer asks whether it moved at all."""
    trigger = data.trigger
    if trigger is None or trigger.do is None or data.ref_card is None:
        return
    if not game.exists(data.ref_card):
        return
    target = game.obj(data.ref_card)
    if target.oid != data.ref_oid or not target.public:
        return
    if data.ref_event is not None and game.moved_since(data.ref_card, data.ref_event):
        return
    controller = layer_obj.controller or layer_obj.owner or game.turn_player
    game.move(data.ref_card, trigger.do, by=controller)


def put_triggers_on_stack(
    game: Game, pending: Iterable[tuple[int, int, int, int, str, int]]
) -> None:
    """Triggered effects go on the stack right after the action that triggered
    them: ``pending``, the triggers it noted (:meth:`Game.take_pending_triggers`)."""
    for source, index, card, oid, controller, seq in pending:
        src = game.find(source)
        if src is None:
            continue
        trigger = src.cdef.triggers[index]
        push_layer(
            game,
            src.cdef,
            TRIGGERED,
            LayerData(source, trigger, card, oid, seq),
            controller,
            controller,
        )
