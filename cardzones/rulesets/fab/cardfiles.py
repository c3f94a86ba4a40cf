"""Flesh and Blood's card database, as the-fab-cube publishes it, read into
card records (:mod:`cardzones.rulesets.cardfiles`): two formats of one
database, ``fab-json`` (``json/english/card.json``, a list of cards, one per
name and pitch) and ``fab-csv`` (``csvs/english/card.csv``, tab-separated,
quoted fields may span lines). How the database's words become the engine's
is :mod:`cardzones.rulesets.fab.carddata`.

>>> rows = list(read_fab_json('[{"name": "Snatch", "types": ["Action", "Attack"], '
...                           '"pitch": "1", "power": "4"}]', "card.json", lambda d, t: None))
>>> [(line, record.name, record.number, record.cdef.stats["power"]) for line, record in rows]
[(1, 'Snatch', 1, 4)]
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from cardzones.acts.actions import MAX_TEXT
from cardzones.rulesets.cardfiles import (
    CardFormat,
    CardRecord,
    CardSource,
    ImportFailed,
    Progress,
    Rows,
)
from cardzones.rulesets.common import MAX_IMAGE
from cardzones.rulesets.fab import carddata as fab_data

#: Where the database is, for messages and provenance.
DATABASE = "the-fab-cube/flesh-and-blood-cards"

#: The columns of the fab CSV and the field of ``card.json`` each one is.
FAB_CSV_COLUMNS = {
    "Unique ID": "unique_id",
    "Name": "name",
    "Color": "color",
    "Pitch": "pitch",
    "Cost": "cost",
    "Power": "power",
    "Defense": "defense",
    "Health": "health",
    "Intelligence": "intelligence",
    "Arcane": "arcane",
    "Types": "types",
    "Traits": "traits",
    "Card Keywords": "card_keywords",
    "Functional Text": "functional_text_plain",
    "Type Text": "type_text",
    "Image URLs": "image_urls",
}
_FAB_LISTS = ("types", "traits", "card_keywords")
_FAB_RAW_STATS = tuple(fab_data.STAT_FIELDS)


def read_fab_json(text: str, file: str, progress: Progress) -> Rows:
    """Entries of the top-level list one by one, so that each has its line and a
    bad entry is only that entry."""
    decoder = json.JSONDecoder()
    total = len(text)
    pos = _skip_space(text, 0)
    if pos >= total or text[pos] != "[":
        raise ImportFailed(f"{file}: a fab card.json is a list of cards, starting with [")
    pos = _skip_space(text, pos + 1)
    line = text.count("\n", 0, pos) + 1
    counted = pos
    first = True
    while pos < total and text[pos] != "]":
        if not first:
            if text[pos] != ",":
                raise ImportFailed(f"{file}:{_line(text, pos)}: expected , or ] between cards")
            pos = _skip_space(text, pos + 1)
            if pos >= total:
                break
        first = False
        line += text.count("\n", counted, pos)
        counted = pos
        try:
            entry, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise ImportFailed(f"{file}:{exc.lineno}: not valid JSON: {exc.msg}") from None
        yield line, _fab_entry(entry, "fab-json", line)
        pos = _skip_space(text, end)
        progress(pos, total)
    if pos >= total:
        raise ImportFailed(f"{file}: the list of cards never ends (no closing ])")
    progress(total, total)


def read_fab_csv(text: str, file: str, progress: Progress) -> Rows:
    total = text.count("\n") + 1
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t")
    try:
        header = next(reader)
    except StopIteration:
        raise ImportFailed(f"{file}: the file is empty") from None
    except csv.Error as exc:
        raise ImportFailed(f"{file}:1: cannot read the header: {exc}") from None
    header = [h.strip() for h in header]
    missing = [c for c in ("Name", "Types") if c not in header]
    if missing:
        raise ImportFailed(f"{file}:1: the header has no {' or '.join(missing)} column")
    end = reader.line_num
    while True:
        line = end + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise ImportFailed(f"{file}:{line}: cannot read the CSV: {exc}") from None
        end = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            yield line, f"{len(row)} columns, but the header has {len(header)}"
            continue
        entry: dict[str, Any] = {}
        for column, value in zip(header, row, strict=True):
            key = FAB_CSV_COLUMNS.get(column)
            if key is None:
                continue
            entry[key] = [w for w in value.split(",") if w.strip()] if key in _FAB_LISTS else value
        yield line, _fab_entry(entry, "fab-csv", line)
        progress(end, total)
    progress(total, total)


def _fab_entry(entry: Any, fmt: str, line: int) -> CardRecord | str:
    if not isinstance(entry, dict):
        return f"a card is a JSON object, not {type(entry).__name__}"
    try:
        cdef = fab_data.card_def(entry)
    except fab_data.CardDataProblem as exc:
        return str(exc)
    pitch = cdef.stats.get("pitch")
    source: dict[str, Any] = {"database": DATABASE, "format": fmt, "line": line}
    for key in ("unique_id", "color", "type_text"):
        value = entry.get(key)
        if isinstance(value, str) and value:
            source["id" if key == "unique_id" else key] = value
    printings = entry.get("printings")
    if isinstance(printings, list):
        ids = [p.get("id") for p in printings if isinstance(p, dict)]
        source["printings"] = list(dict.fromkeys(i for i in ids if isinstance(i, str)))
    # Stats the card has but that are not numbers ("*", "X") are kept as printed.
    varying = {
        key: value
        for key in _FAB_RAW_STATS
        if isinstance(value := entry.get(key), str) and value.strip() and not _is_int(value)
    }
    if varying:
        source["printed"] = varying
    text = entry.get("functional_text_plain") or entry.get("functional_text") or ""
    text = text if isinstance(text, str) else ""
    cdef = replace(cdef, text=text.strip()[:MAX_TEXT], image=_fab_image(entry))
    return CardRecord(
        "fab",
        cdef,
        pitch,
        "" if pitch is None else str(pitch),
        tuple(fab_data.name_aliases(cdef.name)),
        text,
        source,
    )


def _fab_image(entry: Mapping[str, Any]) -> str:
    """The first https address of a picture of the card: a printing's
    ``image_url`` (card.json), or the first of the ``Image URLs`` (card.csv)."""
    found: list[Any] = []
    printings = entry.get("printings")
    if isinstance(printings, list):
        found += [p.get("image_url") for p in printings if isinstance(p, dict)]
    urls = entry.get("image_urls")
    if isinstance(urls, str):
        found += urls.replace(",", " ").split()
    for url in found:
        if isinstance(url, str) and url.startswith("https://") and len(url) <= MAX_IMAGE:
            return url
    return ""


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _is_int(text: str) -> bool:
    return text.strip().lstrip("+-").isdigit()


def _detect_json(head: str) -> bool:
    return head.startswith("[")


def _detect_csv(head: str) -> bool:
    columns = [c.strip() for c in head.split("\n", 1)[0].rstrip("\r").split("\t")]
    return "Unique ID" in columns and "Types" in columns


FORMATS = (
    CardFormat("fab-json", "the fab card.json", _detect_json, read_fab_json),
    CardFormat("fab-csv", "the fab card.csv", _detect_csv, read_fab_csv),
)
SOURCE = CardSource(DATABASE, "develop", "json/english/card.json", "fab-json")
