"""The record of a server's pauses (cardzones/table/pauses.py): each
collection, group commit, checkpoint and lag of the event loop, with the
seconds' CPU beside them, one JSON line each, and nothing without the file."""

from __future__ import annotations

import asyncio
import gc
import json
import time
from pathlib import Path

from cardzones.table import pauses
from cardzones.table.group import GroupCommit


def test_the_record_holds_collections_commits_lag_and_seconds(tmp_path: Path) -> None:
    path = tmp_path / "pauses.jsonl"
    group = GroupCommit(lambda rows: [None] * len(rows))

    async def serve() -> None:
        async with pauses.recording(str(path)) as record:
            assert record is not None and pauses.current is record
            await asyncio.sleep(0.05)
            gc.collect()
            group.append({"number": 1})
            time.sleep(0.1)  # the loop's thread busy: the ticker wakes late
            await asyncio.sleep(1.1)
        assert pauses.current is None

    started = time.time()
    asyncio.run(serve())
    group.close()
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    kinds = {line["kind"] for line in lines}
    assert {"gc", "commit", "lag", "second"} <= kinds
    assert all(started - 1 <= line["at"] <= time.time() for line in lines)
    (full,) = [line for line in lines if line["kind"] == "gc" and line["generation"] == 2]
    assert full["ms"] >= 0
    (commit,) = [line for line in lines if line["kind"] == "commit"]
    assert commit["rows"] == 1
    assert max(line["ms"] for line in lines if line["kind"] == "lag") >= 80
    second = next(line for line in lines if line["kind"] == "second")
    assert second["cpu_ms"] >= 0 and 0 <= second["machine"] <= 1
    # No collector callback of the record is left once it is closed.
    assert not [c for c in gc.callbacks if isinstance(getattr(c, "__self__", None), pauses.Pauses)]


def test_without_a_file_nothing_is_recorded(tmp_path: Path) -> None:
    async def serve() -> None:
        async with pauses.recording("") as record:
            assert record is None and pauses.current is None
            pauses.note("commit", time.time(), 1.0, rows=1)  # dropped, no error

    asyncio.run(serve())
    assert list(tmp_path.iterdir()) == []
