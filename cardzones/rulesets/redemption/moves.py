"""Moves that can be negated later: the general move and the discard, when an
effect label names them (place/return-conditions: a placed card comes back when
"the original effect that relocated it is negated")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardzones.kernel.cards import Dest, Move
from cardzones.kernel.results import MoveResult
from cardzones.rulesets.redemption import records
from cardzones.rulesets.redemption.place import current_placement, relocated_from
from cardzones.rulesets.redemption.records import MOVE, EffectHandle, MoveRecord, Relocated
from cardzones.rulesets.redemption.zones import DISCARD

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def relocate(
    game: Game, move: Move, *, remember: bool = False, label: str | None = None
) -> tuple[MoveResult, EffectHandle | None]:
    """The kernel move (:meth:`Game.move`), remembered as an effect that can
    be negated: negating it puts the card back where it was placed, if it was
    placed (place/return-conditions). With neither ``remember`` nor ``label``
    (the older spelling of ``remember``) nothing is remembered and the handle
    is None. One step of the caller's action."""
    remember = remember or label is not None
    card = move.card
    before = current_placement(game, card) if remember else None
    was = game.obj(card)
    result = game.move(move)
    if not remember:
        return result, None
    relocated: tuple[Relocated, ...] = ()
    if before is not None and game.exists(card) and result is MoveResult.MOVED:
        relocated = (relocated_from(game, card, was, before),)
    rid = records.new_id(game)
    records.put(game, MOVE, rid, MoveRecord(rid, relocated))
    return result, EffectHandle(MOVE, rid)


def discard(
    game: Game,
    card: int,
    *,
    by: str | None = None,
    remember: bool = False,
    label: str | None = None,
) -> tuple[MoveResult, EffectHandle | None]:
    """Move a card to its owner's discard pile, as one action; ``remember``
    as for :func:`relocate`."""
    with game.atomic():
        to = Dest(DISCARD, "owner")
        return relocate(game, Move(card, to, by=by), remember=remember, label=label)
