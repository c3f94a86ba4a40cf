"""The table server under abuse (docs/table.md, Limits; docs/protocol.md), on
SQLite and on Postgres: input whose checking once took time out of proportion
to its size, unbounded text in acts, large answers asked for again and again,
one client with many seats, and spoofed addresses."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse
from tablekit import ServerProcess, act, create, fab_body, seated, store_url
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from cardzones.acts.actions import LIST_ITEMS, STRING_CHARS, ParamKind
from cardzones.rulesets import get_ruleset, ruleset_names
from cardzones.table.limits import Limits
from cardzones.web import legal as legal_module
from cardzones.web.app import create_app
from cardzones.web.legal import PERSON_BURST, LegalDesk
from cardzones.web.server import address_key


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest) -> str:
    if request.param == "sqlite":
        return "sqlite://"
    url: str = request.getfixturevalue("postgres_url")
    return url


def client_for(db: str, **limits: Any) -> TestClient:
    return TestClient(create_app(db, limits=Limits(**limits)))


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with client_for(db) as client:
        yield client


#: A text of escaped quotes, the worst case of a scan for strings by pattern.
QUOTES = '"' + '\\"' * 32_000 + '"'


def test_a_frame_of_escaped_quotes_or_brackets_is_answered_at_once(client: TestClient) -> None:
    """A first frame of 64 KB, before any token is checked, costs the server
    one parse: no scan of it grows with the square of its quotes."""
    created = create(client, fab_body())
    url = f"/api/tables/{created['table']}/ws"
    for frame, error in (
        ("[" + QUOTES + "]", "a frame is a JSON object"),
        ("[" * 65_000, "nests more than 32 levels"),
        ('{"hello": ' + QUOTES + "}", "does not open it"),
    ):
        started = time.perf_counter()
        with client.websocket_connect(url) as ws:
            ws.send_text(frame)
            assert error in ws.receive_json()["error"]
        assert time.perf_counter() - started < 2.0


def test_a_body_of_escaped_quotes_or_brackets_is_answered_at_once(client: TestClient) -> None:
    started = time.perf_counter()
    body = '{"ruleset": "fab", "seed": ' + '"' + '\\"' * 480_000 + '"}'
    answer = client.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 400 and "seed" in answer.json()["error"]
    answer = client.post(
        "/api/tables", content="[" * 999_000, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 400 and answer.json()["limit"] == "json_depth"
    assert time.perf_counter() - started < 4.0


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def desk(client: TestClient) -> LegalDesk:
    found: LegalDesk = client.app.state.server.legal  # type: ignore[attr-defined]
    return found


# ----------------------------------------------------------------------
# Strings in acts, and a table's bytes
# ----------------------------------------------------------------------


def _params(params: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for param in params:
        yield param
        yield from _params(param.get("fields", []))


def test_every_string_parameter_declares_its_bound_in_the_action_tables(
    client: TestClient,
) -> None:
    answer = client.get("/api/rulesets").json()
    assert {r["name"] for r in answer["rulesets"]} == set(ruleset_names())
    checked = 0
    for ruleset in answer["rulesets"]:
        table = get_ruleset(ruleset["name"]).actions
        for action in ruleset["actions"]:
            for param in _params(action["params"]):
                kind = ParamKind(param["kind"])
                if kind in STRING_CHARS:
                    assert param["max_chars"] <= STRING_CHARS[kind], (action["name"], param)
                    checked += 1
                if kind in LIST_ITEMS:
                    assert param["max_items"] <= LIST_ITEMS[kind], (action["name"], param)
            assert action["name"] in table
    assert checked > 50


def test_cardzones_actions_json_shows_the_same_bounds() -> None:
    from typer.testing import CliRunner

    from cardzones.cli import app

    result = CliRunner().invoke(app, ["actions", "fab", "--json"])
    assert result.exit_code == 0, result.output
    assert '"max_chars": 64' in result.output and '"max_items": 5000' in result.output


def test_an_oversized_string_in_an_act_is_refused_and_changes_nothing(
    client: TestClient,
) -> None:
    created = create(client, fab_body())
    with seated(client, created) as seats:
        card = "alice.hand[0]"
        for step in (
            {"grant": {"card": card, "keyword": "k" * 60_000}},
            {"grant": {"card": card, "keyword": "k" * 65}},
            {"move": {"card": card, "to": "alice." + "z" * 300}},
            {"grant": {"card": card, "keyword": "go_again"}, "as": "l" * 65},
            # a choice of zone, in its one-zone and its mapping forms
            {"move": {"card": card, "to": "alice.graveyard", "choose_zone": "z" * 300}},
            {"move": {"card": card, "to": "alice.graveyard", "choose_zone": {"a" * 300: "x"}}},
            {
                "move": {
                    "card": card,
                    "to": "alice.graveyard",
                    "choose_zone": {"alice": ["z" * 300]},
                }
            },
        ):
            answer = act(seats, "alice", step)
            assert "refused" in answer, answer
            assert "at most" in answer["error"], answer
        assert seats["alice"].number == 0
        answer = act(seats, "alice", {"grant": {"card": card, "keyword": "k" * 64}})
        assert "ack" in answer, answer


def test_a_table_takes_acts_up_to_its_bytes_and_refuses_more(db: str) -> None:
    with client_for(db, table_bytes=400) as client:
        created = create(client, fab_body())
        step = {"shuffle": {"zone": "alice.deck"}}
        with seated(client, created) as seats:
            answers = [act(seats, "alice", step, f"r{i}") for i in range(20)]
        acked = [a for a in answers if "ack" in a]
        assert 5 <= len(acked) < 20
        refused = answers[len(acked)]
        assert "--max-table-bytes" in refused["error"]
        assert all("refused" in a for a in answers[len(acked) :])
        # Opened afresh (as another process would), the table counts its
        # bytes from the store.
        client.app.state.server.hub.tables.clear()  # type: ignore[attr-defined]
        with seated(client, created) as seats:
            assert "--max-table-bytes" in act(seats, "alice", step)["error"]


def test_a_new_tables_first_act_reads_no_bytes_of_acts(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table opened with no act yet has stored no bytes of acts: its first
    act counts from nothing, without reading the store's acts."""
    with client_for(db, table_bytes=400) as client:
        store = client.app.state.server.store  # type: ignore[attr-defined]
        read: list[str] = []
        actions = store.actions
        monkeypatch.setattr(store, "actions", lambda *a, **k: read.append(a[0]) or actions(*a, **k))
        created = create(client, fab_body())
        with seated(client, created) as seats:
            read.clear()  # the table's load read its acts (none)
            assert "ack" in act(seats, "alice", {"shuffle": {"zone": "alice.deck"}})
            assert read == []


# ----------------------------------------------------------------------
# /legal: encoded once, paged, charged by size, budgets per person
# ----------------------------------------------------------------------


def pitched_body(count: int) -> dict[str, Any]:
    body = fab_body()
    names = [f"Pitched{n:04d}" for n in range(count)]
    for name in names:
        body["cards"][name] = {"types": ["action"], "pitch": 1}
    body["setup"]["alice.pitch"] = names
    return body


def test_fab_offers_pitch_orders_that_grow_with_the_cards_not_their_square(
    client: TestClient,
) -> None:
    """4.4.3c: past a few pitched cards, each offer names the card put first."""
    created = create(client, pitched_body(300))
    url = f"/api/tables/{created['table']}/legal"
    answer = client.get(
        url, params={"actions": "pitch_order"}, headers=bearer(created["seats"]["alice"])
    )
    orders = [e["act"]["pitch_order"]["order"] for e in answer.json()["legal"]]
    assert len(orders) == 299 and all(len(o) == 1 for o in orders)
    assert len(answer.content) < 100_000
    with seated(client, created) as seats:
        assert "ack" in act(seats, "alice", answer.json()["legal"][-1]["act"])


def test_a_long_list_comes_in_pages_each_kept_and_charged_by_its_size(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = create(client, pitched_body(60))
    url = f"/api/tables/{created['table']}/legal"
    alice = bearer(created["seats"]["alice"])
    monkeypatch.setattr(legal_module, "PAGE_BYTES", 1_000)
    pages, start = [], 0
    while True:
        answer = client.get(url, params={"from": start}, headers=alice)
        assert answer.status_code == 200 and len(answer.content) < 2_000
        page = answer.json()
        pages += page["legal"]
        if "next" not in page:
            break
        start = page["next"]
    assert desk(client).computed == 1  # one list, encoded in pages
    monkeypatch.setattr(legal_module, "PAGE_BYTES", 10**9)
    desk(client).seats.clear()
    whole = client.get(url, headers=alice).json()
    assert "next" not in whole and len(whole["legal"]) > 60
    assert pages == whole["legal"] and start > 0
    # Asked again from memory, a page costs the time its bytes take to send.
    monkeypatch.setattr(legal_module, "BYTES_PER_SECOND", 100)
    desk(client).clock = lambda: 5_000.0
    assert client.get(url, params={"from": 0}, headers=alice).status_code == 200
    assert client.get(url, params={"from": 0}, headers=alice).status_code == 429
    assert client.get(url, params={"from": "x"}, headers=alice).status_code == 400


def test_a_kept_page_is_answered_without_the_table(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked again at the same position, a page comes from memory with no
    look at the store and no wait for the table's lock; after an event the
    list is made again, from the table as this process holds it (no other
    process writes it), on the event loop or, when its last list took long,
    in one trip to a worker thread."""
    created = create(client, fab_body())
    url = f"/api/tables/{created['table']}/legal"
    alice = bearer(created["seats"]["alice"])
    first = client.get(url, headers=alice).json()
    hub = client.app.state.server.hub  # type: ignore[attr-defined]
    reads = 0
    real_read = hub.read

    async def counted(live: Any, what: Any, **options: Any) -> Any:
        nonlocal reads
        reads += 1
        return await real_read(live, what, **options)

    monkeypatch.setattr(hub, "read", counted)
    computed = desk(client).computed
    assert client.get(url, headers=alice).json() == first and reads == 0
    assert desk(client).computed == computed  # from memory
    with seated(client, created) as seats:
        act(seats, "alice", {"shuffle": {"zone": "alice.deck"}})
    after = client.get(url, headers=alice).json()
    assert after["number"] == 1 and desk(client).computed == computed + 1 and reads <= 1


def test_a_new_page_reads_the_store_only_while_another_process_writes(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A menu at a new position is listed from the process's own copy of the
    table while no other process writes to it, as an act is tried on it;
    once another process's event has been heard of, the store is read first."""
    created = create(client, fab_body())
    url = f"/api/tables/{created['table']}/legal"
    alice = bearer(created["seats"]["alice"])
    server = client.app.state.server  # type: ignore[attr-defined]
    store_reads = 0
    real_actions = server.host.store.actions

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal store_reads
        store_reads += 1
        return real_actions(*args, **kwargs)

    with seated(client, created) as seats:
        act(seats, "alice", {"shuffle": {"zone": "alice.deck"}})
        monkeypatch.setattr(server.host.store, "actions", counted)
        assert client.get(url, headers=alice).json()["number"] == 1
        assert store_reads == 0
        act(seats, "alice", {"shuffle": {"zone": "alice.deck"}})
        live = server.hub.tables[created["table"]]
        live.heard_at = time.monotonic()  # as when another process's event is heard of
        assert client.get(url, headers=alice).json()["number"] == 2
        assert store_reads == 1


def test_one_client_holding_every_seat_has_one_budget(client: TestClient) -> None:
    """The seats and the spectator link of one address share the budget of
    that address: holding more seats buys no more time."""
    desk(client).clock = lambda: 7_000.0
    created = create(client, fab_body())
    url = f"/api/tables/{created['table']}/legal"
    tokens = [*created["seats"].values(), created["spectator"]]
    for token in tokens:
        assert client.get(url, headers=bearer(token)).status_code == 200
    person = desk(client).people["testclient"]
    spent = sum(spent_of(s) for s in desk(client).seats.values())
    assert abs(person.budget.charged - spent) < 1e-6
    person.budget.charge(PERSON_BURST + 1.0, 7_000.0)
    for token in tokens:
        refused = client.get(url, headers=bearer(token))
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1


def spent_of(seat: Any) -> float:
    return float(seat.budget.charged)


# ----------------------------------------------------------------------
# Connections per address, the spectator's link, proxies
# ----------------------------------------------------------------------


def test_one_address_holds_a_few_sockets_and_others_keep_room(db: str) -> None:
    with client_for(db, address_sockets=2, seat_sockets=8) as client:
        created = create(client, fab_body())
        url = f"/api/tables/{created['table']}/ws"
        with client.websocket_connect(url), client.websocket_connect(url):
            with pytest.raises(WebSocketDenialResponse) as denied:
                client.websocket_connect(url).__enter__()
            assert denied.value.status_code == 429
            assert denied.value.json()["limit"] == "address_sockets"
            assert "--max-address-sockets" in denied.value.json()["error"]
        server = client.app.state.server  # type: ignore[attr-defined]
        assert not server.address_sockets  # each closed socket was counted out


def test_the_spectator_link_is_counted_per_address(db: str) -> None:
    """Everyone who has the spectator link shares it: one address holding
    the link's sockets leaves the count of every other address whole."""
    with client_for(db, seat_sockets=1) as client:
        created = create(client, fab_body())
        url = f"/api/tables/{created['table']}/ws"
        server = client.app.state.server  # type: ignore[attr-defined]
        with client.websocket_connect(url) as ws:
            ws.send_json({"hello": created["spectator"]})
            assert "welcome" in ws.receive_json()
            assert (f"{created['table']} testclient", None) in server.seat_sockets
            assert (created["table"], None) not in server.seat_sockets


def test_one_client_holding_several_seats_sends_at_its_address_rate(db: str) -> None:
    """The seats of one client address share its frames a second: holding
    more seats buys no more of the server's time."""
    with client_for(db, address_frames=10, seat_frames=100) as client:
        created = create(client, fab_body())
        started = time.monotonic()
        with seated(client, created) as seats:  # three hellos, one address
            for i in range(10):
                for seat in ("alice", "bob"):
                    answer = act(seats, seat, {"shuffle": {"zone": f"{seat}.deck"}}, f"{i}")
                    assert "ack" in answer or "refused" in answer, answer
        # 23 frames at 10 a second after a burst of 10: 1.3 s at least.
        assert time.monotonic() - started >= 1.2


def test_ipv6_clients_are_counted_by_their_64_prefix() -> None:
    assert address_key("2001:db8:1:2::1") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:2::1") != address_key("2001:db8:1:3::1")
    assert address_key("::ffff:192.0.2.1") == "192.0.2.1"


@pytest.fixture(params=["sqlite", "postgres"])
def served_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(request, tmp_path)


def _half_sent(port: int, count: int) -> list[socket.socket]:
    """Connections that each send half a request's headers and wait."""
    held = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        held.append(sock)
    return held


def test_connections_per_address_are_capped_and_another_address_is_served(
    served_db: str, tmp_path: Path
) -> None:
    log = tmp_path / "server.log"
    args = ("--max-address-connections", "8", "--max-address-sockets", "1")
    with ServerProcess(served_db, *args, log=log) as server:
        created = server.create(fab_body())
        url = f"{server.ws_url}/api/tables/{created['table']}/ws"
        with connect(url, open_timeout=10):
            with pytest.raises(InvalidStatus) as denied:
                connect(url, open_timeout=10)
            assert denied.value.response.status_code == 429
        # Sockets that ended are counted out of their address's connections.
        for _ in range(12):
            with connect(url, open_timeout=10) as ws:
                ws.send(json.dumps({"hello": created["seats"]["alice"]}))
                assert "welcome" in json.loads(ws.recv(timeout=10))
            time.sleep(0.05)
        held = _half_sent(server.port, 8)
        try:
            extra = socket.create_connection(("127.0.0.1", server.port))
            extra.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            extra.settimeout(5)
            answer = extra.recv(4096)
            extra.close()
            assert answer.startswith(b"HTTP/1.1 429") and b"--max-address-connections" in answer
            # Another address (Linux answers on all of 127.0.0.0/8) is served.
            transport = httpx.HTTPTransport(local_address="127.0.0.2")
            with httpx.Client(base_url=server.url, transport=transport) as other:
                assert other.get("/api/rulesets").status_code == 200
        finally:
            for sock in held:
                sock.close()
        time.sleep(0.3)
        assert httpx.get(server.url + "/api/rulesets").status_code == 200
    text = log.read_text()
    assert "open files: at most" in text and "Traceback" not in text
    assert "ERROR" not in text, text  # a socket turned away is no error of the server's


def test_forwarded_headers_count_only_from_a_trusted_proxy(served_db: str, tmp_path: Path) -> None:
    """Without --forwarded-allow-ips, X-Forwarded-For is nobody's address: a
    client on the same machine cannot pass for others past the limit."""
    body = fab_body()
    with ServerProcess(served_db, "--max-creates-per-minute", "2") as server:
        with httpx.Client(base_url=server.url) as client:
            statuses = [
                client.post(
                    "/api/tables", json=body, headers={"X-Forwarded-For": f"203.0.113.{i}"}
                ).status_code
                for i in range(4)
            ]
        assert statuses == [201, 201, 429, 429]
    args = ("--max-creates-per-minute", "2", "--forwarded-allow-ips", "127.0.0.1")
    with ServerProcess(served_db, *args) as server:
        with httpx.Client(base_url=server.url) as client:
            statuses = [
                client.post(
                    "/api/tables", json=body, headers={"X-Forwarded-For": f"203.0.113.{i}"}
                ).status_code
                for i in range(4)
            ]
        assert statuses == [201] * 4


# ----------------------------------------------------------------------
# Votes to finish
# ----------------------------------------------------------------------


def test_votes_to_finish_are_counted_per_seat(db: str) -> None:
    with client_for(db, votes_per_minute=3) as client:
        created = create(client, fab_body())
        url = f"/api/tables/{created['table']}/finish"
        alice = bearer(created["seats"]["alice"])
        statuses = [
            client.post(url, json={"vote": ("agree", "decline")[i % 2]}, headers=alice).status_code
            for i in range(5)
        ]
        assert statuses[:3] == [200] * 3 and statuses[3:] == [429] * 2
        refused = client.post(url, headers=alice)
        assert refused.json()["limit"] == "votes_per_minute"
        assert int(refused.headers["retry-after"]) >= 1
        assert client.post(url, headers=bearer(created["seats"]["bob"])).status_code == 200


def test_requests_to_take_back_count_among_a_seats_votes(db: str) -> None:
    """A take-back's request or answer is a commit and a frame to every
    connection, as a vote to finish is: both count against the seat's votes
    a minute."""
    with client_for(db, votes_per_minute=3) as client:
        created = create(client, fab_body())
        table = created["table"]
        alice = bearer(created["seats"]["alice"])
        finish, take_back = f"/api/tables/{table}/finish", f"/api/tables/{table}/take-back"
        statuses = [
            client.post(finish, json={"vote": "decline"}, headers=alice).status_code,
            *(
                client.post(take_back, json={"acts": 1}, headers=alice).status_code
                for _ in range(4)
            ),
        ]
        assert statuses[3:] == [429, 429]
        assert 429 not in statuses[:3]
        refused = client.post(take_back, json={"acts": 1}, headers=alice)
        assert refused.json()["limit"] == "votes_per_minute"
        assert client.get(take_back, headers=alice).status_code == 200  # reading is not a vote


def test_a_slow_or_dropped_vote_body_ends_without_a_traceback(
    served_db: str, tmp_path: Path
) -> None:
    log = tmp_path / "server.log"
    with ServerProcess(served_db, "--max-request-seconds", "1", log=log) as server:
        created = server.create(fab_body())
        path = f"/api/tables/{created['table']}/finish"
        head = (
            f"POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
            f"{created['seats']['alice']}\r\nContent-Type: application/json\r\n"
            "Content-Length: 100\r\n\r\n{"
        ).encode()
        slow = socket.create_connection(("127.0.0.1", server.port))
        slow.sendall(head)
        slow.settimeout(10)
        started = time.monotonic()
        answer = b""
        while not answer.endswith(b"}"):
            got = slow.recv(4096)
            if not got:
                break
            answer += got
        slow.close()
        assert b" 408 " in answer.split(b"\r\n")[0] and b"request_seconds" in answer
        assert time.monotonic() - started < 5
        for _ in range(3):
            dropped = socket.create_connection(("127.0.0.1", server.port))
            dropped.sendall(head)
            dropped.close()
        time.sleep(0.5)
        assert httpx.get(server.url + "/api/rulesets").status_code == 200
    text = log.read_text()
    assert "Traceback" not in text and "internal error" not in text, text[-3000:]


# ----------------------------------------------------------------------
# Chat, origins
# ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("gg \u202eevol", "direction"),
        ("left\u2066right", "direction"),
        ("one\u2028two", "one line"),
        ("one\u2029two", "one line"),
        ("Z" + "\u0336\u0337\u0338\u0335\u0334" * 40, "combining marks"),
    ],
)
def test_chat_refuses_direction_marks_separators_and_piles_of_marks(
    db: str, text: str, error: str
) -> None:
    with client_for(db) as client:
        created = create(client, fab_body())
        with seated(client, created) as seats:
            seats["alice"].ws.send_json({"say": text, "id": "c"})
            answer = seats["alice"].receive()
            assert answer.get("refused") == "c" and error in answer["error"], answer
            seats["alice"].ws.send_json({"say": "Zoë says ñ and नमस्ते", "id": "d"})
            assert seats["alice"].receive().get("said") == "d"


def test_a_page_is_judged_by_the_configured_origins_not_by_host(served_db: str) -> None:
    """A page of a name that resolves to the server (DNS rebinding) sends a
    Host that matches its origin; only the origins the server was given (its
    own, from where it listens, and --origin) may make tables."""
    body = fab_body()
    with ServerProcess(served_db, "--origin", "https://friend.example") as server:
        port = server.port
        with httpx.Client(base_url=server.url) as client:
            for origin, host, status in (
                (f"http://evil.example:{port}", f"evil.example:{port}", 403),
                (f"http://127.0.0.1:{port}", f"127.0.0.1:{port}", 201),
                (f"http://localhost:{port}", f"evil.example:{port}", 201),
                ("https://friend.example", f"127.0.0.1:{port}", 201),
            ):
                answer = client.post(
                    "/api/tables", json=body, headers={"Origin": origin, "Host": host}
                )
                assert answer.status_code == status, (origin, answer.text)


def test_every_limit_has_a_serve_option_and_a_row_in_the_docs() -> None:
    from typer.testing import CliRunner

    from cardzones.cli import app

    root = Path(__file__).resolve().parents[1]
    docs = (root / "docs" / "table.md").read_text(encoding="utf-8")
    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for name in Limits.names():
        option = Limits.option(name)
        assert option in result.output, option
        assert f"| `{option}` |" in docs, option
    assert "--forwarded-allow-ips" in result.output and "`--forwarded-allow-ips" in docs
