"""The one move pipeline: every change of zone goes through :func:`move`.

A move is its plan, applied. Its plan (:func:`cardzones.kernel.foresee.plan`)
changes nothing: it resolves the destination (3.0.5a, 3.0.10a, 3.0.13, 3.3.3b),
decides the visibility there (3.0.8) and again after each replacement effect
(3.0.8a), finds the origin is the destination (3.0.7b) or asks admission
(3.0.11). :func:`apply` carries it out: the object is turned where it is,
ceases to exist, is cleared or the effect fails (3.0.11), or it moves with last
known information (1.2.3, 3.0.7a), its sub-cards and placed cards (3.0.7,
3.0.14c), the reset (3.0.9) and the event with its triggers (3.0.9a).

Clearing (3.0.12), ceasing to exist (3.0.12a, 8.1.8a), turning a card face up
or down and shuffling are here too. Every public function is one action when
called on its own and one step of the enclosing action inside
:meth:`Game.atomic` or a rule set hook.

>>> from cardzones import new_game
>>> from cardzones.kernel.cards import Dest
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
>>> game.move(card, Dest("graveyard", "owner")).value, game.is_public(card)
('moved', True)
>>> game.move(card, game.zone("alice", "graveyard")).value
'no_move'
"""

from __future__ import annotations

import random

from cardzones.errors import CardzonesError
from cardzones.kernel import foresee
from cardzones.kernel.cards import Dest, Move, Position
from cardzones.kernel.contents import _detach, _insert
from cardzones.kernel.effects import _end_bound_effects, end_effect
from cardzones.kernel.events import CEASED, FLIPPED, MOVED, SHUFFLED, Snapshot
from cardzones.kernel.foresee import _CEASED, _MOVED, _NO_MOVE, _new_record, plan, to_pile
from cardzones.kernel.identity import renew
from cardzones.kernel.log import _log, _snapshot
from cardzones.kernel.objects import TOP, UNDER, Obj, Origin
from cardzones.kernel.results import MoveResult
from cardzones.kernel.ruleset import GameState
from cardzones.kernel.state import CONTENTS, KIDS, OBJS, VARS
from cardzones.kernel.triggers import _note_triggers


def move(
    game: GameState,
    card: int | Move,
    dest: Dest | int | None = None,
    *,
    position: Position = "top",
    face: str | None = None,
    cause: str = "effect",
    by: str | None = None,
    choose_zone: int | None = None,
    played: bool = False,
) -> MoveResult:
    """Move a card: the one way anything changes zone. The move is a
    :class:`~cardzones.kernel.cards.Move`, made once and handed to its plan and
    apply, or its fields: ``dest`` a zone id or a :class:`Dest`, a rule set's
    pile included (:meth:`Ruleset.move_to_pile`); ``face`` ``up`` or ``down``
    (default: the destination's); ``cause`` ``effect`` (fails where it cannot
    be made, 3.0.11) or ``rule`` (clears it instead); ``by`` the mover (the
    turn player by default); ``played``: its player controls it (1.3.1b).
    Refused, it raises; failed, it returns ``FAILED``; neither changes a thing.
    One action for :meth:`Game.undo`; in :meth:`Game.atomic` or a hook, a step of it."""
    if dest is None or card.__class__ is Move:
        move = foresee.as_move(game, card, dest, (position, face, cause, by, choose_zone, played))
        card, dest, position, face, cause, by, choose_zone, played = move
    elif by is None:  # as_move, inlined for the fields as most moves give them
        by = game._vars["turn_player"]
    if isinstance(dest, Dest) and dest.type in game.ruleset.piles:
        with game.atomic():  # the rule set's own move, as one step
            return to_pile(game, Move(card, dest, position, face, cause, by, choose_zone, played))  # type: ignore[arg-type]
    if game._depth:
        return apply(game, plan(game, card, dest, position, face, cause, by, choose_zone, played))  # type: ignore[arg-type]
    head = game._journal
    game._depth = 1
    try:
        planned = plan(game, card, dest, position, face, cause, by, choose_zone, played)  # type: ignore[arg-type]
        result = planned[0]
        if result is _MOVED:  # apply() and an action's end, inlined for the most made action
            _, obj, zid, position, public, equip, cause, by, played = planned
            if (  # unless the hook has nothing to do (Ruleset.quiet_moves)
                _transfer(game, obj, zid, position, public, equip, cause, by, played)  # type: ignore[arg-type]
                or game._vars["pending"]
                or (game._rules and not game.ruleset.quiet_moves[1].issuperset(game._rules))  # type: ignore[index]
            ):
                game.ruleset.after_action(game)  # refused there, none of it happened
        else:
            result = apply(game, planned)
            game.ruleset.after_action(game)
    except CardzonesError:
        game._abort(head)
        raise
    finally:
        game._depth = 0
    if game._journal is not head:  # an inlined _commit
        game._marks = (head, game._marks)
    return result


def apply(game: GameState, planned: foresee.MovePlan) -> MoveResult:
    """Carry out a plan (:data:`~cardzones.kernel.foresee.MovePlan`) made on
    the game as it is now: turn the object where it is (3.0.7b), make it cease,
    clear it or fail (3.0.11), or stages 6 to 9 (:func:`_transfer`)."""
    outcome, obj, zid, position, public, equip, cause, by, played = planned
    if outcome is _MOVED:
        _transfer(game, obj, zid, position, public, equip, cause, by, played)  # type: ignore[arg-type]
        return _MOVED
    if outcome is _NO_MOVE:
        _change_face(game, obj, public, by, cause)
        return _NO_MOVE
    if outcome is _CEASED:
        _cease(game, obj, by, cause)
        return _CEASED
    return _cannot_contain(game, obj, by, cause)


def _change_face(game: GameState, obj: Obj, public: bool, by: str | None, cause: str) -> bool:
    """3.0.7b: no move, the object only becomes public or private where it is.
    Going from public to private resets it (3.0.9). Returns whether it changed."""
    if obj.public == public:
        return False
    ztype = game._zinfo[obj.zone].type
    oid, origin, reset = renew(game, obj, public, False, ztype, ztype, "flip", by)
    lki = _snapshot(game, obj)
    new = obj._replace(public=public, oid=oid, origin=origin)
    game._put(OBJS, obj.card, new)
    if reset:
        _end_bound_effects(game, obj.card, obj.oid)
    face = "up" if public else "down"
    _log(game, FLIPPED, obj.card, True, lki, obj.zone, obj.zone, oid, by, cause, face, public)
    for kid in game._kids.get(obj.card, ()):
        kid_obj: Obj = game._objs[kid]
        if kid_obj.rel == UNDER:
            _change_face(game, kid_obj, public, by, cause)  # 3.0.14d
    return True


def _cannot_contain(game: GameState, obj: Obj, by: str, cause: str) -> MoveResult:
    """Stage 5, when the zone does not exist or cannot contain the object
    (3.0.11): a rule clears it instead; an effect fails and changes nothing."""
    if cause == "rule":
        cleared = _clear(game, obj, by)
        return MoveResult.FAILED if cleared is MoveResult.FAILED else MoveResult.CLEARED
    if cause == "clear":
        # The clear itself was replaced to where the object cannot go: its
        # replacements have applied once (3.0.8a), so it goes where a clear goes.
        pile = foresee.resolve_destination(game, obj, Dest(game.ruleset.clear_to, "owner"), by)
        if pile is not None and game.ruleset.admit(game, obj, pile, by).ok:
            _transfer(game, obj, pile, "top", game._zinfo[pile].spec.public, (), "rule", by, False)
            return MoveResult.MOVED
    return MoveResult.FAILED


def _transfer(
    game: GameState,
    obj: Obj,
    zid: int,
    position: Position,
    public: bool,
    equip: tuple[int, ...],
    cause: str,
    by: str | None,
    played: bool,
) -> bool:
    """Stages 6 to 9: take last known information, move the object with its
    sub-cards and placed cards at once, reset it, and log the move. Returns
    whether the move touched what the rule set's hook reads (a card with
    cards under or on it, a zone of ``quiet_moves``; all, without them): the
    zones' types are read here anyway, so a move's quiet test reads no zone."""
    card = obj.card
    src = obj.zone
    # 1.2.3, 3.0.7a: _snapshot, inlined for an object with no effects on it.
    fx = game._fx_by_card
    lki = _snapshot(game, obj) if fx and card in fx else _new_record(Snapshot, (obj, ()))
    if obj.host is None:  # 3.0.7: leaving and entering are one step (_detach, inlined)
        current = game._contents[src]
        i = current.index(card)
        game._journal = (CONTENTS, src, current, game._journal)  # an inlined _put
        game._contents[src] = current[1:] if i == 0 else current[:i] + current[i + 1 :]
    else:
        _detach(game, obj)
    ruleset = game.ruleset
    spec = game._zinfo[zid].spec
    entering = spec.resets if game._plain_resets else ruleset.resets_on_enter(game, obj, zid)
    src_type, dest_type = game._zinfo[src].spec.type, spec.type
    oid, origin, reset = renew(game, obj, public, entering, src_type, dest_type, cause, by)
    controller = ruleset.new_controller(game, obj, zid, by, played)
    new: Obj = _new_record(
        Obj,
        (
            card,
            oid,
            obj.cdef,
            obj.owner,
            controller,
            zid,
            public,
            None,
            TOP,
            origin,
            equip,
            obj.kind,
            obj.pcontrol,
            obj.data,
        ),
    )
    objs = game._objs
    game._journal = (OBJS, card, objs[card], game._journal)  # an inlined _put
    objs[card] = new
    _insert(game, zid, card, position)
    if reset and card in game._fx_by_card:
        _end_bound_effects(game, card, obj.oid)  # 3.0.9
    shown = public if game._plain_shown else ruleset.moved_public(game, obj, public)
    event = _log(game, MOVED, card, shown, lki, src, zid, oid, by, cause, "", public)
    kids = card in game._kids
    if kids:
        ruleset.move_children(game, obj, new, reset)  # 3.0.14c
    if game._vars["watchers"]:
        _note_triggers(game, event)
    quiet = ruleset.quiet_moves
    return kids or quiet is None or src_type in quiet[0] or dest_type in quiet[0]


# ----------------------------------------------------------------------
# Clearing and ceasing
# ----------------------------------------------------------------------


def _clear(game: GameState, obj: Obj, by: str | None) -> MoveResult:
    """3.0.12: move it to its owner's graveyard; a token, macro or non-card
    layer simply ceases to exist (3.0.12a)."""
    step = foresee.clearing(game, obj, by)
    if step is _CEASED:
        _cease(game, obj, by, "rule")
    if isinstance(step, MoveResult):
        return step
    return apply(game, plan(game, *step))  # type: ignore[arg-type]


def clear(game: GameState, card: int, by: str | None = None) -> MoveResult:
    """Clear an object (3.0.12): it goes to its owner's graveyard (the rule
    set's ``clear_to``), or ceases to exist if it is a token, a macro or a
    non-card layer (3.0.12a). Returns ``CLEARED``, ``CEASED`` or ``NO_MOVE``
    (or ``FAILED`` when even the graveyard cannot take it)."""
    with game.atomic():
        result = _clear(game, game.obj(card), by)
    return MoveResult.CLEARED if result is MoveResult.MOVED else result


def _cease(game: GameState, obj: Obj, by: str | None, cause: str) -> None:
    """The object ceases to exist (3.0.12a, 8.1.8a). Its sub-cards are cleared
    as part of the same event (3.0.14e), and it is no longer equipped (8.5.41f)."""
    card = obj.card
    lki = _snapshot(game, obj)
    _detach(game, obj)
    game._pop(OBJS, card)
    for eid in game._fx_by_card.get(card, ()):
        end_effect(game, eid)
    if card in game._vars["watchers"]:
        game._put(VARS, "watchers", tuple(w for w in game._vars["watchers"] if w != card))
    _log(game, CEASED, card, obj.public, lki, obj.zone, None, None, by, cause)
    for kid in game._kids.get(card, ()):
        _clear(game, game._objs[kid], by)  # 3.0.14e
    game._pop(KIDS, card)


def cease(
    game: GameState, card: int, by: str | None = None, *, cause: str = "effect"
) -> MoveResult:
    """The object ceases to exist (3.0.12a); the cards under or on it are
    cleared (3.0.14e). ``cause`` is ``effect`` or ``rule``. Returns ``CEASED``."""
    with game.atomic():
        _cease(game, game.obj(card), by, cause)
    return MoveResult.CEASED


# ----------------------------------------------------------------------
# Visibility and order
# ----------------------------------------------------------------------


def flip(game: GameState, card: int, face: str, by: str | None = None) -> MoveResult:
    """Make an object public (``up``) or private (``down``) where it is. Going
    from public to private resets it (3.0.9). A sub-card has the visibility of
    its top-card (3.0.14d) and cannot be turned on its own."""
    obj = foresee.flippable(game.obj(card))
    with game.atomic():
        changed = _change_face(game, obj, face == "up", by or game.turn_player, "effect")
    return MoveResult.DONE if changed else MoveResult.NO_MOVE


def shuffle(game: GameState, zid: int, by: str | None = None, *, logged: bool = True) -> MoveResult:
    """Shuffle a zone with the game's seeded randomness. Private objects in it
    become new objects, so nothing links them to what they were before.
    ``logged=False`` is for setting up a game, which logs nothing."""
    with game.atomic():
        n = game._next("shuffles")
        rng = random.Random(f"{game.seed}:{n}")
        cards = list(game._contents[zid])
        rng.shuffle(cards)
        game._put(CONTENTS, zid, tuple(cards))
        ztype = game._zinfo[zid].type
        for card in cards:
            obj: Obj = game._objs[card]
            if not obj.public:
                origin = Origin(ztype, ztype, game._vars["turn"], "shuffle", by)
                game._put(OBJS, card, obj._replace(oid=game._next("next_oid"), origin=origin))
                if card in game._fx_by_card:
                    _end_bound_effects(game, card, obj.oid)
        if logged:
            _log(game, SHUFFLED, None, True, None, zid, zid, None, by, "effect")
    return MoveResult.DONE
