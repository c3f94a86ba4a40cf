"""The table server: the HTTP API and the WebSocket of the table protocol
(docs/protocol.md), as a Starlette app. This module routes each address to
its endpoint (:mod:`cardzones.web.routes`), and gives every answer the
headers and the error form of the server.

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
import logging
import os
from collections.abc import AsyncIterator, Sequence

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from cardzones.table import pauses
from cardzones.table.database import DEFAULT_DB
from cardzones.table.limits import Limits
from cardzones.table.store import Store
from cardzones.web import collector, pages
from cardzones.web.collector import for_serving
from cardzones.web.routes import finish, history, legal, sockets, tables, take_back
from cardzones.web.server import Server, error

log = logging.getLogger("cardzones.web")


def create_app(
    db: str = DEFAULT_DB,
    *,
    origins: Sequence[str] = (),
    snapshot_every: int | None = None,
    limits: Limits | None = None,
    images: bool = False,
    own_origins: Sequence[str] | None = None,
) -> Starlette:
    """The table server on the database ``db`` (a SQLite file by default, or a
    ``postgresql://`` URL). Its schema is brought up to date first.

    ``origins`` lists the web origins (``https://example.org``) besides the
    server's own whose pages may open its WebSocket; ``limits`` are the
    server's limits (:class:`~cardzones.table.limits.Limits`).
    ``own_origins`` are the server's own origins (where its pages are
    loaded); given, they and ``origins`` are all the origins allowed, and
    the request's ``Host`` counts for nothing (a page of a name that resolves
    to the server sends a matching one). Without them, a page whose origin
    matches ``Host`` is taken for the server's own.

    ``images`` lets the board show a card's picture where its view gives an
    address: the player's browser loads it from there (the page allows
    ``https:`` images); the server never fetches one.
    """
    store = Store(db)
    store.migrate()
    server = Server(
        store,
        [*origins, *(own_origins or ())],
        limits,
        trust_host=own_origins is None,
    )
    if snapshot_every is not None:
        server.host.snapshot_every = snapshot_every

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        tasks = []
        if store.postgres:
            tasks.append(asyncio.create_task(server.hub.follow(store.notifications)))
        if server.holds is not None:
            tasks.append(asyncio.create_task(server.holds.keep_alive()))
        tasks.append(asyncio.create_task(collector.sweeping()))
        try:
            # The record of pauses, when CARDZONES_PAUSES names its file.
            async with pauses.recording():
                yield
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            store.close()

    async def create_table(request: Request) -> Response:
        return await tables.create_table(server, request)

    async def table_view(request: Request) -> Response:
        return await tables.read(server, request, "view")

    async def table_log(request: Request) -> Response:
        return await tables.read(server, request, "log")

    async def table_legal(request: Request) -> Response:
        return await legal.legal(server, request)

    async def table_socket(websocket: WebSocket) -> None:
        await sockets.table_socket(server, websocket)

    async def table_finish(request: Request) -> Response:
        return await finish.finish(server, request)

    async def table_take_back(request: Request) -> Response:
        return await take_back.take_back(server, request)

    async def table_history(request: Request) -> Response:
        return await history.history(server, request)

    app = Starlette(
        routes=[
            Route("/", pages.home),
            Route("/play/{table_id}", pages.play_with_images if images else pages.play),
            Mount("/static", pages.static_files(), name="static"),
            Route("/api/rulesets", tables.rulesets_with_images if images else tables.rulesets),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables/{table_id}/view", table_view),
            Route("/api/tables/{table_id}/log", table_log),
            Route("/api/tables/{table_id}/legal", table_legal),
            Route("/api/tables/{table_id}/history", table_history),
            Route("/api/tables/{table_id}/finish", table_finish, methods=["GET", "POST"]),
            Route("/api/tables/{table_id}/take-back", table_take_back, methods=["GET", "POST"]),
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
    the server's own origins in ``CARDZONES_OWN_ORIGINS`` (when it is set,
    even empty, ``Host`` counts for nothing), and ``CARDZONES_IMAGES=1`` when
    the board shows card pictures."""
    own = os.environ.get("CARDZONES_OWN_ORIGINS")
    app = create_app(
        os.environ.get("CARDZONES_DB", DEFAULT_DB),
        origins=os.environ.get("CARDZONES_ORIGINS", "").split(),
        limits=Limits.from_env(os.environ.get("CARDZONES_LIMITS", "")),
        images=os.environ.get("CARDZONES_IMAGES") == "1",
        own_origins=None if own is None else own.split(),
    )
    # The process is a server from here: its collector set for short pauses.
    for_serving()
    return app


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return error(exc.status_code, str(exc.detail), dict(exc.headers or {}))


async def _internal_error(request: Request, exc: Exception) -> Response:
    log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
    return error(500, "internal error")


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
