"""A played game as a scenario file, and a game as one seat saw it.

:func:`export_scenario` writes the cards and the start position of the
creation record (every setup card labelled with ``as:``), the stored acts as
steps that name their cards by those labels, and the final board as ``expect``
steps. ``cardzones check`` runs it, so a real game becomes a ruling test. The
file holds the seed, which a game needs to replay its shuffles: it is for
after the game, like the store itself. A table made from card data is written
with the cards its record keeps, not with ``card_data:``, so the file runs
without a card index, and runs the same whatever an index holds; of the token
cards the record keeps, only those the game created are written.

:func:`seat_history` gives the game as one seat (or the spectator) saw it:
each event with the log entries that viewer got for it, and the view at the
end. It is made only from views and redacted logs, so it never shows what the
viewer could not see at that moment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

import yaml

from cardzones.errors import CardzonesError, IllegalAction
from cardzones.kernel.game import Game
from cardzones.table.action_log import StoredAction
from cardzones.table.acts import apply_stored
from cardzones.table.creation import Creation, deck_zones
from cardzones.table.record import Record
from cardzones.table.store import Store
from cardzones.table.table import Table, rebuild, replayer
from cardzones.table.take_back import TAKE_BACK

_PHYSICAL = re.compile(r"^#(\d+)$")


class ExportError(CardzonesError):
    """The table cannot be written as a scenario."""


def _labels_in(value: Any, out: set[str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "as" and isinstance(item, str | int):
                out.add(str(item))
            else:
                _labels_in(item, out)
    elif isinstance(value, list):
        for item in value:
            _labels_in(item, out)


class _Namer:
    """Labels that no card or effect of the game uses yet."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = taken
        self.n = 0

    def __call__(self, prefix: str) -> str:
        while True:
            self.n += 1
            label = f"{prefix}{self.n}"
            if label not in self.taken:
                self.taken.add(label)
                return label


def _labelled_setup(setup: dict[str, Any], namer: _Namer) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for zone, entries in setup.items():
        if not isinstance(entries, list):
            out[zone] = entries
            continue
        labelled = []
        for entry in entries:
            if isinstance(entry, str):
                entry = {"card": entry}
            if isinstance(entry, dict) and "as" not in entry:
                entry = {**entry, "as": namer("c")}
            labelled.append(entry)
        out[zone] = labelled
    return out


def _where(game: Game, card: int) -> str | None:
    """A scenario reference to a card that has no label, by where it is now:
    ``ZONE[i]``, or ``PLAYER.PILE[i]`` in a pile the rule set names (fab's
    ``alice.soul``)."""
    obj = game.obj(card)
    if obj.host is None:
        return f"{game.zone_name(obj.zone)}[{game.contents(obj.zone).index(card)}]"
    ruleset = game.ruleset
    for pile, rel in ruleset.piles.items():
        if obj.rel != rel:
            continue
        for player in game.players:
            try:
                host = ruleset.pile_host(game, player, pile)
            except IllegalAction:
                continue
            if host == obj.host:
                cards = [k for k in game.kids(host) if game.obj(k).rel == rel]
                return f"{player}.{pile}[{cards.index(card)}]"
    return None


def _rewrite(value: Any, game: Game, names: dict[int, str]) -> Any:
    if isinstance(value, str):
        found = _PHYSICAL.match(value)
        if found is None:
            return value
        card = int(found.group(1))
        if card in names:
            return f"${names[card]}"
        where = _where(game, card) if game.exists(card) else None
        if where is None:
            raise ExportError(f"a step names a card that has no label and no position ({value})")
        return where
    if isinstance(value, dict):
        return {k: _rewrite(v, game, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_rewrite(v, game, names) for v in value]
    return value


def scenario_of(table_id: str, creation: Record, acts: list[dict[str, Any]]) -> dict[str, Any]:
    """The scenario document of a game: its start, its acts and its final board."""
    taken: set[str] = set()
    _labels_in(creation.setup, taken)
    for act in acts:
        _labels_in(act, taken)
    namer = _Namer(taken)
    start = Creation(
        creation.ruleset,
        creation.players,
        creation.seed,
        creation.cards,
        _labelled_setup(creation.setup, namer),
        creation.card_data,
        creation.handle_key,
        shuffle=creation.shuffle,
        procedure=creation.procedure,
    )
    ctx = start.build()
    if start.card_data is not None:
        start = replace(start, cards=_used_cards(start.cards, start.setup, acts))
    game = ctx.game
    names = {card: label for label, card in ctx.labels.items()}
    if start.shuffle is None:
        # The table shuffled every deck when it was made, with its seed: the
        # file's shuffle: names them, so that its later shuffles come out the
        # same.
        start = replace(start, shuffle=tuple(game.zone_name(z) for z in deck_zones(game)))
    steps: list[dict[str, Any]] = []
    for act in acts:
        ((name, args),) = act.items()
        step_args = _rewrite(args, game, names)
        if isinstance(step_args, dict) and isinstance(step_args.get("effect"), str):
            # An effect another seat labelled is named by its label in the file.
            step_args = {**step_args, "effect": ctx.label_of(step_args["effect"])}
        before = set(game.cards())
        made = apply_stored(ctx, act).card
        if made is not None and made not in before and game.exists(made):
            # A card the act made (a token, a layer): as: labels it.
            label = str(step_args["as"]) if "as" in step_args else namer("t")
            step_args = {**step_args, "as": label}
            names[made] = label
        steps.append({name: step_args})
    steps.extend(_final_board(game, names))
    doc = start.scenario(f"table {table_id}", steps)
    return doc


def _used_cards(
    cards: dict[str, Any], setup: dict[str, Any], acts: list[dict[str, Any]]
) -> dict[str, Any]:
    """The cards a start position defines that its set-up or an act names: a
    definition no card of the game uses changes nothing."""
    names: set[str] = set()
    _strings(setup, names)
    _strings(acts, names)
    return {name: entry for name, entry in cards.items() if name in names}


def _strings(value: Any, out: set[str]) -> None:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, out)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out)


def _final_board(game: Game, names: dict[int, str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    state: dict[str, Any] = {"turn": game.turn, "turn_player": game.turn_player}
    if game.phase is not None:
        state["phase"] = game.phase
    out.append({"expect": state})
    for zid in game.all_zones():
        cards = [game.obj(c).cdef.name for c in game.contents(zid)]
        out.append({"expect": {"zone": game.zone_name(zid), "cards": cards}})
    for card, label in names.items():
        if game.exists(card):
            obj = game.obj(card)
            out.append(
                {
                    "expect": {
                        "card": f"${label}",
                        "in": game.zone_name(obj.zone),
                        "public": obj.public,
                    }
                }
            )
        else:
            out.append({"expect": {"card": f"${label}", "exists": False}})
    return out


def export_scenario(store: Store, table_id: str) -> str:
    """The table as the text of a scenario file."""
    creation = store.creation(table_id)
    if creation is None:
        raise ExportError(f"no table {table_id!r} in {store.describe()}")
    stored = store.actions(table_id)
    acts = [a.act for a in stored]
    if any(TAKE_BACK in act for act in acts):
        # A scenario has no take-back: it holds the acts that make the final
        # position, as the replayed table counts them.
        table = rebuild(table_id, creation, acts, seats=[a.seat for a in stored])
        if table.reshuffled:
            raise ExportError(
                f"table {table_id} took back acts after a shuffle: a scenario of the acts"
                " that stand would shuffle differently, so it cannot be written as one"
            )
        acts = [acts[number - 1] for number, _ in table.lineage]
    doc = scenario_of(table_id, creation, acts)
    text = yaml.safe_dump(
        doc, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
    )
    return f"# The game of table {table_id}, exported from its event store.\n{text}"


def _replaying(
    store: Store, table_id: str, viewer: str | None, upto: int | None
) -> tuple[Table, list[StoredAction]]:
    """The table at its start, ready to replay its stored actions up to
    ``upto`` (a take-back among them included), and those actions; refused
    when there is no such table or ``viewer`` is not one of its seats."""
    creation = store.creation(table_id)
    if creation is None:
        raise ExportError(f"no table {table_id!r} in {store.describe()}")
    if viewer is not None and viewer not in creation.players:
        raise ExportError(f"{viewer!r} is not a seat; seats are {', '.join(creation.players)}")
    table = Table.start(table_id, creation)
    stored = store.actions(table_id, 0, upto)
    table.rewind = replayer(table_id, creation, [a.act for a in stored], [a.seat for a in stored])
    return table, stored


@dataclass(frozen=True)
class SeatHistory:
    """A game as one viewer saw it."""

    viewer: str | None
    number: int
    events: list[dict[str, Any]]
    view: dict[str, Any]
    log: list[dict[str, Any]]


def seat_history(
    store: Store, table_id: str, viewer: str | None, upto: int | None = None
) -> SeatHistory:
    """The game as ``viewer`` (None: the spectator) saw it, up to event ``upto``."""
    table, stored = _replaying(store, table_id, viewer, upto)
    events: list[dict[str, Any]] = []
    for action in stored:
        table.replay(action.act, action.seat)
        events.append(
            {"event": table.number, "seat": action.seat, "log": table.log(viewer, table.number - 1)}
        )
    return SeatHistory(viewer, table.number, events, table.view(viewer), table.log(viewer, 0))


def replay_steps(
    store: Store, table_id: str, viewer: str | None, upto: int | None = None
) -> list[dict[str, Any]]:
    """The game step by step as ``viewer`` (None: the spectator) saw it: the
    view at the start (event 0), then after each event its acting seat, the
    view and the new log entries, as that viewer got them then. Made only from
    views and redacted logs, like :func:`seat_history`.

    >>> from cardzones.table.host import Host
    >>> store = Store("sqlite://")
    >>> store.migrate()
    >>> host = Host(store)
    >>> created = host.create(Creation("fab", ("alice", "bob"), 7, {}, {"alice.deck": ["A"]}))
    >>> table = host.load(created.table_id)
    >>> _ = host.act(table, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
    >>> steps = replay_steps(store, created.table_id, "bob")
    >>> [s["event"] for s in steps], [e.get("card") for e in steps[1]["log"]]
    ([0, 1], [None])
    """
    table, stored = _replaying(store, table_id, viewer, upto)
    steps: list[dict[str, Any]] = [{"event": 0, "view": table.view(viewer), "log": []}]
    for action in stored:
        table.replay(action.act, action.seat)
        steps.append(table.event_frame(viewer, action.seat))
    return steps
