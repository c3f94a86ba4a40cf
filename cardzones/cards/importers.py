"""Read a game's card database into the card index.

Each rule set names the formats of its database
(:attr:`~cardzones.rulesets.base.Ruleset.card_formats`), each detected from
the start of the file or named, with the reader that makes its rows card
records: Flesh and Blood's ``fab-json`` and ``fab-csv``
(:mod:`cardzones.rulesets.fab.cardfiles`), Redemption's
``redemption-lackey`` (:mod:`cardzones.rulesets.redemption.cardfiles`), and
the formats of any installed rule set.

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

import time
from dataclasses import dataclass, field
from pathlib import Path

from cardzones.cards.errors import CardDataError, ImportFailed
from cardzones.cards.index import CardIndex, ImportInfo
from cardzones.errors import CardzonesError
from cardzones.rulesets import get_ruleset, ruleset_names
from cardzones.rulesets.base import Ruleset
from cardzones.rulesets.cardfiles import CardFormat, CardRecord, Progress

__all__ = [
    "ImportReport",
    "Problem",
    "Progress",
    "ReadResult",
    "card_formats",
    "detect_format",
    "format_names",
    "import_file",
    "read_cards",
]


def card_formats() -> dict[str, tuple[Ruleset, CardFormat]]:
    """Every card database format of the rule sets there are, by name, with
    the rule set whose format it is. A rule set that cannot be loaded has none."""
    out: dict[str, tuple[Ruleset, CardFormat]] = {}
    for name in ruleset_names():
        try:
            ruleset = get_ruleset(name)
        except CardzonesError:
            continue
        for fmt in ruleset.card_formats:
            out.setdefault(fmt.name, (ruleset, fmt))
    return out


def format_names() -> tuple[str, ...]:
    """The names of the formats :func:`import_file` reads."""
    return tuple(card_formats())


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
    formats = card_formats()
    for name, (_, fmt) in formats.items():
        if fmt.detect(head):
            return name
    files = [fmt.what for _, fmt in formats.values()]
    raise ImportFailed(
        f"cannot tell what {path} holds: it is not {_either(files)}; "
        f"name the format with --format {'|'.join(formats)}"
    )


def _either(files: list[str]) -> str:
    """ "a, b, nor c"."""
    return ", nor ".join(files) if files else "a card database of any rule set"


def read_cards(path: Path, fmt: str | None = None, progress: Progress | None = None) -> ReadResult:
    """Read every card of a database file; bad rows become :class:`Problem` s."""
    fmt = fmt or detect_format(path)
    formats = card_formats()
    if fmt not in formats:
        raise ImportFailed(f"unknown format {fmt!r}; formats are {', '.join(formats)}")
    ruleset, card_format = formats[fmt]
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportFailed(f"{path} is not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise ImportFailed(f"cannot read {path}: {exc.strerror}") from None
    result = ReadResult(ruleset.name, fmt)
    seen: dict[tuple[str, str], int] = {}
    for line, item in card_format.read(text, str(path), progress or _no_progress):
        if isinstance(item, str):
            result.problems.append(Problem(line, item))
            continue
        if item.ruleset != ruleset.name:
            raise ImportFailed(f"{path}: the {fmt} reader made a {item.ruleset} card")
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
