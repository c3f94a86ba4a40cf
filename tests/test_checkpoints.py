"""Checkpoints of a SQLite store's log off the act path
(cardzones/table/checkpoints.py): the action log's connections never
checkpoint at their commits; a thread of the store's own copies the log
into the file after them, and the log is then started over."""

from __future__ import annotations

import sqlite3
import time
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa
from tablekit import migrated_store
from test_table_store import creation

from cardzones.table import checkpoints


def test_the_act_path_commits_without_checkpoints_and_a_thread_checkpoints_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The action log's connection has SQLite's own checkpoints off; its
    commits are checkpointed by the store's thread, all of the log, and the
    log is started over rather than grown."""
    monkeypatch.setattr(checkpoints, "EVERY", 0.01)
    path = tmp_path / "tables.sqlite3"
    with migrated_store(str(path)) as store:
        assert store.direct is not None
        table = f"c-{uuid.uuid4().hex[:12]}"
        store.create_table(table, creation(), {"alice": "a" * 64, "bob": "b" * 64}, "c" * 64)
        with store.direct.transaction() as run:
            (conn_setting,) = run(sa.text("PRAGMA wal_autocheckpoint"), {})
        assert conn_setting == (0,)  # the act path never checkpoints at a commit
        for number in range(1, 301):
            store.append(table, number, "alice", {"end_turn": {}})
        deadline = time.monotonic() + 10
        done = store.direct.checkpoints
        whole = done.whole
        while done.whole == whole and time.monotonic() < deadline:
            time.sleep(0.01)
        assert done.runs >= 1 and done.pages > 0 and done.whole >= 1
        # The next commit starts the log over, once it was copied whole:
        # 300 commits of a page or more each are no longer in it.
        store.append(table, 301, "alice", {"end_turn": {}})
        with sqlite3.connect(path) as look:
            (_busy, log, _copied) = look.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert 0 < log < 50
        assert [a.number for a in store.actions(table)][-1] == 301
        running = done.running()
    # Closing the store stops the thread, and nothing was lost.
    assert running and not done.running()
    with migrated_store(str(path)) as again:
        assert len(again.actions(table)) == 301


def test_a_checkpoint_copies_what_was_committed(tmp_path: Path) -> None:
    """One checkpoint run by hand copies every page the log holds, and is
    noted in the record of pauses when one is kept."""
    path = tmp_path / "plain.sqlite3"
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    checkpoints.without_checkpoints(writer)
    writer.execute("CREATE TABLE t (x)")
    for i in range(50):
        writer.execute("INSERT INTO t VALUES (?)", (i,))
    points = checkpoints.Checkpoints(str(path))
    reader = sqlite3.connect(path, isolation_level=None)
    log, copied = points.run(reader)
    assert log > 0 and copied == log
    assert (points.runs, points.pages) == (1, copied)
    points.close()
    writer.close()
    reader.close()
