"""The one pass from an action's arguments to what its ``run`` takes.

Arguments arrive as plain data (a scenario step, a seat's JSON act, a stored
act) or already as the values ``run`` takes (a legal action's candidate).
:func:`bind` walks the action's parameters once and, for each, does three
things in order:

1. **resolves** the value: checks its kind and asks a :class:`Resolver` for
   whatever names a game thing (a card, a zone, a player, a card name, an
   effect label); the scenario language has a resolver for ``$label`` and
   ``NAME@ZONE``, the table one for the handles of a seat's view and one for
   the physical cards of stored acts;
2. **checks the seat policy** (:class:`~cardzones.acts.seats.SeatPolicy`), when a
   player acts for themselves: it is their turn for a turn player's action,
   they act as themselves, on their own cards and zones, and name a card they
   may not look at only in their own zones;
3. **writes** the value back (a :class:`Writer`): as the stored act, every
   card as its physical card (``#17``), or as the player names things in
   their view (a legal action as a step).

Everything that takes an action goes through this pass: the scenario runner
(a resolver, no seat), the table (a seat's resolver, the seat, the stored
act), replay (the stored act's resolver) and legal actions (values already
resolved, the seat, and the player's names). A bad argument raises
:class:`~cardzones.acts.actions.ArgumentError` with the path of the offending
key; the seat policy refuses with a
:class:`~cardzones.acts.seats.SeatRefusal`.

>>> from cardzones import new_game
>>> from cardzones.acts.seats import SeatPolicy
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
>>> flip = game.ruleset.actions["flip"]
>>> bind(flip, {"card": card, "face": "up"}, RESOLVED, seat=SeatPolicy(game, "alice"))
{'card': 1, 'face': 'up', 'by': 'alice'}
>>> bind(flip, {"card": card, "face": "up"}, RESOLVED, seat=SeatPolicy(game, "bob"))
Traceback (most recent call last):
...
cardzones.acts.seats.SeatRefusal: card: a card you may not look at can be named only in ...
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from cardzones.acts.actions import (
    MAX_TEXT,
    Action,
    ActionTable,
    ArgumentError,
    BoundAction,
    OneOf,
    Param,
    ParamKind,
    PathStep,
    oversized,
)
from cardzones.acts.seats import SeatPolicy, SeatRefusal
from cardzones.acts.zone_choices import ZoneChoice, ZoneChoices, bind_choice
from cardzones.kernel.cards import CardDef, Dest

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

Path = tuple[PathStep, ...]


class Resolver(Protocol):
    """Turns references in raw arguments into game values, for :func:`bind`.

    Each method raises :class:`~cardzones.acts.actions.ArgumentError` (with an
    empty path: the binder adds it) when the value names nothing.
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


class _Resolved:
    """The arguments are the values ``run`` takes already (card ids, zone ids,
    destinations, card definitions): nothing is looked up, and a nested action
    is a :class:`~cardzones.acts.actions.BoundAction`."""

    def __repr__(self) -> str:
        return "RESOLVED"


#: Pass as the resolver when the arguments are already resolved (legal actions).
RESOLVED: Any = _Resolved()


class _Ids:
    """Reads the mapping form of a choice of zone given as ``run`` takes its
    values: a player by name, a card and a zone by id."""

    @staticmethod
    def _id(value: Any, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ArgumentError(f"{value!r} is not a {what} id")
        return value

    def zone(self, value: Any) -> int:
        return self._id(value, "zone")

    def card(self, value: Any) -> int:
        return self._id(value, "card")

    def player(self, value: Any) -> str:
        if not isinstance(value, str):
            raise ArgumentError(f"{value!r} is not a player")
        return value


_IDS = _Ids()


class Writer(Protocol):
    """How :func:`bind_written` writes a bound act back as plain data."""

    def action(
        self, action: Action, raw: Mapping[str, Any], args: Mapping[str, Any], out: dict[str, Any]
    ) -> dict[str, Any]:
        """The written arguments of ``action``: ``out`` holds each parameter
        given, already written; ``raw`` and ``args`` are as given and bound."""

    def value(self, param: Param, raw: Any, bound: Any, written: Any) -> Any:
        """One value as written: ``written`` is what the pass wrote inside it
        (the fields of a MAPPING, a nested action), else None."""


def bind(
    action: Action,
    raw: Any,
    resolver: Resolver | None,
    *,
    table: ActionTable | None = None,
    reserved: frozenset[str] = frozenset(),
    seat: SeatPolicy | None = None,
) -> dict[str, Any]:
    """Check ``raw``, the arguments of ``action``, and resolve them: a dict
    with every parameter of the action, as ``run`` takes it.

    ``reserved`` are keys the caller handles itself (the scenario language's
    ``result``, ``error`` and ``as``): they are allowed and left out.
    ``table`` is needed for a nested action (ParamKind.ACTION). With ``seat``,
    the seat policy is checked as each value is resolved, and a left-out
    actor is the seat. Raises :class:`~cardzones.acts.actions.ArgumentError`
    with the path of the first bad key, or
    :class:`~cardzones.acts.seats.SeatRefusal`.
    """
    return _Pass(resolver, table, reserved, seat, None).action(action, raw, (), frozenset())[0]


def bind_written(
    action: Action,
    raw: Any,
    resolver: Resolver | None,
    writer: Writer,
    *,
    table: ActionTable | None = None,
    reserved: frozenset[str] = frozenset(),
    seat: SeatPolicy | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """:func:`bind`, and the arguments as ``writer`` writes them back."""
    args, written = _Pass(resolver, table, reserved, seat, writer).action(
        action, raw, (), frozenset()
    )
    assert written is not None
    return args, written


def complete(action: Action, args: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments ``action.run`` takes, from ``args`` given as the binder
    makes them (card ids, zone ids, :class:`~cardzones.kernel.cards.Dest`,
    ...): every parameter, a left-out one at its default. It is :func:`bind`
    with the values already resolved: nothing is looked up, and an unknown
    key or a missing required one raises :class:`ArgumentError`.

    >>> from cardzones.acts.standard import FLIP
    >>> complete(FLIP, {"card": 7, "face": "up"})
    {'card': 7, 'face': 'up', 'by': None}
    """
    return _Pass(RESOLVED, None, frozenset(), None, None).action(action, args, (), frozenset())[0]


def seat_refusal(game: Game, player: str, action: Action, args: Mapping[str, Any]) -> str | None:
    """Why ``player``, acting for themselves, may not take ``action`` with
    ``args`` (resolved, as ``run`` takes them), or None when the seat policy
    allows it; the rules still decide.

    >>> from cardzones import new_game
    >>> game = new_game("fab", ["alice", "bob"])
    >>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    >>> flip = game.ruleset.actions["flip"]
    >>> print(seat_refusal(game, "alice", flip, {"card": card, "face": "up"}))
    None
    >>> print(seat_refusal(game, "bob", flip, {"card": card, "face": "up"}))
    card: a card you may not look at can be named only in your own zones
    """
    try:
        bind(action, args, RESOLVED, seat=SeatPolicy(game, player))
    except SeatRefusal as exc:
        return str(exc)
    return None


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
    walk = _Pass(resolver, None, reserved, None, None)
    return walk.fields(what, tuple(params), (), raw, (), frozenset())[0]


class _Pass:
    """One walk over an action's parameters: resolve, check, write."""

    __slots__ = ("reserved", "resolved", "resolver", "seat", "table", "writer")

    def __init__(
        self,
        resolver: Resolver | None,
        table: ActionTable | None,
        reserved: frozenset[str],
        seat: SeatPolicy | None,
        writer: Writer | None,
    ) -> None:
        self.resolver = resolver
        self.resolved = resolver is RESOLVED
        self.table = table
        self.reserved = reserved
        self.seat = seat
        self.writer = writer

    def action(
        self, action: Action, raw: Any, path: Path, skip: frozenset[str]
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        seat = self.seat
        if seat is not None:
            seat.turn(action)
            if isinstance(raw, Mapping):
                # Who acts comes first: a seat acting for another hears that alone.
                # ``by`` is who acts in every action, its actor or not.
                names = {p.name for p in action.params}
                for name in dict.fromkeys((action.actor, "by")):
                    if name is not None and name in raw and name in names:
                        seat.actor(action.param(name), raw[name], path)
        args, written = self.fields(action.name, action.params, action.one_of, raw, path, skip)
        if seat is not None and action.actor is not None and args[action.actor] is None:
            args[action.actor] = seat.player
        if self.writer is None:
            return args, None
        given = raw if isinstance(raw, Mapping) else {}
        return args, self.writer.action(action, given, args, written)

    def fields(
        self,
        what: str,
        params: tuple[Param, ...],
        one_of: tuple[OneOf, ...],
        raw: Any,
        path: Path,
        skip: frozenset[str],
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The bound values of every parameter, and the written values of
        those given."""
        if raw is None:
            raw = {}
        if not isinstance(raw, Mapping):
            raise ArgumentError(f"{what} takes a mapping of its arguments, not {raw!r}", path)
        names = {p.name for p in params}
        for key in raw:
            if key not in names and key not in self.reserved:
                allowed = ", ".join(sorted((names - skip) | self.reserved))
                raise ArgumentError(
                    f"unknown key {key!r} in {what}; allowed: {allowed}", (*path, key)
                )
        for group in one_of:
            # Resolved arguments hold every parameter, a left-out one as None.
            given = [n for n in group.names if n in raw and not (self.resolved and raw[n] is None)]
            listed = ", ".join(group.names)
            if group.exactly and len(given) != 1:
                both = " and ".join(f"{n}:" for n in group.names)
                raise ArgumentError(f"{what} takes exactly one of {both}", (*path, *given[1:2]))
            if not given:
                raise ArgumentError(f"{what} needs at least one of {listed}", path)
        out: dict[str, Any] = {}
        written: dict[str, Any] = {}
        for param in params:
            name = param.name
            if name in skip:
                continue
            if name not in raw:
                if param.required:
                    choices = f" ({' or '.join(map(str, param.options))})" if param.options else ""
                    raise ArgumentError(f"{what} needs {name}:{choices}", (*path, name))
                out[name] = param.default
                continue
            out[name], written[name] = self.value(param, raw[name], (*path, name))
        return out, written

    def value(self, param: Param, raw: Any, path: Path) -> tuple[Any, Any]:
        """The bound value of one parameter, checked against the seat policy,
        and the value written (None without a writer)."""
        kind = param.kind
        sub: Any = None
        if self.resolved and raw is None:  # a resolved argument left out
            return None, None
        if kind is ParamKind.MAPPING:
            bound, sub = self.mapping(param, raw, path)
        elif kind is ParamKind.ACTION:
            bound, sub = self.nested(param, raw, path)
        elif self.resolved and kind is ParamKind.ZONE_CHOICE and isinstance(raw, Mapping):
            # The API's mapping form: players by name, cards and zones by id.
            bound = self.zone_choice(param, raw, path)
        elif self.resolved:
            bound = raw
        else:
            bound = self.resolve(param, raw, path)
        seat = self.seat
        if seat is not None and bound is not None:
            if kind is ParamKind.CARD:
                seat.card(param, bound, _text(raw), path)
            elif kind is ParamKind.CARDS:
                texts = raw if isinstance(raw, list | tuple) else [raw]
                for i, card in enumerate(bound):
                    at = path if isinstance(raw, str) else (*path, i)
                    seat.card(param, card, _text(texts[i]) if i < len(texts) else None, at)
            elif kind is ParamKind.ZONE or kind is ParamKind.ZONE_NAME:
                seat.zone(param, bound, raw, path)
            elif kind is ParamKind.ZONE_CHOICE:
                if isinstance(bound, ZoneChoices):
                    # A card a choice is for is named as any card is.
                    keys = list(raw) if isinstance(raw, Mapping) else [None] * len(bound.pairs)
                    for (key, _), text in zip(bound.pairs, keys, strict=True):
                        if isinstance(key, int):
                            seat.card(param, key, _text(text), (*path, str(text)))
                # Only the seat's own choices (3.0.10a).
                seat.choice(bound, raw, path)
        if self.writer is None:
            return bound, None
        return bound, self.writer.value(param, raw, bound, sub)

    def resolve(self, param: Param, value: Any, path: Path) -> Any:
        kind = param.kind
        name = param.name
        too_big = oversized(param, value) if kind is not ParamKind.TEXT else None
        if too_big is not None:
            raise ArgumentError(too_big, path)
        if kind is ParamKind.INT:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ArgumentError(f"{name} must be a whole number, not {_short(value)}", path)
            return _bounded(param, value, path)
        if kind is ParamKind.DELTA:
            if isinstance(value, str) and len(value) <= 12 and _SIGNED.fullmatch(value.strip()):
                value = int(value.strip())
            if isinstance(value, bool) or not isinstance(value, int):
                raise ArgumentError(
                    f"{name} must be a number such as +2 or -1, not {_short(value)}", path
                )
            return _bounded(param, value, path)
        if kind is ParamKind.BOOL:
            if not isinstance(value, bool):
                raise ArgumentError(f"{name} is true or false, not {value!r}", path)
            return value
        if kind is ParamKind.CHOICE:
            if not isinstance(value, Hashable) or value not in param.options:
                raise _not_an_option(param, "one", value, path)
            return value
        if kind is ParamKind.POSITION:
            if value in ("top", "bottom"):
                return value
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ArgumentError(
                    f"{name} is top, bottom or an index from the top (0 or more), "
                    f"not {_short(value)}",
                    path,
                )
            return _bounded(param, value, path)
        if kind is ParamKind.WORD:
            if not isinstance(value, str) or not value.strip():
                raise ArgumentError(f"{name} must be a word such as go_again, not {value!r}", path)
            return value.strip().lower()
        if kind is ParamKind.WORDS:
            return _words(param, value, path)
        if kind is ParamKind.TEXT:
            if not isinstance(value, str) or len(value) > MAX_TEXT:
                raise ArgumentError(f"{name} is text of at most {MAX_TEXT} characters", path)
            return value
        if kind is ParamKind.CARDS:
            return self.cards(param, value, path)
        if kind is ParamKind.ZONE_CHOICE:
            return self.zone_choice(param, value, path)
        if kind is ParamKind.NAME and (not isinstance(value, str) or not value.strip()):
            raise ArgumentError(f"{name}: is a card's name, not {value!r}", path)
        ask = self.ask(param)
        try:
            return ask(value)
        except ArgumentError as exc:
            raise exc.under(path) from None

    def ask(self, param: Param) -> Callable[[Any], Any]:
        """The resolver's method for a parameter that names a game thing."""
        resolver = self.resolver
        if resolver is None:
            raise ArgumentError(f"{param.name}: nothing here can resolve a {param.kind} value")
        asks: dict[ParamKind, Callable[[Any], Any]] = {
            ParamKind.CARD: resolver.card,
            ParamKind.CARDS: resolver.card,
            ParamKind.ZONE: resolver.zone,
            ParamKind.DEST: resolver.dest,
            ParamKind.ZONE_NAME: resolver.zone_name,
            ParamKind.PLAYER: resolver.player,
            ParamKind.NAME: resolver.card_def,
            ParamKind.EFFECT: resolver.effect,
        }
        found = asks.get(param.kind)
        if found is None:
            raise ArgumentError(f"{param.name}: unknown parameter kind {param.kind!r}")
        return found

    def cards(self, param: Param, value: Any, path: Path) -> tuple[int, ...]:
        ask = self.ask(param)
        if isinstance(value, str):
            return (_asked(ask, value, path),)
        if not isinstance(value, list | tuple) or not value:
            raise ArgumentError(f"{param.name} must be a list of cards", path)
        cards = tuple(_asked(ask, v, (*path, i)) for i, v in enumerate(value))
        if len(set(cards)) != len(cards):
            raise ArgumentError(f"{param.name} names the same card twice", path)
        return cards

    def zone_choice(self, param: Param, value: Any, path: Path) -> ZoneChoice:
        """A zone, or a mapping from a player or a card to a zone (3.0.10a)."""
        resolver = _IDS if self.resolved else self.resolver
        if resolver is None:
            raise ArgumentError(f"{param.name}: nothing here can resolve a zone", path)
        try:
            return bind_choice(value, resolver.zone, resolver.player, resolver.card)
        except ArgumentError as exc:
            raise exc.under(path) from None

    def mapping(self, param: Param, value: Any, path: Path) -> tuple[Any, dict[str, Any]]:
        """Nested parameters (``ongoing: {card: ..., strength: +1}``)."""
        if value is not None and not isinstance(value, Mapping):
            raise ArgumentError(f"{param.name} takes a mapping, not {value!r}", path)
        inner = _Pass(self.resolver, None, frozenset(), self.seat, self.writer)
        return inner.fields(param.name, param.fields, param.one_of, value, path, frozenset())

    def nested(self, param: Param, value: Any, path: Path) -> tuple[BoundAction, Any]:
        """A nested action on the enclosing action's card: ``{flip: {face: up}}``."""
        if self.resolved:
            if not isinstance(value, BoundAction):
                raise ArgumentError(f"{param.name}: is an action already bound", path)
            nested, args, key = value.action, value.args, value.action.name
        else:
            nested, args, key = self.nested_action(param, value, path)
        at = (*path, key)
        if self.seat is not None:
            self.seat.nested(nested, key, path)
        bound, written = self.action(nested, args, at, frozenset({"card"}))
        return BoundAction(nested, MappingProxyType(bound)), (
            None if written is None else {key: written}
        )

    def nested_action(self, param: Param, value: Any, path: Path) -> tuple[Action, Any, str]:
        name = param.name
        table = self.table or {}
        on_cards = sorted(
            n
            for n, a in table.items()
            if any(p.name == "card" and p.kind is ParamKind.CARD for p in a.params)
        )
        if not isinstance(value, Mapping):
            raise ArgumentError(f"{name}: is an action, such as {{modify: {{power: +1}}}}", path)
        if len(value) != 1:
            raise ArgumentError(f"{name}: holds exactly one action", path)
        key, args = next(iter(value.items()))
        nested = table.get(key)
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
        return nested, args, str(key)


def _asked(ask: Callable[[Any], Any], value: Any, path: Path) -> Any:
    try:
        return ask(value)
    except ArgumentError as exc:
        raise exc.under(path) from None


def _words(param: Param, value: Any, path: Path) -> tuple[str, ...]:
    name = param.name
    words = [value] if isinstance(value, str) else value
    if not isinstance(words, list | tuple) or not all(isinstance(w, str) and w for w in words):
        raise ArgumentError(f"{name} must be a list of words, not {value!r}", path)
    out = tuple(w.strip().lower().replace(" ", "_") for w in words)
    for word in out:
        if param.options and word not in param.options:
            raise _not_an_option(param, "one or more", word, path)
    return out


def _not_an_option(param: Param, how_many: str, value: Any, path: Path) -> ArgumentError:
    """The refusal of ``value`` where ``param`` takes ``how_many`` of its
    options: it lists them, and names the nearest when one is near."""
    options = ", ".join(map(str, param.options))
    return ArgumentError(
        f"{param.name} is {how_many} of {options}, not {value!r}"
        f"{_did_you_mean(value, param.options)}",
        path,
    )


def _text(raw: Any) -> str | None:
    """How a player named a card, for a message: the text they gave."""
    return raw.strip() if isinstance(raw, str) else None


_SIGNED = re.compile(r"[+-]?[0-9]+")


def _bounded(param: Param, value: int, path: Path) -> int:
    """``value`` if it is within the parameter's bounds."""
    assert param.bounds is not None
    low, high = param.bounds
    if not low <= value <= high:
        raise ArgumentError(f"{param.name} is {low} to {high}, not {_short(value)}", path)
    return value


def _short(value: Any) -> str:
    """A value as a message shows it: a number too long to print by its
    length, anything else cut short."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a number of about {value.bit_length() * 3 // 10 + 1} digits"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _did_you_mean(value: Any, options: Iterable[Any]) -> str:
    """`` (did you mean X?)`` for a text close to one of ``options``, or nothing."""
    if not isinstance(value, str):
        return ""
    words = [str(o) for o in options]
    close = difflib.get_close_matches(value.strip().lower(), words, n=1, cutoff=0.75)
    return f" (did you mean {close[0]}?)" if close else ""
