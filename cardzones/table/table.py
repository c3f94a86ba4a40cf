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
from dataclasses import dataclass, field
from typing import Any

from cardzones.acts.actions import ArgumentError, table_of
from cardzones.acts.named import Named
from cardzones.errors import CardzonesError
from cardzones.kernel.game import Game
from cardzones.kernel.logview import log_size, log_view
from cardzones.kernel.results import MoveResult
from cardzones.kernel.serial import value_from_json, value_to_json
from cardzones.kernel.views import view
from cardzones.rulesets import get_ruleset
from cardzones.rulesets.base import ruleset_of
from cardzones.table.acts import Applied, apply_act, apply_stored
from cardzones.table.context import TableContext
from cardzones.table.creation import build, start
from cardzones.table.finish import Votes
from cardzones.table.finish_votes import Finished
from cardzones.table.frames import ZoneParts
from cardzones.table.json_text import dumps
from cardzones.table.record import Record
from cardzones.table.refusals import Refusal
from cardzones.table.rewind import take_back
from cardzones.table.seat_refs import SeatRefs
from cardzones.table.take_back import TAKE_BACK, Lineage, Request, stored_target

#: The form of a snapshot this version writes and reads.
SNAPSHOT_FORMAT = "cardzones-table/2"

#: The table at an earlier event, for a take-back (cardzones.table.rewind).
Rewind = Callable[[int], "Table"]


class ReplayError(CardzonesError):
    """A stored act could not be replayed: the store does not hold this game."""


@dataclass(frozen=True)
class Pending:
    """An act applied to the game but not yet an event."""

    applied: Applied
    number: int
    #: puts the table back as it was, for an act that replaced its game (a
    #: take-back); None: the game's checkpoint does
    undo: Callable[[], None] | None = field(default=None, compare=False)


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
        #: the acts that make the position now (cardzones.table.take_back)
        self.lineage: Lineage = []
        #: per viewer, the log entries of events a take-back took out of the
        #: game, as that viewer got them, by ``seq`` (cardzones.table.rewind)
        self.archive: dict[str | None, list[dict[str, Any]]] = {}
        #: the table at an earlier event (set by whoever loads it from a store)
        self.rewind: Rewind | None = None
        #: whether a take-back returned the game to before a shuffle: a
        #: scenario of its acts alone would shuffle differently after it
        self.reshuffled = False
        #: each viewer's zones of its last event frame, kept (:mod:`.frames`)
        self.parts = ZoneParts()

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

    def try_take_back(self, request: Request) -> Pending:
        """Apply an accepted request to take back acts (:mod:`.rewind`), as
        :meth:`try_act` applies an act; raises ValueError when it does not
        fit the table."""
        undo = take_back(self, request.by, request.to)
        game = self.game
        applied = Applied(request.stored(), MoveResult.DONE, game.checkpoint(), self.ctx.state())
        return Pending(applied, self.number, undo)

    def earlier(self, number: int) -> Table:
        """The table after event ``number`` (for a take-back)."""
        if self.rewind is None:
            raise ValueError("this table cannot look back: it was not loaded from its acts")
        return self.rewind(number)

    def abandon(self, pending: Pending) -> None:
        """Put the game back as it was before ``pending``."""
        if pending.undo is not None:
            pending.undo()
            return
        self.game.rollback(pending.applied.checkpoint)
        self.ctx.restore(pending.applied.labels)

    def commit(self, pending: Pending) -> int:
        """Make ``pending`` the next event; returns its number."""
        if pending.number != self.number:
            raise ReplayError("an act was committed on top of another")
        seat = None if pending.undo is not None else _seat_of(self.game, pending.applied.stored)
        return self._advance(seat, pending.applied.stored)

    def replay(self, stored: dict[str, Any], seat: str | None = None) -> int:
        """Apply a stored act as the next event (a restart, another worker's
        act); ``seat`` is the seat that acted, when the store says."""
        if isinstance(stored, dict) and TAKE_BACK in stored:
            try:
                take_back(self, *stored_target(stored[TAKE_BACK]))
            except ValueError as exc:
                raise ReplayError(f"event {self.number + 1} of table {self.id}: {exc}") from None
            return self._advance(None, stored)
        try:
            apply_stored(self.ctx, stored)
        except Refusal as exc:
            raise ReplayError(
                f"event {self.number + 1} of table {self.id} replays as refused: {exc}"
            ) from None
        return self._advance(seat or _seat_of(self.game, stored), stored)

    def _advance(self, seat: str | None, stored: dict[str, Any]) -> int:
        self.number += 1
        if seat is not None:  # an act: a take-back is not one of the position's acts
            self.lineage.append((self.number, seat))
        self.marks.append(log_size(self.game))
        self.parts.note(self.game)  # from the journal, before it is forgotten
        # A table never undoes a committed event; the journal would only grow.
        self.game.forget_history()
        return self.number

    # -- what viewers get ----------------------------------------------------

    def view(self, viewer: str | None) -> dict[str, Any]:
        """The view of a seat (None: the spectator's public view) now."""
        return view(self.game, viewer)

    @property
    def won(self) -> str | None:
        """The player the rule set's game procedure says won the game (the
        ``winner`` of the view's ``procedure``, which every seat sees alike);
        None while no procedure runs or nobody has won. A game won stays
        open: finishing it, which opens every hand, is still the seats' vote."""
        shown = self.game.ruleset.procedure_view(self.game, None)
        winner = shown.get("winner") if shown else None
        return winner if isinstance(winner, str) else None

    def log(self, viewer: str | None, after: int = 0) -> list[dict[str, Any]]:
        """The log entries of the events after ``after`` up to now, as ``viewer``
        sees them."""
        after = max(0, min(after, self.number))
        since = self.marks[after]
        entries = log_view(self.game, viewer, since=since)
        kept = self.archive.get(viewer)
        if kept and kept[-1]["seq"] >= since:
            entries = sorted([*(e for e in kept if e["seq"] >= since), *entries], key=_seq)
        return entries

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
        # Each seat names effects its own way: its labels, and another seat's
        # labelled effects by a name that tells nothing of theirs. One writer
        # for the listing: it names each card once.
        writer = Named(self.game, viewer, self.ctx.effect_names(viewer))
        for action in listed:
            try:
                act = action.to_json(self.game, writer=writer)
            except CardzonesError:
                continue  # an effect no label names: the seat cannot name it either
            result = action.result.value if action.result is not None else None
            out.append({"act": act, "result": result})
        return out

    def event_frame(
        self, viewer: str | None, actor: str, view: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The frame of the last event for ``viewer``, with the game's winner
        (``won``) once the procedure has one; ``view`` is the viewer's view
        now, when the caller made it."""
        view = self.view(viewer) if view is None else view
        frame: dict[str, Any] = {
            "event": self.number,
            "seat": actor,
            "view": view,
            "log": self.log(viewer, self.number - 1),
        }
        # The view just made holds the procedure every viewer sees alike:
        # its winner is the table's (:attr:`won`), read without making it again.
        procedure = view.get("procedure")
        won = procedure.get("winner") if isinstance(procedure, dict) else None
        if isinstance(won, str):
            frame["won"] = won
        return frame

    def event_text(self, viewer: str | None, actor: str) -> str:
        """:meth:`event_frame` as the JSON text a connection is sent: the
        same text, with the zones no event changed since this viewer's last
        frame written from what was kept of it (:mod:`.frames`)."""
        shown = view(self.game, viewer, self.parts.zones(self.game, viewer))
        frame = self.event_frame(viewer, actor, shown)
        try:
            return dumps(frame)
        except TypeError:  # a value only the standard library writes
            return dumps(self.event_frame(viewer, actor))

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
            "lineage": [list(item) for item in self.lineage],
            "archive": [[viewer, entries] for viewer, entries in self.archive.items()],
            "reshuffled": self.reshuffled,
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
        table = cls(table_id, creation, ctx, int(data["number"]), [int(m) for m in data["marks"]])
        table.lineage = [(int(n), str(s)) for n, s in data["lineage"]]
        table.archive = {viewer: list(entries) for viewer, entries in data["archive"]}
        table.reshuffled = bool(data["reshuffled"])
        return table


def _seq(entry: dict[str, Any]) -> int:
    return int(entry["seq"])


def _seat_of(game: Game, stored: dict[str, Any]) -> str:
    """The seat that made a stored act: its ``by``, or its action's actor."""
    ((name, args),) = stored.items()
    action = table_of(game).get(name)
    actor = "by" if action is None or action.actor is None else action.actor
    seat = args.get("by", args.get(actor)) if isinstance(args, dict) else None
    return "" if seat is None else str(seat)


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
    rewind: Rewind | None = None,
    seats: list[str] | None = None,
) -> Table:
    """The table after ``acts`` (the stored acts after the snapshot, if one is
    given; all of them otherwise). ``rewind`` gives the table at an earlier
    event, for the take-backs among them; without it, ``acts`` are all the
    acts from the first."""
    if snapshot is not None:
        table = Table.from_snapshot(table_id, creation, snapshot)
    else:
        table = Table.start(table_id, creation)
    if rewind is None and snapshot is None:
        rewind = replayer(table_id, creation, acts, seats)
    table.rewind = rewind
    for i, stored in enumerate(acts):
        table.replay(stored, None if seats is None else seats[i])
    return table


def replayer(
    table_id: str, creation: Record, acts: list[dict[str, Any]], seats: list[str] | None = None
) -> Rewind:
    """The table at an earlier event, replayed from the start with ``acts``,
    all the acts of the table from the first."""
    everything, who = list(acts), None if seats is None else list(seats)

    def rewind(number: int) -> Table:
        upto = None if who is None else who[:number]
        return rebuild(table_id, creation, everything[:number], rewind=rewind, seats=upto)

    return rewind


def _named(what: str, find: Callable[[str], int], text: str) -> int:
    """The card or zone a seat names in a request, or a :class:`Refusal`
    that says why it names none, as a refused act would."""
    try:
        return find(text)
    except ArgumentError as exc:
        raise Refusal(f"{what}: {exc.message}") from None
