"""``cardzones bench --table --abuse``: what one abusive client costs the other
tables of a server.

A table server (as :mod:`cardzones.bench.table` runs it, on 127.0.0.1 and a
store of its own) serves a few tables whose seats play as in the table
benchmark. Their act-to-ack latency is measured twice on the same server:
alone, then while an abuser, in a process of its own, does at once, for the
whole phase:

- **big creates**: tables at the limit on a zone's cards, bodies of 60,000
  cards and bodies over the limit on bytes, one after another;
- **/legal loops**: four loops asking a table of its own for its seats'
  legal acts, each asking again as soon as it is answered;
- **a flood of frames**: thirty connections to one seat of its table, each
  sending acts as fast as the socket takes them, opening a new connection
  whenever one is closed;
- **idle sockets**: ``idle`` WebSockets (1,000 by default) that open and
  say nothing;
- **depth-check frames**: frames of 64 KB of escaped quotes, as a first
  frame from a stranger and after a hello, as fast as the server reads them;
- **big strings**: acts with 60 KB keywords (refused by the parameter's
  bound) and keywords at the bound (stored, until the table's bytes are
  spent);
- **/legal at a large table**: a seat with a thousand public cards in its
  pitch zone asking for its legal acts as soon as it is answered;
- **many seats, one client**: every seat of an eight-player table and its
  spectator link asking for their legal acts at once;
- **half-sent requests**: ``HALF_SENT`` connections that each send half a
  request's headers, and connect again as soon as one is closed;
- **spoofed forwarding**: creates with a new ``X-Forwarded-For`` each.

Every part is bounded by the phase's time and talks only to the server on
127.0.0.1, from an address of its own on the loopback network (127.0.0.2),
as a stranger on the internet would (the parts listed in ``PART_ADDRESSES``
from addresses of their own, so that each meets its own limits). The server
keeps its default limits. The
result is each figure under abuse as a ratio to the same figure alone; the
server's limits (docs/table.md, Limits) aim to keep both ratios at 2 or below.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

from cardzones.bench.position import GAME, public_setup
from cardzones.bench.table import (
    QUICK_SECONDS,
    SECONDS,
    WARMUP,
    Sample,
    _create_tables,
    _play_tables,
    _ratio,
    _server,
)

#: Victim tables, and idle sockets, by default and in a quick run.
TABLES, QUICK_TABLES = 4, 2
IDLE, QUICK_IDLE = 1_000, 200
#: Connections the flood opens to one seat (the server allows a few).
FLOOD_SOCKETS = 30
#: Seconds a flooding connection waits before it connects again, as a client
#: library would: a loop of connection attempts without pause is a flood of
#: HTTP requests, which a reverse proxy limits (docs/table.md, Limits).
RECONNECT = 1.0
#: Loops asking for legal acts at once.
LEGAL_LOOPS = 4
#: The abuser's own address, another on the loopback network: to the server
#: it is a stranger apart from the other tables' players (Linux answers on
#: all of 127.0.0.0/8).
ABUSER = "127.0.0.2"
#: The parts that come from addresses of their own (the rest share
#: :data:`ABUSER`), so that each meets its own limits: one part holding every
#: connection its address may open would hide what the others cost.
PART_ADDRESSES = {
    "idle": "127.0.0.3",
    "depth": "127.0.0.4",
    "strings": "127.0.0.5",
    "large_legal": "127.0.0.6",
    "seats": "127.0.0.7",
    "half_sent": "127.0.0.8",
    "spoofed": "127.0.0.9",
}
#: Time the abuser has to open its sockets before the measured phase.
RAMP = 2.0
#: Connections holding half a request each, and the public cards of the
#: large table whose legal acts are asked for.
HALF_SENT, LARGE_TABLE = 300, 1_000
#: 64 KB of escaped quotes, as a JSON array.
QUOTES = '["' + '\\"' * 32_000 + '"]'


def _count(tally: dict[str, int], key: str) -> None:
    tally[key] = tally.get(key, 0) + 1


async def _asked(request: Any) -> str:
    """The status of a request's answer, or ``dropped`` when the server
    closed the connection first (as it does past the connections an address
    may hold), after a short pause."""
    try:
        answer = await request
    except httpx.HTTPError:
        await asyncio.sleep(0.05)
        return "dropped"
    return str(answer.status_code)


@contextlib.asynccontextmanager
async def _socket(url: str, part: str, token: str | None = None) -> AsyncIterator[Any]:
    """A WebSocket from the address of the abuser's ``part``, taking frames
    of any size; with ``token``, seated: its hello sent and its welcome read."""
    import websockets

    async with websockets.connect(url, local_addr=(PART_ADDRESSES[part], 0), max_size=None) as ws:
        if token is not None:
            await ws.send(json.dumps({"hello": token}))
            await ws.recv()
        yield ws


async def _depth_frames(
    ws_base: str, table: str, token: str, until: float, tally: dict[str, int]
) -> None:
    """Frames of escaped quotes: first frames from a stranger, then after a
    hello, each waiting for its answer."""
    url = f"{ws_base}/api/tables/{table}/ws"
    while time.monotonic() < until:
        try:
            async with _socket(url, "depth") as ws:
                await ws.send(QUOTES)
                await ws.recv()
                _count(tally, "depth_first_frames")
            async with _socket(url, "depth", token) as ws:
                while time.monotonic() < until:
                    await ws.send(QUOTES)
                    while "error" not in json.loads(await ws.recv()):
                        pass
                    _count(tally, "depth_frames")
        except Exception:
            _count(tally, "depth_closed")
            await asyncio.sleep(RECONNECT)


async def _big_strings(
    ws_base: str, table: str, token: str, until: float, tally: dict[str, int]
) -> None:
    """Acts with keywords far over their bound, and at it."""
    url = f"{ws_base}/api/tables/{table}/ws"
    steps = [
        {"grant": {"card": "bob.deck[0]", "keyword": "k" * 60_000}},
        {"grant": {"card": "bob.deck[0]", "keyword": "k" * 64}},
    ]
    i = 0
    while time.monotonic() < until:
        try:
            async with _socket(url, "strings", token) as ws:
                while time.monotonic() < until:
                    i += 1
                    await ws.send(json.dumps({"act": steps[i % 2], "id": i}))
                    while True:
                        frame = json.loads(await ws.recv())
                        if "ack" in frame or "refused" in frame or "error" in frame:
                            break
                    _count(tally, "strings_" + next(iter(frame)))
        except Exception:
            _count(tally, "strings_closed")
            await asyncio.sleep(RECONNECT)


async def _half_sent(port: int, until: float, tally: dict[str, int]) -> None:
    """One connection at a time that sends half a request's headers and
    waits; connects again as soon as the server closes it."""
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(PART_ADDRESSES["half_sent"], 0)
            )
        except OSError:
            _count(tally, "half_sent_refused")
            await asyncio.sleep(0.1)
            continue
        try:
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nX-Half: ")
            first = await asyncio.wait_for(reader.read(64), max(0.01, until - time.monotonic()))
            _count(tally, "half_sent_429" if first.startswith(b"HTTP/1.1 429") else "half_sent")
        except (TimeoutError, OSError):
            pass
        finally:
            writer.close()
        await asyncio.sleep(0.01)


async def _spoofed(client: httpx.AsyncClient, until: float, tally: dict[str, int]) -> None:
    """Creates, each with another X-Forwarded-For, as fast as answered."""
    body = {"ruleset": GAME, "setup": {"alice.deck": ["A"] * 10}}
    i = 0
    while time.monotonic() < until:
        i += 1
        forwarded = {"X-Forwarded-For": f"198.51.100.{i % 250}"}
        answer = await _asked(client.post("/api/tables", json=body, headers=forwarded))
        _count(tally, f"spoofed_{answer}")


async def _idle_sockets(
    ws_base: str, table: str, count: int, until: float, tally: dict[str, int]
) -> None:
    import websockets

    opened: list[Any] = []
    try:
        for _ in range(count):
            if time.monotonic() >= until:
                break
            try:
                url = f"{ws_base}/api/tables/{table}/ws"
                opened.append(await websockets.connect(url, local_addr=(PART_ADDRESSES["idle"], 0)))
                tally["idle_open"] = tally.get("idle_open", 0) + 1
            except Exception:
                tally["idle_refused"] = tally.get("idle_refused", 0) + 1
        await asyncio.sleep(max(0.0, until - time.monotonic()))
    finally:
        for ws in opened:
            with contextlib.suppress(Exception):
                await ws.close()


async def _creates(client: httpx.AsyncClient, until: float, tally: dict[str, int]) -> None:
    at_limit = {"ruleset": GAME, "setup": {"alice.deck": ["Abuse"] * 1_000}}
    huge = {"ruleset": GAME, "setup": {"alice.deck": ["A"] * 60_000}}
    over_bytes = b'{"ruleset": "%s", "seed": 1' % GAME.encode() + b" " * 1_100_000 + b"}"
    bodies = [json.dumps(at_limit).encode(), json.dumps(huge).encode(), over_bytes]
    headers = {"Content-Type": "application/json"}
    i = 0
    while time.monotonic() < until:
        body = bodies[i % len(bodies)]
        i += 1
        answer = await _asked(client.post("/api/tables", content=body, headers=headers))
        _count(tally, f"create_{answer}")


async def _legal_loop(
    client: httpx.AsyncClient,
    table: str,
    token: str,
    until: float,
    tally: dict[str, int],
    name: str = "legal",
) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    while time.monotonic() < until:
        answer = await _asked(client.get(f"/api/tables/{table}/legal", headers=headers))
        _count(tally, f"{name}_{answer}")


async def _flood(ws_base: str, table: str, token: str, until: float, tally: dict[str, int]) -> None:
    import websockets

    act = json.dumps({"act": {"shuffle": {"zone": "alice.deck"}}, "id": 0})
    while time.monotonic() < until:
        try:
            url = f"{ws_base}/api/tables/{table}/ws"
            async with websockets.connect(url, local_addr=(ABUSER, 0)) as ws:
                await ws.send(json.dumps({"hello": token}))

                async def drain() -> None:
                    async for _ in ws:
                        pass

                reader = asyncio.create_task(drain())
                try:
                    while time.monotonic() < until and not reader.done():
                        await ws.send(act)
                        tally["flood_frames"] = tally.get("flood_frames", 0) + 1
                        await asyncio.sleep(0)
                finally:
                    reader.cancel()
        except Exception:
            pass
        tally["flood_connections"] = tally.get("flood_connections", 0) + 1
        await asyncio.sleep(RECONNECT)


#: The parts of the abuse, each of which a run may leave out.
PARTS = (
    "creates",
    "legal",
    "flood",
    "idle",
    "depth",
    "strings",
    "large_legal",
    "seats",
    "half_sent",
    "spoofed",
)


async def _abuse(
    url: str, seconds: float, idle: int, parts: tuple[str, ...], ready: Any
) -> dict[str, int]:
    tally: dict[str, int] = {}
    until = time.monotonic() + seconds
    ws_base = url.replace("http://", "ws://")
    transport = httpx.AsyncHTTPTransport(local_address=ABUSER)
    others = {
        part: httpx.AsyncClient(
            base_url=url,
            timeout=60.0,
            transport=httpx.AsyncHTTPTransport(local_address=PART_ADDRESSES[part]),
        )
        for part in ("large_legal", "seats", "spoofed")
    }
    async with httpx.AsyncClient(base_url=url, timeout=60.0, transport=transport) as client:
        answer = await client.post(
            "/api/tables",
            json={"ruleset": GAME, "setup": {"alice.deck": ["A"] * 40, "bob.deck": ["B"] * 40}},
        )
        answer.raise_for_status()
        own = answer.json()
        table, seats = own["table"], own["seats"]
        large = await client.post(
            "/api/tables",
            json={
                "ruleset": GAME,
                "setup": {**public_setup("alice", LARGE_TABLE), "bob.deck": ["B"] * 40},
            },
        )
        large.raise_for_status()
        players = [f"p{i}" for i in range(8)]
        crowd = await client.post(
            "/api/tables",
            json={"ruleset": GAME, "players": players, "setup": {"p0.deck": ["A"] * 40}},
        )
        crowd.raise_for_status()
        idle_task = asyncio.create_task(
            _idle_sockets(ws_base, table, idle if "idle" in parts else 0, until, tally)
        )
        await asyncio.sleep(min(RAMP, seconds / 4))
        ready.set()
        work = [idle_task]
        if "creates" in parts:
            work.append(asyncio.create_task(_creates(client, until, tally)))
        if "legal" in parts:
            for i in range(LEGAL_LOOPS):
                token = seats[("alice", "bob")[i % 2]]
                work.append(asyncio.create_task(_legal_loop(client, table, token, until, tally)))
        if "flood" in parts:
            for _ in range(FLOOD_SOCKETS):
                work.append(
                    asyncio.create_task(_flood(ws_base, table, seats["alice"], until, tally))
                )
        if "depth" in parts:
            for _ in range(4):
                work.append(
                    asyncio.create_task(_depth_frames(ws_base, table, seats["bob"], until, tally))
                )
        if "strings" in parts:
            work.append(
                asyncio.create_task(_big_strings(ws_base, table, seats["bob"], until, tally))
            )
        if "large_legal" in parts:
            token = large.json()["seats"]["alice"]
            for _ in range(LEGAL_LOOPS):
                work.append(
                    asyncio.create_task(
                        _legal_loop(
                            others["large_legal"],
                            large.json()["table"],
                            token,
                            until,
                            tally,
                            "large_legal",
                        )
                    )
                )
        if "seats" in parts:
            held = crowd.json()
            for token in [*held["seats"].values(), held["spectator"]]:
                work.append(
                    asyncio.create_task(
                        _legal_loop(
                            others["seats"], held["table"], token, until, tally, "seats_legal"
                        )
                    )
                )
        if "half_sent" in parts:
            port = int(url.rsplit(":", 1)[1])
            for _ in range(HALF_SENT):
                work.append(asyncio.create_task(_half_sent(port, until, tally)))
        if "spoofed" in parts:
            work.append(asyncio.create_task(_spoofed(others["spoofed"], until, tally)))
        await asyncio.gather(*work)
        for other in others.values():
            await other.aclose()
    return tally


def _abuser(
    url: str, seconds: float, idle: int, parts: tuple[str, ...], ready: Any, results: Any
) -> None:
    # The abuser's own work (tens of thousands of frames and connections a
    # second) is a stranger's elsewhere: on the bench's machine it runs after
    # the server and the other tables' players, so that it is the server's
    # cost of the abuse that is measured, not the abuser's.
    with contextlib.suppress(OSError, AttributeError):
        os.nice(19)
    results.put(asyncio.run(_abuse(url, seconds, idle, parts, ready)))


def run_abuse_bench(
    db: str | None = None,
    tables: int | None = None,
    seconds: float | None = None,
    quick: bool = False,
    idle: int | None = None,
    seed: int = 1,
    parts: tuple[str, ...] = PARTS,
) -> dict[str, Any]:
    """The victims' act-to-ack latency alone and under abuse (``parts`` of
    it), on one server."""
    tables = tables or (QUICK_TABLES if quick else TABLES)
    seconds = seconds or (max(2.0, QUICK_SECONDS) if quick else SECONDS)
    idle = QUICK_IDLE if quick and idle is None else (IDLE if idle is None else idle)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="cardzones-abuse-") as folder:
        store_db = db or str(Path(folder) / "bench.sqlite3")
        from cardzones.table.store import Store

        kind = "postgres" if Store(store_db).postgres else "sqlite"
        # The server's default limits: the other tables' players (127.0.0.1)
        # are well within them, and the abuser (127.0.0.2) meets them.
        with _server("table", store_db, 0) as url:
            # Both phases' tables first: the abuser's creates take the rest of
            # this address's tables a minute.
            quiet_tables = asyncio.run(_create_tables(url, tables, rng))
            abused_tables = asyncio.run(_create_tables(url, tables, rng))
            quiet = asyncio.run(_play_tables(url, quiet_tables, seconds, rng))
            context = multiprocessing.get_context("spawn")
            ready, results = context.Event(), context.Queue()
            length = RAMP + seconds * (1 + WARMUP) + 3.0
            abuser = context.Process(
                target=_abuser, args=(url, length, idle, parts, ready, results), daemon=True
            )
            abuser.start()
            try:
                ready.wait(60)
                abused = asyncio.run(_play_tables(url, abused_tables, seconds, rng))
                tally = results.get(timeout=length + 60)
            finally:
                abuser.join(10)
                if abuser.is_alive():
                    abuser.kill()
    alone = quiet.figures(seconds, "acts")
    under = abused.figures(seconds, "acts")
    alone["refused"], under["refused"] = quiet.refused, abused.refused
    return {
        "store": kind,
        "tables": tables,
        "connections": tables * 2,
        "seconds": seconds,
        "idle_sockets": idle if "idle" in parts else 0,
        "parts": list(parts),
        "alone": alone,
        "abused": under,
        "abuser": dict(sorted(tally.items())),
        "ratios": {
            "p50": _ratio(under["p50_ms"], alone["p50_ms"]),
            "p99": _ratio(under["p99_ms"], alone["p99_ms"]),
            "acts_per_s": _ratio(under["acts_per_s"], alone["acts_per_s"]),
        },
    }


__all__ = ["Sample", "run_abuse_bench"]
