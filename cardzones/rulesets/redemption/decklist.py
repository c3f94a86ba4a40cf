"""Redemption deck lists: LackeyCCG's ``.dek`` files (XML), read into deck
entries (:mod:`cardzones.rulesets.cardfiles`). Each card names its printing
(its set and picture file), and its superzone is its section: ``Deck``
becomes the deck and ``Reserve`` the reserve; any other is in no zone.

>>> deck = read_lackey_deck('''<deck version="2.0"><superzone name="Deck">
... <card><name id="Hannah_K">Hannah [K]</name><set>K</set></card></superzone></deck>''')
>>> [(e.name, e.section, e.set, e.id, e.line) for e in deck.entries]
[('Hannah [K]', 'deck', 'K', 'Hannah_K', 2)]
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from cardzones.rulesets.cardfiles import DeckEntry, DeckList, DeckListError

#: The rule set's name, which its deck lists carry.
NAME = "redemption"


def read_lackey_deck(text: str, file: str = "<deck>") -> DeckList:
    """Read a LackeyCCG ``.dek`` file: ``<deck><superzone name="Deck"><card>
    <name>NAME</name><set>SET</set></card>...``."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise DeckListError(f"{file}:{exc.position[0]}: not a LackeyCCG .dek file: {exc}") from None
    if root.tag != "deck":
        raise DeckListError(f"{file}: a LackeyCCG .dek file starts with <deck>, not <{root.tag}>")
    lines = _element_lines(text)
    entries: list[DeckEntry] = []
    for zone in root.iter("superzone"):
        section = (zone.get("name") or "deck").strip().lower()
        for card in zone.iter("card"):
            name = (card.findtext("name") or "").strip()
            if not name:
                continue
            card_set = (card.findtext("set") or "").strip() or None
            named = card.find("name")
            card_id = (named.get("id") or "").strip() or None if named is not None else None
            line = lines.pop(0) if lines else 0
            entries.append(DeckEntry(name, 1, None, section, line, card_set, id=card_id))
    if not entries:
        raise DeckListError(f"{file}: no card found in the deck list")
    return DeckList(NAME, tuple(entries), file)


def _element_lines(text: str) -> list[int]:
    """The line of each <card> element, in order (ElementTree keeps no lines)."""
    return [text.count("\n", 0, m.start()) + 1 for m in re.finditer(r"<card\b", text)]


def takes(file: str, text: str) -> bool:
    """A ``.dek`` file, or XML."""
    return file.lower().endswith(".dek") or text.lstrip().startswith("<")


def read_deck_list(text: str, file: str) -> DeckList:
    """A deck list's text as a table is given it: a ``.dek`` file's, or refused."""
    if not text.lstrip().startswith("<"):
        what = "is empty" if not text.strip() else "is not one"
        raise DeckListError(
            f"{file}: a Redemption deck list is a LackeyCCG .dek file "
            f"(XML that starts with <deck>); this {what}"
        )
    return read_lackey_deck(text, file)
