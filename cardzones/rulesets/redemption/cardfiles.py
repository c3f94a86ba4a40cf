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

import re
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
        if len(cells) > len(header) and not "".join(cells[len(header) :]).strip():
            cells = cells[: len(header)]  # empty cells past the header's last column
        if len(cells) != len(header):
            yield number, f"{len(cells)} columns, but the header has {len(header)}"
            continue
        yield number, _redemption_row(dict(zip(header, cells, strict=True)), number)
        if number % 500 == 0:
            progress(number, total)
    progress(total, total)


#: Two brigades run together ("Blue/PurpleTeal"), as a few rows of the
#: database spell them.
_RUN_TOGETHER = re.compile(r"\b([A-Z][a-z]+)([A-Z][a-z]+)\b")
#: A two-faced stat written other face first ("(X)4" beside a "4(X)").
_OTHER_FIRST = re.compile(r"^\s*\(([^()]*)\)\s*([^()]+?)\s*$")


def repaired(row: Mapping[str, str]) -> dict[str, str]:
    """A database row with the database's own slips put right, each in the
    way the rest of the database writes it: brigades run together
    ("PurpleTeal" is "Purple/Teal", when both are brigades) and a stat
    written other face first ("(X)4" is "4(X)"). Anything else is read as
    it is, and a row the rules cannot read is still skipped with its reason.

    >>> fixed = repaired({"Brigade": "Blue/PurpleTeal", "Toughness": "(X)4", "Strength": "4(X)"})
    >>> fixed["Brigade"], fixed["Toughness"], fixed["Strength"]
    ('Blue/Purple/Teal', '4(X)', '4(X)')
    >>> repaired({"Brigade": "PurpleRain"})["Brigade"]
    'PurpleRain'
    """
    out = dict(row)

    def split(found: re.Match[str]) -> str:
        first, second = found.groups()
        known = all(w.lower() in redemption_data.BRIGADES for w in (first, second))
        return f"{first}/{second}" if known else found.group(0)

    if "Brigade" in out:
        out["Brigade"] = _RUN_TOGETHER.sub(split, out["Brigade"])
    for column in ("Strength", "Toughness"):
        found = _OTHER_FIRST.match(out.get(column, ""))
        if found is not None:
            out[column] = f"{found.group(2)}({found.group(1)})"
    return out


def _redemption_row(row: Mapping[str, str], line: int) -> CardRecord | str:
    row = repaired(row)
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
