"""The table server: the HTTP API and the WebSocket of the table protocol
(docs/protocol.md), as a Starlette app.

>>> from starlette.testclient import TestClient
>>> app = create_app("sqlite://")
>>> with TestClient(app) as client:
...     answer = client.post("/api/tables", json={"ruleset": "fab", "setup": {"alice.hand": ["A"]}})
...     token = answer.json()["seats"]["alice"]
...     view = client.get(f"/api/tables/{answer.json()['table']}/view",
...                       headers={"Authorization": f"Bearer {token}"})
>>> answer.status_code, view.json()["number"]
(201, 0)

The server knows who is asking from the token alone: a seat token opens that
seat's view, the spectator token the public view, and nothing else a client
says changes that.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardzones.rulesets import get_ruleset, ruleset_names
from cardzones.table.acts import Refusal
from cardzones.table.creation import CreationError, creation_from_request
from cardzones.table.deck_lists import deck_list_games
from cardzones.table.export import ExportError, replay_steps
from cardzones.table.finish import AGREE, VOTES, FinishRefused
from cardzones.table.host import Host
from cardzones.table.limits import Limits, nesting_over
from cardzones.table.store import DEFAULT_DB, Seat, Store
from cardzones.table.table import Table
from cardzones.web import pages
from cardzones.web.hub import Connection, Hub, Live, dumps
from cardzones.web.legal import Busy, LegalDesk, judge_asked, wanted_actions
from cardzones.web.rates import PerAddress, SeatRate

log = logging.getLogger("cardzones.web")
T = TypeVar("T")

#: The largest frame a client may send, in bytes (PROTOCOL: 65,536).
MAX_FRAME = 65_536
#: A connection that sends more than this many frames in any second is closed.
MAX_RATE = 100
#: Frames of a connection that may wait for their seat's turn.
READ_AHEAD = 32
#: The largest body of ``POST .../finish``.
MAX_VOTE_BODY = 1024
#: How long a new WebSocket has to say hello, in seconds.
HELLO_TIMEOUT = 30.0

#: WebSocket close codes of the protocol.
BAD_FRAME, UNAUTHORIZED, BAD_ORIGIN, TOO_FAST = 4400, 4401, 4403, 4429
#: The close code of a socket over the server's or its seat's count (RFC 6455's
#: "try again later").
TOO_MANY = 1013

#: The one answer to a token that does not open a table, whether the token is
#: wrong or the table does not exist.
NOT_OPENED = "no such table, or the token does not open it"
#: The longest ``card`` or ``zone`` a legal-actions request may give.
LEGAL_QUERY_CHARS = 400
ACT_KEYS = frozenset({"act", "id", "after"})
SAY_KEYS = frozenset({"say", "id"})
HELLO_KEYS = frozenset({"hello", "after", "chat_after"})
#: What a frame after the welcome looks like, for the messages about bad ones.
FRAME_FORMS = '{"act": ..., "id": ..., "after": N} or {"say": TEXT, "id": ...}'


class Server:
    """What the app's endpoints share: the store, the host and the hub."""

    def __init__(self, store: Store, origins: Sequence[str], limits: Limits | None = None) -> None:
        self.limits = limits = limits or Limits()
        self.creates = PerAddress(limits.creates_per_minute, 60.0)
        self.socket_opens = PerAddress(limits.sockets_per_minute, 60.0)
        #: the WebSockets open now, and those of each seat: (table, seat)
        self.sockets = 0
        self.seat_sockets: dict[tuple[str, str | None], int] = {}
        self.seat_rates: dict[tuple[str, str | None], SeatRate] = {}
        self.store = store
        self.host = Host(store)
        self.hub = Hub(self.host)
        self.legal = LegalDesk()
        self.origins = frozenset(o.rstrip("/").lower() for o in origins)


def create_app(
    db: str = DEFAULT_DB,
    *,
    origins: Sequence[str] = (),
    snapshot_every: int | None = None,
    limits: Limits | None = None,
    images: bool = False,
) -> Starlette:
    """The table server on the database ``db`` (a SQLite file by default, or a
    ``postgresql://`` URL). Its schema is brought up to date first.

    ``origins`` lists the web origins (``https://example.org``) besides the
    server's own whose pages may open its WebSocket; ``limits`` are the
    server's limits (:class:`~cardzones.table.limits.Limits`).

    ``images`` lets the board show a card's picture where its view gives an
    address: the player's browser loads it from there (the page allows
    ``https:`` images); the server never fetches one.
    """
    store = Store(db)
    store.migrate()
    server = Server(store, origins, limits)
    if snapshot_every is not None:
        server.host.snapshot_every = snapshot_every

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        follower = None
        if store.postgres:
            follower = asyncio.create_task(server.hub.follow(store.notifications))
        try:
            yield
        finally:
            if follower is not None:
                follower.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await follower
            store.close()

    async def create_table(request: Request) -> Response:
        return await _create_table(server, request)

    async def table_view(request: Request) -> Response:
        return await _read(server, request, "view")

    async def table_log(request: Request) -> Response:
        return await _read(server, request, "log")

    async def table_legal(request: Request) -> Response:
        return await _legal(server, request)

    async def table_socket(websocket: WebSocket) -> None:
        await _socket(server, websocket)

    async def table_finish(request: Request) -> Response:
        return await _finish(server, request)

    async def table_history(request: Request) -> Response:
        return await _history(server, request)

    app = Starlette(
        routes=[
            Route("/", pages.home),
            Route("/play/{table_id}", pages.play_with_images if images else pages.play),
            Mount("/static", pages.static_files(), name="static"),
            Route("/api/rulesets", rulesets_with_images if images else rulesets),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables/{table_id}/view", table_view),
            Route("/api/tables/{table_id}/log", table_log),
            Route("/api/tables/{table_id}/legal", table_legal),
            Route("/api/tables/{table_id}/history", table_history),
            Route("/api/tables/{table_id}/finish", table_finish, methods=["GET", "POST"]),
            WebSocketRoute("/api/tables/{table_id}/ws", table_socket),
        ],
        exception_handlers={HTTPException: _http_error, Exception: _internal_error},
        middleware=[Middleware(_Headers)],
        lifespan=lifespan,
    )
    app.state.server = server
    app.state.images = images
    return app


def app_from_env() -> Starlette:
    """The app as ``cardzones serve`` starts it in each worker: the database in
    ``CARDZONES_DB``, the allowed origins in ``CARDZONES_ORIGINS`` (spaces
    between them), the limits in ``CARDZONES_LIMITS`` (``NAME=VALUE`` words),
    and ``CARDZONES_IMAGES=1`` when the board shows card pictures."""
    return create_app(
        os.environ.get("CARDZONES_DB", DEFAULT_DB),
        origins=os.environ.get("CARDZONES_ORIGINS", "").split(),
        limits=Limits.from_env(os.environ.get("CARDZONES_LIMITS", "")),
        images=os.environ.get("CARDZONES_IMAGES") == "1",
    )


# ----------------------------------------------------------------------
# HTTP
# ----------------------------------------------------------------------


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return _error(exc.status_code, str(exc.detail), dict(exc.headers or {}))


async def _internal_error(request: Request, exc: Exception) -> Response:
    log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
    return _error(500, "internal error")


class _Headers:
    """Headers every answer carries: nothing is cached (answers hold views and
    tokens), and no page of the server leaks its address to another site."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"cache-control", b"no-store"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-content-type-options", b"nosniff"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _over_limit(status: int, message: str, limit: str) -> JSONResponse:
    return JSONResponse({"error": message, "limit": limit}, status_code=status)


def _client_address(request: HTTPConnection) -> str:
    return request.client.host if request.client is not None else "?"


async def _create_table(server: Server, request: Request) -> Response:
    limits = server.limits
    # A page of another site may post a form or a text/plain body without
    # asking first; only its own origins' pages may make tables.
    if not _origin_allowed(server, request):
        return _error(403, "a page of another web origin may not make tables here")
    too_big = _over_limit(
        413,
        f"the body is larger than {limits.body_bytes} bytes "
        f"(cardzones serve {Limits.option('body_bytes')})",
        "body_bytes",
    )
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limits.body_bytes:
        return too_big
    media = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media != "application/json":
        return _error(415, "the body is JSON: send Content-Type: application/json")
    wait = server.creates.take(_client_address(request), time.monotonic())
    if wait > 0:
        return JSONResponse(
            {
                "error": f"more than {limits.creates_per_minute} tables a minute from one "
                f"address (cardzones serve {Limits.option('creates_per_minute')})",
                "limit": "creates_per_minute",
            },
            status_code=429,
            headers={"Retry-After": str(max(1, math.ceil(wait)))},
        )
    body = b""
    try:
        async with asyncio.timeout(limits.request_seconds):
            async for chunk in request.stream():
                body += chunk
                if len(body) > limits.body_bytes:
                    return too_big
    except TimeoutError:
        return _over_limit(
            408,
            f"the body took more than {limits.request_seconds:g} s to arrive "
            f"(cardzones serve {Limits.option('request_seconds')})",
            "request_seconds",
        )
    except ClientDisconnect:
        return Response(status_code=400)  # nobody is there to read it
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _error(400, f"the body is not valid JSON: it is not UTF-8 ({exc.reason})")
    if nesting_over(text, limits.json_depth):
        return _over_limit(400, _too_deep(limits), "json_depth")
    try:
        data = json.loads(text)
    except ValueError as exc:
        return _error(400, f"the body is not valid JSON: {exc}")
    try:
        creation = await run_in_threadpool(creation_from_request, data, limits)
    except CreationError as exc:
        if exc.limit is not None:
            return _over_limit(400, str(exc), exc.limit)
        return _error(400, str(exc))
    created = await run_in_threadpool(server.host.create, creation)
    table = created.table_id
    links = {p: f"/play/{table}#{t}" for p, t in created.seats.items()}
    links["spectator"] = f"/play/{table}#{created.spectator}"
    log.info("table %s created (%s, %d players)", table, creation.ruleset, len(creation.players))
    return JSONResponse(
        {"table": table, "seats": created.seats, "spectator": created.spectator, "links": links},
        status_code=201,
    )


async def rulesets(request: Request, images: bool = False) -> Response:
    """The installed rule sets, each with its action table (what a board
    offers in its menus), how a board lays out a player's mat and how its
    deck lists are written (so that no page names a game), whether its deck
    lists can start a table (the server's card index holds its cards; asked
    afresh each time, so that an import while the server runs counts), and
    whether the board shows card pictures. Public: it holds no game."""
    decks = await run_in_threadpool(deck_list_games)
    out = []
    for name in ruleset_names():
        ruleset = get_ruleset(name)
        out.append(
            {
                "name": name,
                "actions": [a.to_json() for a in ruleset.actions.values()],
                "deck_lists": name in decks,
                "board": ruleset.board.to_json(),
                "deck_list_help": ruleset.deck_list_help,
                "deck_list_example": ruleset.deck_list_example,
            }
        )
    return JSONResponse({"rulesets": out, "deck_lists": bool(decks), "images": images})


async def rulesets_with_images(request: Request) -> Response:
    return await rulesets(request, images=True)


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token


async def _opened(server: Server, request: Request) -> tuple[Seat, Live] | Response:
    """The seat the request's token opens and its table, or the answer to give."""
    token = _bearer(request)
    if token is None:
        return _error(
            401,
            "give the seat's token: Authorization: Bearer TOKEN",
            {"WWW-Authenticate": "Bearer"},
        )
    table_id = request.path_params["table_id"]
    seat = await run_in_threadpool(server.host.seat, table_id, token)
    live = await server.hub.open(table_id) if seat is not None else None
    if seat is None or live is None:
        return _error(404, NOT_OPENED)
    return seat, live


async def _finish(server: Server, request: Request) -> Response:
    """A seat's vote to finish the game (POST; agree unless the body says
    ``{"vote": "concede"}`` or ``"decline"``), or the votes and the end
    as they stand (GET). Finishing takes every seat's consent, or the time
    limit of a proposal (:mod:`cardzones.table.finish`)."""
    opened = await _opened(server, request)
    if isinstance(opened, Response):
        return opened
    seat, live = opened
    if request.method == "GET":
        votes, finished = await server.hub.read(live, lambda t: (t.votes, t.finished))
    else:
        if seat.player is None:
            return _error(403, "a spectator cannot finish the game")
        vote = await _vote_of(request)
        if isinstance(vote, Response):
            return vote
        try:
            votes, finished = await server.hub.vote(live, seat.player, vote)
        except FinishRefused as exc:
            return _error(409, str(exc))
    return JSONResponse(
        {
            "finished": None if finished is None else finished.to_json(),
            "finish": None if votes.empty else votes.to_json(),
        }
    )


async def _vote_of(request: Request) -> str | Response:
    """The vote a finish request's body gives (none: agree), or the answer."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_VOTE_BODY:
            return _error(413, f"the body is larger than {MAX_VOTE_BODY} bytes")
    if not body.strip():
        return AGREE
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        data = None
    extra = sorted(set(data) - {"vote"}) if isinstance(data, dict) else []
    vote = data.get("vote", AGREE) if isinstance(data, dict) else None
    if extra or vote not in VOTES:
        return _error(400, f'the body is {{"vote": VOTE}}, VOTE one of {", ".join(VOTES)}')
    return str(vote)


async def _history(server: Server, request: Request) -> Response:
    """A replay of the game as one viewer saw it, step by step. A seat replays
    from its own point of view at any time, and once the game is finished
    from any seat's (``?as=SEAT``, or ``spectator``); the spectator only from
    its own. Nothing in it is more than that viewer was shown at the time."""
    opened = await _opened(server, request)
    if isinstance(opened, Response):
        return opened
    seat, live = opened
    own = seat.player
    wanted = request.query_params.get("as")
    viewer = own if wanted is None else (None if wanted == "spectator" else wanted)
    finished = await server.hub.read(live, lambda t: t.finished)
    if viewer != own:
        players = live.table.players
        if viewer is not None and viewer not in players:
            return _error(400, f"as: {wanted!r} is not a seat; seats are {', '.join(players)}")
        if own is None:
            return _error(403, "a spectator replays the game from the spectator's view only")
        if finished is None:
            return _error(
                403,
                "until the game is finished (every seat agreed, or a proposal's time limit"
                " passed), a seat replays it from its own point of view only",
            )
    upto = finished.number if finished is not None else live.table.number
    try:
        steps = await run_in_threadpool(replay_steps, server.store, live.table.id, viewer, upto)
    except ExportError as exc:
        return _error(400, str(exc))
    chat = await run_in_threadpool(server.store.chat, live.table.id)
    return JSONResponse(
        {
            "seat": viewer,
            "number": upto,
            "finished": None if finished is None else finished.to_json(),
            "steps": steps,
            "chat": [line.to_json() for line in chat],
        }
    )


async def _read(server: Server, request: Request, what: str) -> Response:
    opened = await _opened(server, request)
    if isinstance(opened, Response):
        return opened
    seat, live = opened
    viewer = seat.player
    if what == "view":
        number, view = await server.hub.read(live, lambda t: (t.number, t.view(viewer)))
        return JSONResponse({"number": number, "view": view})
    number, entries = await server.hub.read(live, lambda t: (t.number, t.log(viewer, 0)))
    return JSONResponse({"number": number, "log": entries})


async def _legal(server: Server, request: Request) -> Response:
    """The seat's legal acts now, kept per position and bounded per seat
    (:mod:`cardzones.web.legal`)."""
    query = request.query_params
    card, zone = query.get("card"), query.get("zone")
    try:
        wanted = wanted_actions(query.get("actions"))
        judge = judge_asked(query.get("judge"))
        for key, value in (("card", card), ("zone", zone)):
            if value is not None and len(value) > LEGAL_QUERY_CHARS:
                raise ValueError(f"{key} is longer than {LEGAL_QUERY_CHARS} characters")
    except ValueError as exc:
        return _error(400, str(exc))
    opened = await _opened(server, request)
    if isinstance(opened, Response):
        return opened
    seat, live = opened

    def read(what: Callable[[Table], T]) -> Awaitable[T]:
        return server.hub.read(live, what)

    try:
        number, legal = await server.legal.answer(
            read, live.table.id, seat.player, wanted, card=card, zone=zone, judge=judge
        )
    except Busy as exc:
        return _error(429, str(exc), {"Retry-After": str(exc.retry_after)})
    except Refusal as exc:  # a card or zone the seat cannot name
        return _error(400, str(exc))
    return JSONResponse({"number": number, "legal": legal})


# ----------------------------------------------------------------------
# The WebSocket
# ----------------------------------------------------------------------


def _origin_allowed(server: Server, websocket: HTTPConnection) -> bool:
    """A page may open the socket (or make a table) from the server's own
    origin or from one the server was told to allow. A client that is not a
    browser sends no Origin; its token is all that counts."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    if origin in server.origins:
        return True
    parts = urlsplit(origin)
    host = websocket.headers.get("host", "").lower()
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc == host


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


def _too_deep(limits: Limits) -> str:
    return (
        f"the JSON nests more than {limits.json_depth} levels deep "
        f"(cardzones serve {Limits.option('json_depth')})"
    )


def _parse(frame: str | bytes, limits: Limits) -> tuple[dict[str, Any] | None, str | None]:
    """A frame as a JSON object, or the error to answer it with."""
    if isinstance(frame, bytes):
        return None, f"the frame is larger than {MAX_FRAME} bytes"
    if nesting_over(frame, limits.json_depth):
        return None, _too_deep(limits)
    try:
        data = json.loads(frame)
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


async def _socket(server: Server, websocket: WebSocket) -> None:
    if not _origin_allowed(server, websocket):
        # Before the handshake: the browser gets 403 and the page no socket.
        await websocket.close(code=BAD_ORIGIN)
        return
    limits = server.limits
    # Each new socket costs a handshake and a look-up of its token: a client
    # that reconnects in a loop is turned away before either, with an HTTP
    # answer rather than a socket.
    wait = server.socket_opens.take(_client_address(websocket), time.monotonic())
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
    await websocket.accept()
    server.sockets += 1
    try:
        await _welcomed(server, websocket)
    finally:
        server.sockets -= 1


async def _welcomed(server: Server, websocket: WebSocket) -> None:
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
    hello, problem = _parse(first, server.limits)
    if hello is not None:
        problem = _hello_problem(hello)
    if hello is None or problem is not None:
        await _refuse(websocket, problem or "the first frame is a hello", BAD_FRAME)
        return
    table_id = websocket.path_params["table_id"]
    seat = await run_in_threadpool(server.host.seat, table_id, hello["hello"])
    live = await server.hub.open(table_id) if seat is not None else None
    if seat is None or live is None:
        await _refuse(websocket, NOT_OPENED, UNAUTHORIZED)
        return
    key = (table_id, seat.player)
    limit = server.limits.seat_sockets
    if server.seat_sockets.get(key, 0) >= limit:
        await _refuse(
            websocket,
            f"this seat has {limit} connections open to the table; close one "
            f"(cardzones serve {Limits.option('seat_sockets')})",
            TOO_MANY,
        )
        return
    server.seat_sockets[key] = server.seat_sockets.get(key, 0) + 1
    rate = server.seat_rates.setdefault(key, SeatRate(server.limits.seat_frames))
    try:
        # A hello costs a welcome: it counts among the seat's frames, so that
        # a seat reconnecting in a loop goes no faster than one that acts.
        wait = rate.take(time.monotonic())
        if wait > 0:
            await asyncio.sleep(wait)
        conn = Connection(websocket, seat.player)
        after, chat_after = int(hello.get("after", 0)), int(hello.get("chat_after", 0))
        await server.hub.join(live, conn, after, chat_after)
        sender = asyncio.create_task(conn.run_sender())
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
            server.seat_rates.pop(key, None)


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
    rate: SeatRate,
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


async def _handle(
    server: Server,
    live: Any,
    conn: Connection,
    sender: asyncio.Task[None],
    rate: SeatRate,
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
        wait = rate.take(time.monotonic())
        if wait > 0:
            await asyncio.sleep(wait)
        data, problem = _parse(frame, server.limits)
        if data is None:
            conn.send(dumps({"error": problem}))
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
        request = data.get("id")
        if request is not None and (
            isinstance(request, bool) or not isinstance(request, str | int)
        ):
            conn.send(dumps({"refused": None, "error": "id: is a text or a number"}))
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
