"""Moves with fab's own destination: the hero's soul (3.11.5), where a card
goes under its owner's hero as a sub-card (3.0.14), the kernel's pipeline
moving it there as one of the rule set's piles (:meth:`Game.move`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardzones.errors import IllegalAction
from cardzones.kernel.objects import CARD, UNDER
from cardzones.kernel.results import MoveResult

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def hero_of(game: Game, player: str) -> int:
    """The hero card of a player (3.11.3)."""
    zid = game.zone(player, "hero")
    cards = game.contents(zid) if zid is not None else ()
    if not cards:
        raise IllegalAction(f"{player} has no hero, so there is no soul", rule="3.11.5")
    return cards[0]


def foresee_sub_card(
    game: Game, card: int, top: int, tops: dict[int, str | None] | None = None
) -> MoveResult:
    """What :func:`make_sub_card` would give, without making it: refused as
    it would be (3.0.14), or the result. ``tops`` keeps, top-card by
    top-card, why a card cannot go under it (None: it can), while the game
    stays as it is."""
    _check_sub_card(game, card, top, tops)
    return MoveResult.NO_MOVE if game.obj(card).host == top else MoveResult.MOVED


def _check_sub_card(
    game: Game, card: int, top: int, tops: dict[int, str | None] | None = None
) -> None:
    if card == top:
        raise IllegalAction("a card cannot be put under itself", rule="3.0.14")
    if tops is None:
        why = _top_refusal(game, top)
    else:
        why = tops[top] if top in tops else tops.setdefault(top, _top_refusal(game, top))
    if why is not None:
        raise IllegalAction(why, rule="3.0.14")
    if game.obj(card).kind != CARD:
        raise IllegalAction("only a card can become a sub-card", rule="3.0.14")


def _top_refusal(game: Game, top: int) -> str | None:
    """Why no card can go under ``top`` (3.0.14), or None."""
    top_obj = game.obj(top)
    if top_obj.rel == UNDER:
        return "a sub-card cannot have sub-cards of its own; put it under its top-card"
    if not (game.is_permanent(top) or game.zone_info(top_obj.zone).type == "stack"):
        return "a card can only be put under a permanent or a card on the stack"
    return None


def make_sub_card(game: Game, card: int, top: int, by: str) -> MoveResult:
    _check_sub_card(game, card, top)
    if game.obj(card).host == top:
        return MoveResult.NO_MOVE
    # 3.0.14b-d: a new object with its top-card's visibility, bringing its own sub-cards.
    return game.attach(card, top, UNDER, position="bottom", by=by)
