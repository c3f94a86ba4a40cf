"""What one client may ask of the table server (docs/table.md, Limits), on
SQLite and on Postgres: tables a minute per address, who may post a new
table, sockets per seat and per server, a seat's frames counted across its
connections, and requests sent too slowly."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect
from tablekit import ServerProcess, create, fab_body

from cardzones.table.limits import Limits
from cardzones.table.store import Store
from cardzones.web.app import create_app
from cardzones.web.rates import PerAddress, SeatRate
from cardzones.web.routes.sockets import TOO_MANY


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest) -> str:
    if request.param == "sqlite":
        return "sqlite://"
    url: str = request.getfixturevalue("postgres_url")
    return url


def client_for(db: str, **limits: Any) -> TestClient:
    return TestClient(create_app(db, limits=Limits(**limits)))


def stored_tables(client: TestClient) -> int:
    store: Store = client.app.state.server.store  # type: ignore[attr-defined]
    return len(store.table_ids())


BODY = {"ruleset": "fab", "setup": {"alice.deck": ["A", "B"]}}

# ----------------------------------------------------------------------
# Making tables
# ----------------------------------------------------------------------


def test_tables_a_minute_per_address_then_429_with_retry_after(db: str) -> None:
    with client_for(db, creates_per_minute=3) as client:
        for _ in range(3):
            create(client, BODY)
        answer = client.post("/api/tables", json=BODY)
        assert answer.status_code == 429
        assert answer.json()["limit"] == "creates_per_minute"
        assert "--max-creates-per-minute" in answer.json()["error"]
        assert 1 <= int(answer.headers["retry-after"]) <= 60
        assert stored_tables(client) == 3


def test_the_rate_is_per_address_and_frees_up_as_the_minute_passes() -> None:
    creates = PerAddress(2, 60.0)
    assert creates.take("a", 0.0) == creates.take("a", 10.0) == 0.0
    assert creates.take("a", 20.0) == 40.0  # the first is 40 s from leaving the window
    assert creates.take("b", 20.0) == 0.0
    assert creates.take("a", 60.0) == 0.0


@pytest.mark.parametrize(
    ("content", "media"),
    [
        ('{"ruleset": "fab"}', "text/plain"),
        ("ruleset=fab", "application/x-www-form-urlencoded"),
        ('{"ruleset": "fab"}', "multipart/form-data; boundary=x"),
        ('{"ruleset": "fab"}', None),
    ],
)
def test_a_body_that_a_page_may_post_without_asking_makes_no_table(
    db: str, content: str, media: str | None
) -> None:
    """A page of any site may make a browser post a form or a text/plain body
    to any address; only application/json, which needs the server's consent,
    makes a table."""
    headers = {"Origin": "https://evil.example"} if media else {}
    if media is not None:
        headers["Content-Type"] = media
    with client_for(db) as client:
        answer = client.post("/api/tables", content=content, headers=headers)
        assert answer.status_code in (403, 415), answer.text
        answer = client.post("/api/tables", content=content, headers={"Content-Type": media or ""})
        assert answer.status_code == 415
        assert "application/json" in answer.json()["error"]
        assert stored_tables(client) == 0


def test_only_the_servers_own_origins_may_post_a_table(db: str) -> None:
    with TestClient(create_app(db, origins=["https://friend.example"])) as client:
        for origin, status in (
            ("https://evil.example", 403),
            ("http://testserver", 201),
            ("https://friend.example", 201),
            (None, 201),  # not a browser: no Origin
        ):
            headers = {"Origin": origin} if origin else {}
            answer = client.post("/api/tables", json=BODY, headers=headers)
            assert answer.status_code == status, (origin, answer.text)
        assert stored_tables(client) == 3


# ----------------------------------------------------------------------
# Sockets
# ----------------------------------------------------------------------


def refused_socket(client: TestClient, table: str, token: str) -> dict[str, Any]:
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"hello": token})
        frame: dict[str, Any] = ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == TOO_MANY
        return frame


def test_sockets_per_seat_are_capped_and_the_other_seats_are_not(db: str) -> None:
    with client_for(db, seat_sockets=2) as client:
        created = create(client, fab_body())
        table, seats = created["table"], created["seats"]
        url = f"/api/tables/{table}/ws"
        with client.websocket_connect(url) as a1, client.websocket_connect(url) as a2:
            for ws in (a1, a2):
                ws.send_json({"hello": seats["alice"]})
                assert "welcome" in ws.receive_json()
            frame = refused_socket(client, table, seats["alice"])
            assert "--max-seat-sockets" in frame["error"]
            with client.websocket_connect(url) as b:
                b.send_json({"hello": seats["bob"]})
                assert "welcome" in b.receive_json()
            server = client.app.state.server  # type: ignore[attr-defined]
            # One count and one rate for the seat, however many connections.
            assert server.seat_sockets[(table, "alice")] == 2
            assert list(server.seat_rates) == [(table, "alice")]
        # Closed, the connections count no more.
        with client.websocket_connect(url) as again:
            again.send_json({"hello": seats["alice"]})
            assert "welcome" in again.receive_json()
        assert client.app.state.server.sockets == 0  # type: ignore[attr-defined]


def test_sockets_per_server_are_capped(db: str) -> None:
    with client_for(db, sockets=2) as client:
        created = create(client, fab_body())
        table = created["table"]
        url = f"/api/tables/{table}/ws"
        # Idle sockets that never said hello count too; the next is turned
        # away before its handshake.
        with client.websocket_connect(url), client.websocket_connect(url):
            with pytest.raises(WebSocketDenialResponse) as denied:
                client.websocket_connect(url).__enter__()
            assert denied.value.status_code == 429
            assert denied.value.json()["limit"] == "sockets"
            assert "--max-sockets" in denied.value.json()["error"]
        with client.websocket_connect(url) as ws:
            ws.send_json({"hello": created["seats"]["bob"]})
            assert "welcome" in ws.receive_json()


def test_sockets_a_minute_per_address_then_429(db: str) -> None:
    """A client reconnecting in a loop is turned away before the handshake
    and before its token is looked up."""
    with client_for(db, sockets_per_minute=3) as client:
        created = create(client, fab_body())
        url = f"/api/tables/{created['table']}/ws"
        for _ in range(3):
            with client.websocket_connect(url) as ws:
                ws.send_json({"hello": created["seats"]["bob"]})
                assert "welcome" in ws.receive_json()
        with pytest.raises(WebSocketDenialResponse) as denied:
            client.websocket_connect(url).__enter__()
        assert denied.value.status_code == 429
        assert 1 <= int(denied.value.headers["retry-after"]) <= 60
        assert "--max-sockets-per-minute" in denied.value.json()["error"]


def test_a_seats_frames_are_counted_across_its_connections() -> None:
    """Thirty connections of one seat go no faster than one: the frames past
    the seat's rate wait their turn, in the order they came."""
    rate = SeatRate(10)
    waits = [rate.take(0.0) for _ in range(30)]
    assert waits[:10] == [0.0] * 10
    assert waits[10:] == sorted(waits[10:]) and waits[-1] == pytest.approx(2.0)
    # A second later, ten more are free again.
    rate = SeatRate(10)
    for _ in range(10):
        rate.take(0.0)
    assert [rate.take(1.0) for _ in range(10)] == [0.0] * 10


# ----------------------------------------------------------------------
# Slow requests, on a real server
# ----------------------------------------------------------------------


@pytest.fixture
def slow_server(tmp_path: Any) -> Iterator[ServerProcess]:
    with ServerProcess(str(tmp_path / "t.sqlite3"), "--max-request-seconds", "1") as server:
        yield server


def closed_within(sock: socket.socket, seconds: float) -> bytes:
    """What the server sent before it closed ``sock`` (it must close it)."""
    sock.settimeout(seconds)
    got = b""
    while True:
        chunk = sock.recv(4096)
        if not chunk:
            return got
        got += chunk


def test_half_sent_headers_are_dropped(slow_server: ServerProcess) -> None:
    with socket.create_connection(("127.0.0.1", slow_server.port)) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        assert closed_within(sock, 10.0) == b""
    # An idle connection that never sends a byte too.
    with socket.create_connection(("127.0.0.1", slow_server.port)) as sock:
        assert closed_within(sock, 10.0) == b""
    # After a whole request, the next one's headers have the same time.
    with socket.create_connection(("127.0.0.1", slow_server.port)) as sock:
        sock.sendall(b"GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        time.sleep(0.2)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 1")
        assert b"200 OK" in closed_within(sock, 10.0)
    assert httpx.get(slow_server.url + "/api/rulesets").status_code == 200


def test_a_half_sent_body_gets_408(slow_server: ServerProcess) -> None:
    with socket.create_connection(("127.0.0.1", slow_server.port)) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        )
        answer = closed_within(sock, 10.0)
    assert b" 408 " in answer.split(b"\r\n")[0]
    assert b"--max-request-seconds" in answer
