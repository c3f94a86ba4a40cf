"""The ``card_data:`` key: names not under ``cards:`` come from the card index,
``pitch`` picks a colour, and every problem is an invalid file with its line.
The index is the repository's fixtures, imported by the pytest plugin
(``cardzones_card_files``). Real cards are also written down as ``cards:``
entries, a card of several colours as a list of definitions."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from cardzones.cards.importers import import_file
from cardzones.cards.index import HOME_VARIABLE, CardIndex
from cardzones.errors import ScenarioError
from cardzones.kernel.cards import CardDef
from cardzones.position.cards import card_entry, parse_card
from cardzones.position.loader import from_data
from cardzones.rulesets import get_ruleset
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


# ----------------------------------------------------------------------
# Real cards written down as cards: entries
# ----------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["fab", "redemption"])
def test_every_card_of_the_fixtures_is_written_as_a_cards_entry_that_reads_back(
    ruleset: str,
) -> None:
    """What a table's record and an exported game keep of each card is the
    card: written as a cards: entry and read back, it is equal in every part."""
    rules = get_ruleset(ruleset)
    with CardIndex.open() as index:
        records = list(index.records(ruleset))
    assert len(records) > 40
    for record in records:
        entry = card_entry(record.cdef, rules)
        assert parse_card(record.name, from_data(entry), rules) == record.cdef, record.name


def test_a_card_the_rule_set_cannot_write_is_refused_not_changed() -> None:
    odd = CardDef("Odd", frozenset({"hero"}), {"luck": 3})
    with pytest.raises(ScenarioError, match="Odd cannot be written as a redemption cards: entry"):
        card_entry(odd, get_ruleset("redemption"))


SNATCHES = """\
name: Snatch in two colours, written down
ruleset: fab
cards:
  Snatch:
    - {types: [generic, action, attack], pitch: 1, power: 4}
    - {types: [generic, action, attack], pitch: 3, power: 2}
setup:
  alice.hand: [{card: Snatch, pitch: 1, as: red}, {card: Snatch, pitch: 3, as: blue}]
steps:
  - expect: {card: $red, power: 4}
  - expect: {card: $blue, power: 2}
"""


def test_a_list_of_definitions_is_picked_by_pitch_as_the_index_is() -> None:
    outcome = run_text(SNATCHES)
    assert outcome.status == PASS, outcome.describe()
    one = SNATCHES.replace("    - {types: [generic, action, attack], pitch: 3, power: 2}\n", "")
    one = one.replace(", {card: Snatch, pitch: 3, as: blue}", "").replace(
        "  - expect: {card: $blue, power: 2}\n", ""
    )
    assert run_text(one).status == PASS  # a list of one, and pitch: that matches it


@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        (", pitch: 3, as: blue", ", as: blue", 8, "Snatch has 2 definitions under cards:: give"),
        ("pitch: 3, as: blue", "pitch: 2, as: blue", 8, "Snatch has no pitch 2 under cards:"),
        ("pitch: 3, power: 2", "pitch: 1, power: 2", 6, "two definitions have pitch 1"),
        ("pitch: 3, power: 2", "power: 2", 6, "each of its definitions gives its own pitch:"),
        (
            "  - expect: {card: $red, power: 4}\n",
            "  - create_token: {card: Snatch, to: arena}\n",
            10,
            "Snatch has 2 definitions under cards:",
        ),
    ],
)
def test_a_bad_list_of_definitions_is_an_invalid_file(
    old: str, new: str, line: int, message: str
) -> None:
    got_line, got = invalid(SNATCHES.replace(old, new))
    assert got_line == line and message in got


def test_a_single_definition_with_another_pitch_is_not_picked() -> None:
    text = (
        SNATCHES.replace("    - {types: [generic, action, attack], pitch: 3, power: 2}\n", "")
        .replace("  Snatch:\n    - {", "  Snatch: {")
        .replace("power: 4}\nsetup", "power: 4}\nsetup")
    )
    line, message = invalid(text)
    assert line == 6 and message == "Snatch is defined under cards: with pitch 1"


def test_redemption_lists_of_definitions_and_types() -> None:
    base = (
        "name: x\nruleset: redemption\ncards:\n  C: BODY\n"
        "setup:\n  alice.territory: [C]\nsteps: [{expect: {zone: alice.territory, count: 1}}]\n"
    )
    assert run_text(base.replace("BODY", "{type: [hero, evil_character]}")).status == PASS
    assert run_text(base.replace("BODY", "{type: lost soul, alignment: neutral}")).status == PASS
    line, message = invalid(base.replace("BODY", "{type: [hero, villain]}"))
    assert line == 4 and "type is one or more of hero, evil_character" in message
    assert "not 'villain'" in message
    line, message = invalid(base.replace("BODY", "[{type: hero}]"))
    assert line == 4 and "redemption cards have none" in message
    line, message = invalid(base.replace("BODY", "{type: []}"))
    assert line == 4 and "type: give the card's type" in message
