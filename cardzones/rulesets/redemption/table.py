"""The Redemption action table: the shared actions, with Redemption's own move
(remembered, so that negating it puts a placed card back), and place,
set_aside, return, negate, dominant, discard, phase and end_battle.

Of these only the shared ``grant`` is a judge's action (``Action.judge``):
placing, setting aside, returning and negating are what the cards'
abilities do as the game is played, and the rest are a player's moves and
the turn's. Nothing is left out of what a player is offered by timing
(``Action.offer``): the rules texts give Redemption's abilities no timing
the engine keeps.

The game procedure's acts (open_game, proceed, to_territory, rescue, block,
enhance, pass, discard_down, play_dominant) are in the table too: while the
procedure runs they are what legal actions offer a player, and outside it
they are refused (:mod:`cardzones.rulesets.redemption.procedure.acts`).

>>> sorted(ACTIONS)[:5]
['block', 'counter', 'discard', 'discard_down', 'dominant']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardzones.acts.actions import (
    Action,
    ActionResult,
    OneOf,
    Param,
    ParamKind,
    Role,
    acting,
    action_table,
)
from cardzones.acts.standard import BY, foresee_kernel_move, move_action
from cardzones.kernel.cards import Dest, Move
from cardzones.kernel.results import MoveResult
from cardzones.rulesets.common import shared_actions
from cardzones.rulesets.redemption import candidates as cand
from cardzones.rulesets.redemption.cards import NUMBERS
from cardzones.rulesets.redemption.moves import discard, relocate
from cardzones.rulesets.redemption.negate import negate
from cardzones.rulesets.redemption.place import place
from cardzones.rulesets.redemption.procedure.acts import PROCEDURE_ACTIONS, drawing_lost_souls
from cardzones.rulesets.redemption.records import Ongoing
from cardzones.rulesets.redemption.set_aside import (
    end_battle,
    play_dominant,
    return_cards,
    set_aside,
)
from cardzones.rulesets.redemption.turns import (
    PHASES,
    advance_to,
    foresee_finish_turn,
    start_turn,
)
from cardzones.rulesets.redemption.zones import DISCARD

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

K = ParamKind

#: The ongoing bonus paired with a place or set-aside ability.
ONGOING = Param(
    "ongoing",
    K.MAPPING,
    fields=(
        Param("card", K.CARD, required=True, role=Role.TARGET, doc="the card that gets the bonus"),
        Param("strength", K.DELTA, doc="added to its strength"),
        Param("toughness", K.DELTA, doc="added to its toughness"),
    ),
    one_of=(OneOf(("strength", "toughness")),),
    doc="the paired ongoing bonus, active while the ability's condition holds",
)
CARDS = Param("cards", K.CARDS, required=True, doc="the cards")


def _ongoing(value: Mapping[str, Any] | None) -> Ongoing | None:
    if value is None:
        return None
    mods = tuple((k, value[k]) for k in ("strength", "toughness") if value[k] is not None)
    return Ongoing(value["card"], mods)


def _move(game: Game, move: Move) -> ActionResult:
    # Remembered, so that negating the move puts a placed card back where it
    # was placed (place/return-conditions).
    result, handle = relocate(game, move, remember=True)
    return ActionResult(result, effect=handle)


MOVE = move_action(
    _move,
    doc="Move a card: the one general move. Cards placed on it go along; as: names the "
    "move, and negating it puts a placed card back where it was placed.",
    rules=("place/movement-follows-underlying", "place/return-conditions"),
    foresee=foresee_kernel_move,
)


def _place(game: Game, args: Mapping[str, Any]) -> ActionResult:
    result, handle = place(
        game,
        args["cards"],
        by=acting(game, args),
        onto=args["onto"],
        into=args["in"],
        position=args["position"],
        source=args["source"],
        order=args["order"],
        ongoing=_ongoing(args["ongoing"]),
        colon=args["colon"],
    )
    return ActionResult(result, effect=handle)


def _set_aside(game: Game, args: Mapping[str, Any]) -> ActionResult:
    result, handle = set_aside(
        game,
        args["cards"],
        by=acting(game, args),
        source=args["source"],
        played_on=args["played_on"],
        duration=args["duration"],
        ongoing=_ongoing(args["ongoing"]),
        area=args["area"],
        in_battle=args["in_battle"],
    )
    return ActionResult(result, effect=handle)


def _return(game: Game, args: Mapping[str, Any]) -> ActionResult:
    cause = "effect" if args["cause"] == "effect" else "own"
    return ActionResult(return_cards(game, args["cards"], by=acting(game, args), cause=cause))


def _negate(game: Game, args: Mapping[str, Any]) -> ActionResult:
    return ActionResult(negate(game, args["effect"], by=acting(game, args)))


def _dominant(game: Game, args: Mapping[str, Any]) -> ActionResult:
    return ActionResult(play_dominant(game, args["card"], args["target"], by=args["by"]))


def _discard(game: Game, args: Mapping[str, Any]) -> ActionResult:
    result, handle = discard(game, args["card"], by=acting(game, args), remember=True)
    return ActionResult(result, effect=handle)


def _foresee_discard(game: Game, args: Mapping[str, Any]) -> MoveResult | None:
    """What the discard's move would give (:func:`discard` moves the card to its
    owner's discard pile)."""
    return game.foresee_move(args["card"], Dest(DISCARD, "owner"), by=acting(game, args))


def _phase(game: Game, args: Mapping[str, Any]) -> ActionResult:
    return ActionResult(advance_to(game, args["phase"]))


def _start_turn(game: Game, args: Mapping[str, Any]) -> ActionResult:
    return ActionResult(start_turn(game))


def _end_battle(game: Game, args: Mapping[str, Any]) -> ActionResult:
    with game.atomic():
        done = end_battle(game)
        # Every viewer reads that the battle ended, as every player saw it end.
        game.log_event("battle", "the battle ends", by=args.get("by"))
    return ActionResult(done)


REDEMPTION_ACTIONS = (
    Action(
        "place",
        (
            CARDS,
            Param("onto", K.CARD, role=Role.TARGET, doc="the card they are placed on"),
            Param("in", K.DEST, doc="the zone they are placed in"),
            Param("position", K.POSITION, default="top", doc="where in an ordered location"),
            BY,
            Param("source", K.CARD, doc="the card whose ability it is"),
            Param("order", K.CARDS, doc="the placed cards as they will lie, top first"),
            ONGOING,
            Param("colon", K.BOOL, default=False, doc="the effect lasts while the source stays"),
        ),
        _place,
        doc="Place cards onto a card or in a zone; as: names the effect.",
        rules=("place/definition", "place/default-targets-in-play", "place/order-choice"),
        one_of=(OneOf(("onto", "in"), exactly=True),),
        candidates=cand.place,
    ),
    Action(
        "set_aside",
        (
            Param(
                "cards",
                K.CARDS,
                required=True,
                role=Role.TARGET,
                doc="the cards, anyone's where the rules allow",
            ),
            BY,
            Param(
                "source",
                K.CARD,
                card_types=("enhancement",),
                doc="the card whose ability it is (an enhancement joins)",
            ),
            Param(
                "played_on",
                K.CARD,
                role=Role.TARGET,
                doc="the character the enhancement is played on",
            ),
            Param("duration", K.INT, doc="a number of the setter's turns"),
            ONGOING,
            Param("area", K.ZONE, doc="the set-aside area the enhancement joins"),
            Param("in_battle", K.BOOL, default=False, doc="the enhancement is played in battle"),
        ),
        _set_aside,
        doc="Set cards aside; as: names the effect.",
        rules=("set-aside/definition", "set-aside/area-permanent-controller"),
        candidates=cand.set_aside,
    ),
    Action(
        "return",
        (
            CARDS,
            BY,
            Param(
                "cause",
                K.CHOICE,
                options=("effect",),
                doc="effect: an effect returns them; without it, their controller does",
            ),
        ),
        _return,
        doc="Return set-aside cards to their permanent controller's territory.",
        rules=("set-aside/return-to-territory", "set-aside/own-return-preparation"),
        candidates=cand.return_,
    ),
    Action(
        "negate",
        (Param("effect", K.EFFECT, required=True, doc="the label of the effect"), BY),
        _negate,
        doc="Negate an effect: its ongoing ability ends; cards it relocated return.",
        rules=("place/return-conditions", "set-aside/no-negate-after-return"),
        candidates=cand.negate,
    ),
    Action(
        "dominant",
        (
            Param("card", K.CARD, required=True, doc="the dominant, in its player's hand"),
            Param("target", K.CARD, required=True, role=Role.TARGET, doc="the set-aside card"),
            Param("by", K.PLAYER, doc="the player who plays it (default: its owner)"),
        ),
        _dominant,
        doc="Play a dominant from hand on a set-aside card.",
        rules=("set-aside/dominant-discards", "set-aside/dominant-enhancement-discarded"),
        candidates=cand.dominant,
    ),
    Action(
        "discard",
        (Param("card", K.CARD, required=True, doc="the card"), BY),
        _discard,
        doc="Move a card to its owner's discard pile; as: names the move.",
        candidates=cand.discard,
        foresee=_foresee_discard,
    ),
    Action(
        "phase",
        (
            Param("phase", K.CHOICE, required=True, options=PHASES, doc="the phase to go to"),
            BY,
        ),
        _phase,
        doc="Move the turn forward to a phase, through the phases in between.",
        rules=("set-aside/duration-turn-based",),
        actor=None,
        bare="phase",
        turn_player=True,
        candidates=cand.phase,
    ),
    Action(
        "start_turn",
        (BY,),
        _start_turn,
        doc="Start the turn: in the draw phase the turn player draws three cards, then "
        "the turn moves through the upkeep to the preparation phase.",
        rules=("set-aside/duration-turn-based",),
        actor=None,
        turn_player=True,
        candidates=cand.start_turn,
    ),
    Action(
        "end_battle",
        (BY,),
        _end_battle,
        doc="End the battle: set-aside enhancements played in it join their cards.",
        rules=("set-aside/enhancement-in-battle-joins-at-end",),
        actor=None,
        turn_player=True,
        candidates=cand.end_battle,
    ),
)


def _foresee_end_turn(game: Game, args: Mapping[str, Any]) -> MoveResult | None:
    return foresee_finish_turn(game)


#: The Redemption action table.
_SHARED = shared_actions(MOVE, numbers=NUMBERS, end_turn=_foresee_end_turn)
ACTIONS = action_table(
    *_SHARED,
    *REDEMPTION_ACTIONS,
    *PROCEDURE_ACTIONS,
    # Under the procedure a Lost Soul drawn by any draw goes to the Land of Bondage.
    *(drawing_lost_souls(a) for a in _SHARED if a.name == "draw"),
)
