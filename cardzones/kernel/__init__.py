"""The game-agnostic kernel: objects, zones, state, the move pipeline, effects,
events, choices, player views and action tables. It never imports a rule set.

This package is the kernel's public surface, the one a rule set is written
against (docs/writing-a-ruleset.md): the names below, and the public methods
of :class:`Game`. Names that start with an underscore, in any kernel module,
are the kernel's own.

>>> from cardzones.kernel import Ruleset, ZoneSpec
>>> class Pile(Ruleset):
...     name = "pile"
...     zone_specs = {"pile": ZoneSpec("pile", public=True, ordered=True)}
>>> game = Game(Pile(), ["alice"])
>>> game.zone_name(game.zone("alice", "pile"))
'alice.pile'
"""

from cardzones.errors import CardzonesError, IllegalAction, NeedsChoice, UnknownReference
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
    Role,
    acting,
    action_table,
    bind,
    bind_fields,
    complete,
)
from cardzones.kernel.cards import (
    Ability,
    CardDef,
    Dest,
    Face,
    HistoryCondition,
    PlayFrom,
    Position,
    Replacement,
    Trigger,
)
from cardzones.kernel.effects import END_OF_TURN, Effect, EffectRef
from cardzones.kernel.events import Event, Snapshot
from cardzones.kernel.game import Game
from cardzones.kernel.legal import LegalAction, candidate_actions, legal_actions
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
from cardzones.kernel.results import MoveResult
from cardzones.kernel.ruleset import ADMITTED, BLANK_CARD, Admission, Ruleset
from cardzones.kernel.seats import (
    actable_cards,
    acts_on,
    may_name,
    nameable_cards,
    owns_zone,
    seat_refusal,
)
from cardzones.kernel.standard import (
    BY,
    END_TURN,
    FLIP,
    GRANT,
    SHUFFLE,
    UNTIL,
    Mover,
    draw_action,
    kernel_move,
    modify_action,
    move_action,
)
from cardzones.kernel.zones import ZoneInfo, ZoneSpec

__all__ = [
    "ACTIVATED",
    "ADMITTED",
    "BLANK_CARD",
    "BY",
    "CARD",
    "END_OF_TURN",
    "END_TURN",
    "FLIP",
    "GRANT",
    "MACRO",
    "NO_CARD",
    "PLACED",
    "SHUFFLE",
    "TOP",
    "TRIGGERED",
    "UNDER",
    "UNTIL",
    "Ability",
    "Action",
    "ActionResult",
    "ActionTable",
    "Admission",
    "ArgumentError",
    "BoundAction",
    "CardDef",
    "CardzonesError",
    "Dest",
    "Effect",
    "EffectRef",
    "Event",
    "Face",
    "Game",
    "HistoryCondition",
    "IllegalAction",
    "LegalAction",
    "MoveResult",
    "Mover",
    "NeedsChoice",
    "Obj",
    "ObjRef",
    "OneOf",
    "Origin",
    "Param",
    "ParamKind",
    "PlayFrom",
    "Position",
    "Records",
    "Replacement",
    "Resolver",
    "Role",
    "Ruleset",
    "Snapshot",
    "Trigger",
    "UnknownReference",
    "ZoneInfo",
    "ZoneSpec",
    "actable_cards",
    "acting",
    "action_table",
    "acts_on",
    "bind",
    "bind_fields",
    "candidate_actions",
    "complete",
    "draw_action",
    "kernel_move",
    "legal_actions",
    "may_name",
    "modify_action",
    "move_action",
    "name_for",
    "nameable_cards",
    "owns_zone",
    "seat_refusal",
]
