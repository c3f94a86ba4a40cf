"""Redemption card types, characters and brigade matching.

>>> from cardzones.kernel.cards import CardDef
>>> sword = CardDef("Sword", frozenset({"enhancement"}), brigades=frozenset({"red"}))
>>> gideon = CardDef("Gideon", frozenset({"hero"}), brigades=frozenset({"red"}))
>>> is_character(gideon), brigades_match(sword, gideon)
(True, True)
"""

from __future__ import annotations

from cardzones.kernel.cards import CardDef

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
    return "territory" in cdef.classes


def brigades_match(enhancement: CardDef, character: CardDef) -> bool:
    """An enhancement matches a character that shares one of its brigades
    (set-aside/enhancement-outside-battle)."""
    return not enhancement.brigades.isdisjoint(character.brigades)


def default_card(name: str) -> CardDef:
    """A card a scenario names without defining it: a vanilla hero."""
    return CardDef(name, types=frozenset({"hero"}))
