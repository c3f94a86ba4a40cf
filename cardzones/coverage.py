"""Rule coverage: every rule id a rule set implements, and the scenarios that
name it in their ``rules:`` list.

>>> rows = coverage_rows([])
>>> any(row.rule == "3.0.9" for row in rows)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from rich.table import Table

from cardzones.errors import CardzonesError
from cardzones.rulesets.registry import get_ruleset, ruleset_names
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
    return dict(get_ruleset(ruleset).rules)


def excluded_rules(ruleset: str) -> dict[str, str]:
    """Rule ids of the texts that are not engine behaviour, with the reason."""
    return dict(get_ruleset(ruleset).excluded_rules)


def scenario_rules(paths: Iterable[str | Path]) -> dict[str, dict[str, list[str]]]:
    """ruleset -> rule id -> scenario files that name it."""
    named: dict[str, dict[str, list[str]]] = {name: {} for name in ruleset_names()}
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


def coverage_rows(paths: Iterable[str | Path], rulesets: Iterable[str] | None = None) -> list[Row]:
    """One row per rule id of each rule set (every installed one by default),
    with the scenarios under ``paths`` that name it."""
    named = scenario_rules(paths)
    rows = []
    for ruleset in ruleset_names() if rulesets is None else rulesets:
        for rule, summary in implemented_rules(ruleset).items():
            found = named.get(ruleset, {}).get(rule, [])
            rows.append(Row(ruleset, rule, summary, sorted(found)))
    return rows


def missing(rows: Iterable[Row]) -> list[str]:
    """Rule ids with no scenario, as ``ruleset:id``."""
    return [f"{r.ruleset}:{r.rule}" for r in rows if not r.scenarios]


def coverage_table(
    paths: Iterable[str | Path], rulesets: Iterable[str] | None = None
) -> tuple[Table, list[Row]]:
    rows = coverage_rows(paths, rulesets)
    table = Table(title="rule coverage", show_lines=False)
    table.add_column("ruleset")
    table.add_column("rule")
    table.add_column("summary", overflow="fold", max_width=60)
    table.add_column("scenarios", justify="right")
    for row in rows:
        count = str(len(row.scenarios)) if row.scenarios else "[red]0[/red]"
        table.add_row(row.ruleset, row.rule, row.summary, count)
    return table, rows
