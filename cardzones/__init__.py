"""cardzones: a rules engine for card locations.

Zones, visibility, object identity, cards under and on other cards, placement
and set-aside areas, with two rule sets: Flesh and Blood and Redemption, and
any other rule set installed beside them.

This module is the public API in one place: the kernel's public surface (the
game, what a rule set is made of, action tables; see :mod:`cardzones.kernel`),
the rule set registry, and the errors.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> game.zone_name(game.zone("alice", "hand"))
'alice.hand'
"""

from __future__ import annotations

from cardzones.errors import ScenarioError
from cardzones.kernel import *  # noqa: F403 - the kernel's public surface, listed in its __all__
from cardzones.kernel import __all__ as _kernel_names
from cardzones.rulesets.registry import (
    RulesetError,
    get_ruleset,
    load_game,
    new_game,
    register_ruleset,
    ruleset_names,
    unregister_ruleset,
)

__all__ = [
    *_kernel_names,
    "RulesetError",
    "ScenarioError",
    "get_ruleset",
    "load_game",
    "new_game",
    "register_ruleset",
    "ruleset_names",
    "unregister_ruleset",
]
__version__ = "0.1.0"
