"""Whole games played by legal actions alone: at each step every player's
legal actions under the procedure are listed, one is chosen, and it is
applied, until a player wins or the step limit is reached. For tests and
tools that check the procedure end to end: every act a playout makes is one
legal actions offered, and every offered act must succeed when applied.

>>> import random
>>> from cardzones import new_game
>>> game = new_game("redemption", ["alice", "bob"])
>>> with game.atomic():
...     game.ruleset.start_procedure(game)
>>> play_out(game, random.Random(1).choice, limit=50).steps > 0
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from cardzones.rulesets.redemption.procedure.state import current

if TYPE_CHECKING:
    from cardzones.acts.legal_action import LegalAction
    from cardzones.kernel.game import Game

#: Chooses one of the legal actions offered (``random.Random(seed).choice``).
Chooser = Callable[[Sequence["LegalAction"]], "LegalAction"]


class Playout(NamedTuple):
    """How a playout ended: the winner (None when the limit came first), the
    number of acts made, and the turn the game reached."""

    winner: str | None
    steps: int
    turn: int


def offered(game: Game) -> list[LegalAction]:
    """Every player's legal actions now, the players in their order."""
    out: list[LegalAction] = []
    for player in game.players:
        out.extend(game.legal_actions(player))
    return out


def play_out(game: Game, choose: Chooser, limit: int = 5_000) -> Playout:
    """Play ``game`` (running the procedure) by legal actions alone, at most
    ``limit`` acts. An offered act that is refused when applied raises: it
    would be a legal action that is not one."""
    steps = 0
    while steps < limit:
        state = current(game)
        if state is None or state.winner is not None:
            break
        choices = offered(game)
        if not choices:
            break
        choose(choices).apply(game)
        steps += 1
    state = current(game)
    return Playout(state.winner if state is not None else None, steps, game.turn)
