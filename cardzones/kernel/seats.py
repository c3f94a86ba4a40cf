"""What a player acting for themselves may do: the seat policy, read from the
action tables alone (:class:`~cardzones.kernel.actions.Role`,
``Action.turn_player``).

A scenario or a script acts for every player and the rules alone decide. A
host where each player acts only for themselves, as at a physical table (the
table server, :meth:`Game.legal_actions <cardzones.kernel.game.Game.legal_actions>`),
adds this policy on top of the rules, never instead of them:

- the action's **actor** is the player: left out it is the player, and it may
  name no one else, unless its role is ``ANY_PLAYER`` (the rules decide);
- a card with the role ``ACTS_ON`` is the player's: one they control, or own
  when it has no controller (1.2.1b);
- a card with the role ``TARGET`` may be anyone's: the rules decide;
- a card the player may not look at is named only in a zone the player owns
  (the top of their own deck): whose it is, is itself hidden;
- a zone with the role ``OWN_ZONE`` is one of the player's;
- an action with ``turn_player`` is the turn player's;
- the same holds inside a nested action (``then:``), which may not nest
  another.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
>>> flip = game.ruleset.actions["flip"]
>>> print(seat_refusal(game, "alice", flip, {"card": card, "face": "up", "by": None}))
None
>>> print(seat_refusal(game, "bob", flip, {"card": card, "face": "up", "by": None}))
card: a card you may not look at can be named only in your own zones
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from cardzones.kernel.actions import Action, BoundAction, Param, ParamKind, Role
from cardzones.kernel.cards import Dest
from cardzones.kernel.objects import CARD

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def may_name(game: Game, player: str, card: int) -> bool:
    """Whether ``player`` may name the card at all: they may look at it, or it
    is in a zone they own (by its position there)."""
    return game.may_look(player, card) or game.zone_info(game.location(card)).owner == player


def acts_on(game: Game, player: str, card: int) -> bool:
    """Whether the card is ``player``'s to act on: one they control, or own
    when it has no controller (1.2.1b). A card the player may not look at is
    named in their own zone (:func:`may_name`), and whose it is stays hidden."""
    if not game.may_look(player, card):
        return True
    obj = game.obj(card)
    whose = obj.controller if obj.controller is not None else obj.owner
    return whose == player


def owns_zone(game: Game, player: str, zone: int | Dest) -> bool:
    """Whether the zone (a zone id, or a destination by owner) is ``player``'s."""
    owner = zone.owner if isinstance(zone, Dest) else game.zone_info(zone).owner
    return owner == player


def turn_refusal(game: Game, player: str, action: Action) -> str | None:
    """Why ``player`` may not take ``action`` now because it is the turn
    player's, or None."""
    if action.turn_player and game.turn_player != player:
        return f"{action.name} is the turn player's, and it is {game.turn_player}'s turn"
    return None


def seat_refusal(
    game: Game, player: str, action: Action, args: Mapping[str, Any], path: str = ""
) -> str | None:
    """Why ``player``, acting for themselves, may not take ``action`` with
    ``args`` (every parameter, as :func:`~cardzones.kernel.actions.bind` or
    :func:`~cardzones.kernel.actions.complete` gives them), or None when the
    policy allows it; the rules still decide. The reason names no card."""
    problem = turn_refusal(game, player, action)
    if problem is not None:
        return problem
    if action.actor is not None:
        actor = action.param(action.actor)
        given = args.get(action.actor)
        if given is not None and given != player and actor.role is not Role.ANY_PLAYER:
            return f"{path}{action.actor}: {given!r}: a player acts for themselves only ({player})"
    for param in action.params:
        if param.name == action.actor or param.name not in args:
            continue
        problem = _value_refusal(game, player, param, args[param.name], f"{path}{param.name}")
        if problem is not None:
            return problem
    return None


def _value_refusal(game: Game, player: str, param: Param, value: Any, where: str) -> str | None:
    if value is None:
        return None
    kind = param.kind
    if kind in (ParamKind.CARD, ParamKind.CARDS):
        cards = (value,) if kind is ParamKind.CARD else tuple(value)
        for card in cards:
            if not may_name(game, player, card):
                return f"{where}: a card you may not look at can be named only in your own zones"
            if param.role is Role.ACTS_ON and not acts_on(game, player, card):
                return (
                    f"{where}: {player} may act only on cards {player} controls, or owns "
                    "when they have no controller"
                )
        return None
    if param.role is Role.OWN_ZONE and not owns_zone(game, player, value):
        return f"{where}: a player may do this only to their own zones"
    if kind is ParamKind.MAPPING and isinstance(value, Mapping):
        for sub in param.fields:
            problem = _value_refusal(game, player, sub, value.get(sub.name), f"{where}.{sub.name}")
            if problem is not None:
                return problem
        return None
    if kind is ParamKind.ACTION and isinstance(value, BoundAction):
        nested = value.action
        if any(p.kind is ParamKind.ACTION for p in nested.params):
            return f"{where}: takes an action on the moved card, not {nested.name}"
        return seat_refusal(game, player, nested, value.args, f"{where}.{nested.name}.")
    return None


# ----------------------------------------------------------------------
# The cards a player may name, for rule sets' candidates
# ----------------------------------------------------------------------


def _with_piles(game: Game, player: str, card: int) -> Iterator[int]:
    from cardzones.kernel.views import shown_pile

    yield card
    for kid in shown_pile(game, player, card):
        yield from _with_piles(game, player, kid)


def nameable_cards(game: Game, player: str) -> list[int]:
    """The cards ``player`` may name, in the order their view shows them, zone
    by zone: every card (not a layer) they may look at, with the cards under
    or on it, and in each zone of theirs the first card they may not look at
    (the top of their deck). The list depends only on what the player may
    know, so candidates built from it reveal nothing."""
    from cardzones.kernel.views import shown_cards

    out: list[int] = []
    for zid in game.all_zones():
        mine = game.zone_info(zid).owner == player
        hidden_named = False
        for top in shown_cards(game, player, zid):
            for card in _with_piles(game, player, top):
                if game.obj(card).kind != CARD:
                    continue
                if game.may_look(player, card):
                    out.append(card)
                elif mine and card == top and not hidden_named:
                    out.append(card)
                    hidden_named = True
    return out


def actable_cards(game: Game, player: str) -> list[int]:
    """The cards of :func:`nameable_cards` that ``player`` acts on
    (:func:`acts_on`): theirs, and the hidden first card of each of their
    zones."""
    return [c for c in nameable_cards(game, player) if acts_on(game, player, c)]
