"""What ending the turn would give, judged without ending it, so that legal
actions list ``end_turn`` and ``finish_turn`` without trying them.

Each move the end of the turn makes is judged as the move is
(:meth:`Game.foresee_move`), on the game as it is: the moves go to zones
whose admission does not read what they hold (a graveyard, the permanent
zone, a deck, a hand, 3.7.2, 3.8.2, 3.9.2, 3.13.2), so one move does not
change what the next one gives. A refusal or a choice of zone is raised as
the move raises it (the turn's actions take no choice of zone, so either
leaves them out); where a move cannot be told, neither can the turn.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "pitch"))
>>> foresee_end_turn(game).value
'done'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardzones.kernel.results import MoveResult
from cardzones.rulesets.fab.pitch import pitch_destination, pitch_move
from cardzones.rulesets.fab.turn import (
    arsenal_move,
    check_arsenal,
    closing_move,
    combat_chain,
    draw_limits,
    draw_move,
    drawers,
    no_arsenal,
)

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

_DONE = MoveResult.DONE


def foresee_end_turn(game: Game) -> MoveResult | None:
    """The end-of-turn procedure (:meth:`FabRuleset.end_turn`, 4.4.3c), then
    the next turn: done, unless a card of a pitch zone cannot be told to go
    to the bottom of its owner's deck. The order the cards take there
    changes nothing of that, so it is not read."""
    return _DONE if _pitch_goes(game) else None


def foresee_finish_turn(game: Game, arsenal: int | None) -> MoveResult | None:
    """:func:`~cardzones.rulesets.fab.turn.finish_turn`, step by step: the
    combat chain closes, the card for the arsenal goes there (4.4.3b, refused
    as it would be), the pitch goes to the bottom of the decks (4.4.3c), and
    the hand is filled up to the hero's intellect (4.4.3f); done, or None
    where one of them cannot be told."""
    player = game.turn_player
    if not _chain_closes(game, player):
        return None
    if arsenal is not None:
        check_arsenal(game, arsenal, player)
        moved = game.foresee_move(arsenal_move(arsenal, player))
        if moved is None:
            return None
        if moved is not MoveResult.MOVED:
            raise no_arsenal(player)
    if not _pitch_goes(game):
        return None
    for drawer in drawers(game, player):
        if not _draws_go(game, drawer, arsenal):
            return None
    return _DONE


def _chain_closes(game: Game, by: str) -> bool:
    """Whether each object of the combat chain can be told to go where
    closing the chain sends it (:func:`close_combat_chain`): ceasing, to the
    permanent zone or to its owner's graveyard. One with replacement effects
    may go where the next one's admission reads it (an arsenal, 3.3.2a), and
    one that ceases clears the cards under it (3.0.14e): only closing tells."""
    for card in game.contents(combat_chain(game)):
        obj = game.obj(card)
        if obj.cdef.replacements:
            return False
        move = closing_move(game, obj, by)
        if move is None:
            if game.kids(card):
                return False  # cleared as it ceases (3.0.14e)
            continue  # it ceases (1.4.3c)
        if game.foresee_move(move) is None:
            return False
    return True


def _pitch_goes(game: Game) -> bool:
    """Whether each card of each pitch zone can be told to go to the bottom
    of its owner's deck, face down, as a rule (4.4.3c)."""
    for player in game.players:
        found = pitch_destination(game, player)
        if found is None:
            continue
        pitch, target = found
        for card in game.contents(pitch):
            if game.obj(card).cdef.replacements:
                return False  # it may go where another's move reads it, or on top (3.0.8a)
            if game.foresee_move(pitch_move(card, target, player)) is None:
                return False
    return True


def _draws_go(game: Game, player: str, arsenal: int | None) -> bool:
    """Whether the draws up to the hero's intellect (4.4.3f) can be told:
    each card they take from the top of the deck goes to the hand, which
    the card for the ``arsenal`` has left. Draws that would reach the cards
    the pitch puts at the bottom of the deck are not told."""
    limits = draw_limits(game, player)
    if limits is None:
        return True  # nothing is drawn
    intellect, hand, deck = limits
    wanted = intellect - sum(1 for card in game.contents(hand) if card != arsenal)
    if wanted <= 0:
        return True
    cards = game.contents(deck)
    if wanted > len(cards):
        pitch = game.zone(player, "pitch")
        if pitch is not None and game.contents(pitch):
            return False
    for card in cards[:wanted]:
        if game.obj(card).cdef.replacements:
            return False
        if game.foresee_move(draw_move(card, player)) is not MoveResult.MOVED:
            return False
    return True
