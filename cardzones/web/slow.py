"""Dropping clients that send a request too slowly.

A client that opens a connection and sends its headers a byte at a time
holds the connection, and a thousand of them hold a thousand. uvicorn's
keep-alive timeout closes a connection that sends nothing after a response;
nothing bounds one that has started a request and stopped. The protocol
here gives each request ``request_seconds`` from the connection (or the end
of the last response) to the end of its headers; a connection that has not
got there by then is closed. The body of ``POST /api/tables`` has the same
time, counted in the app (:mod:`cardzones.web.routes.tables`).

``cardzones serve`` runs uvicorn with this protocol, the limit taken from
``CARDZONES_LIMITS`` (:class:`~cardzones.table.limits.Limits`).
"""

from __future__ import annotations

import asyncio
import functools
import os
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from cardzones.table.limits import Limits


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
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)
