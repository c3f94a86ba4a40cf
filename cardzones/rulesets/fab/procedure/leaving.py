"""A player who loses while the game goes on leaves it (4.5.1a): every
object they control is cleared, then every object they own is removed from
the game, and the player and their hero cease to exist for the rest of the
game. The others play on without them:

- turns, priority and attacks pass them over (:func:`~.state.next_player`,
  :func:`~.state.opponents`);
- when the turn player leaves, their turn ends and the next player in
  clockwise order takes the next one (4.4.4);
- when the player with priority leaves, the next player in clockwise order
  gains it, and the passing in succession starts anew (1.11.4a);
- when the defending player leaves before declaring, no defending card is
  declared and the turn player gains priority (7.3.3); an attack whose
  target left closes the combat chain when it would become a link (7.2.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardzones.rulesets.fab.procedure import combat
from cardzones.rulesets.fab.procedure.state import (
    DEFEND,
    Procedure,
    active_link,
    current,
    next_player,
    store,
)
from cardzones.rulesets.fab.turn import combat_chain

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def leave(game: Game, proc: Procedure, lost: tuple[str, ...]) -> None:
    """The players in ``lost`` leave the game, which goes on (4.5.1a)."""
    turn_player_left = game.turn_player in lost
    if turn_player_left and (proc.links or game.contents(combat_chain(game))):
        # Their turn ends: the combat chain closes first, so that an
        # equipment of another player that defended goes back to its zone
        # (7.7.5) rather than being cleared with the attack.
        proc = combat.close(game, proc)
    store(game, proc._replace(losers=(*proc.losers, *lost)))
    for player in lost:
        remove_objects(game, player)
    # A chain link whose attack was cleared is gone with it (7.7.2c).
    after = current(game)
    assert after is not None
    if turn_player_left:
        _turn_ends(game)
        return
    store(game, _priority_after(game, after, lost))


def remove_objects(game: Game, player: str) -> None:
    """4.5.1a: every object ``player`` controls is cleared (an object of
    another owner goes to its owner's graveyard), then every object they
    own is removed from the game, wherever it is."""
    for card in [c for c in game.cards() if game.obj(c).controller == player]:
        if game.exists(card) and game.obj(card).controller == player:
            game.clear(card, by=player)
    for card in [c for c in game.cards() if game.obj(c).owner == player]:
        if game.exists(card):
            game.cease(card, player, cause="rule")


def _turn_ends(game: Game) -> None:
    """The turn of a player who left ends: the pitch zones go to the bottom
    of the decks (4.4.3c), "this turn" effects end, and the next player in
    clockwise order still in the game takes the next turn (4.4.4), with its
    action point and priority (4.3.2, 4.3.3). Nobody draws for the player
    who left (4.4.3f is the turn player's draw)."""
    game.end_turn(())
    proc = current(game)  # the new turn's record
    assert proc is not None
    store(game, proc)


def _priority_after(game: Game, proc: Procedure, lost: tuple[str, ...]) -> Procedure:
    """Who acts once the players in ``lost`` left, the turn player staying."""
    link = active_link(proc)
    if proc.step == DEFEND and not proc.declared and link is not None and link.defender in lost:
        # 7.3.2: no one declares for a hero who ceased to exist; 7.3.3 the
        # turn player gains priority.
        return proc._replace(declared=True, priority=game.turn_player, passes=0)
    if proc.priority in lost:
        following = next_player(game, proc.priority, proc.losers)
        return proc._replace(priority=following, passes=0)  # 1.11.4a
    return proc
