"""``GET /api/tables/ID/legal`` under load: an answer kept per position, one
computation at a time per seat, and a budget of computing time per seat
(cardzones/web/legal.py), on SQLite and on Postgres."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tablekit import act, create, fab_body, seated

from cardzones.web import legal as legal_module
from cardzones.web.app import create_app
from cardzones.web.legal import BURST, MAX_WAITING, RATE, Busy, LegalDesk


@pytest.fixture(params=["sqlite", "postgres"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    if request.param == "sqlite":
        url = str(tmp_path / "tables.sqlite3")
    else:
        url = request.getfixturevalue("postgres_url")
    with TestClient(create_app(url)) as client:
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def desk(client: TestClient) -> LegalDesk:
    found: LegalDesk = client.app.state.server.legal  # type: ignore[attr-defined]
    return found


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_list_is_computed_once_per_position_and_again_after_an_event(
    client: TestClient,
) -> None:
    created = create(client, fab_body())
    url = f"/api/tables/{created['table']}/legal"
    alice = bearer(created["seats"]["alice"])
    first = client.get(url, headers=alice).json()
    assert desk(client).computed == 1
    for _ in range(5):
        assert client.get(url, headers=alice).json() == first
    assert desk(client).computed == 1
    # Each seat's own list; a list of some actions is a list of its own.
    bob = client.get(url, headers=bearer(created["seats"]["bob"])).json()
    assert bob != first and desk(client).computed == 2
    only = client.get(url, params={"actions": "draw,play"}, headers=alice).json()
    assert {name for entry in only["legal"] for name in entry["act"]} == {"play", "draw"}
    assert client.get(url, params={"actions": "play,draw"}, headers=alice).json() == only
    assert desk(client).computed == 3
    with seated(client, created) as seats:
        act(seats, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
        after = client.get(url, headers=alice).json()
        assert after["number"] == 1 and after["legal"] != first["legal"]
        assert desk(client).computed == 4
        # Every listed act is still accepted at the position it was listed for.
        entry = next(e for e in after["legal"] if "play" in e["act"])
        answer = act(seats, "alice", entry["act"])
        assert "ack" in answer, answer


def test_a_seat_out_of_credit_gets_429_and_no_other_seat_is_slowed(client: TestClient) -> None:
    clock = Clock()
    desk(client).clock = clock
    created = create(client, fab_body())
    table = created["table"]
    url = f"/api/tables/{table}/legal"
    alice, bob = bearer(created["seats"]["alice"]), bearer(created["seats"]["bob"])
    assert client.get(url, headers=alice).status_code == 200
    # Spend alice's credit as though her lists had taken long to compute.
    desk(client).seats[(table, "alice")].budget.charge(BURST + 2 * RATE, clock.now)
    refused = client.get(url, headers=alice)
    assert refused.status_code == 429
    wait = int(refused.headers["retry-after"])
    assert wait >= 2 and f"ask again in {wait} s" in refused.json()["error"]
    assert client.get(url, headers=bob).status_code == 200
    assert client.get(url, headers=bearer(created["spectator"])).json()["legal"] == []
    # A refused request changes nothing, and once the wait is over she is served.
    clock.now += wait
    assert client.get(url, headers=alice).status_code == 200


def test_answers_from_memory_cost_credit_too(client: TestClient) -> None:
    clock = Clock()
    desk(client).clock = clock
    created = create(client, fab_body())
    url = f"/api/tables/{created['table']}/legal"
    alice = bearer(created["seats"]["alice"])
    statuses = [client.get(url, headers=alice).status_code for _ in range(400)]
    assert statuses[0] == 200 and 429 in statuses
    # Bounded: no more than the burst's worth of minimum charges, plus one.
    assert statuses.index(429) <= int(BURST / legal_module.MIN_CHARGE) + 1


def test_too_many_or_too_long_action_names_get_400(client: TestClient) -> None:
    created = create(client, fab_body())
    url = f"/api/tables/{created['table']}/legal"
    alice = bearer(created["seats"]["alice"])
    many = ",".join(f"a{i}" for i in range(legal_module.MAX_NAMES + 1))
    for names in (many, "x" * (legal_module.MAX_NAME + 1)):
        answer = client.get(url, params={"actions": names}, headers=alice)
        assert answer.status_code == 400 and "actions:" in answer.json()["error"]
    assert desk(client).computed == 0


def test_one_computation_at_a_time_per_seat_and_a_few_waiting() -> None:
    """Requests of one seat wait for each other; beyond MAX_WAITING they are
    refused at once; another seat is not held up."""

    async def scenario() -> None:
        desk = LegalDesk()
        running: list[str] = []
        most = 0
        release = asyncio.Event()

        async def read(what: Any) -> Any:
            nonlocal most
            running.append("x")
            most = max(most, len(running))
            await release.wait()
            running.pop()
            return 7, [], True

        waiters = [
            asyncio.create_task(desk.answer(read, "t", "alice", None)) for _ in range(MAX_WAITING)
        ]
        await asyncio.sleep(0.01)
        with pytest.raises(Busy):
            await desk.answer(read, "t", "alice", None)
        other = asyncio.create_task(desk.answer(read, "t", "bob", None))
        await asyncio.sleep(0.01)
        assert most == 2  # alice's one computation, and bob's
        release.set()
        for task in [*waiters, other]:
            assert await task == (7, [])

    asyncio.run(scenario())


def test_a_request_is_charged_its_making_not_its_wait_for_a_turn() -> None:
    """A list that waited 0.3 s for a worker thread (a server behind) and
    took 0.05 s to make costs its seat 0.05 s of its budget, not 0.35: a
    server's own queue is not spent from its seats' budgets."""

    class Slow:
        number = 3

        def legal(self, *_args: Any, **_kwargs: Any) -> list[dict[str, Any]]:
            time.sleep(0.05)
            return [{"act": {"draw": {}}, "result": "moved"}]

    async def scenario() -> float:
        desk = LegalDesk()

        async def read(what: Any) -> Any:
            await asyncio.sleep(0.3)  # the queue for a worker thread
            return what(Slow())

        assert await desk.answer(read, "t", "alice", None) == (3, Slow().legal())
        return desk.seats[("t", "alice")].budget.charged

    charged = asyncio.run(scenario())
    assert 0.05 <= charged < 0.2
