"""Taking back acts takes consent.

A slip at a physical table (a card dropped on the wrong pile, a draw too many)
is put right by asking the others, and so it is here: a seat asks to take back
its last acts, as many as it made since another seat last acted, and every
other seat still in the game accepts or refuses.

- **ask**: a seat asks to take back its last ``acts`` acts (one when not
  said). It may ask only for its own acts since the other seats last acted:
  those are the acts nobody has answered yet. A new request replaces the
  seat's own standing one.
- **accept**: a seat agrees. When every other seat that has not conceded has
  accepted, the take-back is stored as the table's next event.
- **refuse**: a seat says no, and the request falls. The asking seat's
  refusal withdraws it.

A request holds only while the table stands where it was asked: any event
after it (an act of any seat) leaves it behind, and it is answered no more.

An accepted take-back is an event like any other: it has the next number,
its stored act (``{"take_back": {"by": SEAT, "to": N}}``) names the event
the game returns to, and every seat, replay and export sees the game go back
to the position after event ``N``. It takes nothing back from what a seat
saw: the log keeps the entries of the acts taken back as each viewer got
them (docs/hidden-information.md), and no number, handle or shuffle is given
twice.

>>> lineage = [(1, "bob"), (2, "alice"), (3, "alice")]
>>> takeable(lineage, "alice"), takeable(lineage, "bob")
([2, 3], [])
>>> target(lineage, 2), target(lineage, 1)
(1, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardzones.errors import CardzonesError

ASK, ACCEPT, REFUSE = "ask", "accept", "refuse"
#: The answers a seat may give to a standing request.
ANSWERS = (ACCEPT, REFUSE)
#: The key of an accepted take-back's stored act.
TAKE_BACK = "take_back"
#: The log entry of an accepted take-back.
TAKEN_BACK = "taken_back"
#: The most acts one request takes back.
MAX_ACTS = 50

#: The acts that make a table's position, oldest first: each event's number
#: and the seat that acted (a take-back is not among them: it returned the
#: position to an earlier one).
Lineage = list[tuple[int, str]]


class TakeBackRefused(CardzonesError):
    """A request or an answer the table does not take."""


@dataclass(frozen=True)
class Request:
    """A standing request to take back acts: the asking seat, how many acts,
    the event the game would return to, the event it was asked after (a
    later event leaves it behind), when, and the seats that accepted."""

    by: str
    acts: int
    to: int
    head: int
    at: float
    accepted: tuple[str, ...] = field(default=())
    #: the seat that refused it (the asking seat: it withdrew it)
    refused: str | None = None

    def standing(self, number: int) -> bool:
        """Whether it may be answered at a table whose last event is ``number``."""
        return self.refused is None and self.head == number

    def waiting(self, voters: Iterable[str]) -> list[str]:
        """The seats among ``voters`` whose answer is still wanted."""
        return [p for p in voters if p != self.by and p not in self.accepted]

    def to_json(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "acts": self.acts,
            "to": self.to,
            "after": self.head,
            "accepted": list(self.accepted),
            "refused": self.refused,
        }

    def stored(self) -> dict[str, Any]:
        """The stored act of the take-back once accepted."""
        return {TAKE_BACK: {"by": self.by, "to": self.to}}


def takeable(lineage: Sequence[tuple[int, str]], seat: str) -> list[int]:
    """The events ``seat`` may take back, oldest first: its own acts since
    another seat last acted, in the acts that make the position now."""
    out: list[int] = []
    for number, who in reversed(lineage):
        if who != seat or len(out) >= MAX_ACTS:
            break
        out.append(number)
    return out[::-1]


def target(lineage: Sequence[tuple[int, str]], acts: int) -> int:
    """The event whose position taking back the last ``acts`` acts returns to
    (0: the start)."""
    keep = len(lineage) - acts
    return lineage[keep - 1][0] if keep > 0 else 0


def acts_of(value: Any) -> int:
    """The number of acts a request's body asks to take back (1 when not
    given). Raises ValueError with the message to answer."""
    if value is None:
        return 1
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ACTS:
        raise ValueError(f"acts is how many of your last acts to take back, 1 to {MAX_ACTS}")
    return value


def stored_target(args: Any) -> tuple[str, int]:
    """The seat and the event of a stored take-back (a ValueError when it is
    not one)."""
    if not isinstance(args, dict) or set(args) != {"by", "to"}:
        raise ValueError("a stored take-back is {by: SEAT, to: EVENT}")
    by, to = args["by"], args["to"]
    if not isinstance(by, str) or isinstance(to, bool) or not isinstance(to, int) or to < 0:
        raise ValueError("a stored take-back is {by: SEAT, to: EVENT}")
    return by, to


def words(by: str, acts: int) -> str:
    """The note of the log entry of an accepted take-back."""
    return f"{by} took back {acts} act{'s' if acts != 1 else ''}, with the other seats' consent"
