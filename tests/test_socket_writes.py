"""The server's WebSocket protocol writes the frames an app sends in one turn
of the event loop together (:mod:`cardzones.web.socket_writes`): the same
frames, in the same order, in fewer writes, and a close after them."""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.uri import parse_uri

from cardzones.web.socket_writes import CoalescingWebSockets


class Transport(asyncio.Transport):
    """A socket that keeps each write."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    assert (await receive())["type"] == "websocket.connect"
    await send({"type": "websocket.accept"})
    await asyncio.sleep(0)  # the handshake's answer goes out on its own
    await send({"type": "websocket.send", "text": "ack"})
    await send({"type": "websocket.send", "text": "event"})
    await asyncio.sleep(0.01)
    await send({"type": "websocket.send", "text": "later"})
    await send({"type": "websocket.close", "code": 1000})


def frames(client: ClientProtocol, writes: list[bytes]) -> list[list[Frame]]:
    """The frames of each write, as the client reads them."""
    out = []
    for data in writes:
        client.receive_data(data)
        out.append([e for e in client.events_received() if isinstance(e, Frame)])
    return out


def test_the_frames_of_one_turn_go_in_one_write_in_order_and_a_close_after_them() -> None:
    async def main() -> list[list[Frame]]:
        config = Config(app=app, ws_per_message_deflate=False, log_level="error")
        config.load()
        protocol = CoalescingWebSockets(config, ServerState(), {})
        transport = Transport()
        protocol.connection_made(transport)
        client = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws"))
        client.send_request(client.connect())
        protocol.data_received(b"".join(client.data_to_send()))
        for _ in range(100):
            if any(b"\x88" in w[:1] for w in transport.writes):  # the close
                break
            await asyncio.sleep(0.01)
        handshake, *rest = transport.writes
        client.receive_data(handshake)
        return frames(client, rest)

    written = asyncio.run(main())
    texts = [[(f.opcode, f.data) for f in write] for write in written]
    assert texts[0] == [(Opcode.TEXT, b"ack"), (Opcode.TEXT, b"event")]
    assert texts[1][0] == (Opcode.TEXT, b"later")
    assert [op for write in texts for op, _ in write][-1] == Opcode.CLOSE
