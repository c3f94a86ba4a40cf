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
on its socket (a ``legal`` frame), as the board does; the answer is not
waited for.

The run raises the number of tables from :data:`LEVELS` (each level a new set
of tables, after a warm-up) until the p99 of act-to-ack passes the target or
an act is refused; the capacity is the last level that kept it. A level runs
for :data:`SECONDS`, or longer if need be for about :data:`MIN_ACTS` acts, so
that its p99 is one of its few slowest acts and not its slowest alone
(``p99_rank`` says which: 1 is the slowest).

The seats are played by drivers: one asyncio process for up to
:data:`TABLES_PER_DRIVER` tables, and for a level of more tables (the ladder
goes up to 1,000), several processes, each playing its share of the tables
on the same clock, so that the top levels measure the server and not one
Python process making the load. On a machine with fewer cores than the
server and its drivers need, the drivers and the server take turns, and the
level says so in its echo (below).

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
import json
import multiprocessing
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from cardzones.bench.seat import _Seat
from cardzones.bench.table import WARMUP, Sample, _card_of, table_body

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
#: of more tables spreads them over several driver processes, so that the
#: load, not one Python process making it, is what a high level measures.
TABLES_PER_DRIVER = 200
#: Seconds given to the driver processes to start, before a level's warm-up.
DRIVER_START = 5.0
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

    def merge(self, other: Level) -> None:
        """Add what another driver of the same level measured."""
        self.acts.latencies += other.acts.latencies
        self.acts.refused += other.acts.refused
        self.legal.latencies += other.legal.latencies
        self.errors += other.errors
        self.throttled += other.throttled

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
        }


async def _seat_loop(
    ws_url: str,
    token: str,
    seat: _Seat,
    level: Level,
    start: float,
    end: float,
    every: float,
) -> None:
    import websockets

    rng = seat.rng
    menus: list[asyncio.Task[None]] = []

    async def menu(ws: Any, card: str | None) -> None:
        # On the seat's socket, as the board asks when its socket is open.
        asked = time.perf_counter()
        try:
            answer = await seat.ask_menu(ws, card)
        except Exception:
            level.errors += 1
            return
        done = time.perf_counter()
        if "retry_after" in answer:
            level.throttled += 1
        elif "listed" not in answer:
            level.errors += 1
        elif start <= asked and done <= end:
            level.legal.latencies.append(done - asked)

    async with websockets.connect(ws_url, max_size=None) as ws:
        reader = asyncio.create_task(seat.read(ws))
        await ws.send(json.dumps({"hello": token, "after": 0}))
        while not seat.view:
            await asyncio.sleep(0.005)
        due = time.perf_counter() + rng.uniform(0, every)
        n = 0
        while due < end:
            act = seat.next_act()
            await asyncio.sleep(max(0.0, due - min(MENU_LEAD, every / 4) - time.perf_counter()))
            menus.append(asyncio.create_task(menu(ws, _card_of(act))))
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            n += 1
            seat.waiting = asyncio.get_running_loop().create_future()
            await ws.send(json.dumps({"act": act, "id": n, "after": seat.number}))
            answer = await seat.waiting
            done = time.perf_counter()
            if "refused" in answer:
                level.acts.refused += 1
            else:
                if start <= due and done <= end:
                    level.acts.latencies.append(done - due)
                while seat.number < answer["number"]:
                    await seat.event.wait()
                    seat.event.clear()
            due += every * rng.uniform(0.5, 1.5)
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader
        await asyncio.gather(*menus, return_exceptions=True)


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
    # Other driver processes take a moment to start: the level starts after it.
    lead = max(every, min(seconds, SECONDS) * WARMUP) + (DRIVER_START if drivers > 1 else 0.0)
    start_at = time.time() + lead
    parts = [
        _Part(url, created[i::drivers], start_at, seconds, every, seed * 1000 + i)
        for i in range(drivers)
    ]
    probes = []
    if echo_url is not None:
        start = time.perf_counter() + lead
        for i in range(ECHO_PROBES):
            probes.append(_echo_probe(echo_url, level, start, start + seconds, seed * 100 + i))
    if drivers == 1:
        done, _ = await asyncio.gather(_drive(parts[0]), asyncio.gather(*probes))
        level.merge(done)
        return level
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(drivers, mp_context=context) as pool:
        loop = asyncio.get_running_loop()
        runs = [loop.run_in_executor(pool, _drive_in_process, part) for part in parts]
        results, _ = await asyncio.gather(asyncio.gather(*runs), asyncio.gather(*probes))
    for done in results:
        level.merge(done)
    return level


@dataclass(frozen=True)
class _Part:
    """One driver's part of a level: its tables, and the level's clock
    (``start_at`` in wall-clock seconds, shared by the driver processes)."""

    url: str
    created: list[dict[str, Any]]
    start_at: float
    seconds: float
    every: float
    seed: int


async def _drive(part: _Part) -> Level:
    """Every seat of the part's tables acting on its own clock from the
    level's start for its time: one driver's share of a level."""
    level = Level(len(part.created))
    rng = random.Random(part.seed)
    start = time.perf_counter() + (part.start_at - time.time())
    end = start + part.seconds
    ws_base = part.url.replace("http://", "ws://")
    loops = []
    for table in part.created:
        for name, token in table["seats"].items():
            seat = _Seat(name, random.Random(rng.randrange(1 << 31)))
            ws_url = f"{ws_base}/api/tables/{table['table']}/ws"
            loops.append(_seat_loop(ws_url, token, seat, level, start, end, part.every))
    await asyncio.gather(*loops)
    return level


def _drive_in_process(part: _Part) -> Level:
    """:func:`_drive` in a driver process of its own."""
    return asyncio.run(_drive(part))


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
