"""How legal actions read the candidates of an action quickly: for each set
of keys a candidate gives, once per listing, what the quick binding checks of
each value (:func:`shape_of`), so that only a candidate of an unusual shape
goes through the binder's own pass
(:func:`~cardzones.acts.binding.bind`).
"""

from __future__ import annotations

from cardzones.acts.actions import Action, ParamKind, Role

#: What the quick binding checks of a given value (beside None: nothing):
#: the actor is the player; a card the player may name (and act on); each
#: card of a list so; a zone of the player's; a nested value, which only the
#: binder's own pass checks.
ACTOR, CARD, CARDS, OWN_ZONE, NESTED = range(5)
#: How the quick binding reads candidates of one set of keys (their order in
#: the candidate): the checks of the values given, each (key, check, whether
#: the card is one the player acts on), or None when the binder must read
#: them (a key the action lacks, a required one left out, a group of
#: ``one_of`` that no key can meet, a card parameter with a default).
Shape = tuple[tuple[str, int, bool], ...] | None


def shape_of(action: Action, keys: tuple[str, ...]) -> Shape:
    params = {p.name: p for p in action.params}
    if any(k not in params for k in keys) or any(
        p.required and p.name not in keys for p in action.params
    ):
        return None
    if any(not any(k in keys for k in g.names) for g in action.one_of):
        return None
    checks: list[tuple[str, int, bool]] = []
    for param in action.params:
        kind = param.kind
        if (kind is ParamKind.CARD or kind is ParamKind.CARDS) and param.default is not None:
            return None  # a card named by default: the binder and the look see it
        if param.name not in keys:
            continue
        if param.name == action.actor:
            if param.role is not Role.ANY_PLAYER:
                checks.append((param.name, ACTOR, False))
        elif kind is ParamKind.CARD or kind is ParamKind.CARDS:
            check = CARD if kind is ParamKind.CARD else CARDS
            checks.append((param.name, check, param.role is Role.ACTS_ON))
        elif kind is ParamKind.ZONE or kind is ParamKind.ZONE_NAME:
            if param.role is Role.OWN_ZONE:
                checks.append((param.name, OWN_ZONE, False))
        elif kind is ParamKind.MAPPING or kind is ParamKind.ACTION:
            checks.append((param.name, NESTED, False))
    return tuple(checks)
