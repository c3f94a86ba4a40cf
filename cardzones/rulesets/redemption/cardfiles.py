"""Redemption's card database, LackeyCCG's ``RedemptionQuick/sets/carddata.txt``
(tab-separated, no quoting, one card per line, with or without the
``OfficialSet`` column), read into card records
(:mod:`cardzones.rulesets.cardfiles`). How its words become the engine's is
:mod:`cardzones.rulesets.redemption.carddata`.

>>> rows = list(read_lackey("Name\\tSet\\tType\\tBrigade\\n"
...                         "Hannah [K]\\tK\\tHero\\tGreen\\n", "carddata.txt", lambda d, t: None))
>>> [(line, r.name, r.variant, sorted(r.cdef.extra["brigade"])) for line, r in rows]
[(2, 'Hannah [K]', 'K', ['green'])]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import quote

from cardzones.acts.actions import MAX_TEXT
from cardzones.rulesets.cardfiles import (
    CardFormat,
    CardRecord,
    CardSource,
    ImportFailed,
    Progress,
    Rows,
)
from cardzones.rulesets.redemption import carddata as redemption_data

#: Where the database is, for messages and provenance.
DATABASE = "jalstad/RedemptionLackeyCCG"
_REQUIRED = ("Name", "Type")
#: Where LackeyCCG's Redemption plugin takes its card pictures from (its
#: updatelist.txt): the address of a card's picture is this, its ImageFile
#: and ``.jpg``.
LACKEY_IMAGES = (
    "https://jalstad.github.io/RedemptionLackeyCCG/RedemptionQuick/sets/setimages/general/"
)


def read_lackey(text: str, file: str, progress: Progress) -> Rows:
    lines = text.split("\n")
    header = [h.strip() for h in lines[0].rstrip("\r").split("\t")]
    missing = [c for c in _REQUIRED if c not in header]
    if missing:
        raise ImportFailed(f"{file}:1: the header has no {' or '.join(missing)} column")
    total = len(lines)
    for number, raw in enumerate(lines[1:], 2):
        raw = raw.rstrip("\r")
        if not raw.strip():
            continue
        cells = raw.split("\t")
        if len(cells) != len(header):
            yield number, f"{len(cells)} columns, but the header has {len(header)}"
            continue
        yield number, _redemption_row(dict(zip(header, cells, strict=True)), number)
        if number % 500 == 0:
            progress(number, total)
    progress(total, total)


def _redemption_row(row: Mapping[str, str], line: int) -> CardRecord | str:
    try:
        cdef = redemption_data.card_def(row)
        other = redemption_data.other_face(row)
    except redemption_data.CardDataProblem as exc:
        return str(exc)
    source: dict[str, Any] = {
        "database": DATABASE,
        "format": "redemption-lackey",
        "line": line,
    }
    for column, key in (
        ("Set", "set"),
        ("OfficialSet", "official_set"),
        ("ImageFile", "image"),
        ("Type", "type"),
        ("Brigade", "brigade"),
        ("Strength", "strength"),
        ("Toughness", "toughness"),
        ("Class", "class"),
        ("Identifier", "identifier"),
        ("Reference", "reference"),
        ("Rarity", "rarity"),
        ("Legality", "legality"),
    ):
        value = redemption_data.field(row, column)
        if value:
            source[key] = value
    if other:
        source["other_face"] = other
    text = " ".join(redemption_data.field(row, c) for c in ("SpecialAbility", "Identifier"))
    picture = redemption_data.field(row, "ImageFile")
    cdef = replace(
        cdef,
        text=redemption_data.field(row, "SpecialAbility")[:MAX_TEXT],
        image=f"{LACKEY_IMAGES}{quote(picture)}.jpg" if picture else "",
    )
    return CardRecord(
        "redemption",
        cdef,
        None,
        redemption_data.field(row, "Set"),
        tuple(redemption_data.name_aliases(cdef.name)),
        text.strip(),
        source,
    )


def _detect(head: str) -> bool:
    columns = [c.strip() for c in head.split("\n", 1)[0].rstrip("\r").split("\t")]
    return all(c in columns for c in _REQUIRED) and "Brigade" in columns


FORMATS = (CardFormat("redemption-lackey", "Redemption's carddata.txt", _detect, read_lackey),)
SOURCE = CardSource(DATABASE, "master", "RedemptionQuick/sets/carddata.txt", "redemption-lackey")
