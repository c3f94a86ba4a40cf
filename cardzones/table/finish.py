"""Finishing a game takes consent.

Once a table is finished, its seats may replay it from any seat's point of
view, hidden cards and all. So no seat finishes it alone: each seat votes.

- **agree**: this seat agrees to finish the game now. The first agreement is
  a proposal; the others accept it by agreeing too.
- **concede**: this seat leaves the game: it takes no more acts, and counts
  as agreeing to finish. A concession stands until the end.
- **decline**: this seat plays on: every agreement is withdrawn and the
  proposal falls (a concession stays).

The game is finished when every seat has agreed or conceded, or when the
time limit set at the table's creation (``finish_after`` seconds, one hour
when not given) has passed since the proposal (the first vote standing)
without a decline. Until then nobody sees more than their own view.

The time limit is a fuse that the table's maker sets, and the maker may be
a seat: one second would let it agree, wait and read every other seat's
hidden cards. So the server sets its floor (:func:`fuse`; ``cardzones serve
--min-finish-after``, ten minutes unless its operator says otherwise): a
table cannot ask for less, and a table that did before waits the floor all
the same.

>>> votes = Votes((("bob", AGREE),), until=100.0)
>>> votes.complete(("alice", "bob")), votes.due(99.0), votes.due(100.0)
(False, False, True)
>>> Votes((("bob", CONCEDE), ("alice", AGREE)), until=100.0).complete(("alice", "bob"))
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cardzones.errors import CardzonesError

AGREE, CONCEDE, DECLINE = "agree", "concede", "decline"
#: The votes a seat may cast.
VOTES = (AGREE, CONCEDE, DECLINE)

#: How long a proposal waits for the other seats when the table's creation
#: does not say, in seconds.
DEFAULT_FINISH_AFTER = 3600
#: The bounds of a table's ``finish_after``, in seconds (thirty days at most).
MIN_FINISH_AFTER, MAX_FINISH_AFTER = 1, 30 * 24 * 3600
#: The server's floor of every table's ``finish_after`` unless it sets
#: another, in minutes (``cardzones serve --min-finish-after``).
DEFAULT_FLOOR_MINUTES = 10


def fuse(finish_after: int | None, floor: int) -> int:
    """How long a proposal to finish waits for the other seats, in seconds:
    the table's ``finish_after`` (the default when it set none), and never
    less than the server's ``floor``.

    >>> fuse(None, 600), fuse(60, 600), fuse(7200, 600)
    (3600, 600, 7200)
    """
    return max(DEFAULT_FINISH_AFTER if finish_after is None else finish_after, floor)


class FinishRefused(CardzonesError):
    """A vote the table does not take (a conceded seat declining, say)."""


@dataclass(frozen=True)
class Votes:
    """The standing votes to finish a table, in the order they were cast, and
    when the proposal finishes the game without the others (None: no
    proposal stands)."""

    votes: tuple[tuple[str, str], ...] = ()
    until: float | None = None

    @property
    def agreed(self) -> list[str]:
        return [seat for seat, vote in self.votes if vote == AGREE]

    @property
    def conceded(self) -> list[str]:
        return [seat for seat, vote in self.votes if vote == CONCEDE]

    def vote_of(self, seat: str) -> str | None:
        return next((vote for who, vote in self.votes if who == seat), None)

    def complete(self, players: Iterable[str]) -> bool:
        """Whether every seat has agreed or conceded."""
        voted = {seat for seat, _ in self.votes}
        return all(p in voted for p in players)

    def due(self, now: float) -> bool:
        """Whether the proposal's time limit has passed."""
        return self.until is not None and now >= self.until

    @property
    def empty(self) -> bool:
        return not self.votes and self.until is None

    def to_json(self) -> dict[str, Any]:
        return {"agreed": self.agreed, "conceded": self.conceded, "until": self.until}


def finish_after_of(value: Any) -> int | None:
    """A creation body's ``finish_after``: whole seconds within the bounds
    (None when not given). Raises ValueError with the message to answer."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(
            "finish_after is the seconds a proposal to finish waits for the other seats"
            f" (a whole number from {MIN_FINISH_AFTER} to {MAX_FINISH_AFTER})"
        )
    if not MIN_FINISH_AFTER <= value <= MAX_FINISH_AFTER:
        raise ValueError(
            f"finish_after is from {MIN_FINISH_AFTER} to {MAX_FINISH_AFTER} seconds; got {value}"
        )
    return value
