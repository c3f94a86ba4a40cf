"""What a move or an action did: the scenario key ``result``.

>>> MoveResult("moved") is MoveResult.MOVED
True
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple


class MoveResult(StrEnum):
    """What an action did (the scenario key ``result``).

    - ``MOVED``: the card changed zone, or became a sub-card or a placed card;
    - ``NO_MOVE``: the origin was the destination (3.0.7b);
    - ``FAILED``: an effect that could not be carried out (3.0.11); it changed nothing;
    - ``CLEARED``: a rule move cleared the object instead (3.0.11);
    - ``CEASED``: the object ceased to exist (3.0.12a, 8.1.8a);
    - ``DONE``: any other success.
    """

    MOVED = "moved"
    NO_MOVE = "no_move"
    FAILED = "failed"
    CLEARED = "cleared"
    CEASED = "ceased"
    DONE = "done"


class ActionResult(NamedTuple):
    """What an action did: its :class:`MoveResult`, the card it created or
    named (a token, a layer) and the handle of the effect it created (for
    ``negate`` and effect expectations), for ``as:`` labels."""

    result: MoveResult
    card: int | None = None
    effect: Any = None
