"""What a listing of legal actions (:mod:`cardzones.acts.legal`) reads of an
action table and of the candidates its actions give: the actions asked
for, the candidates a rule set gives already within the seat policy, the key
that tells one candidate from another, and every candidate of a table
(:func:`candidate_actions`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from cardzones.acts.actions import Action, ParamKind, table_of
from cardzones.acts.binding import RESOLVED, bind

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


class SeatCandidate(dict[str, Any]):
    """A candidate's arguments that the rule set's candidates give within the
    seat policy by the way they are made: the actor is the player the
    candidates are asked for, and every card named is one that player may
    look at and acts on (such as a card of their own hand, arsenal or
    equipment), as a game procedure's acts name them. A listing takes it as
    it is, without checking the seat policy again value by value: the rules
    (``Action.foresee``) still judge it. Trying every candidate
    (:func:`~cardzones.acts.legal.tried_legal_actions`) binds it with the
    seat policy like any other, so the tests hold the two lists equal."""

    __slots__ = ()


def selected(
    table: Mapping[str, Action], actions: Iterable[str] | None, judges: bool
) -> tuple[Action, ...]:
    """The actions of ``table`` a listing asks for candidates, in the table's
    order: those with candidates, limited to the names ``actions`` gives, a
    judge's action only when named or with ``judges``. A player's program
    asks for the same names at every act (a procedure's acts): a tuple of
    names is looked up once per table, not the whole table walked again."""
    key = (id(table), actions, judges) if actions.__class__ is tuple else None
    if key is not None:
        held = _SELECTED.get(key)
        if held is not None and held[0] is table:
            return held[1]
    wanted = None if actions is None else set(actions)
    chosen = tuple(
        action
        for name, action in table.items()
        if action.candidates is not None
        and (wanted is None or name in wanted)
        # a judge's action: offered when asked for
        and not (action.judge and not judges and wanted is None)
    )
    if key is not None:
        if len(_SELECTED) >= _SELECTED_MAX:
            _SELECTED.clear()
        _SELECTED[key] = (table, chosen)
    return chosen


#: The actions each table gives for a tuple of names (:func:`selected`),
#: with the table itself, as an id is reused once its table is gone.
_SELECTED: dict[tuple[int, Any, bool], tuple[Mapping[str, Action], tuple[Action, ...]]] = {}
#: How many selections :data:`_SELECTED` holds before it starts again.
_SELECTED_MAX = 256


def candidate_actions(game: Game, player: str) -> Iterator[tuple[Action, dict[str, Any]]]:
    """Every candidate of the rule set's actions for ``player`` that the rule
    set offers (``Action.offer``), a judge's actions included, with its
    arguments completed, before the seat policy and the rules are asked: the
    space :func:`~cardzones.acts.legal.legal_actions` with ``judge=True`` chooses from (for tests
    and tools)."""
    for action in table_of(game).values():
        if action.candidates is not None:
            offer = action.offer
            for given in action.candidates(game, player):
                args = _args(action, given, player)
                if offer is None or offer(game, args):
                    yield action, args


def _args(action: Action, given: Mapping[str, Any], player: str) -> dict[str, Any]:
    args = bind(action, given, RESOLVED)
    if action.actor is not None and args[action.actor] is None:
        args[action.actor] = player
    return args


def candidate_key(args: dict[str, Any]) -> Any:
    """A key for a candidate's arguments: the values in parameter order, which
    is the order of a completed candidate's keys."""
    key = tuple(args.values())
    try:
        hash(key)
    except TypeError:  # a mapping among them (an ongoing bonus)
        return frozen(args)
    return key


def frozen(value: Any, texts: dict[int, tuple[Any, str]] | None = None) -> Any:
    """A hashable value equal for equal values; ``texts`` keeps the text of
    each unhashable value met (an immutable card definition, met once per
    destination of a token), so that one listing writes it once."""
    try:
        hash(value)
    except TypeError:
        pass
    else:
        return value  # most are: a name, a number, a card, a destination
    if isinstance(value, Mapping):
        return tuple(sorted((k, frozen(v, texts)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(frozen(v, texts) for v in value)
    # A card definition: its text says what it is.
    if texts is None:
        return repr(value)
    held = texts.get(id(value))
    if held is None or held[0] is not value:
        held = texts[id(value)] = (value, repr(value))
    return held[1]


def _all_visible(game: Game, player: str, action: Action, args: Mapping[str, Any]) -> bool:
    """Whether the player may look at every card the arguments name, asked
    card by card (the reference the tests hold a listing's flags to)."""
    for param in action.params:
        value = args.get(param.name)
        if value is None:
            continue
        if param.kind is ParamKind.CARD and not game.may_look(player, value):
            return False
        if param.kind is ParamKind.CARDS and not all(game.may_look(player, c) for c in value):
            return False
    return True
