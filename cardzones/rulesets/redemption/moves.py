"""Moves that can be negated later: the general move and the discard, when an
effect label names them (place/return-conditions: a placed card comes back when
"the original effect that relocated it is negated")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardzones.kernel.cards import Dest, Position
from cardzones.kernel.game import MoveResult
from cardzones.rulesets.redemption import records
from cardzones.rulesets.redemption.place import current_placement
from cardzones.rulesets.redemption.records import MOVE, EffectHandle, MoveRecord, Relocated
from cardzones.rulesets.redemption.zones import DISCARD

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def relocate(
    game: Game,
    card: int,
    dest: Dest | int,
    by: str,
    *,
    position: Position = "top",
    face: str | None = None,
    cause: str = "effect",
    choose_zone: int | None = None,
    label: str | None = None,
) -> tuple[MoveResult, EffectHandle | None]:
    """The kernel move, remembering where the card was placed, if it was, so
    that negating the move puts it back there. Without ``label`` nothing is
    remembered and the handle is None. The caller makes it one action."""
    before = current_placement(game, card) if label is not None else None
    result = game._move(card, dest, position, face, cause, by, choose_zone)
    if label is None:
        return result, None
    relocated: tuple[Relocated, ...] = ()
    if before is not None and game.exists(card) and result is MoveResult.MOVED:
        obj = game.obj(card)
        relocated = (Relocated(card, before, obj.zone, obj.host),)
    rid = records.new_id(game)
    records.put(game, MOVE, rid, MoveRecord(rid, relocated))
    return result, EffectHandle(MOVE, rid)


def discard(
    game: Game, card: int, *, by: str | None = None, label: str | None = None
) -> tuple[MoveResult, EffectHandle | None]:
    """Move a card to its owner's discard pile, as one action."""
    with game.atomic():
        return relocate(game, card, Dest(DISCARD, "owner"), by or game.turn_player, label=label)
