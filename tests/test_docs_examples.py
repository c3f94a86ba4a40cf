"""The examples of the docs that a newcomer copies first run as written:
docs/cards.md's deck lists to start positions (on the card fixtures' index),
and the README's account of a clean clone's ``cardzones check scenarios/``,
which reports exactly the scenarios that need a card index as invalid."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardzones.cli import app

ROOT = Path(__file__).resolve().parent.parent


def python_block(doc: str, starting: str) -> str:
    text = (ROOT / doc).read_text(encoding="utf-8")
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        if starting in block:
            return str(block)
    raise AssertionError(f"no python example with {starting!r} in {doc}")


def test_the_deck_list_example_of_cards_md_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "dorinthea.txt").write_text(
        "Hero: Dorinthea Ironsong\nWeapons: Dawnblade\n3 Snatch (red)\n", encoding="utf-8"
    )
    (tmp_path / "azalea.txt").write_text(
        "Hero: Azalea, Ace in the Hole\nWeapons: Death Dealer\n2 Snatch (red)\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    scope: dict[str, object] = {}
    exec(python_block("docs/cards.md", "start_position(read_deck"), scope)
    game = scope["game"]
    hero = game.zone("alice", "hero")  # type: ignore[attr-defined]
    names = [game.obj(c).cdef.name for c in game.contents(hero)]  # type: ignore[attr-defined]
    assert names == ["Dorinthea Ironsong"]


def test_a_clean_clone_reports_the_scenarios_that_need_a_card_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDZONES_HOME", str(tmp_path / "no-index"))
    result = CliRunner().invoke(app, ["check", str(ROOT / "scenarios"), "-q"])
    assert result.exit_code == 2
    invalid = [line for line in result.output.splitlines() if line.startswith("INVALID")]
    needing = sorted(
        p for p in (ROOT / "scenarios").rglob("*.scenario.yaml") if "card_data:" in p.read_text()
    )
    assert len(invalid) == len(needing) and invalid
    assert all("card index has no" in line for line in invalid)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert (
        "reports each bundled scenario\nthat names real cards (`card_data:`) as an invalid"
        in readme
    )
