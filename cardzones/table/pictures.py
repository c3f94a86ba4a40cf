"""Card pictures at a table come from the server's card index alone.

A board started with ``cardzones serve --images`` shows a card's picture by
loading it, in the player's browser, from the address the card's view
gives. An address is a beacon for whoever answers it: if a table's maker
could give each card a picture address of its own (``image`` in a creation
body's ``cards``, as a scenario file may), another seat's board would load
the picture of each card that seat holds, and the maker would learn its
hidden hand. So a table keeps no picture address that a body gives: the
card definitions a body writes lose their ``image`` when the table is made
(and when a table stored before is built, if it used no card index), and
the only addresses left are those the server's card index gives, one per
printed card. A view shows a card's address only to a viewer who may look
at the card (:mod:`cardzones.kernel.views`), as it shows its name.

>>> cards = {"Snatch": {"power": 4, "image": "https://example.org/alice-1.png"},
...          "Pummel": [{"pitch": 1, "image": "https://example.org/p.png"}, {"pitch": 2}]}
>>> pictureless(cards)
{'Snatch': {'power': 4}, 'Pummel': [{'pitch': 1}, {'pitch': 2}]}
>>> cards["Snatch"]["image"]
'https://example.org/alice-1.png'
"""

from __future__ import annotations

import copy
from typing import Any

#: The key of a picture address in a card definition (docs/scenarios.md).
IMAGE = "image"


def _definitions(cards: Any) -> list[dict[str, Any]]:
    """Each card definition of a start position's ``cards`` (a card of
    several colours has a list of them); what is not a definition is left to
    the start position's own checks."""
    if not isinstance(cards, dict):
        return []
    out: list[dict[str, Any]] = []
    for body in cards.values():
        for one in body if isinstance(body, list) else [body]:
            if isinstance(one, dict):
                out.append(one)
    return out


def drop_pictures(cards: Any) -> None:
    """Remove every picture address from ``cards``, in place (a document the
    caller owns, whose line numbers it keeps for its messages)."""
    for definition in _definitions(cards):
        definition.pop(IMAGE, None)


def pictureless(cards: Any) -> Any:
    """``cards`` without any picture address: the same object when it has
    none, else a copy (the caller's data is left as it was)."""
    if not any(IMAGE in d for d in _definitions(cards)):
        return cards
    out = copy.deepcopy(cards)
    drop_pictures(out)
    return out
