"""How legal actions read the candidates of an action quickly, and check a
listed action again as it is applied (:func:`seat_checked`): for each set
of keys a candidate gives, found once for the action (:func:`prepared`), what
the quick binding checks of each value (:func:`shape_of`) and which names of
each group of ``one_of`` it can hold, so that only a candidate of an unusual
shape goes through the binder's own pass
(:func:`~cardzones.acts.binding.bind`); and, for a listing on one card,
which parameters can name it (:func:`naming`), so that a candidate that
does not is left out before it is read further.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardzones.acts.actions import Action, ParamKind, Role
from cardzones.acts.seats import acts_on, may_name, owns_zone
from cardzones.errors import CardzonesError

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: What the quick binding checks of a given value (beside None: nothing):
#: the actor is the player; a card the player may name (and act on); each
#: card of a list so; a zone of the player's; a nested value, which only the
#: binder's own pass checks.
ACTOR, CARD, CARDS, OWN_ZONE, NESTED = range(5)
#: How the quick binding reads candidates of one set of keys (their order in
#: the candidate): the checks of the values given, each (key, check, whether
#: the card is one the player acts on), or None when the binder must read
#: them (a key the action lacks, a required one left out, a group of
#: ``one_of`` that no key can meet, a card parameter with a default).
Shape = tuple[tuple[str, int, bool], ...] | None
#: The groups of an action's ``one_of``: the names of each, and whether
#: exactly one of them is given.
Groups = tuple[tuple[tuple[str, ...], bool], ...]
#: What judging reads of an action, the same in every listing: its
#: parameters' defaults, its groups of ``one_of``, what
#: :func:`shape_and_groups` found of each set of keys met so far, and whether
#: a candidate may hold a list of cards (unhashable: the listing's key holds
#: it as a tuple).
Prepared = tuple[dict[str, Any], Groups, dict[tuple[str, ...], tuple[Shape, Groups]], bool]

#: :data:`Prepared` by the action's id, with the action held so that the id
#: stays its own.
_PREPARED: dict[int, tuple[Action, Prepared]] = {}
#: How many actions :data:`_PREPARED` holds before it starts again (rule sets
#: made by the thousand, as tests make them, must not fill memory).
_PREPARED_MAX = 1024


def prepared(action: Action) -> Prepared:
    """What judging reads of ``action`` (:data:`Prepared`), found once."""
    held = _PREPARED.get(id(action))
    if held is not None and held[0] is action:
        return held[1]
    if len(_PREPARED) >= _PREPARED_MAX:
        _PREPARED.clear()
    prep: Prepared = (
        {p.name: p.default for p in action.params},
        tuple((g.names, g.exactly) for g in action.one_of),
        {},
        any(p.kind is ParamKind.CARDS for p in action.params),
    )
    _PREPARED[id(action)] = (action, prep)
    return prep


def shape_and_groups(action: Action, keys: tuple[str, ...], one_of: Groups) -> tuple[Shape, Groups]:
    """The shape of candidates with these keys (:func:`shape_of`), and each
    group of ``one_of`` as the names of it among the keys."""
    return shape_of(action, keys), tuple(
        (tuple(k for k in names if k in keys), exactly) for names, exactly in one_of
    )


def shape_of(action: Action, keys: tuple[str, ...]) -> Shape:
    params = {p.name: p for p in action.params}
    if any(k not in params for k in keys) or any(
        p.required and p.name not in keys for p in action.params
    ):
        return None
    if any(not any(k in keys for k in g.names) for g in action.one_of):
        return None
    checks: list[tuple[str, int, bool]] = []
    for param in action.params:
        kind = param.kind
        if (kind is ParamKind.CARD or kind is ParamKind.CARDS) and param.default is not None:
            return None  # a card named by default: the binder and the look see it
        if param.name not in keys:
            continue
        if param.name == action.actor:
            if param.role is not Role.ANY_PLAYER:
                checks.append((param.name, ACTOR, False))
        elif kind is ParamKind.CARD or kind is ParamKind.CARDS:
            check = CARD if kind is ParamKind.CARD else CARDS
            checks.append((param.name, check, param.role is Role.ACTS_ON))
        elif kind is ParamKind.ZONE or kind is ParamKind.ZONE_NAME:
            if param.role is Role.OWN_ZONE:
                checks.append((param.name, OWN_ZONE, False))
        elif kind in (ParamKind.MAPPING, ParamKind.ACTION, ParamKind.ZONE_CHOICE):
            checks.append((param.name, NESTED, False))
    return tuple(checks)


def seat_checked(
    game: Game, player: str, action: Action, bound: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The arguments of a listed action as
    :func:`~cardzones.acts.binding.bind` with the seat makes them, checked
    the quick way a listing checks candidates (:func:`shape_of`): the player
    acts for themselves, may name each card (and act on it, where the action
    acts on it), on their own zones, and the action is theirs to take on
    this turn. None when a check fails or the quick way cannot read the
    arguments (a nested value): the binder then decides, and says what is
    wrong."""
    if action.turn_player and game.turn_player != player:
        return None
    shapes = prepared(action)[2]
    keys = tuple(bound)
    found = shapes.get(keys)
    if found is None:
        found = shapes[keys] = shape_and_groups(action, keys, prepared(action)[1])
    shape, groups = found
    if shape is None:
        return None
    # Loops rather than generators in sum() and all(): every act applied
    # comes here.
    for group, exactly in groups:
        n = 0
        for k in group:
            if bound[k] is not None:
                n += 1
        if n == 0 or (exactly and n != 1):
            return None
    actor = action.actor
    by = bound.get("by")
    if by is not None and by != player and actor != "by":
        return None  # the binder checks who acts under either name
    try:
        for key, check, ours in shape:
            value = bound[key]
            if value is None:
                continue
            if check is ACTOR:
                if value != player:
                    return None
            elif not _allowed(game, player, check, ours, value):
                return None
    except CardzonesError:  # a card or zone that is gone: the binder says so
        return None
    args = dict(bound)
    if actor is not None and args[actor] is None:
        args[actor] = player
    return args


def _allowed(game: Game, player: str, check: int, ours: bool, value: Any) -> bool:
    """Whether one value passes its check of the seat policy (a value left
    out passes; a nested one is the binder's to check)."""
    if value is None:
        return True
    if check is ACTOR:
        return bool(value == player)
    if check is OWN_ZONE:
        return owns_zone(game, player, value)
    if check is not CARD and check is not CARDS:
        return False
    for card in (value,) if check is CARD else value:
        if not may_name(game, player, card) or (ours and not acts_on(game, player, card)):
            return False
    return True


def naming(action: Action, card: int | None) -> tuple[int | None, tuple[str, ...], tuple[str, ...]]:
    """For a listing on ``card``: the card, and the names of the action's
    card and card-list parameters, so that a candidate can be told not to
    name it from the values it gives. None for the card when no card is
    asked for, or when a card parameter has a default (a candidate may
    then name the card without giving it)."""
    if card is None:
        return None, (), ()
    one: list[str] = []
    many: list[str] = []
    for param in action.params:
        if param.kind is ParamKind.CARD or param.kind is ParamKind.CARDS:
            if param.default is not None:
                return None, (), ()
            (one if param.kind is ParamKind.CARD else many).append(param.name)
    return card, tuple(one), tuple(many)
