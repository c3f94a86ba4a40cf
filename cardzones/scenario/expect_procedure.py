"""Expectations of a game's procedure: ``expect: {procedure: {...}}``.

Each key given is compared with the same key of the procedure as the views
show it (the rule set's ``procedure_view``): the phase, the step, who has
priority, the points, the result, a battle. A mapping is compared in the
keys it gives, a list item by item, a card by its name. ``links`` is a list of mappings, one per
chain link, each compared key by key; a link's ``attack``, ``source`` and
``defending`` name cards as any step does. ``winner`` is the result's
winner, ``over`` whether there is a result (where the procedure shows no
keys of those names itself). ``targets`` (fab's attacks on the stack with
their targets) is a list of mappings too, its ``attack`` naming a card.
"""

from __future__ import annotations

from typing import Any

from cardzones.kernel.views import handle_for
from cardzones.position.context import Context
from cardzones.position.loader import YList, YMap
from cardzones.rulesets.base import ruleset_of

#: The keys of a link that name cards.
_CARD_KEYS = ("attack", "source")
#: The lists of mappings compared row by row: where their rows are, what
#: they are called, and the example a row that is no mapping is told of.
_ROWS = {
    "links": ("the chain of attacks", "chain links", "{attacker: alice}"),
    "targets": ("the stack", "attacks with a target", "{attack: CARD, target: PLAYER}"),
}


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
        elif key in _ROWS and isinstance(shown.get(key), list):
            problem = _links(ctx, want, value, shown[key], key)
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


def _links(
    ctx: Context, node: YMap, value: Any, shown: list[dict[str, Any]], name: str = "links"
) -> str | None:
    """The chain links (or the attacks with a target, ``name``) compared
    row by row, each in the keys it gives, cards by name."""
    where, rows, example = _ROWS[name]
    if isinstance(value, int) and not isinstance(value, bool):
        if len(shown) != value:
            return f"{where} should have {value} {rows}, found {len(shown)}"
        return None
    if not isinstance(value, YList):
        what = "links" if name == "links" else rows
        raise ctx.fail(node, name, f"{name}: is a number of {what} or a list of them")
    if len(value) != len(shown):
        return f"{where} should have {len(value)} {rows}, found {len(shown)}"
    game = ctx.game
    label = "chain link" if name == "links" else "attack with a target"
    for number, (want, found) in enumerate(zip(value, shown, strict=True), 1):
        if not isinstance(want, YMap):
            row = "link" if name == "links" else "one"
            raise ctx.fail(node, name, f"each {row} is a mapping such as {example}")
        for key, expected in want.items():
            if key not in found:
                keys = ", ".join(found)
                word = "link" if name == "links" else "target"
                raise ctx.fail(want, key, f"unknown {word} key {key!r}; keys are {keys}")
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
                return f"{label} {number}: {key} should be {want[key]!r}, found {found[key]!r}"
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
