"""The errors of the card index: every one is a :class:`CardzonesError`, so the
command line prints its message and no traceback."""

from __future__ import annotations

from collections.abc import Sequence

from cardzones.rulesets.cardfiles import CardDataError, DeckListError, ImportFailed

# The rule sets raise these as they read their files; they are the card index's too.
__all__ = [
    "AmbiguousCard",
    "CardDataError",
    "DeckListError",
    "DownloadFailed",
    "ImportFailed",
    "NoCardIndex",
    "UnknownCard",
]


class NoCardIndex(CardDataError):
    """The card index has no cards of the game that was asked for."""


class DownloadFailed(CardDataError):
    """A database could not be downloaded. The card index is unchanged."""


class UnknownCard(CardDataError):
    """No card of that name; ``closest`` lists the nearest names there are."""

    def __init__(self, message: str, closest: Sequence[str] = ()) -> None:
        self.closest = tuple(closest)
        super().__init__(message)


class AmbiguousCard(CardDataError):
    """A name that fits several different cards; ``options`` says how to pick one."""

    def __init__(self, message: str, options: Sequence[str] = ()) -> None:
        self.options = tuple(options)
        super().__init__(message)
