"""A choice of zone given to an action (3.0.10a): ``choose_zone``.

When a rule or an effect moves an object into a type of zone and its owner
has two or more of that type, the owner chooses which (3.0.10a). One action
may make many such moves: a clear of cards of several owners, a closed
combat chain, a permanent whose sub-cards are cleared as it moves (3.0.14e),
the pitch going to a deck at the end of the turn (4.4.3c). ``choose_zone``
(a :attr:`~cardzones.acts.actions.ParamKind.ZONE_CHOICE` parameter) carries
them in one of two forms:

- one zone (``choose_zone: alice.graveyard.2``): as before, the zone for
  every card of the action it fits;
- a mapping from a player or a card to a zone, or to a list of zones of
  different types (``choose_zone: {alice: alice.graveyard.2, bob:
  bob.graveyard.1, $relic: alice.graveyard.1}``): the choice of that player
  for the cards they own, or the choice for that card; a card's own choice
  comes before its owner's.

A choice no move of the action needs is not used. A player acting for
themselves (:mod:`cardzones.acts.seats`) gives only their own choices: one
zone of theirs, or a mapping whose keys are themselves and their own cards.
A player may also choose
ahead, for their own cards, with a rule set's action that keeps a standing
choice (fab's ``zone_choice``, :func:`stand`): so a player whose cards
another player's act moves gives their own choice. The act's choices come
first. The binder resolves the
mapping to a :class:`ZoneChoices`; :func:`split` turns either form into what
the kernel takes (:meth:`Game.choosing`).

>>> choices = ZoneChoices((("alice", (7,)), (12, (8, 9))))
>>> split(choices)
(None, ((12, 8), (12, 9), ('alice', 7)))
>>> split(5)
(5, (5,))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from cardzones.acts.actions import ArgumentError, PathStep
from cardzones.kernel.cards import Chosen

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

_T = TypeVar("_T")

#: Who a choice of the mapping form is for: a player's name or a card id.
Chooser = str | int


@dataclass(frozen=True, slots=True)
class ZoneChoices:
    """The mapping form of ``choose_zone``, bound: for each key as given, in
    order, the player or card it names and the zones chosen for it."""

    pairs: tuple[tuple[Chooser, tuple[int, ...]], ...]

    def with_choice(self, chooser: Chooser, zone: int) -> ZoneChoices:
        """These choices and one more zone for ``chooser``."""
        for i, (key, zones) in enumerate(self.pairs):
            if key == chooser:
                pairs = (*self.pairs[:i], (key, (*zones, zone)), *self.pairs[i + 1 :])
                return ZoneChoices(pairs)
        return ZoneChoices((*self.pairs, (chooser, (zone,))))


#: A bound ``choose_zone``: a zone id, the mapping form, or None (not given).
ZoneChoice = int | ZoneChoices | None


def split(value: ZoneChoice) -> tuple[int | None, tuple[Chosen, ...]]:
    """The zone chosen for the action's own move (the one-zone form), and the
    choices for every move it makes (:meth:`Game.choosing`), each card's own
    before its owner's."""
    if value is None:
        return None, ()
    if isinstance(value, int):
        return value, (value,)
    cards = [(key, z) for key, zones in value.pairs if isinstance(key, int) for z in zones]
    owners = [(key, z) for key, zones in value.pairs if isinstance(key, str) for z in zones]
    return None, (*cards, *owners)


def chosen(value: ZoneChoice, game: Game | None = None) -> tuple[Chosen, ...]:
    """The choices for every move the action makes (:func:`split`), then,
    given the game, each player's standing choices (:func:`standing`)."""
    given = () if value is None else split(value)[1]
    return given if game is None else given + standing(game)


def choices(game: Game, value: ZoneChoice) -> AbstractContextManager[None]:
    """Within it, the action's moves take the choices of ``value`` and the
    standing ones (:func:`chosen`, :meth:`Game.choosing`); nothing to enter
    when there are none, as in most actions."""
    # chosen(None, game), read straight: most actions give no choice.
    entries = standing(game) if value is None else chosen(value, game)
    return game.choosing(entries) if entries else _NOTHING


#: The context of an action with no choice of zone: it keeps nothing, so one serves all.
_NOTHING: AbstractContextManager[None] = nullcontext()


#: Where a player's standing choices of zone are kept (:func:`stand`).
_STANDING = "zone_choice"


def stand(game: Game, player: str, zone: int) -> None:
    """``player`` chooses ``zone`` ahead for their cards that any action moves
    into a zone of its type while there are several (3.0.10a), in place of
    any earlier standing choice of that type; it stands until they choose
    another, or the zone ceases to exist. So a player whose cards another
    player's act moves (a closed combat chain, a clear) gives their own
    choice; a choice given in the act comes first. A step of an action; it
    logs nothing."""
    ztype = game.zone_info(zone).type
    held = [z for z in _held(game, player) if game.zone_info(z).type != ztype]
    game.records.put((_STANDING, player), (*held, zone))


def standing(game: Game) -> tuple[Chosen, ...]:
    """Every player's standing choices, each for the cards they own.

    Every judgement of a legal action asks this, and a player rarely has a
    standing choice: so a player without one costs one lookup."""
    record = game.record
    found: tuple[Chosen, ...] = ()
    for player in game.players:
        if record((_STANDING, player)):
            found += tuple((player, z) for z in _held(game, player))
    return found


def _held(game: Game, player: str) -> tuple[int, ...]:
    """The player's standing choices of zones that still exist."""
    held: tuple[int, ...] = game.records.get((_STANDING, player), ())
    return tuple(z for z in held if game.zone_exists(z))


def adding(value: ZoneChoice, game: Game, chooser: str | None, zone: int) -> ZoneChoice:
    """``value`` with ``chooser``'s choice of ``zone`` added: the one-zone form
    when it is the first choice and a zone of the chooser's, else the mapping
    form (a choice among another player's zones for one's own cards is given
    by player: the one-zone form of another's zone is theirs to give), the
    one zone given before becoming its zone owner's choice. None when the
    same player is asked again for a zone they chose already (it did not
    fit)."""
    key: Chooser = chooser if chooser is not None else _owner(game, zone)
    if value is None:
        return zone if key == _owner(game, zone) else ZoneChoices(((key, (zone,)),))
    if isinstance(value, int):
        if value == zone:
            return None
        value = ZoneChoices(((_owner(game, value), (value,)),))
    if any(key == k and zone in zones for k, zones in value.pairs):
        return None
    return value.with_choice(key, zone)


def _owner(game: Game, zone: int) -> str:
    owner = game.zone_info(zone).owner
    return owner if owner is not None else game.turn_player


def bind_choice(
    value: Any,
    zone: Callable[[Any], int],
    player: Callable[[Any], str],
    card: Callable[[Any], int],
) -> ZoneChoice:
    """Resolve ``choose_zone`` as written: a zone, or a mapping from a player
    (tried first) or a card to a zone or a list of zones. Raises
    :class:`~cardzones.acts.actions.ArgumentError` with the path below the
    parameter."""
    if not isinstance(value, Mapping):
        return zone(value)
    if not value:
        raise ArgumentError(
            "choose_zone takes a zone, or a mapping from a player or a card to a zone"
        )
    pairs: list[tuple[Chooser, tuple[int, ...]]] = []
    for raw_key, raw_zones in value.items():
        key: Chooser
        try:
            key = player(raw_key)
        except ArgumentError as not_player:  # not a player's name: a card, or nothing
            try:
                key = card(raw_key)
            except ArgumentError as not_card:
                raise ArgumentError(
                    f"choose_zone: {raw_key!r} is no player ({not_player.message}) "
                    f"and no card ({not_card.message})",
                    (str(raw_key),),
                ) from None
        if any(key == k for k, _ in pairs):
            raise ArgumentError(f"choose_zone names {raw_key} twice", (raw_key,))
        if isinstance(raw_zones, list | tuple):
            if not raw_zones:
                raise ArgumentError(f"choose_zone: {raw_key} needs a zone", (raw_key,))
            zones = tuple(_at(zone, z, (raw_key, i)) for i, z in enumerate(raw_zones))
        else:
            zones = (_at(zone, raw_zones, (raw_key,)),)
        pairs.append((key, zones))
    return ZoneChoices(tuple(pairs))


def _at(ask: Callable[[Any], _T], value: Any, path: tuple[PathStep, ...]) -> _T:
    """``ask(value)``, its argument error placed at ``path``."""
    try:
        return ask(value)
    except ArgumentError as exc:
        raise exc.under(path) from None
