"""Group commit (cardzones/table/group.py): the actions of several tables in
one transaction, each caller told how its own action fared, none of them
returning before the commit that holds it; on SQLite and on Postgres."""

from __future__ import annotations

import os
import select
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tablekit import migrated_store, store_url
from test_table_store import creation

from cardzones.errors import CardzonesError
from cardzones.table.action_log import Conflict, GameOver
from cardzones.table.finish import CONCEDE
from cardzones.table.group import GroupCommit
from cardzones.table.store import Store


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    with migrated_store(store_url(request, tmp_path)) as store:
        yield store


def _tables(store: Store, names: list[str]) -> list[str]:
    """New tables (their ids made unique: a Postgres database outlives a test)."""
    ids = [f"{name}-{uuid.uuid4().hex[:12]}" for name in names]
    for name in ids:
        store.create_table(name, creation(), {"alice": "a" * 64, "bob": "b" * 64}, "c" * 64)
    return ids


def test_one_transaction_tells_each_action_its_own_outcome(store: Store) -> None:
    """A conflict and a seat that conceded refuse their own action and no other."""
    g1, g2, g3 = _tables(store, ["g1", "g2", "g3"])
    store.append(g2, 1, "alice", {"end_turn": {}})
    store.vote(g3, "alice", CONCEDE, ("alice", "bob"), 60.0, time.time())  # alice acts no more
    rows = [
        {"table_id": t, "number": n, "seat": "alice", "at": 0.0, "act": '{"end_turn":{}}'}
        for t, n in ((g1, 1), (g2, 1), (g3, 1), (g1, 2), (g1, 2))
    ]
    outcomes = store.write_together(rows)
    # the second g1 2 (a second writer of the table) finds the number taken
    assert [type(o) for o in outcomes] == [type(None), Conflict, GameOver, type(None), Conflict]
    assert [a.number for a in store.actions(g1)] == [1, 2]
    assert [a.number for a in store.actions(g2)] == [1]
    assert store.actions(g3) == []


def test_actions_appended_while_a_commit_runs_share_the_next_one(store: Store) -> None:
    """The first append's commit is held until six more are waiting: they go
    in one more transaction, and each returns only once it is stored."""
    ids = _tables(store, [f"t{i}" for i in range(7)])
    release, held = threading.Event(), threading.Event()
    write = store.write_together
    sizes: list[int] = []

    def slow(rows: list[dict[str, Any]]) -> list[CardzonesError | None]:
        sizes.append(len(rows))
        if len(sizes) == 1:
            held.set()
            release.wait(10)
        return write(rows)

    store.group = group = GroupCommit(slow)
    errors: list[BaseException] = []

    def append(i: int) -> None:
        try:
            store.append(ids[i], 1, "alice", {"end_turn": {}})
            assert [a.number for a in store.actions(ids[i])] == [1]  # stored on return
        except BaseException as exc:
            errors.append(exc)

    first = threading.Thread(target=append, args=(0,))
    first.start()
    assert held.wait(10)
    others = [threading.Thread(target=append, args=(i,)) for i in range(1, 7)]
    for thread in others:
        thread.start()
    while group.waiting() < 6:
        threading.Event().wait(0.01)
    release.set()
    for thread in (first, *others):
        thread.join(10)
    assert errors == []
    assert sizes == [1, 6]
    assert (group.commits, group.rows) == (2, 7)


def test_a_failed_transaction_fails_every_action_in_it() -> None:
    def broken(rows: list[dict[str, Any]]) -> list[CardzonesError | None]:
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        GroupCommit(broken).append({"number": 1})


def test_a_sqlite_file_appends_on_its_own_connection_all_or_nothing(tmp_path: Path) -> None:
    """On a SQLite file the act path's transactions go through the action
    log's own connections; one that fails half-way stores none of its rows,
    and the next transaction is made as before."""
    with migrated_store(str(tmp_path / "tables.sqlite3")) as store:
        assert store.direct is not None
        (table,) = _tables(store, ["d1"])
        store.append(table, 1, "alice", {"end_turn": {}})
        good = {"table_id": table, "number": 2, "seat": "alice", "at": 0.0, "act": "{}"}
        bad = {**good, "number": 3, "act": object()}  # no driver can store it
        with pytest.raises(Exception, match="bind"):
            store.write_together([good, bad])
        assert [a.number for a in store.actions(table)] == [1]
        assert store.write_together([good]) == [None]
        store.append(table, 3, "alice", {"end_turn": {}})
        assert [a.number for a in store.actions(table)] == [1, 2, 3]


def test_postgres_appends_a_batch_in_one_statement_and_replaces_a_dropped_connection(
    postgres_url: str,
) -> None:
    """On Postgres a batch is one statement in autocommit mode on the action
    log's own connection (its own transaction: no BEGIN, COMMIT or ping
    beside it); a kept connection the server dropped is replaced before
    the next batch, which loses nothing."""
    import psycopg

    with migrated_store(postgres_url) as store:
        assert store.direct_pg is not None
        (table,) = _tables(store, ["p1"])
        store.append(table, 1, "alice", {"end_turn": {}})
        (kept,) = store.direct_pg.kept
        assert kept.autocommit
        sent: list[Any] = []
        run = store.direct_pg.run

        def counting(conn: Any, statement: Any, params: dict[str, Any]) -> Any:
            sent.append(statement)
            return run(conn, statement, params)

        store.direct_pg.run = counting  # type: ignore[method-assign]
        row = {"table_id": table, "number": 2, "seat": "alice", "at": 0.0, "act": "{}"}
        other = {**row, "table_id": _tables(store, ["p2"])[0], "number": 1}
        assert store.write_together([row, other]) == [None, None]
        assert len(sent) == 1  # two tables' acts, one statement
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (kept.info.backend_pid,))
        # the server's goodbye reaches the idle connection's socket
        assert select.select([kept.pgconn.socket], [], [], 5)[0]
        assert store.write_together([{**row, "number": 3}]) == [None]
        assert store.direct_pg.kept[0] is not kept
        assert [a.number for a in store.actions(table)] == [1, 2, 3]


def test_a_kept_connection_past_a_thousand_descriptors_is_kept(postgres_url: str) -> None:
    """A server with a thousand sockets open has descriptors past 1,024,
    which ``select()`` cannot watch: a kept connection there is still looked
    at and kept for the next statement, not replaced at each one."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1_200:
        pytest.skip("needs more than 1,200 open files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1_200), hard))
    ballast = [os.open(os.devnull, os.O_RDONLY) for _ in range(1_100)]
    try:
        with migrated_store(postgres_url) as store:
            assert store.direct_pg is not None
            (table,) = _tables(store, ["fd"])
            store.append(table, 1, "alice", {"end_turn": {}})
            (kept,) = store.direct_pg.kept
            assert kept.pgconn.socket >= 1_024
            store.append(table, 2, "alice", {"end_turn": {}})
            assert store.direct_pg.kept == [kept]
            assert [a.number for a in store.actions(table)] == [1, 2]
    finally:
        for fd in ballast:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_process_passes_over_the_notifications_of_its_own_acts(postgres_url: str) -> None:
    """Each store hears the acts the other appends and not its own: an act's
    notification carries its writer's mark, and a store skips those with
    its own (another process's are heard as before)."""
    import asyncio

    async def listen(store: Store, heard: list[Any]) -> None:
        async for note in store.notifications():
            heard.append(note)

    async def both(mine: Store, other: Store) -> tuple[list[Any], list[Any]]:
        (table,) = _tables(mine, ["n1"])
        heard_mine: list[Any] = []
        heard_other: list[Any] = []
        tasks = [
            asyncio.create_task(listen(mine, heard_mine)),
            asyncio.create_task(listen(other, heard_other)),
        ]
        await asyncio.sleep(1.0)  # both listening
        await asyncio.to_thread(mine.append, table, 1, "alice", {"end_turn": {}})
        await asyncio.to_thread(other.append, table, 2, "bob", {"end_turn": {}})
        await asyncio.to_thread(mine.append, table, 3, "alice", {"end_turn": {}})
        for _ in range(100):
            if len(heard_other) >= 2 and heard_mine:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # and nothing more comes
        for task in tasks:
            task.cancel()
        assert heard_mine == [(table, 2)]
        assert heard_other == [(table, 1), (table, 3)]
        return heard_mine, heard_other

    with migrated_store(postgres_url) as mine, migrated_store(postgres_url) as other:
        assert mine.origin != other.origin
        asyncio.run(both(mine, other))
