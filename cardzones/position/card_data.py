"""The ``card_data:`` key: real cards from the card index, by name; and
``pitch:``, which picks a card's colour.

With ``card_data: fab`` (or ``redemption``, the same as ``ruleset:``), a card
name that is not under ``cards:`` is looked up in the card index
(:mod:`cardzones.cards`) instead of being a vanilla card. A setup entry may
pick a fab card's colour with ``pitch: 1|2|3``; a name with several pitches
and no pitch is an invalid file that names the options, and so is a name the
index does not have (with the closest names). Without the key, nothing
changes. ``pitch:`` picks the same way among the definitions of a name that
has several under ``cards:`` (a list, one per pitch), which is how a start
position's real cards are written down without the index.

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

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardzones.cards.errors import CardDataError
from cardzones.cards.index import card_games
from cardzones.cards.lookup import CardLookup
from cardzones.errors import ScenarioError
from cardzones.kernel.cards import CardDef
from cardzones.position.loader import YMap
from cardzones.rulesets import get_ruleset
from cardzones.rulesets.base import ruleset_of
from cardzones.rulesets.cardfiles import options_text

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


def named_card(ctx: Context, name: str, entry: YMap | None) -> CardDef:
    """The card a name (and a set-up entry's ``pitch``) stands for: under
    ``cards:`` (one definition, or one of several by its pitch), else from the
    card index. A card from the index is kept in ``ctx.resolved``, so that the
    start position can be written down without the index
    (:mod:`cardzones.position.written`)."""
    has_pitch = entry is not None and "pitch" in entry
    if has_pitch and not any(p.name == "pitch" for p in ruleset_of(ctx.game).card_params):
        pitched = " or ".join(g for g in card_games() if get_ruleset(g).pitch_words) or "pitched"
        raise ctx.fail(
            entry, "pitch", f"pitch: picks the colour of a {pitched} card, not a {ctx.ruleset} one"
        )
    pitch = _pitch(ctx, entry) if has_pitch else None
    if name in ctx.variants:
        return _variant(ctx, name, entry, pitch)
    if name in ctx.cards:
        cdef = ctx.cards[name]
        if pitch is not None and cdef.stat("pitch") != pitch:
            if cdef.stat("pitch") is None:
                message = f"{name} is defined under cards:, so pitch: has nothing to pick"
            else:
                message = f"{name} is defined under cards: with pitch {cdef.stat('pitch')}"
            raise ctx.fail(entry, "pitch", message)
        return cdef
    lookup: CardLookup | None = ctx.card_data
    if lookup is None:
        raise ctx.fail(
            entry,
            "pitch",
            "pitch: picks a colour of a card from the card index; "
            f"it needs card_data: {ctx.ruleset}",
        )
    try:
        cdef = lookup.card_def(name, pitch)
    except CardDataError as exc:
        raise ctx.fail(entry, "card", str(exc)) from None
    ctx.resolved.setdefault(name, {})[cdef.stat("pitch")] = cdef
    return cdef


def _variant(ctx: Context, name: str, entry: YMap | None, pitch: int | None) -> CardDef:
    """One of the definitions of a name with several under ``cards:``."""
    defs = ctx.variants[name]
    if pitch is None:
        raise ctx.fail(
            entry,
            "card",
            f"{name} has {len(defs)} definitions under cards:: give pitch: "
            + options_text(sorted(defs), _words(ctx)),
        )
    if pitch not in defs:
        raise ctx.fail(
            entry,
            "pitch",
            f"{name} has no pitch {pitch} under cards:; "
            f"give {options_text(sorted(defs), _words(ctx))}",
        )
    return defs[pitch]


def _pitch(ctx: Context, entry: Any) -> int:
    value = entry["pitch"]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ctx.fail(
            entry,
            "pitch",
            f"pitch: is a number, {options_text(sorted(_words(ctx)), _words(ctx))}, not {value!r}",
        )
    return value


def _words(ctx: Context) -> Mapping[int, str]:
    """The game's words for its pitches."""
    return ruleset_of(ctx.game).pitch_words
