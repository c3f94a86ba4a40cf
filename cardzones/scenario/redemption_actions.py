"""Scenario actions of the Redemption rule set: ``place``, ``set_aside``,
``return``, ``negate``, ``dominant``, ``discard``, ``phase`` and ``end_battle``.
Each handler reads its mapping, calls the rule set, and returns what the
action did."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardzones.kernel.game import MoveResult
from cardzones.rulesets.redemption import (
    PHASES,
    Ongoing,
    advance_to,
    discard,
    end_battle,
    negate,
    place,
    play_dominant,
    return_cards,
    set_aside,
)
from cardzones.scenario.actions import COMMON, _position
from cardzones.scenario.context import Context
from cardzones.scenario.loader import YMap

if TYPE_CHECKING:
    from cardzones.scenario.actions import Handler

EFFECT_STATS = ("strength", "toughness")


def _ongoing(ctx: Context, node: YMap, key: str) -> Ongoing | None:
    """``EFFECT``: ``{card: REF, strength: +N, toughness: +N}``."""
    if key not in node:
        return None
    body = ctx.check_keys(node[key], {"card", *EFFECT_STATS}, key)
    ctx.require(body, "card", key)
    mods = tuple((k, ctx.delta(body, k)) for k in EFFECT_STATS if k in body)
    if not mods:
        raise ctx.fail(body, None, f"{key} needs strength: or toughness:")
    return Ongoing(ctx.card(body, "card"), mods)


def _remember(ctx: Context, node: YMap, handle: object) -> None:
    label = ctx.label(node)
    if label is not None and handle is not None:
        ctx.effects[label] = handle


def do_place(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(
        node,
        {"cards", "onto", "in", "position", "by", "source", "order", "ongoing", "colon"} | COMMON,
        "place",
    )
    ctx.require(node, "cards", "place")
    if ("onto" in node) == ("in" in node):
        raise ctx.fail(node, None, "place takes exactly one of onto: and in:")
    result, handle = place(
        ctx.game,
        ctx.cards_list(node, "cards"),
        by=ctx.player(node),
        onto=ctx.card(node, "onto") if "onto" in node else None,
        into=ctx.dest(node, "in") if "in" in node else None,
        position=_position(ctx, node),
        source=ctx.card(node, "source") if "source" in node else None,
        order=ctx.cards_list(node, "order") if "order" in node else None,
        ongoing=_ongoing(ctx, node, "ongoing"),
        colon=ctx.boolean(node, "colon"),
        label=ctx.label(node),
    )
    _remember(ctx, node, handle)
    return result


def do_set_aside(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(
        node,
        {"cards", "by", "source", "played_on", "duration", "ongoing", "area", "in_battle"} | COMMON,
        "set_aside",
    )
    ctx.require(node, "cards", "set_aside")
    result, handle = set_aside(
        ctx.game,
        ctx.cards_list(node, "cards"),
        by=ctx.player(node),
        source=ctx.card(node, "source") if "source" in node else None,
        played_on=ctx.card(node, "played_on") if "played_on" in node else None,
        duration=ctx.integer(node, "duration") if "duration" in node else None,
        ongoing=_ongoing(ctx, node, "ongoing"),
        area=ctx.existing_zone(node, "area") if "area" in node else None,
        in_battle=ctx.boolean(node, "in_battle"),
        label=ctx.label(node),
    )
    _remember(ctx, node, handle)
    return result


def do_return(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"cards", "by", "cause"} | COMMON, "return")
    ctx.require(node, "cards", "return")
    cause = ctx.choice(node, "cause", ("effect",), None)
    return return_cards(
        ctx.game,
        ctx.cards_list(node, "cards"),
        by=ctx.player(node),
        cause="effect" if cause == "effect" else "own",
    )


def do_negate(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"effect", "by"} | COMMON, "negate")
    label = str(ctx.require(node, "effect", "negate"))
    if label not in ctx.effects:
        known = ", ".join(sorted(ctx.effects)) or "none"
        raise ctx.fail(node, "effect", f"unknown effect label {label!r} (labels: {known})")
    return negate(ctx.game, ctx.effects[label], by=ctx.player(node))


def do_dominant(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"card", "target", "by"} | COMMON, "dominant")
    ctx.require(node, "card", "dominant")
    ctx.require(node, "target", "dominant")
    by = ctx.player(node) if "by" in node else None
    return play_dominant(ctx.game, ctx.card(node, "card"), ctx.card(node, "target"), by=by)


def do_discard(ctx: Context, node: YMap) -> MoveResult:
    node = ctx.check_keys(node, {"card", "by"} | COMMON, "discard")
    ctx.require(node, "card", "discard")
    result, handle = discard(
        ctx.game, ctx.card(node, "card"), by=ctx.player(node), label=ctx.label(node)
    )
    _remember(ctx, node, handle)
    return result


def do_phase(ctx: Context, node: YMap) -> MoveResult:
    """``phase: NAME``; the runner hands a bare value over as ``{phase: NAME}``."""
    node = ctx.check_keys(node, {"phase"} | COMMON, "phase")
    name = ctx.require(node, "phase", "phase")
    if name not in PHASES:
        raise ctx.fail(node, "phase", f"phase is one of {', '.join(PHASES)}, not {name!r}")
    return advance_to(ctx.game, str(name))


def do_end_battle(ctx: Context, node: YMap) -> MoveResult:
    ctx.check_keys(node, COMMON, "end_battle")
    return end_battle(ctx.game)


REDEMPTION: dict[str, Handler] = {
    "place": do_place,
    "set_aside": do_set_aside,
    "return": do_return,
    "negate": do_negate,
    "dominant": do_dominant,
    "discard": do_discard,
    "phase": do_phase,
    "end_battle": do_end_battle,
}
