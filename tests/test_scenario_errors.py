"""Errors that name their cause: a misspelt card type, a name that is not a
player, a file too large to read, a scenario with no steps."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardzones.position import loader
from cardzones.scenario.runner import INVALID, PASS, run_file, run_text


def _invalid(text: str) -> tuple[int | None, str]:
    outcome = run_text(text)
    assert outcome.status == INVALID, outcome.describe()
    return outcome.line, outcome.message


# -- card types --------------------------------------------------------------


def test_a_misspelt_fab_type_is_named_with_the_known_types_1_3_2() -> None:
    line, message = _invalid(
        "name: x\nruleset: fab\ncards:\n  Snatch: {types: [acton, attack], power: 4}\n"
        "setup: {alice.hand: [Snatch]}\nsteps: [{expect: {turn: 1}}]\n"
    )
    assert line == 4
    assert "'acton' is not one (did you mean action?)" in message
    assert "the card types are action, attack_reaction" in message
    assert "hero" in message and "token" in message


def test_a_fab_card_with_types_subtypes_and_traits_is_accepted_1_3_2d() -> None:
    outcome = run_text(
        "name: x\nruleset: fab\ncards:\n  Edge: {types: [ninja, weapon, sword, 2h]}\n"
        "  Ash: {types: [light, action, aura, ash]}\n"
        "  Blasmophet: {types: [shadow, demon, ally]}\n"  # no card type: an arena-card
        "setup: {alice.weapon: [Edge], permanent: [Ash, Blasmophet]}\n"
        "steps: [{expect: {turn: 1}}]\n"
    )
    assert outcome.status == PASS, outcome.describe()


def test_a_misspelt_redemption_type_suggests_the_closest() -> None:
    line, message = _invalid(
        "name: x\nruleset: redemption\ncards:\n  X: {type: heroo}\n"
        "setup: {alice.territory: [X]}\nsteps: [{expect: {turn: 1}}]\n"
    )
    assert line == 4
    assert "not 'heroo' (did you mean hero?)" in message
    assert "evil_character" in message


# -- players -----------------------------------------------------------------

DEFAULT = "the players are alice, bob (the default, as the file has no players: list)"


@pytest.mark.parametrize(
    ("body", "line", "text"),
    [
        ("setup: {carol.hand: [A]}\nsteps: [{expect: {turn: 1}}]", 3, "'carol' in 'carol.hand'"),
        ("setup: {alice.hand: [{card: A, owner: carol}]}\nsteps: [{expect: {turn: 1}}]", 3, ""),
        (
            "setup: {alice.hand: [A]}\nsteps: [{move: {card: A@alice.hand, to: alice.pitch, "
            "by: carol}}]",
            4,
            "",
        ),
        ("steps: [{expect: {view: carol, zone: alice.hand, shows: []}}]", 3, "view: "),
        ("steps: [{expect: {turn_player: carol}}]", 3, "turn_player: "),
    ],
)
def test_a_name_that_is_not_a_player_points_at_players(body: str, line: int, text: str) -> None:
    got_line, message = _invalid(f"name: x\nruleset: fab\n{body}\n")
    assert got_line == line
    assert text in message
    assert "'carol'" in message
    assert message.endswith(DEFAULT), message


def test_a_name_that_is_not_a_player_names_the_line_of_players() -> None:
    _, message = _invalid(
        "name: x\nruleset: fab\nseed: 1\nplayers: [alice, bob]\n"
        "setup: {alice.hand: [{card: A, controller: carol}]}\nsteps: [{expect: {turn: 1}}]\n"
    )
    assert message == (
        "controller: 'carol' is not a player; the players are alice, bob "
        "(listed by players: at line 4)"
    )


# -- size --------------------------------------------------------------------


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.scenario.yaml"
    size = loader.MAX_BYTES + 10
    # Not even YAML: a file this large is refused before anything reads it.
    path.write_bytes(b"\xff" * size)

    def no_reading(*args: object, **kwargs: object) -> str:
        raise AssertionError("the file was read")

    monkeypatch.setattr(Path, "read_text", no_reading)
    outcome = run_file(path)
    assert outcome.status == INVALID
    assert outcome.line == 1
    assert outcome.message == (
        f"the file is {size:,} bytes, over the limit of 1,000,000 bytes (1 MB) for a scenario file"
    )


def test_a_text_over_the_size_limit_is_refused_before_it_is_parsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(loader, "_Loader", None)  # parsing would fail differently
    text = "name: x\nruleset: fab\nsteps: [{expect: {turn: 1}}]\n#" + "é" * (loader.MAX_BYTES // 2)
    outcome = run_text(text)
    assert outcome.status == INVALID
    assert "over the limit of 1,000,000 bytes" in outcome.message


def test_a_file_just_under_the_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "long.scenario.yaml"
    head = "name: x\nruleset: fab\nsteps: [{expect: {turn: 1}}]\n#"
    path.write_text(head + "x" * (loader.MAX_BYTES - len(head) - 1) + "\n", encoding="utf-8")
    assert path.stat().st_size == loader.MAX_BYTES
    assert run_file(path).status == PASS


# -- steps -------------------------------------------------------------------


def test_a_scenario_without_steps_is_invalid() -> None:
    line, message = _invalid("name: x\nruleset: fab\nsetup: {alice.hand: [A]}\nsteps: []\n")
    assert line == 4
    assert message.startswith("steps: is empty: a scenario needs at least one step")


def test_every_bundled_scenario_and_example_has_steps() -> None:
    root = Path(__file__).resolve().parent.parent
    files = [*root.glob("scenarios/**/*.scenario.yaml"), *root.glob("cardzones/examples/*.yaml")]
    assert len(files) > 100
    for path in files:
        outcome = run_file(path)
        assert outcome.status == PASS, outcome.describe()
        assert outcome.steps > 0
