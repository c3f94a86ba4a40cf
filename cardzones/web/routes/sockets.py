"""The WebSocket of the table protocol (``/api/tables/{table}/ws``,
docs/protocol.md): the checks before its handshake, its hello, and its frames,
read as they arrive and answered each in its seat's turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import deque
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardzones.table.json_text import dumps
from cardzones.table.limits import Limits, TooDeep, parse_json
from cardzones.web.live import Connection
from cardzones.web.rates import FrameRate, Rates
from cardzones.web.routes.socket_legal import answer_legal
from cardzones.web.server import (
    NOT_OPENED,
    Server,
    client_address,
    origin_allowed,
    seat_of_token,
    too_deep,
)
from cardzones.web.shared_rates import SharedBucket

#: The largest frame a client may send, in bytes (PROTOCOL: 65,536).
MAX_FRAME = 65_536
#: A connection that sends more than this many frames in any second is closed.
MAX_RATE = 100
#: Frames of a connection that may wait for their seat's turn.
READ_AHEAD = 32
#: Frames up to this many characters are parsed on the event loop (a few
#: microseconds); a longer one in a worker thread, so that the loop's time
#: per frame stays the same whatever a frame holds.
INLINE_FRAME = 2_048
#: How long a new WebSocket has to say hello, in seconds.
HELLO_TIMEOUT = 30.0

#: WebSocket close codes of the protocol.
BAD_FRAME, UNAUTHORIZED, BAD_ORIGIN, TOO_FAST = 4400, 4401, 4403, 4429
#: The close code of a socket over the server's or its seat's count (RFC 6455's
#: "try again later").
TOO_MANY = 1013

ACT_KEYS = frozenset({"act", "id", "after"})
SAY_KEYS = frozenset({"say", "id"})
HELLO_KEYS = frozenset({"hello", "after", "chat_after"})
#: What a frame after the welcome looks like, for the messages about bad ones.
FRAME_FORMS = (
    '{"act": ..., "id": ..., "after": N}, {"say": TEXT, "id": ...} or {"legal": {...}, "id": ...}'
)


class _Frames:
    """A connection's incoming frames, checked for size and rate."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.times: deque[float] = deque()

    async def next(self) -> str | bytes | None:
        """The next frame, its raw bytes when it is too large, or None when the
        client left."""
        message = await self.websocket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        now = time.monotonic()
        self.times.append(now)
        while self.times and now - self.times[0] >= 1.0:
            self.times.popleft()
        text = message.get("text")
        if text is None:
            data = message.get("bytes") or b""
            if len(data) > MAX_FRAME:
                return b"too large"
            try:
                return str(data.decode("utf-8"))
            except UnicodeDecodeError:
                return "\x00not utf-8"
        if len(text) > MAX_FRAME or len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME:
            return b"too large"
        return str(text)

    @property
    def too_fast(self) -> bool:
        return len(self.times) > MAX_RATE


async def _parse(frame: str | bytes, limits: Limits) -> tuple[dict[str, Any] | None, str | None]:
    """A frame as a JSON object, or the error to answer it with."""
    if isinstance(frame, bytes):
        return None, f"the frame is larger than {MAX_FRAME} bytes"
    try:
        if len(frame) <= INLINE_FRAME:
            data = parse_json(frame, limits.json_depth)
        else:
            data = await run_in_threadpool(parse_json, frame, limits.json_depth)
    except TooDeep:
        return None, too_deep(limits)
    except ValueError:
        return None, "the frame is not valid JSON"
    if not isinstance(data, dict):
        return None, "a frame is a JSON object"
    return data, None


async def _deny(websocket: WebSocket, message: str, limit: str, wait: float) -> None:
    """Turn a socket away before its handshake: HTTP 429 saying why, where the
    server can answer so (uvicorn can), or else a close before it opens."""
    with contextlib.suppress(Exception):
        if "websocket.http.response" in websocket.scope.get("extensions", {}):
            answer = JSONResponse(
                {"error": message, "limit": limit},
                status_code=429,
                headers={"Retry-After": str(max(1, math.ceil(wait)))},
            )
            await websocket.send_denial_response(answer)
        else:
            await websocket.close(code=TOO_MANY)


async def _refuse(websocket: WebSocket, message: str, code: int) -> None:
    # The client may be gone already; there is nobody left to tell.
    with contextlib.suppress(Exception):
        await websocket.send_text(dumps({"error": message}))
        await websocket.close(code=code)


async def table_socket(server: Server, websocket: WebSocket) -> None:
    if not origin_allowed(server, websocket):
        # Before the handshake: the browser gets 403 and the page no socket.
        await websocket.close(code=BAD_ORIGIN)
        return
    limits = server.limits
    # Each new socket costs a handshake and a look-up of its token: a client
    # that reconnects in a loop is turned away before either, with an HTTP
    # answer rather than a socket.
    address = client_address(websocket)
    wait = await server.socket_opens.turn(address, time.monotonic())
    if wait > 0:
        await _deny(
            websocket,
            f"more than {limits.sockets_per_minute} connections a minute from one address; "
            f"try again later (cardzones serve {Limits.option('sockets_per_minute')})",
            "sockets_per_minute",
            wait,
        )
        return
    if server.sockets >= limits.sockets:
        await _deny(
            websocket,
            f"the server has {limits.sockets} connections open; try again later "
            f"(cardzones serve {Limits.option('sockets')})",
            "sockets",
            5.0,
        )
        return
    if server.address_sockets[address] >= limits.address_sockets or not await server.hold(
        "address_sockets", address, limits.address_sockets
    ):
        # One address cannot hold the server's sockets (any process's): the
        # rest stay for the seats of everyone else.
        await _deny(
            websocket,
            f"{limits.address_sockets} connections are open from this address; close one "
            f"(cardzones serve {Limits.option('address_sockets')})",
            "address_sockets",
            5.0,
        )
        return
    server.sockets += 1
    server.address_sockets[address] += 1
    try:
        await websocket.accept()
        await _welcomed(server, websocket, address)
    finally:
        server.sockets -= 1
        server.address_sockets[address] -= 1
        if server.address_sockets[address] <= 0:
            del server.address_sockets[address]
            _let_go(server.address_rates.pop(address, None))
        server.release("address_sockets", address)


async def _welcomed(server: Server, websocket: WebSocket, address: str) -> None:
    """A socket from its hello to its end."""
    frames = _Frames(websocket)
    try:
        first = await asyncio.wait_for(frames.next(), HELLO_TIMEOUT)
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await websocket.close(code=BAD_FRAME)
        return
    if first is None:
        return
    hello, problem = await _parse(first, server.limits)
    if hello is not None:
        problem = _hello_problem(hello)
    if hello is None or problem is not None:
        await _refuse(websocket, problem or "the first frame is a hello", BAD_FRAME)
        return
    table_id = websocket.path_params["table_id"]
    seat = await seat_of_token(server, table_id, hello["hello"])
    live = await server.hub.open(table_id) if seat is not None else None
    if seat is None or live is None:
        await _refuse(websocket, NOT_OPENED, UNAUTHORIZED)
        return
    # A seat's connections are its player's; the spectator's link is shared
    # by everyone who has it, so each address gets the spectator's count.
    key = (table_id if seat.player is not None else f"{table_id} {address}", seat.player)
    limit = server.limits.seat_sockets
    held = f"{key[0]} {key[1]}"
    if server.seat_sockets.get(key, 0) >= limit or not await server.hold(
        "seat_sockets", held, limit
    ):
        await _refuse(
            websocket,
            f"this seat has {limit} connections open to the table; close one "
            f"(cardzones serve {Limits.option('seat_sockets')})",
            TOO_MANY,
        )
        return
    server.seat_sockets[key] = server.seat_sockets.get(key, 0) + 1
    # The seat's frames, and its client's: one client holding many seats
    # goes no faster than its address's rate.
    seat_rate = server.seat_rates.get(key)
    if seat_rate is None:
        seat_rate = server.frame_rate("seat_frames", held, server.limits.seat_frames)
        server.seat_rates[key] = seat_rate
    address_rate = server.address_rates.get(address)
    if address_rate is None:
        address_rate = server.frame_rate("address_frames", address, server.limits.address_frames)
        server.address_rates[address] = address_rate
    rate = Rates(seat_rate, address_rate)
    try:
        # A hello costs a welcome: it counts among the seat's frames, so that
        # a seat reconnecting in a loop goes no faster than one that acts.
        wait = await rate.turn(time.time())
        if wait > 0:
            await asyncio.sleep(wait)
        conn = Connection(websocket, seat.player)
        after, chat_after = int(hello.get("after", 0)), int(hello.get("chat_after", 0))
        await server.hub.join(live, conn, after, chat_after)
        sender = asyncio.create_task(conn.run_sender())
        # The seat's budget of menus drawn beside its first frames, not
        # in its first menu's way (LegalDesk.ready).
        # Not cancelled with the socket: a draw cut short would leave its
        # share drawn in the store and counted nowhere here.
        ahead = asyncio.create_task(server.legal.ready(live.table.id, seat.player))
        _AHEAD.add(ahead)
        ahead.add_done_callback(_AHEAD.discard)
        try:
            await _serve(server, live, conn, frames, sender, rate)
        finally:
            server.hub.leave(live, conn)
            if not sender.done():
                conn.close(1000)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(sender, 5.0)
                sender.cancel()
    finally:
        server.seat_sockets[key] -= 1
        if not server.seat_sockets[key]:
            del server.seat_sockets[key]
            _let_go(server.seat_rates.pop(key, None))
        server.release("seat_sockets", held)


#: The seats' budgets being drawn as they are welcomed, kept from the collector.
_AHEAD: set[asyncio.Task[None]] = set()


def _let_go(rate: FrameRate | None) -> None:
    """Give back what a rate shared across processes drew and did not use."""
    if isinstance(rate, SharedBucket):
        rate.give_back()


def _hello_problem(hello: dict[str, Any]) -> str | None:
    extra = sorted(set(hello) - HELLO_KEYS)
    if "hello" not in hello:
        return 'the first frame is {"hello": TOKEN, "after": N}'
    if extra:
        return f"unknown key(s) in the hello: {', '.join(map(repr, extra))}"
    token = hello["hello"]
    if not isinstance(token, str) or not token:
        return "hello: is the seat's token"
    after = hello.get("after", 0)
    if isinstance(after, bool) or not isinstance(after, int) or after < 0:
        return "after: is the last event number seen (0 or more)"
    chat_after = hello.get("chat_after", 0)
    if isinstance(chat_after, bool) or not isinstance(chat_after, int) or chat_after < 0:
        return "chat_after: is the number of the last chat line seen (0 or more)"
    return None


async def _serve(
    server: Server,
    live: Any,
    conn: Connection,
    frames: _Frames,
    sender: asyncio.Task[None],
    rate: Rates,
) -> None:
    ahead: asyncio.Queue[str | bytes | None] = asyncio.Queue()
    reader = asyncio.create_task(_read_ahead(frames, conn, ahead))
    try:
        await _handle(server, live, conn, sender, rate, ahead)
    finally:
        reader.cancel()


async def _read_ahead(
    frames: _Frames, conn: Connection, ahead: asyncio.Queue[str | bytes | None]
) -> None:
    """Read a connection's frames as they arrive, while earlier ones wait for
    their seat's turn: its rate is the rate it sends at (closed past
    :data:`MAX_RATE` a second), and at most :data:`READ_AHEAD` frames wait;
    one more is dropped with an error frame. None ends the queue."""
    try:
        while True:
            frame = await frames.next()
            if frame is None:
                break
            if frames.too_fast:
                conn.send(dumps({"error": f"more than {MAX_RATE} frames in a second"}))
                conn.close(TOO_FAST)
                break
            if ahead.qsize() >= READ_AHEAD:
                conn.send(
                    dumps(
                        {
                            "error": f"more than {READ_AHEAD} frames waiting for the seat's "
                            "turn; this one was dropped"
                        }
                    )
                )
                continue
            ahead.put_nowait(frame)
    except Exception:
        pass  # the client left: the end of its frames
    ahead.put_nowait(None)


def _label(conn: Connection, data: dict[str, Any]) -> tuple[bool, str | int | None]:
    """The client's label of a frame (``id``), and whether it is one: a text,
    a number or none. A frame with any other is refused here."""
    request = data.get("id")
    if request is not None and (isinstance(request, bool) or not isinstance(request, str | int)):
        conn.send(dumps({"refused": None, "error": "id: is a text or a number"}))
        return False, None
    return True, request


async def _handle(
    server: Server,
    live: Any,
    conn: Connection,
    sender: asyncio.Task[None],
    rate: Rates,
    ahead: asyncio.Queue[str | bytes | None],
) -> None:
    """Answer a connection's frames in order, each in its seat's turn."""
    while True:
        getter = asyncio.ensure_future(ahead.get())
        done, _ = await asyncio.wait({getter, sender}, return_when=asyncio.FIRST_COMPLETED)
        if getter not in done:
            getter.cancel()
            return  # the sender closed the connection
        frame = getter.result()
        if frame is None:
            return
        # The seat's frames, all its connections together: a frame over the
        # seat's rate waits its turn.
        wait = await rate.turn(time.time())
        if wait > 0:
            await asyncio.sleep(wait)
        data, problem = await _parse(frame, server.limits)
        if data is None:
            conn.send(dumps({"error": problem}))
            continue
        if "legal" in data:
            # A menu asked on the socket: its own module, beside the act path.
            labelled, request = _label(conn, data)
            if labelled:
                await answer_legal(server, live, conn, data, request)
            continue
        keys = SAY_KEYS if "say" in data else ACT_KEYS
        extra = sorted(set(data) - keys)
        if extra:
            conn.send(
                dumps(
                    {
                        "error": f"unknown key(s) {', '.join(map(repr, extra))}; a frame "
                        f"after the welcome is {FRAME_FORMS}"
                    }
                )
            )
            continue
        if "act" not in data and "say" not in data:
            conn.send(dumps({"error": f"a frame after the welcome is {FRAME_FORMS}"}))
            continue
        labelled, request = _label(conn, data)
        if not labelled:
            continue
        if "say" in data:
            if conn.viewer is None:
                conn.send(dumps({"refused": request, "error": "a spectator reads the chat only"}))
            else:
                await server.hub.say(live, conn, request, data["say"])
            continue
        after = data.get("after", 0)
        if isinstance(after, bool) or not isinstance(after, int) or after < 0:
            conn.send(dumps({"refused": request, "error": "after: is the last event number seen"}))
            continue
        if conn.viewer is None:
            conn.send(dumps({"refused": request, "error": "a spectator cannot act"}))
            continue
        await server.hub.act(live, conn, request, data["act"])
