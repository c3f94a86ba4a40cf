"""The game-agnostic kernel: objects, zones, state, the move pipeline, effects,
events, choices, identity and player views. It never imports a rule set, nor
the action tables above it (:mod:`cardzones.acts`).

This package is the kernel's public surface, the one a rule set is written
against with :mod:`cardzones.acts` (docs/writing-a-ruleset.md): the names
below, and the public methods of :class:`Game`. Names that start with an
underscore, in any kernel module, are the kernel's own.

>>> from cardzones.kernel import Ruleset, ZoneSpec
>>> class Pile(Ruleset):
...     name = "pile"
...     zone_specs = {"pile": ZoneSpec("pile", public=True, ordered=True)}
>>> game = Game(Pile(), ["alice"])
>>> game.zone_name(game.zone("alice", "pile"))
'alice.pile'
"""

from cardzones.errors import CardzonesError, IllegalAction, NeedsChoice, UnknownReference
from cardzones.kernel.cards import (
    Ability,
    CardDef,
    Dest,
    Face,
    HistoryCondition,
    Move,
    PlayFrom,
    Position,
    Replacement,
    Trigger,
)
from cardzones.kernel.effects import COUNTER, END_OF_TURN, Counters, Effect, EffectRef
from cardzones.kernel.events import Event, Snapshot
from cardzones.kernel.game import Game
from cardzones.kernel.naming import name_for
from cardzones.kernel.objects import (
    ACTIVATED,
    CARD,
    MACRO,
    PLACED,
    TOP,
    TRIGGERED,
    UNDER,
    Obj,
    ObjRef,
    Origin,
)
from cardzones.kernel.records import Records
from cardzones.kernel.results import ActionResult, MoveResult
from cardzones.kernel.ruleset import ADMITTED, BLANK_CARD, Admission, Ruleset
from cardzones.kernel.zones import ZoneInfo, ZoneSpec

__all__ = [
    "ACTIVATED",
    "ADMITTED",
    "BLANK_CARD",
    "CARD",
    "COUNTER",
    "END_OF_TURN",
    "MACRO",
    "PLACED",
    "TOP",
    "TRIGGERED",
    "UNDER",
    "Ability",
    "ActionResult",
    "Admission",
    "CardDef",
    "CardzonesError",
    "Counters",
    "Dest",
    "Effect",
    "EffectRef",
    "Event",
    "Face",
    "Game",
    "HistoryCondition",
    "IllegalAction",
    "Move",
    "MoveResult",
    "NeedsChoice",
    "Obj",
    "ObjRef",
    "Origin",
    "PlayFrom",
    "Position",
    "Records",
    "Replacement",
    "Ruleset",
    "Snapshot",
    "Trigger",
    "UnknownReference",
    "ZoneInfo",
    "ZoneSpec",
    "name_for",
]
