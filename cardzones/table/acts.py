"""From a seat's act to an engine call: the one place where the table turns
what a player sends into a change of the game.

An act is one step of the scenario step language with the rule set's actions,
as JSON: ``{"move": {"card": "o628dc6a8bcab", "to": "alice.graveyard"}}``. The
actions are the rule set's own action table (``Ruleset.actions``), the same
one the scenario runner and ``cardzones actions`` read; the table keeps no
list of actions. Applying an act (:func:`apply_act`) takes two steps:

1. **Bind** it for the seat (:func:`bind_act`) in the one pass of
   :func:`~cardzones.acts.binding.bind`, with the seat's resolver,
   :class:`SeatRefs`, and the seat policy. A card is named by the handle
   (``id``) that the seat's own view gives it, or by ``ZONE[i]``, the i-th
   object of that zone as the seat's view lists it. Nothing else names a
   card: no ``$label``, no ``NAME@ZONE`` (both would let a seat follow or find
   a card it may not see). A handle the seat's view does not give now,
   including one another viewer's view gives, is refused as ``no such card``,
   whatever card it may name for someone else. The same pass checks the seat
   policy below as it resolves each value, and writes the **stored act**: the
   same step with every card named by its physical card (``#17``) and the
   acting player written out. The stored act is secret-bearing (a physical
   card follows a card through every hidden stretch), never sent to a
   player, and it replays exactly, whatever handles views give in the future.
2. **Run** the action with the bound arguments. Replay and export apply
   stored acts (:func:`apply_stored`): bound with :class:`StoredRefs`, which
   reads ``#N``, and run the same way, so a replayed game is the game that was
   played.

Any refusal raises :class:`Refusal`, with the engine's message and rule id when
a rule refused it. A refusal leaves the game exactly as it was, and its message
names cards only as the seat named them.

The seat policy
---------------

The engine checks the rules with the acting player set to the seat. On top of
that, a seat may act only on what is its own, as a player at a physical table
would: the seat policy, stated once, in :mod:`cardzones.acts.seats`, and
checked by the same pass that binds the act; legal actions follow it too.
The table adds two things a seat may not do that a scenario may:

- name a card by its name (``ParamKind.NAME``: fab's ``create_token``) other
  than one of the table's token cards: a card of its start position with the
  type ``token`` (a table made from card data keeps every token card of the
  game). The other cards of the start position are where the hidden cards
  are: if a seat could name them, the answer (a token with that card's
  printed types, or a refusal) would tell it whether the card is in the game.
  Any other name gets the same refusal, with the closest token names;
- act at all as a spectator.
"""

from __future__ import annotations

import difflib
import hashlib
import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from cardzones.acts.actions import Action, ArgumentError, Param, ParamKind, table_of
from cardzones.acts.binding import bind, bind_written
from cardzones.acts.seats import Seat, where
from cardzones.errors import CardzonesError, IllegalAction, ScenarioError, UnknownReference
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.game import Game
from cardzones.kernel.results import ActionResult, MoveResult
from cardzones.kernel.state import Checkpoint
from cardzones.kernel.views import card_for_handle, shown_cards
from cardzones.position.context import Context, Refs
from cardzones.position.loader import YMap
from cardzones.position.refs import parse_card

#: The type of a token card (fab 8.1.8a).
TOKEN = "token"

log = logging.getLogger(__name__)

#: A physical card in a stored act: ``#17``.
_PHYSICAL = re.compile(r"^#(\d+)$")
_T = TypeVar("_T")


class Refusal(CardzonesError):
    """The rules or the table refuse an act. Nothing changed.

    ``rule`` is the rule id when a rule refused it.
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


class _Unplaced(ArgumentError):
    """An argument error whose message does not say which argument it is
    about (a resolver's): the refusal puts the argument's path in front."""


def _message(exc: ArgumentError) -> str:
    if isinstance(exc, _Unplaced) and exc.path:
        return f"{where(exc.path)}: {exc.message}"
    return exc.message


# ----------------------------------------------------------------------
# The context and the resolver of stored acts
# ----------------------------------------------------------------------


class _TableRefs(Refs):
    """The scenario layer's references, with errors that a refusal prefixes
    with the argument they are about (``to: unknown zone type ...``)."""

    def zone(self, value: Any) -> int:
        return _placed(super().zone, value)

    def dest(self, value: Any) -> Dest:
        return _placed(super().dest, value)

    def zone_name(self, value: Any) -> Dest:
        return _placed(super().zone_name, value)

    def player(self, value: Any) -> str:
        return _placed(super().player, value)

    def card_def(self, name: str) -> CardDef:
        return _placed(super().card_def, name)

    def effect(self, label: Any) -> Any:
        return _placed(super().effect, label)


def _placed(ask: Callable[[Any], _T], value: Any) -> _T:
    try:
        return ask(value)
    except _Unplaced:
        raise
    except ArgumentError as exc:
        raise _Unplaced(exc.message) from None


class StoredRefs(_TableRefs):
    """References in stored acts. Once the table is set up, a card is named
    only as ``#N``, a physical card, which only :func:`bind_act` writes; zones,
    players, card names and effect labels are read as in a scenario file."""

    def __init__(self, ctx: TableContext) -> None:
        super().__init__(ctx)
        self.table = ctx

    def effect(self, label: Any) -> Any:
        # A stored act names an effect as its seat did: a label, or the
        # name another seat's labelled effect has for it (effect_name).
        return super().effect(self.table.label_of(str(label)))

    def card(self, value: Any) -> int:
        if isinstance(value, str):
            found = _PHYSICAL.match(value)
            if found is not None:
                card = int(found.group(1))
                if not self.game.exists(card):
                    raise _Unplaced(f"{value}: no such card")
                return card
        if not self.table.seated:
            return super().card(value)  # set-up: the scenario's own references
        raise _Unplaced(f"{value!r} names no card here")


#: A table's labels as :meth:`TableContext.state` keeps them: the card labels,
#: the effect labels and the seat that gave each effect label.
LabelState = tuple[dict[str, int], dict[str, Any], dict[str, str]]


def effect_name(game: Game, handle: Any) -> str:
    """The name of a labelled effect for a seat that did not label it: a
    digest of the effect keyed by the game's secret handle key, so it tells
    nothing of the label (the other seat's words) nor of the effect's number.

    >>> from cardzones import new_game
    >>> game = new_game("fab", ["alice", "bob"], handle_key="k")
    >>> effect_name(game, ("place", 1)) == effect_name(game, ("place", 1))
    True
    >>> effect_name(game, ("place", 1)).startswith("effect-")
    True
    """
    digest = hashlib.blake2b(
        repr(handle).encode(), key=game.handle_key.encode()[:64], digest_size=6
    ).hexdigest()
    return f"effect-{digest}"


class TableContext(Context):
    """The scenario layer's context for a table's game: its set-up runs as a
    scenario's, and then (``seated``) a card is named only as ``#N``. The
    labels that ``as:`` gives effects are kept here, for ``negate``.

    A seat names a card only to create a token, and only one of the table's
    token cards (:attr:`tokens`): the cards of the start position are where
    the hidden cards are, so what a seat is told about a name never depends
    on them.

    A table never reads the card index: a start position made from card data
    has every card written down under ``cards`` (``variants``: a card's
    colours) when the table is created, the game's token cards included. Such
    a table is ``closed``: a name that is not among its cards is refused
    rather than made a vanilla card."""

    def __init__(
        self,
        game: Game,
        ruleset: str,
        file: str,
        cards: dict[str, CardDef],
        variants: dict[str, dict[int, CardDef]] | None = None,
        *,
        closed: bool = False,
    ) -> None:
        super().__init__(game, ruleset, file, cards, None, variants)
        self.seated = False
        self.closed = closed
        #: The seat whose act gave each effect label: a label is its seat's
        #: words, and another seat names that effect by :func:`effect_name`.
        self.effect_seats: dict[str, str] = {}
        self.refs = StoredRefs(self)
        #: The names a seat may give (``create_token``): the cards whose every
        #: definition is a token card.
        defs = [(n, [c]) for n, c in cards.items()]
        defs += [(n, list(v.values())) for n, v in self.variants.items()]
        self.tokens = frozenset(n for n, cs in defs if all(TOKEN in c.types for c in cs))

    def with_game(self, game: Game) -> TableContext:
        """A context with the same cards for another game of this table (one
        restored from a snapshot), seated."""
        ctx = TableContext(
            game,
            self.ruleset,
            self.file,
            dict(self.cards),
            {name: dict(colours) for name, colours in self.variants.items()},
            closed=self.closed,
        )
        ctx.seated = True
        return ctx

    def card_def(self, name: str, entry: YMap | None = None) -> CardDef:
        if self.closed and name not in self.cards and name not in self.variants:
            raise ScenarioError(f"{name!r} is not one of this table's cards", file=self.file)
        return super().card_def(name, entry)

    def state(self) -> LabelState:
        """The labels and effect labels, to restore after a refused act."""
        return dict(self.labels), dict(self.effects), dict(self.effect_seats)

    def restore(self, state: LabelState) -> None:
        self.labels, self.effects = dict(state[0]), dict(state[1])
        self.effect_seats = dict(state[2])

    def label_of(self, name: str) -> str:
        """The label of the effect a seat named ``name`` (its label, or
        another seat's effect by :func:`effect_name`); ``name`` itself when
        it names none."""
        if name in self.effects:
            return name
        for label, handle in self.effects.items():
            if effect_name(self.game, handle) == name:
                return label
        return name

    def effect_names(self, seat: str) -> dict[str, Any]:
        """The names ``seat`` gives the labelled effects: its own labels, and
        for an effect another seat labelled, :func:`effect_name`, which
        tells nothing of that seat's words."""
        out: dict[str, Any] = {}
        for label, handle in self.effects.items():
            mine = self.effect_seats.get(label) == seat
            out[label if mine else effect_name(self.game, handle)] = handle
        return out


# ----------------------------------------------------------------------
# How a seat names things
# ----------------------------------------------------------------------


class SeatRefs(_TableRefs):
    """The seat's resolver for :func:`~cardzones.acts.binding.bind`: a card is
    named by the handle the seat's own view gives it, or by ``ZONE[i]`` in the
    order its view lists the zone; a card it may not look at only in its own
    zones. Zones, players, card names and effect labels are read as in a
    scenario file, except that an unknown effect label does not list the
    labels other seats gave. ``names`` keeps how the seat named each card, so
    that messages name it the same way."""

    def __init__(self, ctx: TableContext, seat: str) -> None:
        super().__init__(ctx)
        self.table = ctx
        self.seat = seat
        self.names: dict[int, str] = {}

    def card_def(self, name: str) -> CardDef:
        # A seat names a card only to create a token, and the answer depends on
        # the name and the table's token cards alone: the other cards of the
        # start position are where the hidden cards are.
        tokens = self.table.tokens
        if name not in tokens:
            close = difflib.get_close_matches(name.casefold(), [t.casefold() for t in tokens])
            near = sorted(t for t in tokens if t.casefold() in close)
            hint = f"; closest: {', '.join(map(repr, near))}" if near else ""
            raise _Unplaced(
                f"{name!r} is not a token card of this table (a seat names a card "
                f"only to create a token){hint}"
            )
        return super().card_def(name)

    def card(self, value: Any) -> int:
        if not isinstance(value, str) or not value.strip():
            raise _Unplaced("a card is named by the id its view gives, or by ZONE[i]")
        text = value.strip()
        card = self._find(text)
        self.names[card] = text
        return card

    def effect(self, label: Any) -> Any:
        # The labels other seats gave are theirs: the seat names those effects
        # as effect_name does, and a miss lists nothing.
        names = self.table.effect_names(self.seat)
        if str(label) not in names:
            raise _Unplaced(f"unknown effect label {str(label)!r}")
        return names[str(label)]

    def _find(self, text: str) -> int:
        ref = parse_card(text)
        if ref is None:
            try:
                return card_for_handle(self.game, self.seat, text)
            except UnknownReference:
                raise _Unplaced(f"{text}: no such card") from None
        if ref.kind != "index" or ref.zone is None or ref.position is None:
            raise _Unplaced(f"{text}: at a table a card is named by its id or by ZONE[i]")
        cards = self._shown(str(ref.zone), text)
        if not -len(cards) <= ref.position < len(cards):
            raise _Unplaced(f"{text}: {ref.zone} has {len(cards)} card(s)")
        return cards[ref.position]

    def _shown(self, zone_text: str, text: str) -> list[int]:
        """The cards of a zone (or a pile, such as fab's ``alice.soul``) in the
        order the seat's view lists them."""
        try:
            ref = self.zone_ref(zone_text)
            if self.ctx.is_pile(ref):
                return self.pile(ref)
            zid = self.zone_id(ref)
        except ArgumentError as exc:
            raise _Unplaced(f"{text}: {exc.message}") from None
        if zid is None:
            raise _Unplaced(f"{text}: zone {ref} does not exist")
        return shown_cards(self.game, self.seat, zid)


# ----------------------------------------------------------------------
# Binding an act for a seat
# ----------------------------------------------------------------------

#: Keys a step may carry beside its action (docs/scenarios.md), and what a
#: table does with them.
_STEP_KEYS = frozenset({"as"})
_NOT_AT_A_TABLE = {
    "result": "result: is for scenario files; the table's answer says what the act did",
    "error": "error: is for scenario files; a refused act is answered with its error",
    "expect": "expect: is for scenario files; a seat sees the game in its view",
    "mark": "mark: is for scenario files; a seat follows cards by their handles",
}


@dataclass
class Bound:
    """An act bound for a seat: the action and its arguments as ``run`` takes
    them, the stored act, and how the seat named each physical card, so that a
    message names cards as the seat did."""

    action: Action
    args: dict[str, Any]
    stored: dict[str, Any]
    names: dict[str, str] = field(default_factory=dict)


class _Stored:
    """Writes the stored act (:class:`~cardzones.acts.binding.Writer`): the act
    as the seat sent it, with every card as its physical card (``#17``) and
    the actor written out."""

    def action(
        self, action: Action, raw: Mapping[str, Any], args: Mapping[str, Any], out: dict[str, Any]
    ) -> dict[str, Any]:
        stored = dict(raw)
        if action.actor is not None:
            stored[action.actor] = str(args[action.actor])
        for name, value in out.items():
            if name != action.actor:
                stored[name] = value
        return stored

    def value(self, param: Param, raw: Any, bound: Any, written: Any) -> Any:
        kind = param.kind
        if kind is ParamKind.CARD:
            return f"#{bound}"
        if kind is ParamKind.CARDS:
            stored = [f"#{card}" for card in bound]
            return stored[0] if isinstance(raw, str) else stored
        if kind is ParamKind.MAPPING and isinstance(raw, Mapping):
            return {key: written.get(key, value) for key, value in raw.items()}
        if kind is ParamKind.ACTION and written is not None:
            return written
        return raw


_STORED = _Stored()


def bind_act(ctx: TableContext, seat: str | None, act: Any) -> Bound:
    """The bound and stored act for ``seat``'s act in the table's game, or a
    :class:`Refusal`: the one pass (:func:`~cardzones.acts.binding.bind`)
    resolves the seat's names, checks the seat policy and writes the stored
    act. Nothing changes."""
    game = ctx.game
    if seat is None:
        raise Refusal("a spectator cannot act")
    if not isinstance(act, dict) or not act:
        raise Refusal('an act is one action, such as {"move": {"card": ID, "to": ZONE}}')
    _no_labels(act)
    table = table_of(game)
    keys = [k for k in act if k not in _STEP_KEYS]
    for key in keys:
        if key in _NOT_AT_A_TABLE:
            raise Refusal(_NOT_AT_A_TABLE[key])
    if len(keys) != 1:
        raise Refusal(f"an act holds exactly one action, found {len(keys)}")
    name = keys[0]
    action = table.get(name)
    if action is None:
        raise Refusal(
            f"unknown action {name!r} for {game.ruleset.name}; actions are "
            + ", ".join(sorted(table))
        )
    raw = _args(action, act[name])
    if "as" in act:
        if "as" in raw:
            raise Refusal("as: is given twice")
        raw["as"] = act["as"]
    if "as" in raw:
        _label(raw["as"])
    refs = SeatRefs(ctx, seat)
    try:
        args, stored = bind_written(
            action, raw, refs, _STORED, table=table, reserved=_STEP_KEYS, seat=Seat(game, seat)
        )
    except ArgumentError as exc:
        raise Refusal(_message(exc)) from None
    except Refusal:
        raise
    except CardzonesError as exc:
        raise Refusal(str(exc)) from None
    except Exception:  # an engine bug: the seat gets no detail, the log does
        log.exception("an act could not be bound")
        raise Refusal("internal error: the act was not applied") from None
    names = {f"#{card}": text for card, text in refs.names.items()}
    return Bound(action, args, {name: stored}, names)


def _no_labels(value: Any) -> None:
    """A seat names cards by handle or position only: a string that would be
    read as a label or a physical card is refused wherever it is."""
    if isinstance(value, str):
        text = value.strip()
        if text.startswith(("$", "#")):
            raise Refusal(
                f"{value!r}: at a table a card is named by the id its view gives "
                "or by ZONE[i], and no other text starts with $ or #"
            )
    elif isinstance(value, dict):
        for key, item in value.items():
            _no_labels(key)
            _no_labels(item)
    elif isinstance(value, list):
        for item in value:
            _no_labels(item)


def _args(action: Action, raw: Any) -> dict[str, Any]:
    if raw is None:
        return {}
    if isinstance(raw, dict):
        return dict(raw)
    if isinstance(raw, str | int) and not isinstance(raw, bool) and action.bare is not None:
        # A bare value, as in {"phase": "upkeep"}, is the action's one argument.
        return {action.bare: raw}
    raise Refusal(f"{action.name} takes a mapping of its arguments")


def _label(value: Any) -> str:
    if not isinstance(value, str | int) or isinstance(value, bool) or str(value) == "":
        raise Refusal(f"as must be a name, not {value!r}")
    return str(value)


# ----------------------------------------------------------------------
# Applying an act
# ----------------------------------------------------------------------

_INTERNAL_CARD = re.compile(r"\bcard \d+\b")


@dataclass(frozen=True)
class Applied:
    """An act that the rules accepted: the stored act, what it did, and what
    puts the table back as it was before it (the game's checkpoint and the
    labels), until the act is an event."""

    stored: dict[str, Any]
    result: MoveResult
    checkpoint: Checkpoint
    labels: LabelState


def apply_act(ctx: TableContext, seat: str | None, act: Any) -> Applied:
    """Apply ``seat``'s act to the table's game, or raise :class:`Refusal` and
    change nothing: bound once for the seat (:func:`bind_act`), then run.

    >>> from cardzones.table.creation import Creation
    >>> ctx = Creation("fab", ("alice", "bob"), 7, {}, {"alice.deck": ["A", "B"]}).build()
    >>> applied = apply_act(ctx, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
    >>> applied.result.value, applied.stored["move"]["by"]
    ('moved', 'alice')
    >>> apply_act(ctx, "bob", {"move": {"card": "alice.deck[0]", "to": "bob.hand"}})
    Traceback (most recent call last):
    ...
    cardzones.table.acts.Refusal: card: alice.deck[0]: a card you may not look at ...
    """
    bound = bind_act(ctx, seat, act)
    ((_, args),) = bound.stored.items()
    checkpoint, labels = ctx.game.checkpoint(), ctx.state()
    done = _run(
        ctx, bound.action, lambda: bound.args, args.get("as"), bound.names, checkpoint, seat
    )
    return Applied(bound.stored, done.result, checkpoint, labels)


def apply_stored(
    ctx: TableContext, stored: dict[str, Any], names: dict[str, str] | None = None
) -> ActionResult:
    """Apply a stored act to the table's game with the rule set's action (a
    replay, an export), and say what it did. A refusal rolls everything back
    (the game, the labels) and raises :class:`Refusal`, whose message names a
    card as ``names`` says the seat named it."""
    if not isinstance(stored, dict) or len(stored) != 1:
        raise Refusal("a stored act holds exactly one action")
    ((name, args),) = stored.items()
    table = table_of(ctx.game)
    action = table.get(name)
    if action is None:
        raise Refusal(f"unknown action {name!r}")
    label = args.get("as") if isinstance(args, dict) else None
    # The stored act writes out who acted; "by" is who acts in every action.
    seat = None
    if isinstance(args, dict):
        seat = args.get("by", args.get(action.actor) if action.actor else None)
    return _run(
        ctx,
        action,
        lambda: bind(action, args, ctx.refs, table=table, reserved=_STEP_KEYS),
        label,
        names or {},
        ctx.game.checkpoint(),
        None if seat is None else str(seat),
    )


def _run(
    ctx: TableContext,
    action: Action,
    bound: Callable[[], dict[str, Any]],
    label: Any,
    names: dict[str, str],
    checkpoint: Checkpoint,
    seat: str | None = None,
) -> ActionResult:
    """Run ``action`` with the arguments ``bound`` gives; ``as:`` names what
    it made. A refusal puts the game back to ``checkpoint``, taken just
    before, and the labels as they were."""
    game = ctx.game
    labels = ctx.state()

    def fail(text: str, rule: str | None) -> Refusal:
        return Refusal(_clean(text, names), rule)

    try:
        done = action.run(game, bound())
        if label is not None:
            # as: names what the action made: a card (a token, a layer), an effect, or both.
            key = _label(label)
            if done.card is not None:
                ctx.labels[key] = done.card
            if done.effect is not None:
                ctx.effects[key] = done.effect
                if seat is not None:
                    ctx.effect_seats[key] = seat
        return done
    except ArgumentError as exc:
        refusal = fail(_message(exc), None)
    except IllegalAction as exc:
        refusal = fail(str(exc), exc.rule)
    except ScenarioError as exc:
        refusal = fail(exc.message, None)
    except CardzonesError as exc:
        refusal = fail(str(exc), None)
    except Exception:  # an engine bug: the seat gets no detail, the log does
        log.exception("an act raised an unexpected error")
        refusal = Refusal("internal error: the act was not applied")
    game.rollback(checkpoint)
    ctx.restore(labels)
    raise refusal


def _clean(message: str, names: dict[str, str]) -> str:
    """A message as the seat may read it: physical cards named as the seat named
    them, and no internal card number."""
    for stored, given in sorted(names.items(), key=lambda item: -len(item[0])):
        message = message.replace(f"'{stored}'", repr(given)).replace(stored, given)
    message = re.sub(r"#\d+", "a card", message)
    return _INTERNAL_CARD.sub("a card", message)
