"""The tables: making one (``POST /api/tables``), a seat's view and log of
one, and the rule sets a table can be made with (``GET /api/rulesets``).
"""

from __future__ import annotations

import logging
import math
import time

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from cardzones.rulesets import get_ruleset, ruleset_names
from cardzones.table.creation import CreationError, creation_from_request
from cardzones.table.deck_lists import deck_list_games
from cardzones.table.limits import Limits, TooDeep, parse_json
from cardzones.web.server import (
    Server,
    bounded_body,
    client_address,
    error,
    json_answer,
    origin_allowed,
    over_limit,
    seat_of,
    too_deep,
)

log = logging.getLogger("cardzones.web")


async def create_table(server: Server, request: Request) -> Response:
    limits = server.limits
    # A page of another site may post a form or a text/plain body without
    # asking first; only its own origins' pages may make tables.
    if not origin_allowed(server, request):
        return error(403, "a page of another web origin may not make tables here")
    too_big = over_limit(
        413,
        f"the body is larger than {limits.body_bytes} bytes "
        f"(cardzones serve {Limits.option('body_bytes')})",
        "body_bytes",
    )
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limits.body_bytes:
        return too_big
    media = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media != "application/json":
        return error(415, "the body is JSON: send Content-Type: application/json")
    wait = await server.creates.turn(client_address(request), time.monotonic())
    if wait > 0:
        return JSONResponse(
            {
                "error": f"more than {limits.creates_per_minute} tables a minute from one "
                f"address (cardzones serve {Limits.option('creates_per_minute')})",
                "limit": "creates_per_minute",
            },
            status_code=429,
            headers={"Retry-After": str(max(1, math.ceil(wait)))},
        )
    body = await bounded_body(request, limits.body_bytes, limits.request_seconds, too_big)
    if isinstance(body, Response):
        return body
    try:
        # Parsed in a worker thread: however the body is made, the event
        # loop that serves every table spends no time on it.
        data = await run_in_threadpool(parse_json, body, limits.json_depth)
    except TooDeep:
        return over_limit(400, too_deep(limits), "json_depth")
    except UnicodeDecodeError as exc:
        return error(400, f"the body is not valid JSON: it is not UTF-8 ({exc.reason})")
    except ValueError as exc:
        return error(400, f"the body is not valid JSON: {exc}")
    try:
        creation = await run_in_threadpool(creation_from_request, data, limits)
    except CreationError as exc:
        if exc.limit is not None:
            return over_limit(400, str(exc), exc.limit)
        return error(400, str(exc))
    created = await run_in_threadpool(server.host.create, creation)
    table = created.table_id
    links = {p: f"/play/{table}#{t}" for p, t in created.seats.items()}
    links["spectator"] = f"/play/{table}#{created.spectator}"
    log.info("table %s created (%s, %d players)", table, creation.ruleset, len(creation.players))
    return JSONResponse(
        {"table": table, "seats": created.seats, "spectator": created.spectator, "links": links},
        status_code=201,
    )


async def rulesets(request: Request, images: bool = False) -> Response:
    """The installed rule sets, each with its action table (what a board
    offers in its menus), how a board lays out a player's mat and how its
    deck lists are written (so that no page names a game), whether it has a
    game procedure a table may run, whether its deck
    lists can start a table (the server's card index holds its cards; asked
    afresh each time, so that an import while the server runs counts), and
    whether the board shows card pictures. Public: it holds no game."""
    decks = await run_in_threadpool(deck_list_games)
    out = []
    for name in ruleset_names():
        ruleset = get_ruleset(name)
        out.append(
            {
                "name": name,
                "actions": [a.to_json() for a in ruleset.actions.values()],
                "deck_lists": name in decks,
                "board": ruleset.board.to_json(),
                "deck_list_help": ruleset.deck_list_help,
                "deck_list_example": ruleset.deck_list_example,
                "procedure": ruleset.has_procedure,
            }
        )
    return JSONResponse({"rulesets": out, "deck_lists": bool(decks), "images": images})


async def rulesets_with_images(request: Request) -> Response:
    return await rulesets(request, images=True)


async def read(server: Server, request: Request, what: str) -> Response:
    opened = await seat_of(server, request)
    if isinstance(opened, Response):
        return opened
    seat, live = opened
    viewer = seat.player
    if what == "view":
        number, view = await server.hub.read(live, lambda t: (t.number, t.view(viewer)))
        return await json_answer({"number": number, "view": view})
    number, entries = await server.hub.read(live, lambda t: (t.number, t.log(viewer, 0)))
    return await json_answer({"number": number, "log": entries})
