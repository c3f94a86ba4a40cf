"""Patience: a tiny card game, the example rule set of cardzones'
docs/writing-a-ruleset.md. It lives outside cardzones, as a third game
would, and uses only the public surface of the kernel (``cardzones.kernel``),
of action tables (``cardzones.acts``) and of a rule set
(``cardzones.rulesets.base``).

Each player has a stock (face down: no one may look at it), a waste and a
foundation (both face up). The player turns cards from the top of their
stock onto their waste, at most three times a turn, and builds their
foundation in one suit from the ace up.

Patience is a whole game in this one package: its cards come from a card
pack of its own format (``patience-pack``, read by :func:`read_pack`), its
deck lists are its own (:func:`read_stock_list`: a stock, one card a line),
and its board lays out its mat.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any, NamedTuple

from cardzones.acts import (
    BY,
    END_TURN,
    FLIP,
    SHUFFLE,
    Action,
    ActionResult,
    Param,
    ParamKind,
    actable_cards,
    acting,
    action_table,
    counter_action,
    move_action,
)
from cardzones.kernel import (
    ADMITTED,
    Ability,
    Admission,
    CardDef,
    Dest,
    Game,
    IllegalAction,
    MoveResult,
    Obj,
    ZoneSpec,
)
from cardzones.rulesets.base import Board, DeckCard, Placement, Ruleset
from cardzones.rulesets.cardfiles import (
    CardFormat,
    CardRecord,
    DeckEntry,
    DeckList,
    DeckListError,
    ImportFailed,
    Progress,
    Rows,
)

SUITS = ("clubs", "diamonds", "hearts", "spades")

#: The rule ids of patience, each pinned down by its scenario.
RULES = {
    "patience/stock": "The stock is face down: no one may look at its cards. It keeps its order.",
    "patience/turn": "A player turns cards from the top of their stock face up onto their waste.",
    "patience/three-turns": "A player turns cards from their stock at most three times a turn.",
    "patience/foundation": "A foundation takes an ace when it is empty, and then only the next "
    "rank of the suit on top of it.",
}

ZONE_SPECS = MappingProxyType(
    {
        "stock": ZoneSpec("stock", public=False, ordered=True, owner_may_look=False),
        "waste": ZoneSpec("waste", public=True, ordered=True),
        "foundation": ZoneSpec("foundation", public=True, ordered=True),
    }
)

#: The most times a player turns cards from the stock in one turn.
TURNS = 3


class Turned(NamedTuple):
    """How many times a player has turned cards from the stock, in which turn."""

    turn: int
    times: int


def suit(cdef: CardDef) -> str | None:
    return next((s for s in SUITS if s in cdef.types), None)


def turn_cards(game: Game, args: Mapping[str, Any]) -> ActionResult:
    """The ``turn`` action: the top ``count`` cards of the stock go face up onto
    the waste, one at a time (patience/turn)."""
    player = acting(game, args)
    count = args["count"]
    done = game.records.get(("turned", player))
    times = done.times if done is not None and done.turn == game.turn else 0
    if times >= TURNS:
        raise IllegalAction(
            f"{player} has turned the stock {TURNS} times this turn", rule="patience/three-turns"
        )
    stock, waste = game.zone(player, "stock"), game.zone(player, "waste")
    assert stock is not None and waste is not None
    cards = game.contents(stock)
    if count < 1 or count > len(cards):
        raise IllegalAction(
            f"{player}'s stock has {len(cards)} card(s): turn 1 to {len(cards)}",
            rule="patience/turn",
        )
    with game.atomic():
        for card in cards[:count]:
            game.move(card, waste, face="up", by=player)
        game.records.put(("turned", player), Turned(game.turn, times + 1))
    return ActionResult(MoveResult.MOVED)


TURN = Action(
    "turn",
    (
        BY,
        # A stock holds at most the 52 cards of a pack; the rule says how many
        # of them may be turned now.
        Param("count", ParamKind.INT, default=1, bounds=(1, 52), doc="how many cards to turn"),
    ),
    turn_cards,
    doc="Turn cards from the top of the stock face up onto the waste.",
    rules=("patience/turn", "patience/three-turns"),
)


def move_candidates(game: Game, player: str) -> Iterator[dict[str, Any]]:
    """Each card the player acts on, to each of their zones but its own, and
    to the bottom of their stock."""
    for card in actable_cards(game, player):
        here = game.zone_info(game.location(card)).type
        for ztype in ZONE_SPECS:
            if ztype != here:
                yield {"card": card, "to": Dest(ztype, player)}
        yield {"card": card, "to": Dest("stock", player), "position": "bottom"}


def flip_candidates(game: Game, player: str) -> Iterator[dict[str, Any]]:
    """Each card the player acts on, turned over."""
    for card in actable_cards(game, player):
        up = game.may_look(player, card) and game.is_public(card)
        yield {"card": card, "face": "down" if up else "up"}


def turn_candidates(game: Game, player: str) -> Iterator[dict[str, Any]]:
    """One, two or three cards."""
    for count in (1, 2, 3):
        yield {"count": count}


def shuffle_candidates(game: Game, player: str) -> Iterator[dict[str, Any]]:
    """The player's stock."""
    yield {"zone": game.zone(player, "stock")}


# -- cards and deck lists ------------------------------------------------------

#: The columns of a card pack: a tab-separated text, one card a line.
PACK_COLUMNS = ["name", "suit", "rank"]
RANKS = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
RANKS += ("jack", "queen", "king")


def is_pack(head: str) -> bool:
    """A card pack starts with its header line."""
    return head.split("\n", 1)[0].rstrip("\r").split("\t") == PACK_COLUMNS


def read_pack(text: str, file: str, progress: Progress) -> Rows:
    """Every card of a card pack with its line; a line that is not a card
    is skipped with the reason.

    >>> rows = read_pack("name\\tsuit\\trank\\nAce of Hearts\\thearts\\t1\\nJoker\\tstars\\t0\\n",
    ...                  "pack.tsv", lambda done, total: None)
    >>> [(line, row if isinstance(row, str) else row.cdef.to_json()) for line, row in rows]
    [(2, {'name': 'Ace of Hearts', 'types': ['hearts'], 'rank': 1}), (3, 'stars is not a suit')]
    """
    lines = text.split("\n")
    if not is_pack(lines[0]):
        raise ImportFailed(f"{file}:1: a card pack starts with {' / '.join(PACK_COLUMNS)}")
    for number, raw in enumerate(lines[1:], 2):
        if not raw.strip():
            continue
        cells = [c.strip() for c in raw.rstrip("\r").split("\t")]
        if len(cells) != len(PACK_COLUMNS):
            yield number, f"{len(cells)} columns, not {len(PACK_COLUMNS)}"
        elif cells[1] not in SUITS:
            yield number, f"{cells[1]} is not a suit"
        elif not cells[2].isdigit() or not 1 <= int(cells[2]) <= 13:
            yield number, f"{cells[2]} is not a rank from 1 to 13"
        else:
            cdef = CardDef(cells[0], frozenset({cells[1]}), {"rank": int(cells[2])})
            source = {"database": "a patience card pack", "format": PACK.name, "line": number}
            yield number, CardRecord("patience", cdef, source=source)
        progress(number, len(lines))


PACK = CardFormat("patience-pack", "a patience card pack", is_pack, read_pack)

#: A line of a stock list: a card's name, and how many before it (``2 Ace of Hearts``).
_LINE = re.compile(r"^(?:(\d+)\s*x?\s+)?(\S.*)$", re.IGNORECASE)
_CARD = re.compile(rf"^({'|'.join(RANKS)}) of ({'|'.join(SUITS)})$", re.IGNORECASE)


def read_stock_list(text: str, file: str = "<deck>") -> DeckList:
    """A patience deck list: the stock, top first, one card a line, with a
    count before a name for several copies; ``#`` starts a comment.

    >>> [(e.name, e.count, e.line) for e in read_stock_list("# mine\\n2 Ace of Hearts\\n").entries]
    [('Ace of Hearts', 2, 2)]
    """
    entries = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = _LINE.match(line)
        assert match is not None  # any text that is not blank
        count = int(match[1] or 1)
        if not 1 <= count <= 52:
            raise DeckListError(f"{file}:{number}: {count} copies is not a count")
        entries.append(DeckEntry(match[2].strip(), count, line=number))
    if not entries:
        raise DeckListError(f"{file}: no card found in the deck list")
    return DeckList("patience", tuple(entries), file)


def is_stock_list(text: str) -> bool:
    """Whether every card line names a card of a pack, ``Ace of Hearts``."""
    lines = [raw.split("#", 1)[0].strip() for raw in text.splitlines()]
    names = [m[2] for line in lines if line and (m := _LINE.match(line))]
    return bool(names) and all(_CARD.match(name) for name in names)


class PatienceRuleset(Ruleset):
    """Patience: a stock, a waste and a foundation built from the ace up."""

    name = "patience"
    zone_specs = ZONE_SPECS
    clear_to = "waste"
    actions = action_table(
        replace(move_action(), candidates=move_candidates),
        replace(SHUFFLE, candidates=shuffle_candidates),
        replace(FLIP, candidates=flip_candidates),
        replace(END_TURN, candidates=lambda game, player: iter([{}])),
        replace(TURN, candidates=turn_candidates),
        counter_action(()),
    )
    card_params = (
        Param("suit", ParamKind.CHOICE, required=True, options=SUITS, doc="its suit"),
        Param("rank", ParamKind.INT, required=True, doc="1 (the ace) to 13 (the king)"),
    )
    rules = MappingProxyType(RULES)
    #: The mat on a board: the stock and the waste side by side, the
    #: foundation beside them.
    board = Board(
        areas={"stock": "stock", "waste": "waste", "foundation": "foundation"},
        rows=("stock waste foundation",),
        order=("stock", "waste", "foundation"),
    )
    card_formats = (PACK,)
    deck_list_help = "The stock, top first: one card a line, a count before it for several."
    deck_list_example = "Ace of Hearts\n2 Two of Hearts\nThree of Spades"

    def read_deck_list(self, text: str, file: str = "<deck>") -> DeckList:
        return read_stock_list(text, file)

    def takes_deck_list(self, file: str, text: str) -> bool:
        return is_stock_list(text)

    def place_deck(self, game: Game, player: str, cards: Sequence[DeckCard]) -> Placement:
        """A deck list is the stock, in list order; any other section is out."""
        stock = [i for i, card in enumerate(cards) if card.section in ("main", "deck")]
        out = [i for i, card in enumerate(cards) if card.section not in ("main", "deck")]
        return Placement([(f"{player}.stock", i) for i in stock], out)

    def make_card(
        self, name: str, fields: Mapping[str, Any], abilities: Sequence[Ability] = ()
    ) -> CardDef:
        return CardDef(
            name, frozenset({fields["suit"]}), {"rank": fields["rank"]}, abilities=tuple(abilities)
        )

    def card_fields(self, cdef: CardDef) -> dict[str, Any]:
        (suit,) = cdef.types
        return {"suit": suit, "rank": cdef.stats["rank"]}

    def admit(self, game: Game, obj: Obj, zid: int, by: str | None) -> Admission:
        """patience/foundation: an ace on an empty foundation, then the suit in order."""
        if game.zone_info(zid).type != "foundation":
            return ADMITTED
        rank = obj.cdef.stat("rank")
        below = [c for c in game.contents(zid) if c != obj.card]
        if not below:
            if rank == 1:
                return ADMITTED
            return Admission("an empty foundation takes an ace", rule="patience/foundation")
        top = game.obj(below[0]).cdef
        top_rank = top.stat("rank")
        if suit(obj.cdef) == suit(top) and rank is not None and rank - 1 == top_rank:
            return ADMITTED
        why = f"the foundation takes the next {suit(top)} after {top.name}"
        return Admission(why, rule="patience/foundation")
