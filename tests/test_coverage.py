"""Every rule id a rule set implements is named by at least one scenario, and
every rule id of fab's chapter 3 is implemented or excluded.

The fab rule set keeps the ids of its rules texts (``CHAPTER_3_IDS``,
``RELATED_IDS``; ids only), so these checks run in any clone; where the texts
are beside the checkout, the kept ids are checked against them too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardzones.coverage import coverage_rows, excluded_rules, implemented_rules, missing
from cardzones.rulesets import ruleset_names
from cardzones.rulesets.fab.rule_ids import CHAPTER_3_IDS, PROCEDURE_TEXT_IDS, RELATED_IDS

ROOT = Path(__file__).resolve().parent.parent
SHARED_RULES = ROOT.parent / "shared" / "rules"


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_every_implemented_rule_has_a_scenario(ruleset: str) -> None:
    rows = [r for r in coverage_rows([ROOT / "scenarios"]) if r.ruleset == ruleset]
    assert rows, f"{ruleset} lists no rule ids"
    assert missing(rows) == []


def test_every_fab_zone_rule_is_implemented_or_excluded() -> None:
    """Each rule id of chapter 3 is implemented or excluded with a reason: checked
    against the ids the rule set keeps, so it runs in any clone."""
    implemented = implemented_rules("fab")
    excluded = excluded_rules("fab")
    assert len(CHAPTER_3_IDS) > 100
    assert len(set(CHAPTER_3_IDS)) == len(CHAPTER_3_IDS)
    for rule in CHAPTER_3_IDS:
        assert (rule in implemented) != (rule in excluded), rule
    assert set(excluded) <= set(CHAPTER_3_IDS)


def test_every_implemented_fab_rule_is_an_id_of_the_texts() -> None:
    """A rule id in the rule set's list is one of the texts: no made-up or
    mistyped id passes as implemented."""
    known = set(CHAPTER_3_IDS) | set(RELATED_IDS) | set(PROCEDURE_TEXT_IDS)
    assert sorted(set(implemented_rules("fab")) - known) == []


def _text_ids(name: str, pattern: str) -> list[str]:
    text = SHARED_RULES / name
    if not text.exists():
        pytest.skip(f"the rules text {name} is not beside this checkout: the kept ids are used")
    return re.findall(pattern, text.read_text(encoding="utf-8"), flags=re.M)


def test_the_kept_chapter_3_ids_are_those_of_the_rules_text() -> None:
    """Where the rules texts are beside the checkout, the kept ids are theirs."""
    assert list(CHAPTER_3_IDS) == _text_ids("fab-cr-3-zones.txt", r"^(3\.\d+\.\d+[a-z]?) ")


def test_the_kept_related_ids_are_those_of_the_rules_text() -> None:
    assert list(RELATED_IDS) == _text_ids("fab-cr-related.txt", r"^(\d+(?:\.\d+)+[a-z]?) ")


def test_the_kept_procedure_ids_are_ids_of_the_full_rules_text() -> None:
    """The ids the game procedure cites are ids of the full Comprehensive Rules."""
    full = set(_text_ids("fab-cr-full.txt", r"^(\d+(?:\.\d+)+[a-z]?) "))
    assert sorted(set(PROCEDURE_TEXT_IDS) - full) == []
