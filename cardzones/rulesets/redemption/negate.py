"""Negating an effect (``negate``): its ongoing ability ends, and the placed
cards it took away from where they were placed go back there
(place/return-conditions)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardzones.errors import IllegalAction
from cardzones.kernel.effects import EffectRef
from cardzones.kernel.results import MoveResult
from cardzones.rulesets.redemption import records
from cardzones.rulesets.redemption.held import set_aside_holds
from cardzones.rulesets.redemption.place import place_holds, put_back
from cardzones.rulesets.redemption.records import (
    MOVE,
    PLACE,
    SET_ASIDE,
    EffectHandle,
    MoveRecord,
    PlaceRecord,
    SetAsideRecord,
)
from cardzones.rulesets.redemption.set_aside import negate_set_aside

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def negate(game: Game, handle: Any, *, by: str | None = None) -> MoveResult:
    """Negate the effect ``handle`` names, as one action.

    - a place ability: its paired ongoing ability ends for good; placed cards it
      took from another placement go back there; the cards it placed stay, since
      the place itself was instantaneous (place/instantaneous);
    - a set-aside ability: see :func:`~.set_aside.negate_set_aside`;
    - a labelled move or discard: the placed card it relocated returns to where
      it was placed, if it is still where the move put it;
    - a kernel effect (``modify``, ``grant``, an :class:`EffectRef`): it ends.

    Negating an effect twice changes nothing the second time.
    """
    player = by or game.turn_player
    with game.atomic():
        if isinstance(handle, EffectHandle):
            rec = records.get(game, handle.kind, handle.rid)
            if rec is None:
                raise IllegalAction(f"there is no effect {handle}")
            if handle.kind == PLACE:
                _negate_place(game, rec, player)
            elif handle.kind == SET_ASIDE:
                negate_set_aside(game, rec, player)
            elif handle.kind == MOVE:
                _negate_move(game, rec, player)
        elif isinstance(handle, EffectRef):
            game.end_effect(handle.eid)
        else:
            raise IllegalAction(
                "only a place, set-aside, move, discard, modify or grant effect can be negated"
            )
    return MoveResult.DONE


def _negate_place(game: Game, rec: PlaceRecord, by: str) -> None:
    if rec.negated:
        return
    if rec.eid is not None:
        game.end_effect(rec.eid)
    records.put(game, PLACE, rec.rid, rec._replace(negated=True))
    for entry in rec.relocated:
        put_back(game, entry, by)


def _negate_move(game: Game, rec: MoveRecord, by: str) -> None:
    if rec.negated:
        return
    records.put(game, MOVE, rec.rid, rec._replace(negated=True))
    for entry in rec.relocated:
        put_back(game, entry, by)


def label_active(game: Game, handle: EffectHandle) -> bool:
    """Whether the effect a handle names is active now."""
    rec = records.get(game, handle.kind, handle.rid)
    if rec is None:
        return False
    if handle.kind == PLACE:
        assert isinstance(rec, PlaceRecord)
        return place_holds(game, rec)
    if handle.kind == SET_ASIDE:
        assert isinstance(rec, SetAsideRecord)
        return set_aside_holds(game, rec)
    return not rec.negated
