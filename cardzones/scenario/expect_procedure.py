"""Expectations of a game's procedure: ``expect: {procedure: {...}}``.

Each key given is compared with the same key of the procedure as the views
show it (the rule set's ``procedure_view``): the phase, the step, who has
priority, the points, the result. ``links`` is a list of mappings, one per
chain link, each compared key by key; a link's ``attack``, ``source`` and
``defending`` name cards as any step does. ``winner`` is the result's
winner, ``over`` whether there is a result.
"""

from __future__ import annotations

from typing import Any

from cardzones.position.context import Context
from cardzones.position.loader import YList, YMap
from cardzones.rulesets.base import ruleset_of

#: The keys of a link that name cards.
_CARD_KEYS = ("attack", "source")


def check(ctx: Context, node: YMap) -> str | None:
    """None when every key holds; else what was expected and found."""
    node = ctx.check_keys(node, {"procedure"}, "expect procedure")
    want = node["procedure"]
    if not isinstance(want, YMap) or not want:
        raise ctx.fail(node, "procedure", "procedure: takes a mapping such as {priority: alice}")
    game = ctx.game
    shown = ruleset_of(game).procedure_view(game, None)
    if shown is None:
        return "the game is not under its game procedure"
    result = shown.get("result")
    for key, value in want.items():
        if key == "winner":
            found: Any = None if result is None else result["winner"]
        elif key == "over":
            found = result is not None
        elif key == "links":
            problem = _links(ctx, want, value, shown["links"])
            if problem is not None:
                return problem
            continue
        elif key in shown:
            found = shown[key]
        else:
            keys = sorted({*shown, "winner", "over"})
            raise ctx.fail(want, key, f"unknown procedure key {key!r}; keys are {', '.join(keys)}")
        if found != value:
            return f"procedure {key} should be {value!r}, found {found!r}"
    return None


def _links(ctx: Context, node: YMap, value: Any, shown: list[dict[str, Any]]) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool):
        if len(shown) != value:
            return f"the combat chain should have {value} chain links, found {len(shown)}"
        return None
    if not isinstance(value, YList):
        raise ctx.fail(node, "links", "links: is a number of links or a list of them")
    if len(value) != len(shown):
        return f"the combat chain should have {len(value)} chain links, found {len(shown)}"
    game = ctx.game
    for number, (want, found) in enumerate(zip(value, shown, strict=True), 1):
        if not isinstance(want, YMap):
            raise ctx.fail(node, "links", "each link is a mapping such as {attacker: alice}")
        for key, expected in want.items():
            if key not in found:
                raise ctx.fail(want, key, f"unknown link key {key!r}; keys are {', '.join(found)}")
            if key in _CARD_KEYS:
                expected = game.handle(ctx.card(want, key))
            elif key == "defending":
                if not isinstance(expected, YList):
                    raise ctx.fail(want, key, "defending: is a list of cards")
                expected = sorted(game.handle(ctx.card(want, key, v)) for v in expected)
                found = {**found, key: sorted(found[key])}
            if found[key] != expected:
                return f"chain link {number}: {key} should be {want[key]!r}, found {found[key]!r}"
    return None
