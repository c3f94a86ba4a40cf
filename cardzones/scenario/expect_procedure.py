"""Expectations of a game's procedure: ``expect: {procedure: {...}}``.

Each key given is compared with the same key of the procedure as the views
show it (the rule set's ``procedure_view``): the phase, the step, who has
priority, the points, the result, a battle. A mapping is compared in the
keys it gives, a list item by item, a card by its name. ``links`` is a list of mappings, one per
chain link, each compared key by key; a link's ``attack``, ``source`` and
``defending`` name cards as any step does. ``winner`` is the result's
winner, ``over`` whether there is a result (where the procedure shows no
keys of those names itself).
"""

from __future__ import annotations

from typing import Any

from cardzones.kernel.views import handle_for
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
        if key == "winner" and "winner" not in shown:
            found: Any = None if result is None else result["winner"]
        elif key == "over" and "over" not in shown:
            found = result is not None
        elif key == "links" and isinstance(shown.get("links"), list):
            problem = _links(ctx, want, value, shown["links"])
            if problem is not None:
                return problem
            continue
        elif key in shown:
            problem = _differs(f"procedure {key}", value, shown[key])
            if problem is not None:
                return problem
            continue
        else:
            keys = sorted({*shown, "winner", "over"})
            raise ctx.fail(want, key, f"unknown procedure key {key!r}; keys are {', '.join(keys)}")
        if found != value:
            return f"procedure {key} should be {value!r}, found {found!r}"
    return None


def _links(ctx: Context, node: YMap, value: Any, shown: list[dict[str, Any]]) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool):
        if len(shown) != value:
            return f"the chain of attacks should have {value} chain links, found {len(shown)}"
        return None
    if not isinstance(value, YList):
        raise ctx.fail(node, "links", "links: is a number of links or a list of them")
    if len(value) != len(shown):
        return f"the chain of attacks should have {len(value)} chain links, found {len(shown)}"
    game = ctx.game
    for number, (want, found) in enumerate(zip(value, shown, strict=True), 1):
        if not isinstance(want, YMap):
            raise ctx.fail(node, "links", "each link is a mapping such as {attacker: alice}")
        for key, expected in want.items():
            if key not in found:
                raise ctx.fail(want, key, f"unknown link key {key!r}; keys are {', '.join(found)}")
            if key in _CARD_KEYS:
                expected = handle_for(game, None, ctx.card(want, key))
            elif key == "defending":
                if not isinstance(expected, YList):
                    raise ctx.fail(want, key, "defending: is a list of cards")
                expected = sorted(
                    str(handle_for(game, None, ctx.card(want, key, v))) for v in expected
                )
                found = {**found, key: sorted(found[key])}
            if found[key] != expected:
                return f"chain link {number}: {key} should be {want[key]!r}, found {found[key]!r}"
    return None


def _differs(path: str, want: Any, found: Any) -> str | None:
    """Where ``found`` differs from ``want``: a mapping in each key ``want``
    gives, a list item by item, a card (a mapping with a name) by its name."""
    if isinstance(found, dict) and "name" in found and "id" in found and not isinstance(want, dict):
        found = found["name"]
    if isinstance(want, dict):
        if not isinstance(found, dict):
            return f"{path} should be a mapping, found {found!r}"
        for key, value in want.items():
            if key not in found:
                return f"{path} has no {key}; it has {', '.join(sorted(found))}"
            problem = _differs(f"{path}.{key}", value, found[key])
            if problem is not None:
                return problem
        return None
    if isinstance(want, list):
        if not isinstance(found, list) or len(found) != len(want):
            return f"{path} should be {want!r}, found {found!r}"
        for i, (w, f) in enumerate(zip(want, found, strict=True)):
            problem = _differs(f"{path}[{i}]", w, f)
            if problem is not None:
                return problem
        return None
    if want != found:
        return f"{path} should be {want!r}, found {found!r}"
    return None
