"""The order of a player's pitched cards at the end of the turn (4.4.3c):
each player chooses it for their own pitch zone, and it is hidden.

A player chooses with the ``pitch_order`` action, at any time before the
turn ends (at a table, each player for themselves); a scenario may give it
on ``end_turn`` as ``order:``. The choice is kept as a record of the objects
named, so a card that left the pitch zone and came back is no longer in it.
Cards left out go below those named, in a secret order: drawn, as a shuffle
is, from the game's secret seed, so that no one knows from what they saw
where each lies (4.4.3c: the order is hidden information). What a player has
yet to order, a board asks at the end of the turn: :func:`unordered`.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> pitch = game.zone("alice", "pitch")
>>> a, b = (game.new_card(game.card_def(n), pitch) for n in ("A", "B"))
>>> with game.atomic():
...     choose_order(game, "alice", [b, a])
>>> pitch_order(game, "alice", ()) == [b, a]
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardzones.errors import IllegalAction
from cardzones.kernel.cards import Dest, Move, Position
from cardzones.kernel.triggers import public_since

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

_KEY = "pitch_order"


def seen_order(game: Game, pitch: int) -> list[int]:
    """The cards of a pitch zone in an order every player saw: public ones by
    when they became the public objects they are, then any private one. Not
    the order the zone keeps them in, which is the order they arrived, and
    never the order a player chose."""
    cards = game.contents(pitch)
    if len(cards) < 2:
        return list(cards)  # nothing to order: most ends of turns find one pitch zone empty
    public = sorted((c for c in cards if game.is_public(c)), key=lambda c: public_since(game, c))
    return public + [c for c in cards if not game.is_public(c)]


def choose_order(game: Game, player: str, cards: Sequence[int]) -> None:
    """``player`` chooses the order, top first, in which the cards of their
    pitch zone will lie at the bottom of their deck (4.4.3c). A step of an
    action; refused unless each card is in that pitch zone, once."""
    check_order(game, player, cards)
    game.records.put((_KEY, player), tuple(game.ref(c) for c in cards))


def check_order(game: Game, player: str, cards: Sequence[int]) -> None:
    """Refused unless each card is in ``player``'s pitch zone, once (4.4.3c)."""
    pitch = game.zone(player, "pitch")
    held = set(game.contents(pitch)) if pitch is not None else set()
    if len(set(cards)) != len(cards):
        raise IllegalAction("order names a card twice")
    for card in cards:
        if card not in held or game.host(card) is not None:
            raise IllegalAction(
                f"order lists the cards of {player}'s pitch zone; one is not there", rule="4.4.3c"
            )


def pitch_order(game: Game, player: str, given: Sequence[int]) -> list[int]:
    """The order, top first, of the cards of ``player``'s pitch zone: those in
    ``given`` (the end of turn's own ``order``), else those the player chose
    and still there as the objects they chose, then the rest as seen."""
    pitch = game.zone(player, "pitch")
    if pitch is None:
        return []
    cards = game.contents(pitch)
    listed = [c for c in given if c in cards] or _named(game, player, pitch)
    return listed + [c for c in seen_order(game, pitch) if c not in listed]


def unordered(game: Game, player: str) -> list[int]:
    """The cards of ``player``'s pitch zone that their chosen order leaves out,
    in the order every player saw: what the end of the turn puts in a secret
    order unless the player orders them (4.4.3c). Empty when there is at
    most one, whose place there is no order to choose. A board asks for the
    order of these before the turn ends."""
    pitch = game.zone(player, "pitch")
    if pitch is None:
        return []
    named = set(_named(game, player, pitch))
    rest = [c for c in seen_order(game, pitch) if c not in named]
    return rest if len(rest) > 1 else []


def _named(game: Game, player: str, pitch: int) -> list[int]:
    """The cards of the pitch zone the player's chosen order names."""
    out = []
    for named in game.record((_KEY, player), ()):
        found = game.referent(named)
        if found is not None and found.zone == pitch and found.host is None:
            out.append(found.card)
    return out


def final_order(game: Game, player: str, given: Sequence[int]) -> list[int]:
    """The order, top first, the end of the turn gives the cards of
    ``player``'s pitch zone (4.4.3c): those in ``given`` or the player's chosen
    order, then the rest in a secret order, drawn from the game's secret
    seed as a shuffle is (never the order every player saw)."""
    pitch = game.zone(player, "pitch")
    if pitch is None:
        return []
    cards = game.contents(pitch)
    if not cards:
        return []  # an empty pitch zone: nothing named or left to order
    listed = [c for c in given if c in cards] or _named(game, player, pitch)
    rest = [c for c in seen_order(game, pitch) if c not in listed]
    if len(rest) > 1:  # a generator seeded for nothing to shuffle is most of the cost
        random.Random(f"{game.seed}:pitch:{game.turn}:{player}").shuffle(rest)
    return listed + rest


def forget_order(game: Game, player: str) -> None:
    """The choice is used: the next turn's pitch is chosen anew."""
    if game.record((_KEY, player)) is not None:  # a chosen order is a tuple, never None
        game.records.pop((_KEY, player))


def pitch_destination(game: Game, player: str) -> tuple[int, Dest] | None:
    """The player's pitch zone and where its cards go at the end of the turn
    (4.4.3c): the player's deck (:func:`deck_for`); None when they have no
    pitch zone."""
    pitch = game.zone(player, "pitch")
    if pitch is None:
        return None
    return pitch, Dest("deck", player)


def pitch_move(card: int, to: Dest | int, player: str, position: Position = "bottom") -> Move:
    """4.4.3c: a card of ``player``'s pitch zone goes face down to the bottom
    of a deck, as a rule; ``position`` is the place it will have there, where
    the order is kept."""
    return Move(card, to, position, "down", "rule", player)


def deck_for(game: Game, card: int, player: str) -> Dest | int:
    """The deck a card of ``player``'s pitch zone goes to (4.4.3c): of several,
    the one its owner chose for the action (3.0.10a), else a choice is
    needed (``NeedsChoice``); the deck named for them when they have none
    (the move then fails, 3.0.11)."""
    deck = game.resolve_destination(game.obj(card), Dest("deck", player), player)
    return deck if deck is not None else Dest("deck", player)
