"""Card definitions in scenario files (the ``cards:`` section).

The fields of a card are the rule set's (:attr:`Ruleset.card_params
<cardzones.kernel.ruleset.Ruleset.card_params>`), checked by the same binder as
the arguments of actions; ``abilities`` are the kernel's, and the same in every
rule set. :func:`card_entry` writes a card the other way, as the ``cards:``
entry that defines it: how a card from the card index is kept in a table's
creation record and in an exported scenario.

>>> from cardzones.rulesets import get_ruleset
>>> fab = get_ruleset("fab")
>>> edge = CardDef("Edge of Autumn", frozenset({"ninja", "weapon", "sword", "2h"}), {"power": 1})
>>> card_entry(edge, fab)
{'types': ['2h', 'ninja', 'sword', 'weapon'], 'power': 1}
>>> parse_card("Edge of Autumn", from_data(card_entry(edge, fab)), fab) == edge
True
"""

from __future__ import annotations

from typing import Any

from cardzones.acts.actions import ArgumentError
from cardzones.acts.binding import bind_fields
from cardzones.errors import ScenarioError
from cardzones.kernel.cards import (
    Ability,
    CardDef,
    Dest,
    HistoryCondition,
    PlayFrom,
    Replacement,
    Trigger,
)
from cardzones.position.context import line_at
from cardzones.position.loader import YMap, from_data
from cardzones.position.refs import parse_zone
from cardzones.rulesets.base import Ruleset


def _fail(node: Any, key: str | None, message: str) -> ScenarioError:
    line = node.line_of(key) if isinstance(node, YMap) and key else getattr(node, "line", None)
    return ScenarioError(message, file=getattr(node, "file", "<scenario>"), line=line)


def _words(node: YMap, key: str, value: Any) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise _fail(node, key, f"{key} must be a list of words, got {value!r}")
    return [v.strip().lower().replace(" ", "_") for v in value]


def _keys(node: Any, allowed: set[str], what: str) -> YMap:
    if not isinstance(node, dict):
        raise _fail(node, None, f"{what} must be a mapping, got {node!r}")
    for key in node:
        if key not in allowed:
            raise _fail(
                node, key, f"unknown key {key!r} in {what}; allowed: {', '.join(sorted(allowed))}"
            )
    assert isinstance(node, YMap)
    return node


def ability_dest(node: YMap, key: str, value: Any, types: set[str]) -> Dest:
    """A destination in a card ability: ``owner.deck``, ``you.soul``, ``graveyard``."""
    ref = parse_zone(value)
    if ref is None or ref.type not in types:
        raise _fail(node, key, f"{key}: {value!r} is not a zone (types: {' '.join(sorted(types))})")
    return Dest(ref.type, ref.owner, ref.number)


def parse_card(name: str, node: Any, ruleset: Ruleset) -> CardDef:
    """The card a ``cards:`` entry describes, in ``ruleset``."""
    what = f"card {name!r}"
    if not isinstance(node, dict):
        raise _fail(node, None, f"{what} must be a mapping, got {node!r}")
    zone_types = set(ruleset.zone_specs)
    pseudo = set(ruleset.destinations) | set(ruleset.piles)
    try:
        bound = bind_fields(what, ruleset.card_params, node, reserved=frozenset({"abilities"}))
        abilities = _abilities(node, zone_types, pseudo) if isinstance(node, YMap) else ()
        # The rule set may refuse a combination of fields, with the path of one.
        return ruleset.make_card(name, bound, abilities)
    except ArgumentError as exc:
        raise ScenarioError(
            exc.message, file=getattr(node, "file", "<scenario>"), line=line_at(node, exc.path)
        ) from None


def _abilities(node: YMap, zone_types: set[str], pseudo: set[str]) -> tuple[Ability, ...]:
    raw = node.get("abilities", [])
    if not isinstance(raw, list):
        raise _fail(node, "abilities", "abilities must be a list")
    out: list[Ability] = []
    for item in raw:
        item = _keys(item, {"replace", "play_from", "trigger"}, "an ability")
        if len(item) != 1:
            raise _fail(item, None, "an ability has exactly one of replace, play_from, trigger")
        kind, body = next(iter(item.items()))
        if kind == "replace":
            out.append(_replacement(body, zone_types))
        elif kind == "play_from":
            out.append(_play_from(body, zone_types))
        else:
            out.append(_trigger(body, zone_types, pseudo))
    return tuple(out)


def _type(node: YMap, key: str, zone_types: set[str], extra: tuple[str, ...] = ()) -> str:
    value = node.get(key)
    if not isinstance(value, str) or (value not in zone_types and value not in extra):
        raise _fail(node, key, f"{key}: {value!r} is not a zone type")
    return value


def _replacement(body: Any, zone_types: set[str]) -> Replacement:
    body = _keys(body, {"moved_to", "from", "instead"}, "replace")
    moved_to = _type(body, "moved_to", zone_types)
    from_ = body.get("from", "any")
    if from_ != "any":
        from_ = _type(body, "from", zone_types)
    instead = _keys(body.get("instead"), {"to", "position", "face"}, "replace.instead")
    position = instead.get("position", "top")
    if position not in ("top", "bottom"):
        raise _fail(instead, "position", "position is top or bottom")
    face = instead.get("face")
    if face not in (None, "up", "down"):
        raise _fail(instead, "face", "face is up or down")
    dest = ability_dest(instead, "to", instead.get("to"), zone_types)
    if dest.owner is None:
        dest = Dest(dest.type, "owner", dest.index)
    return Replacement(moved_to, None if from_ == "any" else from_, dest, position, face)


def _play_from(body: Any, zone_types: set[str]) -> PlayFrom:
    body = _keys(body, {"zone", "face_down", "if"}, "play_from")
    zone = _type(body, "zone", zone_types)
    face_down = body.get("face_down", False)
    if not isinstance(face_down, bool):
        raise _fail(body, "face_down", "face_down is true or false")
    cond = None
    if "if" in body:
        c = _keys(body["if"], {"moved_from", "to", "this_turn"}, "play_from.if")
        this_turn = c.get("this_turn", False)
        if not isinstance(this_turn, bool):
            raise _fail(c, "this_turn", "this_turn is true or false")
        cond = HistoryCondition(
            _type(c, "moved_from", zone_types) if "moved_from" in c else None,
            _type(c, "to", zone_types) if "to" in c else None,
            this_turn,
        )
    return PlayFrom(zone, face_down, cond)


def _trigger(body: Any, zone_types: set[str], pseudo: set[str]) -> Trigger:
    body = _keys(body, {"when", "do"}, "trigger")
    when = _keys(body.get("when"), {"from", "to", "types_any", "controlled_by"}, "trigger.when")
    do = _keys(body.get("do"), {"to"}, "trigger.do")
    from_ = when.get("from")
    if from_ is not None:
        ref = parse_zone(from_)
        if ref is None or (ref.type not in zone_types and ref.type != "arena"):
            # "arena" as an origin is the kernel's: any zone of the arena (3.0.5).
            raise _fail(when, "from", f"from: {from_!r} is not a zone type or arena")
        from_ = ref.type
    to = _type(when, "to", zone_types) if "to" in when else None
    controlled = when.get("controlled_by")
    if controlled not in (None, "you"):
        raise _fail(when, "controlled_by", "controlled_by is you")
    types_any = frozenset(_words(when, "types_any", when.get("types_any", [])))
    dest = ability_dest(do, "to", do.get("to"), zone_types | pseudo)
    return Trigger(to, from_, types_any, controlled == "you", dest)


# ----------------------------------------------------------------------
# The other way: a card as its cards: entry
# ----------------------------------------------------------------------


def card_entry(cdef: CardDef, ruleset: Ruleset, *, check: bool = True) -> dict[str, Any]:
    """The ``cards:`` entry (plain data) that defines ``cdef`` in ``ruleset``,
    under its name. The entry is read back and must make the same card: a
    card that card data cannot say in full is refused with a
    :class:`ScenarioError`, never written down changed. With ``check=False``
    the caller reads it back itself, as the card it goes on to use (a table
    built from its record)."""
    entry = dict(ruleset.card_fields(cdef))
    if cdef.abilities:
        entry["abilities"] = [_ability_entry(a) for a in cdef.abilities]
    if not check:
        return entry
    try:
        again = parse_card(cdef.name, from_data(entry), ruleset)
    except ScenarioError as exc:
        again, problem = None, exc.message
    else:
        problem = "it reads back as another card"
    if again != cdef:
        raise ScenarioError(
            f"{cdef.name} cannot be written as a {ruleset.name} cards: entry: {problem}"
        )
    return entry


def _ability_entry(ability: Ability) -> dict[str, Any]:
    if isinstance(ability, Replacement):
        instead: dict[str, Any] = {"to": str(ability.to), "position": ability.position}
        if ability.face is not None:
            instead["face"] = ability.face
        return {
            "replace": {
                "moved_to": ability.moved_to,
                "from": ability.from_ or "any",
                "instead": instead,
            }
        }
    if isinstance(ability, PlayFrom):
        play: dict[str, Any] = {"zone": ability.zone, "face_down": ability.face_down}
        cond = ability.condition
        if cond is not None:
            when: dict[str, Any] = {"this_turn": cond.this_turn}
            if cond.moved_from is not None:
                when["moved_from"] = cond.moved_from
            if cond.to is not None:
                when["to"] = cond.to
            play["if"] = when
        return {"play_from": play}
    trigger: dict[str, Any] = {}
    if ability.from_ is not None:
        trigger["from"] = ability.from_
    if ability.to is not None:
        trigger["to"] = ability.to
    if ability.types_any:
        trigger["types_any"] = sorted(ability.types_any)
    if ability.controlled_by_you:
        trigger["controlled_by"] = "you"
    do = {"to": str(ability.do)} if ability.do is not None else {}
    return {"trigger": {"when": trigger, "do": do}}
