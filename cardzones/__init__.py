"""cardzones: a rules engine for card locations.

Zones, visibility, object identity, cards under and on other cards, placement
and set-aside areas, with two rule sets: Flesh and Blood and Redemption. This
module is the public API in one place: the game, the rule set registry, what a
rule set is made of, and the errors.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> game.zone_name(game.zone("alice", "hand"))
'alice.hand'
"""

from __future__ import annotations

from cardzones.errors import (
    CardzonesError,
    IllegalAction,
    NeedsChoice,
    ScenarioError,
    UnknownReference,
)
from cardzones.kernel.actions import (
    NO_CARD,
    Action,
    ActionResult,
    ActionTable,
    ArgumentError,
    BoundAction,
    OneOf,
    Param,
    ParamKind,
    Resolver,
    action_table,
    bind,
)
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.effects import EffectRef
from cardzones.kernel.game import Game
from cardzones.kernel.objects import PLACED, TOP, UNDER, Obj
from cardzones.kernel.results import MoveResult
from cardzones.kernel.ruleset import ADMITTED, Admission, Ruleset
from cardzones.kernel.zones import ZoneSpec
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
    "ADMITTED",
    "NO_CARD",
    "PLACED",
    "TOP",
    "UNDER",
    "Action",
    "ActionResult",
    "ActionTable",
    "Admission",
    "ArgumentError",
    "BoundAction",
    "CardDef",
    "CardzonesError",
    "Dest",
    "EffectRef",
    "Game",
    "IllegalAction",
    "MoveResult",
    "NeedsChoice",
    "Obj",
    "OneOf",
    "Param",
    "ParamKind",
    "Resolver",
    "Ruleset",
    "RulesetError",
    "ScenarioError",
    "UnknownReference",
    "ZoneSpec",
    "action_table",
    "bind",
    "get_ruleset",
    "load_game",
    "new_game",
    "register_ruleset",
    "ruleset_names",
    "unregister_ruleset",
]
__version__ = "0.1.0"
