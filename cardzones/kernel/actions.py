"""Action tables: what a player or a script may ask a rule set to do, as data.

Each rule set has one table (:attr:`Ruleset.actions
<cardzones.kernel.ruleset.Ruleset.actions>`), a mapping from action names to
:class:`Action` records. An action lists its typed parameters
(:class:`Param`) and holds the function that does it. Everything that runs
actions reads the same table: the scenario runner, the command line
(``cardzones actions``) and a table server. None of them keeps a list of
actions of its own.

Arguments arrive as plain data (YAML, JSON) and are checked and resolved by
one generic binder, :func:`bind`. It checks keys, required parameters and
scalar kinds itself, and asks a :class:`Resolver` for whatever names game
things (cards, zones, players, card names, effect labels): the scenario layer
has a resolver for ``$label`` and ``NAME@ZONE``, and a server one for view
handles. A bad argument raises :class:`ArgumentError`, which carries the path
of the offending key.

>>> from cardzones.kernel.results import MoveResult
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

import difflib
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from cardzones.errors import CardzonesError
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.results import MoveResult

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: A step of a path to an argument: a key of a mapping, or an index of a list.
PathStep = str | int


class ParamKind(StrEnum):
    """The kinds of value a parameter takes, and what the binder makes of each."""

    CARD = "card"  #: a card -> its card id
    CARDS = "cards"  #: a list of distinct cards (or one) -> a tuple of card ids
    ZONE = "zone"  #: an existing zone -> its zone id
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
    EFFECT = "effect"  #: an effect label -> the handle an earlier action returned
    ACTION = "action"  #: a nested action on this action's card, without its card -> BoundAction
    MAPPING = "mapping"  #: nested parameters (``fields``) -> a dict


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


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of an action (or one field of a MAPPING parameter).

    ``default`` is the value when the parameter is left out (None for most
    kinds). ``options`` are the values of a CHOICE, or the words a WORDS
    parameter may hold (any word, when there are none). ``fields`` and ``one_of``
    describe the nested parameters of a MAPPING. ``role`` says what the
    parameter is to the acting player (:class:`Role`); a card parameter is
    ``Role.ACTS_ON`` unless it is given another.

    >>> Param("card", ParamKind.CARD).role
    <Role.ACTS_ON: 'acts_on'>
    >>> Param("onto", ParamKind.CARD, role=Role.TARGET).role
    <Role.TARGET: 'target'>
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

    def __post_init__(self) -> None:
        if self.role is None and self.kind in ROLE_KINDS[Role.ACTS_ON]:
            object.__setattr__(self, "role", Role.ACTS_ON)
        elif self.role is not None and self.kind not in ROLE_KINDS[self.role]:
            kinds = " or ".join(sorted(k.name for k in ROLE_KINDS[self.role]))
            raise ValueError(f"parameter {self.name!r}: the role {self.role} is for {kinds}")

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
        if self.doc:
            out["doc"] = self.doc
        return out


def _one_of_json(group: OneOf) -> dict[str, Any]:
    return {"names": list(group.names), "exactly": group.exactly}


class ActionResult(NamedTuple):
    """What an action did: its :class:`MoveResult`, the card it created or
    named (a token, a layer) and the handle of the effect it created (for
    ``negate`` and effect expectations), for ``as:`` labels."""

    result: MoveResult
    card: int | None = None
    effect: Any = None


#: The card an action was to create and did not (a token that failed): a
#: label on it names a card that does not exist.
NO_CARD = -1

Run = Callable[["Game", Mapping[str, Any]], ActionResult]
Candidates = Callable[["Game", str], Iterable[Mapping[str, Any]]]


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
    host reads to decide what a player may do.
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

        >>> from cardzones.kernel.standard import FLIP
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
        if self.rules:
            out["rules"] = list(self.rules)
        if self.doc:
            out["doc"] = self.doc
        return out


#: A rule set's actions by name (:func:`action_table` makes one).
ActionTable = Mapping[str, Action]


def action_table(*actions: Action) -> ActionTable:
    """A read-only table of ``actions`` by name; a later action of the same
    name replaces an earlier one, so a rule set can take a shared table and
    put its own variant of an action in it.

    >>> from cardzones.kernel.standard import END_TURN, SHUFFLE
    >>> sorted(action_table(SHUFFLE, END_TURN))
    ['end_turn', 'shuffle']
    """
    return MappingProxyType({a.name: a for a in actions})


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


class Resolver(Protocol):
    """Turns references in raw arguments into game values, for :func:`bind`.

    Each method raises :class:`ArgumentError` (with an empty path: the binder
    adds it) when the value names nothing.
    """

    def card(self, value: Any) -> int:
        """The card id of a card reference."""

    def zone(self, value: Any) -> int:
        """The zone id of a reference to a zone that exists."""

    def dest(self, value: Any) -> Dest:
        """A destination as the rules name it; it need not exist now."""

    def zone_name(self, value: Any) -> Dest:
        """A player's zone named by owner and type (and number), which need not exist."""

    def player(self, value: Any) -> str:
        """A player's name."""

    def card_def(self, name: str) -> CardDef:
        """The card a card name names."""

    def effect(self, label: Any) -> Any:
        """The effect handle an earlier action returned for that label."""


def bind(
    action: Action,
    raw: Any,
    resolver: Resolver | None,
    *,
    table: ActionTable | None = None,
    reserved: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """Check ``raw``, the arguments of ``action`` as plain data, and resolve
    them: a dict with every parameter of the action.

    ``reserved`` are keys the caller handles itself (the scenario layer's
    ``result``, ``error`` and ``as``): they are allowed and left out.
    ``table`` is needed for a nested action (ParamKind.ACTION). Raises
    :class:`ArgumentError` with the path of the first bad key.
    """
    return _bind(
        action.name, action.params, action.one_of, raw, resolver, table, reserved, frozenset()
    )


def bind_fields(
    what: str,
    params: Sequence[Param],
    raw: Any,
    resolver: Resolver | None = None,
    *,
    reserved: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """:func:`bind` for a list of parameters that is not an action, such as the
    fields of a rule set's card data; ``what`` names it in messages."""
    return _bind(what, tuple(params), (), raw, resolver, None, reserved, frozenset())


def _bind(
    what: str,
    params: tuple[Param, ...],
    one_of: tuple[OneOf, ...],
    raw: Any,
    resolver: Resolver | None,
    table: ActionTable | None,
    reserved: frozenset[str],
    skip: frozenset[str],
) -> dict[str, Any]:
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise ArgumentError(f"{what} takes a mapping of its arguments, not {raw!r}")
    names = {p.name for p in params}
    for key in raw:
        if key not in names and key not in reserved:
            allowed = ", ".join(sorted((names - skip) | reserved))
            raise ArgumentError(f"unknown key {key!r} in {what}; allowed: {allowed}", (key,))
    for group in one_of:
        given = [n for n in group.names if n in raw]
        listed = ", ".join(group.names)
        if group.exactly and len(given) != 1:
            both = " and ".join(f"{n}:" for n in group.names)
            raise ArgumentError(f"{what} takes exactly one of {both}", tuple(given[1:2]))
        if not given:
            raise ArgumentError(f"{what} needs at least one of {listed}")
    out: dict[str, Any] = {}
    for param in params:
        name = param.name
        if name in skip:
            continue
        if name not in raw:
            if param.required:
                choices = f" ({' or '.join(map(str, param.options))})" if param.options else ""
                raise ArgumentError(f"{what} needs {name}:{choices}", (name,))
            out[name] = param.default
            continue
        out[name] = _value(param, raw[name], resolver, table, reserved, (name,))
    return out


def _ask(ask: Callable[[Any], Any], value: Any, path: tuple[PathStep, ...]) -> Any:
    try:
        return ask(value)
    except ArgumentError as exc:
        raise exc.under(path) from None


def _need(resolver: Resolver | None, param: Param) -> Resolver:
    if resolver is None:
        raise ArgumentError(f"{param.name}: nothing here can resolve a {param.kind} value")
    return resolver


def _value(
    param: Param,
    value: Any,
    resolver: Resolver | None,
    table: ActionTable | None,
    reserved: frozenset[str],
    path: tuple[PathStep, ...],
) -> Any:
    kind = param.kind
    name = param.name
    if kind is ParamKind.INT:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ArgumentError(f"{name} must be a whole number, not {value!r}", path)
        return value
    if kind is ParamKind.DELTA:
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass
        if isinstance(value, bool) or not isinstance(value, int):
            raise ArgumentError(f"{name} must be a number such as +2 or -1, not {value!r}", path)
        return value
    if kind is ParamKind.BOOL:
        if not isinstance(value, bool):
            raise ArgumentError(f"{name} is true or false, not {value!r}", path)
        return value
    if kind is ParamKind.CHOICE:
        if not _hashable(value) or value not in param.options:
            options = ", ".join(map(str, param.options))
            raise ArgumentError(
                f"{name} is one of {options}, not {value!r}{_did_you_mean(value, param.options)}",
                path,
            )
        return value
    if kind is ParamKind.POSITION:
        if value in ("top", "bottom"):
            return value
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ArgumentError(
                f"{name} is top, bottom or an index from the top (0 or more), not {value!r}", path
            )
        return value
    if kind is ParamKind.WORD:
        if not isinstance(value, str) or not value.strip():
            raise ArgumentError(f"{name} must be a word such as go_again, not {value!r}", path)
        return value.strip().lower()
    if kind is ParamKind.WORDS:
        words = [value] if isinstance(value, str) else value
        if not isinstance(words, list | tuple) or not all(isinstance(w, str) and w for w in words):
            raise ArgumentError(f"{name} must be a list of words, not {value!r}", path)
        out = tuple(w.strip().lower().replace(" ", "_") for w in words)
        for word in out:
            if param.options and word not in param.options:
                options = ", ".join(map(str, param.options))
                raise ArgumentError(
                    f"{name} is one or more of {options}, not {word!r}"
                    f"{_did_you_mean(word, param.options)}",
                    path,
                )
        return out
    if kind is ParamKind.CARD:
        return _ask(_need(resolver, param).card, value, path)
    if kind is ParamKind.CARDS:
        return _cards(param, value, _need(resolver, param), path)
    if kind is ParamKind.ZONE:
        return _ask(_need(resolver, param).zone, value, path)
    if kind is ParamKind.DEST:
        return _ask(_need(resolver, param).dest, value, path)
    if kind is ParamKind.ZONE_NAME:
        return _ask(_need(resolver, param).zone_name, value, path)
    if kind is ParamKind.PLAYER:
        return _ask(_need(resolver, param).player, value, path)
    if kind is ParamKind.NAME:
        if not isinstance(value, str) or not value.strip():
            raise ArgumentError(f"{name}: is a card's name, not {value!r}", path)
        return _ask(_need(resolver, param).card_def, value, path)
    if kind is ParamKind.EFFECT:
        return _ask(_need(resolver, param).effect, value, path)
    if kind is ParamKind.MAPPING:
        if value is not None and not isinstance(value, Mapping):
            raise ArgumentError(f"{name} takes a mapping, not {value!r}", path)
        try:
            return _bind(
                name, param.fields, param.one_of, value, resolver, None, frozenset(), frozenset()
            )
        except ArgumentError as exc:
            raise exc.under(path) from None
    if kind is ParamKind.ACTION:
        return _nested(param, value, resolver, table, reserved, path)
    raise ArgumentError(f"{name}: unknown parameter kind {kind!r}", path)


def _did_you_mean(value: Any, options: Iterable[Any]) -> str:
    """`` (did you mean X?)`` for a text close to one of ``options``, or nothing."""
    if not isinstance(value, str):
        return ""
    words = [str(o) for o in options]
    close = difflib.get_close_matches(value.strip().lower(), words, n=1, cutoff=0.75)
    return f" (did you mean {close[0]}?)" if close else ""


def _hashable(value: Any) -> bool:
    return isinstance(value, Hashable)


def _cards(
    param: Param, value: Any, resolver: Resolver, path: tuple[PathStep, ...]
) -> tuple[int, ...]:
    name = param.name
    if isinstance(value, str):
        return (_ask(resolver.card, value, path),)
    if not isinstance(value, list | tuple) or not value:
        raise ArgumentError(f"{name} must be a list of cards", path)
    cards = tuple(_ask(resolver.card, v, (*path, i)) for i, v in enumerate(value))
    if len(set(cards)) != len(cards):
        raise ArgumentError(f"{name} names the same card twice", path)
    return cards


def _nested(
    param: Param,
    value: Any,
    resolver: Resolver | None,
    table: ActionTable | None,
    reserved: frozenset[str],
    path: tuple[PathStep, ...],
) -> BoundAction:
    """A nested action on the enclosing action's card: ``{flip: {face: up}}``."""
    name = param.name
    on_cards = sorted(
        n
        for n, a in (table or {}).items()
        if any(p.name == "card" and p.kind is ParamKind.CARD for p in a.params)
    )
    if not isinstance(value, Mapping):
        raise ArgumentError(f"{name}: is an action, such as {{modify: {{power: +1}}}}", path)
    if len(value) != 1:
        raise ArgumentError(f"{name}: holds exactly one action", path)
    key, args = next(iter(value.items()))
    nested = (table or {}).get(key)
    if nested is None or key not in on_cards:
        raise ArgumentError(
            f"{name}: takes an action on the card ({', '.join(on_cards) or 'none here'}), "
            f"not {key!r}",
            (*path, key),
        )
    if isinstance(args, Mapping) and "card" in args:
        raise ArgumentError(
            f"{name}: applies to the card this action names; leave out card:",
            (*path, key, "card"),
        )
    try:
        bound = _bind(
            key,
            nested.params,
            nested.one_of,
            args,
            resolver,
            table,
            reserved,
            frozenset({"card"}),
        )
    except ArgumentError as exc:
        raise exc.under((*path, key)) from None
    return BoundAction(nested, MappingProxyType(bound))


def complete(action: Action, args: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments ``action.run`` takes, from ``args`` given as the binder
    makes them (card ids, zone ids, :class:`~cardzones.kernel.cards.Dest`,
    ...): every parameter, a left-out one at its default. Unlike :func:`bind`,
    it resolves nothing and checks only the keys: an unknown one or a missing
    required one raises :class:`ArgumentError`.

    >>> from cardzones.kernel.standard import FLIP
    >>> complete(FLIP, {"card": 7, "face": "up"})
    {'card': 7, 'face': 'up', 'by': None}
    """
    names = {p.name for p in action.params}
    for key in args:
        if key not in names:
            allowed = ", ".join(sorted(names)) or "none"
            raise ArgumentError(f"unknown key {key!r} in {action.name}; allowed: {allowed}", (key,))
    out: dict[str, Any] = {}
    for param in action.params:
        if param.name in args:
            out[param.name] = args[param.name]
        elif param.required:
            raise ArgumentError(f"{action.name} needs {param.name}:", (param.name,))
        else:
            out[param.name] = param.default
    return out


def acting(game: Game, args: Mapping[str, Any], name: str = "by") -> str:
    """The acting player an action was given, or the turn player."""
    player: str | None = args.get(name)
    return player if player is not None else game.turn_player
