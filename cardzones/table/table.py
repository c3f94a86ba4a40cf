"""A table: one game, its creation record, and its numbered events.

A new table is at number 0; each act the rules accept becomes the next event
(1, 2, 3, ...). The table holds the live game and what it needs to answer its
viewers: the view of each seat (or the spectator's public view) and the log
entries of any run of events as that viewer sees them.

An act is applied in two steps so that the store decides whether it happened:
:meth:`Table.try_act` applies it and returns a :class:`Pending`; the caller
stores it, then :meth:`Table.commit` makes it the next event, or
:meth:`Table.abandon` puts the game back exactly as it was.

>>> from cardzones.table.creation import Creation
>>> table = Table.start("t1", Creation("fab", ("alice", "bob"), 7, {}, {"alice.deck": ["A", "B"]}))
>>> pending = table.try_act("alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
>>> table.commit(pending)
1
>>> [z["count"] for z in table.view("bob")["zones"] if z["zone"] == "alice.hand"]
[1]
>>> [entry["event"] for entry in table.log("bob", after=0)]
['moved']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from cardzones.acts.actions import ArgumentError
from cardzones.errors import CardzonesError
from cardzones.kernel.game import Game
from cardzones.kernel.logview import log_size, log_view
from cardzones.kernel.serial import value_from_json, value_to_json
from cardzones.kernel.views import view
from cardzones.rulesets import get_ruleset
from cardzones.rulesets.base import ruleset_of
from cardzones.table.acts import Applied, apply_act, apply_stored
from cardzones.table.context import TableContext
from cardzones.table.creation import build, start
from cardzones.table.finish import Votes
from cardzones.table.finish_votes import Finished
from cardzones.table.record import Record
from cardzones.table.refusals import Refusal
from cardzones.table.seat_refs import SeatRefs

#: The form of a snapshot this version writes and reads.
SNAPSHOT_FORMAT = "cardzones-table/1"


class ReplayError(CardzonesError):
    """A stored act could not be replayed: the store does not hold this game."""


@dataclass(frozen=True)
class Pending:
    """An act applied to the game but not yet an event."""

    applied: Applied
    number: int


class Table:
    """One game at a table, with its events numbered from 1."""

    def __init__(
        self, table_id: str, creation: Record, ctx: TableContext, number: int, marks: list[int]
    ) -> None:
        self.id = table_id
        self.creation = creation
        self.ctx = ctx
        #: the number of the last event
        self.number = number
        #: the log's size after each event: ``marks[n]`` after event n
        self.marks = marks
        #: the table's end, once its seats finished the game: no act follows it
        self.finished: Finished | None = None
        #: the standing votes to finish it (cardzones.table.finish)
        self.votes = Votes()

    @classmethod
    def start(cls, table_id: str, creation: Record) -> Table:
        """The table at number 0."""
        ctx = start(creation)
        return cls(table_id, creation, ctx, 0, [log_size(ctx.game)])

    @property
    def game(self) -> Game:
        """The live game. Secret-bearing: send only views and logs."""
        return self.ctx.game

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players

    # -- acts --------------------------------------------------------------

    def try_act(self, seat: str | None, act: Any) -> Pending:
        """Apply ``seat``'s act; raises :class:`Refusal`, changing nothing."""
        applied = apply_act(self.ctx, seat, act)
        return Pending(applied, self.number)

    def abandon(self, pending: Pending) -> None:
        """Put the game back as it was before ``pending``."""
        self.game.rollback(pending.applied.checkpoint)
        self.ctx.restore(pending.applied.labels)

    def commit(self, pending: Pending) -> int:
        """Make ``pending`` the next event; returns its number."""
        if pending.number != self.number:
            raise ReplayError("an act was committed on top of another")
        return self._advance()

    def replay(self, stored: dict[str, Any]) -> int:
        """Apply a stored act as the next event (a restart, another worker's act)."""
        try:
            apply_stored(self.ctx, stored)
        except Refusal as exc:
            raise ReplayError(
                f"event {self.number + 1} of table {self.id} replays as refused: {exc}"
            ) from None
        return self._advance()

    def _advance(self) -> int:
        self.number += 1
        self.marks.append(log_size(self.game))
        # A table never undoes a committed event; the journal would only grow.
        self.game.forget_history()
        return self.number

    # -- what viewers get ----------------------------------------------------

    def view(self, viewer: str | None) -> dict[str, Any]:
        """The view of a seat (None: the spectator's public view) now."""
        return view(self.game, viewer)

    def log(self, viewer: str | None, after: int = 0) -> list[dict[str, Any]]:
        """The log entries of the events after ``after`` up to now, as ``viewer``
        sees them."""
        after = max(0, min(after, self.number))
        return log_view(self.game, viewer, since=self.marks[after])

    def legal(
        self,
        viewer: str | None,
        actions: Iterable[str] | None = None,
        *,
        card: str | None = None,
        zone: str | None = None,
        judge: bool = False,
    ) -> list[dict[str, Any]]:
        """The acts the seat ``viewer`` may send now, each as the act it sends
        (naming cards by the handles of its own view) and the result it gives
        (None where that could tell a card the seat may not look at):
        :meth:`Game.legal_actions <cardzones.kernel.game.Game.legal_actions>`,
        of the ``actions`` named or of all, on the ``card`` the seat names (a
        handle of its view, or ``ZONE[i]``) or on or into the ``zone`` it
        names (``alice.graveyard``), as a menu asks; a judge's actions only
        when ``actions`` names them or with ``judge``. The spectator may send
        none. A card or zone the seat cannot name raises :class:`Refusal`,
        saying so as for an act."""
        if viewer is None:
            return []
        refs = SeatRefs(self.ctx, viewer)
        card_id = None if card is None else _named("card", refs.card, card)
        zone_id = None if zone is None else _named("zone", refs.zone, zone)
        out: list[dict[str, Any]] = []
        listed = self.game.legal_actions(viewer, actions, card=card_id, zone=zone_id, judge=judge)
        for action in listed:
            try:
                # Each seat names effects its own way: its labels, and another
                # seat's labelled effects by a name that tells nothing of theirs.
                act = action.to_json(self.game, self.ctx.effect_names(viewer))
            except CardzonesError:
                continue  # an effect no label names: the seat cannot name it either
            result = action.result.value if action.result is not None else None
            out.append({"act": act, "result": result})
        return out

    def event_frame(self, viewer: str | None, actor: str) -> dict[str, Any]:
        """The frame of the last event for ``viewer``."""
        return {
            "event": self.number,
            "seat": actor,
            "view": self.view(viewer),
            "log": self.log(viewer, self.number - 1),
        }

    # -- snapshots -------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The table's state as JSON-ready data. Secret-bearing."""
        return {
            "format": SNAPSHOT_FORMAT,
            "number": self.number,
            "game": self.game.to_json(),
            "context": value_to_json(
                {
                    "labels": self.ctx.labels,
                    "effects": self.ctx.effects,
                    "effect_seats": self.ctx.effect_seats,
                }
            ),
            "marks": list(self.marks),
        }

    @classmethod
    def from_snapshot(cls, table_id: str, creation: Record, data: dict[str, Any]) -> Table:
        if data.get("format") != SNAPSHOT_FORMAT:
            raise ReplayError(f"not a table snapshot ({SNAPSHOT_FORMAT})")
        ruleset = get_ruleset(creation.ruleset)
        game = Game.from_json(data["game"], ruleset)
        ctx = build(creation).with_game(game)
        _share_cards(ctx)
        extra = value_from_json(data["context"], ruleset)
        ctx.labels = dict(extra["labels"])
        ctx.effects = dict(extra["effects"])
        ctx.effect_seats = dict(extra.get("effect_seats", {}))
        return cls(table_id, creation, ctx, int(data["number"]), [int(m) for m in data["marks"]])


def _share_cards(ctx: TableContext) -> None:
    """Make the context's card definitions the loaded game's own objects where
    they are equal: a card made after a restart then shares its definition
    with the cards of its name made before, as it did in the live game, and
    the two games save alike."""
    game = ctx.game
    found = {id(o.cdef): o.cdef for o in map(game.obj, game.cards())}
    for event in game.events():
        if event.lki is not None:
            found.setdefault(id(event.lki.obj.cdef), event.lki.obj.cdef)
    for cdef in found.values():
        own = ctx.cards.get(cdef.name)
        if own is not None and own is not cdef and own == cdef:
            ctx.cards[cdef.name] = cdef
        variants = ctx.variants.get(cdef.name)
        number = ruleset_of(game).variants.of(cdef)
        if variants is not None and number is not None and variants.get(number) == cdef:
            variants[number] = cdef


def rebuild(
    table_id: str,
    creation: Record,
    acts: list[dict[str, Any]],
    snapshot: dict[str, Any] | None = None,
) -> Table:
    """The table after ``acts`` (the stored acts after the snapshot, if one is
    given; all of them otherwise)."""
    if snapshot is not None:
        table = Table.from_snapshot(table_id, creation, snapshot)
    else:
        table = Table.start(table_id, creation)
    for stored in acts:
        table.replay(stored)
    return table


def _named(what: str, find: Callable[[str], int], text: str) -> int:
    """The card or zone a seat names in a request, or a :class:`Refusal`
    that says why it names none, as a refused act would."""
    try:
        return find(text)
    except ArgumentError as exc:
        raise Refusal(f"{what}: {exc.message}") from None
