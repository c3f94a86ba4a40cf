"""A legal action (:class:`LegalAction`): one action a player may take now,
as :func:`~cardzones.acts.legal.legal_actions` lists it, ready to apply and
named as the player names things.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from cardzones.acts.actions import Action, ParamKind
from cardzones.acts.binding import RESOLVED, bind, bind_written
from cardzones.acts.candidate_shapes import seat_checked
from cardzones.acts.named import Named, card_name
from cardzones.acts.seats import SeatPolicy
from cardzones.kernel.results import ActionResult, MoveResult

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


class LegalAction(NamedTuple):
    """One action a player may take now: the action of the rule set's table,
    its arguments bound for the engine (``bound``: card ids, zone ids,
    destinations, as ``Action.run`` takes them), the player, what it gives
    (None when it names a card the player may not look at) and the game it
    was listed on. Immutable; made by the thousand.

    ``args`` is what the player is shown: the same arguments with each card
    named as the player names it (:func:`~cardzones.acts.named.card_name`: the
    handle their view gives it, or ``ZONE[i]``), never by the engine's
    number for the physical card, which outlives objects (3.0.9) and so would
    tell the player which card is which after a shuffle or a stay in a hidden
    zone. ``bound`` is for the engine and the game's owner alone."""

    action: Action
    bound: Mapping[str, Any]
    player: str
    result: MoveResult | None
    game: Game

    @property
    def name(self) -> str:
        """The action's name, its step key."""
        return self.action.name

    @property
    def args(self) -> dict[str, Any]:
        """The arguments as the player names things in the game now: cards by
        :func:`~cardzones.acts.named.card_name`, any other value as bound."""
        game, player = self.game, self.player
        out = dict(self.bound)
        for param in self.action.params:
            value = out.get(param.name)
            if value is None:
                continue
            if param.kind is ParamKind.CARD:
                out[param.name] = card_name(game, player, value)
            elif param.kind is ParamKind.CARDS:
                out[param.name] = [card_name(game, player, c) for c in value]
        return out

    def apply(self, game: Game) -> ActionResult:
        """Take the action on ``game`` (this game, or a copy of it) as the
        player. Refused, it raises :class:`~cardzones.errors.IllegalAction`
        and changes nothing: the seat policy is checked again first, and the
        rules then decide, as the game is now."""
        action, player = self.action, self.player
        args = seat_checked(game, player, action, self.bound)
        if args is None:  # refused, or past the quick checks: the binder says why
            args = bind(action, self.bound, RESOLVED, seat=SeatPolicy(game, player))
        return action.run(game, args)

    def to_json(
        self, game: Game, labels: Mapping[str, Any] | None = None, writer: Named | None = None
    ) -> dict[str, Any]:
        """The action as one step of the step language, as the player names
        things in ``game`` now: a card by the handle the player's view gives
        it, or ``ZONE[i]`` (its place in the player's view of one of their own
        zones) when they may not look at it; zones and destinations by name.
        Parameters at their default are left out; the actor is written out.
        An effect is named by its label in ``labels`` (label -> the handle an
        action returned, as a scenario or a table keeps them).

        Raises :class:`~cardzones.errors.CardzonesError` when a value has no
        name here (an effect without a label).

        ``writer``, when given, writes it instead (a :class:`Named` of this
        game, player and labels): the actions of one listing share one, which
        names each card once.
        """
        if writer is None:
            writer = Named(game, self.player, labels or {})
        written = writer.plain(self.action, self.bound)
        if written is None:
            written = bind_written(self.action, self.bound, RESOLVED, writer)[1]
        return {self.name: written}

    def __repr__(self) -> str:
        shown = {k: v for k, v in self.args.items() if v is not None}
        result = f" -> {self.result.value}" if self.result is not None else ""
        return f"<LegalAction {self.name} {shown}{result}>"
