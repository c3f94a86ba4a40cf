"""The Redemption rule set: the Place and Set-aside abilities, the zones they
use and the phases of a turn.

>>> from cardzones import new_game
>>> game = new_game("redemption")
>>> game.phase, game.zone_name(game.zone(None, "field_of_battle"))
('draw', 'field_of_battle')
"""

from cardzones.rulesets.redemption.held import is_set_aside
from cardzones.rulesets.redemption.moves import discard, relocate
from cardzones.rulesets.redemption.negate import negate
from cardzones.rulesets.redemption.place import place
from cardzones.rulesets.redemption.records import EffectHandle, Ongoing
from cardzones.rulesets.redemption.ruleset import RedemptionRuleset
from cardzones.rulesets.redemption.set_aside import (
    end_battle,
    play_dominant,
    return_cards,
    set_aside,
)
from cardzones.rulesets.redemption.turns import PHASES, advance_to

__all__ = [
    "PHASES",
    "EffectHandle",
    "Ongoing",
    "RedemptionRuleset",
    "advance_to",
    "discard",
    "end_battle",
    "is_set_aside",
    "negate",
    "place",
    "play_dominant",
    "relocate",
    "return_cards",
    "set_aside",
]
