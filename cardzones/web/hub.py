"""The tables a server process has open, the connections to each, and the
order in which frames reach them.

Each open table has one lock. Everything that changes a table or adds a
connection to it happens under that lock, in a worker thread (the store and
the engine are synchronous), and leaves behind the frames to send; an act
on a table no other process writes is applied on the event loop instead,
with only its commit in the store's writer thread
(:meth:`~cardzones.table.host.Host.act_soon`), the lock held until the
commit's outcome. Each
connection has a queue that one task drains, so a connection gets its frames
in the order they were queued: the events caught up from the store, the ack
of its own act, then that act's event. A connection remembers the last event
it was sent and is never sent an event twice.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from cardzones.table.action_log import StoredAction
from cardzones.table.chat import WELCOME_LINES, ChatRefused, clean
from cardzones.table.finish import Votes
from cardzones.table.finish_votes import Finished
from cardzones.table.host import Done, Host
from cardzones.table.json_text import dumps
from cardzones.table.refusals import Refusal
from cardzones.table.table import Table
from cardzones.web.live import INTERNAL_ERROR as INTERNAL_ERROR
from cardzones.web.live import OTHERS_WRITE as OTHERS_WRITE
from cardzones.web.live import Connection as Connection
from cardzones.web.live import EventFrames as EventFrames
from cardzones.web.live import Live as Live
from cardzones.web.live import stored_size
from cardzones.web.snapshot_pace import timed

log = logging.getLogger("cardzones.web")

T = TypeVar("T")

#: Open tables without connections kept in memory, newest first out last.
IDLE_TABLES = 64
#: The refusal of an act the store failed to take.
CANNOT_STORE = "the table cannot store acts now; try again"

#: What became of an act: its event and the event's frames by viewer (None:
#: they could not be made), or its refusal.
Acted = tuple[Done, dict[str | None, str] | None] | Refusal


class OpenTables:
    """The open tables of this process."""

    def __init__(self, host: Host, table_bytes: int | None = None) -> None:
        self.host = host
        #: the most bytes of acts a table stores (None: no bound)
        self.table_bytes = table_bytes
        self.tables: OrderedDict[str, Live] = OrderedDict()
        self._opening: dict[str, asyncio.Lock] = {}
        #: per table, the timer that finishes it when its proposal's time limit passes
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: per table, the last request to take back acts its connections were told
        self._take_backs_told: dict[str, str] = {}

    async def open(self, table_id: str) -> Live | None:
        """The open table, loaded from the store if need be (None: no such table)."""
        live = self.tables.get(table_id)
        if live is None:
            lock = self._opening.setdefault(table_id, asyncio.Lock())
            async with lock:
                live = self.tables.get(table_id)
                if live is None:
                    table = await run_in_threadpool(self.host.load, table_id)
                    if table is None:
                        self._opening.pop(table_id, None)
                        return None
                    # A table with no act yet has stored no bytes of acts:
                    # its first act need not read the store to count them.
                    empty = table.number == 0
                    live = self.tables[table_id] = Live(table, act_bytes=0 if empty else None)
                    self._schedule(live)
            self._opening.pop(table_id, None)
            self._forget_idle()
        self.tables.move_to_end(table_id)
        return live

    def _forget_idle(self) -> None:
        idle = [k for k, v in self.tables.items() if not v.connections and not v.lock.locked()]
        for table_id in idle[: max(0, len(idle) - IDLE_TABLES)]:
            del self.tables[table_id]

    # -- under the table's lock -------------------------------------------------

    @staticmethod
    def _frames(table: Table, viewers: set[str | None], actor: str) -> dict[str | None, str]:
        return {v: table.event_text(v, actor) for v in viewers}

    def _collector(
        self, live: Live
    ) -> tuple[list[EventFrames], Callable[[Table, StoredAction], None]]:
        viewers = {c.viewer for c in live.connections}
        events: list[EventFrames] = []

        def on_event(table: Table, action: StoredAction) -> None:
            if live.act_bytes is not None:
                live.act_bytes += stored_size(action.act)
            events.append((action.number, self._frames(table, viewers, action.seat)))

        return events, on_event

    @staticmethod
    def _deliver(live: Live, events: list[EventFrames]) -> None:
        for number, frames in events:
            for conn in live.connections:
                if number > conn.last:
                    conn.send(frames[conn.viewer])
                    conn.last = number

    async def catch_up(self, live: Live) -> None:
        """Apply and send the events other processes stored. Takes the lock."""
        async with live.lock:
            events, on_event = self._collector(live)
            await run_in_threadpool(self.host.catch_up, live.table, on_event)
            self._deliver(live, events)
            await self._settle(live)

    async def join(self, live: Live, conn: Connection, after: int, chat_after: int = 0) -> None:
        """Welcome a connection with the view now, the log after ``after`` and
        the chat lines after ``chat_after`` (the newest of them), and add it to
        the table, so that it gets every later event and line once."""
        async with live.lock:
            events, on_event = self._collector(live)
            await run_in_threadpool(self.host.catch_up, live.table, on_event)
            self._deliver(live, events)
            await self._settle(live)

            def welcome() -> str:
                table = live.table
                if table.finished is None:  # finished by another process meanwhile?
                    table.finished = self.host.store.finished(table.id)
                lines = self.host.store.chat(table.id, chat_after, WELCOME_LINES)
                conn.chat_last = (
                    lines[-1].seq if lines else min(chat_after, self.host.store.chat_head(table.id))
                )
                return dumps(
                    {
                        "welcome": {
                            "seat": conn.viewer,
                            "number": table.number,
                            "view": table.view(conn.viewer),
                            "log": table.log(conn.viewer, after),
                            "finished": None
                            if table.finished is None
                            else table.finished.to_json(),
                            "finish": None if table.votes.empty else table.votes.to_json(),
                            "won": table.won,
                            "finish_after": self.host.finish_after(table),
                            "chat": [line.to_json() for line in lines],
                            "take_back": self._take_back_shown(table),
                        }
                    }
                )

            text = await run_in_threadpool(welcome)
            conn.last = live.table.number
            live.connections.add(conn)
            conn.send(text)

    def leave(self, live: Live, conn: Connection) -> None:
        live.connections.discard(conn)

    async def act(self, live: Live, conn: Connection, request: Any, act: Any) -> None:
        """Apply a seat's act: the sender gets its ack or refusal first, then
        every connection gets the event."""
        actor = conn.viewer
        assert actor is not None
        async with live.lock:
            await self._settle(live)
            ended = live.table.finished
            events, on_event = self._collector(live)
            viewers = {c.viewer for c in live.connections}
            # The store is read first only while another process writes to
            # the table: otherwise a taken number would say so, at the cost of
            # a retry (see Host.act). An act tried on the loop and handed back
            # needs the store read.
            others = time.monotonic() - live.heard_at < OTHERS_WRITE
            outcome = None
            on_loop = not others and (self.table_bytes is None or live.act_bytes is not None)
            # Its size is written once, whichever way the act goes.
            size = 0 if self.table_bytes is None else stored_size(act)
            if on_loop:
                outcome = await self._act_on_loop(live, actor, act, size, viewers)
            if outcome is None:
                read_first = others or on_loop
                outcome = await self._act_in_thread(
                    live, actor, act, size, viewers, on_event, read_first
                )
            self._deliver(live, events)
            if ended is None and live.table.finished is not None:
                self._announce(live)  # the time limit passed while it was stored
            if isinstance(outcome, Refusal):
                frame: dict[str, Any] = {"refused": request, "error": outcome.message}
                if outcome.rule is not None:
                    frame["rule"] = outcome.rule
                conn.send(dumps(frame))
                return
            done, frames = outcome
            live.pace.spent(done.cpu)
            conn.send(dumps({"ack": request, "number": done.number, "result": done.result.value}))
            if frames is None:
                # Nobody can be sent the event: each connection is closed, to
                # come back and be welcomed afresh.
                for other in live.connections:
                    other.close(INTERNAL_ERROR)
            else:
                self._deliver(live, [(done.number, frames)])
            if self.host.snapshot_due(done.number) and live.pace.worth():
                # After the ack and the event (a snapshot of a long game takes
                # a while). Taken under the lock, since it is of this event;
                # stored after it, so that the table's next act does not wait
                # for the snapshot's commit.
                table = live.table
                state, cpu = await run_in_threadpool(timed, table.snapshot)
                live.pace.took(cpu)
                self._spawn_task(self._store_snapshot(live, done.number, state))

    async def _act_on_loop(
        self, live: Live, actor: str, act: Any, size: int, viewers: set[str | None]
    ) -> Acted | None:
        """The act applied on the event loop and committed by the store's
        writer thread; None where it needs the store read (see
        :meth:`Host.act_soon`), with nothing changed. Tried only where no
        other process is known to write to the table and its bytes of acts,
        if bounded, are counted already: either reads the store, which only a
        worker thread does."""
        full = self._full(live, size)
        if full is not None:
            return full
        try:
            done = await self.host.act_soon(live.table, actor, act)
        except Refusal as refusal:
            return refusal
        except Exception:
            log.exception("table %s: an act could not be stored", live.table.id)
            return Refusal(CANNOT_STORE)
        if done is None:
            return None
        return self._stored(live, actor, size, done, viewers)

    async def _act_in_thread(
        self,
        live: Live,
        actor: str,
        act: Any,
        size: int,
        viewers: set[str | None],
        on_event: Callable[[Table, StoredAction], None],
        read_first: bool,
    ) -> Acted:
        """The act applied and stored in a worker thread (:meth:`Host.act`),
        the store read first with ``read_first``."""

        def run() -> Acted:
            full = self._full(live, size)
            if full is not None:
                return full
            try:
                done, cpu = timed(
                    lambda: self.host.act(
                        live.table, actor, act, on_event, snapshot=False, read_first=read_first
                    )
                )
            except Refusal as refusal:
                return refusal
            return self._stored(live, actor, size, replace(done, cpu=cpu), viewers)

        try:
            return await run_in_threadpool(run)
        except Exception:
            log.exception("table %s: an act could not be stored", live.table.id)
            return Refusal(CANNOT_STORE)

    def _stored(
        self, live: Live, actor: str, size: int, done: Done, viewers: set[str | None]
    ) -> Acted:
        """An act of ``size`` (:func:`stored_size`) that is now the table's
        event: counted, and its frames made."""
        if live.act_bytes is not None:
            live.act_bytes += size
        # Stored is done: whatever fails now, the act is acknowledged.
        try:
            return done, self._frames(live.table, viewers, actor)
        except Exception:
            log.exception("table %s: event %d could not be shown", live.table.id, done.number)
            return done, None

    async def _store_snapshot(self, live: Live, number: int, state: dict[str, Any]) -> None:
        table_id = live.table.id
        _, cpu = await run_in_threadpool(
            timed, lambda: self.host.store_snapshot(table_id, number, state)
        )
        live.pace.stored(cpu)

    def _full(self, live: Live, size: int) -> Refusal | None:
        """Under the lock: the refusal of an act of ``size`` that would take
        the table past its bytes of acts, or None. Reads the store while the
        table's bytes are not counted yet: in a worker thread, then."""
        if self.table_bytes is None:
            return None
        if live.act_bytes is None:
            # Up to the table's own number: later events are counted as
            # they are caught up (on_event).
            stored = self.host.store.actions(live.table.id, upto=live.table.number)
            live.act_bytes = sum(stored_size(a.act) for a in stored)
        if live.act_bytes + size <= self.table_bytes:
            return None
        return Refusal(
            f"the table has stored {live.act_bytes} bytes of acts and takes at most "
            f"{self.table_bytes}: finish it and start another "
            f"(cardzones serve --max-table-bytes)"
        )

    async def say(self, live: Live, conn: Connection, request: Any, text: Any) -> None:
        """Store a seat's chat line: the sender gets ``said`` (or a refusal)
        first, then every connection gets the lines it has not had, this one
        among them."""
        seat = conn.viewer
        assert seat is not None
        async with live.lock:
            try:
                line = clean(text)
                # The store refuses a seat that talks too fast, across processes.
                said = await run_in_threadpool(
                    self.host.store.say, live.table.id, seat, line, live.table.number
                )
            except ChatRefused as refusal:
                conn.send(dumps({"refused": request, "error": str(refusal)}))
                return
            conn.send(dumps({"said": request, "seq": said.seq}))
            await self._deliver_chat(live)

    async def _deliver_chat(self, live: Live) -> None:
        """Send each connection the stored chat lines it has not had."""
        if not live.connections:
            return
        low = min(c.chat_last for c in live.connections)
        lines = await run_in_threadpool(self.host.store.chat, live.table.id, low)
        for line in lines:
            text = dumps({"chat": line.to_json()})
            for conn in live.connections:
                if line.seq > conn.chat_last:
                    conn.send(text)
                    conn.chat_last = line.seq

    async def chat_elsewhere(self, live: Live) -> None:
        """Another process stored a chat line: send it to this one's connections."""
        async with live.lock:
            await self._deliver_chat(live)

    # -- finishing takes consent (cardzones.table.finish) -------------------------

    async def vote(self, live: Live, seat: str, vote: str) -> tuple[Votes, Finished | None]:
        """Record a seat's vote to finish the game; every connection hears
        the votes when they change, and the end when it comes. Raises
        :class:`~cardzones.table.finish.FinishRefused`."""
        async with live.lock:
            events, on_event = self._collector(live)
            await run_in_threadpool(self.host.catch_up, live.table, on_event)
            self._deliver(live, events)
            await self._settle(live)
            if live.table.finished is None:
                before = live.table.votes
                await run_in_threadpool(self.host.vote, live.table, seat, vote)
                if live.table.votes != before:
                    self._announce_votes(live)
                if live.table.finished is not None:
                    self._announce(live)
                self._schedule(live)
            return live.table.votes, live.table.finished

    async def _settle(self, live: Live) -> None:
        """Under the lock: finish the table if its proposal's time limit has
        passed, and tell every connection."""
        table = live.table
        due = table.finished is None and table.votes.due(self.host.clock())
        if due and await run_in_threadpool(self.host.settle, table):
            self._announce(live)

    def _schedule(self, live: Live) -> None:
        """Finish the table when its proposal's time limit passes, even if
        nobody asks anything then."""
        old = self._timers.pop(live.table.id, None)
        if old is not None:
            old.cancel()
        until = live.table.votes.until
        if until is None or live.table.finished is not None:
            return
        delay = max(0.0, until - self.host.clock()) + 0.05
        loop = asyncio.get_running_loop()
        self._timers[live.table.id] = loop.call_later(delay, self._spawn, live)

    def _spawn(self, live: Live) -> None:
        self._timers.pop(live.table.id, None)
        self._spawn_task(self.catch_up(live))

    def _spawn_task(self, work: Awaitable[None]) -> None:
        """Run ``work`` on its own, kept until it is done."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    def _announce_votes(live: Live) -> None:
        text = dumps({"finish": live.table.votes.to_json()})
        for conn in live.connections:
            conn.send(text)

    async def votes_elsewhere(self, live: Live) -> None:
        """Another process recorded a vote to finish: tell this one's connections."""
        async with live.lock:
            table = live.table
            before, ended = table.votes, table.finished
            if ended is not None:
                return  # nothing changes after the end (and this process said it)
            await run_in_threadpool(self.host.reload_finish, table)
            if table.votes != before:
                self._announce_votes(live)
            if table.finished is not None:
                events, on_event = self._collector(live)
                await run_in_threadpool(self.host.catch_up, table, on_event)
                self._deliver(live, events)
                self._announce(live)
            self._schedule(live)

    @staticmethod
    def _announce(live: Live) -> None:
        assert live.table.finished is not None
        text = dumps({"finished": live.table.finished.to_json()})
        for conn in live.connections:
            conn.send(text)

    async def finished_elsewhere(self, live: Live) -> None:
        """Another process finished the table: catch up and tell this one's
        connections the votes and the end."""
        await self.votes_elsewhere(live)

    async def read(self, live: Live, what: Callable[[Table], T], *, others: bool = False) -> T:
        """Something about the table once it is up to date with the store
        (and finished, if its proposal's time limit has passed). With
        ``others``, the store is read for events only while another process
        writes to the table, as an act reads it (:data:`OTHERS_WRITE`):
        otherwise this process's copy is the table (a menu's legal acts)."""
        async with live.lock:
            events, on_event = self._collector(live)
            table = live.table

            answers: list[T] = []

            def caught_up() -> None:
                # One trip to a worker thread, not two, when nothing is due.
                if not others or time.monotonic() - live.heard_at < OTHERS_WRITE:
                    self.host.catch_up(table, on_event)
                if table.finished is not None or not table.votes.due(self.host.clock()):
                    answers.append(what(table))

            await run_in_threadpool(caught_up)
            self._deliver(live, events)
            if answers:
                return answers[0]
            await self._settle(live)
            return await run_in_threadpool(what, table)

    # -- taking back acts takes consent (cardzones.table.take_back) ----------------

    async def change(
        self, live: Live, work: Callable[[Table], tuple[T, str | None]], tell: bool = True
    ) -> T:
        """Under the lock, with the table up to date: run ``work`` on the table
        (in a worker thread), which returns its result and, when it made the
        table's next event, the seat the event is of; every connection then
        gets that event, as for an act. With ``tell``, every connection is
        told the table's request to take back acts afterwards."""
        async with live.lock:
            events, on_event = self._collector(live)
            await run_in_threadpool(self.host.catch_up, live.table, on_event)
            self._deliver(live, events)
            await self._settle(live)
            viewers = {c.viewer for c in live.connections}

            def run() -> tuple[T, EventFrames | None, str]:
                before = live.table.number
                result, actor = work(live.table)
                made = None
                if actor is not None and live.table.number == before + 1:
                    made = (live.table.number, self._frames(live.table, viewers, actor))
                told = {"take_back": self._take_back_shown(live.table)} if tell else None
                return result, made, dumps(told) if told else ""

            # A refusal changed nothing here; events another writer stored
            # meanwhile arrive as its notifications say, as for an act.
            result, made, told = await run_in_threadpool(run)
            if made is not None:
                self._deliver(live, [made])
            if told and self._take_backs_told.get(live.table.id) != told:
                # Told once: this process hears its own changes from Postgres too.
                self._take_backs_told[live.table.id] = told
                for conn in live.connections:
                    conn.send(told)
            return result

    def _take_back_shown(self, table: Table) -> dict[str, Any] | None:
        found = self.host.take_back_shown(table)
        return None if found is None else found.to_json()

    async def take_back_elsewhere(self, live: Live) -> None:
        """Another process changed the table's request to take back acts:
        tell this one's connections (after the event it made, if any)."""
        await self.change(live, lambda table: (None, None))

    # -- notifications from other processes ---------------------------------------

    async def _heard(self, live: Live, number: int) -> None:
        """Another process may have stored event ``number`` of the table: if
        the table still lacks it once no act of this process is half-way, it
        is another's, and this process reads the store before its acts and
        menus on the table for a while (:data:`OTHERS_WRITE`). This
        process's own events, heard of while they were being applied, change
        nothing."""
        if live.lock.locked():
            async with live.lock:
                pass
        if number <= live.table.number:
            return
        live.heard_at = time.monotonic()
        if live.connections:
            await self.catch_up(live)

    async def follow(self, notifications: Callable[[], Any]) -> None:
        """Forward the events other processes commit (Postgres ``NOTIFY``) to
        this process's connections, for as long as the server runs."""
        while True:
            try:
                # After a (re)connect, events may have been missed: catch up all.
                for live in list(self.tables.values()):
                    if live.connections:
                        await self.catch_up(live)
                        await self.chat_elsewhere(live)
                        await self.votes_elsewhere(live)
                async for table_id, number in notifications():
                    found = self.tables.get(table_id)
                    if found is None:
                        continue
                    if number is None:
                        await self.finished_elsewhere(found)
                    elif number == "chat":
                        await self.chat_elsewhere(found)
                    elif number == "finish":
                        await self.votes_elsewhere(found)
                    elif number == "take_back":
                        await self.take_back_elsewhere(found)
                    elif isinstance(number, int) and number > found.table.number:
                        if found.lock.locked():
                            # Maybe this process's own act, committed and not
                            # yet applied: judged once the lock is free.
                            self._spawn_task(self._heard(found, number))
                        else:
                            await self._heard(found, number)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("listening for other processes' events failed (%s); retrying", exc)
            await asyncio.sleep(1.0)
