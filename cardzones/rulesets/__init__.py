"""Rule sets: the two that ship with cardzones (``fab``, ``redemption``), what
they share (``common``), and the registry that finds every rule set by name,
those of other packages included (``registry``)."""

from cardzones.rulesets.registry import (
    GROUP,
    RulesetError,
    get_ruleset,
    load_game,
    new_game,
    register_ruleset,
    ruleset_names,
    ruleset_origin,
    unregister_ruleset,
)

__all__ = [
    "GROUP",
    "RulesetError",
    "get_ruleset",
    "load_game",
    "new_game",
    "register_ruleset",
    "ruleset_names",
    "ruleset_origin",
    "unregister_ruleset",
]
