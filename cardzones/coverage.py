"""Rule coverage: every rule id a rule set implements, and the scenarios that
name it in their ``rules:`` list.

>>> rows = coverage_rows([])
>>> any(row.rule == "3.0.9" for row in rows)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path

from rich.table import Table

from cardzones.errors import CardzonesError
from cardzones.rulesets import RULESETS
from cardzones.scenario.loader import load_file
from cardzones.scenario.runner import find_scenarios


@dataclass
class Row:
    ruleset: str
    rule: str
    summary: str
    scenarios: list[str] = field(default_factory=list)


def implemented_rules(ruleset: str) -> dict[str, str]:
    """The rule ids the rule set implements, with a one-line summary each."""
    module = import_module(f"cardzones.rulesets.{ruleset}.rule_ids")
    rules: dict[str, str] = module.RULES
    return rules


def excluded_rules(ruleset: str) -> dict[str, str]:
    """Rule ids of the texts that are not engine behaviour, with the reason."""
    module = import_module(f"cardzones.rulesets.{ruleset}.rule_ids")
    excluded: dict[str, str] = getattr(module, "NOT_ENGINE_RULES", {})
    return excluded


def scenario_rules(paths: Iterable[str | Path]) -> dict[str, dict[str, list[str]]]:
    """ruleset -> rule id -> scenario files that name it."""
    named: dict[str, dict[str, list[str]]] = {name: {} for name in RULESETS}
    for path in find_scenarios(paths):
        try:
            doc = load_file(path)
        except CardzonesError:
            continue  # an invalid file is check's to report
        if not isinstance(doc, dict):
            continue
        ruleset = doc.get("ruleset")
        rules = doc.get("rules") or []
        if ruleset not in named or not isinstance(rules, list):
            continue
        for rule in rules:
            named[ruleset].setdefault(str(rule), []).append(path.name)
    return named


def coverage_rows(paths: Iterable[str | Path]) -> list[Row]:
    named = scenario_rules(paths)
    rows = []
    for ruleset in RULESETS:
        for rule, summary in implemented_rules(ruleset).items():
            rows.append(Row(ruleset, rule, summary, sorted(named[ruleset].get(rule, []))))
    return rows


def missing(rows: Iterable[Row]) -> list[str]:
    """Rule ids with no scenario, as ``ruleset:id``."""
    return [f"{r.ruleset}:{r.rule}" for r in rows if not r.scenarios]


def coverage_table(paths: Iterable[str | Path]) -> tuple[Table, list[Row]]:
    rows = coverage_rows(paths)
    table = Table(title="rule coverage", show_lines=False)
    table.add_column("ruleset")
    table.add_column("rule")
    table.add_column("summary", overflow="fold", max_width=60)
    table.add_column("scenarios", justify="right")
    for row in rows:
        count = str(len(row.scenarios)) if row.scenarios else "[red]0[/red]"
        table.add_row(row.ruleset, row.rule, row.summary, count)
    return table, rows
