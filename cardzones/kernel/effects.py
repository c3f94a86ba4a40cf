"""Continuous effects: the record, and starting and ending them.

An effect is bound to one object (its ``oid``) unless it is an ongoing ability
whose life is governed by a condition, in which case ``oid`` is None and the
rule set decides when it is active. A bound effect ends when its object
becomes a new object (3.0.9): the kernel drops it at the reset.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
>>> eid = game.add_effect(card, "modify", mods=[("power", 2)])
>>> game.stat(card, "power"), game.is_active(EffectRef(eid))
(2, True)
>>> game.end_effect(eid)
>>> game.stat(card, "power"), game.is_active(EffectRef(eid))
(None, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from cardzones.kernel.state import EFFECTS, FX_BY_CARD, State

END_OF_TURN = "end_of_turn"
#: The kind of effect that holds counters of one name on an object.
COUNTER = "counter"


class Effect(NamedTuple):
    eid: int
    kind: str  # "modify" | "grant" | "ongoing"
    card: int
    oid: int | None
    mods: tuple[tuple[str, int], ...] = ()
    keywords: tuple[str, ...] = ()
    until: str | None = None
    label: str | None = None
    data: object = None


class Counters(NamedTuple):
    """The ``data`` of a :data:`COUNTER` effect: ``number`` counters called
    ``name`` on its object. They are the object's, so they go when it
    becomes a new object (3.0.9), like any effect bound to it."""

    name: str
    number: int


class EffectRef(NamedTuple):
    """Names one continuous effect of the kernel, as an action returns it for
    ``as:`` labels and ``negate`` (see :meth:`Game.is_active`)."""

    eid: int


def add_effect(
    game: State,
    card: int,
    kind: str,
    *,
    mods: Iterable[tuple[str, int]] = (),
    keywords: Iterable[str] = (),
    until: str | None = None,
    label: str | None = None,
    bound: bool = True,
    data: object = None,
) -> int:
    """Create a continuous effect on a card, and return its id. A ``bound``
    effect applies to the current object only and ends when it becomes a new
    object (3.0.9); an unbound one lasts while the rule set's
    :meth:`~cardzones.kernel.ruleset.Ruleset.effect_active` says so, until it is
    ended. ``until`` names a duration that ends it (``end_of_turn``)."""
    obj = game.obj(card)
    eid = game._next("next_eid")
    oid = obj.oid if bound else None
    effect = Effect(eid, kind, card, oid, tuple(mods), tuple(keywords), until, label, data)
    game._put(EFFECTS, eid, effect)
    game._put(FX_BY_CARD, card, (*game._fx_by_card.get(card, ()), eid))
    return eid


def end_effect(game: State, eid: int) -> None:
    """End a continuous effect; ending one that has ended changes nothing."""
    effect: Effect | None = game._effects.get(eid)
    if effect is None:
        return
    game._pop(EFFECTS, eid)
    rest = tuple(e for e in game._fx_by_card.get(effect.card, ()) if e != eid)
    if rest:
        game._put(FX_BY_CARD, effect.card, rest)
    else:
        game._pop(FX_BY_CARD, effect.card)


def end_effects_until(game: State, until: str) -> None:
    """End every effect with that duration ("until end of turn")."""
    for eid, effect in list(game._effects.items()):
        if effect.until == until:
            end_effect(game, eid)


def _end_bound_effects(game: State, card: int, old_oid: int) -> None:
    """3.0.9: effects bound to the previous object end with it."""
    for eid in game._fx_by_card.get(card, ()):
        if game._effects[eid].oid == old_oid:
            end_effect(game, eid)
