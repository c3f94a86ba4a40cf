"""The command line as a new user meets it: the version, quiet checks, the
demo's boards and logs, and the README's commands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardzones import __version__
from cardzones.board import board, log_table
from cardzones.cli import app

ROOT = Path(__file__).resolve().parent.parent


def _text(renderable: object) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_version_prints_the_installed_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"cardzones {__version__}"


def test_quiet_check_prints_one_summary_line_when_all_hold() -> None:
    result = CliRunner().invoke(app, ["check", "-q", str(ROOT / "scenarios")])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert re.fullmatch(r"\d+ passed, 0 failed", lines[0])


def test_quiet_check_still_reports_a_failure(tmp_path: Path) -> None:
    bad = tmp_path / "bad.scenario.yaml"
    bad.write_text("name: x\nruleset: fab\nsteps:\n  - expect: {turn: 2}\n")
    result = CliRunner().invoke(app, ["check", "-q", str(bad)])
    assert result.exit_code == 1
    assert "FAIL" in result.output
    assert result.output.strip().splitlines()[-1] == "0 passed, 1 failed"


def test_demo_says_when_it_trims_a_log() -> None:
    result = CliRunner().invoke(app, ["demo"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert re.search(r"event log: the last 12 of \d+ entries", result.output)
    assert re.search(r"event log: the last 6 of \d+ entries", result.output)


def test_log_table_shows_every_entry_without_a_note_when_not_trimmed() -> None:
    log = [{"seq": i, "turn": 1, "event": "turn", "note": f"n{i}"} for i in range(3)]
    assert "the last" not in _text(log_table(log, limit=12))
    assert "the last 2 of 3 entries" in _text(log_table(log, limit=2))


def _one_zone_view(zone: str, public: bool, obj: dict[str, object]) -> dict[str, object]:
    return {
        "ruleset": "fab",
        "viewer": "alice",
        "players": ["alice", "bob"],
        "turn": 1,
        "turn_player": "alice",
        "phase": None,
        "zones": [
            {
                "zone": zone,
                "type": zone.split(".")[-1],
                "owner": "alice",
                "public": public,
                "ordered": False,
                "count": 1,
                "objects": [obj],
            }
        ],
    }


def test_own_hand_cards_are_not_labelled_face_down() -> None:
    from cardzones import new_game

    game = new_game("fab", ["alice", "bob"])
    game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    text = _text(board(game.view("alice")))
    assert "Snatch" in text
    assert "face down" not in text


def test_a_private_card_in_a_public_zone_is_face_down_and_the_reverse_face_up() -> None:
    card = {"id": "o1", "name": "Tome", "public": False, "owner": "alice"}
    assert "face down" in _text(board(_one_zone_view("alice.banished", True, card)))
    card = {"id": "o1", "name": "Arrow", "public": True, "owner": "alice"}
    assert "face up" in _text(board(_one_zone_view("alice.arsenal", False, card)))
    assert "face" not in _text(board(_one_zone_view("alice.graveyard", True, card)))


def test_the_readme_activates_the_venv_before_any_bare_command() -> None:
    """The set-up commands name .venv/bin/ (tests/test_setup_commands.py holds
    them to CI's); then the README says to activate the venv, and from there
    on every command is the bare ``cardzones``, never .venv/bin/ again."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```sh\n(.*?)^```", text, flags=re.M | re.S)
    lines = [line for block in blocks for line in block.splitlines() if line.strip()]
    activate = lines.index(". .venv/bin/activate")
    for line in lines[:activate]:
        assert "cardzones" not in line or ".venv/bin/cardzones" in line, line
    later = [line for line in lines[activate + 1 :] if not line.startswith(("#", "     "))]
    assert any(line.startswith("cardzones ") for line in later)
    for line in later:
        assert ".venv/bin/" not in line, line


def test_the_readme_python_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S)
    monkeypatch.chdir(ROOT)  # it names a scenario file of the repository
    exec(compile(code, "README.md", "exec"), {})


def test_a_table_id_is_never_read_as_an_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """``cardzones export ID`` must take any id: none starts with ``-``."""
    from cardzones.table import tokens

    drawn = iter(["-dash", "--two", "Xok"])
    monkeypatch.setattr(tokens.secrets, "token_urlsafe", lambda n: next(drawn))
    assert tokens.new_table_id() == "Xok"
