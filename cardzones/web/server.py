"""What the table server's endpoints share: the store, the host, the hub and
the server's limits (:class:`Server`), and the answers every endpoint gives
alike: an error as ``{"error": ...}``, a limit passed, and the one answer to a
token that does not open a table.
"""

from __future__ import annotations

import asyncio
import ipaddress
import math
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from cardzones.table.host import Host
from cardzones.table.json_text import encode
from cardzones.table.limits import Limits
from cardzones.table.store import Store, TokenSeat
from cardzones.web.hub import Live, OpenTables
from cardzones.web.legal import Credit, LegalDesk, local_credit
from cardzones.web.rates import FrameRate, PerAddress, SeatRate
from cardzones.web.shared_rates import SharedBucket, SharedHolds, SharedPerAddress

#: The one answer to a token that does not open a table, whether the token is
#: wrong or the table does not exist.
NOT_OPENED = "no such table, or the token does not open it"


class Server:
    """What the app's endpoints share: the store, the host and the hub."""

    def __init__(
        self,
        store: Store,
        origins: Sequence[str],
        limits: Limits | None = None,
        *,
        trust_host: bool = True,
    ) -> None:
        self.limits = limits = limits or Limits()
        self.creates = per_address(store, "creates", limits.creates_per_minute)
        self.socket_opens = per_address(store, "sockets", limits.sockets_per_minute)
        #: votes (to finish, to take back), per seat of a table ("TABLE SEAT")
        self.votes = per_address(store, "votes", limits.votes_per_minute)
        #: the WebSockets open now, and those of each seat: (table, seat)
        self.sockets = 0
        #: the WebSockets open now from each client address
        self.address_sockets: Counter[str] = Counter()
        self.seat_sockets: dict[tuple[str, str | None], int] = {}
        self.seat_rates: dict[tuple[str, str | None], FrameRate] = {}
        #: the frames of each client address with a socket open, all its
        #: seats together
        self.address_rates: dict[str, FrameRate] = {}
        #: the sockets of a seat and of an address held by every process
        #: together (None: this process is the only one, and its counts above
        #: are the whole count)
        self.holds = SharedHolds(store) if store.postgres else None
        self.store = store
        self.host = Host(store, finish_floor=limits.min_finish_after * 60)
        self.hub = OpenTables(self.host, limits.table_bytes)
        self.legal = LegalDesk(budget=self.budget)
        self.origins = frozenset(o.rstrip("/").lower() for o in origins)
        #: whether a page whose origin matches the request's ``Host`` is the
        #: server's own: only when the server was not told its own origins
        #: (``cardzones serve`` always tells it), since a page of any name
        #: that resolves to the server's address sends a matching ``Host``
        self.trust_host = trust_host

    def frame_rate(self, kind: str, key: str, rate: int) -> FrameRate:
        """A rate of ``rate`` frames a second (bursts of as many) for ``key``:
        in the store with Postgres, where several processes share it, else in
        memory. Each process draws a quarter of the burst at a time."""
        if self.store.postgres:
            return SharedBucket(self.store, f"{kind}:{key}", rate, rate, max(1.0, rate / 4))
        return SeatRate(rate)

    def budget(self, kind: str, key: str, now: float, burst: float, rate: float) -> Credit:
        """A credit of computing (:class:`~cardzones.web.legal.Credit`) for
        ``key``: shared by every process with Postgres, each drawing a sixth
        of the burst at a time, else in memory."""
        if self.store.postgres:
            return SharedBucket(self.store, f"{kind}:{key}", burst, rate, burst / 6)
        return local_credit(kind, key, now, burst, rate)

    async def hold(self, kind: str, key: str, limit: int) -> bool:
        """Hold one more socket of ``key`` across every process (always, when
        this process is the only one: its own count is checked by its caller)."""
        return self.holds is None or await self.holds.hold(f"{kind}:{key}", limit)

    def release(self, kind: str, key: str) -> None:
        if self.holds is not None:
            self.holds.release(f"{kind}:{key}")


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


def address_key(host: str) -> str:
    """The address a client's limits are counted by: an IPv4 address (an
    IPv6-mapped one as IPv4), or an IPv6 client's /64 prefix, which one
    subscriber usually holds whole.

    >>> address_key("2001:db8::1"), address_key("2001:db8::ffff:2"), address_key("::ffff:10.0.0.1")
    ('2001:db8::/64', '2001:db8::/64', '10.0.0.1')
    >>> address_key("10.0.0.7"), address_key("testclient")
    ('10.0.0.7', 'testclient')
    """
    try:
        address = ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def client_address(request: HTTPConnection) -> str:
    """The client's address as its limits count it (:func:`address_key`): the
    peer's, or the one a trusted proxy forwarded (``cardzones serve
    --forwarded-allow-ips``); a header no trusted proxy set changes nothing."""
    return address_key(request.client.host) if request.client is not None else "?"


async def json_answer(data: Any, status: int = 200) -> Response:
    """An answer whose JSON may be large (a view, a log, a history), encoded
    in a worker thread: the event loop serves every table, and a large answer
    encoded on it would hold up all of them."""
    body = await run_in_threadpool(encode, data)
    return Response(body, status_code=status, media_type="application/json")


def origin_allowed(server: Server, websocket: HTTPConnection) -> bool:
    """A page may open the socket (or make a table) from an origin the server
    was told is its own or to allow (``cardzones serve`` derives its own from
    where it listens; ``--origin`` adds others). A client that is not a
    browser sends no Origin; its token is all that counts. Only an app told
    no origins of its own takes the request's ``Host`` for its own."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    if origin in server.origins:
        return True
    if not server.trust_host:
        return False
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


async def seat_of_token(server: Server, table_id: str, token: str) -> TokenSeat | None:
    """The seat ``token`` opens at the table, or None; a token that opened
    one is remembered by the host (a wrong one is asked of the store each
    time, so that guessing costs what it did)."""
    seat = server.host.known_seat(table_id, token)  # a seat found before: no query
    if seat is None:
        seat = await run_in_threadpool(server.host.seat, table_id, token)
    return seat


async def seat_of(server: Server, request: Request) -> tuple[TokenSeat, Live] | Response:
    """The seat the request's token opens and its table, or the answer to give."""
    token = bearer(request)
    if token is None:
        return error(
            401,
            "give the seat's token: Authorization: Bearer TOKEN",
            {"WWW-Authenticate": "Bearer"},
        )
    table_id = request.path_params["table_id"]
    seat = await seat_of_token(server, table_id, token)
    live = await server.hub.open(table_id) if seat is not None else None
    if seat is None or live is None:
        return error(404, NOT_OPENED)
    return seat, live


async def over_vote_rate(server: Server, table_id: str, player: str) -> Response | None:
    """The answer to a seat over its rate of votes (to finish the game, to
    take back acts), or None: each vote is a commit and a frame to every
    connection, so a seat's votes are counted, whatever they say."""
    wait = await server.votes.turn(f"{table_id} {player}", time.monotonic())
    if wait <= 0:
        return None
    limit = server.limits.votes_per_minute
    refused = over_limit(
        429,
        f"more than {limit} votes a minute from this seat "
        f"(cardzones serve {Limits.option('votes_per_minute')})",
        "votes_per_minute",
    )
    refused.headers["Retry-After"] = str(max(1, math.ceil(wait)))
    return refused


async def bounded_body(
    request: Request, limit: int, seconds: float, too_big: Response | None = None
) -> bytes | Response:
    """A request's body, read no further than ``limit`` bytes and for no
    longer than ``seconds`` (a new table's body has as long): the body, or
    the answer to one that is larger (413, or ``too_big``), slower (408) or
    dropped."""
    body = bytearray()  # appended to in place: a bytes would be copied each time
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                body += chunk
                if len(body) > limit:
                    if too_big is not None:
                        return too_big
                    return error(413, f"the body is larger than {limit} bytes")
    except TimeoutError:
        return over_limit(
            408,
            f"the body took more than {seconds:g} s to arrive "
            f"(cardzones serve {Limits.option('request_seconds')})",
            "request_seconds",
        )
    except ClientDisconnect:
        return Response(status_code=400)  # nobody is there to read it
    return bytes(body)
