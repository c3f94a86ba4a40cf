"""Importing the card databases: formats, bad rows with their lines, whole files
refused, and re-imports that replace a game's cards atomically."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from cardzones.cards import importers
from cardzones.cards.errors import CardDataError, ImportFailed
from cardzones.cards.importers import detect_format, import_file, read_cards
from cardzones.cards.index import CardIndex, CardRecord
from cardzones.cards.lookup import CardLookup

FIXTURES = Path(__file__).parent / "fixtures" / "cards"
FAB_JSON = FIXTURES / "fab-card.json"
FAB_CSV = FIXTURES / "fab-card.csv"
REDEMPTION = FIXTURES / "redemption-carddata.txt"


def digest(home: Path) -> str:
    return hashlib.sha256((home / "cards.sqlite3").read_bytes()).hexdigest()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    import_file(FAB_JSON, home=folder)
    import_file(REDEMPTION, home=folder)
    return folder


def count(home: Path, ruleset: str) -> int:
    with CardIndex.open(home) as index:
        return index.count(ruleset)


def test_the_fixtures_import_whole(home: Path) -> None:
    assert count(home, "fab") == 64
    assert count(home, "redemption") == 51
    with CardIndex.open(home) as index:
        info = index.info("fab")
        assert info is not None and (info.read, info.skipped, info.cards) == (64, 0, 64)


@pytest.mark.parametrize(
    ("path", "fmt"),
    [(FAB_JSON, "fab-json"), (FAB_CSV, "fab-csv"), (REDEMPTION, "redemption-lackey")],
)
def test_formats_are_detected(path: Path, fmt: str) -> None:
    assert detect_format(path) == fmt


def test_an_unknown_file_asks_for_the_format(tmp_path: Path) -> None:
    path = tmp_path / "cards.txt"
    path.write_text("hello\tworld\n", encoding="utf-8")
    with pytest.raises(ImportFailed, match="--format fab-json"):
        import_file(path, home=tmp_path)


def test_json_lines_are_those_of_each_entry() -> None:
    text = FAB_JSON.read_text(encoding="utf-8")
    for record in read_cards(FAB_JSON).records[:10]:
        line = text.split("\n")[record.source["line"]]
        assert json.dumps(record.source["id"]) in line  # unique_id is the entry's first key


def test_csv_lines_count_fields_that_span_lines(tmp_path: Path) -> None:
    lines = FAB_CSV.read_text(encoding="utf-8").split("\n")
    header = lines[0].split("\t")
    text_column = header.index("Functional Text")
    row = lines[1].split("\t")
    row[text_column] = '"first line\n\nthird line"'
    path = tmp_path / "card.csv"
    path.write_text("\n".join([lines[0], "\t".join(row), lines[2], "bad\trow", ""]), "utf-8")
    result = read_cards(path)
    assert [r.source["line"] for r in result.records] == [2, 5]
    assert [(p.line, p.message) for p in result.problems] == [
        (6, f"2 columns, but the header has {len(header)}")
    ]


def test_a_malformed_row_is_reported_with_its_line_and_skipped(tmp_path: Path) -> None:
    rows = REDEMPTION.read_text(encoding="utf-8").split("\n")
    rows.insert(3, "Broken Row\tK\tHero")  # line 4: too few columns
    rows.insert(5, rows[4].replace("\tHero\t", "\tWizard\t"))  # line 6: no such type
    path = tmp_path / "carddata.txt"
    path.write_text("\n".join(rows), encoding="utf-8")
    report = import_file(path, home=tmp_path)
    assert (report.read, report.imported, report.skipped) == (53, 51, 2)
    assert [str(p) for p in report.problems] == [
        "line 4: 3 columns, but the header has 16; skipped",
        "line 6: unknown card type 'Wizard'; skipped",
    ]
    with CardLookup("redemption", tmp_path) as cards, pytest.raises(CardDataError):
        cards.find("Broken Row")


def test_a_fab_entry_without_types_is_skipped_with_its_line(tmp_path: Path) -> None:
    entries = json.loads(FAB_JSON.read_text(encoding="utf-8"))
    entries.insert(1, {"name": "Marked", "types": [], "pitch": ""})
    entries.insert(2, ["not", "a", "card"])
    path = tmp_path / "card.json"
    path.write_text(json.dumps(entries, indent=4), encoding="utf-8")
    report = import_file(path, home=tmp_path)
    assert report.imported == 64 and report.skipped == 2
    marked, listed = report.problems
    assert marked.message == "Marked has no types"
    assert listed.message == "a card is a JSON object, not list"
    text = path.read_text(encoding="utf-8").split("\n")
    assert '"name": "Marked"' in text[marked.line]  # the line after the entry's {


def test_a_duplicate_card_is_skipped(tmp_path: Path) -> None:
    rows = REDEMPTION.read_text(encoding="utf-8").split("\n")
    path = tmp_path / "carddata.txt"
    path.write_text("\n".join([*rows[:3], rows[2], *rows[3:]]), encoding="utf-8")
    report = import_file(path, home=tmp_path)
    assert [str(p) for p in report.problems] == [
        "line 4: Abihud, the Progeny / Abihud, the Exilarch (LoC) (LoC) is already on line 3;"
        " skipped"
    ]


def test_the_older_redemption_file_without_official_set_imports(tmp_path: Path) -> None:
    rows = [r.split("\t") for r in REDEMPTION.read_text(encoding="utf-8").split("\n") if r]
    column = rows[0].index("OfficialSet")
    path = tmp_path / "carddata.txt"
    path.write_text(
        "\n".join("\t".join(r[:column] + r[column + 1 :]) for r in rows), encoding="utf-8"
    )
    report = import_file(path, home=tmp_path)
    assert (report.imported, report.skipped) == (51, 0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[{"name": "Snatch", "types": ["Action"]} {"name": "x"}]', "expected , or ]"),
        ('[{"name": "Snatch", "types": ["Action"]},', "never ends"),
        ('[{"name": "Snatch", "types": ["Action"], }]', "not valid JSON"),
        ("[]", "no card could be read"),
        ('[{"name": "Marked", "types": []}]', "all skipped"),
    ],
)
def test_a_broken_file_is_refused_and_the_index_is_unchanged(
    home: Path, tmp_path: Path, text: str, message: str
) -> None:
    before = digest(home)
    path = tmp_path / "card.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ImportFailed, match=message):
        import_file(path, "fab-json", home=home)
    assert digest(home) == before


def test_a_file_that_is_not_utf8_is_refused(home: Path, tmp_path: Path) -> None:
    before = digest(home)
    path = tmp_path / "carddata.txt"
    path.write_bytes(REDEMPTION.read_bytes().replace(b"Hannah", b"Hann\xe9h"))
    with pytest.raises(ImportFailed, match="not UTF-8"):
        import_file(path, home=home)
    assert digest(home) == before


def test_reimporting_replaces_only_that_games_cards(home: Path, tmp_path: Path) -> None:
    entries = json.loads(FAB_JSON.read_text(encoding="utf-8"))
    path = tmp_path / "card.json"
    path.write_text(json.dumps([e for e in entries if e["name"] == "Snatch"]), "utf-8")
    import_file(path, home=home)
    assert count(home, "fab") == 3
    assert count(home, "redemption") == 51
    with CardLookup("fab", home) as cards, pytest.raises(CardDataError, match="Edge of Autumn"):
        cards.find("Edge of Autumn")


def test_a_reimport_that_fails_halfway_keeps_the_old_cards(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The replacement is one transaction: a failure while the new cards are
    being written leaves every old card, and the record of the old import."""
    before = digest(home)
    with CardIndex.open(home) as index:
        old = [(r.name, r.key) for r in index.records("fab")]
    written = 0
    insert = CardIndex._insert

    def failing(self: CardIndex, record: CardRecord) -> None:
        nonlocal written
        written += 1
        if written == 40:
            raise OSError("disk full")
        insert(self, record)

    monkeypatch.setattr(CardIndex, "_insert", failing)
    with pytest.raises(OSError, match="disk full"):
        import_file(FAB_CSV, home=home)
    assert written == 40
    assert digest(home) == before
    with CardIndex.open(home) as index:
        assert [(r.name, r.key) for r in index.records("fab")] == old
        info = index.info("fab")
        assert info is not None and info.format == "fab-json"


def test_a_reader_sees_the_old_cards_until_the_new_ones_are_committed(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[int] = []
    insert = CardIndex._insert

    def watching(self: CardIndex, record: CardRecord) -> None:
        insert(self, record)
        if not seen:
            with CardIndex.open(home) as reader:
                seen.append(reader.count("fab"))

    monkeypatch.setattr(CardIndex, "_insert", watching)
    entries = json.loads(FAB_JSON.read_text(encoding="utf-8"))[:5]
    path = home / "five.json"
    path.write_text(json.dumps(entries), "utf-8")
    import_file(path, home=home)
    assert seen == [64]
    assert count(home, "fab") == 5


def test_progress_is_reported_to_the_end() -> None:
    calls: list[tuple[int, int]] = []
    for path in (FAB_JSON, FAB_CSV, REDEMPTION):
        calls.clear()
        importers.read_cards(path, progress=lambda done, total: calls.append((done, total)))
        assert calls and calls[-1][0] == calls[-1][1]


def test_an_index_written_before_cards_had_extra_reads_the_same_cards(home: Path) -> None:
    """An index of an earlier version kept a card's brigades, classes and
    alignment as keys of their own: its cards read the same, those fields in
    the card's ``extra``."""
    with CardIndex.open(home) as index:
        before = {(r.name, r.key): r.cdef for r in index.records("redemption")}
    assert any(cdef.extra for cdef in before.values())
    path = home / "cards.sqlite3"
    db = sqlite3.connect(path)
    with db:
        for rowid, card in db.execute("SELECT id, card FROM cards WHERE ruleset = 'redemption'"):
            data = json.loads(card)
            extra = data.pop("extra", {})
            for old, key in (("brigades", "brigade"), ("classes", "class")):
                if key in extra:
                    data[old] = extra[key]
            if "alignment" in extra:
                data["alignment"] = extra["alignment"]
            db.execute("UPDATE cards SET card = ? WHERE id = ?", (json.dumps(data), rowid))
    stored = [json.loads(c) for (c,) in db.execute("SELECT card FROM cards")]
    db.close()
    assert not any("extra" in c for c in stored) and any("brigades" in c for c in stored)
    with CardIndex.open(home) as index:
        after = {(r.name, r.key): r.cdef for r in index.records("redemption")}
    assert after == before
