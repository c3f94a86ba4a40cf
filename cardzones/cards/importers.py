"""Read the public card databases into the card index.

Three formats, each detected from the start of the file or named:

- ``fab-json``: the-fab-cube's ``json/english/card.json``, a list of cards,
  one per name and pitch;
- ``fab-csv``: the same database as ``csvs/english/card.csv`` (tab-separated,
  quoted fields may span lines);
- ``redemption-lackey``: LackeyCCG's ``RedemptionQuick/sets/carddata.txt``
  (tab-separated, no quoting, one card per line, with or without the
  ``OfficialSet`` column).

A row that cannot be read as a card is reported with its line and skipped;
the others are imported. A file that cannot be read at all, or that has no
card the engine can read, is refused and the index keeps what it had.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> data = folder / "carddata.txt"
>>> _ = data.write_text("Name\\tSet\\tType\\tBrigade\\tStrength\\tToughness\\n"
...                     "Hannah [K]\\tK\\tHero\\tGreen\\t4\\t3\\n"
...                     "Broken\\tK\\tHero\\n", encoding="utf-8")
>>> report = import_file(data, home=folder)
>>> report.read, report.imported, report.skipped
(2, 1, 1)
>>> print(report.problems[0])
line 3: 3 columns, but the header has 6; skipped
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from cardzones.acts.actions import MAX_TEXT
from cardzones.cards.errors import CardDataError, ImportFailed
from cardzones.cards.index import DATABASES, CardIndex, CardRecord, ImportInfo
from cardzones.rulesets.common import MAX_IMAGE
from cardzones.rulesets.fab import carddata as fab_data
from cardzones.rulesets.redemption import carddata as redemption_data

FORMATS = ("fab-json", "fab-csv", "redemption-lackey")
RULESET_OF = {"fab-json": "fab", "fab-csv": "fab", "redemption-lackey": "redemption"}

#: Called now and then with (work done, work in all), to drive a progress bar.
Progress = Callable[[int, int], None]

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
_REDEMPTION_REQUIRED = ("Name", "Type")
#: Where LackeyCCG's Redemption plugin takes its card pictures from (its
#: updatelist.txt): the address of a card's picture is this, its ImageFile
#: and ``.jpg``.
LACKEY_IMAGES = (
    "https://jalstad.github.io/RedemptionLackeyCCG/RedemptionQuick/sets/setimages/general/"
)


@dataclass(frozen=True)
class Problem:
    """A row that was skipped, with its line in the file."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}; skipped"


@dataclass
class ReadResult:
    """The cards read from one file, and the rows that were skipped."""

    ruleset: str
    format: str
    records: list[CardRecord] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def read(self) -> int:
        return len(self.records) + len(self.problems)


@dataclass(frozen=True)
class ImportReport:
    """What an import did: ``read`` rows, ``imported`` cards, ``skipped`` rows."""

    ruleset: str
    format: str
    file: str
    read: int
    imported: int
    problems: tuple[Problem, ...]
    seconds: float
    index: Path

    @property
    def skipped(self) -> int:
        return len(self.problems)


def detect_format(path: Path) -> str:
    """The format of a database file, from its first bytes."""
    try:
        with path.open("rb") as f:
            head = f.read(8192).decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    except OSError as exc:
        raise ImportFailed(f"cannot read {path}: {exc.strerror}") from None
    if head.startswith("["):
        return "fab-json"
    columns = [c.strip() for c in head.split("\n", 1)[0].rstrip("\r").split("\t")]
    if "Unique ID" in columns and "Types" in columns:
        return "fab-csv"
    if all(c in columns for c in _REDEMPTION_REQUIRED) and "Brigade" in columns:
        return "redemption-lackey"
    raise ImportFailed(
        f"cannot tell what {path} holds: it is not the fab card.json or card.csv, nor "
        f"Redemption's carddata.txt; name the format with --format {'|'.join(FORMATS)}"
    )


def read_cards(path: Path, fmt: str | None = None, progress: Progress | None = None) -> ReadResult:
    """Read every card of a database file; bad rows become :class:`Problem` s."""
    fmt = fmt or detect_format(path)
    if fmt not in FORMATS:
        raise ImportFailed(f"unknown format {fmt!r}; formats are {', '.join(FORMATS)}")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportFailed(f"{path} is not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise ImportFailed(f"cannot read {path}: {exc.strerror}") from None
    result = ReadResult(RULESET_OF[fmt], fmt)
    reader = {"fab-json": _read_fab_json, "fab-csv": _read_fab_csv}.get(fmt, _read_redemption)
    seen: dict[tuple[str, str], int] = {}
    for line, item in reader(text, str(path), progress or _no_progress):
        if isinstance(item, str):
            result.problems.append(Problem(line, item))
            continue
        key = (item.name.casefold(), item.key)
        if key in seen:
            what = f"{item.name} ({item.key})" if item.key else item.name
            result.problems.append(Problem(line, f"{what} is already on line {seen[key]}"))
            continue
        seen[key] = line
        result.records.append(item)
    return result


def import_file(
    path: Path | str,
    fmt: str | None = None,
    *,
    home: Path | None = None,
    progress: Progress | None = None,
    origin: str | None = None,
) -> ImportReport:
    """Import a database file into the card index, replacing that game's cards.

    ``origin`` is recorded as where the file came from (a URL); by default the
    file's own path.
    """
    path = Path(path)
    start = time.perf_counter()
    result = read_cards(path, fmt, progress)
    if not result.records:
        raise ImportFailed(
            f"no card could be read from {path} ({result.read} rows, all skipped); "
            "the card index is unchanged"
            + (f"; first problem: {result.problems[0]}" if result.problems else "")
        )
    origin = origin or str(path.resolve())
    info = ImportInfo(result.format, origin, result.read, len(result.problems))
    with CardIndex.create(home) as index:
        try:
            done = index.replace(result.ruleset, result.records, info)
        except CardDataError as exc:
            raise ImportFailed(f"{path}: {exc}; the card index is unchanged") from None
        where = index.path
    return ImportReport(
        result.ruleset,
        result.format,
        str(path),
        result.read,
        done.cards,
        tuple(result.problems),
        time.perf_counter() - start,
        where,
    )


def _no_progress(done: int, total: int) -> None:
    pass


# -- fab ------------------------------------------------------------------------

Rows = Iterator[tuple[int, CardRecord | str]]


def _read_fab_json(text: str, file: str, progress: Progress) -> Rows:
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


def _read_fab_csv(text: str, file: str, progress: Progress) -> Rows:
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
    source: dict[str, Any] = {"database": DATABASES["fab"], "format": fmt, "line": line}
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


# -- Redemption ----------------------------------------------------------------------


def _read_redemption(text: str, file: str, progress: Progress) -> Rows:
    lines = text.split("\n")
    header = [h.strip() for h in lines[0].rstrip("\r").split("\t")]
    missing = [c for c in _REDEMPTION_REQUIRED if c not in header]
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
        "database": DATABASES["redemption"],
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


# -- helpers ----------------------------------------------------------------------------


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _is_int(text: str) -> bool:
    return text.strip().lstrip("+-").isdigit()
