"""``cardzones coverage``: the scenario names per rule id, the ``--json`` form,
and rule ids that stay whole on any console width."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardzones import cli
from cardzones.coverage import JSON_FORMAT, coverage_report, coverage_rows, implemented_rules
from cardzones.rulesets import RULESETS

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


def _scenario(folder: Path, stem: str, name: str, rules: list[str], ruleset: str = "fab") -> Path:
    path = folder / f"{stem}.scenario.yaml"
    path.write_text(
        f"name: {name}\nrules: {json.dumps(rules)}\nruleset: {ruleset}\n"
        "steps:\n  - expect: {turn: 1}\n"
    )
    return path


@pytest.fixture(scope="module")
def full_json() -> dict[str, object]:
    result = CliRunner().invoke(cli.app, ["coverage", "--json", str(SCENARIOS)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_json_lists_every_rule_id_with_its_summary(full_json: dict[str, object]) -> None:
    assert full_json["format"] == JSON_FORMAT
    rulesets = full_json["rulesets"]
    assert isinstance(rulesets, dict)
    assert list(rulesets) == list(RULESETS)
    total = 0
    for ruleset in RULESETS:
        rules = rulesets[ruleset]["rules"]
        # every id, in the rule set's own order
        assert list(rules) == list(implemented_rules(ruleset))
        for rule, entry in rules.items():
            assert entry["summary"] == implemented_rules(ruleset)[rule]
            assert entry["scenarios"], rule
            for scenario in entry["scenarios"]:
                assert set(scenario) == {"name", "file"}
                assert scenario["file"].endswith(".scenario.yaml")
        total += len(rules)
    assert full_json["rule_ids"] == total
    assert full_json["named"] == total
    assert full_json["missing"] == []


def test_json_names_the_scenarios_that_name_a_rule(full_json: dict[str, object]) -> None:
    rulesets = full_json["rulesets"]
    assert isinstance(rulesets, dict)
    drone = rulesets["fab"]["rules"]["3.0.8a"]["scenarios"]
    files = [Path(s["file"]).name for s in drone]
    assert "drone_of_brutality_goes_to_bottom_of_deck.scenario.yaml" in files
    assert files == sorted(files)
    by_file = {Path(s["file"]).name: s["name"] for s in drone}
    assert by_file["drone_of_brutality_goes_to_bottom_of_deck.scenario.yaml"].startswith(
        "Drone of Brutality"
    )
    # A scenario names the rule only in its own rule set.
    assert all("/redemption/" not in s["file"] for s in drone)


def test_json_is_stable() -> None:
    runner = CliRunner()
    first = runner.invoke(cli.app, ["coverage", "--json", str(SCENARIOS)]).stdout
    second = runner.invoke(cli.app, ["coverage", "--json", str(SCENARIOS)]).stdout
    assert first == second


def test_a_rule_without_a_scenario_is_listed_as_missing_and_exits_1(tmp_path: Path) -> None:
    _scenario(tmp_path, "one", "Only one rule", ["3.0.9"])
    result = CliRunner().invoke(cli.app, ["coverage", "--json", str(tmp_path)])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    entry = data["rulesets"]["fab"]["rules"]["3.0.9"]
    assert entry["scenarios"] == [
        {"name": "Only one rule", "file": (tmp_path / "one.scenario.yaml").as_posix()}
    ]
    assert "fab:3.0.9" not in data["missing"]
    assert "fab:3.0.8a" in data["missing"]
    assert data["named"] == 1
    assert data["rule_ids"] == data["named"] + len(data["missing"])


def test_table_lists_scenario_names_per_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _scenario(tmp_path, "b", "Second ruling about identity", ["3.0.9"])
    _scenario(tmp_path, "a", "First ruling about identity", ["3.0.9", "3.0.8a"])
    _scenario(tmp_path, "c", "A placing ruling", ["place/definition"], "redemption")
    monkeypatch.setattr(cli, "console", Console(width=200, highlight=False))
    result = CliRunner().invoke(cli.app, ["coverage", str(tmp_path)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    row = next(i for i, line in enumerate(lines) if re.search(r"│ 3\.0\.9 +│", line))
    block = "\n".join(lines[row : row + 4])
    assert "First ruling about identity" in block
    assert "Second ruling about identity" in block
    assert block.index("First") < block.index("Second")
    assert "A placing ruling" in result.stdout
    assert "no scenario names this rule" in result.stdout


def _whole_ids(output: str) -> set[str]:
    """The rule ids that appear whole, as a word of their own, on some line."""
    words = set()
    for line in output.splitlines():
        words.update(w.strip("│┃ ") for w in re.split(r"[\s│┃]+", line))
    return words


@pytest.mark.parametrize("width", [30, 60, 80, 120])
def test_no_rule_id_is_cut_on_a_narrow_console(width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # COLUMNS is how a user, a pipe or CI sets the width; the console reads it
    # when it is made.
    monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.setattr(cli, "console", Console(highlight=False))
    result = CliRunner().invoke(cli.app, ["coverage", str(SCENARIOS)])
    assert result.exit_code == 0, result.output
    assert "…" not in result.stdout
    words = _whole_ids(result.stdout)
    for ruleset in RULESETS:
        for rule in implemented_rules(ruleset):
            if len(rule) <= width:
                assert rule in words, f"{rule} is cut or wrapped at {width} columns"
    assert max(len(line) for line in result.stdout.splitlines()) <= width


def test_report_is_a_table_where_it_fits_and_a_list_where_it_does_not() -> None:
    rows = [r for r in coverage_rows([SCENARIOS]) if r.ruleset == "redemption"]
    longest = max(len(r.rule) for r in rows)
    for width, table in ((longest + 40, True), (longest + 10, False)):
        console = Console(width=width, record=True, highlight=False)
        for part in coverage_report(rows, width):
            console.print(part)
        text = console.export_text()
        assert ("┃ rule" in text) is table
        assert rows[0].rule in _whole_ids(text)
