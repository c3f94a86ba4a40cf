"""The plan of a move: stages 1 to 5 of the move pipeline (see
:mod:`cardzones.kernel.pipeline`), read on the game as it is, say what the move
would do without changing anything (:data:`MovePlan`); the move applies its
plan, and what a move, a clear or a flip would give is its plan's verdict, so
legal actions list a move without trying it and no rule is written twice.
"""

from __future__ import annotations

from typing import Any

from cardzones.errors import IllegalAction, NeedsChoice, UnknownReference
from cardzones.kernel import queries
from cardzones.kernel.cards import Dest, Move, Position
from cardzones.kernel.identity import renews
from cardzones.kernel.objects import CARD, TOP, UNDER, Obj
from cardzones.kernel.results import MoveResult
from cardzones.kernel.ruleset import GameState
from cardzones.kernel.zones import ZoneInfo

#: Builds a record from a tuple of all its fields, skipping the keyword handling
#: of the generated ``__new__``: records are made on every move.
_new_record = tuple.__new__

#: Where a record holds its visibility: an object moving with a new one is
#: rebuilt with ``_new_record``, not ``Obj._replace``, which takes four times as long.
_AT = Obj._fields.index("public")

# Enum members looked up once: the move pipeline returns one on every call.
_MOVED, _NO_MOVE, _CEASED, _FAILED = map(MoveResult, ("moved", "no_move", "ceased", "failed"))


#: What a move would do (:func:`plan`), a plain tuple as one is made on every
#: move: the outcome, ``MOVED``, ``NO_MOVE`` (at most turned, 3.0.7b), ``CEASED``
#: or ``FAILED`` (3.0.11); the object; its zone, position and visibility after
#: the replacement effects (3.0.8, 3.0.8a); what it becomes equipped to; the
#: move's cause, mover and whether the card is played.
MovePlan = tuple[MoveResult, Obj, int | None, Position, bool, tuple[int, ...], str, str, bool]


def as_move(game: GameState, card: int | Move, dest: Dest | int | None, fields: Any) -> Move:
    """The one :class:`Move` that :meth:`Game.move` or :meth:`Game.foresee_move`
    is given, as a value or as its card, destination and other ``fields``,
    with its mover (the turn player when none is named)."""
    if isinstance(card, Move):
        if dest is not None:
            raise TypeError("give a Move, or a card and its destination, not both")
        move = card
    elif dest is None:
        raise TypeError("a move needs a destination")
    else:
        move = _new_record(Move, (card, dest, *fields))
    return move if move.by is not None else move._replace(by=game._vars["turn_player"])


def plan(
    game: GameState,
    card: int,
    dest: Dest | int,
    position: Position,
    face: str | None,
    cause: str,
    by: str,
    choose_zone: int | None,
    played: bool,
) -> MovePlan:
    """Stages 1 to 5 of a move not into a pile, changing nothing; refused, it
    raises as the move would (``IllegalAction``, ``NeedsChoice``). A private
    object is judged only by what its mover ``by`` may know of it (3.0.7a).
    It takes a :class:`Move`'s fields (``*move``): most moves come as them."""
    obj: Obj | None = game._objs.get(card)
    if obj is None:
        raise UnknownReference(f"card {card} does not exist")
    zid = dest if isinstance(dest, int) else resolve_destination(game, obj, dest, by, choose_zone)
    # A zone id or None (no such zone): any key of the zone records' dict.
    zinfo: dict[Any, ZoneInfo] = game._zinfo
    info: ZoneInfo | None = zinfo.get(zid)
    # 3.0.8: as the move says, else as the zone does (the object's own when none is).
    public = face == "up" if face is not None else obj.public if info is None else info.spec.public
    if obj.cdef.abilities and (obj.public or public):
        zid, position, public = _replace_destination(game, obj, zid, position, public, by)
        info = zinfo.get(zid)
    equip: tuple[int, ...] = ()
    ruleset = game.ruleset
    if zid == obj.zone and obj.rel == TOP:
        outcome = _NO_MOVE
    elif ruleset.ceases_on_move(game, obj, zid):
        outcome = _CEASED
    # zone_exists, inlined: a removed zone keeps its record (3.0.10).
    elif info is None or zid not in game._zones.get((info.owner, info.spec.type), ()):
        outcome = _FAILED
    else:
        # The object as it moves, with the visibility 3.0.8 gave it: the rules
        # judge a private one by what they may know of it (3.0.7a).
        moving = obj
        if obj.public is not public:
            moving = _new_record(Obj, obj[:_AT] + (public,) + obj[_AT + 1 :])  # noqa: RUF005
        adm = ruleset.admit(game, moving, zid, by)
        outcome = _MOVED if adm.reason is None else _FAILED
        equip = adm.equip
    return (outcome, obj, zid, position, public, equip, cause, by, played)


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


def _replace_destination(
    game: GameState, obj: Obj, zid: int | None, position: Position, public: bool, by: str
) -> tuple[int | None, Position, bool]:
    """Stage 3: replacement effects on the destination, each at most once,
    deciding the visibility again after each (3.0.8a). A private object has
    no properties (3.0.7a), so only a public one's replacements apply."""
    replacements = obj.cdef.replacements
    if not replacements:
        return zid, position, public
    origin_type = game._zinfo[obj.zone].spec.type
    applied: list[int] = []
    while True:
        dest_type = game._zinfo[zid].spec.type if zid is not None else None
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
            position, face = rep.position, rep.face
            info = None if zid is None else game._zinfo.get(zid)
            shown = obj.public if info is None else info.spec.public  # decided again (3.0.8a)
            public = face == "up" if face is not None else shown
            break
        else:  # no replacement left that applies
            return zid, position, public


def to_pile(game: GameState, move: Move, foresee: bool = False) -> MoveResult:
    """A move into one of the rule set's piles, by ``move.by``: under or on
    the card whose pile ``move.to`` names, for the card's owner (``owner``),
    the acting player (no owner, ``you``) or the player named."""
    ruleset, dest = game.ruleset, move.to
    assert isinstance(dest, Dest) and move.by is not None
    named = move.by if dest.owner in (None, "you") else dest.owner
    owner = game.obj(move.card).owner if named == "owner" else named
    assert owner is not None
    host = ruleset.pile_host(game, owner, dest.type)
    return ruleset.move_to_pile(game, move, host, ruleset.piles[dest.type], foresee=foresee)


def clearing(game: GameState, obj: Obj, by: str | None) -> MoveResult | Move:
    """How clearing ``obj`` goes (3.0.12): ``CEASED`` for a token, a macro or a
    non-card layer (3.0.12a), ``NO_MOVE`` for a card in its owner's graveyard,
    else the move there: the rule move of 3.0.11 itself, never cleared again."""
    if obj.kind != CARD or obj.is_token:
        return _CEASED
    if (
        obj.rel == TOP
        and obj.zone != game._ceasing
        and obj.zone in game._zones.get((obj.owner, game.ruleset.clear_to), ())
    ):
        return _NO_MOVE
    dest, by = Dest(game.ruleset.clear_to, "owner"), by or obj.owner or game.turn_player
    return _new_record(Move, (obj.card, dest, "top", None, "clear", by, None, False))


def flippable(obj: Obj) -> Obj:
    """``obj``, unless it is a sub-card, which cannot be turned on its own (3.0.14d)."""
    if obj.rel == UNDER:
        raise IllegalAction(
            "a sub-card is public exactly when its top-card is; flip the top-card",
            rule="3.0.14d",
        )
    return obj


#: A move's fields after its card and destination, as :class:`Move` defaults them.
_DEFAULTS = Move(0, 0)[2:]


def foresee_move(
    game: GameState, card: int | Move, dest: Dest | int | None = None, **fields: Any
) -> MoveResult | None:
    """What :func:`move` would give with this :class:`Move` (or its card,
    destination and other fields, as :func:`move` takes them), without making
    the move: its plan's outcome (replacement
    effects included, 3.0.8a). Refused, it raises as the move would
    (``IllegalAction``, ``NeedsChoice``); None when only making the move can
    tell (a rule move that must clear the object instead, 3.0.11; a card with
    cards under or on it, which go along or are cleared, when the rule set
    cannot judge them, :meth:`Ruleset.foresee_children`).

    >>> from cardzones import new_game
    >>> game = new_game("fab", ["alice", "bob"])
    >>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    >>> foresee_move(game, card, Dest("graveyard", "alice")).value
    'moved'
    >>> foresee_move(game, card, Dest("graveyard", "bob")).value  # 3.8.2
    'failed'
    """
    if fields:  # Move checks the names of the fields and gives the others' defaults
        card, dest = Move(card, dest, **fields), None  # type: ignore[arg-type]
    fit = card.__class__ is Move and dest is None and card.by is not None  # as a listing gives
    move: Move = card if fit else as_move(game, card, dest, _DEFAULTS)  # type: ignore[assignment]
    card, dest, position, face, cause, by, zone, played = move  # 3.11 reads fields slowly
    if isinstance(dest, Dest) and dest.type in game.ruleset.piles:
        game.obj(card)  # a card that does not exist is refused
        return to_pile(game, move, True)
    planned = plan(game, card, dest, position, face, cause, by, zone, played)  # type: ignore[arg-type]
    outcome, obj, zid, _, public, _, _, _, _ = planned  # not *move: a call that 3.11 specialises
    if outcome is _NO_MOVE:
        return _NO_MOVE  # at most turned, sub-cards with it (3.0.14d)
    # Its sub-cards go along or are cleared (3.0.14c, 3.0.14e), a clear maybe
    # needing a choice (3.0.10a): the rule set judges them, unless it fails (3.0.11).
    kids = bool(game._kids.get(card))
    if outcome is _CEASED:
        return None if kids else _CEASED
    if outcome is _FAILED:
        return _FAILED if cause == "effect" else None  # a rule move clears it instead
    if kids and zid is not None:  # reset as the move's stage 8 decides it (3.0.9)
        ruleset = game.ruleset
        reset = renews(obj.public, public, ruleset.resets_on_enter(game, obj, zid))
        return _MOVED if ruleset.foresee_children(game, obj, zid, reset) else None
    return _MOVED


def foresee_clear(game: GameState, card: int, by: str | None = None) -> MoveResult | None:
    """What :func:`clear` would give, without clearing (see :func:`foresee_move`)."""
    step = clearing(game, game.obj(card), by)
    if step is _CEASED:  # its sub-cards are cleared (3.0.14e)
        return None if game._kids.get(card) else _CEASED
    if isinstance(step, MoveResult):
        return step
    result = foresee_move(game, step)
    return MoveResult.CLEARED if result is _MOVED else result


def foresee_flip(game: GameState, card: int, face: str) -> MoveResult:
    """What :func:`flip` would give, without turning the card; refused as it
    would be (3.0.14d)."""
    obj = flippable(game.obj(card))
    return MoveResult.DONE if obj.public != (face == "up") else _NO_MOVE
