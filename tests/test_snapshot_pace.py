"""The live server keeps a table's snapshot at the host's events only once
the acts since the last one cost some times the CPU it did
(:mod:`cardzones.web.snapshot_pace`): the first at once, a dear one not again
after a few cheap acts, and again once the acts have cost that much."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tablekit import act, create, fab_body, seated, store_url

from cardzones.table.limits import Limits
from cardzones.table.store import Store
from cardzones.table.table import Table
from cardzones.web.app import create_app
from cardzones.web.snapshot_pace import ACTS_PER_SNAPSHOT

SHUFFLE = {"shuffle": {"zone": "alice.deck"}}
#: The CPU seconds a snapshot is made to cost here.
SNAPSHOT_CPU = 0.05


def burn(seconds: float) -> None:
    """Spend ``seconds`` of this thread's CPU."""
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        pass


@pytest.fixture(params=["sqlite", "postgres"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        store_url(request, tmp_path), snapshot_every=1, limits=Limits(seat_frames=10_000)
    )
    with TestClient(app) as client:
        yield client


def stored_number(store: Store, table_id: str, want: int) -> int | None:
    """The number of the table's newest stored snapshot, once it is ``want``
    (it is stored after the act's answer) or after a few seconds."""
    deadline = time.monotonic() + 5
    while True:
        found = store.snapshot(table_id)
        number = None if found is None else int(found["number"])
        if number == want or time.monotonic() > deadline:
            return number
        time.sleep(0.01)


def taken_once(taken: list[int], want: list[int]) -> list[int]:
    """The snapshots taken, once they are ``want`` or after a few seconds: a
    snapshot is taken after the act's answer and its event are sent."""
    deadline = time.monotonic() + 5
    while taken != want and time.monotonic() < deadline:
        time.sleep(0.01)
    return taken


def test_a_snapshot_waits_until_the_acts_since_the_last_cost_as_much(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken: list[int] = []
    snapshot = Table.snapshot

    def dear(self: Table) -> dict[str, Any]:
        taken.append(self.number)
        burn(SNAPSHOT_CPU)
        return snapshot(self)

    monkeypatch.setattr(Table, "snapshot", dear)
    store: Store = client.app.state.server.store  # type: ignore[attr-defined]
    created = create(client, fab_body())
    with seated(client, created) as seats:
        assert "ack" in act(seats, "alice", SHUFFLE, "first")
        # due after every event (snapshot_every=1), and the first is worth it
        assert taken_once(taken, [1]) == [1]
        assert stored_number(store, created["table"], 1) == 1
        for n in range(2, 4):
            assert "ack" in act(seats, "alice", SHUFFLE, f"cheap {n}")
        # two shuffles cost far less CPU than the snapshot: none kept after them
        assert taken == [1]
        try_act = Table.try_act

        def costly(self: Table, *args: Any, **kwargs: Any) -> Any:
            # The rules of an act, wherever the server applies them (on its
            # event loop, or in a worker thread with the store read first).
            burn((ACTS_PER_SNAPSHOT + 1) * SNAPSHOT_CPU)  # past its real cost too
            return try_act(self, *args, **kwargs)

        monkeypatch.setattr(Table, "try_act", costly)
        assert "ack" in act(seats, "alice", SHUFFLE, "dear")
        # the acts since the snapshot now cost more than it: the next is kept
        # (and none was taken after the cheap acts: it would come before 4)
        assert taken_once(taken, [1, 4]) == [1, 4]
        assert stored_number(store, created["table"], 4) == 4
