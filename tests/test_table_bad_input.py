"""Bad input never gets a 5xx, on SQLite and on Postgres: a bounded fuzz of
``cardzones serve`` over HTTP and over the WebSocket, with the server's log
read afterwards for any traceback. The count is fixed, so it runs in CI."""

from __future__ import annotations

import json
import random
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from tablekit import ServerProcess, fab_body, random_act, redemption_body
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

#: Requests and frames per store; enough to touch every endpoint and every
#: kind of frame many times, few enough for CI.
HTTP_CASES = 160
FRAMES = 160

#: Close codes of the protocol (docs/protocol.md): never 1011, an internal error.
CLOSE_CODES = {1000, 1008, 1013, 4400, 4401, 4403, 4429}

NASTY: list[Any] = [
    None,
    True,
    0,
    -1,
    1.5,
    10**40,
    "",
    "\x00",
    "a\x00b",
    "x" * 5_000,
    "spectator",
    "al.ice",
    "Zoë",
    "\ud800",
    "<script>alert(1)</script>",
    [],
    {},
    ["x"] * 300,
    {"a": {"b": {"c": [1, [2, [3]]]}}},
    # A string far over any parameter's max_chars, and a list of them.
    "k" * 40_000,
    ["w" * 65] * 40,
]

#: Escaped quotes: a scan for strings by pattern took time growing with the
#: square of their number.
QUOTES = '"' + '\\"' * 30_000 + '"'


@pytest.fixture(params=["sqlite", "postgres"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerProcess]:
    if request.param == "sqlite":
        db = str(tmp_path / "tables.sqlite3")
    else:
        db = request.getfixturevalue("postgres_url")
    log = tmp_path / "server.log"
    # The fuzz makes many tables from one address, faster than a stranger may.
    args = ("--max-creates-per-minute", "100000", "--max-request-seconds", "2")
    with ServerProcess(db, *args, log=log) as server:
        yield server


def no_traceback(server: ServerProcess) -> None:
    assert server.log is not None
    text = server.log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in text, text[-4000:]
    assert "Exception in ASGI" not in text and "internal error" not in text, text[-4000:]


def mangle(value: Any, rng: random.Random, depth: int = 0) -> Any:
    """``value`` with one part, somewhere inside it, replaced by a nasty one."""
    if depth > 6 or rng.random() < 0.25:
        return NASTY[rng.randrange(len(NASTY))]
    if isinstance(value, dict) and value:
        key = rng.choice([*value, "extra"])
        return {**value, key: mangle(value.get(key), rng, depth + 1)}
    if isinstance(value, list) and value:
        i = rng.randrange(len(value))
        return [*value[:i], mangle(value[i], rng, depth + 1), *value[i + 1 :]]
    return NASTY[rng.randrange(len(NASTY))]


def nasty_text(rng: random.Random) -> str:
    return rng.choice(
        [
            "[" * 3000,
            "{" * 50 + "}" * 50,
            "[" + QUOTES + "]",
            '{"say": ' + QUOTES + ', "id": 1}',
            '{"act": {"grant": {"card": "alice.hand[0]", "keyword": ' + QUOTES + "}}}",
            '{"ruleset": "fab", "seed": ' + "9" * 5000 + "}",
            '{"ruleset": "fab", "players": ["a\\u0000b"]}',
            "\ufeff{}",
            "nul\x00",
            "{'single': 'quotes'}",
            '"a string"',
            "",
        ]
    )


def http_case(client: httpx.Client, rng: random.Random, table: str, token: str) -> httpx.Response:
    kind = rng.randrange(7)
    if kind == 0:
        body = mangle(rng.choice([fab_body(), redemption_body()]), rng)
        return client.post("/api/tables", content=json.dumps(body), headers=JSON)
    if kind == 1:
        return client.post(
            "/api/tables", content=nasty_text(rng).encode("utf-8", "surrogatepass"), headers=JSON
        )
    if kind == 2:
        scenario = rng.choice(
            [
                "ruleset: fab\nsetup: " + "[" * 2000,
                "ruleset: fab\nplayers: [spectator, bob]\n",
                "a: &a [*a, *a]\nb: &b [*a, *a, *a]\nruleset: fab\n",
                "ruleset: fab\nsetup: {alice.deck: [" + ", ".join(["A"] * 2000) + "]}\n",
                "\x00",
            ]
        )
        return client.post("/api/tables", json={"scenario": scenario})
    weird_id = rng.choice(
        ["a%00b", quote("a\x00b"), "x" * 500, quote("Zoë"), "..", "%2e%2e", table]
    )
    headers = {
        "Authorization": rng.choice(
            [f"Bearer {token}", "Bearer \x7f", "Basic x", "Bearer " + "t" * 5000]
        )
    }
    if kind == 3:
        path = rng.choice(["view", "log", "legal", "history", "finish-get"])
        return client.get(f"/api/tables/{weird_id}/{path}", headers=headers)
    if kind == 4:
        query = rng.choice(
            [
                "actions=" + quote("\x00,,," * 50),
                "as=" + quote("\x00"),
                "as=spectator",
                "as=" + "x" * 3000,
                "actions=move,nope",
            ]
        )
        path = rng.choice(["legal", "history"])
        return client.get(f"/api/tables/{table}/{path}?{query}", headers=headers)
    if kind == 5:
        return client.get(f"/play/{weird_id}")
    return client.request(
        rng.choice(["PUT", "DELETE", "PATCH", "POST"]),
        f"/api/tables/{weird_id}/view",
        content=b"\xff\xfe",
    )


JSON = {"Content-Type": "application/json"}


def aborted_uploads(server: ServerProcess) -> None:
    """Bodies cut short: the client goes away in the middle."""
    for length in (10, 100_000):
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(
                b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\n"
                + f"Content-Length: {length + 50}\r\n\r\n".encode()
                + b"{" * length
            )
            time.sleep(0.1)


def test_quadratic_and_oversized_inputs_are_answered_at_once(served: ServerProcess) -> None:
    """The inputs that once held the event loop: a first frame and a body of
    escaped quotes, and acts with strings far over their parameter's bound."""
    created = served.create(fab_body())
    table, token = created["table"], created["seats"]["alice"]
    started = time.monotonic()
    body = '{"ruleset": "fab", "seed": "' + '\\"' * 480_000 + '"}'
    answer = httpx.post(served.url + "/api/tables", content=body, headers=JSON, timeout=20)
    assert answer.status_code == 400
    ws = open_socket(served, table)
    ws.send("[" + QUOTES + "]")
    assert "error" in json.loads(ws.recv(timeout=20))
    ws.close()
    assert time.monotonic() - started < 5.0
    ws = open_socket(served, table)
    ws.send(json.dumps({"hello": token}))
    assert "welcome" in json.loads(ws.recv(timeout=20))
    for step in (
        {"grant": {"card": "alice.hand[0]", "keyword": "k" * 60_000}},
        {"move": {"card": "alice.hand[0]", "to": "alice." + "z" * 300}},
        {"move": {"card": "c" * 201, "to": "alice.hand"}},
    ):
        ws.send(json.dumps({"act": step, "id": 1}))
        answer = answer_to(ws)
        assert "refused" in answer and "at most" in answer["error"], answer
    ws.close()
    no_traceback(served)


def test_http_fuzz_never_answers_5xx(served: ServerProcess) -> None:
    rng = random.Random(404)
    with httpx.Client(base_url=served.url, timeout=20.0) as client:
        created = client.post("/api/tables", json=fab_body()).json()
        table, token = created["table"], created["seats"]["alice"]
        statuses: dict[int, int] = {}
        for _ in range(HTTP_CASES):
            answer = http_case(client, rng, table, token)
            statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
            assert answer.status_code < 500, answer.text
        aborted_uploads(served)
        assert (
            client.get(
                f"/api/tables/{table}/view", headers={"Authorization": f"Bearer {token}"}
            ).status_code
            == 200
        )
    assert any(400 <= s < 500 for s in statuses) and 201 in statuses, statuses
    no_traceback(served)


def open_socket(server: ServerProcess, table: str) -> ClientConnection:
    return connect(f"{server.ws_url}/api/tables/{table}/ws", open_timeout=10, legacy=True)


def answer_to(ws: ClientConnection) -> dict[str, Any]:
    """The frame that answers the last one sent (events and chat skipped)."""
    while True:
        frame: dict[str, Any] = json.loads(ws.recv(timeout=20))
        if {"ack", "said", "refused", "error"} & set(frame):
            return frame


def test_websocket_fuzz_never_fails_inside(served: ServerProcess) -> None:
    rng = random.Random(1011)
    body = fab_body()
    created = httpx.post(served.url + "/api/tables", json=body, timeout=20).json()
    table, seats = created["table"], created["seats"]
    # Hellos that open nothing, each closed with a code of the protocol.
    for hello in [
        *NASTY[:8],
        {"hello": "x" * 70_000},
        {"hello": NASTY},
        {"hello": seats["bob"], "after": -(10**40)},
        {"hello": seats["bob"], "after": 10**40, "chat_after": "x"},
    ]:
        ws = open_socket(served, table)
        try:
            ws.send(
                json.dumps(hello) if not isinstance(hello, str) or rng.random() < 0.5 else hello
            )
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=20)
            code = closed.value.rcvd.code if closed.value.rcvd else None
            assert code in CLOSE_CODES, code
        finally:
            ws.close()
    ws = open_socket(served, table)
    ws.send(json.dumps({"hello": seats["alice"]}))
    view = json.loads(ws.recv(timeout=20))["welcome"]["view"]
    sent = 0
    while sent < FRAMES:
        choice = rng.random()
        if choice < 0.4:
            act = random_act(view, "alice", rng.randrange)
            frame = json.dumps({"act": mangle(act, rng) if rng.random() < 0.7 else act, "id": sent})
        elif choice < 0.6:
            frame = json.dumps(
                mangle(
                    {
                        "act": {"move": {"card": "alice.deck[0]", "to": "alice.hand"}},
                        "id": sent,
                        "after": 0,
                    },
                    rng,
                )
            )
        elif choice < 0.8:
            frame = nasty_text(rng)
        else:
            frame = json.dumps({"say": rng.choice(NASTY[6:14]), "id": sent})
        try:
            ws.send(frame.encode("utf-8", "surrogatepass") if rng.random() < 0.1 else frame)
        except ValueError:
            ws.send(frame.encode("utf-8", "surrogatepass"))
        sent += 1
        try:
            answer = answer_to(ws)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            assert code in CLOSE_CODES, code
            ws = open_socket(served, table)
            ws.send(json.dumps({"hello": seats["alice"]}))
            view = json.loads(ws.recv(timeout=20))["welcome"]["view"]
            continue
        assert {"error", "ack", "said"} & set(answer), answer
        time.sleep(0.012)  # well under the protocol's 100 frames a second
    ws.close()
    token = seats["bob"]
    answer = httpx.get(
        f"{served.url}/api/tables/{table}/view",
        headers={"Authorization": f"Bearer {token}"},
        timeout=20,
    )
    assert answer.status_code == 200
    no_traceback(served)
