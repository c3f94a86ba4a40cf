"""The ``card_data:`` key: names not under ``cards:`` come from the card index,
``pitch`` picks a colour, and every problem is an invalid file with its line.
The index is the repository's fixtures, imported by the root conftest.py."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from cardzones.cards.importers import import_file
from cardzones.cards.index import HOME_VARIABLE
from cardzones.scenario.runner import INVALID, PASS, run_text

FAB = """\
name: real cards
ruleset: fab
card_data: fab
setup:
  alice.weapon: [{card: Edge of Autumn, as: edge}]
  alice.hand: [{card: Snatch, pitch: 3, as: snatch}]
steps:
  - expect: {card: $edge, equipped_to: [alice.weapon.1, alice.weapon.2]}
  - expect: {card: $snatch, power: 2}
"""


def index_digest() -> str:
    path = Path(os.environ[HOME_VARIABLE]) / "cards.sqlite3"
    return hashlib.sha256(path.read_bytes()).hexdigest()


def invalid(text: str) -> tuple[int | None, str]:
    outcome = run_text(text, "t.scenario.yaml")
    assert outcome.status == INVALID, outcome.describe()
    return outcome.line, outcome.message


def test_names_come_from_the_index_and_pitch_picks_the_colour() -> None:
    outcome = run_text(FAB)
    assert outcome.status == PASS, outcome.describe()


def test_without_the_key_a_name_is_a_vanilla_card_as_before() -> None:
    text = FAB.replace("card_data: fab\n", "").replace(", pitch: 3", "")
    outcome = run_text(text.replace("power: 2", "power: 0"), "t.scenario.yaml")
    # Edge of Autumn is a vanilla action card: it cannot be equipped.
    assert outcome.status == INVALID and "cannot contain Edge of Autumn" in outcome.message


def test_cards_under_cards_still_win() -> None:
    text = FAB.replace("card_data: fab\n", "card_data: fab\ncards:\n  Snatch: {power: 9}\n")
    text = text.replace(", pitch: 3", "").replace("power: 2", "power: 9")
    outcome = run_text(text)
    assert outcome.status == PASS, outcome.describe()


def test_an_ambiguous_pitch_names_the_options_and_changes_nothing() -> None:
    before = index_digest()
    line, message = invalid(FAB.replace(", pitch: 3", ""))
    assert line == 6
    assert message == "Snatch has 3 pitches: give pitch: 1 (red), 2 (yellow) or 3 (blue)"
    assert index_digest() == before


def test_an_unknown_card_names_the_closest_and_changes_nothing() -> None:
    before = index_digest()
    line, message = invalid(FAB.replace("Edge of Autumn", "Edge of Autum"))
    assert line == 5
    assert message == (
        "no fab card called 'Edge of Autum' in the card index; closest: 'Edge of Autumn'"
    )
    assert index_digest() == before


def test_an_unknown_token_is_reported_at_its_step() -> None:
    text = FAB + "  - create_token: {card: Runechants, to: arena, controller: alice}\n"
    line, message = invalid(text)
    assert line == 10 and "no fab card called 'Runechants'" in message
    assert "'Runechant'" in message


@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        ("pitch: 3", "pitch: 4", 6, "Snatch has no pitch 4; give 1 (red), 2 (yellow) or 3 (blue)"),
        ("pitch: 3", "pitch: red", 6, "pitch: is a number, 1 (red), 2 (yellow) or 3 (blue)"),
        ("pitch: 3", "pitch: true", 6, "pitch: is a number"),
        ("Edge of Autumn,", "Edge of Autumn, pitch: 1,", 5, "Edge of Autumn has no pitch"),
        ("card_data: fab", "card_data: redemption", 3, "does not match ruleset: fab"),
        ("card_data: fab", "card_data: [fab]", 3, "card_data: is fab or redemption"),
        ("card_data: fab", "card_data: mtg", 3, "card_data: is fab or redemption"),
    ],
)
def test_bad_values_are_invalid_files_with_their_line(
    old: str, new: str, line: int, message: str
) -> None:
    got_line, got = invalid(FAB.replace(old, new))
    assert got_line == line and message in got


def test_pitch_needs_card_data_and_is_fab_only() -> None:
    vanilla = FAB.replace("card_data: fab\n", "").replace(
        "  alice.weapon: [{card: Edge of Autumn, as: edge}]\n", ""
    )
    line, message = invalid(vanilla)
    assert line == 4 and message == (
        "pitch: picks a colour of a card from the card index; it needs card_data: fab"
    )
    text = FAB.replace("card_data: fab\n", "card_data: fab\ncards:\n  Snatch: {power: 9}\n")
    line, message = invalid(text)
    assert "Snatch is defined under cards:, so pitch: has nothing to pick" in message
    redemption = (
        "name: x\nruleset: redemption\ncard_data: redemption\n"
        "setup:\n  alice.hand: [{card: 'Hannah [K]', pitch: 1}]\nsteps: []\n"
    )
    line, message = invalid(redemption)
    assert line == 5 and "colour of a fab card" in message


def test_redemption_names_with_several_printings() -> None:
    base = "name: x\nruleset: redemption\ncard_data: redemption\nsetup:\n  alice.territory: [{card: NAME, as: c}]\nsteps:\n  - expect: {card: $c, strength: 6}\n"  # noqa: E501
    # Gideon (L) and Gideon (UL) are the same card: "Gideon" finds it.
    assert run_text(base.replace("NAME", "Gideon")).status == PASS
    line, message = invalid(base.replace("NAME", "Moses"))
    assert line == 5 and "'Moses' names 2 different cards: Moses (Pr) (set Prp)" in message
    text = base.replace("NAME", "Archippus (set TPC)").replace("strength: 6", "strength: 7")
    assert run_text(text).status == PASS


def test_a_missing_index_says_which_command_imports_the_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path))
    line, message = invalid(FAB)
    assert line == 3
    assert "the card index has no fab cards" in message
    assert "`cardzones cards update fab`" in message and "`cardzones cards import FILE`" in message
    # An index with the other game's cards only is no better.
    import_file(Path(__file__).parent / "fixtures" / "cards" / "redemption-carddata.txt")
    line, message = invalid(FAB)
    assert line == 3 and "has no fab cards" in message
