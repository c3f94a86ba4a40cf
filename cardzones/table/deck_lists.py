"""A table started from deck lists: ``"decks": {"alice": "DECK LIST", ...}`` in
a ``POST /api/tables`` body.

Each player's list is read by the game's rule set
(:meth:`~cardzones.rulesets.base.Ruleset.read_deck_list`: a fab list as text,
"3 Snatch (red)" and FaBrary's and FaBDB's exports, a Redemption list as a
LackeyCCG ``.dek`` file) and placed by the card index's deck reader
(:mod:`cardzones.cards.decks`): the hero and equipment go to their zones, the
rest becomes the deck, which the table shuffles with its seed when it is made.
The result is a scenario document with ``card_data``, which the table's
creation turns into a self-contained record like any other
(:mod:`cardzones.table.creation`): the cards are looked up once, now.

Every problem of every list is reported at once, each with the list and its
line (``decks.alice:4: ...``); nothing is created then. A server without
those cards in its card index reads no deck lists, and says which command
imports them.

>>> deck_document({"ruleset": "fab", "decks": {"alice": 7}})
Traceback (most recent call last):
...
cardzones.table.deck_lists.DeckListRefused: decks.alice: is the text of a deck list, not 7
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

from cardzones.cards.decks import DeckList, PlayerStart, start_position
from cardzones.cards.errors import CardDataError, DeckListError
from cardzones.cards.index import CardIndex, card_games
from cardzones.cards.lookup import IMPORT_HINT, UPDATE_HINT, CardLookup
from cardzones.errors import CardzonesError
from cardzones.kernel.cards import CardDef
from cardzones.position.written import token_cards
from cardzones.rulesets import get_ruleset, new_game, ruleset_names

KEY = "decks"
#: The most cards one deck list may put in a game. A constructed deck holds a
#: few dozen; the bound keeps one request from making a game of millions.
MAX_CARDS = 1000
#: The body keys a deck-list table takes (``decks`` gives the whole start
#: position, so ``cards`` and ``setup`` are not among them).
KEYS = ("ruleset", "players", "seed", "card_data", KEY)


class DeckListRefused(CardzonesError):
    """A body's deck lists cannot start a table; the message says why."""


def deck_list_games() -> tuple[str, ...]:
    """The rule sets whose deck lists can start a table now: those whose cards
    the card index (``$CARDZONES_HOME``) holds."""
    try:
        index = CardIndex.open()
    except CardDataError:
        return ()
    installed = ruleset_names()
    try:
        with index:
            return tuple(g for g in card_games() if g in installed and index.count(g) > 0)
    except sqlite3.Error:
        return ()


def unavailable(ruleset: str) -> str:
    """Why a server without the cards of ``ruleset`` reads no deck lists of it."""
    games = card_games()
    if ruleset not in games:
        return f"deck lists are read for {' and '.join(games)} tables, not for {ruleset}"
    return (
        f"deck lists are not available: the server's card index has no {ruleset} cards; "
        f"whoever runs the server imports them with `{UPDATE_HINT.format(ruleset=ruleset)}`, "
        f"or with `{IMPORT_HINT}` for a file downloaded beforehand"
    )


@dataclass(frozen=True)
class DeckStart:
    """The start position of a table's deck lists: its ``setup:`` (each entry
    names its card and its variant, such as a fab card's pitch), every card it
    places in setup order, as the card index gave it, and the game's token
    cards written down (when ``tokens`` was asked for)."""

    ruleset: str
    players: tuple[str, ...]
    setup: dict[str, list[dict[str, Any]]]
    placed: tuple[CardDef, ...]
    tokens: dict[str, Any] = field(default_factory=dict)


def deck_document(body: dict[str, Any], *, tokens: bool = False) -> DeckStart:
    """The start position of the players of ``body`` from their deck lists,
    in the order of ``players``, with every card looked up in the card index
    once (and, with ``tokens``, the game's token cards). ``body`` has
    ``ruleset``, ``players``, ``seed`` and ``card_data`` already checked by the
    scenario layer's rules, except that ``players`` may be absent: then the
    players are the lists' own, in the order given.

    Raises :class:`DeckListRefused` naming every problem.
    """
    ruleset = body["ruleset"]
    decks = body[KEY]
    if not isinstance(decks, dict) or not decks:
        raise DeckListRefused("decks: is an object, one deck list per player: {PLAYER: TEXT}")
    for player, text in decks.items():
        if not isinstance(text, str):
            raise DeckListRefused(f"decks.{player}: is the text of a deck list, not {text!r}")
    card_data = body.get("card_data", ruleset)
    if card_data != ruleset:
        raise DeckListRefused(
            f"card_data: {card_data!r} does not match ruleset: {ruleset} "
            "(deck lists take their cards from the ruleset's card data)"
        )
    players = list(body.get("players") or decks)
    missing = [p for p in players if p not in decks]
    if missing:
        raise DeckListRefused(f"decks: no deck list for {', '.join(missing)}")
    strangers = [p for p in decks if p not in players]
    if strangers:
        raise DeckListRefused(
            f"decks: {', '.join(map(repr, strangers))} is not a player; "
            f"the players are {', '.join(players)}"
        )
    if ruleset not in card_games():
        raise DeckListRefused(unavailable(ruleset))
    try:
        lookup = CardLookup(ruleset)
    except CardDataError:
        raise DeckListRefused(unavailable(ruleset)) from None
    positions: list[PlayerStart] = []
    problems: list[str] = []
    # One game, where the rule set places each player's cards in their zones.
    placing = new_game(ruleset, list(players), 0)
    with lookup:
        for player in players:
            try:
                deck = read_list(ruleset, decks[player], f"decks.{player}")
                positions.append(start_position(deck, player, lookup=lookup, game=placing))
            except CardDataError as exc:
                problems.append(str(exc))
        written = token_cards(lookup, get_ruleset(ruleset)) if tokens and not problems else {}
    if problems:
        raise DeckListRefused("\n".join(problems))
    setup: dict[str, list[dict[str, Any]]] = {}
    for position in positions:
        setup.update(position.setup())
    placed = tuple(p.cdef for position in positions for p in position.cards)
    return DeckStart(ruleset, tuple(players), setup, placed, written)


def read_list(ruleset: str, text: str, file: str) -> DeckList:
    """One deck list's text, read by its game's rule set."""
    deck = get_ruleset(ruleset).read_deck_list(text, file)
    cards = sum(entry.count for entry in deck.entries if entry.names is None)
    cards += sum(entry.names.count(",") + 1 for entry in deck.entries if entry.names)
    if cards > MAX_CARDS:
        raise DeckListError(
            f"{file}: {cards} cards; a deck list at a table holds {MAX_CARDS} at most"
        )
    return deck
