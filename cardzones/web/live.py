"""An open table of a server process (:class:`Live`) and the connections to
it (:class:`Connection`), each with the queue of frames one task sends in
order; :mod:`cardzones.web.hub` holds the open tables and what is done to them.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from cardzones.table.table import Table
from cardzones.web.snapshot_pace import SnapshotPace

#: Frames a connection may have waiting before it is dropped as too slow.
QUEUE_LIMIT = 1000
#: The close code for a client that does not read its frames.
SLOW_CLIENT = 1008
#: The close code when the server could not make a connection's frames.
INTERNAL_ERROR = 1011
#: Seconds after another process's last event on a table during which this
#: one reads the store before each act on it.
OTHERS_WRITE = 5.0


def stored_size(act: Any) -> int:
    """The characters of an act as the store keeps it (ASCII JSON, as
    :meth:`~cardzones.table.action_log.ActionLog.append` writes it), which
    a table's bytes of acts count."""
    return len(json.dumps(act, separators=(",", ":")))


class Connection:
    """One WebSocket of one viewer (a seat, or the spectator: None)."""

    def __init__(self, websocket: WebSocket, viewer: str | None) -> None:
        self.websocket = websocket
        self.viewer = viewer
        #: the number of the last event this connection was sent (or welcomed at)
        self.last = 0
        #: the number of the last chat line this connection was sent
        self.chat_last = 0
        self.queue: asyncio.Queue[str | int] = asyncio.Queue()
        self.closed = False

    def send(self, text: str) -> None:
        """Queue one frame."""
        if self.closed:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.close(SLOW_CLIENT)
            return
        self.queue.put_nowait(text)

    def close(self, code: int) -> None:
        """Queue the close, after the frames already queued."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(code)

    async def run_sender(self) -> None:
        """Send the queued frames until the close, or until the client is gone."""
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, int):
                    await self.websocket.close(code=item)
                    return
                await self.websocket.send_text(item)
        except (WebSocketDisconnect, OSError, RuntimeError):
            # The client left (or its socket broke) while frames were waiting:
            # the receiving side sees it too and ends the connection.
            self.closed = True


@dataclass
class Live:
    """An open table: the table, its lock and its connections."""

    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    #: when another process last announced an event this table lacked
    #: (Postgres), on the monotonic clock
    heard_at: float = float("-inf")
    #: the bytes of the acts the table has stored, counted from the store at
    #: its first act here (None until then) and kept up with each event
    act_bytes: int | None = None
    #: when a snapshot of the table is worth its CPU
    pace: SnapshotPace = field(default_factory=SnapshotPace)


#: The frames of one event, by viewer.
EventFrames = tuple[int, dict[str | None, str]]
