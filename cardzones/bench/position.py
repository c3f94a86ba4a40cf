"""The benchmark's standard position and its workload of actions.

The benchmarks play fab, whose moves they measure: its rule set brings the
standard position, a two-player game of 126 objects in every kind of zone,
and the actions the workload may take (:mod:`cardzones.rulesets.fab.bench`).
:func:`build_position` makes it, or a bigger one of the same shape, and
:func:`pick_card` draws the card each action of the workload acts on.

>>> len(build_position().cards()), len(build_position(500).cards())
(126, 500)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from cardzones import new_game
from cardzones.kernel.game import Game
from cardzones.rulesets.fab import FabRuleset
from cardzones.rulesets.fab.bench import (
    AURA,
    CLEAR,
    FLIP,
    MOVE,
    PLAYERS,
    STANDARD_OBJECTS,
    TOKEN,
    Action,
    action_choices,
    apply_action,
    fill_position,
    host_of,
    places,
    public_setup,
)

__all__ = [
    "AURA",
    "CLEAR",
    "FLIP",
    "GAME",
    "MOVE",
    "PLAYERS",
    "STANDARD_OBJECTS",
    "TOKEN",
    "Action",
    "action_choices",
    "apply_action",
    "build_position",
    "host_of",
    "padded_places",
    "pick_card",
    "public_setup",
]

#: The game the benchmarks play: fab, whose own moves they measure.
GAME = FabRuleset.name


def build_position(objects: int = STANDARD_OBJECTS, seed: int = 0) -> Game:
    """A two-player game with ``objects`` objects (at least 126) in the shape
    of the standard position. Its history is empty."""
    if objects < STANDARD_OBJECTS:
        raise ValueError(f"a position has at least {STANDARD_OBJECTS} objects")
    game = new_game(GAME, PLAYERS, seed=seed)
    fill_position(game, objects, seed)
    game.forget_history()
    assert len(list(game.cards())) == objects
    return game


def _cards_at(game: Game, place: int) -> tuple[int, ...]:
    return game.contents(place) if place > 0 else game.kids(-place)


@functools.cache
def _standard_sizes() -> dict[str, int]:
    game = build_position()
    return {name: len(_cards_at(game, place)) for name, place in places(game)}


def padded_places(game: Game) -> list[tuple[int, int]]:
    """Each place of ``game``, with how many objects it has beyond the
    standard position's."""
    standard = _standard_sizes()
    return [
        (place, max(0, len(_cards_at(game, place)) - standard.get(name, 0)))
        for name, place in places(game)
    ]


def pick_card(
    rng: random.Random, lists: dict[int, list[int]], places: Sequence[tuple[int, int]]
) -> int | None:
    """A card to act on, drawn as in the standard position: a place is chosen
    with the weight of its size less its padding, then a card in it uniformly.
    ``lists`` holds the cards of each place now (the bare state).

    A bigger position's extra objects are padding: they make its zones bigger
    but not more often acted on, so it gets the standard mix of actions (drawn
    uniformly over its cards, the tokens filling its arena would make many
    more of its actions a token that ceases)."""
    weights = [max(0, len(lists[place]) - pad) for place, pad in places]
    if not any(weights):
        return None
    ((place, _),) = rng.choices(places, weights)
    return rng.choice(lists[place])
