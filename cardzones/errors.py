"""The one exception family of cardzones.

Every error the engine raises derives from :class:`CardzonesError`, which is a
``ValueError`` so that callers that only care about "bad input" can catch that.

>>> from cardzones.errors import IllegalAction
>>> try:
...     raise IllegalAction("cannot play X", rule="3.0.4e")
... except ValueError as exc:
...     print(exc)
cannot play X (3.0.4e)
"""

from __future__ import annotations

from collections.abc import Sequence


class CardzonesError(ValueError):
    """Root of every error cardzones raises."""


class IllegalAction(CardzonesError):
    """The rules refuse a request. The game state is exactly as it was before.

    ``rule`` names the rule id that refused it, when one did.
    """

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(f"{message} ({rule})" if rule else message)


class NeedsChoice(IllegalAction):
    """A player must choose and no choice was given. ``options`` lists the legal ones.

    The message always begins with ``needs a choice``.
    """

    def __init__(
        self,
        key: str,
        options: Sequence[str],
        *,
        what: str = "",
        rule: str | None = None,
        chooser: str | None = None,
    ) -> None:
        self.key = key
        self.options = tuple(options)
        #: the player whose choice it is, when one is (3.0.10a: the object's owner)
        self.chooser = chooser
        detail = f" for {what}" if what else ""
        super().__init__(
            f"needs a choice{detail}: give {key}: one of {', '.join(self.options)}", rule=rule
        )


class UnknownReference(CardzonesError):
    """A name, label, zone or position that does not resolve."""


class SerialError(CardzonesError):
    """The data is not a saved game or value this version can load, or a value
    holds something that cannot be saved."""


class ScenarioError(CardzonesError):
    """A scenario file is invalid. Carries the file and line."""

    def __init__(self, message: str, *, file: str = "<scenario>", line: int | None = None) -> None:
        self.file = file
        self.line = line
        self.message = message
        where = f"{file}:{line}" if line is not None else file
        super().__init__(f"{where}: {message}")
