"""Action tables: what a player or a script may ask a rule set to do, as data.

Each rule set has one table (:attr:`Ruleset.actions
<cardzones.rulesets.base.Ruleset.actions>`), a mapping from action names to
:class:`Action` records. An action lists its typed parameters
(:class:`Param`) and holds the function that does it. Everything that runs
actions reads the same table: the scenario runner, the command line
(``cardzones actions``), legal actions and a table server. None of them keeps
a list of actions of its own.

Arguments arrive as plain data (YAML, JSON) and are checked and resolved by
one pass, :func:`~cardzones.acts.binding.bind`, which also checks the seat
policy where a player acts for themselves (:mod:`cardzones.acts.seats`). A bad
argument raises :class:`ArgumentError`, which carries the path of the
offending key.

>>> from cardzones.acts.binding import bind
>>> from cardzones.kernel.results import ActionResult
>>> def run_knock(game, args):
...     return ActionResult(MoveResult.DONE)
>>> knock = Action(
...     "knock",
...     (Param("times", ParamKind.INT, required=True, doc="how many knocks"),),
...     run_knock,
...     actor=None,
... )
>>> bind(knock, {"times": 3}, None)
{'times': 3}
>>> try:
...     bind(knock, {"times": "x"}, None)
... except ArgumentError as exc:
...     print(exc.path, exc.message)
('times',) times must be a whole number, not 'x'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from cardzones.errors import CardzonesError
from cardzones.kernel.results import ActionResult as ActionResult  # what an action did
from cardzones.kernel.results import MoveResult

if TYPE_CHECKING:
    from cardzones.acts.menu_words import MenuWords
    from cardzones.kernel.game import Game

#: A step of a path to an argument: a key of a mapping, or an index of a list.
PathStep = str | int


class ParamKind(StrEnum):
    """The kinds of value a parameter takes, and what the binder makes of each."""

    CARD = "card"  #: a card -> its card id
    CARDS = "cards"  #: a list of distinct cards (or one) -> a tuple of card ids
    ZONE = "zone"  #: an existing zone -> its zone id
    #: a zone -> its zone id, or a mapping from a player or a card to a zone (or
    #: a list of zones) -> a :class:`~cardzones.acts.zone_choices.ZoneChoices`
    ZONE_CHOICE = "zone_choice"
    DEST = "dest"  #: a destination as the rules name it -> a Dest (it may not exist now)
    ZONE_NAME = "zone_name"  #: a player's zone by type (and number) -> a Dest with that owner
    PLAYER = "player"  #: a player's name
    INT = "int"  #: a whole number
    DELTA = "delta"  #: a change such as +2 or -1 -> an int
    BOOL = "bool"  #: true or false
    CHOICE = "choice"  #: one of the param's ``options``
    POSITION = "position"  #: top, bottom or an index from the top (0 or more)
    NAME = "name"  #: a card name -> the CardDef it names
    WORD = "word"  #: one word -> lower case, without surrounding spaces
    #: a list of words (or one) -> a tuple, lower case, spaces as underscores;
    #: with ``options``, each word is one of them
    WORDS = "words"
    #: text as written, such as a card's rules text -> str, at most MAX_TEXT characters
    TEXT = "text"
    EFFECT = "effect"  #: an effect label -> the handle an earlier action returned
    ACTION = "action"  #: a nested action on this action's card, without its card -> BoundAction
    MAPPING = "mapping"  #: nested parameters (``fields``) -> a dict


#: The longest a TEXT argument may be (a card's rules text fits many times).
MAX_TEXT = 4000


class Role(StrEnum):
    """What a parameter is to the player who takes the action, beyond the kind
    of value it takes: what a host that lets each player act only for
    themselves (a table server) reads to decide what a player may send.
    Scenarios and scripts act for every player, and the binder ignores roles.

    A card parameter (CARD, CARDS) is ``ACTS_ON`` unless it says otherwise,
    so that an action of a new rule set is as strict as can be until its
    author says that a card is a target.
    """

    #: a card the actor acts on: one it controls, or owns when the card has no
    #: controller (outside the arena and the stack, 1.2.1b)
    ACTS_ON = "acts_on"
    #: a card the action targets where the rules let a player reach anyone's
    #: cards: the rules decide which they accept
    TARGET = "target"
    #: a zone (ZONE, ZONE_NAME) that must be the actor's own
    OWN_ZONE = "own_zone"
    #: a player (PLAYER) the actor may name freely: as the action's actor, it
    #: is the acting player when left out, but may name another (the
    #: controller of a new token)
    ANY_PLAYER = "any_player"


#: The kinds each role applies to.
ROLE_KINDS: Mapping[Role, frozenset[ParamKind]] = MappingProxyType(
    {
        Role.ACTS_ON: frozenset({ParamKind.CARD, ParamKind.CARDS}),
        Role.TARGET: frozenset({ParamKind.CARD, ParamKind.CARDS}),
        Role.OWN_ZONE: frozenset({ParamKind.ZONE, ParamKind.ZONE_NAME}),
        Role.ANY_PLAYER: frozenset({ParamKind.PLAYER}),
    }
)


@dataclass(frozen=True, slots=True)
class OneOf:
    """At least one of ``names`` must be given, or with ``exactly`` exactly one."""

    names: tuple[str, ...]
    exactly: bool = False


#: The numbers a number parameter takes unless it declares its own
#: ``bounds``: far beyond any printed card, and far below what would make a
#: card's stats grow past printing however long a game goes on.
NUMBER_BOUNDS = (-9_999, 9_999)
#: The positions from the top a POSITION parameter takes.
POSITION_BOUNDS = (0, 9_999)
#: The kinds that take a number, each with the bounds it has by default.
NUMBER_KINDS: Mapping[ParamKind, tuple[int, int]] = MappingProxyType(
    {
        ParamKind.INT: NUMBER_BOUNDS,
        ParamKind.DELTA: NUMBER_BOUNDS,
        ParamKind.POSITION: POSITION_BOUNDS,
    }
)


#: The longest string each kind that takes one accepts, unless a parameter
#: declares its own ``max_chars``: what arrives from a stranger is stored
#: and shown to every seat, so no string is unbounded. Far beyond any card
#: reference, zone, name or keyword of the installed rule sets.
STRING_CHARS: Mapping[ParamKind, int] = MappingProxyType(
    {
        ParamKind.CARD: 200,
        ParamKind.CARDS: 200,
        ParamKind.ZONE: 200,
        ParamKind.DEST: 200,
        ParamKind.ZONE_NAME: 200,
        ParamKind.PLAYER: 64,
        ParamKind.NAME: 200,
        ParamKind.WORD: 64,
        ParamKind.WORDS: 64,
        ParamKind.TEXT: MAX_TEXT,
        ParamKind.EFFECT: 64,
        # a zone's name, or in the mapping form each player's or card's
        # name and each zone named
        ParamKind.ZONE_CHOICE: 200,
    }
)
#: The most entries each kind that takes a list accepts, unless a parameter
#: declares its own ``max_items``.
LIST_ITEMS: Mapping[ParamKind, int] = MappingProxyType(
    # a choice of zone's mapping holds an entry for each owner or card
    {ParamKind.CARDS: 5_000, ParamKind.WORDS: 32, ParamKind.ZONE_CHOICE: 5_000}
)


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of an action (or one field of a MAPPING parameter).

    ``default`` is the value when the parameter is left out (None for most
    kinds). ``options`` are the values of a CHOICE, or the words a WORDS
    parameter may hold (any word, when there are none). ``fields`` and ``one_of``
    describe the nested parameters of a MAPPING. ``role`` says what the
    parameter is to the acting player (:class:`Role`); a card parameter is
    ``Role.ACTS_ON`` unless it is given another. ``bounds`` are the lowest
    and highest number a number parameter (INT, DELTA, POSITION) takes; one
    that declares none takes :data:`NUMBER_BOUNDS` (:data:`POSITION_BOUNDS`),
    and the binder refuses any other number. ``max_chars`` is the longest
    string a parameter takes (each one, for a list), :data:`STRING_CHARS`
    unless it declares its own; ``max_items`` the most entries of a list
    (:data:`LIST_ITEMS`). ``card_types`` (CARD, CARDS) are the types of card
    the parameter is for, when it is for some alone (the source of an
    ability: an enhancement): a client acting from a card's menu fills this
    parameter with the card when the card has one of them, and offers only
    such cards for it. The binder does not check them: the rules decide.

    >>> Param("keywords", ParamKind.WORDS).to_json()["max_chars"]
    64
    >>> Param("layer", ParamKind.INT, bounds=(1, 99)).bounds
    (1, 99)
    >>> Param("power", ParamKind.DELTA).bounds
    (-9999, 9999)
    >>> Param("card", ParamKind.CARD).role
    <Role.ACTS_ON: 'acts_on'>
    >>> Param("onto", ParamKind.CARD, role=Role.TARGET).role
    <Role.TARGET: 'target'>
    >>> Param("source", ParamKind.CARD, card_types=("enhancement",)).to_json()["card_types"]
    ['enhancement']
    >>> Param("count", ParamKind.INT, card_types=("enhancement",))
    Traceback (most recent call last):
    ...
    ValueError: parameter 'count': card_types are for cards, not int
    """

    name: str
    kind: ParamKind
    required: bool = False
    default: Any = None
    options: tuple[Any, ...] = ()
    fields: tuple[Param, ...] = ()
    doc: str = ""
    one_of: tuple[OneOf, ...] = ()
    role: Role | None = None
    bounds: tuple[int, int] | None = None
    max_chars: int | None = None
    max_items: int | None = None
    card_types: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.card_types and self.kind not in ROLE_KINDS[Role.ACTS_ON]:
            raise ValueError(f"parameter {self.name!r}: card_types are for cards, not {self.kind}")
        for attr, kinds in (("max_chars", STRING_CHARS), ("max_items", LIST_ITEMS)):
            if getattr(self, attr) is None:
                object.__setattr__(self, attr, kinds.get(self.kind))
            elif self.kind not in kinds:
                raise ValueError(f"parameter {self.name!r}: {attr} is not for {self.kind}")
        if self.kind in NUMBER_KINDS:
            if self.bounds is None:
                object.__setattr__(self, "bounds", NUMBER_KINDS[self.kind])
        elif self.bounds is not None:
            raise ValueError(f"parameter {self.name!r}: bounds are for numbers, not {self.kind}")
        if self.role is None and self.kind in ROLE_KINDS[Role.ACTS_ON]:
            object.__setattr__(self, "role", Role.ACTS_ON)
        elif self.role is not None and self.kind not in ROLE_KINDS[self.role]:
            allowed = " or ".join(sorted(k.name for k in ROLE_KINDS[self.role]))
            raise ValueError(f"parameter {self.name!r}: the role {self.role} is for {allowed}")

    def to_json(self) -> dict[str, Any]:
        """The parameter as JSON-ready data, for clients and documentation."""
        out: dict[str, Any] = {"name": self.name, "kind": str(self.kind)}
        if self.required:
            out["required"] = True
        if self.default is not None:
            out["default"] = list(self.default) if isinstance(self.default, tuple) else self.default
        if self.options:
            out["options"] = list(self.options)
        if self.fields:
            out["fields"] = [f.to_json() for f in self.fields]
        if self.one_of:
            out["one_of"] = [_one_of_json(g) for g in self.one_of]
        if self.role is not None:
            out["role"] = str(self.role)
        if self.bounds is not None:
            out["min"], out["max"] = self.bounds
        if self.max_chars is not None:
            out["max_chars"] = self.max_chars
        if self.max_items is not None:
            out["max_items"] = self.max_items
        if self.card_types:
            out["card_types"] = list(self.card_types)
        if self.doc:
            out["doc"] = self.doc
        return out


def oversized(param: Param, value: Any) -> str | None:
    """Why ``value`` is too large for ``param`` (a string over its
    ``max_chars``, a list over its ``max_items`` or holding such a string),
    or None; checked before anything else is made of it.

    >>> oversized(Param("keywords", ParamKind.WORDS), ["go_again", "x" * 65])
    'keywords holds strings of at most 64 characters (one has 65)'
    """
    limit = param.max_chars
    if isinstance(value, str):
        if limit is not None and len(value) > limit:
            return f"{param.name} is at most {limit} characters (this one has {len(value)})"
        return None
    if isinstance(value, Mapping):
        # a mapping's keys and values (a value may be a list), all counted
        strings = [
            v
            for key, item in value.items()
            for v in (key, *(item if isinstance(item, list | tuple) else (item,)))
        ]
    elif isinstance(value, list | tuple):
        strings = list(value)
    else:
        return None
    if param.max_items is not None and len(value) > param.max_items:
        return f"{param.name} holds at most {param.max_items} entries (it has {len(value)})"
    longest = max((len(v) for v in strings if isinstance(v, str)), default=0)
    if limit is not None and longest > limit:
        return f"{param.name} holds strings of at most {limit} characters (one has {longest})"
    return None


def _one_of_json(group: OneOf) -> dict[str, Any]:
    return {"names": list(group.names), "exactly": group.exactly}


#: The card an action was to create and did not (a token that failed): a
#: label on it names a card that does not exist.
NO_CARD = -1

Run = Callable[["Game", Mapping[str, Any]], ActionResult]
Candidates = Callable[["Game", str], Iterable[Mapping[str, Any]]]
#: What an action would give with these arguments (as ``run`` takes them),
#: judged from the rules without taking it: a result, or None when only
#: taking it can tell. Refused, it raises as ``run`` would.
Foresee = Callable[["Game", Mapping[str, Any]], MoveResult | None]
#: Whether the rule set offers the acting player the action with these
#: arguments (as ``run`` takes them, the actor filled in) now: False for what
#: the game's timing makes senseless although the rules of the zones accept
#: it (fab's defense reaction while no attack is defended). Legal actions
#: leave out what is not offered; the action itself still accepts it.
Offer = Callable[["Game", Mapping[str, Any]], bool]


@dataclass(frozen=True, slots=True)
class Action:
    """One action of a rule set: its name, parameters and the function that
    does it.

    ``run(game, args)`` takes the arguments :func:`bind` resolved (every
    parameter is in ``args``, a left-out one with its default) and is one
    action: refused, it raises :class:`~cardzones.errors.IllegalAction` and
    changes nothing. ``rules`` are the rule ids it implements. ``actor`` names
    the parameter that says which player acts (by default the turn player),
    or is None when no player acts. ``bare`` names the parameter that a bare
    value fills (``phase: upkeep``). ``candidates(game, player)``, when given,
    lists arguments the player could give now; ``one_of`` lists groups of
    parameters of which one must be given. ``turn_player`` says that only the
    turn player takes the action where players act for themselves (a table):
    ending the turn, moving it through its phases, resolving the stack.
    Together with the parameters' roles (:class:`Role`) it is what such a
    host reads to decide what a player may do. ``foresee(game, args)``, when
    given, says what ``run`` would give without running it (:data:`Foresee`),
    so that legal actions are listed from the rules and only what it cannot
    decide is tried.

    ``judge`` marks an administrative action: a judge's or an
    administrator's correction of the table (making a zone, clearing an
    object by hand), not a move of the game a player makes. Legal actions
    leave it out of what a player is offered unless asked for by name or
    with ``judge=True``, and a board lists it in a menu of its own; taken,
    it is checked by the same rules as any other. ``offer(game, args)``,
    when given, says whether the rule set offers the player the action with
    those arguments now (:data:`Offer`): legal actions list only what it
    offers, and ``run`` still accepts what the rules allow. ``menu`` is how a
    board's menus say it, in its game's words
    (:class:`~cardzones.acts.menu_words.MenuWords`).

    ``distinct`` says that ``candidates`` never gives two candidates whose
    arguments, completed with the defaults and the actor, are equal (one
    per card and destination, say): legal actions then need not look for
    repeats among them. Listing every candidate by trying it
    (:func:`~cardzones.acts.legal.tried_legal_actions`) still looks, so the
    tests hold the two lists equal.

    >>> from cardzones.acts.standard import GRANT, FLIP
    >>> GRANT.judge, FLIP.judge
    (True, False)
    """

    name: str
    params: tuple[Param, ...]
    run: Run
    doc: str = ""
    rules: tuple[str, ...] = ()
    actor: str | None = "by"
    bare: str | None = None
    candidates: Candidates | None = None
    one_of: tuple[OneOf, ...] = ()
    turn_player: bool = False
    foresee: Foresee | None = None
    judge: bool = False
    offer: Offer | None = None
    menu: MenuWords | None = None
    distinct: bool = False

    def __post_init__(self) -> None:
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"action {self.name!r} names a parameter twice")
        for special in (self.actor, self.bare):
            if special is not None and special not in names:
                raise ValueError(f"action {self.name!r} has no parameter {special!r}")
        if self.actor is not None and self.param(self.actor).kind is not ParamKind.PLAYER:
            raise ValueError(f"the actor of {self.name!r} must be a PLAYER parameter")
        for p in self.params:
            if p.kind is ParamKind.PLAYER and p.role is not None and p.name != self.actor:
                raise ValueError(f"{self.name!r}: only the actor parameter takes a player role")
        for group in self.one_of:
            for name in group.names:
                if name not in names:
                    raise ValueError(f"action {self.name!r} has no parameter {name!r}")

    def param(self, name: str) -> Param:
        """The parameter called ``name``."""
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """The action as JSON-ready data (all but its functions), for clients
        and documentation.

        >>> from cardzones.acts.standard import FLIP
        >>> FLIP.to_json()["params"][1]["options"]
        ['up', 'down']
        """
        out: dict[str, Any] = {
            "name": self.name,
            "params": [p.to_json() for p in self.params],
            "actor": self.actor,
        }
        if self.bare is not None:
            out["bare"] = self.bare
        if self.one_of:
            out["one_of"] = [_one_of_json(g) for g in self.one_of]
        if self.turn_player:
            out["turn_player"] = True
        if self.judge:
            out["judge"] = True
        if self.rules:
            out["rules"] = list(self.rules)
        if self.doc:
            out["doc"] = self.doc
        if self.menu is not None:
            out["menu"] = self.menu.to_json()
        return out


#: A rule set's actions by name (:func:`action_table` makes one).
ActionTable = Mapping[str, Action]


def action_table(*actions: Action) -> ActionTable:
    """A read-only table of ``actions`` by name; a later action of the same
    name replaces an earlier one, so a rule set can take a shared table and
    put its own variant of an action in it.

    >>> from cardzones.acts.standard import END_TURN, SHUFFLE
    >>> sorted(action_table(SHUFFLE, END_TURN))
    ['end_turn', 'shuffle']
    """
    return MappingProxyType({a.name: a for a in actions})


#: The table of a rule set without actions.
NO_ACTIONS: ActionTable = MappingProxyType({})


class BoundAction(NamedTuple):
    """A nested action (ParamKind.ACTION) with its resolved arguments, all but
    the card it acts on, which the enclosing action gives."""

    action: Action
    args: Mapping[str, Any]


class ArgumentError(CardzonesError):
    """An argument is missing, unknown or not of its kind. ``path`` leads to
    the offending key from the action's arguments, such as
    ``("ongoing", "card")`` or ``("cards", 2)``; it is empty when the
    arguments as a whole are wrong."""

    def __init__(self, message: str, path: Sequence[PathStep] = ()) -> None:
        self.message = message
        self.path = tuple(path)
        super().__init__(message)

    def under(self, path: Sequence[PathStep]) -> ArgumentError:
        """The same error (of the same class), with ``path`` put in front of
        its own."""
        return type(self)(self.message, (*path, *self.path))


def table_of(game: Game) -> ActionTable:
    """The action table of the game's rule set: its ``actions``
    (:attr:`Ruleset.actions <cardzones.rulesets.base.Ruleset.actions>`), or
    none for a rule set that has no actions."""
    table = getattr(game.ruleset, "actions", None)
    if table.__class__ is MappingProxyType:  # action_table's, at once
        return table
    return table if isinstance(table, Mapping) else NO_ACTIONS


def acting(game: Game, args: Mapping[str, Any], name: str = "by") -> str:
    """The acting player an action was given, or the turn player."""
    player: str | None = args.get(name)
    return player if player is not None else game.turn_player
