"""Redemption card types, characters and brigade matching.

A Redemption card's brigades, classes and alignment are its own fields,
kept in the card's ``extra`` (:func:`own_fields`) under the names its views
show them by.

>>> from cardzones.kernel.cards import CardDef
>>> sword = CardDef("Sword", frozenset({"enhancement"}), extra=own_fields(brigades={"red"}))
>>> gideon = CardDef("Gideon", frozenset({"hero"}), extra=own_fields(brigades={"red"}))
>>> is_character(gideon), brigades_match(sword, gideon), brigades(sword)
(True, True, frozenset({'red'}))
"""

from __future__ import annotations

from collections.abc import Iterable

from cardzones.kernel.cards import CardDef
from cardzones.rulesets.base import Numbers

#: The numbers of Redemption cards that actions and expectations name: a
#: character's strength and toughness, which a modify or a counter named for
#: one (``+1_strength``) changes.
NUMBERS = Numbers(modified=("strength", "toughness"), counted=("strength", "toughness"))

#: The card types a scenario may give (docs/scenarios.md, Redemption cards).
CARD_TYPES = (
    "hero",
    "evil_character",
    "enhancement",
    "dominant",
    "lost_soul",
    "site",
    "city",
    "fortress",
    "artifact",
)

#: Every type a card may have: a curse is an evil enhancement or an artifact
#: and a covenant a good one, so each has those types too; a token (a Lost
#: Soul Token) has the type it is a token of as well.
ALL_TYPES = (*CARD_TYPES, "curse", "covenant", "token")

#: good, evil, or neutral: a card of both alignments (GE/EE).
ALIGNMENTS = ("good", "evil", "neutral")

#: Characters are heroes and evil characters; enhancements are played on them.
CHARACTER_TYPES = frozenset({"hero", "evil_character"})

#: Cards a Lost Soul can be placed in. A city is a kind of site, so the site
#: exception of place/movement-exception-sites covers it too.
SITE_TYPES = frozenset({"site", "city"})


def own_fields(
    brigades: Iterable[str] = (), classes: Iterable[str] = (), alignment: str | None = None
) -> dict[str, str | frozenset[str]]:
    """The fields of a Redemption card beside its types and stats, as its
    ``extra``: each one only when the card has it, in the order views show them."""
    out: dict[str, str | frozenset[str]] = {}
    if brigades := frozenset(brigades):
        out["brigade"] = brigades
    if classes := frozenset(classes):
        out["class"] = classes
    if alignment:
        out["alignment"] = alignment
    return out


def brigades(cdef: CardDef) -> frozenset[str]:
    """The card's brigades (none for a card without)."""
    return _words(cdef, "brigade")


def classes(cdef: CardDef) -> frozenset[str]:
    """The card's classes, such as ``territory`` or ``weapon``."""
    return _words(cdef, "class")


def alignment(cdef: CardDef) -> str | None:
    """good, evil or neutral; None for a card that has none printed or implied."""
    value = cdef.extra.get("alignment")
    return value if isinstance(value, str) else None


def _words(cdef: CardDef, key: str) -> frozenset[str]:
    value = cdef.extra.get(key, frozenset())
    return frozenset({value}) if isinstance(value, str) else frozenset(value)


def is_character(cdef: CardDef) -> bool:
    return not cdef.types.isdisjoint(CHARACTER_TYPES)


def is_enhancement(cdef: CardDef) -> bool:
    return "enhancement" in cdef.types


def is_dominant(cdef: CardDef) -> bool:
    return "dominant" in cdef.types


def is_lost_soul(cdef: CardDef) -> bool:
    return "lost_soul" in cdef.types


def is_site(cdef: CardDef) -> bool:
    return not cdef.types.isdisjoint(SITE_TYPES)


def is_territory_class(cdef: CardDef) -> bool:
    """A territory-class enhancement may target an opponent's cards outside battle
    (set-aside/enhancement-no-opponent-targets)."""
    return "territory" in classes(cdef)


def brigades_match(enhancement: CardDef, character: CardDef) -> bool:
    """An enhancement matches a character that shares one of its brigades
    (set-aside/enhancement-outside-battle)."""
    return not brigades(enhancement).isdisjoint(brigades(character))


def default_card(name: str) -> CardDef:
    """A card a scenario names without defining it: a vanilla hero."""
    return CardDef(name, types=frozenset({"hero"}))
