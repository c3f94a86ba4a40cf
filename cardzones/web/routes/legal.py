"""A seat's legal acts (``GET .../legal``), answered by the server's
:class:`~cardzones.web.legal.LegalDesk`.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
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


async def legal(server: Server, request: Request) -> Response:
    """The seat's legal acts now, kept per position and bounded per seat
    (:mod:`cardzones.web.legal`)."""
    query = request.query_params
    card, zone = query.get("card"), query.get("zone")
    try:
        start = page_start(query.get("from"))
        wanted = wanted_actions(query.get("actions"))
        judge = judge_asked(query.get("judge"))
        for key, value in (("card", card), ("zone", zone)):
            if value is not None and len(value) > LEGAL_QUERY_CHARS:
                raise ValueError(f"{key} is longer than {LEGAL_QUERY_CHARS} characters")
    except ValueError as exc:
        return error(400, str(exc))
    opened = await seat_of(server, request)
    if isinstance(opened, Response):
        return opened
    seat, live = opened

    def read(what: Callable[[Table], T]) -> Awaitable[T]:
        # As for an act: the store is read first only while another process
        # writes to the table, since nothing else can change it.
        return server.hub.read(live, what, others=True)

    try:
        body = await server.legal.page(
            read,
            live.table.id,
            seat.player,
            wanted,
            card=card,
            zone=zone,
            judge=judge,
            start=start,
            person=client_address(request),
            current=lambda: up_to_date(live),
        )
    except Busy as exc:
        return error(429, str(exc), {"Retry-After": str(exc.retry_after)})
    except Refusal as exc:  # a card or zone the seat cannot name
        return error(400, str(exc))
    return Response(body, media_type="application/json")


def up_to_date(live: Live) -> int | None:
    """The table's number when this process's copy of it is up to date
    without a look at the store or its lock: nothing holds the lock (no act
    is half-way), and no other process has written to it lately (with one
    process, none ever does). None: ask the table."""
    if live.lock.locked() or time.monotonic() - live.heard_at < OTHERS_WRITE:
        return None
    return live.table.number


def page_start(text: str | None) -> int:
    """The first entry ``?from=`` asks for (0 by default). Raises ValueError
    for anything but a whole number from 0 to a million.

    >>> page_start(None), page_start("250")
    (0, 250)
    """
    if text is None:
        return 0
    if not text.isdigit() or len(text) > 7:
        raise ValueError("from: is the first entry of a page, a whole number (0 or more)")
    return int(text)
