"""Dominants under the game procedure: played by either player in any phase
(dominant/any-phase), on a target of the type their text names
(card-type/named-type). The procedure carries out the dominants whose text
discards or rescues a card ("Discard any Hero.", "Rescue any Lost Soul in
play."); any other dominant is played by hand (the judge's actions)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from cardzones.errors import IllegalAction
from cardzones.kernel.cards import Dest
from cardzones.kernel.naming import name_for
from cardzones.rulesets.redemption.cards import is_dominant
from cardzones.rulesets.redemption.procedure.rescue import RESCUE_EVENT, rescuable, rescue_soul
from cardzones.rulesets.redemption.procedure.targets import (
    check_named_type,
    dominant_effect,
    in_hand,
)
from cardzones.rulesets.redemption.procedure.turn import GAME_EVENT, opened
from cardzones.rulesets.redemption.zones import DISCARD

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


class DominantPlan(NamedTuple):
    card: int
    target: int
    by: str
    verb: str


def plan_dominant(game: Game, by: str, card: int, target: int) -> DominantPlan:
    opened(game)
    if not in_hand(game, card, by):
        raise IllegalAction(f"{by} plays a dominant from their own hand", rule="dominant/any-phase")
    cdef = game.characteristics(card, by=by)
    if not is_dominant(cdef):
        raise IllegalAction(
            f"{name_for(game, by, card)} is not a dominant", rule="dominant/any-phase"
        )
    effect = dominant_effect(cdef.text)
    if effect is None:
        raise IllegalAction(
            f"the procedure carries out a dominant whose text discards or rescues a card of a "
            f"type it names; {name_for(game, by, card)} is played by hand",
            rule="card-type/named-type",
        )
    verb, ctypes = effect
    if target == card or not game.in_play(target) or not game.may_look(by, target):
        raise IllegalAction(
            f"{name_for(game, by, card)} targets a card in play", rule="card-type/named-type"
        )
    check_named_type(game, by, card, target, ctypes)
    if verb == "rescue" and not rescuable(game, target, by):
        raise IllegalAction(
            f"{name_for(game, by, card)} rescues a Lost Soul in an opponent's Land of Bondage",
            rule="rescue/land-of-redemption",
        )
    return DominantPlan(card, target, by, verb)


def apply_dominant(game: Game, plan: DominantPlan) -> None:
    name, target = game.obj(plan.card).cdef.name, game.obj(plan.target).cdef.name
    game.move(plan.card, Dest(DISCARD, "owner"), cause="own", by=plan.by)
    if plan.verb == "rescue":
        game.log_event(RESCUE_EVENT, f"{plan.by} plays {name} on {target}", by=plan.by)
        rescue_soul(game, plan.target, plan.by)
        return
    game.move(plan.target, Dest(DISCARD, "owner"), cause="effect", by=plan.by)
    game.log_event(GAME_EVENT, f"{plan.by} plays {name}: {target} is discarded", by=plan.by)
