"""Finishing a game: a seat's vote (``POST .../finish``) and the votes and
the end as they stand (``GET .../finish``), by :mod:`cardzones.table.finish`.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from cardzones.table.finish import AGREE, VOTES, FinishRefused
from cardzones.web.server import Server, bounded_body, error, over_vote_rate, seat_of

#: The largest body of ``POST .../finish``.
MAX_VOTE_BODY = 1024


async def finish(server: Server, request: Request) -> Response:
    """A seat's vote to finish the game (POST; agree unless the body says
    ``{"vote": "concede"}`` or ``"decline"``), or the votes and the end
    as they stand (GET). Finishing takes every seat's consent, or the time
    limit of a proposal (:mod:`cardzones.table.finish`)."""
    opened = await seat_of(server, request)
    if isinstance(opened, Response):
        return opened
    seat, live = opened
    if request.method == "GET":
        votes, finished, won = await server.hub.read(live, lambda t: (t.votes, t.finished, t.won))
    else:
        if seat.player is None:
            return error(403, "a spectator cannot finish the game")
        vote = await vote_of(request, server.limits.request_seconds)
        if isinstance(vote, Response):
            return vote
        refused = await over_vote_rate(server, live.table.id, seat.player)
        if refused is not None:
            return refused
        try:
            votes, finished = await server.hub.vote(live, seat.player, vote)
        except FinishRefused as exc:
            return error(409, str(exc))
        won = await server.hub.read(live, lambda t: t.won)
    answer: dict[str, Any] = {
        "finished": None if finished is None else finished.to_json(),
        "finish": None if votes.empty else votes.to_json(),
    }
    if won is not None:  # the game procedure's winner, once there is one
        answer["won"] = won
    return JSONResponse(answer)


async def vote_of(request: Request, seconds: float) -> str | Response:
    """The vote a finish request's body gives (none: agree), or the answer.
    The body has ``seconds`` to arrive, as a new table's has."""
    body = await bounded_body(request, MAX_VOTE_BODY, seconds)
    if isinstance(body, Response):
        return body
    if not body.strip():
        return AGREE
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        data = None
    extra = sorted(set(data) - {"vote"}) if isinstance(data, dict) else []
    vote = data.get("vote", AGREE) if isinstance(data, dict) else None
    if extra or vote not in VOTES:
        return error(400, f'the body is {{"vote": VOTE}}, VOTE one of {", ".join(VOTES)}')
    return str(vote)
