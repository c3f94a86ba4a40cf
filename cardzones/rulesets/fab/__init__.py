"""The Flesh and Blood rule set (Comprehensive Rules chapter 3, Zones)."""

from cardzones.rulesets.fab.ruleset import FabRuleset

__all__ = ["FabRuleset"]
