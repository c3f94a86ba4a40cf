"""The one move pipeline: every change of zone goes through :func:`move`.

Its stages, each named after the rule it implements:

1. resolve the destination (3.0.5a, 3.0.10a, 3.0.13, 3.3.3b):
   :func:`resolve_destination`;
2. decide the visibility at the destination (3.0.8): :func:`_visibility_at`;
3. replacement effects, each at most once, deciding the visibility again
   (3.0.8a): :func:`_replace_destination`;
4. the origin is the destination: nothing moves, only the face may change
   (3.0.7b): :func:`_change_face`;
5. admission: a zone that cannot contain the object clears it (a rule move) or
   makes the effect fail (3.0.11): :func:`_cannot_contain`;
6. to 9. last known information (1.2.3, 3.0.7a), the transfer with sub-cards
   and placed cards (3.0.7, 3.0.14c), the reset (3.0.9) and the event with its
   triggers (3.0.9a): :func:`_transfer`.

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
from collections.abc import Callable
from typing import Any

from cardzones.errors import CardzonesError, IllegalAction, NeedsChoice, UnknownReference
from cardzones.kernel import queries
from cardzones.kernel.cards import Dest, Move, Position
from cardzones.kernel.contents import _detach, _insert
from cardzones.kernel.effects import _end_bound_effects, end_effect
from cardzones.kernel.events import CEASED, FLIPPED, MOVED, SHUFFLED, Snapshot
from cardzones.kernel.identity import renew
from cardzones.kernel.log import _log, _snapshot
from cardzones.kernel.objects import CARD, TOP, UNDER, Obj, Origin
from cardzones.kernel.results import MoveResult
from cardzones.kernel.ruleset import GameState
from cardzones.kernel.state import CONTENTS, KIDS, OBJS, VARS
from cardzones.kernel.triggers import _note_triggers
from cardzones.kernel.zones import ZoneInfo

#: Builds a record from a tuple of all its fields, skipping the keyword handling
#: of the generated ``__new__``: records are made on every move.
_new_record = tuple.__new__

#: Where a record holds its visibility: an object moving with a new one is
#: rebuilt with ``_new_record``, not ``Obj._replace``, which takes four times as long.
_AT = Obj._fields.index("public")

# Enum members looked up once: the move pipeline returns one on every call.
_MOVED, _NO_MOVE, _CEASED = MoveResult.MOVED, MoveResult.NO_MOVE, MoveResult.CEASED


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
    """Move a card: the one way anything changes zone.

    The move is a :class:`~cardzones.kernel.cards.Move`, or its fields as
    arguments. ``dest`` is a zone id or a :class:`Dest` to resolve, one of the
    rule set's piles included (fab's ``soul``: the card goes under its
    owner's hero, :meth:`Ruleset.move_to_pile`). ``face`` is ``up`` or
    ``down`` (default: the destination's default visibility). ``cause`` is
    ``effect`` (a move that cannot be made fails, 3.0.11) or ``rule`` (it
    clears the object instead). ``by`` is the player who makes the move (the
    turn player by default); ``played`` says the card is being played, so that
    the player who played it controls it (1.3.1b). A refused move raises and
    changes nothing; a failed one returns ``MoveResult.FAILED`` and changes
    nothing.

    Called on its own it is one action, which :meth:`Game.undo` undoes; inside
    :meth:`Game.atomic` or a rule set hook it is one step of that action.
    """
    if card.__class__ is Move:
        if dest is not None:
            raise TypeError("give a Move, or a card and its destination, not both")
        card, dest, position, face, cause, by, choose_zone, played = card
    if by is None:
        by = game._vars["turn_player"]
    step: Callable[..., MoveResult] = (
        _to_pile if isinstance(dest, Dest) and dest.type in game.ruleset.piles else _move
    )
    if game._depth:
        return step(game, card, dest, position, face, cause, by, choose_zone, played)
    head = game._journal
    game._depth = 1
    try:
        result = step(game, card, dest, position, face, cause, by, choose_zone, played)
        game.ruleset.after_action(game)
    except CardzonesError:
        game._abort(head)
        raise
    finally:
        game._depth = 0
    if game._journal is not head:  # an inlined _commit
        game._marks = (head, game._marks)
    return result


def _to_pile(
    game: GameState,
    card: int,
    dest: Dest,
    position: Position,
    face: str | None,
    cause: str,
    by: str,
    choose_zone: int | None,
    played: bool,
    foresee: bool = False,
) -> MoveResult:
    """A move into one of the rule set's piles: under or on the card whose
    pile ``dest`` names, for the card's owner (``owner``), the acting player
    (no owner, ``you``) or the player named."""
    ruleset = game.ruleset
    if dest.owner == "owner":
        owner = game.obj(card).owner
    else:
        owner = by if dest.owner in (None, "you") else dest.owner
    assert owner is not None
    host = ruleset.pile_host(game, owner, dest.type)
    step = Move(card, dest, position, face, cause, by, choose_zone, played)
    return ruleset.move_to_pile(game, step, host, ruleset.piles[dest.type], foresee=foresee)


def _move(
    game: GameState,
    card: int,
    dest: Dest | int,
    position: Position,
    face: str | None,
    cause: str,
    by: str,
    choose_zone: int | None = None,
    played: bool = False,
) -> MoveResult:
    obj: Obj | None = game._objs.get(card)
    if obj is None:
        raise UnknownReference(f"card {card} does not exist")
    zid = dest if isinstance(dest, int) else resolve_destination(game, obj, dest, by, choose_zone)
    # A zone id or None (no such zone): any key of the zone records' dict.
    zinfo: dict[Any, ZoneInfo] = game._zinfo
    info: ZoneInfo | None = zinfo.get(zid)
    # _visibility_at, inlined: every move asks it.
    if face is not None:
        public = face == "up"
    elif info is not None:
        public = info.spec.public
    else:
        public = obj.public
    if obj.cdef.abilities and (obj.public or public):
        before = zid
        zid, position, public = _replace_destination(game, obj, zid, position, public, by)
        if zid != before:
            info = zinfo.get(zid)
    if zid == obj.zone and obj.rel == TOP:
        _change_face(game, obj, public, by, cause)
        return _NO_MOVE
    ruleset = game.ruleset
    if ruleset.ceases_on_move(game, obj, zid):
        _cease(game, obj, by, cause)
        return _CEASED
    # zone_exists, inlined: a removed zone keeps its record (3.0.10).
    if info is None or zid not in game._zones.get((info.owner, info.spec.type), ()):
        return _cannot_contain(game, obj, by, cause)
    # The object as it moves, with the visibility 3.0.8 gave it: the rules
    # judge a private one by what they may know of it (3.0.7a).
    moving = obj
    if obj.public is not public:
        moving = _new_record(Obj, obj[:_AT] + (public,) + obj[_AT + 1 :])  # noqa: RUF005
    adm = ruleset.admit(game, moving, zid, by)
    if adm.reason is not None:
        return _cannot_contain(game, obj, by, cause)
    _transfer(game, obj, zid, position, public, cause, by, adm.equip, played)
    return _MOVED


def resolve_destination(
    game: GameState,
    obj: Obj,
    dest: Dest | int,
    by: str,
    choose_zone: int | None = None,
    quiet: bool = False,
) -> int | None:
    """Stage 1: the zone a destination names for ``obj`` moved by ``by``
    (3.0.5a, 3.0.10a, 3.0.13, 3.3.3b), or None when that zone does not exist.

    A destination without an owner names the zone of ``by`` (3.0.13). When the
    player has several zones of the type, the options are those that can take
    the object; a choice is needed only when more than one remains (3.0.10a).
    ``obj`` may be a :meth:`Game.probe` of a card not yet in the game.
    ``quiet`` takes the first option instead of asking (see
    :func:`_replace_destination`).
    """
    if isinstance(dest, int):
        return dest
    ruleset = game.ruleset
    spec = ruleset.zone_specs.get(dest.type)
    if spec is None:
        pseudo = ruleset.resolve_pseudo(game, obj, dest, by)
        if pseudo is None:
            queries.spec(game, dest.type)  # raises: unknown zone type
            return None
        dest = pseudo
        spec = queries.spec(game, dest.type)
    if spec.shared:
        owner = None
    elif dest.owner == "owner":
        owner = obj.owner
    elif dest.owner is None or dest.owner == "you":
        owner = by  # 3.0.13: the zones of the controller of the effect
    else:
        owner = game.check_player(dest.owner)
    zids = game._zones.get((owner, dest.type), ())
    if dest.index is not None:
        return zids[dest.index - 1] if 1 <= dest.index <= len(zids) else None
    listed = zids
    if game._ceasing in zids:
        # 3.0.10b, 3.0.10c: the zone that ceases is no place for its own cards.
        zids = tuple(z for z in zids if z != game._ceasing)
    if len(zids) <= 1:
        if choose_zone is not None and choose_zone not in zids:
            raise IllegalAction(
                f"choose_zone {queries.zone_name(game, choose_zone)} is not a {dest} zone",
                rule="3.0.10a",
            )
        return zids[0] if zids else None
    # Judged on what the rules know of the object before it moves: a private
    # one is its rule set's private card (3.0.7a), so whether a choice is
    # needed never depends on which card it is. When that card fits none of
    # the zones, the card itself may still fit once it is public there (3.0.8):
    # any zone may then be chosen, and admission decides on it.
    options = [z for z in zids if ruleset.admit(game, obj, z, by).ok]
    if choose_zone is None and game._chosen:
        # The choices given to the action (Game.choosing), the card's own first,
        # then its owner's and those for any card: a zone of this type and owner
        # that cannot take the card is refused below as a choice given to the
        # move itself would be.
        chosen = [c[1] for c in game._chosen if isinstance(c, tuple) and c[0] == obj.card]
        chosen += [
            c if isinstance(c, int) else c[1]
            for c in game._chosen
            if isinstance(c, int) or c[0] == obj.owner
        ]
        choose_zone = next((z for z in chosen if z in options), None)
        if choose_zone is None:
            choose_zone = next((z for z in chosen if z in listed), None)
    if choose_zone is not None:
        if choose_zone not in options and (options or obj.public or choose_zone not in zids):
            names = ", ".join(queries.zone_name(game, z) for z in options) or "none"
            raise IllegalAction(
                f"choose_zone {queries.zone_name(game, choose_zone)} cannot take the card; "
                f"the options are {names}",
                rule="3.0.10a",
            )
        return choose_zone
    if len(options) == 1:
        return options[0]
    if not options or quiet:
        # None can take it: admission decides what happens. Or the choice may
        # not be asked (quiet): the first option.
        return (options or zids)[0]
    raise NeedsChoice(
        "choose_zone",
        [queries.zone_name(game, z) for z in options],
        what=f"the {dest.type} zone ({obj.owner} chooses)",
        rule="3.0.10a",
        chooser=obj.owner,
    )


def _visibility_at(game: GameState, obj: Obj, zid: int | None, face: str | None) -> bool:
    """Stage 2: the visibility the object will have at the destination (3.0.8)."""
    if face is not None:
        return face == "up"
    if zid is None:
        return obj.public
    info: ZoneInfo | None = game._zinfo.get(zid)
    return obj.public if info is None else info.spec.public


def _replace_destination(
    game: GameState, obj: Obj, zid: int | None, position: Position, public: bool, by: str
) -> tuple[int | None, Position, bool]:
    """Stage 3: replacement effects on the destination, each at most once,
    deciding the visibility again after each (3.0.8a). A private object has
    no properties (3.0.7a), so only a public one's replacements apply."""
    replacements = obj.cdef.replacements
    if not replacements:
        return zid, position, public
    origin_type = game._zinfo[obj.zone].type
    applied: list[int] = []
    progress = True
    while progress:
        progress = False
        dest_type = game._zinfo[zid].type if zid is not None else None
        for i, rep in enumerate(replacements):
            if i in applied or rep.moved_to != dest_type:
                continue
            if rep.from_ is not None and rep.from_ != origin_type:
                continue
            applied.append(i)
            controller = obj.controller or obj.owner or by
            # 3.0.10a read with 3.0.7a: of a card private as the move began, a
            # mover who may not look at it cannot be asked for a zone its
            # replacement names, since the asking would tell what it is; a
            # choice given to the action in advance applies, else the first.
            quiet = not obj.public and not queries.may_look(game, by, obj.card)
            zid = resolve_destination(game, obj, rep.to, controller, None, quiet)
            position = rep.position
            public = _visibility_at(game, obj, zid, rep.face)
            progress = True
            break
    return zid, position, public


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
        # replacements have applied once (3.0.8a), so it goes to the graveyard.
        graveyard = resolve_destination(game, obj, Dest(game.ruleset.clear_to, "owner"), by)
        if graveyard is not None and game.ruleset.admit(game, obj, graveyard, by).ok:
            public = game._zinfo[graveyard].spec.public
            _transfer(game, obj, graveyard, "top", public, "rule", by, (), False)
            return MoveResult.MOVED
    return MoveResult.FAILED


def _transfer(
    game: GameState,
    obj: Obj,
    zid: int,
    position: Position,
    public: bool,
    cause: str,
    by: str | None,
    equip: tuple[int, ...],
    played: bool,
) -> Obj:
    """Stages 6 to 9: take last known information, move the object with its
    sub-cards and placed cards at once, reset it, and log the move."""
    card = obj.card
    src = obj.zone
    # 1.2.3, 3.0.7a: _snapshot, inlined for an object with no effects on it.
    fx = game._fx_by_card
    lki = _snapshot(game, obj) if fx and card in fx else _new_record(Snapshot, (obj, ()))
    # 3.0.7: leaving and entering are one step.
    if obj.host is None:  # _detach from a zone, inlined
        contents = game._contents
        current = contents[src]
        i = current.index(card)
        game._journal = (CONTENTS, src, current, game._journal)  # an inlined _put
        contents[src] = current[1:] if i == 0 else current[:i] + current[i + 1 :]
    else:
        _detach(game, obj)
    ruleset = game.ruleset
    zinfo = game._zinfo
    spec = zinfo[zid].spec
    entering = spec.resets if game._plain_resets else ruleset.resets_on_enter(game, obj, zid)
    oid, origin, reset = renew(
        game, obj, public, entering, zinfo[src].spec.type, spec.type, cause, by
    )
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
    if card in game._kids:
        ruleset.move_children(game, obj, new, reset)  # 3.0.14c
    if game._vars["watchers"]:
        _note_triggers(game, event)
    return new


# ----------------------------------------------------------------------
# Clearing and ceasing
# ----------------------------------------------------------------------


def _clear(game: GameState, obj: Obj, by: str | None) -> MoveResult:
    """3.0.12: move it to its owner's graveyard; a token, macro or non-card
    layer simply ceases to exist (3.0.12a)."""
    if obj.kind != CARD or obj.is_token:
        _cease(game, obj, by, "rule")
        return MoveResult.CEASED
    # Already in one of its owner's graveyards: there is nothing to move.
    if (
        obj.rel == TOP
        and obj.zone != game._ceasing
        and obj.zone in game._zones.get((obj.owner, game.ruleset.clear_to), ())
    ):
        return MoveResult.NO_MOVE
    # The clear is the rule move of 3.0.11 itself: it is never cleared again.
    graveyard, by = Dest(game.ruleset.clear_to, "owner"), by or obj.owner or game.turn_player
    return _move(game, obj.card, graveyard, "top", None, "clear", by)


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
    kids = game._kids.get(card, ())
    for kid in kids:
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
    obj = game.obj(card)
    if obj.rel == UNDER:
        raise IllegalAction(
            "a sub-card is public exactly when its top-card is; flip the top-card",
            rule="3.0.14d",
        )
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
