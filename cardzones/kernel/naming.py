"""The one way a message names an object: :func:`name_for`.

Every refusal, every choice and every other message the engine gives a
player names objects through it, so a message never says more than the
player may see (3.0.3a): a card they may look at by its name, anything else
only as "a private card", the same words whatever card it is. A test reads
the engine's source and refuses any message that names a card another way
(tests/test_hidden_classes.py).
"""

from __future__ import annotations

from cardzones.kernel import queries
from cardzones.kernel.ruleset import GameState

#: How a message names an object its reader may not look at.
PRIVATE = "a private card"


def name_for(game: GameState, player: str | None, card: int) -> str:
    """How a message to ``player`` (None: anyone) names a card: by its name when
    they may look at it, and otherwise only as a private card, so that a
    refusal never reveals what it refused.

    >>> from cardzones import new_game
    >>> game = new_game("fab", ["alice", "bob"])
    >>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    >>> name_for(game, "alice", card), name_for(game, "bob", card)
    ('Snatch', 'a private card')
    """
    if queries.exists(game, card) and queries.may_look(game, player, card):
        return game.obj(card).name
    return PRIVATE
