"""Which targets a set-aside ability still holds (set-aside/paired-ongoing).

The paired ongoing ability "lasts as long as all of the cards targeted by the
set-aside ability remain set aside". A card is the same card through every
public zone (see zones.py), so being the same object in a set-aside area is
not enough: a target that left the area and came back, face up all along,
is the same card but did not *remain* set aside, and the ability is over
for it for good (set-aside/premature-no-benefit). So a target is held while
it is the object it became there, is in a set-aside area, and has not moved
since the record last looked (the kernel's log tells, :meth:`Game.moved_since`).

>>> from cardzones import new_game
>>> from cardzones.rulesets.redemption.set_aside import set_aside
>>> game = new_game("redemption")
>>> moses = game.new_card(game.card_def("Moses"), game.zone("alice", "territory"))
>>> _, handle = set_aside(game, [moses], by="alice")
>>> _ = game.move(moses, game.zone("alice", "discard"))
>>> _ = game.move(moses, game.zone("alice", "set_aside"))
>>> is_set_aside(game, moses), game.is_active(handle)
(True, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardzones.kernel.logview import log_size
from cardzones.rulesets.redemption import records
from cardzones.rulesets.redemption.records import SET_ASIDE, SetAsideRecord
from cardzones.rulesets.redemption.zones import SET_ASIDE as SET_ASIDE_ZONE

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def is_set_aside(game: Game, card: int) -> bool:
    """A card is set aside while it is in a set-aside area (set-aside/definition)."""
    if not game.exists(card):
        return False
    return game.zone_info(game.obj(card).zone).type == SET_ASIDE_ZONE


def now(game: Game) -> int:
    """The log position of the newest event: a record made now has seen it."""
    return log_size(game) - 1


def still_set_aside(game: Game, rec: SetAsideRecord) -> tuple[int, ...]:
    """The targets that are still set aside by this ability: each still the
    object it became in the set-aside area, still there, and never gone
    from there since."""
    out = []
    for named in rec.cards:
        card = named.card
        if card in rec.left or game.referent(named) is None or not is_set_aside(game, card):
            continue
        if rec.since >= 0 and game.moved_since(card, rec.since):
            continue
        out.append(card)
    return tuple(out)


def set_aside_holds(game: Game, rec: SetAsideRecord) -> bool:
    """The paired ongoing ability lasts while all the targets remain set aside
    (set-aside/paired-ongoing); once one has left, it stays inactive
    (set-aside/premature-no-benefit)."""
    return not rec.negated and len(still_set_aside(game, rec)) == len(rec.cards)


#: How far back in the log a look at a record may have to read before the
#: record is brought up to date: a write per action would cost more.
REACH = 16


def catch_up(game: Game, rec: SetAsideRecord) -> tuple[SetAsideRecord, tuple[int, ...]]:
    """The record with the targets that have left since it last looked noted
    in ``left``, and ``since`` moved to now, once a target has left or the
    log has grown by :data:`REACH` events, so that no look reads further
    back; and the targets it still holds."""
    held = still_set_aside(game, rec)
    newest = now(game)
    if rec.since < 0 or newest == rec.since:
        return rec, held
    gone = tuple(n.card for n in rec.cards if n.card not in held and n.card not in rec.left)
    if not gone and newest - rec.since < REACH:
        return rec, held
    rec = rec._replace(since=newest, left=rec.left + gone)
    records.put(game, SET_ASIDE, rec.rid, rec)
    return rec, held
