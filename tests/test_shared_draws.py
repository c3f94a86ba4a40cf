"""A bucket's draw on Postgres in one statement (cardzones/table/rate_windows.py):
the same credit, waits and debts as the draw computed in Python, one
statement on a connection of its own (the engine untouched), and no more
drawn in all than the bucket holds when threads draw at once."""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from tablekit import migrated_store

from cardzones.table.rate_windows import drawn
from cardzones.table.schema import rate_windows
from cardzones.table.store import Store


@pytest.fixture
def store(postgres_url: str) -> Iterator[Store]:
    with migrated_store(postgres_url) as store:
        yield store


def test_a_draw_is_what_drawn_computes_step_by_step(store: Store) -> None:
    """A seeded run of draws, payments and give-backs on one key: each
    answer and the state after it are those of drawn()."""
    assert store.direct_short is not None
    rng = random.Random(36)
    key = f"frames:{uuid.uuid4().hex}"
    burst, rate = 20.0, 7.5
    state: tuple[float, float] | None = None
    now = 1_000.0
    for _ in range(300):
        now += rng.choice((0.0, 0.001, 0.05, 0.3, 2.0))
        want = rng.choice((0.0, 1.0, 5.0, burst / 6))
        spent = rng.choice((0.0, 0.5, 3.0, 11.0, -2.0))
        state, got, wait = drawn(state, want, spent, burst, rate, now)
        assert store.draw(key, want, spent, burst, rate, now) == pytest.approx(
            (got, wait), abs=1e-9
        )


def _statements_beside_the_engine(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The statements the store's own short connections run from now on,
    with the engine made to fail if anything asks it, and no forgetting of
    old rows (which runs a statement of its own now and then)."""

    def no_engine(*_args: Any, **_kwargs: Any) -> None:
        raise AssertionError("the engine was used beside the store's connections")

    monkeypatch.setattr(store.engine, "connect", no_engine)
    monkeypatch.setattr(store.engine, "begin", no_engine)
    monkeypatch.setattr("cardzones.table.rate_windows.FORGET_EVERY", 1 << 30)
    direct = store.direct_short
    assert direct is not None
    statements: list[object] = []
    run = direct.run
    monkeypatch.setattr(direct, "run", lambda *a: statements.append(a[1]) or run(*a))
    return statements


def test_a_draw_is_one_statement_beside_the_engine(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    statements = _statements_beside_the_engine(store, monkeypatch)
    assert store.draw(f"b:{uuid.uuid4().hex}", 5.0, 0.0, 20.0, 20.0, 0.0) == (5.0, 0.0)
    assert len(statements) == 1
    # One draw in FORGET_EVERY also forgets the rows whose time is past, in
    # a statement of its own (one without rows to answer).
    monkeypatch.setattr("cardzones.table.rate_windows.FORGET_EVERY", 1)
    assert store.draw(f"b:{uuid.uuid4().hex}", 5.0, 0.0, 20.0, 20.0, 0.0) == (5.0, 0.0)
    assert len(statements) == 3


def test_draws_at_once_never_take_more_than_the_bucket(store: Store) -> None:
    """Eight threads draw a share at a time from one bucket at one moment:
    together they get its burst, no more, and the rest are told to wait."""
    key = f"budget:{uuid.uuid4().hex}"
    got: list[float] = []
    lock = threading.Lock()

    def drawing() -> None:
        for _ in range(10):
            drawn_now, _wait = store.draw(key, 2.0, 0.0, 30.0, 1.0, 5_000.0)
            with lock:
                got.append(drawn_now)

    threads = [threading.Thread(target=drawing) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(got) == 80 and sum(got) == pytest.approx(30.0)
    assert store.draw(key, 2.0, 0.0, 30.0, 1.0, 5_000.0) == (0.0, 0.0)
    # spent ahead: the debt makes the next draw wait, a second a unit owed
    assert store.draw(key, 2.0, 3.0, 30.0, 1.0, 5_000.0) == (0.0, 3.0)


def test_a_tables_load_and_join_reads_are_one_statement_each(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reads of a table's load (its creation, snapshot and acts), join
    (its seats) and catch-up (its acts, its head) go through the store's own
    connections, one statement each, not through the engine (its ping,
    BEGIN, the SELECT and ROLLBACK)."""
    from test_table_store import creation

    from cardzones.table.host import Host

    host = Host(store, snapshot_every=2)
    table_id = f"r-{uuid.uuid4().hex[:12]}"
    store.create_table(table_id, creation(), {"alice": "a" * 64, "bob": "b" * 64}, "c" * 64)
    table = host.load(table_id)
    assert table is not None
    for _ in range(3):
        host.act(table, "alice", {"end_turn": {}} if table.number % 2 else DRAW_ONE)

    statements = _statements_beside_the_engine(store, monkeypatch)
    assert store.seat(table_id, "nobody") is None
    assert store.creation(table_id) is not None and store.creation("none") is None
    assert store.snapshot(table_id) is not None and store.snapshot(table_id, upto=0) is None
    assert store.head(table_id) == 3 and [a.number for a in store.actions(table_id, 1)] == [2, 3]
    assert len(statements) == 7
    monkeypatch.undo()  # a load also reads the votes to finish, through the engine
    again = Host(store).load(table_id)  # from its snapshot and the acts after it
    assert again is not None and again.game.same_state(table.game)


def test_holds_and_counts_are_one_transaction_beside_the_engine(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hold, its release and renewal, and a count in a window, each one
    transaction on the store's own connections (BEGIN, the row made or found
    and locked, its write, COMMIT), the engine untouched."""

    statements = _statements_beside_the_engine(store, monkeypatch)
    key = f"seat_sockets:{uuid.uuid4().hex}"
    assert [store.hold(key, "p1", 2, 100.0, 30.0) for _ in range(3)] == [True, True, False]
    assert len(statements) == 6  # two statements a change
    store.release(key, "p1", 101.0)
    assert store.hold(key, "p2", 2, 102.0, 30.0)
    other = f"seat_sockets:{uuid.uuid4().hex}"
    assert store.hold(other, "p1", 1, 102.0, 30.0)
    del statements[:]
    store.renew("p1", [key, other, f"none:{uuid.uuid4().hex}"], 120.0, 30.0)
    assert len(statements) == 1  # every key at once
    # p2's hold has passed its time (140 > 102 + 30), p1's were renewed
    assert store.hold(key, "p3", 2, 140.0, 30.0) and not store.hold(key, "p3", 2, 140.0, 30.0)
    assert not store.hold(other, "p3", 1, 149.0, 30.0) and store.hold(other, "p3", 1, 151.0, 30.0)
    # an entry past its time lapses: renewing it does not bring it back
    store.renew("p2", [key], 141.0, 30.0)
    assert not store.hold(key, "p4", 2, 142.0, 30.0)  # p1 and p3 hold one each
    counted = f"creates:{uuid.uuid4().hex}"
    assert [store.count_event(counted, 2, 60.0, t) for t in (0.0, 1.0, 2.0)] == [0.0, 0.0, 58.0]


def test_forgetting_old_rows_passes_over_a_locked_one(
    store: Store, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Old rows are forgotten without waiting for one another transaction
    holds (a forgetting that waited while holding rows could deadlock with a
    renewal): that one is left for next time, and the draw goes on."""
    import psycopg

    old, locked = (f"seat_frames:{uuid.uuid4().hex}" for _ in range(2))
    for key in (old, locked):
        store.draw(key, 1.0, 0.0, 20.0, 20.0, 0.0)  # its row says nothing after 0.05 s
    monkeypatch.setattr("cardzones.table.rate_windows.FORGET_EVERY", 1)
    with psycopg.connect(postgres_url) as other:
        other.execute("SELECT 1 FROM rate_windows WHERE key = %s FOR UPDATE", (locked,))
        got: list[tuple[float, float]] = []
        drawing = threading.Thread(
            target=lambda: got.append(
                store.draw(f"b:{uuid.uuid4().hex}", 5.0, 0.0, 20.0, 20.0, 100.0)
            )
        )
        drawing.start()
        drawing.join(5.0)
        waited = drawing.is_alive()
        other.rollback()
        drawing.join()
    assert not waited and got == [(5.0, 0.0)]
    keys = {k for (k,) in store.read(sa.select(rate_windows.c.key))}
    assert locked in keys and old not in keys


def test_two_stores_holding_at_once_never_hold_more_than_the_limit(postgres_url: str) -> None:
    """Two processes' stores, eight threads each, holding one key at once:
    the limit is held in all, whoever asked first."""
    key = f"address_sockets:{uuid.uuid4().hex}"
    held: list[bool] = []
    lock = threading.Lock()
    with migrated_store(postgres_url) as one, migrated_store(postgres_url) as two:

        def holding(store: Store, holder: str) -> None:
            for _ in range(4):
                got = store.hold(key, holder, 10, 1_000.0, 30.0)
                with lock:
                    held.append(got)

        threads = [
            threading.Thread(target=holding, args=(store, name))
            for store, name in [(one, "one"), (two, "two")] * 8
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert len(held) == 64 and held.count(True) == 10


def test_two_processes_drawing_shares_at_once_never_get_more_than_the_burst(
    postgres_url: str,
) -> None:
    """A seat's frames on two processes, each drawing a share of the shared
    bucket at a time and spending it in memory: at one moment (no credit
    coming back), the frames let through at once by both come to the burst
    at most (with the shares drawn and not yet spent), and a share given
    back is there for the other process."""
    import asyncio

    from cardzones.web.shared_rates import SharedBucket

    key = f"seat_frames:{uuid.uuid4().hex}"
    now = 2_000.0

    async def frames(bucket: SharedBucket, count: int) -> int:
        return sum([await bucket.turn(now) == 0.0 for _ in range(count)])

    async def both(one: Store, two: Store) -> None:
        first = SharedBucket(one, key, 20.0, 20.0, 5.0)
        second = SharedBucket(two, key, 20.0, 20.0, 5.0)
        passed = await asyncio.gather(frames(first, 15), frames(second, 15))
        # what was let through and what each holds unspent: the burst, no more
        assert sum(passed) + first.local + second.local == 20.0 and sum(passed) <= 20
        # a share drawn and not spent is given back: the other gets it
        third = SharedBucket(one, key, 20.0, 20.0, 5.0)
        assert await frames(third, 1) == 0
        fourth = SharedBucket(two, f"{key}:x", 20.0, 20.0, 5.0)
        assert await frames(fourth, 3) == 3
        fourth.give_back()
        await asyncio.sleep(0.5)  # given back by a task of its own
        fifth = SharedBucket(one, f"{key}:x", 20.0, 20.0, 5.0)
        assert await frames(fifth, 18) == 17  # 20 less the 3 spent

    with migrated_store(postgres_url) as one, migrated_store(postgres_url) as two:
        asyncio.run(both(one, two))


def test_a_welcomes_reads_are_one_statement_each(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A welcome asks whether the table is finished, its newest chat lines
    and, when there are none, the chat's head: one statement each on the
    store's own connections, the engine untouched."""
    from test_table_store import creation

    table_id = f"w-{uuid.uuid4().hex[:12]}"
    store.create_table(table_id, creation(), {"alice": "a" * 64, "bob": "b" * 64}, "c" * 64)
    for text in ("hello", "good game", "again?"):
        store.say(table_id, "alice", text, 0)

    statements = _statements_beside_the_engine(store, monkeypatch)
    assert store.finished(table_id) is None
    assert [line.text for line in store.chat(table_id, 0, 2)] == ["good game", "again?"]
    assert [line.seq for line in store.chat(table_id, 1)] == [2, 3]
    assert store.chat(table_id, 3, 2) == [] and store.chat_head(table_id) == 3
    assert len(statements) == 5


DRAW_ONE = {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}


def test_the_limits_commit_without_waiting_for_the_flush_and_acts_wait(store: Store) -> None:
    """The store's short connections (the shared limits' writes, the
    reads) answer a commit before its flush to disk; the action log's
    connections wait for it, so an act is still acknowledged only once it
    is on disk. A draw so committed is seen at once by another store."""
    short, acts = store.direct_short, store.direct_pg
    assert short is not None and acts is not None
    show = sa.text("SHOW synchronous_commit")
    with short.statements() as run:
        assert run(show, {}) == [("off",)]
    with acts.statements() as run:
        assert run(show, {}) == [("on",)]
    key = f"budget:{uuid.uuid4().hex}"
    assert store.draw(key, 2.0, 0.0, 3.0, 0.25, 7_000.0) == (2.0, 0.0)
    with migrated_store(store.url) as other:
        assert other.draw(key, 2.0, 0.0, 3.0, 0.25, 7_000.0) == (1.0, 0.0)
