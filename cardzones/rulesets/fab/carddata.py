"""The Flesh and Blood card database in the engine's words.

The public database (the-fab-cube's ``card.json`` and ``card.csv``) gives each
card its types and subtypes as words ("Ninja", "Weapon", "Sword", "2H"), its
traits, its stats as text ("4", "", "*", "X") and its keywords. A
:class:`CardDef` holds types, subtypes and traits in one lower-case list, with
spaces turned into underscores and hyphens kept (``attack_reaction``,
``off-hand``), and its stats under the names scenarios use. The zone rules test
some of those words by name: the card types of 1.3.2, the permanent subtypes of
1.3.3, the subtypes that can be equipped (8.5.41b), ``weapon`` (3.16.2a),
``2h`` (8.2.2), ``off-hand`` (8.2.10), ``quiver`` and ``bow`` (8.2.15) and
``token`` (8.1.8a). :data:`TYPE_WORDS` lists how the database spells each of
them; any other word (a class, a talent, a weapon kind) is taken as written
and normalised the same way.

>>> edge = card_def({"name": "Edge of Autumn", "types": ["Ninja", "Weapon", "Sword", "2H"],
...                  "power": "1", "pitch": ""})
>>> sorted(edge.types), dict(edge.stats)
(['2h', 'ninja', 'sword', 'weapon'], {'power': 1})
>>> snatch = card_def({"name": "Snatch", "types": ["Generic", "Action", "Attack"],
...                    "pitch": "1", "power": "4", "defense": "2", "cost": "0"})
>>> dict(snatch.stats)
{'pitch': 1, 'cost': 0, 'power': 4, 'defense': 2}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from cardzones.kernel.cards import CardDef
from cardzones.rulesets.cardfiles import Variants

#: The database's words for the types and subtypes the zone rules test, and the
#: word each becomes. Matching ignores case ("Off-hand" appears in type lines).
TYPE_WORDS: dict[str, str] = {
    # 1.3.2: hero-, token- and deck-cards
    "Hero": "hero",
    "Token": "token",
    "Action": "action",
    "Attack Reaction": "attack_reaction",
    "Block": "block",
    "Defense Reaction": "defense_reaction",
    "Instant": "instant",
    "Mentor": "mentor",
    "Resource": "resource",
    # arena-card types (1.3.2d)
    "Equipment": "equipment",
    "Weapon": "weapon",
    "Demi-Hero": "demi-hero",
    "Companion": "companion",
    "Event": "event",
    "Macro": "macro",
    # 8.5.41b: the subtypes that can be equipped, and the zone each one takes
    "1H": "1h",
    "2H": "2h",
    "Arms": "arms",
    "Chest": "chest",
    "Head": "head",
    "Legs": "legs",
    "Off-Hand": "off-hand",
    "Quiver": "quiver",
    # 1.3.3: deck-card subtypes that make a permanent in the arena
    "Affliction": "affliction",
    "Ally": "ally",
    "Ash": "ash",
    "Aura": "aura",
    "Construct": "construct",
    "Figment": "figment",
    "Invocation": "invocation",
    "Item": "item",
    "Landmark": "landmark",
    # subtypes other rules name: attack (1.4.2), a two-handed bow (8.2.15a),
    # young heroes (hero-cards all the same, 1.3.2a)
    "Attack": "attack",
    "Bow": "bow",
    "Arrow": "arrow",
    "Young": "young",
}

#: The database's stat fields and the stat each one is in the engine.
STAT_FIELDS: dict[str, str] = {
    "pitch": "pitch",
    "cost": "cost",
    "power": "power",
    "defense": "defense",
    "health": "life",
    "intelligence": "intellect",
    "arcane": "arcane",
}

#: Pitch values by colour, as deck lists write them: "3 Snatch (red)".
COLOURS: dict[str, int] = {"red": 1, "yellow": 2, "blue": 3}
COLOUR_OF: dict[int, str] = {pitch: colour for colour, pitch in COLOURS.items()}
#: Cards of one name are distinct by their pitch (1.3.4), which their colour
#: strip shows (2.1.2a): a scenario picks one with ``pitch: 1``, the command
#: line with ``--pitch 1`` and a deck list with "Snatch (red)".
PITCH = Variants("pitch", "pitches", "colour", MappingProxyType(COLOUR_OF))

_WORDS = {key.lower(): word for key, word in TYPE_WORDS.items()}
#: Multi-word types, longest first, for reading a type line.
_PHRASES = sorted((k for k in TYPE_WORDS if " " in k), key=len, reverse=True)
_NUMBER = re.compile(r"[+-]?\d+")


class CardDataProblem(ValueError):
    """A database record the engine cannot read as a card; the message says why."""


def engine_word(word: str) -> str:
    """The engine's word for a database type, subtype or trait.

    >>> engine_word("Off-hand"), engine_word("Attack Reaction"), engine_word("Agent of Chaos")
    ('off-hand', 'attack_reaction', 'agent_of_chaos')
    """
    word = " ".join(word.split())
    return _WORDS.get(word.lower()) or word.lower().replace(" ", "_")


def type_line_words(type_text: str) -> list[str]:
    """The words of a printed type line, for a record that has no list of types.

    >>> type_line_words("Warrior Weapon - Sword (2H)")
    ['Warrior', 'Weapon', 'Sword', '2H']
    >>> type_line_words("Generic Defense Reaction")
    ['Generic', 'Defense Reaction']
    """
    # " - " separates types from subtypes; "//" the halves of a split card.
    text = re.sub(r"\s[-–]\s|[()/]", " ", f" {type_text} ")
    text = " ".join(text.split())
    words: list[str] = []
    rest = text
    while rest:
        for phrase in _PHRASES:
            if rest.lower().startswith(phrase.lower() + " ") or rest.lower() == phrase.lower():
                words.append(rest[: len(phrase)])
                rest = rest[len(phrase) :].strip()
                break
        else:
            head, _, rest = rest.partition(" ")
            words.append(head)
    return words


def card_types(types: Iterable[str], traits: Iterable[str] = ()) -> frozenset[str]:
    """The engine's one list of types, subtypes and traits."""
    return frozenset(engine_word(w) for w in (*types, *traits) if w and w.strip())


def stat_value(field: str, text: Any) -> int | None:
    """A stat as a number, or None when the card has none or it varies ("*", "X").

    >>> stat_value("power", "4"), stat_value("power", "*"), stat_value("cost", "")
    (4, None, None)
    """
    if isinstance(text, bool):
        raise CardDataProblem(f"{field} {text!r} is not a number")
    if isinstance(text, int):
        return text
    if text is None:
        return None
    if not isinstance(text, str):
        raise CardDataProblem(f"{field} {text!r} is not a number")
    text = text.strip()
    if _NUMBER.fullmatch(text):
        return int(text)
    # "X", "XX", "X1", "*": the value is set by the card's text or the game.
    if text == "" or (re.fullmatch(r"[X*\d]+", text) and not text.isdigit()):
        return None
    raise CardDataProblem(f"{field} {text!r} is not a number")


def keywords(words: Iterable[str]) -> frozenset[str]:
    """The card's own keywords, normalised like types: "Go again" is ``go_again``."""
    return frozenset(" ".join(w.split()).lower().replace(" ", "_") for w in words if w.strip())


def name_aliases(name: str) -> list[str]:
    """Other names a card may be looked up by: each half of a split card.

    >>> name_aliases("Arcane Seeds // Life")
    ['Arcane Seeds', 'Life']
    """
    if "//" not in name:
        return []
    return [part.strip() for part in name.split("//") if part.strip()]


def _words(record: Mapping[str, Any], key: str) -> list[str]:
    value = record.get(key) or []
    if isinstance(value, str):
        value = [w for w in value.split(",")]
    if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
        raise CardDataProblem(f"{key} must be a list of words, not {value!r}")
    return [" ".join(w.split()) for w in value if w.strip()]


def card_def(record: Mapping[str, Any]) -> CardDef:
    """The engine's card for one database record (the fields of ``card.json``).

    Raises :class:`CardDataProblem` for a record without a name or types, or
    with a stat that is not a number.
    """
    name = record.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CardDataProblem("the card has no name")
    name = " ".join(name.split())
    types = _words(record, "types")
    if not types:
        type_text = record.get("type_text")
        if isinstance(type_text, str) and type_text.strip():
            types = type_line_words(type_text)
    if not types:
        raise CardDataProblem(f"{name} has no types")
    stats: dict[str, int] = {}
    for field, stat in STAT_FIELDS.items():
        value = stat_value(field, record.get(field))
        if value is not None:
            stats[stat] = value
    pitch = stats.get("pitch")
    if pitch is not None and pitch not in COLOUR_OF and pitch != 0:
        raise CardDataProblem(f"{name} has pitch {pitch}; a pitch is 0 to 3")
    return CardDef(
        name,
        card_types(types, _words(record, "traits")),
        stats,
        keywords(_words(record, "card_keywords")),
    )


def pitch_of_colour(text: str) -> int | None:
    """The pitch a deck list's colour or number names: ``red`` or ``1``."""
    text = text.strip().lower()
    if text in COLOURS:
        return COLOURS[text]
    if text.isdigit() and int(text) in COLOUR_OF:
        return int(text)
    return None
