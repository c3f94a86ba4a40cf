"""A seat's legal acts (``GET .../legal``, and the WebSocket's ``legal``
frame: :mod:`cardzones.web.routes.socket_legal`), answered by the server's
:class:`~cardzones.web.legal.LegalDesk`.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from starlette.requests import Request
from starlette.responses import Response

from cardzones.table.refusals import Refusal
from cardzones.table.table import Table
from cardzones.web.hub import OTHERS_WRITE, Live
from cardzones.web.legal import Busy, judge_asked, wanted_actions
from cardzones.web.server import Server, client_address, error, seat_of

T = TypeVar("T")

#: The longest ``card`` or ``zone`` a legal-actions request may give.
LEGAL_QUERY_CHARS = 400
#: The highest first entry of a page a request may ask for (seven digits).
MAX_FROM = 9_999_999
#: Why a first entry of a page is refused.
FROM_PROBLEM = "from: is the first entry of a page, a whole number (0 or more)"


@dataclass(frozen=True)
class MenuAsked:
    """What a request for the legal acts asks: the action names (None:
    all), the card and the zone as the seat names them (None: any), whether
    a judge's actions are listed without being named, and the first entry
    of the page."""

    wanted: list[str] | None = None
    card: str | None = None
    zone: str | None = None
    judge: bool = False
    start: int = 0

    def check(self) -> MenuAsked:
        """Itself; raises ValueError for a card or zone that is too long."""
        for key, value in (("card", self.card), ("zone", self.zone)):
            if value is not None and len(value) > LEGAL_QUERY_CHARS:
                raise ValueError(f"{key} is longer than {LEGAL_QUERY_CHARS} characters")
        return self


async def legal(server: Server, request: Request) -> Response:
    """The seat's legal acts now, kept per position and bounded per seat
    (:mod:`cardzones.web.legal`)."""
    query = request.query_params
    try:
        start = page_start(query.get("from"))
        wanted = wanted_actions(query.get("actions"))
        judge = judge_asked(query.get("judge"))
        asked = MenuAsked(wanted, query.get("card"), query.get("zone"), judge, start).check()
    except ValueError as exc:
        return error(400, str(exc))
    opened = await seat_of(server, request)
    if isinstance(opened, Response):
        return opened
    seat, live = opened
    try:
        _, body = await listed(server, live, seat.player, client_address(request), asked)
    except Busy as exc:
        return error(429, str(exc), {"Retry-After": str(exc.retry_after)})
    except Refusal as exc:  # a card or zone the seat cannot name
        return error(400, str(exc))
    return Response(body, media_type="application/json")


async def listed(
    server: Server, live: Live, viewer: str | None, person: str, asked: MenuAsked
) -> tuple[int, bytes]:
    """The number of the event and the page of ``viewer``'s legal acts at
    it that ``asked`` asks for, charged to the seat and to ``person`` (its
    client's address). Raises :class:`~cardzones.web.legal.Busy` and
    :class:`~cardzones.table.refusals.Refusal` as the desk does."""

    def read(what: Callable[[Table], T]) -> Awaitable[T]:
        # As for an act: the store is read first only while another process
        # writes to the table, since nothing else can change it.
        return server.hub.read(live, what, others=True)

    return await server.legal.page(
        read,
        live.table.id,
        viewer,
        asked.wanted,
        card=asked.card,
        zone=asked.zone,
        judge=asked.judge,
        start=asked.start,
        person=person,
        current=lambda: up_to_date(live),
        inline=lambda: readable_soon(server, live),
    )


def up_to_date(live: Live) -> int | None:
    """The table's number when this process's copy of it is up to date
    without a look at the store or its lock: nothing holds the lock (no act
    is half-way), and no other process has written to it lately (with one
    process, none ever does). None: ask the table."""
    if live.lock.locked() or time.monotonic() - live.heard_at < OTHERS_WRITE:
        return None
    return live.table.number


def readable_here(server: Server, live: Live) -> Table | None:
    """The table, when it may be read on the event loop as it is: up to date
    (:func:`up_to_date`) with nothing due (no proposal to finish whose time
    limit has passed, which its read would settle first). None: read it
    through the hub, under its lock, in a worker thread."""
    table = live.table
    if up_to_date(live) is None:
        return None
    if table.finished is None and table.votes.due(server.hub.host.clock()):
        return None
    return table


async def readable_soon(server: Server, live: Live) -> Table | None:
    """:func:`readable_here`, once an act half-way on the table (holding its
    lock) is done: a table no other process writes is then read on the event
    loop, where a worker thread would have waited for the same lock. The
    caller reads it before it awaits anything else."""
    if live.lock.locked() and time.monotonic() - live.heard_at >= OTHERS_WRITE:
        async with live.lock:
            pass  # the act's events are delivered before it lets go
    return readable_here(server, live)


def page_start(text: str | None) -> int:
    """The first entry ``?from=`` asks for (0 by default). Raises ValueError
    for anything but a whole number from 0 to :data:`MAX_FROM`, its digits
    counted before they are read.

    >>> page_start(None), page_start("250")
    (0, 250)
    """
    if text is None:
        return 0
    if not text.isdigit() or len(text) > len(str(MAX_FROM)):
        raise ValueError(FROM_PROBLEM)
    return int(text)
