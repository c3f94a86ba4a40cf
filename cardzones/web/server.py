"""What the table server's endpoints share: the store, the host, the hub and
the server's limits (:class:`Server`), and the answers every endpoint gives
alike: an error as ``{"error": ...}``, a limit passed, and the one answer to a
token that does not open a table.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from cardzones.table.host import Host
from cardzones.table.limits import Limits
from cardzones.table.store import Seat, Store
from cardzones.web.hub import Hub, Live
from cardzones.web.legal import LegalDesk
from cardzones.web.rates import PerAddress, SeatRate
from cardzones.web.shared_rates import SharedPerAddress

#: The one answer to a token that does not open a table, whether the token is
#: wrong or the table does not exist.
NOT_OPENED = "no such table, or the token does not open it"


class Server:
    """What the app's endpoints share: the store, the host and the hub."""

    def __init__(self, store: Store, origins: Sequence[str], limits: Limits | None = None) -> None:
        self.limits = limits = limits or Limits()
        self.creates = per_address(store, "creates", limits.creates_per_minute)
        self.socket_opens = per_address(store, "sockets", limits.sockets_per_minute)
        #: the WebSockets open now, and those of each seat: (table, seat)
        self.sockets = 0
        self.seat_sockets: dict[tuple[str, str | None], int] = {}
        self.seat_rates: dict[tuple[str, str | None], SeatRate] = {}
        self.store = store
        self.host = Host(store)
        self.hub = Hub(self.host)
        self.legal = LegalDesk()
        self.origins = frozenset(o.rstrip("/").lower() for o in origins)


def per_address(store: Store, kind: str, count: int) -> PerAddress:
    """A limit of ``count`` a minute per client address: kept in the store
    with Postgres, where several processes share it, else in memory."""
    if store.postgres:
        return SharedPerAddress(count, 60.0, store, kind)
    return PerAddress(count, 60.0)


def error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def over_limit(status: int, message: str, limit: str) -> JSONResponse:
    return JSONResponse({"error": message, "limit": limit}, status_code=status)


def too_deep(limits: Limits) -> str:
    return (
        f"the JSON nests more than {limits.json_depth} levels deep "
        f"(cardzones serve {Limits.option('json_depth')})"
    )


def client_address(request: HTTPConnection) -> str:
    return request.client.host if request.client is not None else "?"


def origin_allowed(server: Server, websocket: HTTPConnection) -> bool:
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


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token


async def seat_of(server: Server, request: Request) -> tuple[Seat, Live] | Response:
    """The seat the request's token opens and its table, or the answer to give."""
    token = bearer(request)
    if token is None:
        return error(
            401,
            "give the seat's token: Authorization: Bearer TOKEN",
            {"WWW-Authenticate": "Bearer"},
        )
    table_id = request.path_params["table_id"]
    seat = server.host.known_seat(table_id, token)  # a seat found before: no query
    if seat is None:
        seat = await run_in_threadpool(server.host.seat, table_id, token)
    live = await server.hub.open(table_id) if seat is not None else None
    if seat is None or live is None:
        return error(404, NOT_OPENED)
    return seat, live
