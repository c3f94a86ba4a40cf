"""The table chat (docs/protocol.md, "Chat"): a seat's line reaches every
connection once, is kept in the store and comes back in a welcome and in the
replay; every limit is checked before anything is stored, a refused line
changes nothing, and the spectator only reads."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from tablekit import Seat, act, create, fab_body, seated

from cardzones.table.chat import MAX_CHARS, MAX_LINES, RATE_LINES, ChatRefused
from cardzones.table.store import Store
from cardzones.web.app import create_app


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://")) as client:
        yield client


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.server.store  # type: ignore[attr-defined]
    return store


def say(seats: dict[str | None, Seat], who: str | None, text: Any, request: str = "m") -> Any:
    """Send a line; the answer, then (when it was taken) each connection's line."""
    seats[who].ws.send_json({"say": text, "id": request})
    answer = seats[who].receive()
    if "said" in answer:
        for seat in seats.values():
            frame = seat.receive()
            assert frame["chat"]["seq"] == answer["seq"], frame
    return answer


def test_a_line_reaches_everyone_once_with_its_seat_and_event(client: TestClient) -> None:
    created = create(client, fab_body())
    with seated(client, created) as seats:
        act(seats, "alice", {"draw": {}})
        answer = say(seats, "alice", "  good luck, have fun  ", "m1")
        assert answer == {"said": "m1", "seq": 1}
        for seat in seats.values():
            line = seat.frames[-1]["chat"]
            assert {k: line[k] for k in ("seq", "seat", "after", "text")} == {
                "seq": 1,
                "seat": "alice",
                "after": 1,
                "text": "good luck, have fun",
            }
        assert say(seats, "bob", "<script>alert(1)</script>")["seq"] == 2
    # Kept: a new connection's welcome has both, the text as typed.
    with seated(client, created) as seats:
        welcome = seats["bob"].frames[0]["welcome"]
        assert [(c["seat"], c["text"]) for c in welcome["chat"]] == [
            ("alice", "good luck, have fun"),
            ("bob", "<script>alert(1)</script>"),
        ]


def test_a_reconnect_gets_only_the_lines_after_the_one_it_saw(client: TestClient) -> None:
    created = create(client, fab_body())
    with seated(client, created) as seats:
        for n in range(3):
            say(seats, "alice", f"line {n}")
    with client.websocket_connect(f"/api/tables/{created['table']}/ws") as ws:
        ws.send_json({"hello": created["seats"]["bob"], "after": 0, "chat_after": 2})
        welcome = ws.receive_json()["welcome"]
        assert [c["text"] for c in welcome["chat"]] == ["line 2"]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", "is not empty"),
        ("   ", "is not empty"),
        ("x" * (MAX_CHARS + 1), f"at most {MAX_CHARS} characters"),
        ("two\nlines", "no control characters"),
        (7, "is the text of a chat line"),
        (None, "is the text of a chat line"),
    ],
)
def test_a_bad_line_is_refused_and_nothing_is_stored(
    client: TestClient, text: Any, error: str
) -> None:
    created = create(client, fab_body())
    with seated(client, created) as seats:
        answer = say(seats, "alice", text, "bad")
        assert answer["refused"] == "bad" and error in answer["error"]
        # Nobody else heard anything: the next line is number 1 for everyone.
        assert say(seats, "bob", "still here")["seq"] == 1
    assert [line.text for line in store_of(client).chat(created["table"])] == ["still here"]


def test_the_spectator_reads_but_does_not_speak(client: TestClient) -> None:
    created = create(client, fab_body())
    with seated(client, created) as seats:
        answer = say(seats, None, "hello from the rail", "s1")
        assert answer == {"refused": "s1", "error": "a spectator reads the chat only"}
        say(seats, "bob", "hi")
        assert seats[None].frames[-1]["chat"]["text"] == "hi"
    assert len(store_of(client).chat(created["table"])) == 1


def test_a_seat_that_talks_too_fast_is_refused_and_the_table_goes_on(
    client: TestClient,
) -> None:
    created = create(client, fab_body())
    with seated(client, created) as seats:
        for n in range(RATE_LINES):
            assert "said" in say(seats, "alice", f"spam {n}")
        answer = say(seats, "alice", "one more")
        assert "too many chat lines" in answer["error"]
        # Another seat is not slowed down, and the game goes on.
        assert "said" in say(seats, "bob", "calm down")
        assert "ack" in act(seats, "alice", {"draw": {}})
    assert len(store_of(client).chat(created["table"])) == RATE_LINES + 1


def test_a_say_frame_with_other_keys_is_an_error(client: TestClient) -> None:
    created = create(client, fab_body())
    with seated(client, created) as seats:
        seats["alice"].ws.send_json({"say": "hi", "id": 1, "after": 3})
        assert "unknown key(s) 'after'" in seats["alice"].receive()["error"]


def test_a_table_keeps_at_most_max_lines(tmp_path: Any) -> None:
    from cardzones.table.creation import Creation

    store = Store(str(tmp_path / "t.sqlite3"))
    store.migrate()
    store.create_table("t", Creation("fab", ("alice", "bob"), 1, {}, {}), {"alice": "d"}, "s")
    with store.engine.begin() as conn:
        from cardzones.table.schema import chat

        conn.execute(
            chat.insert(),
            [
                {"table_id": "t", "seq": n, "seat": "alice", "at": 0.0, "after": 0, "text": "x"}
                for n in range(1, MAX_LINES + 1)
            ],
        )
    with pytest.raises(ChatRefused, match="chat is full"):
        store.say("t", "bob", "one too many", 0)
    assert store.chat_head("t") == MAX_LINES
    assert [line.seq for line in store.chat("t", newest=2)] == [MAX_LINES - 1, MAX_LINES]
    store.close()


def test_the_replay_holds_the_chat_with_the_event_each_line_followed(
    client: TestClient,
) -> None:
    created = create(client, fab_body())
    with seated(client, created) as seats:
        say(seats, "bob", "before anything")
        act(seats, "alice", {"draw": {}})
        say(seats, "alice", "drew one")
    answer = client.get(
        f"/api/tables/{created['table']}/history",
        headers={"Authorization": f"Bearer {created['spectator']}"},
    )
    chat = answer.json()["chat"]
    assert [(c["after"], c["seat"], c["text"]) for c in chat] == [
        (0, "bob", "before anything"),
        (1, "alice", "drew one"),
    ]


def test_a_line_said_through_one_server_reaches_the_other_on_postgres(
    postgres_url: str,
) -> None:
    """Two server processes on one Postgres: a line said to one reaches the
    connections of the other (NOTIFY ``TABLE:chat``), once."""
    import json

    from tablekit import ServerProcess
    from websockets.sync.client import connect

    def open_seat(server: ServerProcess, table: str, token: str) -> Any:
        ws = connect(f"{server.ws_url}/api/tables/{table}/ws", open_timeout=10, legacy=True)
        ws.send(json.dumps({"hello": token, "after": 0}))
        assert "welcome" in json.loads(ws.recv(timeout=10))
        return ws

    with ServerProcess(postgres_url) as first, ServerProcess(postgres_url) as second:
        created = first.create(fab_body())
        table = created["table"]
        alice = open_seat(first, table, created["seats"]["alice"])
        bob = open_seat(second, table, created["seats"]["bob"])
        watcher = open_seat(second, table, created["spectator"])
        alice.send(json.dumps({"say": "hello from the first server", "id": "m1"}))
        assert json.loads(alice.recv(timeout=10)) == {"said": "m1", "seq": 1}
        for ws in (alice, bob, watcher):
            line = json.loads(ws.recv(timeout=10))["chat"]
            assert (line["seq"], line["seat"], line["text"]) == (
                1,
                "alice",
                "hello from the first server",
            )
        bob.send(json.dumps({"say": "and back", "id": "m2"}))
        assert json.loads(bob.recv(timeout=10))["said"] == "m2"
        assert json.loads(bob.recv(timeout=10))["chat"]["seq"] == 2
        assert json.loads(alice.recv(timeout=10))["chat"]["text"] == "and back"
        for ws in (alice, bob, watcher):
            ws.close()
