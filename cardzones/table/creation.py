"""A table's creation record: the rule set, the players, the seed, the handle
key and the start position, everything needed to build its game before the
first act.

The start position is a scenario file's ``cards``, ``setup`` and ``shuffle``,
kept as JSON in the order they were given (setup order decides the engine's
card numbers, so it is part of the game). A written setup keeps its order,
as in a scenario: a table shuffles the zones its ``shuffle`` names, and every
deck of a table made from deck lists, whose order whoever wrote the lists
knows (:attr:`Record.shuffle`). The seed and the handle key are secret: the seed
decides every shuffle, and the handle key, a separate random secret, keys the
handles of views, so that a table built again from its record (a restart, a
replay) gives every viewer the handles it gave before. Both are kept in the
store and never sent.

A start position may name real cards with ``card_data`` (docs/cards.md). A
body's ``decks`` (:mod:`cardzones.table.deck_lists`) look each card up once
and the record writes those cards down; the table's game is built from the
record, once, and every card read back from it must be the card the index
gave. A picture address comes from the card index alone: the ``image`` of
a card a body defines is dropped (:mod:`cardzones.table.pictures`). The
record is self-contained all the same: when the table is created, every
card the set-up takes from the card index is written down under ``cards``, in
the scenario format's words (a card used in several variants, such as
colours, as a list of definitions, one per variant), and so is every token card of the game when its
actions name cards (fab's ``create_token``). Building, replaying, restoring and
exporting the table never read the index again, so they give the same game
whatever it holds later. ``card_data`` stays in the record to say where the
cards came from, and makes the table closed (:class:`TableContext`).

>>> record = creation_from_request({"ruleset": "fab", "players": ["alice", "bob"],
...                                  "seed": 7, "setup": {"alice.hand": ["Snatch"]}})
>>> record.players, record.seed
(('alice', 'bob'), 7)
>>> ctx = record.build()
>>> [z["objects"] for z in ctx.game.view("bob")["zones"] if z["zone"] == "alice.hand"]
[[{'hidden': True}]]
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, replace
from typing import Any

from cardzones.acts.actions import ParamKind
from cardzones.errors import CardzonesError, ScenarioError
from cardzones.kernel.game import Game, new_handle_key
from cardzones.position.context import Context
from cardzones.position.loader import from_data, load_text
from cardzones.position.start import StartPosition, check_header, procedure_of
from cardzones.position.written import placed_cards, token_cards, written_cards
from cardzones.rulesets import get_ruleset, ruleset_names
from cardzones.rulesets.base import Ruleset, ruleset_of
from cardzones.table.context import TableContext
from cardzones.table.deck_lists import KEY as DECKS
from cardzones.table.deck_lists import DeckListRefused, deck_document
from cardzones.table.finish import finish_after_of
from cardzones.table.limits import LimitExceeded, Limits, check_players, check_start
from cardzones.table.pictures import drop_pictures, pictureless
from cardzones.table.record import Record

#: The keys of ``POST /api/tables``.
BODY_KEYS = (
    "ruleset",
    "players",
    "seed",
    "cards",
    "card_data",
    "setup",
    DECKS,
    "shuffle",
    "procedure",
    "handle_key",
    "finish_after",
)
#: Keys that may stand beside ``scenario``: they are not part of the start position.
BESIDE_SCENARIO = ("handle_key", "finish_after")
SCENARIO_KEY = "scenario"
#: Where a JSON start position "is", for the scenario layer's messages.
_FILE = "<table>"


class CreationError(CardzonesError):
    """A request to create a table is wrong; the message says what. ``limit``
    names the server's limit it is over, if that is what is wrong."""

    def __init__(self, message: str, limit: str | None = None) -> None:
        super().__init__(message)
        self.limit = limit


def _limited(check: Any, *args: Any) -> None:
    try:
        check(*args)
    except LimitExceeded as exc:
        raise CreationError(str(exc), exc.limit) from None
    except CardzonesError as exc:
        raise CreationError(str(exc)) from None


def random_seed() -> int:
    """A new secret seed: 63 random bits."""
    return secrets.randbits(63)


@dataclass(frozen=True)
class Creation(Record):
    """A creation record (:class:`~cardzones.table.record.Record`) that builds
    its game."""

    def build(self) -> TableContext:
        """The game at the start (:func:`build`)."""
        return build(self)


def start(record: Record) -> TableContext:
    """The game at the start for a new table: the one built when the record
    was checked, if it is still untouched, else built again."""
    if record.built:
        return record.built.pop()
    return build(record)


def build(record: Record) -> TableContext:
    """The game at the start of ``record``, in the context that stored acts
    run in. Raises :class:`CreationError` when the start position is not valid."""
    doc = record.scenario()
    if record.card_data is None and "cards" in doc:
        # No card index gave its cards: a picture address in them came from
        # a body, before tables kept none (cardzones.table.pictures).
        doc["cards"] = pictureless(doc["cards"])
    position = _position(from_data(doc, _FILE), _FILE)
    return _set_up(
        position,
        _setup_error,
        record.handle_key,
        closed=record.card_data is not None,
        every_deck=record.shuffle is None,
    )


def _setup_error(exc: ScenarioError) -> CreationError:
    return CreationError(exc.message)


def _position(doc: Any, file: str) -> StartPosition:
    try:
        return StartPosition.from_doc(doc, file)
    except ScenarioError as exc:
        raise CreationError(exc.message) from None


def _run_setup(scenario: StartPosition, ctx: Context, error: Any) -> None:
    """Build ``scenario``'s start position into ``ctx``: a problem of the
    written position is ``error``'s, one of the game's a :class:`CreationError`."""
    try:
        scenario.setup(ctx)
    except ScenarioError as exc:
        raise error(exc) from None
    except CardzonesError as exc:
        raise CreationError(str(exc)) from None


def _set_up(
    scenario: StartPosition,
    error: Any,
    handle_key: str | None = None,
    *,
    closed: bool = False,
    every_deck: bool = False,
) -> TableContext:
    """The game ``scenario`` sets up (its ``shuffle`` zones shuffled);
    ``every_deck`` shuffles every deck too (:func:`shuffle_decks`)."""
    game = Game(get_ruleset(scenario.ruleset), scenario.players, scenario.seed, handle_key)
    ctx = TableContext(
        game, scenario.ruleset, scenario.file, scenario.cards, scenario.variants, closed=closed
    )
    _run_setup(scenario, ctx, error)
    if every_deck:
        shuffle_decks(game)
    ctx.seated = True
    # Setup is not an act: nothing before it can be rolled back to.
    game.forget_history()
    return ctx


def shuffle_decks(game: Game) -> None:
    """Shuffle every player's face-down ordered zone (a deck) with the game's
    seed: what a table made from deck lists does when it is made, since the
    order of a list is known to whoever wrote it (and every table did before
    a written setup's order was kept). The seed is the table's secret, drawn
    at random unless the request gives one."""
    for zid in deck_zones(game):
        # Part of setting up, which logs nothing (as a scenario's setup).
        game.shuffle(zid, by=game.zone_info(zid).owner, logged=False)


def deck_zones(game: Game) -> list[int]:
    """The zones :func:`shuffle_decks` shuffles, in the order it does: each
    player's face-down ordered zone that holds two cards or more."""
    out = []
    for zid in game.all_zones():
        info = game.zone_info(zid)
        spec = info.spec
        owned = info.owner is not None
        if owned and spec.ordered and not spec.public and len(game.contents(zid)) > 1:
            out.append(zid)
    return out


def creation_from_request(body: Any, limits: Limits | None = None) -> Creation:
    """The creation record a ``POST /api/tables`` body asks for.

    Raises :class:`CreationError` naming what is wrong (for a scenario text,
    with its line); nothing is created then. A start position over ``limits``
    is refused before any of it is built.
    """
    limits = limits or Limits()
    if isinstance(body, dict) and body.get("finish_after") is not None:
        try:
            finish_after = finish_after_of(body["finish_after"])
        except ValueError as exc:
            raise CreationError(str(exc)) from None
        _check_fuse(finish_after, limits)
        body = {k: v for k, v in body.items() if k != "finish_after"}
        return replace(creation_from_request(body, limits), finish_after=finish_after)
    if not isinstance(body, dict):
        raise CreationError("the body is a JSON object")
    unknown = sorted(k for k in body if k not in (*BODY_KEYS, SCENARIO_KEY))
    if unknown:
        raise CreationError(
            f"unknown key(s) {', '.join(map(repr, unknown))}; the keys are "
            + ", ".join((*BODY_KEYS, SCENARIO_KEY))
        )
    handle_key = body.get("handle_key")
    if handle_key is not None and (not isinstance(handle_key, str) or not handle_key):
        raise CreationError("handle_key is a non-empty text")
    if SCENARIO_KEY in body:
        position = [k for k in BODY_KEYS if k not in BESIDE_SCENARIO]
        others = [k for k in position if k in body]
        if others:
            raise CreationError(
                f"give either scenario or {', '.join(position)}, not both "
                f"(found {', '.join(others)})"
            )
        return _from_scenario_text(body[SCENARIO_KEY], limits, handle_key)
    if "ruleset" not in body:
        raise CreationError(f"ruleset is required ({' or '.join(ruleset_names())})")
    seed = body.get("seed")
    if seed is None:
        seed = random_seed()
    # Like the seed, a handle key is for reproducing a table (a test, a known
    # game); a real table leaves it out and the server draws a secret one.
    if handle_key is None:
        handle_key = new_handle_key()
    if DECKS in body:
        return _from_decks(body, seed, handle_key, limits)
    _limited(
        check_start,
        body.get("players", ["alice", "bob"]),
        body.get("cards"),
        body.get("setup"),
        limits,
    )
    doc = {
        "name": "table",
        "ruleset": body["ruleset"],
        "players": body.get("players", ["alice", "bob"]),
        "seed": seed,
        "cards": pictureless(body.get("cards") or {}),
        "setup": body.get("setup") or {},
        "steps": [],
    }
    if body.get("card_data") is not None:
        doc["card_data"] = body["card_data"]
    if body.get("shuffle") is not None:
        doc["shuffle"] = body["shuffle"]
    if body.get("procedure") is not None:
        doc["procedure"] = body["procedure"]
    scenario = _position(from_data(doc, _FILE), _FILE)
    for key in ("cards", "setup"):
        if not isinstance(doc[key], dict):
            if scenario.card_data is not None:
                scenario.card_data.close()
            raise CreationError(f"{key} is a JSON object, as in a scenario file")
    return _record(scenario, doc["cards"], doc["setup"], _setup_error, handle_key)


def _check_fuse(finish_after: int | None, limits: Limits) -> None:
    """Refuse a ``finish_after`` under the server's floor: the maker of a
    table may be one of its seats, and the fuse decides when it may read the
    others' hidden cards (:mod:`cardzones.table.finish`). A body that asks
    for less is told so rather than given more than it asked for."""
    floor = limits.min_finish_after * 60
    if finish_after is not None and finish_after < floor:
        raise CreationError(
            f"finish_after is at least {floor} seconds on this server "
            f"({limits.min_finish_after} minutes, cardzones serve "
            f"{Limits.option('min_finish_after')}); got {finish_after}",
            "min_finish_after",
        )


def _from_decks(body: dict[str, Any], seed: Any, handle_key: str, limits: Limits) -> Creation:
    """The record of a body whose ``decks`` give the start position. The
    deck lists look every card up once; the record writes those cards down,
    and the table's game is built from the record alone, once."""
    others = [k for k in ("cards", "setup", "shuffle") if k in body]
    if others:
        raise CreationError(
            "decks give the whole start position; "
            f"leave out {' and '.join(others)} (every deck of a list is shuffled)"
        )
    # The rule set, the players and the seed are checked as a scenario's.
    check: dict[str, Any] = {"name": "table", "ruleset": body["ruleset"], "seed": seed}
    if body.get("players") is not None:
        check["players"] = body["players"]
        _limited(check_players, body["players"], limits)
    try:
        check_header(from_data(check, _FILE), _FILE)
    except ScenarioError as exc:
        raise CreationError(exc.message) from None
    tokens = _names_cards(get_ruleset(body["ruleset"]))
    try:
        decks = deck_document({**body, "seed": seed}, tokens=tokens)
    except DeckListRefused as exc:
        raise CreationError(str(exc)) from None
    except ScenarioError as exc:
        raise CreationError(exc.message) from None
    _limited(check_start, list(decks.players), None, decks.setup, limits)
    try:
        written = placed_cards(decks.placed, get_ruleset(decks.ruleset))
    except ScenarioError as exc:
        raise CreationError(exc.message) from None
    # Deck lists are for playing a game: a rule set that has a game procedure
    # runs it unless the body says ``"procedure": false`` (a table to be
    # played by hand, or a judge's).
    wanted = body.get("procedure")
    if wanted is None and get_ruleset(decks.ruleset).has_procedure:
        wanted = True
    try:
        procedure = procedure_of(wanted)
    except ValueError as exc:
        raise CreationError(str(exc)) from None
    record = Creation(
        decks.ruleset,
        decks.players,
        seed,
        {**written, **decks.tokens},
        decks.setup,
        decks.ruleset,
        handle_key,
        procedure=procedure,
    )
    # The procedure begins once every deck is shuffled (refused, with the
    # rule set's word, by a rule set that has none).
    ctx = record.build()
    # Each card is read back from what the record says of it, once, here:
    # it must be the card the index gave.
    number = ruleset_of(ctx.game).variants.of
    for cdef in decks.placed:
        variants = ctx.variants.get(cdef.name)
        picked = number(cdef)
        again = variants.get(picked) if variants is not None and picked is not None else None
        if again is None:
            again = ctx.cards.get(cdef.name)
        if again != cdef:
            raise CreationError(f"{cdef.name} could not be written down as it is")
    record.built.append(ctx)
    return record


def _from_scenario_text(text: Any, limits: Limits, handle_key: str | None = None) -> Creation:
    file = "scenario"
    if not isinstance(text, str):
        raise CreationError("scenario is the text of a scenario file")

    def at_line(exc: ScenarioError) -> CreationError:
        where = f"scenario line {exc.line}" if exc.line else "scenario"
        return CreationError(f"{where}: {exc.message}")

    try:
        doc = load_text(text, file)
    except ScenarioError as exc:
        raise at_line(exc) from None
    if isinstance(doc, dict):
        drop_pictures(doc.get("cards"))
        _limited(
            check_start,
            doc.get("players", ["alice", "bob"]),
            doc.get("cards"),
            doc.get("setup"),
            limits,
        )
        # Its steps are not used, so a text may leave them (and the name) out.
        doc.setdefault("name", "table")
        doc.setdefault("steps", [])
        if "seed" not in doc:
            doc["seed"] = random_seed()
    try:
        scenario = StartPosition.from_doc(doc, file)
    except ScenarioError as exc:
        raise at_line(exc) from None
    try:
        cards = json.loads(json.dumps(doc.get("cards") or {}))
        setup = json.loads(json.dumps(doc.get("setup") or {}))
    except (TypeError, ValueError):
        if scenario.card_data is not None:
            scenario.card_data.close()
        raise CreationError("scenario: its cards or setup hold a value JSON cannot carry") from None
    return _record(scenario, cards, setup, at_line, handle_key or new_handle_key())


def _record(
    scenario: StartPosition,
    cards: dict[str, Any],
    setup: dict[str, Any],
    error: Any,
    handle_key: str,
) -> Creation:
    """The creation record of a checked start position, with every card it
    takes from the card index written down (the module's docstring); checked
    by building its game."""
    lookup = scenario.card_data
    shuffle = _shuffled_zones(scenario)
    if lookup is None:
        record = Creation(
            scenario.ruleset,
            scenario.players,
            scenario.seed,
            cards,
            setup,
            None,
            handle_key,
            shuffle=shuffle,
            procedure=scenario.procedure,
        )
        built = _set_up(scenario, error, handle_key)
        if scenario.file == _FILE:  # the game the record builds, message for message
            record.built.append(built)
        return record
    try:
        ctx = scenario.new_context(handle_key)
        _run_setup(scenario, ctx, error)
        ruleset = ruleset_of(ctx.game)
        try:
            tokens = token_cards(lookup, ruleset) if _names_cards(ruleset) else {}
            written = {**written_cards(ctx), **tokens}
        except ScenarioError as exc:
            raise CreationError(exc.message) from None
        # The cards the start position defines itself win, as in a scenario.
        record = Creation(
            scenario.ruleset,
            scenario.players,
            scenario.seed,
            {**written, **cards},
            setup,
            lookup.ruleset,
            handle_key,
            shuffle=shuffle,
            procedure=scenario.procedure,
        )
    finally:
        lookup.close()
    built = record.build()
    if not built.game.same_state(ctx.game):
        raise CreationError("the start position's cards could not be written down as they are")
    record.built.append(built)
    return record


def _shuffled_zones(scenario: StartPosition) -> tuple[str, ...]:
    """The zones a start position's ``shuffle`` names, as written (setting it
    up checks them); none when it gives none: a written order is kept."""
    zones = scenario.doc.get("shuffle")
    if isinstance(zones, list):
        return tuple(str(z) for z in zones)
    return ()


def _names_cards(ruleset: Ruleset) -> bool:
    """Whether an action of the rule set takes a card by its name (fab's
    ``create_token``): then a table keeps the game's token cards."""

    def names(params: Any) -> bool:
        return any(p.kind is ParamKind.NAME or names(p.fields) for p in params)

    return any(names(action.params) for action in ruleset.actions.values())
