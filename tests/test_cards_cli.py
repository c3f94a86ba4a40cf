"""``cardzones cards``: import, search, show, status and deck from the command
line, on the repository's fixtures and in a home of the test's own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardzones.cards.index import HOME_VARIABLE
from cardzones.cli import app
from cardzones.scenario.runner import PASS, run_text

FIXTURES = Path(__file__).parent / "fixtures"
FAB_JSON = FIXTURES / "cards" / "fab-card.json"
REDEMPTION = FIXTURES / "cards" / "redemption-carddata.txt"


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "home"))
    return CliRunner()


def run(runner: CliRunner, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["cards", *args])
    assert "Traceback" not in result.output
    return result.exit_code, " ".join(result.output.split())


def imported(runner: CliRunner) -> CliRunner:
    for path in (FAB_JSON, REDEMPTION):
        code, out = run(runner, "import", str(path))
        assert code == 0, out
    return runner


def test_import_says_what_it_read_and_skipped(runner: CliRunner, tmp_path: Path) -> None:
    code, out = run(runner, "import", str(FAB_JSON))
    assert code == 0
    assert "imported 64 fab cards" in out and "(fab-json): read 64, skipped 0" in out
    assert f"card index: {tmp_path / 'home' / 'cards.sqlite3'}" in out
    bad = tmp_path / "carddata.txt"
    rows = REDEMPTION.read_text(encoding="utf-8").split("\n")
    bad.write_text("\n".join([*rows[:2], "Broken\tK", *rows[2:]]), encoding="utf-8")
    code, out = run(runner, "import", str(bad), "--format", "redemption-lackey")
    assert code == 0
    assert "imported 51 redemption cards" in out and "read 52, skipped 1" in out
    assert f"{bad}:3: 2 columns, but the header has 16; skipped" in out


def test_import_refuses_bad_input_with_exit_2(runner: CliRunner, tmp_path: Path) -> None:
    code, out = run(runner, "import", str(tmp_path / "none.json"))
    assert code == 2 and "no such file" in out
    code, out = run(runner, "import", str(FAB_JSON), "--format", "mtg-json")
    assert code == 2 and "unknown format 'mtg-json'" in out
    broken = tmp_path / "card.json"
    broken.write_text('[{"name": "Snatch", "types": ["Action"]', encoding="utf-8")
    code, out = run(runner, "import", str(broken))
    assert code == 2 and "not valid JSON" in out


def test_show_gives_the_engine_card_and_its_source(runner: CliRunner) -> None:
    imported(runner)
    code, out = run(runner, "show", "Edge of Autumn")
    assert code == 0
    assert "types 2h ninja sword weapon" in out and "power 1" in out
    assert "printed type text Ninja Weapon - Sword (2H)" in out
    assert "the-fab-cube/flesh-and-blood-cards (fab-json)" in out
    code, out = run(runner, "show", "snatch")
    assert code == 0 and out.count("Snatch") >= 3  # every pitch
    code, out = run(runner, "show", "Snatch", "--pitch", "3", "--json")
    assert code == 0
    (card,) = json.loads(out)
    assert card["pitch"] == 3 and card["card"]["stats"]["power"] == 2
    code, out = run(runner, "show", "Abihud, the Exilarch", "--json")
    (card,) = json.loads(out)
    assert card["card"]["stats"] == {"strength": 3, "toughness": 2}
    assert card["source"]["other_face"] == {"strength": 10, "toughness": 10}


def test_show_an_unknown_name_lists_the_closest(runner: CliRunner) -> None:
    imported(runner)
    code, out = run(runner, "show", "Edge of Autum")
    assert code == 2
    assert "no card called 'Edge of Autum' in the card index; closest: 'Edge of Autumn'" in out
    code, out = run(runner, "show", "Hannah", "--ruleset", "redemption")
    assert code == 0 and "Hannah [K]" in out  # found by the name without its set tag


def test_search(runner: CliRunner) -> None:
    imported(runner)
    code, out = run(runner, "search", "sword 2h")
    assert code == 0 and "Edge of Autumn" in out and "Dawnblade" in out
    code, out = run(runner, "search", "lost soul", "--ruleset", "redemption", "--json")
    names = {c["name"] for c in json.loads(out)}
    assert 'Lost Soul "Dread" [Exodus 15:16 - K]' in names
    code, out = run(runner, "search", '" OR name:*')  # never FTS syntax
    assert code in (0, 1)
    code, out = run(runner, "search", "xyzzy")
    assert code == 1 and "no card matches" in out
    code, out = run(runner, "search", "Snach")
    assert code == 1 and "closest names: 'Snatch'" in out


def test_commands_need_an_index(runner: CliRunner) -> None:
    code, out = run(runner, "show", "Snatch")
    assert code == 2 and "there is no card index yet" in out
    assert "cardzones cards update fab|redemption" in out
    code, out = run(runner, "status")
    assert code == 0 and "no cards yet" in out


def test_status(runner: CliRunner) -> None:
    imported(runner)
    code, out = run(runner, "status", "--json")
    assert code == 0
    games = {g["ruleset"]: g for g in json.loads(out)["games"]}
    assert games["fab"]["cards"] == 64 and games["redemption"]["cards"] == 51


def test_deck_prints_a_scenario_that_runs(runner: CliRunner) -> None:
    imported(runner)
    result = runner.invoke(app, ["cards", "deck", str(FIXTURES / "decks" / "azalea.txt")])
    assert result.exit_code == 0, result.output
    assert "# inventory, in no zone (4.1.6): Quiver of Rustling Leaves" in result.output
    assert "\nshuffle:\n- alice.deck\n" in result.output  # the list's order is no secret
    outcome = run_text(result.output)
    assert outcome.status == PASS, outcome.describe()
    code, out = run(runner, "deck", str(FIXTURES / "cards" / "fab-card.csv"))
    assert code == 2 and "fab-card.csv:1: no fab card called" in out


def test_a_big_file_gets_a_progress_bar_on_a_terminal(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from rich.console import Console

    from cardzones import cli_cards

    screen = io.StringIO()
    monkeypatch.setattr(cli_cards, "errors", Console(file=screen, force_terminal=True, width=80))
    monkeypatch.setattr(cli_cards, "BIG_FILE", 1)
    code, _ = run(runner, "import", str(FAB_JSON))
    assert code == 0
    assert "reading fab-card.json" in screen.getvalue()


def test_search_lists_the_cards_that_hold_the_words_as_written_first(runner: CliRunner) -> None:
    imported(runner)
    code, out = run(runner, "search", "go again", "--ruleset", "fab", "--json")
    assert code == 0
    found = json.loads(out)
    assert found, out
    first = found[0]["card"]
    assert (
        "go_again" in first.get("keywords", []) or "go again" in (first.get("text") or "").lower()
    )
    ranked = [
        "go_again" in c["card"].get("keywords", [])
        or "go again" in (c["card"].get("text") or "").lower()
        for c in found
    ]
    # Every card with go again comes before every card without it.
    assert ranked == sorted(ranked, reverse=True)


def test_show_suggests_names_of_one_game(runner: CliRunner) -> None:
    imported(runner)
    code, out = run(runner, "show", "Hanah [K]")
    assert code == 2 and "closest: 'Hannah [K]'" in out
    assert "Snatch" not in out and "Dawnblade" not in out
    code, out = run(runner, "show", "Edge of Autum")
    assert "Hannah" not in out
