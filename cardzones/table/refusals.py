"""What a seat is told when the table refuses its act: :class:`Refusal`, and
the wording of its messages, which name cards only as the seat named them and
never by an internal number; and the refusals of an act's form that come
before any binding (a label, ``$`` or ``#`` text, keys of scenario files).
"""

from __future__ import annotations

import re
from typing import Any

from cardzones.acts.actions import ArgumentError
from cardzones.acts.seats import where
from cardzones.errors import CardzonesError

_INTERNAL_CARD = re.compile(r"\bcard \d+\b")

#: Keys of a scenario file's step that a table does not take, and why.
NOT_AT_A_TABLE = {
    "result": "result: is for scenario files; the table's answer says what the act did",
    "error": "error: is for scenario files; a refused act is answered with its error",
    "expect": "expect: is for scenario files; a seat sees the game in its view",
    "mark": "mark: is for scenario files; a seat follows cards by their handles",
    "take_back": "a take-back is not an act: ask the other seats for it (POST .../take-back)",
}


class Refusal(CardzonesError):
    """The rules or the table refuse an act. Nothing changed.

    ``rule`` is the rule id when a rule refused it.
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


class Unplaced(ArgumentError):
    """An argument error whose message does not say which argument it is
    about (a resolver's): the refusal puts the argument's path in front."""


def message_of(exc: ArgumentError) -> str:
    if isinstance(exc, Unplaced) and exc.path:
        return f"{where(exc.path)}: {exc.message}"
    return exc.message


def seat_message(message: str, names: dict[str, str]) -> str:
    """A message as the seat may read it: physical cards named as the seat named
    them, and no internal card number."""
    for stored, given in sorted(names.items(), key=lambda item: -len(item[0])):
        message = message.replace(f"'{stored}'", repr(given)).replace(stored, given)
    message = re.sub(r"#\d+", "a card", message)
    return _INTERNAL_CARD.sub("a card", message)


def refuse_labels(value: Any) -> None:
    """A seat names cards by handle or position only: a string that would be
    read as a label or a physical card is refused wherever it is."""
    if isinstance(value, str):
        text = value.strip()
        if text.startswith(("$", "#")):
            raise Refusal(
                f"{value!r}: at a table a card is named by the id its view gives "
                "or by ZONE[i], and no other text starts with $ or #"
            )
    elif isinstance(value, dict):
        for key, item in value.items():
            refuse_labels(key)
            refuse_labels(item)
    elif isinstance(value, list):
        for item in value:
            refuse_labels(item)


def as_label(value: Any) -> str:
    if not isinstance(value, str | int) or isinstance(value, bool) or str(value) == "":
        raise Refusal(f"as must be a name, not {value!r}")
    return str(value)
