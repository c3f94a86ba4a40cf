"""An act applied on the event loop (:meth:`Host.act_soon`), its action
committed by the store's writer thread: nothing acknowledged before its
commit, one commit for the acts of every table that came meanwhile, the
table put back where the store says no, and an act seen through when its
caller is cancelled while the commit runs."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tablekit import migrated_store, store_url

from cardzones.errors import CardzonesError
from cardzones.table.creation import Creation
from cardzones.table.finish import CONCEDE
from cardzones.table.group import GroupCommit
from cardzones.table.host import CONCEDED, Host
from cardzones.table.refusals import Refusal
from cardzones.table.store import Store
from cardzones.table.table import Table

DRAW = {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    with migrated_store(store_url(request, tmp_path)) as store:
        yield store


def _table(host: Host, cards: int = 4) -> Table:
    deck = [f"C{i}" for i in range(cards)]
    created = host.create(Creation("fab", ("alice", "bob"), 7, {}, {"alice.deck": deck}))
    table = host.load(created.table_id)
    assert table is not None
    return table


class _Held:
    """The store's writes, the first one held until released."""

    def __init__(self, store: Store) -> None:
        self.write = store.write_together
        self.sizes: list[int] = []
        self.held, self.release = threading.Event(), threading.Event()
        store.group = self.group = GroupCommit(self.rows)

    def rows(self, rows: list[dict[str, Any]]) -> list[CardzonesError | None]:
        self.sizes.append(len(rows))
        if len(self.sizes) == 1:
            self.held.set()
            assert self.release.wait(10)
        return self.write(rows)


def test_an_act_on_the_loop_is_the_tables_event_once_committed(store: Store) -> None:
    host = Host(store)
    table = _table(host)
    held = _Held(store)

    async def play() -> None:
        acting = asyncio.ensure_future(host.act_soon(table, "alice", DRAW))
        await asyncio.to_thread(held.held.wait, 10)
        # The rules have moved the card; the event is not the table's before the commit.
        assert table.number == 0 and not acting.done()
        assert store.actions(table.id) == []
        held.release.set()
        done = await acting
        assert done is not None and done.number == table.number == 1 and done.cpu > 0
        assert [a.number for a in store.actions(table.id)] == [1]

    asyncio.run(play())
    assert table.game.same_state(host.load(table.id).game)  # type: ignore[union-attr]


def test_the_acts_that_come_while_a_commit_runs_share_the_next_one(store: Store) -> None:
    """The writer thread takes every row waiting: twelve tables' acts, all
    submitted while the first commit is held, go in one more commit, and each
    act waits for it."""
    host = Host(store)
    tables = [_table(host) for _ in range(13)]
    held = _Held(store)

    async def play() -> None:
        first = asyncio.ensure_future(host.act_soon(tables[0], "alice", DRAW))
        await asyncio.to_thread(held.held.wait, 10)
        others = [asyncio.ensure_future(host.act_soon(t, "alice", DRAW)) for t in tables[1:]]
        while held.group.waiting() < 12:
            await asyncio.sleep(0.01)
        assert not any(o.done() for o in others)
        held.release.set()
        done = await asyncio.gather(first, *others)
        assert [d.number for d in done if d is not None] == [1] * 13

    asyncio.run(play())
    assert held.sizes == [1, 12]
    assert (held.group.commits, held.group.rows) == (2, 13)
    for table in tables:
        assert [a.number for a in store.actions(table.id)] == [1]


def test_an_act_that_needs_the_store_read_is_handed_back_unchanged(store: Store) -> None:
    """Another writer took the number, or the rules refuse the act on the
    table as this process saw it: None, the table as it was, and the act
    taken by the thread's path, which reads the store."""
    first, second = Host(store), Host(store)
    table = _table(first, cards=1)
    theirs = second.load(table.id)
    assert theirs is not None
    second.act(theirs, "alice", DRAW)
    before = table.game.to_json()
    assert asyncio.run(first.act_soon(table, "alice", DRAW)) is None  # number 1 is taken
    assert table.number == 0 and table.game.to_json() == before
    refused = {"move": {"card": "alice.hand[0]", "to": "alice.graveyard"}}
    assert asyncio.run(first.act_soon(table, "alice", refused)) is None  # no card in hand here
    assert table.number == 0 and table.game.to_json() == before
    assert first.act(table, "alice", refused, read_first=True).number == 2


def test_a_seat_that_conceded_is_refused_on_the_loop_as_in_a_thread(store: Store) -> None:
    host = Host(store)
    table = _table(host)
    host.vote(table, "alice", CONCEDE)
    with pytest.raises(Refusal, match=CONCEDED):
        asyncio.run(host.act_soon(table, "alice", DRAW))
    assert store.actions(table.id) == []


def test_a_failed_commit_puts_the_table_back(store: Store) -> None:
    host = Host(store)
    table = _table(host)
    before = table.game.to_json()

    def broken(rows: list[dict[str, Any]]) -> list[CardzonesError | None]:
        raise OSError("disk full")

    store.group = GroupCommit(broken)
    with pytest.raises(OSError, match="disk full"):
        asyncio.run(host.act_soon(table, "alice", DRAW))
    assert table.number == 0 and table.game.to_json() == before


def test_an_act_cancelled_while_its_commit_runs_is_still_the_tables_event(store: Store) -> None:
    """The caller gives up while the writer commits: the cancellation waits
    for the commit, and the table has the event the store has."""
    host = Host(store)
    table = _table(host)
    held = _Held(store)

    async def play() -> None:
        acting = asyncio.ensure_future(host.act_soon(table, "alice", DRAW))
        await asyncio.to_thread(held.held.wait, 10)
        acting.cancel()
        await asyncio.sleep(0.05)
        assert not acting.done()  # waiting for the commit's outcome
        held.release.set()
        with pytest.raises(asyncio.CancelledError):
            await acting

    asyncio.run(play())
    assert table.number == 1 and [a.number for a in store.actions(table.id)] == [1]
    assert table.game.same_state(host.load(table.id).game)  # type: ignore[union-attr]
