"""The ``card_data:`` key: real cards from the card index, by name; and the
key of a rule set's variants, which picks one of a card's variants.

With ``card_data: fab`` (or ``redemption``, the same as ``ruleset:``), a card
name that is not under ``cards:`` is looked up in the card index
(:mod:`cardzones.cards`) instead of being a vanilla card. A rule set whose
cards of one name differ by a number declares its words for them
(:class:`~cardzones.rulesets.cardfiles.Variants`), and a setup entry picks
one by its key: a fab card's colour with ``pitch: 1|2|3``. A name with
several variants and none picked is an invalid file that names the options,
and so is a name the index does not have (with the closest names). Without
the key, nothing changes. The key picks the same way among the definitions
of a name that has several under ``cards:`` (a list, one per variant), which
is how a start position's real cards are written down without the index.

>>> from cardzones.scenario.runner import run_text
>>> outcome = run_text('''
... name: a vanilla card
... ruleset: fab
... setup: {alice.hand: [{card: Snatch, pitch: 1}]}
... steps: []
... ''')
>>> outcome.status, outcome.line, outcome.message
('invalid', 4, 'pitch: picks a colour of a card from the card index; it needs card_data: fab')
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from cardzones.cards.errors import CardDataError
from cardzones.cards.index import card_games
from cardzones.cards.lookup import CardLookup
from cardzones.errors import CardzonesError, ScenarioError
from cardzones.kernel.cards import CardDef
from cardzones.position.loader import YMap
from cardzones.rulesets import get_ruleset, ruleset_names
from cardzones.rulesets.base import ruleset_of
from cardzones.rulesets.cardfiles import Variants

if TYPE_CHECKING:
    from cardzones.position.context import Context

KEY = "card_data"


def read_card_data(doc: YMap, ruleset: str, file: str) -> CardLookup | None:
    """The card index a scenario's ``card_data:`` names, or None without the key."""
    if KEY not in doc:
        return None
    value = doc[KEY]
    line = doc.line_of(KEY)
    games = card_games()
    if not isinstance(value, str) or value not in games:
        raise ScenarioError(
            f"card_data: is {' or '.join(games)}, not {value!r}", file=file, line=line
        )
    if value != ruleset:
        raise ScenarioError(
            f"card_data: {value} does not match ruleset: {ruleset}", file=file, line=line
        )
    try:
        return CardLookup(value)
    except CardDataError as exc:
        raise ScenarioError(f"card_data: {exc}", file=file, line=line) from None


def variant_keys() -> dict[str, list[tuple[str, Variants]]]:
    """Every key a setup entry may pick a variant by, with the rule sets that
    declare it (fab's ``pitch``), whichever game a scenario plays: a key of
    another game's is refused in its words rather than as an unknown key."""
    return _variant_keys(ruleset_names())


@functools.cache
def _variant_keys(names: tuple[str, ...]) -> dict[str, list[tuple[str, Variants]]]:
    out: dict[str, list[tuple[str, Variants]]] = {}
    for name in names:
        try:
            variants = get_ruleset(name).variants
        except CardzonesError:
            continue  # a rule set that cannot load declares nothing
        if variants:
            out.setdefault(variants.key, []).append((name, variants))
    return out


def picked_key(entry: YMap | None) -> str | None:
    """The key of a setup entry that picks a variant, if it has one."""
    if entry is None:
        return None
    return next((k for k in variant_keys() if k in entry), None)


def named_card(ctx: Context, name: str, entry: YMap | None) -> CardDef:
    """The card a name (and a set-up entry's variant, such as fab's
    ``pitch``) stands for: under ``cards:`` (one definition, or one of
    several by its variant), else from the card index. A card from the index
    is kept in ``ctx.resolved``, so that the start position can be written
    down without the index (:mod:`cardzones.position.written`)."""
    v = ruleset_of(ctx.game).variants
    key = picked_key(entry)
    if key is not None and key != v.key:
        games = variant_keys()[key]
        whose = " or ".join(g for g, _ in games)
        raise ctx.fail(
            entry,
            key,
            f"{key}: picks the {games[0][1].what} of a {whose} card, not a {ctx.ruleset} one",
        )
    number = _number(ctx, entry, v) if key is not None else None
    if name in ctx.variants:
        return _variant(ctx, name, entry, number, v)
    if name in ctx.cards:
        cdef = ctx.cards[name]
        if number is not None and v.of(cdef) != number:
            if v.of(cdef) is None:
                message = f"{name} is defined under cards:, so {v.key}: has nothing to pick"
            else:
                message = f"{name} is defined under cards: with {v.key} {v.of(cdef)}"
            raise ctx.fail(entry, v.key, message)
        return cdef
    lookup: CardLookup | None = ctx.card_data
    if lookup is None:
        raise ctx.fail(
            entry,
            v.key,
            f"{v.key}: picks a {v.what} of a card from the card index; "
            f"it needs card_data: {ctx.ruleset}",
        )
    try:
        cdef = lookup.card_def(name, number)
    except CardDataError as exc:
        raise ctx.fail(entry, "card", str(exc)) from None
    ctx.resolved.setdefault(name, {})[v.of(cdef)] = cdef
    return cdef


def _variant(
    ctx: Context, name: str, entry: YMap | None, number: int | None, v: Variants
) -> CardDef:
    """One of the definitions of a name with several under ``cards:``."""
    defs = ctx.variants[name]
    if number is None:
        raise ctx.fail(
            entry,
            "card",
            f"{name} has {len(defs)} definitions under cards:: give {v.key}: "
            + v.options(sorted(defs)),
        )
    if number not in defs:
        raise ctx.fail(
            entry,
            v.key,
            f"{name} has no {v.key} {number} under cards:; give {v.options(sorted(defs))}",
        )
    return defs[number]


def _number(ctx: Context, entry: Any, v: Variants) -> int:
    value = entry[v.key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ctx.fail(
            entry, v.key, f"{v.key}: is a number, {v.options(sorted(v.words))}, not {value!r}"
        )
    return value
