"""Rule coverage: every rule id a rule set implements, and the scenarios that
name it in their ``rules:`` list.

>>> rows = coverage_rows([])
>>> any(row.rule == "3.0.9" for row in rows)
True
>>> report = coverage_json(rows)
>>> report["rulesets"]["fab"]["rules"]["3.0.9"]["scenarios"]
[]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from cardzones.errors import CardzonesError
from cardzones.position.loader import load_file
from cardzones.rulesets.registry import get_ruleset, ruleset_names
from cardzones.scenario.runner import find_scenarios

#: The version of the ``cardzones coverage --json`` form. It changes only when
#: a key changes meaning or goes away; new keys may be added within a version.
JSON_FORMAT = 1


@dataclass(frozen=True, order=True)
class Named:
    """A scenario that names a rule id: its ``file`` and its ``name:``."""

    file: str
    name: str


@dataclass
class Row:
    ruleset: str
    rule: str
    summary: str
    scenarios: list[Named] = field(default_factory=list)


def implemented_rules(ruleset: str) -> dict[str, str]:
    """The rule ids the rule set implements, with a one-line summary each."""
    return dict(get_ruleset(ruleset).rules)


def excluded_rules(ruleset: str) -> dict[str, str]:
    """Rule ids of the texts that are not engine behaviour, with the reason."""
    return dict(get_ruleset(ruleset).excluded_rules)


def scenario_rules(paths: Iterable[str | Path]) -> dict[str, dict[str, list[Named]]]:
    """ruleset -> rule id -> the scenarios that name it."""
    named: dict[str, dict[str, list[Named]]] = {name: {} for name in ruleset_names()}
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
        title = doc.get("name")
        scenario = Named(
            path.as_posix(),
            title.strip() if isinstance(title, str) and title.strip() else path.name,
        )
        for rule in rules:
            named[ruleset].setdefault(str(rule), []).append(scenario)
    return named


def coverage_rows(paths: Iterable[str | Path], rulesets: Iterable[str] | None = None) -> list[Row]:
    """One row per rule id of each rule set (every installed one by default),
    in rule order, with the scenarios under ``paths`` that name it sorted by
    file."""
    named = scenario_rules(paths)
    rows = []
    for ruleset in ruleset_names() if rulesets is None else rulesets:
        for rule, summary in implemented_rules(ruleset).items():
            found = named.get(ruleset, {}).get(rule, [])
            rows.append(Row(ruleset, rule, summary, sorted(set(found))))
    return rows


def missing(rows: Iterable[Row]) -> list[str]:
    """Rule ids with no scenario, as ``ruleset:id``."""
    return [f"{r.ruleset}:{r.rule}" for r in rows if not r.scenarios]


def coverage_json(rows: Iterable[Row]) -> dict[str, Any]:
    """The machine-readable form of ``cardzones coverage --json``.

    Rule sets and their rule ids keep the order of the rule sets' lists;
    scenarios are sorted by file, so the same checkout always gives the same
    text::

        {"format": 1,
         "rulesets": {"fab": {"rules": {"3.0.9": {"summary": "...",
                                                  "scenarios": [{"name": "...", "file": "..."}]}},
                              "not_engine_rules": {"3.0.6": "..."}}},
         "rule_ids": 184, "named": 184, "missing": []}
    """
    rows = list(rows)
    rulesets: dict[str, Any] = {}
    for ruleset in dict.fromkeys(row.ruleset for row in rows):
        rulesets[ruleset] = {
            "rules": {
                row.rule: {
                    "summary": row.summary,
                    "scenarios": [{"name": s.name, "file": s.file} for s in row.scenarios],
                }
                for row in rows
                if row.ruleset == ruleset
            },
            "not_engine_rules": excluded_rules(ruleset),
        }
    gaps = missing(rows)
    return {
        "format": JSON_FORMAT,
        "rulesets": rulesets,
        "rule_ids": len(rows),
        "named": len(rows) - len(gaps),
        "missing": gaps,
    }


#: The narrowest the column of summaries and scenario names may be in a table.
#: Below it the report is a list instead, so that no rule id is ever cut.
MIN_DETAIL_WIDTH = 24
#: Borders and padding of a two-column table: "│ id │ detail │".
_TABLE_FRAME = 7


def _detail(row: Row) -> RenderableType:
    """The summary, then one bullet per scenario name, wrapped under itself."""
    if not row.scenarios:
        return Text.assemble((row.summary, "dim"), ("\nno scenario names this rule", "bold red"))
    names = Table.grid(padding=(0, 1))
    names.add_column(no_wrap=True)
    names.add_column(overflow="fold")
    for scenario in row.scenarios:
        names.add_row("•", scenario.name)
    return Group(Text(row.summary, style="dim"), names)


def coverage_report(rows: Iterable[Row], width: int) -> list[RenderableType]:
    """One table per rule set: each rule id whole on one line (never wrapped
    or cut), beside its summary and the names of the scenarios that name it.

    When ``width`` leaves too little room beside the longest id, the rule set
    is shown as a list instead: each id on a line of its own, and below it the
    summary and scenario names, indented.
    """
    rows = list(rows)
    out: list[RenderableType] = []
    for ruleset in dict.fromkeys(row.ruleset for row in rows):
        mine = [row for row in rows if row.ruleset == ruleset]
        named = sum(1 for row in mine if row.scenarios)
        title = f"{ruleset}: {len(mine)} rule ids, {named} named by a scenario"
        longest = max(len(row.rule) for row in mine)
        if longest + _TABLE_FRAME + MIN_DETAIL_WIDTH <= width:
            table = Table(title=title, show_lines=True, title_justify="left")
            table.add_column("rule", no_wrap=True, min_width=longest, style="bold")
            table.add_column("summary and scenarios", overflow="fold")
            for row in mine:
                table.add_row(row.rule, _detail(row))
            out.append(table)
            continue
        items: list[RenderableType] = [Text(title, style="bold italic")]
        for row in mine:
            # An id has no spaces, so it stays whole on its line; only on a
            # console narrower than the id itself does it fold, and never cut.
            items.append(Text(row.rule, style="bold", overflow="fold"))
            items.append(Padding(_detail(row), (0, 0, 0, 2)))
        out.append(Group(*items))
    return out
