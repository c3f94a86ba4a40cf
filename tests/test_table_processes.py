"""Several ``cardzones serve`` processes on one Postgres, each its own OS
process on its own port on 127.0.0.1, as they would be on several machines
behind a load balancer: the seats of one table connected to different
processes get every act, chat line and vote to finish in one order; a
process killed with SIGKILL loses no acknowledged act, and its seats go on
through another; a seat's chat rate, frame rate, sockets, votes and legal
budget hold across processes, as do an address's new tables. Every wait is
bounded."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tablekit import ServerProcess, fab_body
from test_table_server import Stream, check_store, open_seat
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from cardzones.table.chat import RATE_LINES
from cardzones.table.limits import Limits
from cardzones.web.legal import BURST, MIN_CHARGE, RATE

#: How long a frame may take to reach every process's connections.
REACH = 30.0


class Listener:
    """A connection whose frames a thread records, all of them, in order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while True:
                self.frames.append(json.loads(self.ws.recv(timeout=60)))
        except (ConnectionClosed, OSError, TimeoutError):
            pass

    def of(self, key: str) -> list[dict[str, Any]]:
        return [f for f in list(self.frames) if key in f]

    def wait(self, key: str, count: int) -> list[dict[str, Any]]:
        """The first ``count`` frames with ``key``, once they came (bounded)."""
        deadline = time.monotonic() + REACH
        while len(self.of(key)) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        found = self.of(key)
        assert len(found) >= count, f"{len(found)} of {count} {key!r} frames came"
        return found[:count]

    def close(self) -> None:
        self.ws.close()
        self.thread.join(10)


@contextlib.contextmanager
def two_processes(url: str, *args: str) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two server processes on the store at ``url``, each started with ``args``."""
    with ServerProcess(url, *args) as first, ServerProcess(url, *args) as second:
        yield first, second


def finish(stream: Stream, count: int) -> Stream:
    """Wait (bounded) until the stream has sent its acts and had ``count``
    of them acknowledged, and close its connection."""
    stream.writer.join(REACH)
    deadline = time.monotonic() + REACH
    while len(stream.acks) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    stream.ws.close()
    stream.join()
    return stream


def post_finish(server: ServerProcess, table: str, token: str, vote: str) -> dict[str, Any]:
    answer = httpx.post(
        f"{server.url}/api/tables/{table}/finish",
        json={"vote": vote},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10.0,
    )
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_three_processes_give_every_seat_the_acts_chat_and_votes_in_one_order(
    postgres_url: str,
) -> None:
    pace = 1.25 / Limits().seat_frames
    with (
        ServerProcess(postgres_url) as first,
        ServerProcess(postgres_url) as second,
        ServerProcess(postgres_url) as third,
    ):
        created = first.create(fab_body(deck=30))
        table, seats = created["table"], created["seats"]
        alice_ws, _ = open_seat(first, table, seats["alice"])
        bob_ws, _ = open_seat(second, table, seats["bob"])
        watcher = Listener(open_seat(third, table, created["spectator"])[0])
        # a second connection of alice, on the third process, that talks
        talker = Listener(open_seat(third, table, seats["alice"])[0])
        streams = [Stream(alice_ws, "alice", 25, pace), Stream(bob_ws, "bob", 25, pace)]
        for stream in streams:
            stream.start()
        for stream in streams:
            stream.writer.join(60)
        deadline = time.monotonic() + REACH
        while time.monotonic() < deadline and any(len(s.events) < 50 for s in streams):
            time.sleep(0.05)
        acked = {**streams[0].acks, **streams[1].acks}
        assert sorted(acked.values()) == list(range(1, 51))
        for stream in streams:
            assert stream.events == list(range(1, 51))
        for listener in (watcher, talker):
            assert [f["event"] for f in listener.wait("event", 50)] == list(range(1, 51))

        # chat said on the third process reaches the other two, in its order
        for n in range(3):
            talker.ws.send(json.dumps({"say": f"line {n}", "id": f"c{n}"}))
        said = talker.wait("said", 3)
        assert [s["seq"] for s in said] == [1, 2, 3]
        for listener in (watcher, talker):
            lines = listener.wait("chat", 3)
            assert [(c["chat"]["seq"], c["chat"]["text"]) for c in lines] == [
                (1, "line 0"),
                (2, "line 1"),
                (3, "line 2"),
            ]

        # a vote to finish cast on the second process is heard on the third,
        # and the end agreed on the first is heard everywhere
        post_finish(second, table, seats["bob"], "agree")
        assert watcher.wait("finish", 1)[0]["finish"]["agreed"] == ["bob"]
        ended = post_finish(first, table, seats["alice"], "agree")
        assert ended["finished"] is not None and ended["finished"]["number"] == 50
        for listener in (watcher, talker):
            assert listener.wait("finished", 1)[0]["finished"] == ended["finished"]
        for stream in streams:
            finish(stream, 25)
        for listener in (watcher, talker):
            listener.close()
        check_store(postgres_url, table, acked)


def test_a_process_killed_loses_no_acknowledged_act_and_its_seats_go_on_elsewhere(
    postgres_url: str,
) -> None:
    pace = 1.25 / Limits().seat_frames
    with ServerProcess(postgres_url) as doomed, ServerProcess(postgres_url) as other:
        created = doomed.create(fab_body(deck=30))
        table, seats = created["table"], created["seats"]
        alice_ws, _ = open_seat(doomed, table, seats["alice"])
        bob_ws, _ = open_seat(other, table, seats["bob"])
        streams = [Stream(alice_ws, "alice", 60, pace), Stream(bob_ws, "bob", 60, pace)]
        for stream in streams:
            stream.start()
        time.sleep(0.8)
        doomed.kill()  # SIGKILL, in the middle of the stream
        streams[0].join()
        # alice comes back through the process left, after the last event she got
        last = max(streams[0].events, default=0)
        back, welcome = open_seat(other, table, seats["alice"], after=last)
        got = welcome["welcome"]
        assert got["number"] >= max(streams[0].acks.values(), default=0)
        finish(streams[1], 60)
        again = finish(Stream(back, "alice", 4, pace).start(), 4)
        acked = {**streams[0].acks, **streams[1].acks}
        assert set(again.acks.values()).isdisjoint(acked.values())
        acked.update({f"alice-again-{k}": v for k, v in again.acks.items()})
        assert len(again.acks) == 4
        # every act acknowledged by either process, the dead one's included, is stored
        check_store(postgres_url, table, acked)


@pytest.mark.parametrize("processes", [2, 3])
def test_a_seat_talking_through_several_processes_goes_no_faster_than_through_one(
    postgres_url: str, processes: int
) -> None:
    servers = [ServerProcess(postgres_url).start() for _ in range(processes)]
    try:
        created = servers[0].create(fab_body())
        table, token = created["table"], created["seats"]["alice"]
        talkers = [Listener(open_seat(s, table, token)[0]) for s in servers]
        tries = 2 * RATE_LINES
        for n in range(tries):
            talkers[n % processes].ws.send(json.dumps({"say": f"line {n}", "id": n}))
        answers = []
        for i, talker in enumerate(talkers):
            mine = len(range(i, tries, processes))
            deadline = time.monotonic() + REACH
            while time.monotonic() < deadline:
                got = [f for f in list(talker.frames) if "said" in f or "refused" in f]
                if len(got) >= mine:
                    break
                time.sleep(0.02)
            answers += got
        said = [a for a in answers if "said" in a]
        refused = [a for a in answers if "refused" in a]
        assert len(said) == RATE_LINES and len(refused) == tries - RATE_LINES
        assert all("too many chat lines" in r["error"] for r in refused)
        for talker in talkers:
            talker.close()
    finally:
        for server in servers:
            server.stop()


def test_the_tables_an_address_makes_a_minute_are_counted_across_processes(
    postgres_url: str,
) -> None:
    with two_processes(postgres_url, Limits.option("creates_per_minute"), "3") as (first, second):
        codes = []
        for n in range(8):
            server = (first, second)[n % 2]
            answer = httpx.post(f"{server.url}/api/tables", json=fab_body(), timeout=10.0)
            codes.append(answer.status_code)
            if answer.status_code == 429:
                assert answer.json()["limit"] == "creates_per_minute"
                assert int(answer.headers["Retry-After"]) > 0
        assert sorted(codes) == [201] * 3 + [429] * 5


def test_a_seat_on_two_processes_sends_no_more_frames_than_on_one(postgres_url: str) -> None:
    """The seat's frame rate is one rate, whichever processes its
    connections are on: frames over it wait their turn (they are not
    refused), so the frames of both connections take as long as on one."""
    rate = 5
    with two_processes(postgres_url, Limits.option("seat_frames"), str(rate)) as (first, second):
        created = first.create(fab_body())
        table, token = created["table"], created["seats"]["alice"]
        talkers = [Listener(open_seat(s, table, token)[0]) for s in (first, second)]
        each = 10
        start = time.monotonic()
        for n in range(each):
            for talker in talkers:
                talker.ws.send(json.dumps({"nonsense": n}))
        for talker in talkers:
            talker.wait("error", each)
        took = time.monotonic() - start
        # 22 frames (the two hellos are frames too) at 5 a second after a
        # burst of 5: at least 3.4 s as one rate; two rates of their own
        # would have taken about 1 s
        assert took >= (2 * each + 2 - rate) / rate - 0.5, took
        for talker in talkers:
            talker.close()


def test_a_seats_sockets_are_counted_across_processes(postgres_url: str) -> None:
    with two_processes(postgres_url, Limits.option("seat_sockets"), "2") as (first, second):
        created = first.create(fab_body())
        table, token = created["table"], created["seats"]["alice"]
        one, welcome = open_seat(first, table, token)
        two, _ = open_seat(second, table, token)
        assert "welcome" in welcome
        for server in (first, second):
            third, refused = open_seat(server, table, token)
            assert "--max-seat-sockets" in refused["error"]
            third.close()
        bob, welcome = open_seat(second, table, created["seats"]["bob"])
        assert "welcome" in welcome  # another seat has room of its own
        two.close()  # closed on one process, the room is there on the other
        again, welcome = open_seat(first, table, token)
        assert "welcome" in welcome
        for ws in (one, again, bob):
            ws.close()


def test_a_seats_legal_budget_is_one_across_processes(postgres_url: str) -> None:
    """Asking for the legal acts through two processes buys no more computing
    than through one: the answers a seat gets before its first 429 are about
    one budget's, not two."""
    with two_processes(postgres_url) as (first, second):
        created = first.create(fab_body())
        table, token = created["table"], created["seats"]["alice"]
        headers = {"Authorization": f"Bearer {token}"}
        clients = [
            httpx.Client(base_url=s.url, headers=headers, timeout=10.0) for s in (first, second)
        ]
        answered, refused = [0, 0], [0, 0]
        start = time.monotonic()
        try:
            for n in range(1_200):
                got = clients[n % 2].get(f"/api/tables/{table}/legal")
                if got.status_code == 200:
                    answered[n % 2] += 1
                else:
                    assert got.status_code == 429, got.text
                    refused[n % 2] += 1
                    if sum(refused) >= 20:
                        break
        finally:
            for client in clients:
                client.close()
        took = time.monotonic() - start
        assert sum(refused) >= 20, (answered, refused)
        # one seat's burst of answers from memory, what came back meanwhile,
        # and at most each process's unspent share: far below two budgets
        one_budget = (BURST + RATE * took) / MIN_CHARGE
        shares = 2 * BURST / 6 / MIN_CHARGE
        assert sum(answered) <= one_budget + shares, (answered, took)


def test_a_seats_votes_a_minute_are_counted_across_processes(postgres_url: str) -> None:
    with two_processes(postgres_url, Limits.option("votes_per_minute"), "3") as (first, second):
        created = first.create(fab_body())
        table, token = created["table"], created["seats"]["alice"]
        codes = []
        for n in range(6):
            server = (first, second)[n % 2]
            answer = httpx.post(
                f"{server.url}/api/tables/{table}/finish",
                json={"vote": "decline"},
                headers={"Authorization": f"Bearer {token}"},
                timeout=10.0,
            )
            codes.append(answer.status_code)
            if answer.status_code == 429:
                assert answer.json()["limit"] == "votes_per_minute"
        assert codes == [200] * 3 + [429] * 3
