"""cardzones: a rules engine for card locations.

Zones, visibility, object identity, cards under and on other cards, placement
and set-aside areas, with two rule sets: Flesh and Blood and Redemption.

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
from cardzones.kernel.game import Game, MoveResult
from cardzones.rulesets import get_ruleset, new_game

__all__ = [
    "CardzonesError",
    "Game",
    "IllegalAction",
    "MoveResult",
    "NeedsChoice",
    "ScenarioError",
    "UnknownReference",
    "get_ruleset",
    "new_game",
]
__version__ = "0.1.0"
