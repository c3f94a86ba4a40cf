"""The local card index: one SQLite file with full-text search (FTS5).

It lives in ``$CARDZONES_HOME`` (by default the user data directory, such as
``~/.local/share/cardzones`` on Linux) as ``cards.sqlite3``. Each game's cards
are replaced as a whole, in one transaction, so a reader sees either the old
cards or the new ones and a failed import leaves the old ones in place.

>>> import tempfile
>>> from cardzones.kernel.cards import CardDef
>>> home = Path(tempfile.mkdtemp())
>>> snatch = CardRecord("fab", CardDef("Snatch", frozenset({"action", "attack"}),
...                     {"pitch": 1, "power": 4}), pitch=1)
>>> with CardIndex.create(home) as index:
...     _ = index.replace("fab", [snatch], ImportInfo("fab-json", "card.json", read=1))
...     [r.cdef.stats["power"] for r in index.lookup("fab", "snatch")]
[4]
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from cardzones.cards.errors import CardDataError, NoCardIndex
from cardzones.errors import CardzonesError
from cardzones.kernel.cards import CardDef
from cardzones.rulesets import get_ruleset, ruleset_names
from cardzones.rulesets.cardfiles import CardRecord

__all__ = [
    "HOME_VARIABLE",
    "CardIndex",
    "CardRecord",
    "ImportInfo",
    "card_from_json",
    "card_games",
    "card_to_json",
    "home",
    "index_path",
    "name_key",
]

#: The environment variable that names the folder of the card index.
HOME_VARIABLE = "CARDZONES_HOME"
INDEX_FILE = "cards.sqlite3"
SCHEMA_VERSION = 1


def card_games() -> tuple[str, ...]:
    """The games whose card databases the index reads: the rule sets there
    are that name the formats of one (a rule set that cannot be loaded has none)."""
    out = []
    for name in ruleset_names():
        try:
            if get_ruleset(name).card_formats:
                out.append(name)
        except CardzonesError:
            continue
    return tuple(out)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS cards (
    id INTEGER PRIMARY KEY,
    ruleset TEXT NOT NULL,
    name TEXT NOT NULL,
    variant TEXT NOT NULL,
    pitch INTEGER,
    card TEXT NOT NULL,
    source TEXT NOT NULL,
    UNIQUE (ruleset, name, variant)
);
CREATE TABLE IF NOT EXISTS names (
    ruleset TEXT NOT NULL,
    key TEXT NOT NULL,
    card INTEGER NOT NULL,
    exact INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS names_by_key ON names (ruleset, key);
CREATE VIRTUAL TABLE IF NOT EXISTS search USING fts5 (
    name, types, text, tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TABLE IF NOT EXISTS imports (
    ruleset TEXT PRIMARY KEY,
    format TEXT NOT NULL,
    file TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    read INTEGER NOT NULL,
    skipped INTEGER NOT NULL,
    cards INTEGER NOT NULL
);
"""


def home() -> Path:
    """The folder of the card index: ``$CARDZONES_HOME``, or the user data directory."""
    env = os.environ.get(HOME_VARIABLE)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return platformdirs.user_data_path("cardzones", appauthor=False)


def index_path(folder: Path | None = None) -> Path:
    return (folder if folder is not None else home()) / INDEX_FILE


def name_key(name: str) -> str:
    """How names are compared: case and runs of spaces do not matter."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class ImportInfo:
    """What was imported last for a game: the file, its format and the counts."""

    format: str
    file: str
    read: int = 0
    skipped: int = 0
    cards: int = 0
    imported_at: str = ""


def card_to_json(cdef: CardDef) -> dict[str, Any]:
    out: dict[str, Any] = {"types": sorted(cdef.types), "stats": dict(cdef.stats)}
    if cdef.keywords:
        out["keywords"] = sorted(cdef.keywords)
    if cdef.extra:
        out["extra"] = {k: v if isinstance(v, str) else sorted(v) for k, v in cdef.extra.items()}
    if cdef.text:
        out["text"] = cdef.text
    if cdef.image:
        out["image"] = cdef.image
    return out


#: Where an index written before cards had ``extra`` keeps those fields,
#: and their names in it.
_OLD_EXTRA = {"brigades": "brigade", "classes": "class", "alignment": "alignment"}


def card_from_json(name: str, data: Mapping[str, Any]) -> CardDef:
    extra = {_OLD_EXTRA[k]: data[k] for k in _OLD_EXTRA if data.get(k)}
    extra.update(data.get("extra", {}))
    return CardDef(
        name,
        frozenset(data.get("types", ())),
        {str(k): int(v) for k, v in data.get("stats", {}).items()},
        frozenset(data.get("keywords", ())),
        extra={k: v if isinstance(v, str) else frozenset(v) for k, v in extra.items()},
        text=str(data.get("text", "")),
        image=str(data.get("image", "")),
    )


class CardIndex:
    """A connection to the card index. Use :meth:`create` to write, :meth:`open`
    to read; both are context managers that close the connection."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self.path = path

    # -- opening -------------------------------------------------------------

    @classmethod
    def create(cls, folder: Path | None = None) -> CardIndex:
        """Open the index for writing, making the folder and the file if needed."""
        path = index_path(folder)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path, timeout=30, isolation_level=None)
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                db.executescript(
                    f"BEGIN; {_SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
                )
        except (OSError, sqlite3.Error) as exc:
            raise CardDataError(f"cannot open the card index {path}: {exc}") from None
        if version not in (0, SCHEMA_VERSION):
            db.close()
            raise CardDataError(
                f"the card index {path} was made by another version of cardzones; "
                "remove it and import the cards again"
            )
        return cls(db, path)

    @classmethod
    def open(cls, folder: Path | None = None) -> CardIndex:
        """Open an existing index for reading; :class:`NoCardIndex` if there is none."""
        path = index_path(folder)
        if not path.is_file():
            raise NoCardIndex(f"there is no card index at {path}")
        try:
            # Read-only, and usable from any thread: a table's game may look a
            # card up (create_token) in a worker thread other than its creator's.
            db = sqlite3.connect(
                f"{path.resolve().as_uri()}?mode=ro",
                uri=True,
                timeout=30,
                isolation_level=None,
                check_same_thread=False,
            )
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as exc:
            raise CardDataError(f"cannot read the card index {path}: {exc}") from None
        if version != SCHEMA_VERSION:
            db.close()
            raise NoCardIndex(f"the card index at {path} is not one this version can read")
        return cls(db, path)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> CardIndex:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------

    def replace(self, ruleset: str, records: Iterable[CardRecord], info: ImportInfo) -> ImportInfo:
        """Replace every card of ``ruleset`` with ``records``, in one transaction:
        if anything fails, the index keeps the cards it had."""
        db = self._db
        stamp = info.imported_at or datetime.now(UTC).isoformat(timespec="seconds")
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(
                "DELETE FROM search WHERE rowid IN (SELECT id FROM cards WHERE ruleset = ?)",
                (ruleset,),
            )
            db.execute("DELETE FROM names WHERE ruleset = ?", (ruleset,))
            db.execute("DELETE FROM cards WHERE ruleset = ?", (ruleset,))
            count = 0
            for record in records:
                if record.ruleset != ruleset:
                    raise CardDataError(f"{record.name} is a {record.ruleset} card, not {ruleset}")
                self._insert(record)
                count += 1
            done = ImportInfo(info.format, info.file, info.read, info.skipped, count, stamp)
            db.execute(
                "INSERT OR REPLACE INTO imports VALUES (?, ?, ?, ?, ?, ?, ?)",
                (ruleset, done.format, done.file, stamp, done.read, done.skipped, count),
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return done

    def _insert(self, record: CardRecord) -> None:
        db = self._db
        try:
            cursor = db.execute(
                "INSERT INTO cards (ruleset, name, variant, pitch, card, source) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    record.ruleset,
                    record.name,
                    record.variant,
                    record.pitch,
                    json.dumps(card_to_json(record.cdef)),
                    json.dumps({**record.source, "aliases": list(record.aliases)}),
                ),
            )
        except sqlite3.IntegrityError:
            raise CardDataError(
                f"{record.name} ({record.key or 'no variant'}) is in the data twice"
            ) from None
        rowid = cursor.lastrowid
        keys = {name_key(record.name): 1}
        for alias in record.aliases:
            keys.setdefault(name_key(alias), 0)
        db.executemany(
            "INSERT INTO names VALUES (?, ?, ?, ?)",
            [(record.ruleset, key, rowid, exact) for key, exact in keys.items()],
        )
        db.execute(
            "INSERT INTO search (rowid, name, types, text) VALUES (?, ?, ?, ?)",
            (rowid, " ".join([record.name, *record.aliases]), _types_text(record), record.text),
        )

    # -- reading ---------------------------------------------------------------

    def info(self, ruleset: str) -> ImportInfo | None:
        """What was imported last for ``ruleset``, or None."""
        row = self._db.execute(
            "SELECT format, file, read, skipped, cards, imported_at FROM imports WHERE ruleset = ?",
            (ruleset,),
        ).fetchone()
        if row is None:
            return None
        return ImportInfo(row[0], row[1], row[2], row[3], row[4], row[5])

    def count(self, ruleset: str) -> int:
        row = self._db.execute("SELECT count(*) FROM cards WHERE ruleset = ?", (ruleset,))
        return int(row.fetchone()[0])

    def lookup(self, ruleset: str, name: str) -> list[CardRecord]:
        """The cards called ``name`` (any case); if none, those it is another name of."""
        rows = self._db.execute(
            "SELECT c.id, c.ruleset, c.name, c.variant, c.pitch, c.card, c.source, n.exact "
            "FROM names n JOIN cards c ON c.id = n.card "
            "WHERE n.ruleset = ? AND n.key = ? ORDER BY n.exact DESC, c.id",
            (ruleset, name_key(name)),
        ).fetchall()
        exact = [r for r in rows if r[7]]
        return [self._record(r) for r in (exact or rows)]

    def names(self, ruleset: str) -> list[str]:
        """Every name and other name of the game's cards, for suggestions."""
        rows = self._db.execute(
            "SELECT DISTINCT c.name FROM cards c WHERE c.ruleset = ? ORDER BY c.name", (ruleset,)
        ).fetchall()
        return [r[0] for r in rows]

    def records(self, ruleset: str) -> Iterator[CardRecord]:
        cursor = self._db.execute(
            "SELECT id, ruleset, name, variant, pitch, card, source FROM cards "
            "WHERE ruleset = ? ORDER BY name, variant",
            (ruleset,),
        )
        for row in cursor:
            yield self._record(row)

    def search(self, text: str, ruleset: str | None = None, limit: int = 20) -> list[CardRecord]:
        """Cards whose name, types or rules text have every word of ``text``
        (each word also matches as a prefix), best matches first."""
        query = _fts_query(text)
        if not query:
            return []
        sql = (
            "SELECT c.id, c.ruleset, c.name, c.variant, c.pitch, c.card, c.source "
            "FROM search JOIN cards c ON c.id = search.rowid WHERE search MATCH ?"
        )
        args: list[Any] = [query]
        if ruleset is not None:
            sql += " AND c.ruleset = ?"
            args.append(ruleset)
        # Name hits first (bm25 weights the name column ten times); more than
        # asked for, to rank the cards that hold the words as written first.
        sql += " ORDER BY bm25(search, 10.0, 2.0, 1.0), c.name, c.variant LIMIT ?"
        args.append(min(limit * 10, 1000))
        try:
            rows = self._db.execute(sql, args).fetchall()
        except sqlite3.OperationalError as exc:
            raise CardDataError(f"cannot search for {text!r}: {exc}") from None
        found = [self._record(r) for r in rows]
        words = _words(text)
        ranked = sorted(enumerate(found), key=lambda pair: (_phrase_rank(pair[1], words), pair[0]))
        return [record for _, record in ranked[:limit]]

    def _record(self, row: tuple[Any, ...]) -> CardRecord:
        _, ruleset, name, variant, pitch, card, source = row[:7]
        data = json.loads(card)
        src = json.loads(source)
        aliases = tuple(src.get("aliases", ()))
        cdef = card_from_json(name, data)
        return CardRecord(ruleset, cdef, pitch, variant, aliases, cdef.text, src)


def _types_text(record: CardRecord) -> str:
    """The searched words of a card besides its name and text: its types, its
    other printed words and its keywords ("go again")."""
    cdef = record.cdef
    words = sorted(cdef.types)
    for value in cdef.extra.values():
        words += [value] if isinstance(value, str) else sorted(value)
    words += sorted(cdef.keywords)
    return " ".join(w.replace("_", " ") for w in words)


def _words(text: str) -> list[str]:
    return [w for w in "".join(c if c.isalnum() else " " for c in text).split() if w]


def _fts_query(text: str) -> str:
    """Every word as a quoted prefix term, so the user's text is never FTS syntax."""
    return " ".join(f'"{w}"*' for w in _words(text))


def _phrase_rank(record: CardRecord, words: list[str]) -> int:
    """How well a card holds the searched words as written, whole and in
    order: in its name (0), its keywords or types (1), its rules text (2), or
    only as scattered words or the starts of words (3). A search for "go
    again" lists the cards with go again before a card named "Gorganian" whose
    text says "again"."""
    if not words:
        return 3
    phrase = re.compile(r"\b" + r"\W+".join(map(re.escape, words)) + r"\b", re.IGNORECASE)
    names = " ".join([record.name, *record.aliases])
    if phrase.search(names):
        return 0
    if phrase.search(_types_text(record)):
        return 1
    if phrase.search(record.text or ""):
        return 2
    return 3
