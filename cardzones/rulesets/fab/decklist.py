"""Flesh and Blood deck lists, read into deck entries
(:mod:`cardzones.rulesets.cardfiles`). They are plain text, one card a line,
as players write them and as the community's deck builders export them:

- ``3 Snatch (red)``, ``3x Snatch (red)``, ``3 x Snatch (1)``, ``(3) Snatch (red)``,
  ``Snatch (red) x3``, or a name alone for one copy;
- ``Hero: NAME``, and ``Weapons:`` / ``Equipment:`` lines listing cards
  separated by commas (FaBDB and Talishar);
- FaBrary's export: ``Name:``, ``Hero:`` and ``Format:`` lines, then the
  sections ``Arena cards`` and ``Deck cards``.

Lines naming a deck, its format or a web address are skipped; cards under a
``Sideboard``, ``Inventory`` or ``Maybe`` heading are not put in any zone
(they are inventory, 4.1.6). Where the cards start is
:mod:`cardzones.rulesets.fab.decks`.

>>> deck = read_fab_deck('''
... Hero: Dorinthea Ironsong
... Weapons: Dawnblade
... 3 Snatch (red)
... ''')
>>> [(e.name or e.names, e.count, e.number, e.line) for e in deck.entries]
[('Dorinthea Ironsong', 1, None, 2), ('Dawnblade', 1, None, 3), ('Snatch', 3, 1, 4)]
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cardzones.rulesets.cardfiles import DeckEntry, DeckList, DeckListError
from cardzones.rulesets.fab.carddata import COLOUR_OF, pitch_of_colour

#: The rule set's name, which its deck lists carry.
NAME = "fab"

#: Headings under which cards are not put in any zone.
OUT_OF_GAME = ("sideboard", "inventory", "maybe", "maybeboard", "tokens")
#: Lines that describe the list rather than name cards.
_SKIP = re.compile(
    r"^(name|format|deck build|see the full deck|made with|created with|deck|author|notes?)\b.*$"
    r"|^https?://\S+$|^(arena cards|deck cards|main ?deck|equipment and weapons)\s*:?\s*$",
    re.IGNORECASE,
)
_HEADING = re.compile(rf"^({'|'.join(OUT_OF_GAME)})\s*:?\s*(\(\d+\))?\s*$", re.IGNORECASE)
_LISTS = re.compile(r"^(hero|weapons?|equipment)\s*:\s*(.*)$", re.IGNORECASE)
_COUNT_FIRST = re.compile(r"^(?:\((\d+)\)|(\d+)\s*x?|x\s*(\d+))\s+(.+)$", re.IGNORECASE)
_COUNT_LAST = re.compile(r"^(.+?)\s+x\s*(\d+)$", re.IGNORECASE)
_COLOUR = re.compile(r"^(.+?)\s*\(\s*(red|yellow|blue|[123])\s*\)$", re.IGNORECASE)


def read_fab_deck(text: str, file: str = "<deck>") -> DeckList:
    """Read a fab deck list in any of the text forms above."""
    entries: list[DeckEntry] = []
    section = "main"
    lines = [" ".join(raw.replace("\u00a0", " ").split()) for raw in text.splitlines()]
    # Exports put the deck's name and format above the "Hero:" line (FaBDB
    # without a label): there, a line without a count names no card.
    hero_line = next((i for i, line in enumerate(lines) if line.lower().startswith("hero:")), 0)
    for number, line in enumerate(lines, 1):
        if not line or line.startswith(("#", "//")):
            continue
        if number <= hero_line and not _COUNT_FIRST.match(line):
            continue
        if _HEADING.match(line):
            section = "out"
            continue
        lists = _LISTS.match(line)
        if lists is not None:
            kind, names = lists[1].lower(), lists[2].strip()
            if names:
                if kind == "hero":
                    entries.append(DeckEntry(names, 1, None, section, number))
                else:
                    entries.append(DeckEntry("", 1, None, section, number, names=names))
            continue
        if _SKIP.match(line):
            if line.lower().startswith(("arena cards", "deck cards", "main")):
                section = "main"
            continue
        entries.append(_card_line(line, section, number, file))
    if not entries:
        raise DeckListError(f"{file}: no card found in the deck list")
    return DeckList(NAME, tuple(entries), file)


def _card_line(line: str, section: str, number: int, file: str) -> DeckEntry:
    count = 1
    first = _COUNT_FIRST.match(line)
    if first is not None:
        count = int(first[1] or first[2] or first[3])
        line = first[4]
    else:
        last = _COUNT_LAST.match(line)
        if last is not None:
            line, count = last[1], int(last[2])
    pitch = None
    colour = _COLOUR.match(line)
    if colour is not None:
        line, pitch = colour[1], pitch_of_colour(colour[2])
    if count < 1 or count > 99:
        raise DeckListError(f"{file}:{number}: {count} copies of {line} is not a count")
    return DeckEntry(line.strip(), count, pitch, section, number)


def takes(file: str, text: str) -> bool:
    """A fab deck list is text, not a LackeyCCG ``.dek`` file (XML)."""
    return not file.lower().endswith(".dek") and not text.lstrip().startswith("<")


def problem_words(entry: DeckEntry, name: str, pitches: Sequence[int | None]) -> str:
    """A card's colour in a deck list's words, "Snatch (red)", rather than a
    scenario's ``pitch: 1``; empty where the card index says it better."""
    if pitches == [None]:
        if entry.number is None:
            return ""
        colour = COLOUR_OF.get(entry.number, entry.number)
        return f"{name} has no colour; write it without ({colour})"
    colours = [COLOUR_OF[p] for p in pitches if p in COLOUR_OF]
    if len(colours) != len(pitches):
        return ""
    some = colours[0] if len(colours) == 1 else ", ".join(colours[:-1]) + " and " + colours[-1]
    if entry.number is None:
        return (
            f"{name} comes in {some}: write the colour, as in {entry.count} {name} ({colours[0]})"
        )
    wrong = COLOUR_OF.get(entry.number, str(entry.number))
    return f"{name} comes in {some}, not {wrong}"
