"""Find a card by name in the card index, as scenarios, deck lists and the
command line name them.

In a game whose cards of one name differ by a number (the rule set's
``variants``: fab's pitch), a name with several variants needs the number; in
another, a name printed in several sets (a Redemption card) is found when
every printing is the same card for the engine, and otherwise needs its
full name. A name that is not found lists the closest
names there are.

>>> import tempfile
>>> from cardzones.kernel.cards import CardDef
>>> from cardzones.cards.index import CardIndex, CardRecord, ImportInfo
>>> home = Path(tempfile.mkdtemp())
>>> def snatch(pitch, power):
...     cdef = CardDef("Snatch", frozenset({"action"}), {"pitch": pitch, "power": power})
...     return CardRecord("fab", cdef, pitch, str(pitch))
>>> with CardIndex.create(home) as index:
...     _ = index.replace("fab", [snatch(1, 4), snatch(3, 2)], ImportInfo("fab-json", "x"))
>>> cards = CardLookup("fab", home)
>>> cards.find("snatch", 3).cdef.stats["power"]
2
>>> cards.find("Snatch")
Traceback (most recent call last):
...
cardzones.cards.errors.AmbiguousCard: Snatch has 2 pitches: give pitch: 1 (red) or 3 (blue)
>>> cards.find("Snach")
Traceback (most recent call last):
...
cardzones.cards.errors.UnknownCard: no fab card called 'Snach' in the card index; closest: 'Snatch'
"""

from __future__ import annotations

import contextlib
import difflib
import re
from dataclasses import replace
from pathlib import Path

from cardzones.cards.errors import AmbiguousCard, CardDataError, NoCardIndex, UnknownCard
from cardzones.cards.index import CardIndex, CardRecord, card_games, index_path, name_key
from cardzones.kernel.cards import CardDef
from cardzones.rulesets import get_ruleset

__all__ = ["CardLookup", "missing_data_message"]

#: The type of a token card (fab 8.1.8a), which a rule set's token cards have.
TOKEN = "token"

#: How to get each game's cards into the index, for messages.
UPDATE_HINT = "cardzones cards update {ruleset}"
IMPORT_HINT = "cardzones cards import FILE"


def missing_data_message(ruleset: str, path: Path) -> str:
    """What to say when the index has no cards of a game: which command imports them."""
    return (
        f"the card index has no {ruleset} cards (looked in {path}; set CARDZONES_HOME to "
        f"use another folder); import them with `{UPDATE_HINT.format(ruleset=ruleset)}`, or "
        f"with `{IMPORT_HINT}` for a file you downloaded"
    )


class CardLookup:
    """Cards of one game by name, from the index in ``home`` (``$CARDZONES_HOME``)."""

    def __init__(self, ruleset: str, home: Path | None = None) -> None:
        games = card_games()
        if ruleset not in games:
            raise CardDataError(f"unknown game {ruleset!r}; games are {', '.join(games)}")
        self.ruleset = ruleset
        #: how the game's cards of one name differ by a number: false in a
        #: game without variants
        self.variants = get_ruleset(ruleset).variants
        try:
            self._index = CardIndex.open(home)
        except NoCardIndex:
            raise NoCardIndex(missing_data_message(ruleset, index_path(home))) from None
        if self._index.count(ruleset) == 0:
            path = self._index.path
            self._index.close()
            raise NoCardIndex(missing_data_message(ruleset, path))
        self._names: list[str] | None = None
        self._cache: dict[tuple[str, int | None], CardRecord] = {}
        self._ids: dict[str, CardRecord] | None = None

    def close(self) -> None:
        self._index.close()

    def __del__(self) -> None:
        # A scenario keeps its lookup as long as its outcome lives; close the
        # connection with it rather than leave that to the garbage collector.
        index = getattr(self, "_index", None)
        if index is not None:
            with contextlib.suppress(Exception):
                index.close()

    def __enter__(self) -> CardLookup:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def find(
        self,
        name: str,
        number: int | None = None,
        *,
        card_set: str | None = None,
        card_id: str | None = None,
    ) -> CardRecord:
        """The one card ``name`` (and ``number``, its variant) names, or an error that says
        what is missing: :class:`UnknownCard` or :class:`AmbiguousCard`.
        ``card_id`` and ``card_set`` pick a Redemption printing as a LackeyCCG
        deck names it: the id is the printing's picture file (carddata's
        ``ImageFile``), which names one printing, and the set its set; a deck
        whose id or set the index does not know falls back on the name."""
        if card_id:
            printing = self._by_id().get(card_id)
            if printing is not None:
                return printing
        if card_set:
            try:
                return self._cached(f"{name} (set {card_set})", number)
            except UnknownCard:
                pass  # no printing of that set: any printing will do
        return self._cached(name, number)

    def unique_name(self, record: CardRecord) -> str | None:
        """A name that finds ``record`` (or a printing that is the same card
        for the engine) and no other card: its own, or its own with its set
        (``Stormy Seas (set 3E)``); None when neither does."""
        for name in (record.name, f"{record.name} (set {record.variant})"):
            try:
                if self.find(name).same_card(record):
                    return name
            except CardDataError:
                continue
        return None

    def _by_id(self) -> dict[str, CardRecord]:
        """Each Redemption printing by its picture file, read once."""
        if self._ids is None:
            self._ids = {}
            for record in self._index.records(self.ruleset):
                image = record.source.get("image")
                if isinstance(image, str):
                    self._ids.setdefault(image, record)
        return self._ids

    def _cached(self, name: str, number: int | None) -> CardRecord:
        key = (name_key(name), number)
        if key not in self._cache:
            self._cache[key] = self._find(name, number)
        return self._cache[key]

    def exists(self, name: str) -> bool:
        """Whether some card is called ``name`` (or has it as another name)."""
        return bool(self._index.lookup(self.ruleset, name))

    def numbers(self, name: str) -> list[int | None]:
        """The numbers of the variants of the one card called ``name``, lowest
        first (``[None]`` for a card without one); empty when no card, or
        several, have the name."""
        found = self._index.lookup(self.ruleset, name)
        if len({r.name for r in found}) != 1:
            return []
        return _numbers(found)

    def card_def(self, name: str, number: int | None = None) -> CardDef:
        """The card's :class:`CardDef`, called ``name`` as written (so that a
        scenario's references and expectations match the name it uses)."""
        cdef = self.find(name, number).cdef
        return cdef if cdef.name == name else replace(cdef, name=name)

    def tokens(self) -> list[CardDef]:
        """Every token card of the game (a card with the type ``token``), in
        the order of their names and variants."""
        return [r.cdef for r in self._index.records(self.ruleset) if TOKEN in r.cdef.types]

    def closest(self, name: str, count: int = 5) -> list[str]:
        """The names nearest to ``name``: close spellings, then names that contain it."""
        if self._names is None:
            self._names = self._index.names(self.ruleset)
        keys = {name_key(n): n for n in self._names}
        wanted = name_key(name)
        close = difflib.get_close_matches(wanted, list(keys), n=count, cutoff=0.6)
        near = [keys[k] for k in close]
        if len(near) < count and len(wanted) >= 3:
            near += [n for k, n in keys.items() if wanted in k and n not in near]
        return near[:count]

    def _find(self, name: str, number: int | None) -> CardRecord:
        found = self._index.lookup(self.ruleset, name)
        tidy = _tidy_brackets(name)
        if not found and tidy != name:
            # LackeyCCG writes some sets with a space, "Cornelius ( C)".
            found = self._index.lookup(self.ruleset, tidy)
        with_set = _WITH_SET.match(tidy)
        if not found and with_set is not None:
            wanted = with_set[2].strip().casefold()
            found = [
                r
                for r in self._index.lookup(self.ruleset, with_set[1])
                if r.variant.casefold() == wanted
            ]
        if not found:
            closest = self.closest(name)
            hint = f"; closest: {', '.join(map(repr, closest))}" if closest else ""
            raise UnknownCard(
                f"no {self.ruleset} card called {name!r} in the card index{hint}", closest
            )
        names = list(dict.fromkeys(r.name for r in found))
        if self.variants:
            return self._variant(name, number, found, names)
        if number is not None:
            raise CardDataError(f"a {self.ruleset} card has no variants; {name} is one")
        if all(r.same_card(found[0]) for r in found[1:]):
            return found[0]
        options = [_printing(r) for r in found]
        raise AmbiguousCard(
            f"{name!r} names {len(found)} different cards: {', '.join(options)}; "
            "write one of them as it is written here",
            options,
        )

    def _variant(
        self, name: str, number: int | None, found: list[CardRecord], names: list[str]
    ) -> CardRecord:
        """The one variant of the one card ``name`` names, picked by
        ``number``; the messages speak the rule set's words (fab's pitch)."""
        if len(names) > 1:
            raise AmbiguousCard(
                f"{name!r} names {len(names)} cards: {', '.join(names)}; write the full name",
                names,
            )
        v = self.variants
        numbers = _numbers(found)
        if number is not None:
            chosen = [r for r in found if r.number == number]
            if chosen:
                return chosen[0]
            if numbers == [None]:
                raise CardDataError(f"{names[0]} has no {v.key}; leave {v.key} out")
            raise CardDataError(f"{names[0]} has no {v.key} {number}; give {v.options(numbers)}")
        if len(numbers) > 1:
            raise AmbiguousCard(
                f"{names[0]} has {len(numbers)} {v.plural}: give {v.key}: {v.options(numbers)}",
                [str(n) for n in numbers],
            )
        return found[0]


def _tidy_brackets(name: str) -> str:
    """The name without spaces just inside its brackets.

    >>> _tidy_brackets("Cornelius ( C)"), _tidy_brackets("Bow and Arrow (Gray) ( C )")
    ('Cornelius (C)', 'Bow and Arrow (Gray) (C)')
    """
    return _INSIDE.sub(lambda m: m[1] + m[2].strip() + m[3], name)


_INSIDE = re.compile(r"([(\[])([^()\[\]]*)([)\]])")

#: A Redemption name with the set it was printed in: "Archippus (set TPC)".
_WITH_SET = re.compile(r"^(.*\S)\s+\(set ([^()]+)\)$")


def _numbers(found: list[CardRecord]) -> list[int | None]:
    """The numbers of the variants found, lowest first, None before any."""
    return sorted({r.number for r in found}, key=lambda n: -1 if n is None else n)


def _printing(record: CardRecord) -> str:
    where = record.variant or "?"
    return f"{record.name} (set {where})"
