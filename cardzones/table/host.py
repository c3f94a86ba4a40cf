"""What a server process does with tables, without any web code: create them,
tell who a token is, load them from the store, bring them up to date, and turn
a seat's act into the next stored event.

An act becomes an event in this order: apply it to the game in memory (the
rules may refuse it, and then nothing changes), append it to the store with
the next number and commit; only then is it the table's event, to be
acknowledged and sent to the viewers. If another writer took that number
first, the act is taken back, the events not yet seen are loaded and applied,
and the act is tried again on the new state, where the rules may now refuse
it. Events that arrive this way are reported as they are applied, so that
each viewer gets each event once and in order.

>>> from cardzones.table.creation import Creation
>>> from cardzones.table.store import Store
>>> store = Store("sqlite://")
>>> store.migrate()
>>> host = Host(store)
>>> created = host.create(Creation("fab", ("alice", "bob"), 7, {}, {"alice.deck": ["A"]}))
>>> table = host.load(created.table_id)
>>> host.act(table, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}).number
1
>>> host.load(created.table_id).game.to_json() == table.game.to_json()
True
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardzones.kernel.game import MoveResult
from cardzones.table.action_log import Conflict, GameOver, StoredAction
from cardzones.table.finish import CONCEDE, DEFAULT_FLOOR_MINUTES, fuse
from cardzones.table.finish_votes import Finished
from cardzones.table.record import Record
from cardzones.table.refusals import Refusal
from cardzones.table.store import Store, TokenSeat
from cardzones.table.table import ReplayError, Table, rebuild
from cardzones.table.take_back import Request, TakeBackRefused, takeable, target
from cardzones.table.tokens import is_table_id, new_table_id, new_token, token_digest

log = logging.getLogger("cardzones.table")

#: A snapshot is kept after every this many actions, early in a game.
SNAPSHOT_EVERY = 50
#: A snapshot holds the whole log, so it costs more the longer the game: past
#: ``SNAPSHOT_EVERY * SNAPSHOT_SPREAD`` events, the interval doubles each time
#: the game doubles (between a 16th and an 8th of the game), so that the work
#: of snapshots spread over the acts stays bounded, and a restart replays at
#: most an 8th of the game after its snapshot.
SNAPSHOT_SPREAD = 8

#: The refusal of an act at a finished table.
GAME_OVER = "the game is over: its seats finished it, and it takes no more acts"
#: The refusal of an act of a seat that conceded.
CONCEDED = "you conceded: you take no more acts at this table"

#: The refusal of an answer when no request stands.
NO_REQUEST = "no take-back is asked now (an act since has left any request behind)"
#: The refusal of a request when the seat's last act is not the table's.
NOTHING_TO_TAKE_BACK = "you have no act to take back: another seat acted after your last act"
#: Tokens whose seat is kept in memory (see :meth:`Host.seat`).
KNOWN_TOKENS = 100_000

#: Called after each event applied from the store: the table, and the action.
OnEvent = Callable[[Table, StoredAction], None]


@dataclass(frozen=True)
class Created:
    """A new table and its tokens. The tokens exist only here: the store keeps
    their digests."""

    table_id: str
    seats: dict[str, str]
    spectator: str


@dataclass(frozen=True)
class Done:
    """An act that is now an event."""

    number: int
    result: MoveResult
    #: the CPU seconds its rules and its share of the commit took, where the
    #: act was applied on an event loop (:meth:`Host.act_soon`; else 0)
    cpu: float = 0.0


class Host:
    """The tables of one store, as one server process serves them."""

    def __init__(
        self,
        store: Store,
        snapshot_every: int = SNAPSHOT_EVERY,
        finish_floor: int = DEFAULT_FLOOR_MINUTES * 60,
    ) -> None:
        self.store = store
        self.snapshot_every = snapshot_every
        #: the least time, in seconds, a proposal to finish waits, whatever
        #: a table's record says (:func:`~cardzones.table.finish.fuse`)
        self.finish_floor = finish_floor
        #: the time of the votes to finish and their limits (a test sets its own)
        self.clock: Callable[[], float] = time.time
        #: seats already found, by table and token digest (see :meth:`seat`)
        self._known: OrderedDict[tuple[str, str], TokenSeat] = OrderedDict()
        self._known_lock = threading.Lock()  # read on the event loop, kept from threads

    def create(self, creation: Record) -> Created:
        """Store a new table; its tokens are made here and returned once."""
        table_id = new_table_id()
        tokens = {player: new_token() for player in creation.players}
        spectator = new_token()
        self.store.create_table(
            table_id,
            creation,
            {p: token_digest(t) for p, t in tokens.items()},
            token_digest(spectator),
        )
        return Created(table_id, tokens, spectator)

    def seat(self, table_id: str, token: str) -> TokenSeat | None:
        """Who ``token`` is at the table, or None (wrong token or no such table)."""
        known = self.known_seat(table_id, token)
        if known is not None or not is_table_id(table_id):
            return known
        found = self.store.seat(table_id, token)
        if found is not None:
            # A table's tokens never change: once found, a seat is kept, and
            # the next request of the seat costs a digest, not a query.
            with self._known_lock:
                self._known[(table_id, token_digest(token))] = found
                while len(self._known) > KNOWN_TOKENS:
                    self._known.popitem(last=False)
        return found

    def known_seat(self, table_id: str, token: str) -> TokenSeat | None:
        """The seat of ``token`` at the table if this process has already
        found it, without reading the store (None: not known, which says
        nothing of the token). Only tokens found right are kept, by their
        digest, so a wrong token is always looked up in the store as before."""
        key = (table_id, token_digest(token))
        with self._known_lock:
            found = self._known.get(key)
            if found is not None:
                self._known.move_to_end(key)
        return found

    def load(self, table_id: str, upto: int | None = None) -> Table | None:
        """The table as stored (after event ``upto``, when given), from its
        newest usable snapshot and the actions after it."""
        if not is_table_id(table_id):
            return None
        creation = self.store.creation(table_id)
        if creation is None:
            return None
        table = self._rebuild(table_id, creation, upto)
        self.reload_finish(table)
        return table

    def _rebuild(self, table_id: str, creation: Record, upto: int | None) -> Table:
        def rewind(number: int) -> Table:
            return self._rebuild(table_id, creation, number)

        snapshot = self.store.snapshot(table_id, upto)
        if snapshot is not None:
            try:
                start = int(snapshot["number"])
                stored = self.store.actions(table_id, start, upto)
                seats = [a.seat for a in stored]
                return rebuild(table_id, creation, [a.act for a in stored], snapshot, rewind, seats)
            except (ReplayError, KeyError, ValueError, TypeError):
                pass  # a snapshot this version cannot use: replay everything
        stored = self.store.actions(table_id, 0, upto)
        seats = [a.seat for a in stored]
        return rebuild(table_id, creation, [a.act for a in stored], None, rewind, seats)

    # -- finishing takes consent (cardzones.table.finish) ------------------------

    def vote(self, table: Table, seat: str, vote: str) -> Finished | None:
        """Record ``seat``'s vote to finish the game (agree, concede or
        decline); returns the end when the game is finished, by this vote or
        before it. Raises :class:`~cardzones.table.finish.FinishRefused`."""
        table.votes, table.finished = self.store.vote(
            table.id, seat, vote, table.players, self.finish_after(table), self.clock()
        )
        return table.finished

    def finish_after(self, table: Table) -> int:
        """How long a proposal to finish this table waits for the other
        seats, in seconds: its record's ``finish_after``, never under this
        server's floor."""
        return fuse(table.creation.finish_after, self.finish_floor)

    def settle(self, table: Table) -> bool:
        """Finish the table if its proposal's time limit has passed; True
        when it was finished now."""
        if table.finished is not None or not table.votes.due(self.clock()):
            return False
        table.finished = self.store.finish_due(table.id, self.clock())
        if table.finished is None:  # another process's decline came first
            table.votes = self.store.votes(table.id)
        return table.finished is not None

    def reload_finish(self, table: Table) -> None:
        """Read the table's votes and end again (another process changed them)."""
        table.votes = self.store.votes(table.id)
        table.finished = self.store.finished(table.id)

    def catch_up(self, table: Table, on_event: OnEvent | None = None) -> int:
        """Apply the stored events the table has not seen; returns how many."""
        count = 0
        for action in self.store.actions(table.id, table.number):
            if action.number != table.number + 1:
                raise ReplayError(f"table {table.id}: event {table.number + 1} is missing")
            table.replay(action.act, action.seat)
            count += 1
            if on_event is not None:
                on_event(table, action)
        return count

    def snapshot_due(self, number: int) -> bool:
        """Whether a snapshot is kept after event ``number``.

        >>> due = Host(Store("sqlite://")).snapshot_due
        >>> [n for n in range(1, 1000) if due(n)][-3:], [n for n in range(1000, 2000) if due(n)]
        ([750, 800, 900], [1000, 1100, 1200, 1300, 1400, 1500, 1600, 1800])
        """
        every = self.snapshot_interval(number)
        return bool(every) and number > 0 and number % every == 0

    def snapshot_interval(self, number: int) -> int:
        """The events between two snapshots around event ``number`` (0: none)."""
        every = self.snapshot_every
        while every and number >= every * SNAPSHOT_SPREAD * 2:
            every *= 2
        return every

    def keep_snapshot(self, table: Table) -> None:
        """Keep a snapshot of the table as it is now. The act it follows is
        stored: a snapshot is only a shortcut for loading, and failing to
        keep one does not undo the act."""
        self.store_snapshot(table.id, table.number, table.snapshot())

    def store_snapshot(self, table_id: str, number: int, state: dict[str, Any]) -> None:
        """Store a snapshot taken with :meth:`Table.snapshot` after event
        ``number`` (the table may have moved on since: the state is its own
        data); a failure is logged, not raised, as for :meth:`keep_snapshot`."""
        try:
            self.store.save_snapshot(table_id, number, state)
        except Exception as exc:
            log.warning("table %s: no snapshot at %d (%s)", table_id, number, exc)

    def act(
        self,
        table: Table,
        seat: str | None,
        act: Any,
        on_event: OnEvent | None = None,
        snapshot: bool = True,
        read_first: bool = True,
    ) -> Done:
        """Make ``seat``'s act the table's next event, stored and committed.

        Raises :class:`~cardzones.table.refusals.Refusal` when the rules or the
        table refuse it; events of other writers found on the way have been
        applied and reported by then. With ``snapshot`` False, a snapshot due
        after the act is left to the caller (:meth:`snapshot_due`,
        :meth:`keep_snapshot`), to keep once the act is acknowledged.

        With ``read_first`` False (the caller has heard of no event of
        another writer that the table lacks), the act is tried on the table
        as this process last saw it, with no read of the store: if another
        writer stored an event since, the append finds its number taken
        (numbers follow each other with no gap), and the act is tried again
        once those events are applied. A refusal is final only once the table
        is known to be up to date, so an act the newer state allows is never
        refused for being judged on an older one. That saves one read of the
        store an act, a few round trips on Postgres.
        """
        read = read_first  # whether the store was read for this act
        if read_first:
            self.catch_up(table, on_event)
        while True:
            if table.finished is None:
                self.settle(table)
            _open_to(table, seat)
            try:
                pending = table.try_act(seat, act)
            except Refusal:
                if read:
                    raise
                read = True
                if self.catch_up(table, on_event):
                    continue  # judged on an old state: judge it again on the new one
                raise
            assert seat is not None  # a spectator's act is refused above
            try:
                self.store.append(
                    table.id, table.number + 1, seat, pending.applied.stored, self.clock()
                )
            except Conflict:
                # Another writer took the number: take the act back, apply what
                # they wrote, and try again on the new state.
                table.abandon(pending)
                self.catch_up(table, on_event)
                read = True
                continue
            except GameOver:
                # Another process finished the table first, or its proposal
                # to finish is past its time limit, or the seat conceded.
                table.abandon(pending)
                self.reload_finish(table)
                if table.finished is None:
                    self.settle(table)
                if table.finished is None and table.votes.vote_of(seat) == CONCEDE:
                    raise Refusal(CONCEDED) from None
                raise Refusal(GAME_OVER) from None
            except BaseException:
                table.abandon(pending)
                raise
            number = table.commit(pending)
            if snapshot and self.snapshot_due(number):
                self.keep_snapshot(table)
            return Done(number, pending.applied.result)

    async def act_soon(self, table: Table, seat: str, act: Any) -> Done | None:
        """:meth:`act` on an event loop, for a table no other writer is known
        to write (``read_first`` False): the rules are applied on the loop,
        and the action goes in the store's next group commit, written by its
        writer thread (:meth:`~cardzones.table.action_log.ActionLog.append_soon`),
        so that the loop's thread neither waits for the disk nor hands the
        act to a worker thread and back. The event is the table's only once
        the commit has returned, as for :meth:`act`.

        Returns None, with the table as it was, where the act needs the store
        read: a proposal to finish past its time limit, a refusal by the
        rules (final only once the table is known to be up to date), a
        number another writer took, or an end another process recorded. The
        caller then runs :meth:`act` (in a worker thread), which reads it.

        Once the action is handed to the writer, the act is seen through
        whatever happens to the caller: cancelled while the commit runs, the
        table is still moved on (or put back) by the commit's outcome, and
        only then is the cancellation raised."""
        if table.finished is None and table.votes.due(self.clock()):
            return None
        _open_to(table, seat)
        start = time.thread_time()
        try:
            pending = table.try_act(seat, act)
        except Refusal:
            return None
        cpu = time.thread_time() - start
        stored = self.store.append_soon(
            table.id, table.number + 1, seat, pending.applied.stored, self.clock()
        )
        cancelled = False
        while not stored.done():
            try:
                await asyncio.wait((stored,))
            except asyncio.CancelledError:
                cancelled = True  # the commit's outcome decides the table's state first
        start = time.thread_time()
        try:
            cpu += stored.result()
        except (Conflict, GameOver):
            table.abandon(pending)
            if cancelled:
                raise asyncio.CancelledError from None
            return None
        except BaseException:
            table.abandon(pending)
            raise
        number = table.commit(pending)
        if cancelled:
            raise asyncio.CancelledError
        return Done(number, pending.applied.result, cpu + time.thread_time() - start)

    # -- taking back acts takes consent (cardzones.table.take_back) ---------------

    def voters(self, table: Table) -> list[str]:
        """The seats whose answer a take-back wants: those that have not conceded."""
        return [p for p in table.players if table.votes.vote_of(p) != CONCEDE]

    def take_back_shown(self, table: Table) -> Request | None:
        """The table's request as its seats are shown it: the one asked after
        its last event (standing, or refused), None when there is none."""
        found = self.store.take_back(table.id)
        if found is None or found.head != table.number or table.finished is not None:
            return None
        return found

    def ask_take_back(self, table: Table, seat: str, acts: int) -> tuple[Request, Done | None]:
        """Store ``seat``'s request to take back its last ``acts`` acts; with
        no other seat to answer it, it is carried out at once (the
        :class:`Done` event). The table is up to date (:meth:`catch_up`).
        Raises :class:`~cardzones.table.take_back.TakeBackRefused`."""
        self.settle(table)
        if table.finished is not None:
            raise TakeBackRefused(GAME_OVER)
        if table.votes.vote_of(seat) == CONCEDE:
            raise TakeBackRefused(CONCEDED)
        mine = takeable(table.lineage, seat)
        if not mine:
            raise TakeBackRefused(NOTHING_TO_TAKE_BACK)
        if acts > len(mine):
            raise TakeBackRefused(
                f"you may take back {len(mine)} act{'s' if len(mine) != 1 else ''} now:"
                " your acts since another seat last acted"
            )
        request = Request(seat, acts, target(table.lineage, acts), table.number, self.clock())
        self.store.ask_take_back(table.id, request)
        if request.waiting(self.voters(table)):
            return request, None
        return request, self._carry_out(table, request)

    def answer_take_back(
        self, table: Table, seat: str, accept: bool
    ) -> tuple[Request, Done | None]:
        """Record ``seat``'s answer to the standing request: the request as it
        is then, and the event when this acceptance was the last one wanted.
        The table is up to date (:meth:`catch_up`). Raises
        :class:`~cardzones.table.take_back.TakeBackRefused`."""
        self.settle(table)
        found = self.take_back_shown(table)
        if found is None or not found.standing(table.number):
            raise TakeBackRefused(NO_REQUEST)
        if accept and seat == found.by:
            raise TakeBackRefused("you asked to take back: the other seats answer")
        if accept and seat not in self.voters(table):
            raise TakeBackRefused(CONCEDED)
        answered = self.store.answer_take_back(table.id, found, seat, accept)
        if answered is None:
            raise TakeBackRefused(NO_REQUEST)
        if not accept or answered.waiting(self.voters(table)):
            return answered, None
        return answered, self._carry_out(table, answered)

    def _carry_out(self, table: Table, request: Request) -> Done:
        """Store an accepted take-back as the table's next event."""
        try:
            pending = table.try_take_back(request)
        except ValueError as exc:
            self.store.drop_take_back(table.id, request.head)
            raise TakeBackRefused(str(exc)) from None
        try:
            self.store.append(
                table.id, table.number + 1, request.by, pending.applied.stored, self.clock()
            )
        except (Conflict, GameOver):
            # An act came first (or the end): the request was left behind.
            table.abandon(pending)
            self.store.drop_take_back(table.id, request.head)
            raise TakeBackRefused(NO_REQUEST) from None
        except BaseException:
            table.abandon(pending)
            raise
        number = table.commit(pending)
        self.store.drop_take_back(table.id, request.head)
        if self.snapshot_due(number):
            self.keep_snapshot(table)
        return Done(number, pending.applied.result)


def _open_to(table: Table, seat: str | None) -> None:
    """Refuse an act at a finished table, or of a seat that conceded."""
    if table.finished is not None:
        raise Refusal(GAME_OVER)
    if seat is not None and table.votes.vote_of(seat) == CONCEDE:
        raise Refusal(CONCEDED)
