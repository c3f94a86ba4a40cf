"""The table chat: short texts the seats type, kept with the table and
replayed with it.

A line is player text and nothing else: the server adds who said it (the
seat, from its token), when, and after which event, never anything it knows
about the game. Every limit is checked before the line is stored:

>>> clean("  good game  ")
'good game'
>>> clean("x" * 501)
Traceback (most recent call last):
...
cardzones.table.chat.ChatRefused: a chat line is at most 500 characters (this one has 501)
>>> clean("bell\\x07")
Traceback (most recent call last):
...
cardzones.table.chat.ChatRefused: a chat line holds no control characters
>>> clean("gg\u202eetiuq")
Traceback (most recent call last):
...
cardzones.table.chat.ChatRefused: a chat line holds no marks that change the direction of text
"""

from __future__ import annotations

import unicodedata
from dataclasses import asdict, dataclass
from typing import Any

from cardzones.errors import CardzonesError

#: The longest line, in characters.
MAX_CHARS = 500
#: The most lines one table keeps; a table that has them takes no more.
MAX_LINES = 5_000
#: A seat says at most RATE_LINES lines in any RATE_SECONDS seconds.
RATE_LINES = 8
RATE_SECONDS = 10.0
#: The most lines a welcome carries (the newest).
WELCOME_LINES = 200
#: The most combining marks on one character: enough for any script's
#: accents, too few to draw over the lines around it.
MAX_MARKS = 4
#: The characters that change the direction of the text after them (the
#: embeddings, overrides and isolates of Unicode's bidirectional algorithm):
#: a line could show its words, or the seat's name beside it, in another order.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Categories a line never holds: control characters, surrogates, and the
#: line and paragraph separators (a line is one line).
REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


class ChatRefused(CardzonesError):
    """A chat line the table does not take, and why."""


@dataclass(frozen=True)
class ChatLine:
    """One stored line: its number at the table, its seat, when (seconds since
    the epoch), the table's event number then, and the text."""

    seq: int
    seat: str
    at: float
    after: int
    text: str

    def to_json(self) -> dict[str, Any]:
        """The line as the protocol sends it: its fields by their names."""
        return asdict(self)


def clean(text: Any) -> str:
    """The line as stored: a non-empty text of at most :data:`MAX_CHARS`
    characters, without control characters or line separators (a line is one
    line), without marks that change the direction of the text, and with at
    most :data:`MAX_MARKS` combining marks on a character; trimmed."""
    if not isinstance(text, str):
        raise ChatRefused("say: is the text of a chat line")
    if len(text) > MAX_CHARS:
        raise ChatRefused(
            f"a chat line is at most {MAX_CHARS} characters (this one has {len(text)})"
        )
    marks = 0
    for c in text:
        category = unicodedata.category(c)
        if category in REFUSED_CATEGORIES:
            raise ChatRefused(
                "a chat line holds no control characters"
                if category in ("Cc", "Cs")
                else "a chat line is one line: it holds no line or paragraph separators"
            )
        if c in BIDI_CONTROLS:
            raise ChatRefused("a chat line holds no marks that change the direction of text")
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise ChatRefused(
                f"a chat line has at most {MAX_MARKS} combining marks on one character"
            )
    line = str(text).strip()
    if not line:
        raise ChatRefused("a chat line is not empty")
    return line
