"""Whole games played by legal actions alone: each act chosen at random
among those the procedure allows the player it waits for.

:func:`deal` puts a player's hero, weapons, equipment and deck in place as
a table made from a deck list does; :func:`play_out` plays a game under the
procedure to its end. The tests play them over real cards and check the
game after every act; ``cardzones bench`` counts whole games a second.

>>> from cardzones import new_game
>>> from cardzones.kernel.cards import CardDef
>>> def card(name, *types, **stats):
...     return CardDef(name, types=frozenset(types), stats=stats)
>>> game = new_game("fab", ["alice", "bob"], seed=3)
>>> for player in game.players:
...     deal(game, player, card("Hero", "hero", life=6, intellect=2),
...          [card("Sword", "weapon", "sword", "2h", power=3)], [],
...          [card("Jab", "action", "attack", power=3, cost=0, pitch=1, defense=2)] * 6)
>>> game.ruleset.start_procedure(game, "alice")
>>> result = play_out(game, random.Random(1))
>>> result.winner in game.players, result.turns > 1
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from cardzones.errors import CardzonesError
from cardzones.kernel.cards import CardDef
from cardzones.rulesets.fab.procedure.flow import awaited
from cardzones.rulesets.fab.procedure.state import current

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The equipment zone of each equipment subtype.
SLOTS = ("head", "chest", "arms", "legs")


class Playout(NamedTuple):
    """How a game played out: its winner (None for a draw), how many turns
    it took and how many acts the players took."""

    winner: str | None
    turns: int
    acts: int


class PlayoutError(CardzonesError):
    """A game that could not be played to its end by legal actions alone."""


def deal(
    game: Game,
    player: str,
    hero: CardDef,
    weapons: Sequence[CardDef],
    equipment: Sequence[CardDef],
    deck: Sequence[CardDef],
) -> None:
    """Put ``player``'s hero in their hero zone, their weapons and equipment
    equipped (4.1.2, 4.1.4, 4.1.8) and their deck in their deck zone, in the
    order given (the procedure shuffles it, 4.1.7)."""
    game.new_card(hero, _zone(game, player, "hero"), owner=player, public=True)
    for i, weapon in enumerate(weapons, 1):
        game.new_card(weapon, _zone(game, player, "weapon", i), owner=player, public=True)
    for item in equipment:
        slot = next((s for s in SLOTS if s in item.types), None)
        zid = _zone(game, player, slot) if slot is not None else _zone(game, player, "weapon", 2)
        game.new_card(item, zid, owner=player, public=True)
    deck_zone = _zone(game, player, "deck")
    for cdef in deck:
        game.new_card(cdef, deck_zone, owner=player)
    game.forget_history()


def _zone(game: Game, player: str, ztype: str, index: int = 1) -> int:
    zid = game.zone(player, ztype, index)
    if zid is None:
        raise PlayoutError(f"{player} has no {ztype} zone {index}")
    return zid


def play_out(
    game: Game,
    rng: random.Random,
    *,
    max_acts: int = 50_000,
    after: Callable[[Game], None] | None = None,
) -> Playout:
    """Play the game, under the procedure, to its end: each act chosen at
    random among the legal actions of the player the procedure waits for,
    conceding aside.
    ``after(game)`` is called after every act (the tests check the game
    there). A game that needs more than ``max_acts`` acts, or in which the
    player waited for has no legal act, raises :class:`PlayoutError`."""
    acts = 0
    first_turn = game.turn
    while True:
        proc = current(game)
        if proc is None:
            raise PlayoutError("the game is not under the game procedure")
        if proc.over:
            return Playout(proc.winner, game.turn - first_turn + 1, acts)
        player, choices = awaited(game, proc)
        if player is None:
            raise PlayoutError("the procedure waits for no player")
        # A random player who never concedes: every other legal act is a
        # choice, and conceding is never listed. Only the acts the procedure
        # waits for now are asked for; the others would give nothing.
        legal = game.legal_actions(player, choices)
        if not legal:
            raise PlayoutError(f"{player} has no legal act: {proc}")
        rng.choice(legal).apply(game)
        acts += 1
        if after is not None:
            after(game)
        if acts >= max_acts:
            raise PlayoutError(f"the game did not end in {max_acts} acts")
