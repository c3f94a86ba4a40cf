"""Every rule id a rule set implements is named by at least one scenario."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardzones.coverage import coverage_rows, excluded_rules, implemented_rules, missing
from cardzones.rulesets import ruleset_names

ROOT = Path(__file__).resolve().parent.parent
SHARED_RULES = ROOT.parent / "shared" / "rules"


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_every_implemented_rule_has_a_scenario(ruleset: str) -> None:
    rows = [r for r in coverage_rows([ROOT / "scenarios"]) if r.ruleset == ruleset]
    assert rows, f"{ruleset} lists no rule ids"
    assert missing(rows) == []


def test_every_fab_zone_rule_is_implemented_or_excluded() -> None:
    """Each id of fab-cr-3-zones.txt is implemented or excluded with a reason."""
    text = SHARED_RULES / "fab-cr-3-zones.txt"
    if not text.exists():
        pytest.skip("the shared rules texts are not beside this checkout")
    import re

    ids = re.findall(r"^(3\.\d+\.\d+[a-z]?) ", text.read_text(), flags=re.M)
    implemented = implemented_rules("fab")
    excluded = excluded_rules("fab")
    assert len(ids) > 100
    for rule in ids:
        assert (rule in implemented) != (rule in excluded), rule
    assert set(excluded) <= set(ids)
