"""Deck lists read into a start position: each game's list read by its rule
set, every card found in the card index, and placed where the rules put it.

A rule set reads its game's deck lists
(:meth:`~cardzones.rulesets.base.Ruleset.read_deck_list`) into deck entries
(:mod:`cardzones.rulesets.cardfiles`): Flesh and Blood's are text, as
players write them and deck builders export them
(:mod:`cardzones.rulesets.fab.decklist`), Redemption's LackeyCCG ``.dek``
files (:mod:`cardzones.rulesets.redemption.decklist`). Every name is found in
the card index (:mod:`cardzones.cards.lookup`), and the rule set decides
where each card goes (:meth:`~cardzones.rulesets.base.Ruleset.place_deck`):
in fab, the hero-card goes to the hero zone (3.11.4), each arena-card that
can be equipped to the first zone that can take it (4.1.4a, with the
equipping rules of 8.5.41, 8.2.2, 8.2.10, 8.2.15), deck-cards to the deck
(3.7.6) and every other card stays out of the game as inventory (4.1.6). The
deck is in list order: whoever reads the start position knows it, so it is
no secret. Its scenario (:func:`scenario_data`) says to shuffle every deck
(``shuffle:``), so that a game made from it, a scenario run or a table,
starts from an order nobody wrote; a table made from deck lists shuffles
them too (:mod:`cardzones.table.creation`).

>>> from cardzones.rulesets import get_ruleset
>>> deck = get_ruleset("fab").read_deck_list("Hero: Dorinthea Ironsong\\n3 Snatch (red)\\n")
>>> [(e.name, e.count, e.number, e.line) for e in deck.entries]
[('Dorinthea Ironsong', 1, None, 1), ('Snatch', 3, 1, 2)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cardzones.cards.errors import CardDataError, DeckListError, UnknownCard
from cardzones.cards.index import CardRecord, card_games
from cardzones.cards.lookup import CardLookup
from cardzones.kernel.cards import CardDef
from cardzones.kernel.game import Game
from cardzones.rulesets import get_ruleset, new_game
from cardzones.rulesets.base import DeckCard, DeckRefused
from cardzones.rulesets.cardfiles import DeckEntry, DeckList, Variants

__all__ = [
    "DeckEntry",
    "DeckList",
    "Placed",
    "PlayerStart",
    "read_deck",
    "scenario_data",
    "start_position",
]


@dataclass(frozen=True)
class Placed:
    """A card of the start position and the zone it starts in (a scenario
    reference such as ``alice.weapon.1``; inventory cards have none)."""

    zone: str | None
    cdef: CardDef
    #: its number among the variants of its rule set (:class:`Variants`)
    number: int | None = None
    #: whether no name finds the card alone in the card index, so that a
    #: scenario must give its definition under ``cards:``
    define: bool = False

    @property
    def name(self) -> str:
        return self.cdef.name

    def entry(self, variants: Variants) -> dict[str, Any]:
        """The card as a scenario setup entry, which picks its variant by the
        rule set's key (fab's ``pitch: 1``)."""
        out: dict[str, Any] = {"card": self.name}
        if self.number is not None and variants:
            out[variants.key] = self.number
        return out


@dataclass
class PlayerStart:
    """Where one player's cards start. ``cards`` lists them zone by zone, the
    deck top first; ``inventory`` holds the cards of the list that start in no zone."""

    ruleset: str
    player: str
    cards: list[Placed] = field(default_factory=list)
    inventory: list[Placed] = field(default_factory=list)

    def setup(self) -> dict[str, list[dict[str, Any]]]:
        """The position as a scenario's ``setup:`` (with ``card_data:``, each
        entry names its card and, in a game of variants, its variant)."""
        variants = get_ruleset(self.ruleset).variants
        out: dict[str, list[dict[str, Any]]] = {}
        for placed in self.cards:
            assert placed.zone is not None
            out.setdefault(placed.zone, []).append(placed.entry(variants))
        return out

    def definitions(self) -> dict[str, dict[str, Any]]:
        """The engine's definition of each card, as its public description
        (:meth:`CardDef.to_json`), by name; a name with several variants
        lists each under ``NAME (KEY N)``, in the rule set's words (fab's
        ``Snatch (pitch 1)``)."""
        word = get_ruleset(self.ruleset).variants.key or "variant"
        out: dict[str, dict[str, Any]] = {}
        for placed in [*self.cards, *self.inventory]:
            key = placed.name
            others = {p.number for p in [*self.cards, *self.inventory] if p.name == key}
            if len(others) > 1:
                key = f"{key} ({word} {placed.number})"
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


def scenario_data(positions: Sequence[PlayerStart], name: str = "start position") -> dict[str, Any]:
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
        # The list's order is known to whoever reads it: a game made from
        # this text (a scenario run, a table) shuffles each deck first.
        "shuffle": _face_down_piles(ruleset, setup),
        # A scenario shows something hold: here, that every deck is in place.
        "steps": [
            {"expect": {"zone": zone, "count": len(cards)}}
            for zone, cards in setup.items()
            if zone.endswith(".deck")
        ]
        or [{"expect": {"turn": 1}}],
    }


def _face_down_piles(ruleset: str, setup: Mapping[str, Any]) -> list[str]:
    """The zones of ``setup`` whose order is private: each ordered zone whose
    cards are face down (a deck)."""
    specs = get_ruleset(ruleset).zone_specs
    out = []
    for zone in setup:
        ztype = zone.split(".")[1] if zone.count(".") else zone
        spec = specs.get(ztype)
        if spec is not None and spec.ordered and not spec.public:
            out.append(zone)
    return out


# -- reading deck lists ---------------------------------------------------------------


def read_deck(path: Path | str, ruleset: str | None = None) -> DeckList:
    """A deck list file, read by the rule set called ``ruleset``; without one,
    by the one rule set with card data whose deck lists it is (a LackeyCCG
    ``.dek`` file is Redemption's, text fab's)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise DeckListError(f"{path} is not UTF-8 text") from None
    except OSError as exc:
        raise DeckListError(f"cannot read {path}: {exc.strerror}") from None
    if ruleset is not None:
        return get_ruleset(ruleset).read_deck_list(text, str(path))
    games = card_games()
    takers = [g for g in games if get_ruleset(g).takes_deck_list(path.name, text)]
    if len(takers) != 1:
        some = " or ".join(takers or games) or "no game with card data"
        raise DeckListError(f"{path}: cannot tell which game's deck list it is ({some})")
    return get_ruleset(takers[0]).read_deck_list(text, str(path))


# -- start positions -----------------------------------------------------------------------


def start_position(
    deck: DeckList,
    player: str = "alice",
    *,
    lookup: CardLookup | None = None,
    home: Path | None = None,
    game: Game | None = None,
) -> PlayerStart:
    """The start position of one player's deck list, with every card found in
    the card index (the index in ``home``, or ``lookup``). The rule set
    places the cards in ``game``, a game of its with ``player`` among the
    players and their zones empty, so that one game serves every player of
    a table; without one, in a game of that player alone."""
    own = lookup is None
    cards = lookup if lookup is not None else CardLookup(deck.ruleset, home)
    try:
        found = _resolve(deck, cards)
    finally:
        if own:
            cards.close()
    position = PlayerStart(deck.ruleset, player)
    if game is None:
        game = new_game(deck.ruleset, [player], 0)
    given = [DeckCard(record.cdef, record.number, entry.section) for entry, record in found]
    try:
        where = get_ruleset(deck.ruleset).place_deck(game, player, given)
    except DeckRefused as exc:
        raise DeckListError(f"{deck.file}: {exc}") from None
    records = [record for _, record in found]

    def placed(zone: str | None, i: int) -> Placed:
        record = records[i]
        return Placed(zone, record.cdef, record.number, define=bool(record.source.get("define")))

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
                record = cards.find(entry.name, entry.number, card_set=entry.set, card_id=entry.id)
                if get_ruleset(deck.ruleset).named_printings:
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
    """A card of a game of variants, found without its variant or with one
    it has not, in the deck list's words (fab's "Snatch (red)", not a
    scenario's ``pitch: 1``); every other problem as the card index says it."""
    ruleset = get_ruleset(deck.ruleset)
    if not ruleset.variants or entry.names is not None or isinstance(exc, UnknownCard):
        return str(exc)
    numbers = cards.numbers(entry.name)
    if not numbers:
        return str(exc)
    name = cards.find(entry.name, numbers[0]).name
    return ruleset.deck_list_problem(entry, name, numbers) or str(exc)


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
