"""Scenario actions of both rule sets and of fab. Each handler reads its
mapping, calls the engine, and returns what the action did."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardzones.kernel.cards import Dest
from cardzones.kernel.effects import END_OF_TURN
from cardzones.kernel.game import Game, MoveResult
from cardzones.rulesets.fab import actions as fab
from cardzones.rulesets.fab import layers
from cardzones.scenario.context import Context
from cardzones.scenario.loader import YMap

Handler = Callable[[Context, YMap], MoveResult]

#: Keys any action may carry (SCENARIOS.md, Actions).
COMMON = frozenset({"result", "error", "as"})

MOVE_KEYS = {"card", "to", "position", "face", "cause", "by", "choose_zone", "then"}


def _position(ctx: Context, node: YMap) -> Any:
    value = node.get("position", "top")
    if value in ("top", "bottom"):
        return value
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ctx.fail(
            node,
            "position",
            f"position is top, bottom or an index from the top (0 or more), not {value!r}",
        )
    return value


def do_move(ctx: Context, node: YMap, *, card: int | None = None) -> MoveResult:
    """``move``: the one general move of both rule sets."""
    node = ctx.check_keys(node, MOVE_KEYS | COMMON, "move")
    if card is None:
        card = ctx.card(node, "card")
    ctx.require(node, "to", "move")
    by = ctx.player(node)
    face = ctx.choice(node, "face", ("up", "down"), None)
    cause = ctx.choice(node, "cause", ("effect", "rule"), "effect")
    position = _position(ctx, node)
    choose = ctx.choose_zone(node)
    then = node.get("then")
    if then is not None and not isinstance(then, YMap):
        raise ctx.fail(node, "then", "then: is an action, such as {modify: {power: +1}}")
    dest = ctx.dest(node, "to")
    game = ctx.game
    label = ctx.label(node)
    with game.atomic():
        result, handle = mover(game.ruleset.name)(
            game,
            card,
            dest,
            by,
            position=position,
            face=face,
            cause=cause,
            choose_zone=choose,
            label=label,
        )
        if label is not None and handle is not None:
            ctx.effects[label] = handle
        if then is not None:
            _then(ctx, then, card, result)
    return result


#: A rule set's general move: its result, and a handle for the effect when it
#: was labelled and the rule set can negate it later (else None).
Mover = Callable[..., tuple[MoveResult, object | None]]


def _fab_move(
    game: Game, card: int, dest: Dest | int, by: str, *, label: str | None, **options: Any
) -> tuple[MoveResult, None]:
    # A fab move is never negated, so a label names no effect.
    return fab.move_to(game, card, dest, by, **options), None


def mover(ruleset: str) -> Mover:
    """The general move of the ``move`` action in ``ruleset``."""
    if ruleset == "fab":
        return _fab_move
    from cardzones.rulesets.redemption import relocate

    return relocate


def _then(ctx: Context, then: YMap, card: int, result: MoveResult) -> None:
    """3.0.9b: the rest of the effect still references the new object, as long as
    it is public."""
    if len(then) != 1:
        raise ctx.fail(then, None, "then: holds exactly one action")
    key, args = next(iter(then.items()))
    handler = action_table(ctx.ruleset).get(key)
    if handler is None or key in ("end_turn", "then"):
        raise ctx.fail(then, key, f"unknown action {key!r} in then:")
    if args is None:
        args = YMap()
        args.key_lines = {}
    if not isinstance(args, YMap):
        raise ctx.fail(then, key, f"{key} takes a mapping")
    if "card" in args:
        raise ctx.fail(args, "card", "then: applies to the moved object; leave out card:")
    game = ctx.game
    if result not in (MoveResult.MOVED, MoveResult.NO_MOVE) or not game.exists(card):
        return
    if not game.obj(card).public:
        return  # 3.0.9b: a private object is no longer referenced
    handler_with_card(handler, ctx, args, card)


def handler_with_card(handler: Handler, ctx: Context, args: YMap, card: int) -> MoveResult:
    label = f"__then_{card}"
    ctx.labels[label] = card
    merged = YMap(args)
    merged.line = args.line
    merged.file = args.file
    merged.key_lines = dict(args.key_lines)
    merged["card"] = f"${label}"
    try:
        return handler(ctx, merged)
    finally:
        del ctx.labels[label]


def do_shuffle(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"zone", "by"} | COMMON, "shuffle")
    ctx.require(node, "zone", "shuffle")
    return ctx.game.shuffle(ctx.existing_zone(node, "zone"), by=ctx.player(node))


def do_flip(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"card", "face", "by"} | COMMON, "flip")
    face = ctx.choice(node, "face", ("up", "down"), None)
    if face is None:
        raise ctx.fail(node, None, "flip needs face: up or down")
    return ctx.game.flip(ctx.card(node, "card"), face, by=ctx.player(node))


STAT_KEYS = ("power", "defense", "strength", "toughness", "pitch", "cost")


def do_modify(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"card", "until", *STAT_KEYS} | COMMON, "modify")
    card = ctx.card(node, "card")
    mods = [(k, ctx.delta(node, k)) for k in STAT_KEYS if k in node]
    if not mods:
        raise ctx.fail(node, None, "modify needs at least one of " + ", ".join(STAT_KEYS))
    until = _until(ctx, node)
    game = ctx.game
    with game.atomic():
        eid = game.add_effect(card, "modify", mods=mods, until=until, label=ctx.label(node))
    _label_effect(ctx, node, eid)
    return MoveResult.DONE


def do_grant(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"card", "keyword", "until"} | COMMON, "grant")
    card = ctx.card(node, "card")
    keyword = ctx.require(node, "keyword", "grant")
    if not isinstance(keyword, str):
        raise ctx.fail(node, "keyword", "keyword must be a word such as go_again")
    game = ctx.game
    with game.atomic():
        eid = game.add_effect(
            card,
            "grant",
            keywords=[keyword.strip().lower()],
            until=_until(ctx, node),
            label=ctx.label(node),
        )
    _label_effect(ctx, node, eid)
    return MoveResult.DONE


def _until(ctx: Context, node: YMap) -> str | None:
    until = node.get("until")
    if until not in (None, END_OF_TURN):
        raise ctx.fail(node, "until", f"until is end_of_turn, not {until!r}")
    return None if until is None else str(until)


def _label_effect(ctx: Context, node: YMap, eid: int) -> None:
    label = ctx.label(node)
    if label is not None:
        ctx.effects[label] = ("kernel", eid)


def do_end_turn(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"order"} | COMMON, "end_turn")
    order: list[int] = []
    if "order" in node:
        order = ctx.cards_list(node, "order")
    return ctx.game.end_turn(order)


# -- fab ----------------------------------------------------------------


def do_clear(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"card", "by"} | COMMON, "clear")
    return ctx.game.clear(ctx.card(node, "card"), by=ctx.player(node))


def do_put_under(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"card", "top", "by"} | COMMON, "put_under")
    ctx.require(node, "top", "put_under")
    return fab.put_under(ctx.game, ctx.card(node, "card"), ctx.card(node, "top"), ctx.player(node))


def do_play(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"card", "by"} | COMMON, "play")
    return fab.play(ctx.game, ctx.card(node, "card"), ctx.player(node))


def do_add_layer(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"kind", "source", "by"} | COMMON, "add_layer")
    kind = ctx.choice(node, "kind", ("activated", "triggered"), None)
    if kind is None:
        raise ctx.fail(node, None, "add_layer needs kind: activated or triggered")
    ctx.require(node, "source", "add_layer")
    game = ctx.game
    with game.atomic():
        card = layers.add_layer(game, kind, ctx.card(node, "source"), ctx.player(node))
    label = ctx.label(node)
    if label is not None:
        ctx.labels[label] = card
        ctx.effects[label] = ("layer", card)
    return MoveResult.DONE


def do_remove_layer(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"layer", "by"} | COMMON, "remove_layer")
    ctx.require(node, "layer", "remove_layer")
    game = ctx.game
    with game.atomic():
        return layers.remove_layer(game, ctx.integer(node, "layer"), ctx.player(node))


def do_resolve(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"by"} | COMMON, "resolve")
    game = ctx.game
    with game.atomic():
        return layers.resolve_top(game, ctx.player(node))


def do_create_token(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(
        node, {"card", "to", "controller", "choose_zone"} | COMMON, "create_token"
    )
    name = ctx.require(node, "card", "create_token")
    if not isinstance(name, str):
        raise ctx.fail(node, "card", "card: is the token's name")
    ctx.require(node, "to", "create_token")
    controller = ctx.player(node, "controller")
    dest = ctx.dest(node, "to")
    if dest.type == "soul":
        raise ctx.fail(node, "to", "a token is created in the arena (8.1.8a)")
    result, card = fab.try_create_token(
        ctx.game, ctx.card_def(name), dest, controller, choose_zone=ctx.choose_zone(node)
    )
    label = ctx.label(node)
    if label is not None:
        if card is not None:
            ctx.labels[label] = card
        else:
            ctx.labels[label] = -1  # a token that was never made: it does not exist
    return result


def do_create_zone(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"zone"} | COMMON, "create_zone")
    ref = ctx.zone_ref(node, "zone", ctx.require(node, "zone", "create_zone"))
    if ref.owner is None:
        raise ctx.fail(node, "zone", "create_zone needs a player's zone, e.g. alice.arsenal")
    fab.create_zone(ctx.game, ref.owner, ref.type)
    return MoveResult.DONE


def do_remove_zone(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"zone", "choose_zone"} | COMMON, "remove_zone")
    ref = ctx.zone_ref(node, "zone", ctx.require(node, "zone", "remove_zone"))
    if ref.owner is None:
        raise ctx.fail(node, "zone", "remove_zone needs a player's zone, e.g. alice.arsenal")
    choose = ctx.choose_zone(node)
    if choose is None and ref.number is not None:
        choose = ctx.zone_id(ref, node, "zone")
    return fab.remove_zone(ctx.game, ref.owner, ref.type, choose)


BOTH: dict[str, Handler] = {
    "move": do_move,
    "shuffle": do_shuffle,
    "flip": do_flip,
    "modify": do_modify,
    "grant": do_grant,
    "end_turn": do_end_turn,
}

FAB: dict[str, Handler] = {
    "clear": do_clear,
    "put_under": do_put_under,
    "play": do_play,
    "add_layer": do_add_layer,
    "remove_layer": do_remove_layer,
    "resolve": do_resolve,
    "create_token": do_create_token,
    "create_zone": do_create_zone,
    "remove_zone": do_remove_zone,
}


def action_table(ruleset: str) -> dict[str, Handler]:
    if ruleset == "fab":
        return {**BOTH, **FAB}
    from cardzones.scenario.redemption_actions import REDEMPTION

    return {**BOTH, **REDEMPTION}
