"""The limits of a table server: how large a new table may be, and how much
one client may ask of the server. A server faces strangers, so each limit is
checked before the work it bounds, and a request over one is refused with a
message that names the limit and the ``cardzones serve`` option that sets it.

The defaults fit real games with room to spare: a constructed deck holds a
few dozen cards, a Redemption deck a few hundred; eight players fill any
table of the installed rule sets.

>>> check_start(["alice", "bob"], {}, {"alice.deck": ["A"] * 3}, Limits(zone_cards=2))
Traceback (most recent call last):
...
cardzones.table.limits.LimitExceeded: setup: alice.deck holds 3 cards; a zone holds at most 2 \
at the start (cardzones serve --max-zone-cards)
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from cardzones.errors import CardzonesError
from cardzones.table.finish import DEFAULT_FLOOR_MINUTES

#: Names a viewer, never a seat: a seat of this name would lose its link.
SPECTATOR = "spectator"
#: The names the scenario language gives a meaning of their own.
RESERVED_NAMES = (SPECTATOR, "owner", "you")
#: A player's name is the owner part of its zones' names (``alice.hand``).
_PLAYER_NAME = re.compile(r"[A-Za-z_][\w-]*")


class LimitExceeded(CardzonesError):
    """A request is over one of the server's limits; ``limit`` names it."""

    def __init__(self, message: str, limit: str) -> None:
        super().__init__(message)
        self.limit = limit


@dataclass(frozen=True)
class Limits:
    """The limits of one server. Each field has a ``cardzones serve`` option,
    ``--max-`` and the field's name with dashes (``--max-zone-cards``); a
    floor, a field named ``min_...``, is its name with dashes
    (``--min-finish-after``)."""

    #: the bytes of a ``POST /api/tables`` body
    body_bytes: int = 1_000_000
    #: the players of a table
    players: int = 8
    #: the characters of a player's name
    name_chars: int = 40
    #: the zones a start position fills (the keys of ``setup``)
    zones: int = 200
    #: the cards one zone holds at the start
    zone_cards: int = 1_000
    #: the cards of a start position, all zones together
    cards: int = 5_000
    #: the card definitions of a start position (``cards``)
    card_defs: int = 5_000
    #: how deeply the JSON of a body or a frame may nest
    json_depth: int = 32
    #: tables one client address may create in a minute
    creates_per_minute: int = 30
    #: WebSockets open at once on one seat (or the spectator) of a table
    seat_sockets: int = 8
    #: WebSockets open at once on the server process
    sockets: int = 2_000
    #: WebSockets one client address may open in a minute
    sockets_per_minute: int = 120
    #: frames a second one seat may send, all its connections together (its
    #: hellos among them); more wait their turn
    seat_frames: int = 20
    #: seconds a client has to send a request's headers and body
    request_seconds: float = 20.0
    #: the least time, in minutes, a proposal to finish a game waits for the
    #: other seats (a table's ``finish_after``): once it passes, every seat
    #: may replay every other's hidden cards, so a table's maker may not set
    #: a fuse shorter than a player needs to answer
    min_finish_after: int = DEFAULT_FLOOR_MINUTES
    #: bytes of the acts a table stores, all together (as JSON): what its
    #: log, its replay and the state its acts build grow to
    table_bytes: int = 4_000_000
    #: connections (HTTP and WebSocket) open at once from one client address
    address_connections: int = 64
    #: WebSockets open at once from one client address, all tables together
    address_sockets: int = 32
    #: votes to finish the game one seat may send in a minute
    votes_per_minute: int = 10
    #: frames a second one client address may send, all its seats and
    #: connections together; more wait their turn
    address_frames: int = 60

    @staticmethod
    def option(name: str) -> str:
        """The ``cardzones serve`` option of the limit ``name``."""
        if name.startswith("min_"):
            return "--" + name.replace("_", "-")
        return "--max-" + name.replace("_", "-")

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def to_env(self) -> str:
        """The limits as ``NAME=VALUE`` words (how ``serve`` hands them to its workers)."""
        return " ".join(f"{n}={getattr(self, n)}" for n in self.names())

    @classmethod
    def from_env(cls, text: str) -> Limits:
        """The limits :meth:`to_env` wrote; a name it does not know is ignored."""
        kinds = {f.name: f.type for f in fields(cls)}
        values: dict[str, Any] = {}
        for word in text.split():
            name, _, value = word.partition("=")
            if name in kinds:
                values[name] = float(value) if kinds[name] in (float, "float") else int(value)
        return cls(**values)


def _over(limit: str, message: str) -> LimitExceeded:
    return LimitExceeded(f"{message} (cardzones serve {Limits.option(limit)})", limit)


def check_players(players: Any, limits: Limits) -> None:
    """Refuse a list of players over the limits, or a name that cannot be a
    seat's: each name is the owner part of its zones' names (``alice.hand``),
    so it is one word of letters, digits, ``_`` and ``-`` that starts with a
    letter or ``_``; and ``spectator`` names the spectator's link."""
    if not isinstance(players, list):
        return  # the scenario layer says what players: is
    if len(players) > limits.players:
        raise _over(
            "players", f"players: {len(players)} players; a table seats at most {limits.players}"
        )
    for name in players:
        if not isinstance(name, str):
            continue
        if len(name) > limits.name_chars:
            raise _over(
                "name_chars",
                f"players: a name of {len(name)} characters; a name has at most "
                f"{limits.name_chars}",
            )
        if _PLAYER_NAME.fullmatch(name) is None:
            raise CardzonesError(
                f"players: {name!r} cannot name a seat's zones ({name}.hand): a name is one "
                "word of letters, digits, _ and -, starting with a letter or _"
            )
        if name in RESERVED_NAMES:
            raise CardzonesError(f"players: {name!r} is reserved and cannot be a player's name")


def check_start(players: Any, cards: Any, setup: Any, limits: Limits) -> None:
    """Refuse a start position over the limits, before any of it is built.
    Values of the wrong kind are left to the scenario layer, which says what
    each key holds."""
    check_players(players, limits)
    if isinstance(cards, Mapping) and len(cards) > limits.card_defs:
        raise _over(
            "card_defs",
            f"cards: {len(cards)} card definitions; a table defines at most {limits.card_defs}",
        )
    if not isinstance(setup, Mapping):
        return
    if len(setup) > limits.zones:
        raise _over(
            "zones", f"setup: {len(setup)} zones; a start position fills at most {limits.zones}"
        )
    total = 0
    for zone, entries in setup.items():
        if not isinstance(entries, list):
            continue
        if len(entries) > limits.zone_cards:
            raise _over(
                "zone_cards",
                f"setup: {zone} holds {len(entries)} cards; a zone holds at most "
                f"{limits.zone_cards} at the start",
            )
        total += len(entries)
        if total > limits.cards:
            raise _over(
                "cards",
                f"setup: more than {limits.cards} cards; a start position holds at most "
                f"{limits.cards}",
            )


class TooDeep(ValueError):
    """The JSON nests deeper than the server's limit."""


def parse_json(text: str | bytes, depth: int) -> Any:
    """``text`` parsed as JSON, refused with :class:`TooDeep` when its arrays
    and objects nest more than ``depth`` levels, or with ValueError when it is
    not JSON (UTF-8, if bytes).

    One pass of the parser and one walk of what it made, each linear in the
    text, whatever it holds: a scan of the text for brackets outside strings
    would be another parser, and a slow one on escaped quotes. The parser
    itself stops at the interpreter's recursion limit, which a text nested
    past it meets as :class:`TooDeep` too. The caller bounds the text's size
    first and runs this off the event loop: it takes time in proportion to
    the text.

    >>> parse_json('{"a": [[1], "]]]]"]}', 3)
    {'a': [[1], ']]]]']}
    >>> parse_json('[[[[]]]]', 3)
    Traceback (most recent call last):
    ...
    cardzones.table.limits.TooDeep: more than 3 levels deep
    >>> parse_json('[' * 100_000, 3)
    Traceback (most recent call last):
    ...
    cardzones.table.limits.TooDeep: more than 3 levels deep
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8")  # strictly: json.loads would guess UTF-16 too
    try:
        data = json.loads(text)
    except RecursionError:
        raise TooDeep(f"more than {depth} levels deep") from None
    if _depth_over(data, depth):
        raise TooDeep(f"more than {depth} levels deep")
    return data


def _depth_over(data: Any, depth: int) -> bool:
    # A loop over a list of what is left to see, not a recursion: parsed
    # data can be nested as deep as the parser allowed.
    pending: list[tuple[Any, int]] = [(data, 1)]
    while pending:
        value, level = pending.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if level > depth:
            return True
        pending.extend((child, level + 1) for child in children if isinstance(child, dict | list))
    return False
