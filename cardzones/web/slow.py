"""Dropping clients that send a request too slowly, or that hold too many
connections; and what the process needs of the system to hold its own.

A client that opens a connection and sends its headers a byte at a time
holds the connection, and a thousand of them hold a thousand. uvicorn's
keep-alive timeout closes a connection that sends nothing after a response;
nothing bounds one that has started a request and stopped. The protocol
here gives each request ``request_seconds`` from the connection (or the end
of the last response) to the end of its headers; a connection that has not
got there by then is closed. The body of ``POST /api/tables`` has the same
time, counted in the app (:mod:`cardzones.web.routes.tables`).

Each client address (an IPv6 client's /64) may also hold only
``address_connections`` connections at once, HTTP and WebSocket together: one
more is answered ``429`` and closed before anything is read from it, so that
a client reconnecting half-sent requests in a loop holds no more than that,
whatever the open-file limit. A reverse proxy the server was told to trust
(``CARDZONES_PROXIES``, from ``cardzones serve --forwarded-allow-ips``)
holds every client's connections, and is not counted.

``cardzones serve`` runs uvicorn with this protocol, the limits taken from
``CARDZONES_LIMITS`` (:class:`~cardzones.table.limits.Limits`).
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import json
import os
from collections import Counter
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from cardzones.table.limits import Limits
from cardzones.web.server import address_key

#: The connections open now from each client address, in this process.
OPEN: Counter[str] = Counter()
#: The address each counted connection is counted under, by its transport's
#: id: a connection upgraded to a WebSocket changes protocol, and the
#: WebSocket's protocol counts it out when it ends.
COUNTED: dict[int, str] = {}


def _uncount(transport: Any) -> None:
    key = COUNTED.pop(id(transport), None)
    if key is not None:
        OPEN[key] -= 1
        if OPEN[key] <= 0:
            del OPEN[key]


#: Seconds a connection over its address's count is held, unread, before
#: its refusal is sent and it is closed: refused at once, a client that
#: connects again in a loop would make the server accept and close
#: thousands a second.
REFUSAL_DELAY = 1.0
#: Refused connections held at once, all addresses together; past it one is
#: closed at once, so that holding them costs a bounded number of files.
HELD_REFUSALS = 512
#: The refused connections held now.
held = 0

#: How far the open-file limit is raised at most: far past what the socket
#: limits need.
OPEN_FILES = 65_536


def _refusal(message: str) -> bytes:
    body = json.dumps({"error": message, "limit": "address_connections"}).encode()
    head = (
        "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n"
        f"Retry-After: 5\r\nConnection: close\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


def _refuse(transport: Any, refusal: bytes) -> None:
    if not transport.is_closing():
        transport.write(refusal)
        transport.close()


def _release(transport: Any, refusal: bytes) -> None:
    global held
    held -= 1
    _refuse(transport, refusal)


@functools.lru_cache(maxsize=4)
def _trusted(text: str) -> tuple[bool, tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]]:
    """Whether every peer is a trusted proxy (``*``), and the trusted networks."""
    words = [w.strip() for w in text.split(",") if w.strip()]
    nets = []
    for word in words:
        try:
            nets.append(ipaddress.ip_network(word, strict=False))
        except ValueError:
            continue  # a host name or "*": uvicorn's own check handles it
    return "*" in words, tuple(nets)


def _is_proxy(host: str) -> bool:
    every, nets = _trusted(os.environ.get("CARDZONES_PROXIES", ""))
    if every:
        return True
    try:
        address = ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return False
    return any(address in net for net in nets)


@functools.lru_cache(maxsize=4)
def _limits(text: str) -> Limits:
    # Read once, not on every connection.
    return Limits.from_env(text)


class DeadlineProtocol(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    """uvicorn's HTTP protocol, with a deadline on each request's headers."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._seconds = _limits(os.environ.get("CARDZONES_LIMITS", "")).request_seconds
        self._deadline: asyncio.TimerHandle | None = None
        self._cycle_then: Any = None
        #: a connection over its address's count: what it sends is not read
        self._refused = False

    def _arm(self) -> None:
        self._disarm()
        # A request whose headers are complete has a cycle of its own.
        self._cycle_then = self.cycle
        self._deadline = self.loop.call_later(self._seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        transport = self.transport
        if transport is None or transport.is_closing() or transport.get_protocol() is not self:
            return  # closed, or now a WebSocket
        cycle = self.cycle
        if cycle is self._cycle_then and (cycle is None or cycle.response_complete):
            transport.close()

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if host and not _is_proxy(host):
            key = address_key(host)
            limit = _limits(os.environ.get("CARDZONES_LIMITS", "")).address_connections
            if OPEN[key] >= limit:
                refusal = _refusal(
                    f"more than {limit} connections open from one address "
                    f"(cardzones serve {Limits.option('address_connections')})"
                )
                global held
                if held >= HELD_REFUSALS:
                    _refuse(transport, refusal)
                    return
                held += 1
                self._refused = True
                transport.pause_reading()
                self.loop.call_later(REFUSAL_DELAY, _release, transport, refusal)
                return
            OPEN[key] += 1
            COUNTED[id(transport)] = key
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def data_received(self, data: bytes) -> None:
        if not self._refused:
            super().data_received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        _uncount(self.transport)
        super().connection_lost(exc)


def own_origins(host: str, port: int) -> list[str]:
    """The origins of the server's own pages, from where it listens: its
    address, and the loopback names when it listens on loopback or on every
    address. A page of any other origin needs ``--origin``.

    >>> own_origins("127.0.0.1", 8000)
    ['http://127.0.0.1:8000', 'http://localhost:8000', 'http://[::1]:8000']
    >>> own_origins("games.example", 80)
    ['http://games.example:80', 'http://games.example']
    """
    loopback = ("127.0.0.1", "localhost", "::1", "0.0.0.0", "::", "")
    names = ["127.0.0.1", "localhost", "[::1]"] if host in loopback else [host]
    if ":" in host and host not in loopback:
        names = [f"[{host}]"]
    out = [f"http://{name}:{port}" for name in names]
    if port == 80:
        out += [f"http://{name}" for name in names]
    return out


def raise_open_files() -> str:
    """Raise this process's open-file limit (which its workers inherit) as far
    as the system allows, up to :data:`OPEN_FILES`: each connection holds a
    file. Says what the limit is now, for the start-up message."""
    try:
        import resource
    except ImportError:  # not on this system
        return "open files: the system's limit (not raised here)"
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = OPEN_FILES if hard == resource.RLIM_INFINITY else min(OPEN_FILES, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            return f"open files: at most {wanted} (raised from {soft})"
        except (ValueError, OSError):
            return f"open files: at most {soft} (the system did not allow more)"
    return f"open files: at most {soft}"


class DenyingWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, counting its connection out of its
    address's when it ends (:class:`DeadlineProtocol` counted it in), and
    quiet about a handshake the app turned away with an HTTP answer (a
    ``429`` over a limit): uvicorn counts that as a handshake never
    completed, logs an error and tries a ``500`` after the answer is sent. A
    refusal is no error of the server's."""

    def connection_lost(self, exc: Exception | None) -> None:
        _uncount(self.transport)
        super().connection_lost(exc)

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message.get("type") == "websocket.http.response.body" and not message.get(
            "more_body", False
        ):
            self.handshake_complete = True
