"""Changes to a life total that the game procedure makes itself: the damage
an attack deals to the defending hero (7.5.2a) and the life a card's effect
gains (8.5.7a).

They are made by the rule set's ``life`` action, the one rule that changes a
life total (the effect that holds it, its duration, the refusals, the log
line), with the arguments the procedure made: card ids and numbers already,
which need none of the binding a player's or a scenario's arguments go
through by name (:meth:`Game.act <cardzones.kernel.game.Game.act>`). A hit
is one such change, every attack that hits makes one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardzones.acts.candidate_shapes import prepared
from cardzones.rulesets.base import ruleset_of

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The name of the action that changes a life total in fab's table.
LIFE_ACTION = "life"


def deal_damage(game: Game, card: int, amount: int, by: str | None) -> None:
    """``card``, a public card with a life total, is dealt ``amount`` damage
    by ``by``'s attack (7.5.2a), as the ``life`` action deals it."""
    _change(game, card, "damage", amount, by)


def gain_life(game: Game, card: int, amount: int, by: str | None) -> None:
    """``card``, a public card with a life total, gains ``amount`` life for
    ``by`` (8.5.7a), as the ``life`` action gains it."""
    _change(game, card, "gain", amount, by)


def _change(game: Game, card: int, kind: str, amount: int, by: str | None) -> None:
    action = ruleset_of(game).actions[LIFE_ACTION]
    args = dict(prepared(action)[0])
    args["card"] = card
    args[kind] = amount
    args["by"] = by
    # The arguments every parameter at its default but these, as binding
    # would give them; the action's run refuses what the rules refuse.
    action.run(game, args)
