"""From a seat's act to an engine call: the one place where the table turns
what a player sends into a change of the game.

An act is one step of the scenario step language with the rule set's actions,
as JSON: ``{"move": {"card": "o628dc6a8bcab", "to": "alice.graveyard"}}``.
Applying it takes three steps:

1. **Bind** it for the seat (:func:`bind_act`). A card is named by the handle
   (``id``) that the seat's own view gives it, or by ``ZONE[i]``, the i-th
   object of that zone as the seat's view lists it. Nothing else names a card:
   no ``$label``, no ``NAME@ZONE`` (both would let a seat follow or find a card
   it may not see). A handle the seat's view does not give now, including one
   another viewer's view gives, is refused as ``no such card``, whatever card
   it may name for someone else. ``by`` is the seat, and may not name anyone
   else. The seat policy below is checked here.
2. The bound act is the **stored act**: the same step with every card named by
   its physical card (``#17``) and ``by`` written out. It is secret-bearing (a
   physical card follows a card through every hidden stretch), never sent to a
   player, and it replays exactly, whatever handles views give in the future.
3. **Apply** the stored act (:func:`apply_stored`) with the scenario layer's
   own action table, on a :class:`TableContext`. Replay applies stored acts the
   same way, so a replayed game is the game that was played.

Any refusal raises :class:`Refusal`, with the engine's message and rule id when
a rule refused it. A refusal leaves the game exactly as it was, and its message
names cards only as the seat named them.

The seat policy
---------------

The engine checks the rules with ``by`` set to the seat. On top of that, a seat
may act only on what is its own, as a player at a physical table would:

- The cards an action **acts on** (``move``, ``flip``, ``modify``, ``grant``,
  ``clear``, ``play``, ``discard`` and ``return``'s cards, ``put_under``'s card
  and top, ``add_layer``'s source, ``place``'s cards, source and order,
  ``set_aside``'s source, ``dominant``'s card, ``end_turn``'s order) must be the
  seat's: a card it controls, or owns when the card has no controller (outside
  the arena and the stack, 1.2.1b).
- The cards an action **targets** where the rules let a player reach an
  opponent's cards (``place``'s ``onto``, ``set_aside``'s cards and
  ``played_on``, ``dominant``'s target, the card of an ``ongoing`` bonus) may
  be anyone's; the rule set decides, for example that the targets of a
  set-aside are in play and that an enhancement played outside battle targets
  no card an opponent controls.
- A card the seat may not look at is named only in a zone the seat owns (the
  top of its own deck): whose such a card is, is itself private, so a seat may
  not name one elsewhere.
- The zone of ``shuffle``, ``create_zone`` and ``remove_zone`` is the seat's own.
- ``end_turn``, ``phase``, ``end_battle``, ``resolve`` and ``remove_layer``
  belong to the turn player: the turn player ends the turn, moves it through its
  phases, ends the battle and resolves the stack (a table's shortcut for "every
  player passed").
- ``negate``, ``create_token`` and the destination of a move are left to the
  rules.

A spectator cannot act at all.

The per-action list of which argument is a card, a target or a zone is in
:data:`ACTIONS`: it is the part that the rule set's own action table will give
once it describes its parameters.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardzones.errors import CardzonesError, IllegalAction, ScenarioError, UnknownReference
from cardzones.kernel.cards import CardDef
from cardzones.kernel.game import Game, MoveResult
from cardzones.kernel.objects import UNDER
from cardzones.kernel.views import card_for_handle, shown_cards
from cardzones.scenario.actions import action_table
from cardzones.scenario.context import Context
from cardzones.scenario.loader import from_data
from cardzones.scenario.refs import parse_card, parse_zone

if TYPE_CHECKING:
    from cardzones.cards.lookup import CardLookup

log = logging.getLogger(__name__)

#: A physical card in a stored act: ``#17``.
_PHYSICAL = re.compile(r"^#(\d+)$")
#: The label the scenario layer gives the moved card while it applies ``then:``.
_THEN_LABEL = "__then_"


class Refusal(CardzonesError):
    """The rules or the table refuse an act. Nothing changed.

    ``rule`` is the rule id when a rule refused it.
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


# ----------------------------------------------------------------------
# What each action takes
# ----------------------------------------------------------------------


@dataclass(frozen=True)
class ActionSpec:
    """The arguments of one action that the table reads: cards the action acts
    on (``own``), cards it may target anywhere (``targets``), zones that must
    be the seat's (``own_zones``), whether it takes ``by``, and whether only the
    turn player may take it."""

    own: frozenset[str] = frozenset()
    targets: frozenset[str] = frozenset()
    own_zones: frozenset[str] = frozenset()
    by: bool = True
    turn: bool = False
    #: arguments that hold an EFFECT mapping, whose ``card`` is a target
    effects: frozenset[str] = frozenset()


def _spec(
    own: str = "",
    targets: str = "",
    own_zones: str = "",
    *,
    by: bool = True,
    turn: bool = False,
    effects: str = "",
) -> ActionSpec:
    return ActionSpec(
        frozenset(own.split()),
        frozenset(targets.split()),
        frozenset(own_zones.split()),
        by,
        turn,
        frozenset(effects.split()),
    )


#: Every action a seat may send, by rule set.
ACTIONS: dict[str, dict[str, ActionSpec]] = {
    "both": {
        "move": _spec("card"),
        "shuffle": _spec(own_zones="zone"),
        "flip": _spec("card"),
        "modify": _spec("card", by=False),
        "grant": _spec("card", by=False),
        "end_turn": _spec("order", by=False, turn=True),
    },
    "fab": {
        "clear": _spec("card"),
        "put_under": _spec("card top"),
        "play": _spec("card"),
        "add_layer": _spec("source"),
        "remove_layer": _spec(turn=True),
        "resolve": _spec(turn=True),
        "create_token": _spec(by=False),
        "create_zone": _spec(own_zones="zone", by=False),
        "remove_zone": _spec(own_zones="zone", by=False),
    },
    "redemption": {
        "place": _spec("cards source order", "onto", effects="ongoing"),
        "set_aside": _spec("source", "cards played_on", effects="ongoing"),
        "return": _spec("cards"),
        "negate": _spec(),
        "dominant": _spec("card", "target"),
        "discard": _spec("card"),
        "phase": _spec(by=False, turn=True),
        "end_battle": _spec(by=False, turn=True),
    },
}


def actions_of(ruleset: str) -> dict[str, ActionSpec]:
    """The actions a seat may send in ``ruleset``."""
    return {**ACTIONS["both"], **ACTIONS.get(ruleset, {})}


# ----------------------------------------------------------------------
# The context stored acts run in
# ----------------------------------------------------------------------


class TableContext(Context):
    """The scenario layer's context for a table's game: once the table is set
    up (``seated``), a card is named only as ``#N``, a physical card, which only
    :func:`bind_act` writes."""

    def __init__(
        self,
        game: Game,
        ruleset: str,
        file: str,
        cards: dict[str, CardDef],
        card_data: CardLookup | None = None,
    ) -> None:
        super().__init__(game, ruleset, file, cards, card_data)
        self.seated = False

    def card(self, node: Any, key: Any, value: Any = None) -> int:
        if value is None and isinstance(node, dict) and key in node:
            value = node[key]
        if isinstance(value, str):
            found = _PHYSICAL.match(value)
            if found is not None:
                card = int(found.group(1))
                if not self.game.exists(card):
                    raise self.fail(node, key, "no such card")
                return card
            if not self.seated or value.startswith("$" + _THEN_LABEL):
                return super().card(node, key, value)
        if not self.seated:
            return super().card(node, key, value)
        raise self.fail(node, key, f"{value!r} names no card here")

    def state(self) -> tuple[dict[str, int], dict[str, Any]]:
        """The labels and effect labels, to restore after a refused act."""
        return dict(self.labels), dict(self.effects)

    def restore(self, state: tuple[dict[str, int], dict[str, Any]]) -> None:
        self.labels, self.effects = dict(state[0]), dict(state[1])


# ----------------------------------------------------------------------
# Binding an act for a seat
# ----------------------------------------------------------------------

#: Keys a step may carry beside its action (SCENARIOS.md), and what a table
#: does with them.
_STEP_KEYS = frozenset({"as"})
_NOT_AT_A_TABLE = {
    "result": "result: is for scenario files; the table's answer says what the act did",
    "error": "error: is for scenario files; a refused act is answered with its error",
    "expect": "expect: is for scenario files; a seat sees the game in its view",
    "mark": "mark: is for scenario files; a seat follows cards by their handles",
}


@dataclass
class Bound:
    """An act bound for a seat: the stored act, and how the seat named each
    physical card, so that a message names cards as the seat did."""

    stored: dict[str, Any]
    names: dict[str, str] = field(default_factory=dict)


def bind_act(game: Game, seat: str | None, act: Any) -> Bound:
    """The stored act for ``seat``'s act, or a :class:`Refusal`."""
    if seat is None:
        raise Refusal("a spectator cannot act")
    if not isinstance(act, dict) or not act:
        raise Refusal('an act is one action, such as {"move": {"card": ID, "to": ZONE}}')
    _no_labels(act)
    known = actions_of(game.ruleset.name)
    keys = [k for k in act if k not in _STEP_KEYS]
    for key in keys:
        if key in _NOT_AT_A_TABLE:
            raise Refusal(_NOT_AT_A_TABLE[key])
    if len(keys) != 1:
        raise Refusal(f"an act holds exactly one action, found {len(keys)}")
    name = keys[0]
    spec = known.get(name)
    if spec is None:
        raise Refusal(
            f"unknown action {name!r} for {game.ruleset.name}; actions are "
            + ", ".join(sorted(known))
        )
    args = _args(name, act[name])
    if "as" in act:
        if "as" in args:
            raise Refusal("as: is given twice")
        args["as"] = act["as"]
    binder = _Binder(game, seat)
    if spec.turn and game.turn_player != seat:
        raise Refusal(f"{name} is the turn player's, and it is {game.turn_player}'s turn")
    stored = {name: binder.bind(name, spec, args, known)}
    return Bound(stored, binder.names)


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


def _args(name: str, raw: Any) -> dict[str, Any]:
    if raw is None:
        return {}
    if isinstance(raw, dict):
        return dict(raw)
    if isinstance(raw, str | int) and not isinstance(raw, bool):
        # A bare value, as in {"phase": "upkeep"}, is the action's one argument.
        return {name: raw}
    raise Refusal(f"{name} takes a mapping of its arguments")


class _Binder:
    def __init__(self, game: Game, seat: str) -> None:
        self.game = game
        self.seat = seat
        self.names: dict[str, str] = {}

    def bind(
        self,
        name: str,
        spec: ActionSpec,
        args: dict[str, Any],
        known: dict[str, ActionSpec],
        moved: int | None = None,
    ) -> dict[str, Any]:
        out = dict(args)
        if spec.by:
            by = out.get("by", self.seat)
            if by != self.seat:
                raise Refusal(f"by: {by!r}: a seat acts for itself only ({self.seat})")
            out["by"] = self.seat
        elif "by" in out:
            raise Refusal(f"unknown key 'by' in {name}")
        if name == "create_token":
            out.setdefault("controller", self.seat)
        for key in spec.own:
            if key in out:
                out[key] = self.cards(out[key], key, own=True)
        for key in spec.targets:
            if key in out:
                out[key] = self.cards(out[key], key, own=False)
        for key in spec.effects:
            body = out.get(key)
            if isinstance(body, dict) and "card" in body:
                out[key] = {**body, "card": self.cards(body["card"], f"{key}.card", own=False)}
        for key in spec.own_zones:
            if key in out:
                self.own_zone(out[key], key)
        then = out.get("then")
        if name == "move" and then is not None:
            out["then"] = self.then(then, known)
        return out

    def then(self, then: Any, known: dict[str, ActionSpec]) -> Any:
        """``then:`` acts on the moved card, already checked; its other
        arguments are bound like an act's."""
        if not isinstance(then, dict) or len(then) != 1:
            return then  # the scenario layer refuses it with its own message
        ((name, raw),) = then.items()
        spec = known.get(name)
        if spec is None:
            return then  # the scenario layer refuses it with its own message
        if spec.turn or name == "move":
            raise Refusal(f"then: takes an action on the moved card, not {name}")
        args = _args(name, raw)
        if "card" in args:
            raise Refusal("then: applies to the moved object; leave out card:")
        return {name: self.bind(name, spec, args, known)}

    def cards(self, value: Any, key: str, *, own: bool) -> Any:
        if isinstance(value, list):
            return [self.card(v, key, own=own) for v in value]
        return self.card(value, key, own=own)

    def card(self, value: Any, key: str, *, own: bool) -> str:
        if not isinstance(value, str) or not value.strip():
            raise Refusal(f"{key}: a card is named by the id its view gives, or by ZONE[i]")
        card = self.resolve(value.strip(), key)
        game, seat = self.game, self.seat
        visible = game.may_look(seat, card)
        if not visible and game.zone_info(game.location(card)).owner != seat:
            raise Refusal(
                f"{key}: {value}: a card you may not look at can be named only in your own zones"
            )
        if own and not _is_own(game, seat, card, visible):
            raise Refusal(
                f"{key}: {value}: {seat} may act only on cards {seat} controls, "
                "or owns when they have no controller"
            )
        stored = f"#{card}"
        self.names[stored] = value
        return stored

    def resolve(self, text: str, key: str) -> int:
        ref = parse_card(text)
        if ref is None:
            try:
                return card_for_handle(self.game, self.seat, text)
            except UnknownReference:
                raise Refusal(f"{key}: {text}: no such card") from None
        if ref.kind != "index" or ref.zone is None or ref.position is None:
            raise Refusal(f"{key}: {text}: at a table a card is named by its id or by ZONE[i]")
        cards = self.zone_cards(ref.zone, key, text)
        if not -len(cards) <= ref.position < len(cards):
            raise Refusal(f"{key}: {text}: {ref.zone} has {len(cards)} card(s)")
        return cards[ref.position]

    def zone_cards(self, ref: Any, key: str, text: str) -> list[int]:
        game = self.game
        if ref.owner is not None and ref.owner not in game.players:
            raise Refusal(f"{key}: {text}: {ref.owner!r} is not a player")
        if ref.type == "soul" and game.ruleset.name == "fab":
            hero = game.zone(ref.owner, "hero")
            tops = game.contents(hero) if hero is not None else ()
            return [k for k in game.kids(tops[0]) if game.obj(k).rel == UNDER] if tops else []
        try:
            spec = game.spec(ref.type)
        except UnknownReference as exc:
            raise Refusal(f"{key}: {text}: {exc}") from None
        if not spec.shared and ref.owner is None:
            raise Refusal(f"{key}: {text}: say whose {ref.type} (e.g. {self.seat}.{ref.type})")
        zid = game.zone(ref.owner, ref.type, ref.number or 1)
        if zid is None:
            raise Refusal(f"{key}: {text}: zone {ref} does not exist")
        return shown_cards(game, self.seat, zid)

    def own_zone(self, value: Any, key: str) -> None:
        ref = parse_zone(value)
        if ref is None or ref.owner != self.seat:
            raise Refusal(f"{key}: {value!r}: a seat may do this only to its own zones")


def _is_own(game: Game, seat: str, card: int, visible: bool) -> bool:
    if not visible:
        return True  # named in the seat's own zone: checked by the caller
    obj = game.obj(card)
    if obj.controller is not None:
        return obj.controller == seat
    return obj.owner == seat


# ----------------------------------------------------------------------
# Applying a stored act
# ----------------------------------------------------------------------

_INTERNAL_CARD = re.compile(r"\bcard \d+\b")


def apply_stored(
    ctx: TableContext, stored: dict[str, Any], names: dict[str, str] | None = None
) -> MoveResult:
    """Apply a stored act to the table's game. A refusal rolls everything back
    (the game, the labels) and raises :class:`Refusal`, whose message names a
    card as ``names`` says the seat named it."""
    ((name, args),) = stored.items()
    handler = action_table(ctx.ruleset).get(name)
    if handler is None:
        raise Refusal(f"unknown action {name!r}")
    game = ctx.game
    checkpoint = game.checkpoint()
    labels = ctx.state()
    node = from_data(args, ctx.file)

    def fail(text: str, rule: str | None) -> Refusal:
        return Refusal(_clean(text, names or {}), rule)

    try:
        return handler(ctx, node)
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
    for stored, given in names.items():
        message = message.replace(f"'{stored}'", repr(given)).replace(stored, given)
    message = re.sub(r"\$" + _THEN_LABEL + r"\d+", "the moved card", message)
    message = re.sub(r"#\d+", "a card", message)
    return _INTERNAL_CARD.sub("a card", message)


@dataclass(frozen=True)
class Applied:
    """An act that the rules accepted: the stored act and what it did."""

    stored: dict[str, Any]
    result: MoveResult


def apply_act(ctx: TableContext, seat: str | None, act: Any) -> Applied:
    """Apply ``seat``'s act to the table's game, or raise :class:`Refusal` and
    change nothing.

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
    bound = bind_act(ctx.game, seat, act)
    return Applied(bound.stored, apply_stored(ctx, bound.stored, bound.names))
