"""What a server process makes of the notifications of stored events
(Postgres ``NOTIFY``, :meth:`cardzones.web.hub.OpenTables.follow`): another
process's event is caught up, and opens the window in which this process
reads the store before each act and menu on the table; its own events,
heard of while it is still applying them, do not."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from tablekit import migrated_store
from test_table_store import creation

from cardzones.table.host import Host
from cardzones.web.hub import OpenTables

SHUFFLE = {"shuffle": {"zone": "alice.deck"}}


def test_own_events_heard_mid_act_open_no_window_and_others_do(tmp_path: Path) -> None:
    with migrated_store(str(tmp_path / "tables.sqlite3")) as store:
        host = Host(store)
        table_id = host.create(creation()).table_id
        other = Host(store)  # another process writing to the same table
        notes: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

        async def notifications() -> AsyncIterator[tuple[str, Any]]:
            while True:
                yield await notes.get()

        async def settle() -> None:
            for _ in range(20):
                await asyncio.sleep(0)

        async def play() -> None:
            hub = OpenTables(host)
            live = await hub.open(table_id)
            assert live is not None
            follower = asyncio.ensure_future(hub.follow(notifications))
            await settle()
            # This process's act: stored (and so notified) before it is
            # applied to the table, under the table's lock.
            async with live.lock:
                await notes.put((table_id, live.table.number + 1))
                await settle()
                host.act(live.table, "alice", SHUFFLE, read_first=False)
            await settle()
            assert live.heard_at == float("-inf")
            # Another process's event: the table lacks it.
            theirs = host.load(table_id)
            assert theirs is not None
            other.act(theirs, "alice", SHUFFLE)
            await notes.put((table_id, theirs.number))
            await settle()
            assert live.heard_at > float("-inf")
            assert theirs.number == 2 and live.table.number == 1  # caught up by its next act
            follower.cancel()

        asyncio.run(play())
