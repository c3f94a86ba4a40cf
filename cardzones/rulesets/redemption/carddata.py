"""The Redemption card database in the engine's words.

LackeyCCG's Redemption plugin (``carddata.txt``) gives each card a type
("GE", "Hero", "Lost Soul", "Hero/Evil Character", "Lost Soul Token"), a
brigade ("Green/Purple", "Gold (Gold/Red)"), a class ("Territory, Star"), an
alignment and a strength and toughness as text ("3", "X", "3(10)", "4 (0)").
A :class:`CardDef` holds the engine's types (those of
:mod:`cardzones.rulesets.redemption.cards`), brigades and classes as lower-case
words, the alignment, and ``strength`` and ``toughness`` as numbers. What the
place and set-aside rules test: the character types and brigades
(set-aside/enhancement-outside-battle), the territory class
(set-aside/enhancement-no-opponent-targets), enhancements and dominants
(set-aside/dominant-discards), Lost Souls and sites
(place/movement-exception-sites, place/movement-exception-lost-soul).

A card of two types (Hero/Evil Character, GE/EE) has both; a card whose
strength reads "3(10)" or "5/10" has two faces: the first is the card's
strength and the other is kept as :class:`SplitStat.other`.

>>> abandoned = card_def({"Name": "Abandoned [K]", "Type": "GE/EE",
...     "Brigade": "Green/Purple/Pale Green", "Strength": "4 (0)", "Toughness": "0 (4)",
...     "Alignment": "Neutral"})
>>> sorted(abandoned.types), sorted(abandoned.extra["brigade"]), dict(abandoned.stats)
(['enhancement'], ['green', 'pale_green', 'purple'], {'strength': 4, 'toughness': 0})
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardzones.kernel.cards import CardDef
from cardzones.rulesets.redemption.cards import own_fields

#: The database's card types and the engine types each one gives. A Curse is
#: played as an evil enhancement or an artifact, a Covenant as a good
#: enhancement or an artifact, so each has both.
TYPES: dict[str, tuple[str, ...]] = {
    "Hero": ("hero",),
    "Evil Character": ("evil_character",),
    "GE": ("enhancement",),
    "EE": ("enhancement",),
    "Dominant": ("dominant",),
    "Lost Soul": ("lost_soul",),
    "Site": ("site",),
    "City": ("city",),
    "Fortress": ("fortress",),
    "Artifact": ("artifact",),
    "Curse": ("curse", "enhancement", "artifact"),
    "Covenant": ("covenant", "enhancement", "artifact"),
}
#: A type written with this suffix is a token of that type: "Lost Soul Token".
TOKEN_SUFFIX = " Token"
#: The alignment a type implies when the row gives none.
TYPE_ALIGNMENT: dict[str, str] = {"GE": "good", "EE": "evil"}
#: The database's alignments; neutral is a card of both alignments (GE/EE).
ALIGNMENTS: dict[str, str] = {"Good": "good", "Evil": "evil", "Neutral": "neutral"}

#: The brigades (the colour of a card), good and evil; gold is both.
BRIGADES: dict[str, str] = {
    name.lower(): name.lower().replace(" ", "_")
    for name in (
        "Blue",
        "Clay",
        "Gold",
        "Green",
        "Purple",
        "Red",
        "Silver",
        "Teal",
        "White",
        "Black",
        "Brown",
        "Crimson",
        "Gray",
        "Orange",
        "Pale Green",
        "Multi",
    )
}
#: Other spellings of a brigade in the database. "Good" and "Evil" alone name an
#: alignment, which the alignment column gives, so they add no brigade.
BRIGADE_ALIASES: dict[str, str | None] = {
    "good gold": "gold",
    "evil gold": "gold",
    "grey": "gray",
    "good": None,
    "evil": None,
}
#: Classes the rules name; other class words are kept as written, normalised.
CLASSES: dict[str, str] = {
    "territory": "territory",
    "warrior": "warrior",
    "weapon": "weapon",
    "star": "star",
    "cloud": "cloud",
}

_PART = r"\s*([+-]?\d+|-?X|\*|-|)\s*"
_SPLIT_STAT = re.compile(rf"^{_PART}(?:\({_PART}\)|/{_PART})?$", re.IGNORECASE)
_TAG = re.compile(r"\s*(\([^()]*\)|\[[^\[\]]*\])\s*$")


class CardDataProblem(ValueError):
    """A database row the engine cannot read as a card; the message says why."""


@dataclass(frozen=True)
class SplitStat:
    """A strength or toughness: the card's value and, for a card with two
    faces ("3(10)", "5/10"), the other face's value. None is no number ("", "X")."""

    value: int | None
    other: int | None = None
    split: bool = False


def split_stat(field: str, text: str) -> SplitStat:
    """Read a strength or toughness.

    >>> split_stat("strength", "3(10)")
    SplitStat(value=3, other=10, split=True)
    >>> split_stat("strength", "-(5)"), split_stat("toughness", "X")
    (SplitStat(value=None, other=5, split=True), SplitStat(value=None, other=None, split=False))
    """
    match = _SPLIT_STAT.match(text)
    if match is None:
        raise CardDataProblem(f"{field} {text!r} is not a number")
    first, paren, slash = match.groups()

    def number(part: str | None) -> int | None:
        return int(part) if part and part.lstrip("+-").isdigit() else None

    other = paren if paren is not None else slash
    return SplitStat(number(first), number(other), other is not None)


def card_types(text: str) -> tuple[frozenset[str], str | None]:
    """The engine types of a database type, and the alignment it implies.

    >>> sorted(card_types("Hero/Evil Character")[0]), card_types("EE")
    (['evil_character', 'hero'], (frozenset({'enhancement'}), 'evil'))
    >>> sorted(card_types("Lost Soul Token")[0])
    ['lost_soul', 'token']
    """
    types: set[str] = set()
    implied: set[str] = set()
    parts = [p.strip() for p in text.split("/") if p.strip()]
    if not parts:
        raise CardDataProblem("the card has no type")
    for part in parts:
        part = " ".join(part.split())
        if part.lower().endswith(TOKEN_SUFFIX.lower()):
            types.add("token")
            part = part[: -len(TOKEN_SUFFIX)].strip()
        key = next((k for k in TYPES if k.lower() == part.lower()), None)
        if key is None:
            raise CardDataProblem(f"unknown card type {part!r}")
        types.update(TYPES[key])
        if key in TYPE_ALIGNMENT:
            implied.add(TYPE_ALIGNMENT[key])
    alignment = implied.pop() if len(implied) == 1 else ("neutral" if implied else None)
    return frozenset(types), alignment


def brigades(text: str) -> frozenset[str]:
    """The brigades of a card: every colour the database lists, both faces' included.

    >>> sorted(brigades("Gold (Gold/Red)")), sorted(brigades("Green/Teal Gold/Pale Green"))
    (['gold', 'red'], ['gold', 'green', 'pale_green', 'teal'])
    """
    out: set[str] = set()
    for token in re.split(r"[/()+,]| and ", text):
        words = token.split()
        while words:
            for size in (2, 1):
                phrase = " ".join(words[:size]).lower()
                if len(words) >= size and (phrase in BRIGADES or phrase in BRIGADE_ALIASES):
                    word = BRIGADES.get(phrase) or BRIGADE_ALIASES.get(phrase)
                    if word:
                        out.add(word)
                    words = words[size:]
                    break
            else:
                raise CardDataProblem(f"unknown brigade {words[0]!r} in {text!r}")
    return frozenset(out)


def classes(text: str) -> frozenset[str]:
    """ "Territory, Star" is ``{territory, star}``."""
    words = (" ".join(w.split()).lower() for w in re.split(r"[,/]", text))
    return frozenset(CLASSES.get(w, w.replace(" ", "_")) for w in words if w)


def alignment(text: str, implied: str | None) -> str | None:
    text = text.strip()
    if not text:
        return implied
    key = next((k for k in ALIGNMENTS if k.lower() == text.lower()), None)
    if key is None:
        raise CardDataProblem(f"unknown alignment {text!r}")
    return ALIGNMENTS[key]


def base_names(name: str) -> list[str]:
    """The name without the printing tags LackeyCCG adds, shortest last.

    >>> base_names('Lost Soul "Dread" [Exodus 15:16 - K]')
    ['Lost Soul "Dread"']
    >>> base_names("Moses (Pr)")
    ['Moses']
    """
    out: list[str] = []
    while True:
        shorter = _TAG.sub("", name).strip()
        if not shorter or shorter == name:
            return out
        out.append(shorter)
        name = shorter


def name_aliases(name: str) -> list[str]:
    """Other names a card may be looked up by: without its printing tags, and
    each face of a card with two ("A / B").

    >>> name_aliases("Abihud, the Progeny / Abihud, the Exilarch (LoC)")
    ['Abihud, the Progeny / Abihud, the Exilarch', 'Abihud, the Progeny', 'Abihud, the Exilarch']
    """
    out = base_names(name)
    whole = out[0] if out else name
    if " / " in whole:
        for face in whole.split(" / "):
            face = face.strip()
            out.extend(x for x in [face, *base_names(face)] if x not in out)
    return out


def field(row: Mapping[str, Any], key: str) -> str:
    value = row.get(key)
    return " ".join(value.split()) if isinstance(value, str) else ""


def card_def(row: Mapping[str, Any]) -> CardDef:
    """The engine's card for one database row (the columns of ``carddata.txt``).

    Raises :class:`CardDataProblem` for a row without a name, or with a type,
    brigade, alignment, strength or toughness it cannot read.
    """
    name = field(row, "Name")
    if not name:
        raise CardDataProblem("the card has no name")
    types, implied = card_types(field(row, "Type"))
    stats: dict[str, int] = {}
    for column, stat in (("Strength", "strength"), ("Toughness", "toughness")):
        value = split_stat(stat, field(row, column)).value
        if value is not None:
            stats[stat] = value
    return CardDef(
        name,
        types,
        stats,
        extra=own_fields(
            brigades(field(row, "Brigade")),
            classes(field(row, "Class")),
            alignment(field(row, "Alignment"), implied),
        ),
    )


def other_face(row: Mapping[str, Any]) -> dict[str, int | None]:
    """The other face's strength and toughness of a split card, or nothing.

    >>> other_face({"Strength": "3(10)", "Toughness": "2(10)"})
    {'strength': 10, 'toughness': 10}
    """
    out: dict[str, int | None] = {}
    for column, stat in (("Strength", "strength"), ("Toughness", "toughness")):
        split = split_stat(stat, field(row, column))
        if split.split:
            out[stat] = split.other
    return out
