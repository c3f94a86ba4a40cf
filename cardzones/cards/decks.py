"""Deck lists read into a start position: the hero and equipment in their zones,
the rest as the deck, in the order the list gives it.

Flesh and Blood deck lists are plain text, one card a line, as players write
them and as the community's deck builders export them:

- ``3 Snatch (red)``, ``3x Snatch (red)``, ``3 x Snatch (1)``, ``(3) Snatch (red)``,
  ``Snatch (red) x3``, or a name alone for one copy;
- ``Hero: NAME``, and ``Weapons:`` / ``Equipment:`` lines listing cards
  separated by commas (FaBDB and Talishar);
- FaBrary's export: ``Name:``, ``Hero:`` and ``Format:`` lines, then the
  sections ``Arena cards`` and ``Deck cards``.

Lines naming a deck, its format or a web address are skipped; cards under a
``Sideboard``, ``Inventory`` or ``Maybe`` heading are not put in any zone. Redemption
deck lists are LackeyCCG's ``.dek`` files (XML): the ``Deck`` superzone becomes the
deck and ``Reserve`` the reserve.

Every name is found in the card index (:mod:`cardzones.cards.lookup`); the
rules decide where each card goes. In fab, the hero-card goes to the hero zone
(3.11.4), each arena-card that can be equipped goes to the first zone that can
take it (4.1.4a, with the equipping rules of 8.5.41, 8.2.2, 8.2.10, 8.2.15),
deck-cards go to the deck (3.7.6) and every other card stays out of the game
as inventory (4.1.6). The deck is in list order: whoever reads the start
position knows it, so it is no secret, and a table shuffles every deck when
it is made (:mod:`cardzones.table.creation`).

>>> deck = read_fab_deck('''
... Hero: Dorinthea Ironsong
... Weapons: Dawnblade
... 3 Snatch (red)
... ''')
>>> [(e.name or e.names, e.count, e.pitch, e.line) for e in deck.entries]
[('Dorinthea Ironsong', 1, None, 2), ('Dawnblade', 1, None, 3), ('Snatch', 3, 1, 4)]
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cardzones.cards.errors import CardDataError, DeckListError, UnknownCard
from cardzones.cards.index import CardRecord
from cardzones.cards.lookup import COLOUR_OF, CardLookup
from cardzones.kernel.cards import CardDef
from cardzones.kernel.game import Game
from cardzones.rulesets import get_ruleset, new_game
from cardzones.rulesets.base import DeckCard, DeckRefused
from cardzones.rulesets.fab.carddata import pitch_of_colour

#: Headings under which cards are not put in any zone.
OUT_OF_GAME = ("sideboard", "inventory", "maybe", "maybeboard", "tokens")
#: Lines that describe the list rather than name cards.
_SKIP = re.compile(
    r"^(name|format|deck build|see the full deck|made with|created with|deck|author|notes?)\b.*$"
    r"|^https?://\S+$|^(arena cards|deck cards|main ?deck|equipment and weapons)\s*:?\s*$",
    re.IGNORECASE,
)
_HEADING = re.compile(rf"^({'|'.join(OUT_OF_GAME)})\s*:?\s*(\(\d+\))?\s*$", re.IGNORECASE)
_LISTS = re.compile(r"^(hero|weapons?|equipment)\s*:\s*(.*)$", re.IGNORECASE)
_COUNT_FIRST = re.compile(r"^(?:\((\d+)\)|(\d+)\s*x?|x\s*(\d+))\s+(.+)$", re.IGNORECASE)
_COUNT_LAST = re.compile(r"^(.+?)\s+x\s*(\d+)$", re.IGNORECASE)
_COLOUR = re.compile(r"^(.+?)\s*\(\s*(red|yellow|blue|[123])\s*\)$", re.IGNORECASE)


@dataclass(frozen=True)
class DeckEntry:
    """One line of a deck list: a card, how many, and where the list puts it.

    ``section`` is ``main`` (placed by its type), ``out`` (not in the game),
    or for Redemption the LackeyCCG superzone (``deck``, ``reserve``).
    ``names`` is set instead of ``name`` for a comma-separated list whose
    names are split against the card index.
    """

    name: str
    count: int = 1
    pitch: int | None = None
    section: str = "main"
    line: int = 0
    set: str | None = None
    names: str | None = None
    #: the LackeyCCG id of the printing (``<name id="Stormy_Seas_(E)">``)
    id: str | None = None


@dataclass(frozen=True)
class DeckList:
    ruleset: str
    entries: tuple[DeckEntry, ...]
    file: str = "<deck>"


@dataclass(frozen=True)
class Placed:
    """A card of the start position and the zone it starts in (a scenario
    reference such as ``alice.weapon.1``; inventory cards have none)."""

    zone: str | None
    cdef: CardDef
    pitch: int | None = None
    #: whether no name finds the card alone in the card index, so that a
    #: scenario must give its definition under ``cards:``
    define: bool = False

    @property
    def name(self) -> str:
        return self.cdef.name

    def entry(self) -> dict[str, Any]:
        """The card as a scenario setup entry."""
        out: dict[str, Any] = {"card": self.name}
        if self.pitch is not None:
            out["pitch"] = self.pitch
        return out


@dataclass
class StartPosition:
    """Where one player's cards start. ``cards`` lists them zone by zone, the
    deck top first; ``inventory`` holds the cards of the list that start in no zone."""

    ruleset: str
    player: str
    cards: list[Placed] = field(default_factory=list)
    inventory: list[Placed] = field(default_factory=list)

    def setup(self) -> dict[str, list[dict[str, Any]]]:
        """The position as a scenario's ``setup:`` (with ``card_data:``, each
        entry names its card and, in fab, its pitch)."""
        out: dict[str, list[dict[str, Any]]] = {}
        for placed in self.cards:
            assert placed.zone is not None
            out.setdefault(placed.zone, []).append(placed.entry())
        return out

    def definitions(self) -> dict[str, dict[str, Any]]:
        """The engine's definition of each card, as its public description
        (:meth:`CardDef.to_json`), by name; a fab name with several pitches
        lists each under ``NAME (pitch N)``."""
        out: dict[str, dict[str, Any]] = {}
        for placed in [*self.cards, *self.inventory]:
            key = placed.name
            others = {p.pitch for p in [*self.cards, *self.inventory] if p.name == key}
            if len(others) > 1:
                key = f"{key} (pitch {placed.pitch})"
            out[key] = placed.cdef.to_json()
        return out

    def place(self, game: Game) -> dict[str, list[int]]:
        """Put the cards into ``game`` (which must have the player and empty
        zones), in the same zones and order; returns the new card ids by zone."""
        out: dict[str, list[int]] = {}
        for placed in self.cards:
            assert placed.zone is not None
            owner, _, rest = placed.zone.partition(".")
            ztype, _, number = rest.partition(".")
            zid = game.zone(owner, ztype, int(number) if number else 1)
            if zid is None:
                raise DeckListError(f"{game.ruleset.name} has no zone {placed.zone}")
            card = game.new_card(placed.cdef, zid, owner=owner, position="bottom")
            out.setdefault(placed.zone, []).append(card)
        return out


def scenario_data(
    positions: Sequence[StartPosition], name: str = "start position"
) -> dict[str, Any]:
    """A scenario document (as a mapping) that sets up these start positions,
    one per player, using ``card_data:`` for the cards."""
    if not positions:
        raise DeckListError("no start position given")
    ruleset = positions[0].ruleset
    setup: dict[str, list[dict[str, Any]]] = {}
    for position in positions:
        if position.ruleset != ruleset:
            raise DeckListError("the start positions are of different games")
        setup.update(position.setup())
    own = {
        p.name: get_ruleset(ruleset).card_fields(p.cdef)
        for position in positions
        for p in position.cards
        if p.define
    }
    return {
        "name": name,
        "ruleset": ruleset,
        "card_data": ruleset,
        "players": [p.player for p in positions],
        **({"cards": own} if own else {}),
        "setup": setup,
        # A scenario shows something hold: here, that every deck is in place.
        "steps": [
            {"expect": {"zone": zone, "count": len(cards)}}
            for zone, cards in setup.items()
            if zone.endswith(".deck")
        ]
        or [{"expect": {"turn": 1}}],
    }


# -- reading deck lists ---------------------------------------------------------------


def read_deck(path: Path | str) -> DeckList:
    """A deck list file: LackeyCCG ``.dek`` XML for Redemption, text for fab."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise DeckListError(f"{path} is not UTF-8 text") from None
    except OSError as exc:
        raise DeckListError(f"cannot read {path}: {exc.strerror}") from None
    if path.suffix.lower() == ".dek" or text.lstrip().startswith("<"):
        return read_lackey_deck(text, str(path))
    return read_fab_deck(text, str(path))


def read_fab_deck(text: str, file: str = "<deck>") -> DeckList:
    """Read a fab deck list in any of the text forms above."""
    entries: list[DeckEntry] = []
    section = "main"
    lines = [" ".join(raw.replace("\u00a0", " ").split()) for raw in text.splitlines()]
    # Exports put the deck's name and format above the "Hero:" line (FaBDB
    # without a label): there, a line without a count names no card.
    hero_line = next((i for i, line in enumerate(lines) if line.lower().startswith("hero:")), 0)
    for number, line in enumerate(lines, 1):
        if not line or line.startswith(("#", "//")):
            continue
        if number <= hero_line and not _COUNT_FIRST.match(line):
            continue
        if _HEADING.match(line):
            section = "out"
            continue
        lists = _LISTS.match(line)
        if lists is not None:
            kind, names = lists[1].lower(), lists[2].strip()
            if names:
                if kind == "hero":
                    entries.append(DeckEntry(names, 1, None, section, number))
                else:
                    entries.append(DeckEntry("", 1, None, section, number, names=names))
            continue
        if _SKIP.match(line):
            if line.lower().startswith(("arena cards", "deck cards", "main")):
                section = "main"
            continue
        entries.append(_card_line(line, section, number, file))
    if not entries:
        raise DeckListError(f"{file}: no card found in the deck list")
    return DeckList("fab", tuple(entries), file)


def _card_line(line: str, section: str, number: int, file: str) -> DeckEntry:
    count = 1
    first = _COUNT_FIRST.match(line)
    if first is not None:
        count = int(first[1] or first[2] or first[3])
        line = first[4]
    else:
        last = _COUNT_LAST.match(line)
        if last is not None:
            line, count = last[1], int(last[2])
    pitch = None
    colour = _COLOUR.match(line)
    if colour is not None:
        line, pitch = colour[1], pitch_of_colour(colour[2])
    if count < 1 or count > 99:
        raise DeckListError(f"{file}:{number}: {count} copies of {line} is not a count")
    return DeckEntry(line.strip(), count, pitch, section, number)


def read_lackey_deck(text: str, file: str = "<deck>") -> DeckList:
    """Read a LackeyCCG ``.dek`` file: ``<deck><superzone name="Deck"><card>
    <name>NAME</name><set>SET</set></card>...``."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise DeckListError(f"{file}:{exc.position[0]}: not a LackeyCCG .dek file: {exc}") from None
    if root.tag != "deck":
        raise DeckListError(f"{file}: a LackeyCCG .dek file starts with <deck>, not <{root.tag}>")
    lines = _element_lines(text)
    entries: list[DeckEntry] = []
    for zone in root.iter("superzone"):
        section = (zone.get("name") or "deck").strip().lower()
        for card in zone.iter("card"):
            name = (card.findtext("name") or "").strip()
            if not name:
                continue
            card_set = (card.findtext("set") or "").strip() or None
            named = card.find("name")
            card_id = (named.get("id") or "").strip() or None if named is not None else None
            line = lines.pop(0) if lines else 0
            entries.append(DeckEntry(name, 1, None, section, line, card_set, id=card_id))
    if not entries:
        raise DeckListError(f"{file}: no card found in the deck list")
    return DeckList("redemption", tuple(entries), file)


def _element_lines(text: str) -> list[int]:
    """The line of each <card> element, in order (ElementTree keeps no lines)."""
    return [text.count("\n", 0, m.start()) + 1 for m in re.finditer(r"<card\b", text)]


# -- start positions -----------------------------------------------------------------------


def start_position(
    deck: DeckList,
    player: str = "alice",
    *,
    lookup: CardLookup | None = None,
    home: Path | None = None,
) -> StartPosition:
    """The start position of one player's deck list, with every card found in
    the card index (the index in ``home``, or ``lookup``)."""
    own = lookup is None
    cards = lookup if lookup is not None else CardLookup(deck.ruleset, home)
    try:
        found = _resolve(deck, cards)
    finally:
        if own:
            cards.close()
    position = StartPosition(deck.ruleset, player)
    game = new_game(deck.ruleset, [player], 0)
    given = [DeckCard(record.cdef, record.pitch, entry.section) for entry, record in found]
    try:
        where = get_ruleset(deck.ruleset).place_deck(game, player, given)
    except DeckRefused as exc:
        raise DeckListError(f"{deck.file}: {exc}") from None
    records = [record for _, record in found]

    def placed(zone: str | None, i: int) -> Placed:
        record = records[i]
        return Placed(zone, record.cdef, record.pitch, define=bool(record.source.get("define")))

    position.cards.extend(placed(zone, i) for zone, i in where.placed)
    position.inventory.extend(placed(None, i) for i in where.out)
    return position


def _resolve(deck: DeckList, cards: CardLookup) -> list[tuple[DeckEntry, CardRecord]]:
    found: list[tuple[DeckEntry, CardRecord]] = []
    problems: list[str] = []
    for entry in deck.entries:
        try:
            if entry.names is not None:
                for name in _split_names(entry.names, cards):
                    named = DeckEntry(name, 1, None, entry.section, entry.line)
                    found.append((named, cards.find(name)))
            else:
                record = cards.find(entry.name, entry.pitch, card_set=entry.set, card_id=entry.id)
                if deck.ruleset == "redemption":
                    record = _named_alone(record, cards)
                found.extend((entry, record) for _ in range(entry.count))
        except CardDataError as exc:
            problems.append(f"{deck.file}:{entry.line}: {_in_list_words(deck, entry, exc, cards)}")
    if problems:
        raise DeckListError("\n".join(problems))
    return found


def _named_alone(record: CardRecord, cards: CardLookup) -> CardRecord:
    """The record under a name that finds it alone, so that a scenario or a
    table that names it gets this printing: a Redemption name printed in
    sets that differ (Stormy Seas of 3E and of TPC) takes its set,
    ``Stormy Seas (set 3E)``. A printing no name finds alone keeps a name
    of its own and is written out in full (:attr:`Placed.define`)."""
    name = cards.unique_name(record)
    if name == record.name:
        return record
    if name is None:
        own = record.source.get("image") or record.variant or "?"
        renamed = replace(record.cdef, name=f"{record.name} ({own})")
        return replace(record, cdef=renamed, source={**record.source, "define": True})
    return replace(record, cdef=replace(record.cdef, name=name))


def _in_list_words(deck: DeckList, entry: DeckEntry, exc: CardDataError, cards: CardLookup) -> str:
    """A fab card's colour in a deck list's words, "Snatch (red)", rather than a
    scenario's ``pitch: 1``; every other problem as the card index says it."""
    if deck.ruleset != "fab" or entry.names is not None or isinstance(exc, UnknownCard):
        return str(exc)
    pitches = cards.pitches(entry.name)
    if not pitches:
        return str(exc)
    name = cards.find(entry.name, pitches[0]).name
    if pitches == [None]:
        if entry.pitch is None:
            return str(exc)
        return f"{name} has no colour; write it without ({COLOUR_OF.get(entry.pitch, entry.pitch)})"
    colours = [COLOUR_OF[p] for p in pitches if p in COLOUR_OF]
    if len(colours) != len(pitches):
        return str(exc)
    some = colours[0] if len(colours) == 1 else ", ".join(colours[:-1]) + " and " + colours[-1]
    if entry.pitch is None:
        return (
            f"{name} comes in {some}: write the colour, as in {entry.count} {name} ({colours[0]})"
        )
    wrong = COLOUR_OF.get(entry.pitch, str(entry.pitch))
    return f"{name} comes in {some}, not {wrong}"


def _split_names(text: str, cards: CardLookup) -> list[str]:
    """Split "A, B, C" into card names; a name may itself hold a comma
    ("Levia, Shadowborn Abomination"), so parts are joined while that names a card."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    names: list[str] = []
    i = 0
    while i < len(parts):
        for j in range(len(parts), i, -1):
            candidate = ", ".join(parts[i:j])
            if j == i + 1 or cards.exists(candidate):
                names.append(candidate)
                i = j
                break
    return names
