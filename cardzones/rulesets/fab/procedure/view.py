"""What every player sees of the procedure (a view's ``procedure``): the
phase and step, who has priority and whom the game waits for, each player's
action and resource points, the chain links, the players who lost and left
the game, and the result.

None of it is hidden (1.13 assets and 7.0.3 chain links are public, as are
the cards on the combat chain), but a link names its cards by the handles
the views give them, and only while they are public: a card that left the
chain for a hidden zone is named by nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardzones.kernel.views import handle_for
from cardzones.rulesets.fab.chain import Link
from cardzones.rulesets.fab.procedure.flow import who_acts
from cardzones.rulesets.fab.procedure.state import current, points

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def procedure_view(game: Game, player: str | None) -> dict[str, Any] | None:
    """The procedure as ``player`` (None: a spectator) sees it, JSON-ready;
    None for a game not under the procedure."""
    proc = current(game)
    if proc is None:
        return None
    result: dict[str, Any] | None = None
    if proc.over:
        result = {"winner": proc.winner, "losers": list(proc.losers), "reason": proc.reason}
    return {
        "first_player": proc.first,
        "phase": proc.phase,
        "step": proc.step,
        "priority": proc.priority,
        "waiting_for": who_acts(game, proc),
        "action_points": {p: points(game, proc.action_points, p) for p in game.players},
        "resource_points": {p: points(game, proc.resource_points, p) for p in game.players},
        "links": [_link(game, player, i, link) for i, link in enumerate(proc.links, 1)],
        # the players who lost, in order: while the game goes on, those who
        # left it (4.5.1a) and whom turns, priority and attacks pass over
        "out": list(proc.losers),
        # each attack on the stack with the player whose hero it targets,
        # declared as it was played (1.4.5), numbered as the board lists them
        "targets": [
            {"number": i, "attack": _card(game, player, attack), "target": target}
            for i, (attack, target) in enumerate(
                ((a, t) for a, t in proc.targets if game.exists(a)), 1
            )
        ],
        "result": result,
        # the winner alone, as every game procedure's view names it: a table
        # tells every seat (its ``won``)
        "winner": proc.winner if proc.over else None,
    }


def _card(game: Game, player: str | None, card: int | None) -> str | None:
    # A card of a link is public while it is on the combat chain; once it is
    # not (a judge moved it to a hand), no one is told which it was.
    if card is None or not game.exists(card) or not game.obj(card).public:
        return None
    # the handle the viewer's view gives the card, which for a public card
    # that moved is not its object's own (Game.handle)
    return handle_for(game, player, card)


def _link(game: Game, player: str | None, number: int, link: Link) -> dict[str, Any]:
    defending = [_card(game, player, c) for c in link.defending_cards]
    return {
        "number": number,
        "attack": _card(game, player, link.card),
        "source": _card(game, player, link.source_card),
        "attacker": link.attacker,
        "defender": link.defender,
        "defending": [h for h in defending if h is not None],
        "damage": link.damage,
        "hit": link.hit,
        "resolved": link.resolved,
    }
