"""The limits per client address shared by several server processes
(:mod:`cardzones.web.shared_rates`), against a store that counts for all of
them: the store's count decides, a process refuses in memory what it knows
is refused, and a store that cannot be reached leaves the process's own
count in force. The same counts on Postgres are in tests/test_table_processes.py."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from cardzones.table.rate_windows import RateWindows, drawn
from cardzones.table.store import Store
from cardzones.web.legal import LegalDesk
from cardzones.web.shared_rates import SharedBucket, SharedPerAddress


class Counting(RateWindows):
    """A store's rate windows on SQLite that counts how often it is asked."""

    def __init__(self, path: Path) -> None:
        super().__init__(str(path))
        self.asked = 0
        self.broken = False

    def count_event(self, key: str, count: int, window: float, now: float) -> float:
        self.asked += 1
        if self.broken:
            raise OSError("the database is gone")
        return super().count_event(key, count, window, now)


@pytest.fixture
def store(tmp_path: Path) -> Counting:
    Store(str(tmp_path / "t.sqlite3")).migrate()
    return Counting(tmp_path / "t.sqlite3")


def test_two_processes_share_one_count_per_address(store: Counting) -> None:
    wall = [1000.0]
    first, second = (
        SharedPerAddress(3, 60.0, store, "creates", clock=lambda: wall[0]) for _ in range(2)
    )
    waits = [(first, second)[n % 2].take("10.0.0.1", now=float(n)) for n in range(5)]
    assert waits[:3] == [0.0, 0.0, 0.0] and all(w > 0 for w in waits[3:])
    assert first.take("10.0.0.2", now=5.0) == 0.0  # another address has its own count
    wall[0] += 61.0  # a minute later, on the clock the processes share
    assert second.take("10.0.0.1", now=70.0) == 0.0


def test_a_process_refuses_in_memory_what_it_knows_is_refused(store: Counting) -> None:
    wall = [0.0]
    first, second = (
        SharedPerAddress(2, 60.0, store, "sockets", clock=lambda: wall[0]) for _ in range(2)
    )
    assert first.take("a", now=0.0) == first.take("a", now=0.0) == 0.0
    asked = store.asked
    assert first.take("a", now=1.0) > 0  # its own count is full: the store is not asked
    assert store.asked == asked
    assert second.take("a", now=1.0) > 0  # the store refuses, and the process remembers
    assert second.take("a", now=2.0) > 0
    assert store.asked == asked + 1


def test_a_store_that_cannot_be_reached_leaves_the_process_count(store: Counting) -> None:
    alone = SharedPerAddress(2, 60.0, store, "creates")
    store.broken = True
    assert [alone.take("a", now=float(n)) > 0 for n in range(3)] == [False, False, True]


class SlowBucket:
    """A bucket's store that takes a while to answer, counting its draws,
    computing each as the store does (:func:`drawn`)."""

    def __init__(self) -> None:
        self.draws = 0
        self.state: tuple[float, float] | None = None
        self.lock = threading.Lock()

    def draw(
        self, key: str, want: float, spent: float, burst: float, rate: float, now: float
    ) -> tuple[float, float]:
        time.sleep(0.05)
        with self.lock:
            self.draws += 1
            self.state, got, wait = drawn(self.state, want, spent, burst, rate, now)
        return got, wait


def test_frames_short_of_credit_wait_for_the_draw_on_its_way() -> None:
    """A hundred frames at once on a process's new share of a bucket (a
    thousand seats joining from one address): one draw covers the share's
    worth, each frame beyond it is paid for, and nothing spent is lost."""
    store = SlowBucket()

    async def frames() -> list[float]:
        bucket = SharedBucket(store, "address_frames:10.0.0.1", 1_000.0, 1.0, 250.0)  # type: ignore[arg-type]
        waits = await asyncio.gather(*(bucket.turn(5_000.0) for _ in range(100)))
        # the first frame paid into the store with the draw, the share came
        # back less the 99 frames after it
        assert bucket.local == 151.0 and store.draws == 1
        waits += await asyncio.gather(*(bucket.turn(5_000.0) for _ in range(300)))
        assert bucket.local + (store.state or (0.0, 0.0))[0] == 600.0  # 1,000 less 400
        return waits

    waits = asyncio.run(frames())
    assert waits == [0.0] * 400
    assert store.draws == 2  # one share, then one more for the frames past it


def test_a_seats_budget_drawn_at_its_welcome_serves_its_first_menus() -> None:
    """A seat's budget of menus is drawn as its socket is welcomed
    (LegalDesk.ready): its first menus, asked while that draw is on its
    way, wait for it rather than draw again, and the charges are paid
    from its share, so the store is asked once."""
    store = SlowBucket()

    def budget(kind: str, key: str, now: float, burst: float, rate: float) -> SharedBucket:
        return SharedBucket(store, f"{kind}:{key}", burst, rate, burst / 6)  # type: ignore[arg-type]

    async def welcomed() -> list[float]:
        desk = LegalDesk(clock=lambda: 5_000.0, budget=budget)
        ahead = asyncio.create_task(desk.ready("t1", "alice"))
        await asyncio.sleep(0)  # the draw is on its way
        seat = desk.seats[("t1", "alice")]
        waits = await asyncio.gather(*(seat.budget.settle(5_000.0) for _ in range(3)))
        await ahead
        seat.budget.charge(0.2, 5_000.0)
        waits.append(await seat.budget.settle(5_000.0))
        return waits

    assert asyncio.run(welcomed()) == [0.0] * 4
    assert store.draws == 1
    assert store.state == (2.5, 5_000.0)  # the burst of 3 s less the share of 0.5
