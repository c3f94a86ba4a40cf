"""What a player acting for themselves may do: the seat policy, read from the
action tables alone (:class:`~cardzones.acts.actions.Role`,
``Action.turn_player``).

A scenario or a script acts for every player and the rules alone decide. A
host where each player acts only for themselves, as at a physical table (the
table server, :meth:`Game.legal_actions <cardzones.kernel.game.Game.legal_actions>`),
adds this policy on top of the rules, never instead of them:

- an action with ``turn_player`` is the turn player's;
- the action's **actor** is the player: left out it is the player, and it may
  name no one else, unless its role is ``ANY_PLAYER`` (the rules decide);
- a card the player may not look at is named only in a zone the player owns
  (the top of their own deck): whose it is, is itself hidden;
- a card with the role ``ACTS_ON`` is the player's: one they control, or own
  when it has no controller (1.2.1b);
- a card with the role ``TARGET`` may be anyone's: the rules decide;
- a zone with the role ``OWN_ZONE`` is one of the player's;
- a choice of zone (``ParamKind.ZONE_CHOICE``, 3.0.10a) is the player's own:
  one zone of theirs, or a mapping whose keys are the player and cards they
  own (a card they may not look at counts as theirs, as for ``ACTS_ON``).
  The owner of the moved card chooses; another owner's choice comes from
  them, ahead (a rule set's action that keeps a standing choice), or the act
  is refused as needing it;
- the same holds inside a nested action (``then:``), which may not nest
  another.

:class:`SeatPolicy` is the policy, checked by the one pass that binds an act
(:func:`~cardzones.acts.binding.bind` with ``seat=``), value by value, as it
is resolved. A refusal is a :class:`SeatRefusal`, whose message says which
argument and why, and names a card only as the player named it.

>>> from cardzones import new_game
>>> from cardzones.acts.binding import RESOLVED, bind
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
>>> flip = game.ruleset.actions["flip"]
>>> bind(flip, {"card": card, "face": "up", "by": "bob"}, RESOLVED, seat=SeatPolicy(game, "alice"))
Traceback (most recent call last):
...
cardzones.acts.seats.SeatRefusal: by: 'bob': a seat acts for itself only (alice)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, NoReturn

from cardzones.acts.actions import Action, Param, ParamKind, PathStep, Role
from cardzones.acts.zone_choices import ZoneChoice
from cardzones.errors import IllegalAction
from cardzones.kernel.cards import Dest
from cardzones.kernel.objects import CARD
from cardzones.kernel.views import shown_cards, shown_pile

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


class SeatRefusal(IllegalAction):
    """The seat policy refuses an act; nothing changed. The message says which
    argument and why."""


def where(path: Sequence[PathStep]) -> str:
    """A path to an argument as a player reads it: ``ongoing.card``,
    ``cards[1]``, ``then.flip.by``.

    >>> where(("then", "flip", "by")), where(("cards", 1))
    ('then.flip.by', 'cards[1]')
    """
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
    return out


class SeatPolicy:
    """The seat policy for ``player``, acting for themselves in ``game``."""

    __slots__ = ("game", "player")

    def __init__(self, game: Game, player: str) -> None:
        self.game = game
        self.player = player

    def refuse(self, message: str, rule: str | None = None) -> NoReturn:
        raise SeatRefusal(message, rule=rule)

    def takes(self, action: Action) -> bool:
        """Whether the action is the player's to take on this turn: one with
        ``turn_player`` is the turn player's (what :meth:`turn` refuses)."""
        return not action.turn_player or self.game.turn_player == self.player

    def turn(self, action: Action) -> None:
        """An action with ``turn_player`` is the turn player's."""
        if not self.takes(action):
            turn_player = self.game.turn_player
            self.refuse(f"{action.name} is the turn player's, and it is {turn_player}'s turn")

    def actor(self, param: Param, given: Any, path: Sequence[PathStep]) -> None:
        """The actor ``given`` (None: left out, the player) is the player,
        unless the parameter's role lets them name anyone."""
        if given is not None and given != self.player and param.role is not Role.ANY_PLAYER:
            at = where((*path, param.name))
            self.refuse(f"{at}: {given!r}: a seat acts for itself only ({self.player})")

    def card(self, param: Param, card: int, name: str | None, path: Sequence[PathStep]) -> None:
        """A card the player named (``name``: as they named it, if known): one
        they may name at all, and theirs where the parameter acts on it."""
        game, player = self.game, self.player
        shown = name or "a card"
        if not may_name(game, player, card):
            lead = f"{where(path)}: {name}" if name else where(path)
            self.refuse(f"{lead}: a card you may not look at can be named only in your own zones")
        if param.role is Role.ACTS_ON and not acts_on(game, player, card):
            self.refuse(
                f"{where(path)}: {shown}: {player} may act only on cards {player} controls, "
                "or owns when they have no controller"
            )

    def nested(self, action: Action, key: str, path: Sequence[PathStep]) -> None:
        """A nested action (``then:``) acts on the card where the enclosing
        action left it, and nests no action of its own: moving the card on is
        an act of its own."""
        if any(p.kind is ParamKind.ACTION for p in action.params):
            self.refuse(f"{where(path)}: takes an action on the moved card, not {key}")

    def zone(self, param: Param, zone: int | Dest, raw: Any, path: Sequence[PathStep]) -> None:
        """A zone parameter with the role ``OWN_ZONE`` names one of the player's zones."""
        if param.role is Role.OWN_ZONE and not owns_zone(self.game, self.player, zone):
            named = raw if isinstance(raw, str) else _zone_text(self.game, zone)
            self.refuse(f"{where(path)}: {named!r}: a seat may do this only to its own zones")

    def choice(self, bound: ZoneChoice, raw: Any, path: Sequence[PathStep]) -> None:
        """A choice of zone (``choose_zone``) is the player's own (3.0.10a: the
        owner of the moved object chooses): one zone, of theirs; or a mapping
        from themselves or a card they own to zones. The cards of a mapping
        are named as any card is (:meth:`card`, checked by the caller)."""
        game, player = self.game, self.player
        if isinstance(bound, int):
            owner = game.zone_info(bound).owner
            if owner is not None and owner != player:
                named = raw if isinstance(raw, str) else game.zone_name(bound)
                self.refuse(
                    f"{where(path)}: {named!r} is {owner}'s zone: a seat gives only its own "
                    f"choices, and {owner} chooses for {owner}'s cards",
                    rule="3.0.10a",
                )
            return
        if bound is None:
            return
        keys = list(raw) if isinstance(raw, Mapping) else [None] * len(bound.pairs)
        for (key, _), text in zip(bound.pairs, keys, strict=True):
            at = where((*path, str(text if text is not None else key)))
            if isinstance(key, str) and key != player:
                self.refuse(
                    f"{at}: a seat gives only its own choices, and {key} chooses for {key}'s cards",
                    rule="3.0.10a",
                )
            if isinstance(key, int) and game.may_look(player, key):
                owner = game.obj(key).owner
                if owner != player:
                    self.refuse(
                        f"{at}: a seat gives only its own choices, and {owner} chooses "
                        f"for {owner}'s cards",
                        rule="3.0.10a",
                    )


def _zone_text(game: Game, zone: int | Dest) -> str:
    return str(zone) if isinstance(zone, Dest) else game.zone_name(zone)


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


# ----------------------------------------------------------------------
# The cards a player may name, for rule sets' candidates
# ----------------------------------------------------------------------


#: While a listing of legal actions holds the game as it is: the game, the
#: player, their nameable cards and the cards they act on (found when first
#: asked for: ``[None, None]`` until then, a list being filled in place) and
#: the card a listing on one card asks for (:func:`actable_naming`), or None.
#: The cards ``player`` may name and act on are then found once, not once
#: per action, and only if an action's candidates ask for them. Set and
#: reset straight by the listing, which every act of a game makes, rather
#: than through a context manager's three calls.
REMEMBERED: ContextVar[tuple[Game, str, list[list[int] | None], int | None] | None] = ContextVar(
    "cardzones_nameable", default=None
)


class remembered:
    """:data:`REMEMBERED` held for ``player`` in ``game`` while the block
    runs (``card``: the card a listing on one card asks for), for code that
    lists candidates outside a listing, as tests do."""

    __slots__ = ("_held", "_token")

    def __init__(self, game: Game, player: str, card: int | None = None) -> None:
        known: list[list[int] | None] = [None, None]
        self._held = (game, player, known, card)

    def __enter__(self) -> None:
        self._token = REMEMBERED.set(self._held)

    def __exit__(self, *exc: object) -> None:
        REMEMBERED.reset(self._token)


def _known(game: Game, player: str) -> list[list[int] | None] | None:
    known = REMEMBERED.get()
    if known is not None and known[0] is game and known[1] == player:
        return known[2]
    return None


def nameable_cards(game: Game, player: str) -> list[int]:
    """The cards ``player`` may name, in the order their view shows them, zone
    by zone: every card (not a layer) they may look at, with the cards under
    or on it, and in each zone of theirs the first card they may not look at
    (the top of their deck). The list depends only on what the player may
    know, so candidates built from it reveal nothing."""
    known = _known(game, player)
    if known is not None and known[0] is not None:
        return list(known[0])
    out: list[int] = []
    for zid in game.all_zones():
        cards = game.contents(zid)
        if not cards:
            continue
        # In a zone of theirs, the first card they may not look at is named too.
        hidden_named = game.zone_info(zid).owner != player
        # One card is in its view's order already: only more are put in it.
        for top in shown_cards(game, player, zid) if len(cards) > 1 else cards:
            obj = game.obj(top)
            if obj.kind == CARD:
                if obj.public or game.may_look(player, top):
                    out.append(top)
                elif not hidden_named:
                    out.append(top)
                    hidden_named = True
            if game.kids(top):
                _add_pile(game, player, top, out)
    if known is not None:
        known[0] = out
        return list(out)
    return out


def _add_pile(game: Game, player: str, card: int, out: list[int]) -> None:
    """The cards under or on ``card`` that ``player`` may look at, in their
    view's order, each followed by its own pile."""
    for kid in shown_pile(game, player, card):
        if game.obj(kid).kind == CARD and game.may_look(player, kid):
            out.append(kid)
        if game.kids(kid):
            _add_pile(game, player, kid, out)


def actable_cards(game: Game, player: str) -> list[int]:
    """The cards of :func:`nameable_cards` that ``player`` acts on
    (:func:`acts_on`): theirs, and the hidden first card of each of their
    zones."""
    known = _known(game, player)
    if known is not None and known[1] is not None:
        return list(known[1])
    mine = [c for c in nameable_cards(game, player) if acts_on(game, player, c)]
    if known is not None:
        known[1] = mine
        return list(mine)
    return mine


def actable_naming(game: Game, player: str) -> list[int]:
    """The cards of :func:`actable_cards` for the candidates of an action
    whose one card parameter, without a default, is the card it acts on:
    all of them, or, in a listing on one card
    (:func:`~cardzones.acts.legal.legal_actions` with ``card``), that card
    alone where it is among them. The listing leaves out every candidate
    that does not name the card it asks for, so the others need not be
    made: the list it gives is the same, in the same order."""
    card = asked_card(game, player)
    if card is None:
        return actable_cards(game, player)
    return [card] if _actable(game, player, card) else []


def nameable_naming(game: Game, player: str) -> list[int]:
    """The cards of :func:`nameable_cards` for the candidates of an action
    whose one card parameter, without a default, may be any card the player
    may name (a counter's or a life total's): all of them, or, in a listing
    on one card, that card alone where it is among them, as
    :func:`actable_naming` does for the cards a player acts on."""
    card = asked_card(game, player)
    if card is None:
        return nameable_cards(game, player)
    return [card] if _nameable(game, player, card) else []


def asked_card(game: Game, player: str) -> int | None:
    """The one card a listing of ``player``'s actions on ``game`` is asked
    about (:func:`~cardzones.acts.legal.legal_actions` with ``card``), or
    None. Such a listing leaves out every candidate that does not name that
    card, so a candidate function whose candidates name no card (a token's
    name, say) has nothing to make for it."""
    held = REMEMBERED.get()
    if held is None or held[0] is not game or held[1] != player:
        return None
    return held[3]


def _actable(game: Game, player: str, card: int) -> bool:
    """Whether ``card`` is among :func:`actable_cards`, told from where it
    lies alone: listing every card puts each unordered zone in its view's
    order (by handle), most of what a listing on one card would spend on it."""
    return _nameable(game, player, card) and acts_on(game, player, card)


def _nameable(game: Game, player: str, card: int) -> bool:
    """Whether ``card`` is among :func:`nameable_cards`, told from where it
    lies alone."""
    if not game.exists(card) or game.obj(card).kind != CARD:
        return False
    obj = game.obj(card)
    if obj.host is None and card not in game.contents(obj.zone):
        return card in nameable_cards(game, player)  # lies nowhere a view shows
    if game.may_look(player, card):
        return True  # in a zone, or in a pile under or on one
    if obj.host is not None or game.zone_info(obj.zone).owner != player:
        return False
    # Their zone's first card they may not look at, in their view's order.
    for top in shown_cards(game, player, obj.zone):
        if game.obj(top).kind == CARD and not game.may_look(player, top):
            return top == card
    return False
