"""References in scenario files: zones (``alice.weapon.2``, ``stack``,
``owner.deck``, ``arena``) and cards (``$label``, ``NAME@ZONE``, ``ZONE[i]``).

>>> parse_zone("alice.weapon.2")
ZoneRef(owner='alice', type='weapon', number=2)
>>> parse_card("Snatch@alice.hand").zone
ZoneRef(owner='alice', type='hand', number=None)
"""

from __future__ import annotations

import re
from typing import NamedTuple

_ZONE = re.compile(r"^(?:(?P<owner>[A-Za-z_][\w-]*)\.)?(?P<type>[a-z_]+)(?:\.(?P<index>\d+))?$")
_INDEXED = re.compile(r"^(?P<zone>.+)\[(?P<index>-?\d+)\]$")


class ZoneRef(NamedTuple):
    owner: str | None
    type: str
    number: int | None = None  #: 1-based, when one of several zones is named

    def __str__(self) -> str:
        text = self.type if self.owner is None else f"{self.owner}.{self.type}"
        return text if self.number is None else f"{text}.{self.number}"


class CardRef(NamedTuple):
    kind: str  # "label" | "name" | "index"
    label: str | None = None
    name: str | None = None
    zone: ZoneRef | None = None
    position: int | None = None


def parse_zone(text: object) -> ZoneRef | None:
    """The parts of a zone reference, or None when it is not one."""
    if not isinstance(text, str):
        return None
    m = _ZONE.match(text.strip())
    if m is None:
        return None
    index = m.group("index")
    if index is not None and int(index) < 1:
        return None
    return ZoneRef(m.group("owner"), m.group("type"), int(index) if index else None)


def parse_card(text: object) -> CardRef | None:
    """The parts of a card reference, or None when it is not one."""
    if not isinstance(text, str) or not text.strip():
        return None
    text = text.strip()
    if text.startswith("$"):
        return CardRef("label", label=text[1:]) if len(text) > 1 else None
    m = _INDEXED.match(text)
    if m is not None:
        zone = parse_zone(m.group("zone"))
        return None if zone is None else CardRef("index", zone=zone, position=int(m.group("index")))
    if "@" in text:
        name, _, zone_text = text.rpartition("@")
        zone = parse_zone(zone_text)
        if zone is None or not name.strip():
            return None
        return CardRef("name", name=name.strip(), zone=zone)
    return None
