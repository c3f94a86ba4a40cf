"""The capacity of one table server process under a load like real tables:
how many tables it holds at once with an act acknowledged within
:data:`TARGET_P99_MS` for 99 acts in 100.

The closed loop of :mod:`cardzones.bench.table` sends each act as soon as the
last one is acknowledged: it measures the most acts a second the server
takes, at a latency that says nothing about a real load. Players act every
few seconds, whatever the server is doing, so this load is open: each seat
of each table acts on a clock of its own, every :data:`EVERY` seconds on
average (from half to one and a half times that, drawn from a seeded
generator), and its act-to-ack time is counted from the moment the act was
due, so that a server that falls behind is charged for the wait
(coordinated omission). Half a second before each act the seat's board opens
its menu on the card it will act on and asks for the legal acts on that card
on the seat's socket (a ``legal`` frame), as the board does while its socket
is open; the act does not wait for the answer.

The run raises the number of tables from :data:`LEVELS` (each level a new set
of tables, after a warm-up) until the p99 of act-to-ack passes the target or
an act is refused; the capacity is the last level that kept it. A level runs
for :data:`SECONDS`, or longer if need be for about :data:`MIN_ACTS` acts, so
that its p99 is one of its few slowest acts and not its slowest alone
(``p99_rank`` says which: 1 is the slowest).

A level's clock starts once every seat of it is seated: its seats connect
and are welcomed first, all at once (a thousand tables' joins take the
server several seconds), and only then does each seat's first act fall due,
within :data:`EVERY` seconds, and the measured window begin after the
warm-up. Joins crowding into the first acts are a server's restart, not
tables at the pace of people, and are left out of the level's figures; so
are the seats' goodbyes: a seat whose next act falls past the window's end
keeps its socket open until the end, so that the closes (each letting go
of the seat's holds, in the store on Postgres) come after the window.

The seats are played by drivers, each an asyncio process of its own, on a
lean client (:mod:`cardzones.bench.lean`): raw WebSocket frames, the menus
asked on the seat's socket as the board asks them, an event's view parsed only
when the seat chooses its next act from it. One driver plays up to
:data:`TABLES_PER_DRIVER` tables; a level of more spreads them over several,
on the same clock. Each level reports the CPU its drivers used per act
(``driver_cpu_us``) beside the server's (``server_cpu_us``, an act with its
menu, at the pace of people), with the load average at its start and end, so
that a level whose load cost about what the server did is read as the
machine's, not the server's.

The machine's own pauses are measured beside each level, in the same
moments: :data:`ECHO_PROBES` WebSockets to a bare echo server (in a process
of its own, through the same stack) each send a frame every
:data:`ECHO_EVERY` seconds on an open clock, and their round trip is counted
from the moment the frame was due, as an act's is (``echo_p50_ms``,
``echo_p99_ms``). An act's p99 near the echo's is the machine's; beyond it,
the server's.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import json
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson

from cardzones.bench.cpu import CpuWindow
from cardzones.bench.lean import LeanError, RawSocket
from cardzones.bench.seat import _Seat
from cardzones.bench.table import SERVER_PIDS, WARMUP, Sample, _card_of, table_body
from cardzones.table import pauses
from cardzones.web.slow import raise_open_files

#: The act-to-ack p99 a level must keep, in milliseconds.
TARGET_P99_MS = 100.0
#: Seconds between two acts of a seat, on average.
EVERY = 3.0
#: How long before an act its seat's board asks for the legal acts on the card.
MENU_LEAD = 0.5
#: The numbers of tables tried, in order, and in a quick run.
LEVELS = (8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1000)
QUICK_LEVELS = (2, 4)
#: A level's measured time, in seconds, by default and in a quick run.
SECONDS, QUICK_SECONDS = 20.0, 3.0
#: A seat's mean seconds between acts in a quick run (so that a short run
#: acts), slow enough for the server's bound on each seat's legal-act requests.
QUICK_EVERY = 1.0
#: The acts a level collects at least, stretching its time if need be (none
#: in a quick run).
MIN_ACTS = 500
#: Tables one driver (a load process of the benchmark) plays at most: a level
#: of more tables spreads them over several driver processes. On the lean
#: client one process plays the ladder's top level for a fraction of what
#: the server spends on it.
TABLES_PER_DRIVER = 1000
#: Seconds the seats of a level are given to be seated, at most.
SEATING = 120.0
#: The echo connections beside each level, and the seconds between two of
#: each one's frames.
ECHO_PROBES, ECHO_EVERY = 4, 0.05


@dataclass
class Level:
    """One level of the ladder: acts and legal-act requests completed in its window."""

    tables: int
    acts: Sample = field(default_factory=Sample)
    legal: Sample = field(default_factory=Sample)
    #: the echo beside the level (see the module)
    echo: Sample = field(default_factory=Sample)
    errors: int = 0
    #: Legal-act requests the server's bound on a seat answered with 429: a
    #: board shows a notice and asks again, so they are not errors.
    throttled: int = 0
    #: the CPU seconds the driver processes used in the level's window
    driver_cpu: float = 0.0
    #: the CPU seconds the server used in the window (None: unknown)
    server: CpuWindow = field(default_factory=lambda: CpuWindow(None))
    #: the machine's load average (1 minute) at the level's start and end
    load: tuple[float | None, float | None] = (None, None)
    #: each act counted in ``acts``: when it was due (wall-clock seconds, to
    #: line up with the server's record of its pauses) and its act-to-ack
    acts_at: list[tuple[float, float]] = field(default_factory=list)

    def merge(self, other: Level) -> None:
        """Add what another driver of the same level measured."""
        self.acts.latencies += other.acts.latencies
        self.acts_at += other.acts_at
        self.acts.refused += other.acts.refused
        self.legal.latencies += other.legal.latencies
        self.errors += other.errors
        self.throttled += other.throttled
        self.driver_cpu += other.driver_cpu

    def figures(self, seconds: float) -> dict[str, Any]:
        acts = self.acts.figures(seconds, "acts")
        legal = self.legal.figures(seconds, "requests")
        return {
            "tables": self.tables,
            "acts_per_s": acts["acts_per_s"],
            "acts": acts["count"],
            "p50_ms": acts["p50_ms"],
            "p99_ms": acts["p99_ms"],
            "refused": self.acts.refused,
            "legal_per_s": legal["requests_per_s"],
            "legal_p50_ms": legal["p50_ms"],
            "legal_p99_ms": legal["p99_ms"],
            "errors": self.errors,
            "throttled": self.throttled,
            "seconds": seconds,
            "p99_rank": acts["count"] - int(0.99 * acts["count"]) if acts["count"] else 0,
            "echo_count": len(self.echo.latencies),
            "echo_p50_ms": self.echo.figures(seconds, "frames")["p50_ms"],
            "echo_p99_ms": self.echo.figures(seconds, "frames")["p99_ms"],
            # Per act, its menu included: the server's CPU and the load's own
            # beside it, so that a level whose driver costs about what the
            # server does is read as the machine's, not the server's.
            "server_cpu_us": self.server.per(acts["count"]),
            "driver_cpu_us": CpuWindow(None, self.driver_cpu).per(acts["count"]),
            "load_start": self.load[0],
            "load_end": self.load[1],
        }


#: Asks a seat's menu on a card (None: its end of turn).
Menu = Callable[[str | None], Coroutine[Any, Any, None]]


def _menu(lean: _LeanSeat, level: Level, start: float, end: float) -> Menu:
    """A seat's menu as its board asks it while its socket is open: the legal
    acts on a card (None: its end of turn) asked on the seat's socket,
    answered before the act or not; its time is counted when it was asked
    and answered inside the level's window."""

    async def ask(card: str | None) -> None:
        asked = time.perf_counter()
        try:
            answer = await lean.ask_menu(card)
        except LeanError:
            level.errors += 1
            return
        done = time.perf_counter()
        if "retry_after" in answer:
            level.throttled += 1
        elif "listed" not in answer:
            level.errors += 1
        elif start <= asked and done <= end:
            level.legal.latencies.append(done - asked)

    return ask


class _LeanSeat:
    """One seat's connection as the lean driver reads it: an event's view is
    parsed only when the seat chooses its next act (the last one it got),
    and of every other frame only what the seat waits for."""

    def __init__(self, seat: _Seat, socket: RawSocket) -> None:
        self.seat = seat
        self.socket = socket
        #: the last event's frame, not parsed yet
        self.unread: str | None = None
        #: whether the server closed the socket
        self.closed = False

    async def read(self) -> None:
        seat = self.seat
        while (text := await self.socket.recv()) is not None:
            if text.startswith(_EVENT):
                # '{"event":N,...': the number now, the view when it is needed.
                seat.number = int(text[len(_EVENT) : text.index(",", len(_EVENT))])
                self.unread = text
                seat.event.set()
            elif text.startswith(('{"ack"', '{"refused"', '{"listed"', '{"welcome"')):
                seat.take(orjson.loads(text))
        # The server closed the socket: whatever the seat waits for fails.
        self.closed = True
        seat.fail(LeanError("the server closed the socket"))
        seat.event.set()

    async def ask_menu(self, card: str | None) -> dict[str, Any]:
        """Ask the seat's legal acts on a card (None: its end of turn) on its
        socket, labelled apart from its acts, and wait for the answer
        (``listed``, or ``refused``)."""
        if self.closed:
            raise LeanError("the server closed the socket")
        frame, answer = self.seat.menu_frame(card)
        self.socket.send(json.dumps(frame))
        return await answer

    def next_act(self) -> dict[str, Any]:
        """The seat's next act, from the last view it was sent."""
        if self.unread is not None:
            self.seat.view = orjson.loads(self.unread)["view"]
            self.unread = None
        return self.seat.next_act()


#: How an event's frame begins (:meth:`cardzones.table.table.Table.event_frame`).
_EVENT = '{"event":'


@dataclass
class _Clock:
    """A driver's clock: its seats seated so far, and once all of them are,
    the level's start and end (perf_counter times) and ``go`` set."""

    seats: int
    seated: int = 0
    go_at: float = 0.0
    start: float = 0.0
    end: float = 0.0
    go: asyncio.Event = field(default_factory=asyncio.Event)
    all_seated: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        if self.seats <= 0:
            self.all_seated.set()

    def one_seated(self) -> None:
        """A seat is seated, or turned away: either way it joins no more."""
        self.seated += 1
        if self.seated >= self.seats:
            self.all_seated.set()


async def _seat_loop(
    address: tuple[str, int],
    table: str,
    token: str,
    seat: _Seat,
    level: Level,
    clock: _Clock,
    every: float,
) -> None:
    rng = seat.rng
    menus: list[asyncio.Task[None]] = []
    # The wall clock of a perf_counter time, for the acts' timeline.
    wall = time.time() - time.perf_counter()
    socket = await RawSocket.open(*address, f"/api/tables/{table}/ws")
    lean = _LeanSeat(seat, socket)
    reader = asyncio.create_task(lean.read())
    try:
        socket.send(json.dumps({"hello": token, "after": 0}))
        while not seat.view:
            if lean.closed:
                level.errors += 1  # turned away at its hello
                clock.one_seated()
                return
            await asyncio.sleep(0.005)
        clock.one_seated()
        await clock.go.wait()
        start, end = clock.start, clock.end
        menu = _menu(lean, level, start, end)
        due = clock.go_at + rng.uniform(0, every)
        n = 0
        while due < end:
            act = lean.next_act()
            await asyncio.sleep(max(0.0, due - min(MENU_LEAD, every / 4) - time.perf_counter()))
            menus.append(asyncio.create_task(menu(_card_of(act))))
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            n += 1
            seat.waiting = asyncio.get_running_loop().create_future()
            socket.send(json.dumps({"act": act, "id": n, "after": seat.number}))
            try:
                answer = await seat.waiting
            except LeanError:
                level.errors += 1  # the server closed the seat's socket
                break
            done = time.perf_counter()
            if "refused" in answer:
                level.acts.refused += 1
            else:
                if start <= due and done <= end:
                    level.acts.latencies.append(done - due)
                    level.acts_at.append((wall + due, done - due))
                while seat.number < answer["number"] and not lean.closed:
                    await seat.event.wait()
                    seat.event.clear()
            if lean.closed:
                level.errors += 1
                break
            due += every * rng.uniform(0.5, 1.5)
        else:
            # Seated to the window's end: a close is no part of an act.
            await asyncio.sleep(max(0.0, end - time.perf_counter()))
    finally:
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader
        await asyncio.gather(*menus, return_exceptions=True)
        await socket.close()


async def _echo_probe(url: str, level: Level, start: float, end: float, seed: int) -> None:
    """One echo connection on an open clock beside the level (see the module)."""
    import websockets

    rng = random.Random(seed)
    text = json.dumps({"act": {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}, "id": 1})
    async with websockets.connect(url.replace("http://", "ws://") + "/echo") as ws:
        due = time.perf_counter() + rng.uniform(0, ECHO_EVERY)
        while due < end:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            await ws.send(text)
            await ws.recv()
            done = time.perf_counter()
            if start <= due and done <= end:
                level.echo.latencies.append(done - due)
            due += ECHO_EVERY * rng.uniform(0.5, 1.5)


async def _level(
    url: str, tables: int, seconds: float, every: float, seed: int, echo_url: str | None = None
) -> Level:
    level = Level(tables)
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with httpx.AsyncClient(base_url=url, timeout=60.0, limits=limits) as client:
        created = []
        for _ in range(tables):
            answer = await client.post("/api/tables", json=table_body(rng.randrange(1 << 31)))
            answer.raise_for_status()
            created.append(answer.json())
    drivers = -(-tables // TABLES_PER_DRIVER)
    # Each driver in a process of its own, even one: its CPU is then its own.
    context = multiprocessing.get_context("spawn")
    with (
        context.Manager() as manager,
        concurrent.futures.ProcessPoolExecutor(drivers, mp_context=context) as pool,
    ):
        seated, go = manager.Queue(), manager.Queue()
        parts = [
            _Part(url, created[i::drivers], seconds, every, seed * 1000 + i, seated, go)
            for i in range(drivers)
        ]
        loop = asyncio.get_running_loop()
        runs = [loop.run_in_executor(pool, _drive_in_process, part) for part in parts]
        # Every seat seated (each driver says so once), then the clock: the
        # first acts within one period, the window after the warm-up.
        for _ in range(drivers):
            await asyncio.wait_for(loop.run_in_executor(None, seated.get), SEATING)
        go_at = time.time()
        lead = max(every, min(seconds, SECONDS) * WARMUP)
        for _ in range(drivers):
            go.put(go_at)
        start = time.perf_counter() + lead
        watched = [_load_between(level, start, start + seconds)]
        level.server = CpuWindow(SERVER_PIDS.get(url))
        watched.append(level.server.watch(start, start + seconds))
        if echo_url is not None:
            for i in range(ECHO_PROBES):
                watched.append(_echo_probe(echo_url, level, start, start + seconds, seed * 100 + i))
        results, _ = await asyncio.gather(asyncio.gather(*runs), asyncio.gather(*watched))
    for done in results:
        level.merge(done)
    return level


def _load_average() -> float | None:
    """The machine's load average over the last minute (None: unknown)."""
    try:
        with open("/proc/loadavg") as text:
            return float(text.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


async def _load_between(level: Level, start: float, end: float) -> None:
    """The load average at the level's start and end (perf_counter times)."""
    await asyncio.sleep(max(0.0, start - time.perf_counter()))
    first = _load_average()
    await asyncio.sleep(max(0.0, end - time.perf_counter()))
    level.load = (first, _load_average())


@dataclass(frozen=True)
class _Part:
    """One driver's part of a level: its tables, and the queues of the
    level's clock: the driver puts one item on ``seated`` once its seats
    are seated, and gets from ``go`` the moment (wall-clock seconds, shared
    by the driver processes) their acts begin."""

    url: str
    created: list[dict[str, Any]]
    seconds: float
    every: float
    seed: int
    seated: Any
    go: Any


async def _drive(part: _Part) -> Level:
    """Every seat of the part's tables acting on its own clock from the
    level's start for its time: one driver's share of a level, with the CPU
    its process used in the level's window."""
    level = Level(len(part.created))
    rng = random.Random(part.seed)
    split = urlsplit(part.url)
    address = (split.hostname or "127.0.0.1", split.port or 80)
    loops = []
    clock = _Clock(sum(len(table["seats"]) for table in part.created))
    for table in part.created:
        for name, token in table["seats"].items():
            seat = _Seat(name, random.Random(rng.randrange(1 << 31)))
            loops.append(_seat_loop(address, table["table"], token, seat, level, clock, part.every))

    async def own_clock() -> None:
        await clock.all_seated.wait()
        loop = asyncio.get_running_loop()
        part.seated.put(True)
        go_at = await loop.run_in_executor(None, part.go.get)
        lead = max(part.every, min(part.seconds, SECONDS) * WARMUP)
        clock.go_at = time.perf_counter() + (go_at - time.time())
        clock.start = clock.go_at + lead
        clock.end = clock.start + part.seconds
        clock.go.set()
        await asyncio.sleep(max(0.0, clock.start - time.perf_counter()))
        first = time.process_time()
        await asyncio.sleep(max(0.0, clock.end - time.perf_counter()))
        level.driver_cpu = time.process_time() - first

    await asyncio.gather(*loops, own_clock())
    return level


def _drive_in_process(part: _Part) -> Level:
    """:func:`_drive` in a driver process of its own, which may hold as many
    connections as the system lets it (two for each seat), its collector
    off: a pause of the driver delays the acts it measures as much as one
    of the server (its young collections took 300 ms at 768 tables on a
    busy machine), and what it leaves to the collector in one level is
    little. With ``CARDZONES_PAUSES`` set, the driver keeps a record of its
    own pauses beside the server's (the file's name with ``.driver`` and
    its seed added)."""
    raise_open_files()
    gc.disable()
    return asyncio.run(_drive_recorded(part))


async def _drive_recorded(part: _Part) -> Level:
    path = os.environ.get(pauses.ENV)
    async with pauses.recording(f"{path}.driver{part.seed}" if path else ""):
        return await _drive(part)


def kept(figures: dict[str, Any]) -> bool:
    """Whether a level kept the target: acts acknowledged, none refused, no
    request failed, and the p99 of act-to-ack within :data:`TARGET_P99_MS`."""
    return bool(
        figures["acts"] > 0
        and figures["refused"] == 0
        and figures["errors"] == 0
        and figures["p99_ms"] <= TARGET_P99_MS
    )


def level_seconds(tables: int, quick: bool = False) -> float:
    """A level's measured time: :data:`SECONDS`, or as long as its seats take
    to act about :data:`MIN_ACTS` times (two seats a table, one act each
    :data:`EVERY` seconds on average).

    >>> level_seconds(8), level_seconds(16), level_seconds(64)
    (94.0, 47.0, 20.0)
    """
    if quick:
        return QUICK_SECONDS
    return max(SECONDS, float(round(MIN_ACTS * EVERY / (2 * tables))))


def run_capacity(
    url: str, quick: bool = False, seed: int = 1, echo_url: str | None = None
) -> dict[str, Any]:
    """The ladder of levels against the table server at ``url``, up to the
    first level that misses the target; the capacity is the last one that
    kept it (0 when the first one missed). With ``echo_url`` (an echo server
    of :func:`cardzones.bench.table.echo_app`), each level has the echo
    beside it."""
    levels = QUICK_LEVELS if quick else LEVELS
    every = QUICK_EVERY if quick else EVERY
    steps: list[dict[str, Any]] = []
    capacity = 0
    for i, tables in enumerate(levels):
        seconds = level_seconds(tables, quick)
        level = asyncio.run(_level(url, tables, seconds, every, seed + i, echo_url))
        figures = level.figures(seconds)
        steps.append(figures)
        if not kept(figures):
            break
        capacity = tables
    return {
        "tables": capacity,
        "target_p99_ms": TARGET_P99_MS,
        "every_s": every,
        "menu_lead_s": min(MENU_LEAD, every / 4),
        "seconds": QUICK_SECONDS if quick else SECONDS,
        "min_acts": 0 if quick else MIN_ACTS,
        "levels": steps,
    }
