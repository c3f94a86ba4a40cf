"""A seat's legal acts (``GET .../legal``), answered by the server's
:class:`~cardzones.web.legal.LegalDesk`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from cardzones.table.refusals import Refusal
from cardzones.table.table import Table
from cardzones.web.legal import Busy, judge_asked, wanted_actions
from cardzones.web.server import Server, error, seat_of

T = TypeVar("T")

#: The longest ``card`` or ``zone`` a legal-actions request may give.
LEGAL_QUERY_CHARS = 400


async def legal(server: Server, request: Request) -> Response:
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
        return error(400, str(exc))
    opened = await seat_of(server, request)
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
        return error(429, str(exc), {"Retry-After": str(exc.retry_after)})
    except Refusal as exc:  # a card or zone the seat cannot name
        return error(400, str(exc))
    return JSONResponse({"number": number, "legal": legal})
