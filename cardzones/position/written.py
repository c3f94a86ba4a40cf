"""A start position's real cards, written down: every card a scenario took from
the card index, as the ``cards:`` entries that define it.

A scenario with ``card_data:`` reads the card index as it is when it runs. A
start position that must give the same game later, whatever the index holds
then (a table's creation record, an exported game), keeps the cards instead:
:func:`written_cards` gives the ``cards:`` entries of every card the set-up
took from the index, in the scenario format's own words, so that the same
start position without ``card_data:`` makes exactly the same game. A name used
with several variants (fab's pitches) gets a list of definitions, one per
variant, and each set-up entry's key (``pitch:``) picks among them as it
picked in the index.

:func:`token_cards` writes down the token cards of the index the same way:
what a game may create later by name (fab's ``create_token``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cardzones.cards.lookup import CardLookup
from cardzones.kernel.cards import CardDef
from cardzones.position.cards import card_entry
from cardzones.position.context import Context
from cardzones.rulesets.base import Ruleset, ruleset_of


def written_cards(ctx: Context) -> dict[str, Any]:
    """The ``cards:`` entries of every card ``ctx`` took from the card index,
    by the name the scenario gave it."""
    ruleset = ruleset_of(ctx.game)
    return {name: _entry(defs.values(), ruleset) for name, defs in ctx.resolved.items()}


def token_cards(lookup: CardLookup, ruleset: Ruleset) -> dict[str, Any]:
    """The ``cards:`` entries of every token card of the game in the card index."""
    by_name: dict[str, dict[int | None, CardDef]] = {}
    for cdef in lookup.tokens():
        by_name.setdefault(cdef.name, {})[ruleset.variants.of(cdef)] = cdef
    return {name: _entry(defs.values(), ruleset) for name, defs in sorted(by_name.items())}


def placed_cards(placed: Iterable[CardDef], ruleset: Ruleset) -> dict[str, Any]:
    """The ``cards:`` entries of the cards a start position places, as
    :func:`written_cards` writes them, but not read back: the caller builds
    its game from these entries and compares each card it reads with the one
    it placed, so that every card is made from its entry once."""
    by_name: dict[str, dict[int | None, CardDef]] = {}
    for cdef in placed:
        by_name.setdefault(cdef.name, {})[ruleset.variants.of(cdef)] = cdef
    return {name: _entry(defs.values(), ruleset, check=False) for name, defs in by_name.items()}


def _entry(defs: Iterable[CardDef], ruleset: Ruleset, *, check: bool = True) -> Any:
    number = ruleset.variants.of
    ordered = sorted(defs, key=lambda c: (number(c) is not None, number(c) or 0))
    if len(ordered) == 1:
        return card_entry(ordered[0], ruleset, check=check)
    return [card_entry(cdef, ruleset, check=check) for cdef in ordered]
