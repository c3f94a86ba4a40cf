"""``cardzones bench --table``: many tables at once over loopback, against two
floors measured in the same run.

- **The table.** A table server (the app of ``cardzones serve``, on uvicorn, in
  a process of its own on 127.0.0.1) with ``tables`` tables. Each table has
  two seat connections, and each seat plays a seeded stream of legal acts: it
  draws, discards, puts its graveyard back under its deck, and ends its turn
  when the turn is its own, each act chosen by the table's own random
  generator from what the seat's view allows. A seat sends one act, waits for
  its ack, and sends the next. Measured: acts acknowledged per second (every
  seat of every table together) and the act-to-ack latency, p50 and p99.
- **The echo floor.** The same number of WebSockets to a bare echo endpoint
  through the same stack (Starlette on uvicorn, in its own process), each
  sending frames of the same size and waiting for each echo: frames per
  second and round-trip latency. It is what the network stack alone costs.
- **The store floor.** A bare insert-and-commit of an act row into the same
  store (SQLite with WAL and full syncs, or Postgres), one after another:
  commits per second and latency. It is what the durability alone costs.
- **Grouped appends.** As many threads as tables, each appending the acts of
  a table of its own through the store at once: the acts that arrive while a
  commit runs share the next one (group commit), so acts per second over
  the floor's commits per second (``grouped_per_commit``) is what grouping
  gains over one commit an act. The same threads committing each act on its
  own (``concurrent_commits``) are what the store did before.

Every phase runs for a bounded time (``seconds``), after a short warm-up, and
the figures are reported with their ratios to the floors.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import multiprocessing
import os
import random
import socket
import statistics
import time
from collections.abc import Awaitable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx

from cardzones.bench.cpu import CpuWindow
from cardzones.bench.position import GAME
from cardzones.bench.seat import MenuMaker, _menu_maker, _Seat
from cardzones.rulesets.fab.bench import TABLE_CARDS, table_setup

#: How many tables, and how long each phase runs, by default and in a quick run.
TABLES, SECONDS = 32, 8.0
QUICK_TABLES, QUICK_SECONDS = 4, 0.8
#: A warm-up before each measured phase, in seconds (a fraction of the phase).
WARMUP = 0.25
#: The cards of each seat's deck in a benchmark table.
DECK = 40
#: Tables the benchmark's one client address may create a minute on its server.
BENCH_CREATES_PER_MINUTE = 100_000

#: The frames a second each seat of the benchmark's own tables may send.
BENCH_SEAT_FRAMES = 100_000

#: The process of each server this module started, by its address (for its
#: CPU time: :mod:`cardzones.bench.cpu`).
SERVER_PIDS: dict[str, int] = {}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# ----------------------------------------------------------------------
# The servers, each in a process of its own
# ----------------------------------------------------------------------


def echo_app() -> Any:
    """A bare WebSocket echo through the same stack as the table server."""
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                await websocket.send_text(await websocket.receive_text())

    return Starlette(routes=[WebSocketRoute("/echo", echo)])


def _serve(kind: str, db: str, port: int, tables: int | None) -> None:
    import uvicorn

    from cardzones.table.limits import Limits
    from cardzones.web.app import create_app
    from cardzones.web.collector import for_serving

    # Every client of the benchmark has the one address 127.0.0.1. Its own
    # tables and seats are not strangers: with ``tables`` None the limits
    # per address are lifted; with a number, they are the defaults plus
    # that many tables and their seats, so that the rest of the address (the
    # abuser) has only the defaults.
    default = Limits()
    own = BENCH_CREATES_PER_MINUTE if tables is None else tables
    limits = Limits(
        creates_per_minute=default.creates_per_minute + own,
        sockets_per_minute=default.sockets_per_minute + 2 * own,
        address_connections=default.address_connections + 4 * own,
        address_sockets=default.address_sockets + 2 * own,
        address_frames=default.address_frames + 2 * default.seat_frames * own,
        # the ladder's top level has 1,000 tables: 2,000 seats at once
        sockets=max(default.sockets, 2 * own + 100),
        # A closed loop's seat sends as fast as it is answered, an act and
        # its menu each a frame: at a seat's default rate the loop would
        # measure the rate, not the server.
        seat_frames=default.seat_frames if tables is not None else BENCH_SEAT_FRAMES,
    )
    # As ``cardzones serve`` runs it: the same protocol and limits on each
    # connection, and no proxy believed.
    os.environ["CARDZONES_LIMITS"] = limits.to_env()
    from cardzones.web.slow import DeadlineProtocol, DenyingWebSockets

    app = echo_app() if kind == "echo" else create_app(db, limits=limits)
    if tables is None and kind != "echo":
        app.state.server.legal.per_person = False
    if kind != "echo":
        for_serving()  # as cardzones serve sets its collector
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="error",
        http=DeadlineProtocol,
        ws=DenyingWebSockets,
        proxy_headers=False,
    )


@contextlib.contextmanager
def _server(kind: str, db: str = "", tables: int | None = None) -> Iterator[str]:
    """A server process on 127.0.0.1; yields its address; stops it after."""
    port = _free_port()
    context = multiprocessing.get_context("spawn")
    process = context.Process(target=_serve, args=(kind, db, port, tables), daemon=True)
    process.start()
    url = f"http://127.0.0.1:{port}"
    if process.pid is not None:
        SERVER_PIDS[url] = process.pid
    try:
        deadline = time.monotonic() + 30
        while True:
            if not process.is_alive():
                raise RuntimeError(f"the {kind} server stopped at start")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the {kind} server did not start") from None
                time.sleep(0.05)
        yield url
    finally:
        SERVER_PIDS.pop(url, None)
        process.terminate()
        process.join(10)
        if process.is_alive():
            process.kill()
            process.join(5)


# ----------------------------------------------------------------------
# Measurements
# ----------------------------------------------------------------------


@dataclass
class Sample:
    """Latencies of the requests completed inside the measured window."""

    latencies: list[float] = field(default_factory=list)
    refused: int = 0
    #: menus (legal-act requests) answered inside the window
    menus: int = 0
    #: the CPU time the servers used in the window (:mod:`cardzones.bench.cpu`)
    cpu: CpuWindow = field(default_factory=lambda: CpuWindow(None))

    def figures(self, seconds: float, unit: str) -> dict[str, Any]:
        ordered = sorted(self.latencies)
        count = len(ordered)
        return {
            f"{unit}_per_s": round(count / seconds, 1),
            "count": count,
            "p50_ms": round(_quantile(ordered, 0.50) * 1000, 3),
            "p99_ms": round(_quantile(ordered, 0.99) * 1000, 3),
            "mean_ms": round(statistics.fmean(ordered) * 1000, 3) if ordered else 0.0,
        }


def _quantile(ordered: list[float], q: float) -> float:
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class _Window:
    """The measured window: requests that complete inside it are counted."""

    def __init__(self, warmup: float, seconds: float) -> None:
        now = time.perf_counter()
        self.start = now + warmup
        self.end = self.start + seconds

    def count(self, started: float, done: float) -> bool:
        return self.start <= started and done <= self.end

    @property
    def over(self) -> bool:
        return time.perf_counter() >= self.end


# ----------------------------------------------------------------------
# The table
# ----------------------------------------------------------------------


def table_body(seed: int) -> dict[str, Any]:
    """A benchmark table: the game's table of look-alike cards, a deck of
    :data:`DECK` each (:func:`~cardzones.rulesets.fab.bench.table_setup`)."""
    setup: dict[str, Any] = {}
    for player in ("alice", "bob"):
        setup.update(table_setup(player, DECK))
    return {"ruleset": GAME, "seed": seed, "cards": copy.deepcopy(TABLE_CARDS), "setup": setup}


async def _play(
    ws_url: str,
    token: str,
    seat: _Seat,
    window: _Window,
    sample: Sample,
    make_menu: MenuMaker | None = None,
) -> None:
    import websockets

    async with websockets.connect(ws_url, max_size=None) as ws:
        menu = None if make_menu is None else make_menu(ws, seat)
        reader = asyncio.create_task(seat.read(ws))
        seat.waiting = asyncio.get_running_loop().create_future()
        await ws.send(json.dumps({"hello": token, "after": 0}))
        while not seat.view:
            await asyncio.sleep(0.005)
        n = 0
        while not window.over:
            n += 1
            seat.waiting = asyncio.get_running_loop().create_future()
            act = seat.next_act()
            if menu is not None:
                # as the board does: the menu on the card first, then the act
                asked = time.perf_counter()
                await menu(_card_of(act))
                if window.count(asked, time.perf_counter()):
                    sample.menus += 1
            frame = {"act": act, "id": n, "after": seat.number}
            started = time.perf_counter()
            await seat.send(ws, frame)
            answer = await seat.waiting
            done = time.perf_counter()
            if "refused" in answer:
                sample.refused += 1
                continue
            if window.count(started, done):
                sample.latencies.append(done - started)
            # The act's event follows its ack: the next act is chosen from the
            # view after it.
            while seat.number < answer["number"]:
                await seat.event.wait()
                seat.event.clear()
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader


async def _create_tables(url: str, tables: int, rng: random.Random) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(base_url=url, timeout=30.0) as client:
        created = []
        for _ in range(tables):
            answer = await client.post("/api/tables", json=table_body(rng.randrange(1 << 31)))
            answer.raise_for_status()
            created.append(answer.json())
    return created


def _card_of(act: dict[str, Any]) -> str | None:
    """The card an act names (None: an act on no card, as ending the turn)."""
    (args,) = act.values()
    card = args.get("card") if isinstance(args, dict) else None
    return card if isinstance(card, str) else None


async def _tables_phase(
    url: str,
    tables: int,
    seconds: float,
    seed: int,
    menus: str | None = None,
    more: tuple[str, ...] = (),
    by_table: bool = False,
) -> Sample:
    """``tables`` new tables played for ``seconds`` (see :func:`_play_tables`)."""
    rng = random.Random(seed)
    created = await _create_tables(url, tables, rng)
    return await _play_tables(url, created, seconds, rng, menus, more, by_table)


async def _play_tables(
    url: str,
    created: list[dict[str, Any]],
    seconds: float,
    rng: random.Random,
    menus: str | None = None,
    more: tuple[str, ...] = (),
    by_table: bool = False,
) -> Sample:
    """Every seat of the tables ``created`` plays for ``seconds`` after a
    warm-up, asking its menu on the card before each act with ``menus``
    (one of :data:`MENU_WAYS`: on its socket, or over HTTP). With
    ``more`` servers of the same store, the seats are spread over them all in
    turn, so that the two seats of a table are on two processes; with
    ``by_table``, the tables are, each with both its seats on one process."""
    sample = Sample()
    window = _Window(seconds * WARMUP, seconds)
    servers = (url, *more)
    pids = [SERVER_PIDS.get(u) for u in servers]
    windows = [CpuWindow(pid) for pid in pids]
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    clients = [httpx.AsyncClient(base_url=u, timeout=60.0, limits=limits) for u in servers]
    players: list[Awaitable[None]] = []
    for n, table in enumerate(created):
        for name, token in table["seats"].items():
            i = (n if by_table else len(players)) % len(servers)
            seat = _Seat(name, random.Random(rng.randrange(1 << 31)))
            ws_url = f"{servers[i].replace('http://', 'ws://')}/api/tables/{table['table']}/ws"
            menu = _menu_maker(menus, clients[i], table["table"], token)
            players.append(_play(ws_url, token, seat, window, sample, menu))
    try:
        await asyncio.gather(*players, *(w.watch(window.start, window.end) for w in windows))
    finally:
        for client in clients:
            await client.aclose()
    used = [w.used for w in windows]
    sample.cpu = CpuWindow(pids[0], None if None in used else sum(u or 0.0 for u in used))
    return sample


async def _echo_phase(url: str, connections: int, seconds: float) -> Sample:
    import websockets

    sample = Sample()
    window = _Window(seconds * WARMUP, seconds)
    # A frame the size of a seat's act.
    text = json.dumps(
        {"act": {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}, "id": 1, "after": 10}
    )

    async def one() -> None:
        async with websockets.connect(url.replace("http://", "ws://") + "/echo") as ws:
            while not window.over:
                started = time.perf_counter()
                await ws.send(text)
                await ws.recv()
                done = time.perf_counter()
                if window.count(started, done):
                    sample.latencies.append(done - started)

    sample.cpu = CpuWindow(SERVER_PIDS.get(url))
    await asyncio.gather(
        *(one() for _ in range(connections)), sample.cpu.watch(window.start, window.end)
    )
    return sample


def _store_phase(db: str, seconds: float) -> Sample:
    """Bare inserts of an act row, each committed on its own, into the store."""
    from cardzones.table.creation import Creation
    from cardzones.table.schema import actions
    from cardzones.table.store import Store

    store = Store(db)
    store.migrate()
    table_id = f"bench-floor-{random.randrange(1 << 40):x}"
    store.create_table(table_id, Creation(GAME, ("alice", "bob"), 0, {}, {}), {}, "0" * 64)
    act = json.dumps({"move": {"card": "#17", "to": "alice.hand", "by": "alice"}})
    sample = Sample()
    window = _Window(seconds * WARMUP, seconds)
    number = 0
    try:
        while not window.over:
            number += 1
            started = time.perf_counter()
            with store.engine.begin() as conn:
                conn.execute(
                    actions.insert().values(
                        table_id=table_id, number=number, seat="alice", at=time.time(), act=act
                    )
                )
            done = time.perf_counter()
            if window.count(started, done):
                sample.latencies.append(done - started)
    finally:
        store.close()
    return sample


# ----------------------------------------------------------------------
# The run
# ----------------------------------------------------------------------


def _grouped_phase(db: str, writers: int, seconds: float, together: bool = True) -> Sample:
    """``writers`` threads, each appending the acts of a table of its own
    through the store (:meth:`Store.append`), at once: the acts that arrive
    while a commit runs share the next one (group commit). Without
    ``together``, each act is written and committed on its own, as before
    group commit (:meth:`Store.write_together` with one row). Latency is each
    append's, to its commit."""
    import threading

    from cardzones.table.creation import Creation
    from cardzones.table.store import Store

    store = Store(db)
    store.migrate()
    act = {"move": {"card": "#17", "to": "alice.hand", "by": "alice"}}
    ids = [f"bench-group-{random.randrange(1 << 40):x}" for _ in range(writers)]
    for table_id in ids:
        store.create_table(table_id, Creation(GAME, ("alice", "bob"), 0, {}, {}), {}, "0" * 64)
    sample = Sample()
    window = _Window(seconds * WARMUP, seconds)
    lock = threading.Lock()

    def write(table_id: str) -> None:
        number = 0
        while not window.over:
            number += 1
            started = time.perf_counter()
            if together:
                store.append(table_id, number, "alice", act)
            else:
                row = {"table_id": table_id, "number": number, "seat": "alice"}
                row.update(at=time.time(), act=json.dumps(act))
                (error,) = store.write_together([row])
                if error is not None:
                    raise error
            done = time.perf_counter()
            if window.count(started, done):
                with lock:
                    sample.latencies.append(done - started)

    threads = [threading.Thread(target=write, args=(t,)) for t in ids]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        store.close()
    return sample


def _ratio(a: float, b: float) -> float:
    return round(a / b, 3) if b else 0.0
