"""A rescue: a Lost Soul goes from an opponent's Land of Bondage to the
rescuing player's Land of Redemption, and the first player with the winning
number of Redeemed Souls wins at once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardzones.kernel.cards import Dest
from cardzones.rulesets.redemption.cards import is_lost_soul
from cardzones.rulesets.redemption.procedure.state import put, running
from cardzones.rulesets.redemption.zones import LAND_OF_BONDAGE

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The zone of Redeemed Souls.
LAND_OF_REDEMPTION = "land_of_redemption"
#: The event of a rescue and of the end of the game in the log.
RESCUE_EVENT = "rescue"


def rescuable(game: Game, card: int, by: str) -> bool:
    """Whether ``card`` is a Lost Soul that ``by`` may rescue: a top-level
    card of an opponent's Land of Bondage (rescue/land-of-redemption: a rescue
    targets a card there), any other player's (opponent/any-other-player)."""
    info = game.zone_info(game.location(card))
    return (
        info.type == LAND_OF_BONDAGE
        and info.owner not in (None, by)
        and game.host(card) is None
        and is_lost_soul(game.characteristics(card, by=by))
    )


def redeemed(game: Game, player: str) -> int:
    """How many Redeemed Souls ``player`` has: the Lost Souls in their Land of
    Redemption (rescue/winning-number counts these)."""
    zone = game.zone(player, LAND_OF_REDEMPTION)
    if zone is None:
        return 0
    return sum(1 for c in game.contents(zone) if is_lost_soul(game.obj(c).cdef))


def rescue_soul(game: Game, card: int, by: str) -> None:
    """``by`` rescues the Lost Soul ``card`` into their Land of Redemption
    (rescue/land-of-redemption); the rescue is counted, and a player who now
    has the winning number of Redeemed Souls wins: the game ends at once
    (rescue/winning-number). One step of the caller's action."""
    name = game.obj(card).cdef.name
    game.move(card, Dest(LAND_OF_REDEMPTION, by), cause="rule", by=by)
    state = running(game)
    counts = tuple((p, n + (p == by)) for p, n in state.rescued)
    game.log_event(RESCUE_EVENT, f"{by} rescues {name} into their Land of Redemption", by=by)
    winner = by if redeemed(game, by) >= state.souls_to_win else None
    put(game, state._replace(rescued=counts, winner=winner))
    if winner is not None:
        game.log_event(
            RESCUE_EVENT,
            f"{by} has {redeemed(game, by)} Redeemed Souls and wins the game",
            by=by,
        )
