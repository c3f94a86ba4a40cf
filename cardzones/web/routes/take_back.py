"""Taking back acts: a seat's request or answer (``POST .../take-back``) and
the request as it stands (``GET .../take-back``), by
:mod:`cardzones.table.take_back`.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from cardzones.table.take_back import ACCEPT, ANSWERS, TakeBackRefused, acts_of
from cardzones.web.server import Server, bounded_body, error, over_vote_rate, seat_of

#: The largest body of ``POST .../take-back``.
MAX_BODY = 1024
#: What a body may hold.
BODY_FORMS = (
    f'the body is {{"acts": N}} to ask, or {{"answer": ANSWER}}, ANSWER one of {", ".join(ANSWERS)}'
)


async def take_back(server: Server, request: Request) -> Response:
    """A seat's request to take back its last acts (POST ``{"acts": N}``, or
    an empty body for one act), its answer to another seat's request (POST
    ``{"answer": "accept"}`` or ``"refuse"``; the asking seat's refusal
    withdraws it), or the request as it stands (GET). An accepted take-back
    is the table's next event, which every connection gets."""
    opened = await seat_of(server, request)
    if isinstance(opened, Response):
        return opened
    seat, live = opened
    host = server.host
    if request.method == "GET":
        shown = await server.hub.change(live, lambda t: (host.take_back_shown(t), None), False)
        return _answer(shown, None)
    if seat.player is None:
        return error(403, "a spectator cannot take back acts")
    player = seat.player
    body = await _body(request, server.limits.request_seconds)
    if isinstance(body, Response):
        return body
    refused = await over_vote_rate(server, live.table.id, player)
    if refused is not None:
        return refused
    try:
        if "answer" in body:
            accept = body["answer"] == ACCEPT
            shown, done = await server.hub.change(
                live, lambda t: _made(host.answer_take_back(t, player, accept))
            )
        else:
            acts = acts_of(body.get("acts"))
            shown, done = await server.hub.change(
                live, lambda t: _made(host.ask_take_back(t, player, acts))
            )
    except TakeBackRefused as exc:
        return error(409, str(exc))
    except ValueError as exc:
        return error(400, str(exc))
    return _answer(shown, done)


def _made(outcome: tuple[Any, Any]) -> tuple[tuple[Any, Any], str | None]:
    """What :meth:`OpenTables.change` wants: the outcome, and the seat of the event
    it made (an accepted take-back is of the seat that asked)."""
    request, done = outcome
    return outcome, None if done is None else request.by


def _answer(shown: Any, done: Any) -> Response:
    return JSONResponse(
        {
            "take_back": None if shown is None else shown.to_json(),
            "number": None if done is None else done.number,
        }
    )


async def _body(request: Request, seconds: float) -> dict[str, Any] | Response:
    """The request's body as a mapping of ``acts`` or ``answer``, or the answer."""
    body = await bounded_body(request, MAX_BODY, seconds)
    if isinstance(body, Response):
        return body
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        data = None
    if not isinstance(data, dict) or len(data) > 1 or not set(data) <= {"acts", "answer"}:
        return error(400, BODY_FORMS)
    if "answer" in data and data["answer"] not in ANSWERS:
        return error(400, BODY_FORMS)
    return data
