"""The WebSocket's ``legal`` frame: a seat's legal acts asked on the socket
it already holds, answered on it in order with its events.

``{"legal": {"card": ID, "zone": Z, "actions": [NAMES], "judge": B, "from":
N}, "id": REF}`` asks what ``GET .../legal?card=ID&...`` asks, of the same
:class:`~cardzones.web.legal.LegalDesk` (the same lists kept per position,
the same budgets per seat and per person, the same pages), without an HTTP
request of its own: no request to parse and route, no token to check again,
no second connection. The answer is ``{"listed": REF, "number": N, "legal":
[...]}`` (with ``"next"`` when there is a next page): the HTTP answer's
keys, after ``listed``. It is queued on the connection behind every event up
to ``N`` and ahead of any later one, so that a client reads it against the
view it has just been sent. A refusal is ``{"refused": REF, "error": ...}``
as an act's is (with ``retry_after``, whole seconds, for a seat out of its
budget).
"""

from __future__ import annotations

from typing import Any

from cardzones.table.json_text import dumps, encode
from cardzones.table.refusals import Refusal
from cardzones.web.hub import Connection, Live
from cardzones.web.legal import MAX_NAME, MAX_NAMES, Busy
from cardzones.web.routes.legal import FROM_PROBLEM, MAX_FROM, MenuAsked, listed
from cardzones.web.server import Server, client_address

#: The keys of a ``legal`` frame, and of what it asks.
LEGAL_FRAME_KEYS = frozenset({"legal", "id"})
ASKED_KEYS = ("card", "zone", "actions", "judge", "from")
#: What a ``legal`` frame looks like, for the messages about bad ones.
LEGAL_FORM = (
    '{"legal": {"card": ID, "zone": ZONE, "actions": [NAME, ...], "judge": false, "from": N}, '
    '"id": ...} (every key of "legal" may be left out)'
)
#: The answer to a spectator's ``legal`` frame.
SPECTATOR = "a spectator has no acts to list"
#: How often a list is made again when an event reached the connection
#: between its making and its sending (never, while the list is made and
#: queued with no other task between; kept so that it never could).
STALE_TRIES = 3


def asked_of(frame: dict[str, Any]) -> MenuAsked:
    """What a ``legal`` frame asks, checked as ``GET .../legal`` checks its
    query. Raises ValueError saying what is wrong.

    >>> asked_of({"legal": {"card": "o1", "actions": ["play"]}})
    MenuAsked(wanted=['play'], card='o1', zone=None, judge=False, start=0)
    """
    extra = sorted(set(frame) - LEGAL_FRAME_KEYS)
    if extra:
        raise ValueError(
            f"unknown key(s) {', '.join(map(repr, extra))}; a legal frame is {LEGAL_FORM}"
        )
    asked = frame["legal"]
    if not isinstance(asked, dict):
        raise ValueError(f"legal: is an object; a legal frame is {LEGAL_FORM}")
    extra = sorted(set(asked) - set(ASKED_KEYS))
    if extra:
        raise ValueError(
            f"legal: unknown key(s) {', '.join(map(repr, extra))}; "
            f"the keys are {', '.join(ASKED_KEYS)}"
        )
    for key in ("card", "zone"):
        if asked.get(key) is not None and not isinstance(asked[key], str):
            raise ValueError(f"{key}: is a text")
    judge = asked.get("judge", False)
    if not isinstance(judge, bool):
        raise ValueError("judge: is true or false")
    start = asked.get("from", 0)
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= MAX_FROM:
        raise ValueError(FROM_PROBLEM)
    return MenuAsked(
        _names(asked.get("actions")), asked.get("card"), asked.get("zone"), judge, start
    ).check()


def _names(names: Any) -> list[str] | None:
    """The action names a frame asks for (None: all), bounded as
    ``?actions=`` is."""
    if names is None:
        return None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError("actions: is a list of action names")
    if len(names) > MAX_NAMES:
        raise ValueError(f"actions: at most {MAX_NAMES} names")
    if any(len(n) > MAX_NAME for n in names):
        raise ValueError(f"actions: a name has at most {MAX_NAME} characters")
    return [n for n in names if n] or None


async def answer_legal(
    server: Server, live: Live, conn: Connection, frame: dict[str, Any], request: str | int | None
) -> None:
    """Answer a ``legal`` frame labelled ``request`` (its ``id``, checked)
    on ``conn``: the seat's legal acts, or why not. The frame has been
    counted in the seat's rate as any frame."""
    try:
        asked = asked_of(frame)
    except ValueError as exc:
        conn.send(dumps({"refused": request, "error": str(exc)}))
        return
    if conn.viewer is None:
        conn.send(dumps({"refused": request, "error": SPECTATOR}))
        return
    address = client_address(conn.websocket)
    try:
        for _ in range(STALE_TRIES):
            number, body = await listed(server, live, conn.viewer, address, asked)
            # Never a list older than the view this connection was sent.
            if number >= conn.last:
                break
        else:
            raise Busy(1)
    except Busy as exc:
        refused = {"refused": request, "error": str(exc), "retry_after": exc.retry_after}
        conn.send(dumps(refused))
        return
    except Refusal as exc:  # a card or zone the seat cannot name
        conn.send(dumps({"refused": request, "error": str(exc)}))
        return
    # The page as kept ({"number": N, ...}), after the request's label.
    conn.send((b'{"listed":' + encode(request) + b"," + body[1:]).decode())
