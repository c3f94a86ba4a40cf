"""What a move, a clear or a flip would give, judged without making it: the
move pipeline's stages read on the game as it is (:mod:`cardzones.kernel.pipeline`).
Legal actions list a move this way without trying it.
"""

from __future__ import annotations

from cardzones.errors import IllegalAction, UnknownReference
from cardzones.kernel.cards import Dest, Position
from cardzones.kernel.identity import renews
from cardzones.kernel.objects import CARD, TOP, UNDER, Obj
from cardzones.kernel.pipeline import (
    _AT,
    _CEASED,
    _MOVED,
    _NO_MOVE,
    _new_record,
    _replace_destination,
    _to_pile,
    _visibility_at,
    resolve_destination,
)
from cardzones.kernel.results import MoveResult
from cardzones.kernel.ruleset import GameState
from cardzones.kernel.zones import ZoneInfo


def foresee_move(
    game: GameState,
    card: int,
    dest: Dest | int,
    *,
    position: Position = "top",
    face: str | None = None,
    cause: str = "effect",
    by: str | None = None,
    choose_zone: int | None = None,
) -> MoveResult | None:
    """What :func:`move` would give with these arguments, without making the
    move: stages 1 to 5 as :func:`move` runs them (replacement effects
    included, 3.0.8a), judged on the game as it is. Refused, it raises as the
    move would (``IllegalAction``, ``NeedsChoice``); None when only making the
    move can tell (a rule move that must clear the object instead, 3.0.11; a
    card with cards under or on it, which go along or are cleared, when the
    rule set cannot judge them, :meth:`Ruleset.foresee_children`).
    It changes nothing, so legal actions list a move without trying it.

    >>> from cardzones import new_game
    >>> game = new_game("fab", ["alice", "bob"])
    >>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    >>> foresee_move(game, card, Dest("graveyard", "alice")).value
    'moved'
    >>> foresee_move(game, card, Dest("graveyard", "bob")).value  # 3.8.2
    'failed'
    """
    if by is None:
        by = game._vars["turn_player"]
    obj: Obj | None = game._objs.get(card)
    if obj is None:
        raise UnknownReference(f"card {card} does not exist")
    if isinstance(dest, Dest) and dest.type in game.ruleset.piles:
        return _to_pile(game, card, dest, position, face, cause, by, choose_zone, False, True)
    zid = dest if isinstance(dest, int) else resolve_destination(game, obj, dest, by, choose_zone)
    public = _visibility_at(game, obj, zid, face)
    if obj.cdef.abilities and (obj.public or public):  # 3.0.8a, read without a change
        zid, position, public = _replace_destination(game, obj, zid, position, public, by)
    info: ZoneInfo | None = game._zinfo.get(zid) if zid is not None else None
    # Its sub-cards go along or are cleared (3.0.14c, 3.0.14e), a clear maybe
    # needing a choice (3.0.10a): the rule set judges them, unless it fails (3.0.11).
    kids = bool(game._kids.get(card))
    if zid == obj.zone and obj.rel == TOP:
        return _NO_MOVE  # 3.0.7b: at most turned, sub-cards with it (3.0.14d)
    ruleset = game.ruleset
    if ruleset.ceases_on_move(game, obj, zid):
        return None if kids else _CEASED
    if info is None or zid not in game._zones.get((info.owner, info.spec.type), ()):
        return MoveResult.FAILED if cause == "effect" else None  # 3.0.11
    moving = obj
    if obj.public is not public:
        moving = _new_record(Obj, obj[:_AT] + (public,) + obj[_AT + 1 :])  # noqa: RUF005
    if ruleset.admit(game, moving, zid, by).reason is not None:
        return MoveResult.FAILED if cause == "effect" else None  # 3.0.11
    if kids:  # reset as the move's stage 8 decides it (3.0.9)
        reset = renews(obj.public, public, ruleset.resets_on_enter(game, obj, zid))
        return _MOVED if ruleset.foresee_children(game, obj, zid, reset) else None
    return _MOVED


def foresee_clear(game: GameState, card: int, by: str | None = None) -> MoveResult | None:
    """What :func:`clear` would give, without clearing (see :func:`foresee_move`)."""
    obj = game.obj(card)
    if obj.kind != CARD or obj.is_token:  # 3.0.12a; its sub-cards cleared (3.0.14e)
        return None if game._kids.get(card) else _CEASED
    if (
        obj.rel == TOP
        and obj.zone != game._ceasing
        and obj.zone in game._zones.get((obj.owner, game.ruleset.clear_to), ())
    ):
        return _NO_MOVE
    dest = Dest(game.ruleset.clear_to, "owner")
    who = by or obj.owner or game.turn_player
    result = foresee_move(game, card, dest, cause="clear", by=who)
    return MoveResult.CLEARED if result is _MOVED else result


def foresee_flip(game: GameState, card: int, face: str) -> MoveResult:
    """What :func:`flip` would give, without turning the card; refused as it
    would be (3.0.14d)."""
    obj = game.obj(card)
    if obj.rel == UNDER:
        raise IllegalAction(
            "a sub-card is public exactly when its top-card is; flip the top-card",
            rule="3.0.14d",
        )
    return MoveResult.DONE if obj.public != (face == "up") else _NO_MOVE
