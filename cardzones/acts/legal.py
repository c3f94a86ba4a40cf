"""Legal actions: what a player may do now, each ready to apply.

:func:`legal_actions` (and :meth:`Game.legal_actions
<cardzones.kernel.game.Game.legal_actions>`) asks each action of the rule set's
table for its candidates (``Action.candidates(game, player)``: the arguments
the player could give now, as the rule set lists them), keeps those the seat
policy allows the player (:mod:`cardzones.acts.seats`: the player acts for
themselves, on their own cards, and names a card they may not look at only
by its place in their own zone), checked by the one pass that binds every act
(:func:`~cardzones.acts.binding.bind`), and tries each on the game, rolling it back
at once: a refused one (:class:`~cardzones.errors.IllegalAction`) is left out,
and one that needs a choice of zone (:class:`~cardzones.errors.NeedsChoice`)
is listed once per option. So every listed action succeeds when applied to
the game as it is, and every candidate left out is refused.

An action may succeed and still do nothing the player wants: a move whose
effect fails (3.0.11) is legal and gives ``result`` ``failed``. ``result`` is
what the try gave, or None when the action names a card the player may not
look at (what it would give could tell what the card is).

The candidates, the checks and the order of the list depend only on what the
player may know, so the list tells them nothing their view does not
(tests/test_legal.py holds this as a property).

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
>>> legal = game.legal_actions("alice", actions=["play", "pitch"])
>>> [(a.name, a.result.value) for a in legal]
[('play', 'moved'), ('pitch', 'moved')]
>>> legal[0].to_json(game)["play"]["by"]
'alice'
>>> legal[0].apply(game).result.value
'moved'
>>> game.zone_name(game.location(card))
'stack'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardzones.acts.actions import Action, BoundAction, Param, ParamKind, table_of
from cardzones.acts.binding import RESOLVED, bind, bind_written
from cardzones.acts.seats import Seat, SeatRefusal
from cardzones.errors import CardzonesError, NeedsChoice
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.results import ActionResult, MoveResult
from cardzones.kernel.views import handle_for, shown_cards

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: How many choices deep a candidate is expanded (a choice of zone, then another).
_CHOICE_DEPTH = 2


@dataclass(frozen=True, slots=True)
class LegalAction:
    """One action a player may take now: the action of the rule set's table,
    its arguments as ``Action.run`` takes them (card ids, zone ids,
    destinations), the player, and what trying it gave (None when it names a
    card the player may not look at)."""

    action: Action
    args: Mapping[str, Any]
    player: str
    result: MoveResult | None

    @property
    def name(self) -> str:
        """The action's name, its step key."""
        return self.action.name

    def apply(self, game: Game) -> ActionResult:
        """Take the action on ``game`` (this game, or a copy of it) as the
        player. Refused, it raises :class:`~cardzones.errors.IllegalAction`
        and changes nothing: the seat policy is checked again first, and the
        rules then decide, as the game is now."""
        args = bind(self.action, self.args, RESOLVED, seat=Seat(game, self.player))
        return self.action.run(game, args)

    def to_json(self, game: Game, labels: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The action as one step of the step language, as the player names
        things in ``game`` now: a card by the handle the player's view gives
        it, or ``ZONE[i]`` (its place in the player's view of one of their own
        zones) when they may not look at it; zones and destinations by name.
        Parameters at their default are left out; the actor is written out.
        An effect is named by its label in ``labels`` (label -> the handle an
        action returned, as a scenario or a table keeps them).

        Raises :class:`~cardzones.errors.CardzonesError` when a value has no
        name here (an effect without a label).
        """
        writer = _Named(game, self.player, labels or {})
        return {self.name: bind_written(self.action, self.args, RESOLVED, writer)[1]}

    def __repr__(self) -> str:
        shown = {k: v for k, v in self.args.items() if v is not None}
        result = f" -> {self.result.value}" if self.result is not None else ""
        return f"<LegalAction {self.name} {shown}{result}>"


def legal_actions(
    game: Game, player: str, actions: Iterable[str] | None = None
) -> list[LegalAction]:
    """Every action of the rule set's table that ``player`` may take now, each
    ready to apply (see the module's documentation); ``actions`` limits it to
    those names. Actions without candidates (``Action.candidates`` None) are
    never listed. The game is as it was when this returns."""
    game.check_player(player)
    wanted = None if actions is None else set(actions)
    seat = Seat(game, player)
    out: list[LegalAction] = []
    for name, action in table_of(game).items():
        if action.candidates is None or (wanted is not None and name not in wanted):
            continue
        try:
            seat.turn(action)
        except SeatRefusal:
            continue
        seen: set[Any] = set()
        for given in action.candidates(game, player):
            try:
                args = bind(action, given, RESOLVED, seat=seat)
            except SeatRefusal:
                continue
            key = _key(args)
            if key in seen:
                continue
            seen.add(key)
            out.extend(_tried(game, player, action, args, _CHOICE_DEPTH))
    return out


def candidate_actions(game: Game, player: str) -> Iterator[tuple[Action, dict[str, Any]]]:
    """Every candidate of the rule set's actions for ``player``, with its
    arguments completed, before the seat policy and the rules are asked: the
    space :func:`legal_actions` chooses from (for tests and tools)."""
    for action in table_of(game).values():
        if action.candidates is not None:
            for given in action.candidates(game, player):
                yield action, _args(action, given, player)


def _args(action: Action, given: Mapping[str, Any], player: str) -> dict[str, Any]:
    args = bind(action, given, RESOLVED)
    if action.actor is not None and args[action.actor] is None:
        args[action.actor] = player
    return args


def _tried(
    game: Game, player: str, action: Action, args: dict[str, Any], depth: int
) -> list[LegalAction]:
    checkpoint = game.checkpoint()
    try:
        done = action.run(game, args)
    except NeedsChoice as choice:
        game.rollback(checkpoint)
        return _choices(game, player, action, args, choice, depth)
    except CardzonesError:  # refused (IllegalAction), or an argument the rules refuse
        game.rollback(checkpoint)
        return []
    except BaseException:
        game.rollback(checkpoint)
        raise
    game.rollback(checkpoint)
    result = done.result if _all_visible(game, player, action, args) else None
    return [LegalAction(action, args, player, result)]


def _choices(
    game: Game,
    player: str,
    action: Action,
    args: dict[str, Any],
    choice: NeedsChoice,
    depth: int,
) -> list[LegalAction]:
    """A candidate that needs a choice of zone, once per option."""
    names = {p.name: p for p in action.params}
    param = names.get(choice.key)
    if depth <= 0 or param is None or param.kind is not ParamKind.ZONE:
        return []
    if args.get(choice.key) is not None:
        return []
    zones = {game.zone_name(z): z for z in game.all_zones()}
    out: list[LegalAction] = []
    for option in choice.options:
        zid = zones.get(option)
        if zid is not None:
            out.extend(_tried(game, player, action, {**args, choice.key: zid}, depth - 1))
    return out


def _all_visible(game: Game, player: str, action: Action, args: Mapping[str, Any]) -> bool:
    for param in action.params:
        value = args.get(param.name)
        if value is None:
            continue
        if param.kind is ParamKind.CARD and not game.may_look(player, value):
            return False
        if param.kind is ParamKind.CARDS and not all(game.may_look(player, c) for c in value):
            return False
    return True


def _key(args: dict[str, Any]) -> Any:
    """A key for a candidate's arguments: the values in parameter order, which
    is the order of a completed candidate's keys."""
    key = tuple(args.values())
    try:
        hash(key)
    except TypeError:  # a mapping among them (an ongoing bonus)
        return _frozen(args)
    return key


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    try:
        hash(value)
    except TypeError:  # a card definition: its text says what it is
        return repr(value)
    return value


# ----------------------------------------------------------------------
# The step language, as a player names things
# ----------------------------------------------------------------------


def card_name(game: Game, player: str, card: int) -> str:
    """How ``player`` names a card in a step: the handle their view gives it,
    or ``ZONE[i]`` for one they may not look at in a zone of theirs."""
    handle = handle_for(game, player, card)
    if handle is not None:
        return handle
    zid = game.location(card)
    if game.zone_info(zid).owner != player or game.obj(card).host is not None:
        raise CardzonesError("a card the player may not look at has no name for them here")
    return f"{game.zone_name(zid)}[{shown_cards(game, player, zid).index(card)}]"


def dest_name(dest: Dest) -> str:
    """A destination as a step names it: ``alice.weapon.2``, ``stack``, ``arena``."""
    text = dest.type if dest.owner is None else f"{dest.owner}.{dest.type}"
    return text if dest.index is None else f"{text}.{dest.index}"


class _Named:
    """Writes a legal action as a step, naming things as the player does
    (:meth:`LegalAction.to_json`): parameters at their default are left out,
    the actor is written out."""

    def __init__(self, game: Game, player: str, labels: Mapping[str, Any]) -> None:
        self.game = game
        self.player = player
        self.labels = labels

    def action(
        self, action: Action, raw: Mapping[str, Any], args: Mapping[str, Any], out: dict[str, Any]
    ) -> dict[str, Any]:
        written: dict[str, Any] = {}
        for param in action.params:
            value = args.get(param.name)
            if param.name != action.actor and value == param.default:
                continue
            if value is None:
                continue
            written[param.name] = out[param.name]
        return written

    def value(self, param: Param, raw: Any, bound: Any, written: Any) -> Any:
        if bound is None:
            return None
        kind = param.kind
        game, player = self.game, self.player
        if kind is ParamKind.CARD:
            return card_name(game, player, bound)
        if kind is ParamKind.CARDS:
            return [card_name(game, player, c) for c in bound]
        if kind is ParamKind.ZONE:
            return game.zone_name(bound)
        if kind in (ParamKind.DEST, ParamKind.ZONE_NAME):
            return dest_name(bound)
        if kind is ParamKind.NAME:
            assert isinstance(bound, CardDef)
            return bound.name
        if kind is ParamKind.DELTA:
            return f"{bound:+d}"
        if kind is ParamKind.EFFECT:
            for label, handle in self.labels.items():
                if handle == bound:
                    return label
            raise CardzonesError("an effect without a label has no name in a step")
        if kind is ParamKind.MAPPING:
            return {k: v for k, v in written.items() if v is not None}
        if kind is ParamKind.ACTION:
            assert isinstance(bound, BoundAction)
            raise CardzonesError("a nested action is not a legal action's argument")
        if isinstance(bound, tuple):
            return list(bound)
        return bound
