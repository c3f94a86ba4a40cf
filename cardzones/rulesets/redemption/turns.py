"""The phases of a Redemption turn: draw, upkeep, preparation, battle, discard.

The phase is ``game.phase`` (the journaled ``phase`` variable). It only moves
forward within a turn, through every phase in between, and each phase does
what happens in it: the upkeep counts set-aside durations, and the start of
the preparation phase returns the cards whose duration was reached
(set-aside/duration-turn-based).

>>> from cardzones import new_game
>>> game = new_game("redemption")
>>> advance_to(game, "preparation").value, game.phase
('done', 'preparation')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardzones.errors import IllegalAction
from cardzones.kernel.events import PHASE
from cardzones.kernel.results import MoveResult
from cardzones.rulesets.redemption.set_aside import count_upkeep, live_records, return_due

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

PHASES = ("draw", "upkeep", "preparation", "battle", "discard")
#: How many cards the turn player draws in their draw phase.
DRAW_PHASE_CARDS = 3


def start_turn(game: Game) -> MoveResult:
    """The start of the turn as one action: in the draw phase the turn player
    draws three cards (as many as their deck holds, when fewer), then the
    turn moves through the upkeep (where set-aside durations are counted) to
    the preparation phase, where set-aside cards whose time has come return.
    Refused once the turn has left its draw phase."""
    player = game.turn_player
    if _index(game) != 0:
        raise IllegalAction(
            f"{player}'s turn has started already: it is the {game.phase} phase, and "
            "the start of a turn is its draw phase"
        )
    deck, hand = game.zone(player, "deck"), game.zone(player, "hand")
    with game.atomic():
        if deck is not None and hand is not None:
            for card in game.contents(deck)[:DRAW_PHASE_CARDS]:
                game.move(card, hand, by=player)
        advance_to(game, "preparation")
    return MoveResult.DONE


def advance_to(game: Game, phase: str) -> MoveResult:
    """Move the turn forward to ``phase``, through the phases in between. Going
    back is refused; naming the current phase changes nothing."""
    if phase not in PHASES:
        raise IllegalAction(f"there is no {phase!r} phase; the phases are {', '.join(PHASES)}")
    here = _index(game)
    there = PHASES.index(phase)
    if there < here:
        raise IllegalAction(
            f"cannot go back to the {phase} phase: it is {game.turn_player}'s "
            f"{PHASES[here]} phase, and a turn's phases only move forward "
            f"({', '.join(PHASES)})"
        )
    with game.atomic():
        for i in range(here + 1, there + 1):
            enter(game, PHASES[i])
    return MoveResult.DONE


def finish_turn(game: Game) -> None:
    """Run the phases the turn has not reached yet, so that no turn skips its
    upkeep or its preparation phase. Part of ending the turn."""
    for i in range(_index(game) + 1, len(PHASES)):
        enter(game, PHASES[i])


def foresee_finish_turn(game: Game) -> MoveResult | None:
    """What ending the turn gives, judged (:func:`finish_turn`, then the next
    turn begins): done, as entering a phase only begins it and the upkeep
    only counts, unless the preparation phase is still to begin and cards
    set aside by the turn player reach their duration by then
    (set-aside/duration-turn-based): their return only entering it tells."""
    here = _index(game)
    if here >= PHASES.index("preparation"):
        return MoveResult.DONE
    counts = here < PHASES.index("upkeep")
    for rec in live_records(game):
        if rec.duration is None or rec.by != game.turn_player:
            continue
        if rec.counted + (counts and game.turn > rec.start_turn) >= rec.duration:
            return None  # set-aside/duration-returns
    return MoveResult.DONE


def enter(game: Game, phase: str) -> None:
    """Begin a phase and do what happens at its start."""
    game.set_phase(phase)
    game.log_event(PHASE, f"{game.turn_player}'s {phase} phase")
    if phase == "upkeep":
        count_upkeep(game)
    elif phase == "preparation":
        return_due(game)


def _index(game: Game) -> int:
    current = game.phase
    return PHASES.index(current) if current in PHASES else 0
