"""Card databases and deck lists, as a rule set reads them.

A game's cards come from files of its own: a card database in formats of its
own, and deck lists as its players write them. The rule set reads them
(:attr:`~cardzones.rulesets.base.Ruleset.card_formats`,
:meth:`~cardzones.rulesets.base.Ruleset.read_deck_list`) into the records
here, and the card index (:mod:`cardzones.cards`) keeps, finds and places
them for every game alike.

>>> fmt = CardFormat("pack-tsv", "a pack's cards.tsv", lambda head: head.startswith("name\\t"),
...                  lambda text, file, progress: iter(()))
>>> shade = Variants("shade", "shades", "tint", {1: "light", 3: "dark"})
>>> fmt.detect("name\\tsuit\\n"), shade.options([1, 3])
(True, '1 (light) or 3 (dark)')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardzones.errors import CardzonesError
from cardzones.kernel.cards import CardDef


class CardDataError(CardzonesError):
    """Something about real card data went wrong; the message says what and how to fix it."""


class ImportFailed(CardDataError):
    """A whole file could not be imported. The card index is unchanged."""


class DeckListError(CardDataError):
    """A deck list that cannot be read into a start position."""


#: Called now and then with (work done, work in all), to drive a progress bar.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class CardRecord:
    """One card of a database: the engine's :class:`CardDef` and where it came from.

    ``number`` is the card's number among the variants its rule set declares
    (:class:`Variants`), None in a game without them or for a card without
    one; ``variant`` tells apart cards of one name in words: that number, or
    such as the set it was printed in. ``aliases`` are other names it
    is found by, ``text`` the words search finds it by (its rules text, which
    the card itself holds as ``cdef.text``) and ``source`` its provenance.
    """

    ruleset: str
    cdef: CardDef
    number: int | None = None
    variant: str = ""
    aliases: tuple[str, ...] = ()
    text: str = ""
    source: Mapping[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.cdef.name

    @property
    def key(self) -> str:
        """The variant that tells it apart, or its number."""
        return self.variant or ("" if self.number is None else str(self.number))

    def same_card(self, other: CardRecord) -> bool:
        """Whether the two are the same card for the engine, whatever their names."""
        a, b = self.cdef, other.cdef
        return (a.types, dict(a.stats), a.keywords, dict(a.extra)) == (
            b.types,
            dict(b.stats),
            b.keywords,
            dict(b.extra),
        )


#: What a format's reader gives: each card with its line, or why the line
#: was skipped.
Rows = Iterator[tuple[int, CardRecord | str]]


@dataclass(frozen=True)
class CardFormat:
    """A card database's file format: its ``name`` (``--format``), the file
    in words for messages (``what``), whether the first 8 KiB of a file's
    text look like it (``detect``), and its reader: ``read(text, file,
    progress)`` yields every card with its line, or the reason a line is
    skipped, and raises :class:`ImportFailed` for a file it cannot read at all."""

    name: str
    what: str
    detect: Callable[[str], bool]
    read: Callable[[str, str, Progress], Rows]


@dataclass(frozen=True)
class CardSource:
    """Where the newest card database of a game is: a file of a public
    GitHub repository, on a branch, in one of the game's formats."""

    repository: str
    branch: str
    path: str
    format: str

    @property
    def file_name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class DeckEntry:
    """One line of a deck list: a card, how many, and where the list puts it.

    ``section`` is ``main`` (placed by its type), ``out`` (not in the game),
    or a section of the list's own (a LackeyCCG superzone: ``deck``,
    ``reserve``). ``names`` is set instead of ``name`` for a comma-separated
    list whose names are split against the card index. ``number`` picks one of
    the card's variants (:class:`Variants`), where the list gives it.
    """

    name: str
    count: int = 1
    number: int | None = None
    section: str = "main"
    line: int = 0
    set: str | None = None
    names: str | None = None
    #: the id of the printing, where the list names one (a LackeyCCG
    #: ``<name id="Stormy_Seas_(E)">``)
    id: str | None = None


@dataclass(frozen=True)
class DeckList:
    """A deck list as its rule set read it: the game, its lines, the file."""

    ruleset: str
    entries: tuple[DeckEntry, ...]
    file: str = "<deck>"


@dataclass(frozen=True)
class Variants:
    """The cards of one name that a game tells apart by a number, in the
    game's own words: the ``key`` a scenario's set-up entry picks one with
    (``key: 2``), which is also the card's stat that holds the number and the
    command line's option (``--key 2``); its ``plural``; ``what`` a number
    picks, in words; and ``words``, the number's name for each (``{1: "red"}``).
    A rule set declares them as its :attr:`~cardzones.rulesets.base.Ruleset.variants`;
    one without them declares :data:`NO_VARIANTS`, which is false.

    >>> shade = Variants("shade", "shades", "tint", {1: "light", 3: "dark"})
    >>> shade.describe(3), shade.describe(None), shade.describe(7)
    ('3 (dark)', 'no shade', '7')
    >>> bool(shade), bool(NO_VARIANTS)
    (True, False)
    """

    key: str = ""
    plural: str = ""
    what: str = ""
    words: Mapping[int, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.key)

    def of(self, cdef: CardDef) -> int | None:
        """The card's number among the variants: its stat of that name."""
        return cdef.stat(self.key) if self.key else None

    def describe(self, number: int | None) -> str:
        """ "1 (red)", the way options are offered to a scenario author."""
        if number is None:
            return f"no {self.key or 'variant'}"
        word = self.words.get(number)
        return f"{number} ({word})" if word else str(number)

    def options(self, numbers: Sequence[int | None]) -> str:
        """ "1 (red), 2 (yellow) or 3 (blue)"."""
        parts = [self.describe(n) for n in numbers]
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


#: What a game whose cards of one name are not told apart by a number declares.
NO_VARIANTS = Variants()
