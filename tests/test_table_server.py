"""The table server over a real socket: ``cardzones serve`` in its own process
on 127.0.0.1 and a free port, driven with httpx and the websockets client, for
both rule sets. Then faults: the server killed with SIGKILL in the middle of a
stream of acts and started again (SQLite and Postgres), two server processes
racing on one table on one Postgres, and ``--workers 2``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from tablekit import BODIES, ServerProcess, fab_body
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from cardzones.table.host import Host
from cardzones.table.limits import Limits
from cardzones.table.store import Store
from cardzones.table.table import rebuild

RULESETS = ("fab", "redemption")


def open_seat(
    server: ServerProcess, table: str, token: str, after: int = 0, **options: Any
) -> tuple[ClientConnection, dict[str, Any]]:
    ws = connect(f"{server.ws_url}/api/tables/{table}/ws", open_timeout=10, legacy=True, **options)
    ws.send(json.dumps({"hello": token, "after": after}))
    return ws, json.loads(ws.recv(timeout=10))


def receive(ws: ClientConnection) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return frame


# ----------------------------------------------------------------------
# The protocol over a real socket
# ----------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_protocol_over_a_real_socket(tmp_path: Path, ruleset: str) -> None:
    with ServerProcess(str(tmp_path / "t.sqlite3")) as server:
        created = server.create(BODIES[ruleset]())
        table = created["table"]
        alice, welcome = open_seat(server, table, created["seats"]["alice"])
        bob, _ = open_seat(server, table, created["seats"]["bob"])
        watcher, public = open_seat(server, table, created["spectator"])
        assert welcome["welcome"]["seat"] == "alice" and public["welcome"]["seat"] is None
        alice.send(
            json.dumps(
                {
                    "act": {"move": {"card": "alice.deck[0]", "to": "alice.hand"}},
                    "id": "c1",
                    "after": 0,
                }
            )
        )
        assert receive(alice) == {"ack": "c1", "number": 1, "result": "moved"}
        for ws in (alice, bob, watcher):
            event = receive(ws)
            assert event["event"] == 1 and event["seat"] == "alice"
        alice.send(
            json.dumps({"act": {"move": {"card": "bob.hand[0]", "to": "alice.hand"}}, "id": "c2"})
        )
        assert receive(alice)["refused"] == "c2"
        watcher.send(json.dumps({"act": {"end_turn": {}}, "id": "c3"}))
        assert receive(watcher) == {"refused": "c3", "error": "a spectator cannot act"}
        headers = {"Authorization": f"Bearer {created['seats']['bob']}"}
        view = httpx.get(f"{server.url}/api/tables/{table}/view", headers=headers).json()
        assert view["number"] == 1 and view["view"]["viewer"] == "bob"
        assert httpx.get(f"{server.url}/api/tables/{table}/log").status_code == 401
        wrong = httpx.get(
            f"{server.url}/api/tables/{table}/log", headers={"Authorization": "Bearer nope"}
        )
        missing = httpx.get(
            f"{server.url}/api/tables/none/log", headers={"Authorization": "Bearer nope"}
        )
        assert wrong.status_code == missing.status_code == 404 and wrong.content == missing.content
        for ws in (alice, bob, watcher):
            ws.close()


def test_bad_frames_over_a_real_socket(tmp_path: Path) -> None:
    with ServerProcess(str(tmp_path / "t.sqlite3")) as server:
        created = server.create(fab_body())
        table = created["table"]
        # a wrong token and a missing table: the same frame, then 4401
        for where in (table, "nosuchtable"):
            ws = connect(f"{server.ws_url}/api/tables/{where}/ws", open_timeout=10, legacy=True)
            ws.send(json.dumps({"hello": "x" * 32, "after": 0}))
            assert receive(ws) == {"error": "no such table, or the token does not open it"}
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        # a frame over 64 KiB gets an error and the connection goes on
        alice, _ = open_seat(server, table, created["seats"]["alice"], max_size=None)
        alice.send("x" * 70_000)
        assert "larger than 65536 bytes" in receive(alice)["error"]
        alice.send(
            json.dumps({"act": {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}, "id": 1})
        )
        assert receive(alice)["ack"] == 1
        receive(alice)  # its event
        # a flood is closed with 4429; the others go on
        bob, _ = open_seat(server, table, created["seats"]["bob"])
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(500):
                bob.send("{}")
            while True:
                bob.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        alice.send(
            json.dumps({"act": {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}, "id": 2})
        )
        assert receive(alice)["ack"] == 2
        # 20 frames a second is never too fast
        for i in range(30):
            alice.send(
                json.dumps({"act": {"flip": {"card": "alice.hero[0]", "face": "up"}}, "id": i})
            )
            time.sleep(0.05)
        answers = [receive(alice) for _ in range(30)]
        assert len(answers) == 30
        # a page of another origin gets no socket
        with pytest.raises(InvalidStatus) as refused:
            connect(
                f"{server.ws_url}/api/tables/{table}/ws",
                origin="https://evil.example",  # type: ignore[arg-type]
                open_timeout=10,
                legacy=True,
            )
        assert refused.value.response.status_code == 403
        alice.close()


def test_sqlite_with_several_workers_is_refused_clearly(tmp_path: Path) -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "cardzones.cli",
            "serve",
            "--db",
            str(tmp_path / "t.sqlite3"),
            "--workers",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "--workers above 1 needs Postgres" in run.stderr
    assert "Traceback" not in run.stderr


# ----------------------------------------------------------------------
# Nothing lost: SIGKILL in the middle of a stream of acts
# ----------------------------------------------------------------------


def toggling_act(seat: str, i: int) -> dict[str, Any]:
    """Always legal: the top card of the seat's deck to its hand, or a card of
    its hand to the bottom of its deck."""
    if i % 2 == 0:
        return {"move": {"card": f"{seat}.deck[0]", "to": f"{seat}.hand"}}
    return {"move": {"card": f"{seat}.hand[0]", "to": f"{seat}.deck", "position": "bottom"}}


class Stream:
    """A seat that sends acts at a steady pace and records every ack, until
    its connection is lost."""

    def __init__(self, ws: ClientConnection, seat: str, count: int, pace: float) -> None:
        self.ws, self.seat, self.count, self.pace = ws, seat, count, pace
        self.acks: dict[str, int] = {}
        self.events: list[int] = []
        self.sent: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.writer = threading.Thread(target=self._write, daemon=True)

    def start(self) -> Stream:
        self.reader.start()
        self.writer.start()
        return self

    def _write(self) -> None:
        try:
            for i in range(self.count):
                request = f"{self.seat}-{i}"
                self.ws.send(json.dumps({"act": toggling_act(self.seat, i), "id": request}))
                self.sent.append(request)
                time.sleep(self.pace)
        except (ConnectionClosed, OSError):
            pass

    def _read(self) -> None:
        try:
            while True:
                frame = json.loads(self.ws.recv(timeout=30))
                if "ack" in frame:
                    self.acks[frame["ack"]] = frame["number"]
                elif "event" in frame:
                    self.events.append(frame["event"])
                elif "refused" in frame:
                    raise AssertionError(f"an always-legal act was refused: {frame}")
        except (ConnectionClosed, OSError, TimeoutError):
            pass

    def join(self) -> None:
        self.writer.join(60)
        self.reader.join(60)


def check_store(db: str, table: str, acked: dict[str, int]) -> int:
    """Every acknowledged act is stored under its number, in one order without
    gaps, and the game rebuilt from the store equals the game replayed."""
    store = Store(db)
    try:
        actions = store.actions(table)
        numbers = [a.number for a in actions]
        assert numbers == list(range(1, len(numbers) + 1))
        by_number = {a.number: a for a in actions}
        for request, number in acked.items():
            seat = request.split("-")[0]
            assert number in by_number and by_number[number].seat == seat
        assert len(set(acked.values())) == len(acked)
        record = store.creation(table)
        assert record is not None
        replayed = rebuild(table, record, [a.act for a in actions])
        loaded = Host(store).load(table)
        assert loaded is not None and loaded.game.to_json() == replayed.game.to_json()
        return len(numbers)
    finally:
        store.close()


def kill_and_restart(db: str, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    server = ServerProcess(db).start()
    created = server.create(fab_body(deck=30))
    table = created["table"]
    acked: dict[str, int] = {}
    try:
        for _ in range(rounds):
            streams = []
            for seat in ("alice", "bob"):
                ws, welcome = open_seat(server, table, created["seats"][seat])
                assert welcome["welcome"]["number"] >= max(acked.values(), default=0)
                streams.append(Stream(ws, seat, count=60, pace=0.02).start())
            time.sleep(rng.uniform(0.2, 1.0))
            server.kill()  # SIGKILL, wherever the server is
            for stream in streams:
                stream.join()
                acked.update(stream.acks)
                # the events each seat got came in order, each once
                assert stream.events == sorted(set(stream.events))
            # an act may be stored and not yet acknowledged, never the reverse
            assert check_store(db, table, acked) >= len(acked)
            server = ServerProcess(db, port=server.port).start()
        assert acked, "no act was acknowledged"
        ws, welcome = open_seat(server, table, created["seats"]["alice"])
        assert welcome["welcome"]["number"] == check_store(db, table, acked)
        ws.close()
    finally:
        server.stop()


def test_nothing_acknowledged_is_lost_when_the_server_is_killed_sqlite(tmp_path: Path) -> None:
    kill_and_restart(str(tmp_path / "t.sqlite3"), rounds=3, seed=1)


def test_nothing_acknowledged_is_lost_when_the_server_is_killed_postgres(postgres_url: str) -> None:
    kill_and_restart(postgres_url, rounds=3, seed=2)


# ----------------------------------------------------------------------
# Several processes on one Postgres
# ----------------------------------------------------------------------


def test_two_servers_racing_on_one_table_give_one_order_and_forward_events(
    postgres_url: str,
) -> None:
    # Each seat sends a little under the rate a seat is allowed: faster, a
    # loaded machine lets more frames wait than the server keeps, and it drops
    # them with an error frame, as it must (docs/protocol.md).
    pace = 1.25 / Limits().seat_frames
    with ServerProcess(postgres_url) as first, ServerProcess(postgres_url) as second:
        created = first.create(fab_body(deck=30))
        table = created["table"]
        alice_ws, _ = open_seat(first, table, created["seats"]["alice"])
        bob_ws, _ = open_seat(second, table, created["seats"]["bob"])
        watcher, _ = open_seat(second, table, created["spectator"])
        streams = [
            Stream(alice_ws, "alice", 40, pace).start(),
            Stream(bob_ws, "bob", 40, pace).start(),
        ]
        for stream in streams:
            stream.writer.join(60)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(len(s.acks) < 40 for s in streams):
            time.sleep(0.05)
        acked = {**streams[0].acks, **streams[1].acks}
        assert len(acked) == 80
        assert sorted(acked.values()) == list(range(1, 81))
        # each seat, on either server, got every event once and in order
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(len(s.events) < 80 for s in streams):
            time.sleep(0.05)
        for stream in streams:
            assert stream.events == list(range(1, 81))
        seen = []
        while len(seen) < 80:
            seen.append(receive(watcher)["event"])
        assert seen == list(range(1, 81))
        for ws in (alice_ws, bob_ws, watcher):
            ws.close()
        check_store(postgres_url, table, acked)


def test_workers_2_on_postgres_serve_one_table(postgres_url: str) -> None:
    with ServerProcess(postgres_url, "--workers", "2") as server:
        created = server.create(fab_body())
        table = created["table"]
        sockets = [open_seat(server, table, created["seats"]["alice"])[0] for _ in range(4)]
        sockets[0].send(json.dumps({"act": toggling_act("alice", 0), "id": "w"}))
        assert receive(sockets[0])["ack"] == "w"
        # every connection, whichever worker holds it, gets the event
        for ws in sockets:
            assert receive(ws)["event"] == 1
            ws.close()
