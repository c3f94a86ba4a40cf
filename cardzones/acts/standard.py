"""Actions every rule set may put in its table, game-agnostic: the general
move, draw, shuffle, flip, modify, grant and end_turn.

A rule set with its own way of moving (a pseudo destination, a move it must
remember) makes its ``move`` with :func:`move_action` and its own mover; the
parameters, ``then:`` and the atomic unit stay the same.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
>>> modify = modify_action(("power",))
>>> modify.run(game, {"card": card, "power": 2, "until": None}).result.value
'done'
>>> game.stat(card, "power")
2
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Protocol

from cardzones.acts import legal
from cardzones.acts.actions import (
    Action,
    ArgumentError,
    BoundAction,
    OneOf,
    Param,
    ParamKind,
    Role,
    acting,
)
from cardzones.acts.binding import complete
from cardzones.acts.zone_choices import choices, chosen, split, standing
from cardzones.errors import CardzonesError, IllegalAction
from cardzones.kernel.cards import Chosen, Dest, Move, MoveFields
from cardzones.kernel.effects import END_OF_TURN, EffectRef
from cardzones.kernel.results import ActionResult, MoveResult

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

K = ParamKind

#: The parameter naming the acting player, shared by most actions.
BY = Param("by", K.PLAYER, doc="the player who acts (default: the turn player)")
#: A durations parameter: effects "until end of turn".
UNTIL = Param("until", K.CHOICE, options=(END_OF_TURN,), doc="when it ends (default: never)")

MOVE_PARAMS = (
    Param("card", K.CARD, required=True, doc="the card to move"),
    Param("to", K.DEST, required=True, doc="where to; without an owner, the zone of by (3.0.13)"),
    Param("position", K.POSITION, default="top", doc="top, bottom, or the index from the top"),
    Param("face", K.CHOICE, options=("up", "down"), doc="default: the destination's visibility"),
    Param(
        "cause",
        K.CHOICE,
        default="effect",
        options=("effect", "rule"),
        doc="effect: fails where it cannot go; rule: clears it instead (3.0.11)",
    ),
    BY,
    Param(
        "choose_zone",
        K.ZONE_CHOICE,
        doc="which zone, when several of the type can take it; or, by player or card, the "
        "zones for the cards the move sends on, such as sub-cards cleared (3.0.10a)",
    ),
    Param("then", K.ACTION, doc="an action on the object the move produced, if public (3.0.9b)"),
)


class Mover(Protocol):
    """A rule set's way of making a :class:`~cardzones.kernel.cards.Move`, for
    :func:`move_action`: one step of the action, saying what it did."""

    def __call__(self, game: Game, move: Move) -> ActionResult: ...


def kernel_move(game: Game, move: Move) -> ActionResult:
    """The kernel's move (:meth:`Game.move`), as a mover for :func:`move_action`."""
    return ActionResult(game.move(move))


class Foreseer(Protocol):
    """What a :class:`Mover` would give, judged without moving (see
    :meth:`Game.foresee_move`): a result, or None when only moving can tell."""

    def __call__(self, game: Game, move: Move) -> MoveResult | None: ...


def foresee_kernel_move(game: Game, move: Move) -> MoveResult | None:
    """What :func:`kernel_move` would give (:meth:`Game.foresee_move`)."""
    return game.foresee_move(move)


class Alike(Protocol):
    """Which moves a foreseer judges alike: a key for the class of ``move``
    (its fields in :class:`~cardzones.kernel.cards.Move`'s order, as a plain
    tuple: :data:`~cardzones.kernel.cards.MoveFields`), the same for every
    move that its plan judges the same way while the game stays as it is,
    from what the plan and the rule set's admission read of the card (fab's
    :mod:`~cardzones.rulesets.fab.move_foresight`); None for a move judged
    by itself. ``memo`` is the listing's
    (:func:`~cardzones.acts.legal.judging`), for what it finds of each card."""

    def __call__(self, game: Game, move: MoveFields, memo: dict[Any, Any]) -> Hashable: ...


#: Makes a Move from a tuple of all its fields, skipping the keyword handling
#: of Move's own.
_new_move = tuple.__new__


#: The fields of a Move that the ``move`` action's arguments give as they are.
_FIELDS = itemgetter("card", "to", "position", "face", "cause")


def move_fields(game: Game, args: Mapping[str, Any]) -> MoveFields:
    """The fields of the one :class:`~cardzones.kernel.cards.Move` that the
    ``move`` action's bound arguments name, in its order, as a plain tuple (a
    listing of legal actions keys a candidate by them before any Move is
    made): ``by`` the turn player by default, and ``choose_zone`` the zone it
    names for this card, its choices by player or card being given to the
    action as a whole (:func:`~cardzones.acts.zone_choices.choices`)."""
    by, choose = args["by"], args["choose_zone"]
    zone = None if choose is None else split(choose)[0]
    return (*_FIELDS(args), game.turn_player if by is None else by, zone, False)


def move_of(game: Game, args: Mapping[str, Any]) -> Move:
    """The :class:`~cardzones.kernel.cards.Move` the ``move`` action's bound
    arguments name (:func:`move_fields`), made once and handed to its mover
    or foreseer.

    >>> from cardzones import new_game
    >>> game = new_game("fab", ["alice", "bob"])
    >>> args = {"card": 7, "to": Dest("hand", "bob"), "position": "top", "face": None,
    ...         "cause": "effect", "by": None, "choose_zone": None}
    >>> move_of(game, args)  # by the turn player
    Move(card=7, to=Dest(type='hand', owner='bob', index=None), position='top', face=None, \
cause='effect', by='alice', choose_zone=None, played=False)
    """
    return _new_move(Move, move_fields(game, args))


def move_action(
    mover: Mover = kernel_move,
    *,
    doc: str = "Move a card: the one general move.",
    rules: tuple[str, ...] = (),
    foresee: Foreseer | None = None,
    alike: Alike | None = None,
) -> Action:
    """The general ``move``, made by ``mover`` from the action's one
    :class:`~cardzones.kernel.cards.Move` (:func:`move_of`). After the move,
    ``then:`` is applied to the object the move produced while it is still
    public (3.0.9b). The whole is one action. ``foresee`` says what ``mover``
    would give without moving (for legal actions); the kernel's move has its
    own, and a rule set's mover without one is tried instead. ``alike`` (an
    :class:`Alike`) names the moves that ``foresee`` judges alike, so that a
    listing of legal actions, which judges every candidate, judges each class
    of them once; a move with ``then:`` is not judged (only moving tells)."""
    if foresee is None and mover is kernel_move:
        foresee = foresee_kernel_move
    judge = foresee
    kernel = judge is foresee_kernel_move  # then called straight: a listing calls it often

    def run(game: Game, args: Mapping[str, Any]) -> ActionResult:
        move = move_of(game, args)
        with game.atomic(), choices(game, args["choose_zone"]):
            done = mover(game, move)
            then: BoundAction | None = args.get("then")
            if then is not None and done.result in (MoveResult.MOVED, MoveResult.NO_MOVE):
                found = game.find(move.card)
                if found is not None and found.public:  # 3.0.9b
                    then.action.run(game, {**then.args, "card": move.card})
        return done

    def foresee_move(game: Game, args: Mapping[str, Any]) -> MoveResult | None:
        if judge is None or args.get("then") is not None:
            return None
        return judged(game, move_of(game, args), chosen(args["choose_zone"], game))

    def judged(game: Game, move: Move, entries: tuple[Chosen, ...]) -> MoveResult | None:
        """The verdict on ``move`` with these choices of zone (:func:`chosen`)."""
        assert judge is not None
        if entries:
            with game.choosing(entries):
                return game.foresee_move(move) if kernel else judge(game, move)
        # Most judgements have no choice of zone: nothing to enter.
        return game.foresee_move(move) if kernel else judge(game, move)

    if alike is not None and judge is not None:
        keyed = _keyed(alike, judged)
        return Action("move", MOVE_PARAMS, run, doc=doc, rules=rules, foresee=keyed)
    return Action("move", MOVE_PARAMS, run, doc=doc, rules=rules, foresee=foresee_move)


#: A verdict not yet kept.
_UNSEEN: Any = object()

#: What a move action's foresee asks once its move is made: the verdict of
#: the move, under the action's choice of zone.
_Judged = Callable[["Game", Move, tuple[Chosen, ...]], "MoveResult | None"]


def _keyed(alike: Alike, judged: _Judged) -> Callable[[Game, Mapping[str, Any]], Any]:
    """A move action's foresee that keeps each verdict of ``judged`` for the
    rest of the listing under its move's ``alike`` key (a refusal raises, and
    is judged again each time)."""
    # The listing's memo, the verdicts kept in it and the players' standing
    # choices of zone (the game stays as it is meanwhile), swapped as one.
    last: list[tuple[Any, dict[Hashable, MoveResult | None], tuple[Chosen, ...]]] = [(None, {}, ())]

    def foresee(game: Game, args: Mapping[str, Any]) -> MoveResult | None:
        if args.get("then") is not None:
            return None
        by, choose = args["by"], args["choose_zone"]
        if choose is not None:  # read by the move, not by alike: judged by itself
            return judged(game, _new_move(Move, move_fields(game, args)), chosen(choose, game))
        # move_fields, inlined for a move without a choice of zone: a listing
        # asks this of every candidate. Unpacked and packed again, not by a
        # starred display, which builds a list first.
        card, to, position, face, cause = _FIELDS(args)
        if by is None:
            by = game.turn_player
        fields = (card, to, position, face, cause, by, None, False)
        # judging(game), read straight (through its module: 3.11 calls a method
        # of a name imported by `from` as a bound method made at each call).
        held = legal.JUDGING.get()
        memo = held[1] if held is not None and held[0] is game else None
        key = None if memo is None else alike(game, fields, memo)
        if key is None:
            return judged(game, _new_move(Move, fields), standing(game))
        held, found, stand = last[0]
        if held is not memo:
            found = memo.setdefault(foresee, {})  # type: ignore[union-attr]
            stand = standing(game)
            last[0] = (memo, found, stand)
        result: MoveResult | None = found.get(key, _UNSEEN)
        if result is _UNSEEN:
            found[key] = result = judged(game, _new_move(Move, fields), stand)
        return result

    return foresee


def _shuffle(game: Game, args: Mapping[str, Any]) -> ActionResult:
    return ActionResult(game.shuffle(args["zone"], by=acting(game, args)))


def _foresee_shuffle(game: Game, args: Mapping[str, Any]) -> MoveResult | None:
    """A zone that exists is always shuffled."""
    return MoveResult.DONE if game.zone_exists(args["zone"]) else None


SHUFFLE = Action(
    "shuffle",
    (Param("zone", K.ZONE, required=True, role=Role.OWN_ZONE, doc="the zone to shuffle"), BY),
    _shuffle,
    doc="Shuffle a zone; its private objects become new objects.",
    foresee=_foresee_shuffle,
)


def _flip(game: Game, args: Mapping[str, Any]) -> ActionResult:
    return ActionResult(game.flip(args["card"], args["face"], by=acting(game, args)))


FLIP = Action(
    "flip",
    (
        Param("card", K.CARD, required=True, doc="the card to turn"),
        Param("face", K.CHOICE, required=True, options=("up", "down"), doc="up or down"),
        BY,
    ),
    _flip,
    doc="Make an object public or private where it is; public to private resets it.",
    foresee=lambda game, args: game.foresee_flip(args["card"], args["face"]),
)


def _done(game: Game, args: Mapping[str, Any]) -> MoveResult:
    """An effect on an existing card's object is always made."""
    game.obj(args["card"])  # refused, as the action is, for a card that does not exist
    return MoveResult.DONE


#: The log entry of a change of stats: every viewer reads it.
MODIFIED = "modified"


def _modified(game: Game, card: int, mods: Sequence[tuple[str, int]], until: Any) -> str:
    """A change of stats in words for the log, which every viewer reads: the
    card by name when it is public, else by its zone alone (3.0.7a)."""
    obj = game.obj(card)
    owner = obj.controller or obj.owner
    if obj.public:
        label = f"{owner}'s {obj.cdef.name}" if owner else obj.cdef.name
    else:
        label = f"a card in {game.zone_name(obj.zone)}"
    changes = ", ".join(f"{value:+d} {name.replace('_', ' ')}" for name, value in mods)
    lasting = f" until {str(until).replace('_', ' ')}" if until is not None else ""
    return f"{label} gets {changes}{lasting}"


def modify_action(stats: Sequence[str]) -> Action:
    """``modify``: a change to the numeric properties ``stats`` of the card's
    current object, which ends when it becomes a new object (3.0.9)."""
    stats = tuple(stats)

    def run(game: Game, args: Mapping[str, Any]) -> ActionResult:
        mods = [(k, args[k]) for k in stats if args[k] is not None]
        with game.atomic():
            eid = game.add_effect(args["card"], "modify", mods=mods, until=args["until"])
            note = _modified(game, args["card"], mods, args["until"])
            game.log_event(MODIFIED, note, by=acting(game, args))
        return ActionResult(MoveResult.DONE, effect=EffectRef(eid))

    params = (
        Param("card", K.CARD, required=True, doc="the card whose object it changes"),
        *(Param(s, K.DELTA, doc=f"added to {s}") for s in stats),
        UNTIL,
        BY,
    )
    return Action(
        "modify",
        params,
        run,
        doc="Change numeric properties of the card's current object.",
        one_of=(OneOf(stats),),
        foresee=_done,
    )


def _grant(game: Game, args: Mapping[str, Any]) -> ActionResult:
    with game.atomic():
        eid = game.add_effect(
            args["card"], "grant", keywords=[args["keyword"]], until=args["until"]
        )
    return ActionResult(MoveResult.DONE, effect=EffectRef(eid))


GRANT = Action(
    "grant",
    (
        Param("card", K.CARD, required=True, doc="the card whose object gains it"),
        Param("keyword", K.WORD, required=True, doc="the keyword, such as go_again"),
        UNTIL,
        BY,
    ),
    _grant,
    doc="Give the card's current object a keyword.",
    foresee=_done,
    # A keyword comes from a card's effect (an activated ability giving an
    # attack go again, 3.0.9's example), and the engine carries no card's
    # effect text: giving one by hand is setting the table right, a judge's
    # correction rather than a move of the game.
    judge=True,
)


class _Stopped(CardzonesError):
    """A step of a compound action did not happen: roll the whole back."""

    def __init__(self, done: ActionResult) -> None:
        super().__init__(done.result.value)
        self.done = done


def draw_action(
    move: Action,
    *,
    source: str = "deck",
    to: str = "hand",
    rules: tuple[str, ...] = (),
) -> Action:
    """``draw``: the shorthand for ``count`` moves of the top card of the
    player's ``source`` zone to their ``to`` zone, each made by ``move`` (the
    rule set's own) with ``by:`` the player, so it logs exactly the events
    those moves log. It is one action: refused when the zone holds fewer
    cards than ``count``, and when a move does not happen (it fails, 3.0.11)
    none does and the draw gives that result.

    >>> from cardzones import new_game
    >>> game = new_game("fab", ["alice", "bob"])
    >>> deck = game.zone("alice", "deck")
    >>> for name in ("A", "B", "C"):
    ...     _ = game.new_card(game.card_def(name), deck, position="bottom")
    >>> draw = game.ruleset.actions["draw"]
    >>> draw.run(game, {"player": "alice", "count": 2}).result.value
    'moved'
    >>> [game.obj(c).name for c in game.contents(game.zone("alice", "hand"))]
    ['A', 'B']
    """

    def checked(game: Game, args: Mapping[str, Any]) -> tuple[str, int]:
        """Who draws, from which zone; refused when it holds too few cards."""
        # The player who draws; by default the one doing it.
        player = args["player"] if args["player"] is not None else acting(game, args)
        count = args["count"]
        if count < 1:
            raise ArgumentError("count must be 1 or more", ("count",))
        zid = game.zone(player, source)
        held = len(game.contents(zid)) if zid is not None else 0
        if held < count:
            raise IllegalAction(
                f"{player}'s {source} has {held} card(s): {player} cannot draw {count}"
            )
        assert zid is not None
        return player, zid

    def foresee(game: Game, args: Mapping[str, Any]) -> MoveResult | None:
        """One card: what its move gives (``move``'s own judge); several are
        moved one after the other, and only drawing tells."""
        player, zid = checked(game, args)
        if args["count"] != 1 or move.foresee is None:
            return None
        top = game.contents(zid)[0]
        return move.foresee(
            game, complete(move, {"card": top, "to": Dest(to, player), "by": player})
        )

    def run(game: Game, args: Mapping[str, Any]) -> ActionResult:
        player, zid = checked(game, args)
        count = args["count"]
        try:
            with game.atomic():
                for _ in range(count):
                    top = game.contents(zid)[0]
                    done = move.run(
                        game, complete(move, {"card": top, "to": Dest(to, player), "by": player})
                    )
                    if done.result is not MoveResult.MOVED:
                        raise _Stopped(done)
        except _Stopped as stopped:
            return ActionResult(stopped.done.result)
        return ActionResult(MoveResult.MOVED)

    return Action(
        "draw",
        (
            Param("player", K.PLAYER, doc="the player who draws (default: the turn player)"),
            Param("count", K.INT, default=1, doc="how many cards, one at a time from the top"),
            Param("by", K.PLAYER, doc="the player doing it, who draws unless player says"),
        ),
        run,
        doc=f"Draw: move the top card of the player's {source} to their {to}, count times; "
        f"the same events as those moves.",
        rules=rules,
        actor="player",
        foresee=foresee,
    )


#: The choices of zone for the moves an action makes (3.0.10a): one zone for
#: every card it fits, or by player or card (:mod:`cardzones.acts.zone_choices`).
CHOOSE_ZONES = Param(
    "choose_zone",
    K.ZONE_CHOICE,
    doc="where a card the action moves goes, when its owner has several zones of the type: "
    "a zone, or by player or card (3.0.10a)",
)


def _end_turn(game: Game, args: Mapping[str, Any]) -> ActionResult:
    with choices(game, args["choose_zone"]):
        return ActionResult(game.end_turn(args["order"] or ()))


END_TURN = Action(
    "end_turn",
    (
        Param(
            "order",
            K.CARDS,
            doc="cards the end of turn moves, as they will lie, top first (a hidden choice)",
        ),
        BY,
        CHOOSE_ZONES,
    ),
    _end_turn,
    doc='End the turn: the end-of-turn procedure, "this turn" effects end, the next turn begins.',
    actor=None,
    turn_player=True,
)
