"""A game's history (``GET .../history``): a replay as one viewer saw it."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from cardzones.table.export import ExportError, replay_steps
from cardzones.web.server import Server, error, json_answer, seat_of


async def history(server: Server, request: Request) -> Response:
    """A replay of the game as one viewer saw it, step by step. A seat replays
    from its own point of view at any time, and once the game is finished
    from any seat's (``?as=SEAT``, or ``spectator``); the spectator only from
    its own. Nothing in it is more than that viewer was shown at the time."""
    opened = await seat_of(server, request)
    if isinstance(opened, Response):
        return opened
    seat, live = opened
    own = seat.player
    wanted = request.query_params.get("as")
    viewer = own if wanted is None else (None if wanted == "spectator" else wanted)
    finished = await server.hub.read(live, lambda t: t.finished)
    if viewer != own:
        players = live.table.players
        if viewer is not None and viewer not in players:
            return error(400, f"as: {wanted!r} is not a seat; seats are {', '.join(players)}")
        if own is None:
            return error(403, "a spectator replays the game from the spectator's view only")
        if finished is None:
            return error(
                403,
                "until the game is finished (every seat agreed, or a proposal's time limit"
                " passed), a seat replays it from its own point of view only",
            )
    upto = finished.number if finished is not None else live.table.number
    try:
        steps = await run_in_threadpool(replay_steps, server.store, live.table.id, viewer, upto)
    except ExportError as exc:
        return error(400, str(exc))
    chat = await run_in_threadpool(server.store.chat, live.table.id)
    return await json_answer(
        {
            "seat": viewer,
            "number": upto,
            "finished": None if finished is None else finished.to_json(),
            "steps": steps,
            "chat": [line.to_json() for line in chat],
        }
    )
