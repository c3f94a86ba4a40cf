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
  say nothing.

Every part is bounded by the phase's time and talks only to the server on
127.0.0.1, from an address of its own on the loopback network (127.0.0.2),
as a stranger on the internet would. The server keeps its default limits. The
result is each figure under abuse as a ratio to the same figure alone; the
server's limits (docs/table.md, Limits) aim to keep both ratios at 2 or below.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from cardzones.bench.position import GAME
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
#: Time the abuser has to open its sockets before the measured phase.
RAMP = 2.0


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
                opened.append(await websockets.connect(url, local_addr=(ABUSER, 0)))
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
        answer = await client.post("/api/tables", content=body, headers=headers)
        key = f"create_{answer.status_code}"
        tally[key] = tally.get(key, 0) + 1


async def _legal_loop(
    client: httpx.AsyncClient, table: str, token: str, until: float, tally: dict[str, int]
) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    while time.monotonic() < until:
        answer = await client.get(f"/api/tables/{table}/legal", headers=headers)
        key = f"legal_{answer.status_code}"
        tally[key] = tally.get(key, 0) + 1


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
PARTS = ("creates", "legal", "flood", "idle")


async def _abuse(
    url: str, seconds: float, idle: int, parts: tuple[str, ...], ready: Any
) -> dict[str, int]:
    tally: dict[str, int] = {}
    until = time.monotonic() + seconds
    ws_base = url.replace("http://", "ws://")
    transport = httpx.AsyncHTTPTransport(local_address=ABUSER)
    async with httpx.AsyncClient(base_url=url, timeout=60.0, transport=transport) as client:
        answer = await client.post(
            "/api/tables",
            json={"ruleset": GAME, "setup": {"alice.deck": ["A"] * 40, "bob.deck": ["B"] * 40}},
        )
        answer.raise_for_status()
        own = answer.json()
        table, seats = own["table"], own["seats"]
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
        await asyncio.gather(*work)
    return tally


def _abuser(
    url: str, seconds: float, idle: int, parts: tuple[str, ...], ready: Any, results: Any
) -> None:
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
