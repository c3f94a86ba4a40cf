"""A lean client of the table server, for the load of the capacity ladder
(:mod:`cardzones.bench.capacity`): a WebSocket on plain asyncio streams,
with as little work per frame as the
protocol allows, so that a driver process costs far less per act than the
server it measures.

- :class:`RawSocket` speaks RFC 6455 itself: the handshake, frames masked as
  a client's must be, and the server's frames read whole. It asks for no
  compression (a browser does; the server's compression of these small
  frames is about half a percent of its CPU), and it hands each frame on as
  text, for the caller to parse only what it needs.
It raises :class:`LeanError` on anything they do not expect: a bench that
goes wrong says so rather than measuring something else.
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct

#: The masking key of the client's frames. RFC 6455 asks a browser for an
#: unpredictable one, against proxies that cache what they misread; a bench
#: on loopback has none, and a zero key leaves the payload as it is.
_MASK = b"\x00\x00\x00\x00"
#: Opcodes of the frames read and sent.
_TEXT, _BINARY, _CLOSE, _PING, _PONG = 0x1, 0x2, 0x8, 0x9, 0xA


class LeanError(Exception):
    """The server answered something the lean client does not handle."""


def frame(opcode: int, payload: bytes) -> bytes:
    """A client frame: final, masked with :data:`_MASK`.

    >>> frame(0x1, b"hi")
    b'\\x81\\x82\\x00\\x00\\x00\\x00hi'
    >>> len(frame(0x1, bytes(300))), len(frame(0x1, bytes(70_000)))
    (308, 70014)
    """
    size = len(payload)
    if size < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
    elif size < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
    return head + _MASK + payload


async def _head(reader: asyncio.StreamReader) -> tuple[int, list[bytes]]:
    """An HTTP answer's status and header lines."""
    try:
        text = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError) as exc:
        raise LeanError(f"no HTTP answer ({exc})") from None
    lines = text.split(b"\r\n")
    parts = lines[0].split(b" ", 2)
    if len(parts) < 2 or not parts[1].isdigit():
        raise LeanError(f"not an HTTP answer: {lines[0]!r}")
    return int(parts[1]), lines[1:]


class RawSocket:
    """One client WebSocket (see the module)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, host: str, port: int, path: str) -> RawSocket:
        """Connect and make the handshake."""
        reader, writer = await asyncio.open_connection(host, port, limit=1 << 22)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        status, _ = await _head(reader)
        if status != 101:
            writer.close()
            raise LeanError(f"the WebSocket handshake was answered {status}")
        return cls(reader, writer)

    def send(self, text: str) -> None:
        """Send a text frame (written as the transport can; no wait)."""
        self.writer.write(frame(_TEXT, text.encode()))

    async def recv(self) -> str | None:
        """The next text frame, None once the server closed the socket."""
        read = self.reader.readexactly
        try:
            while True:
                first, second = await read(2)
                size = second & 0x7F
                if size == 126:
                    (size,) = struct.unpack("!H", await read(2))
                elif size == 127:
                    (size,) = struct.unpack("!Q", await read(8))
                if second & 0x80 or not first & 0x80:
                    raise LeanError("a masked or fragmented frame from the server")
                payload = await read(size) if size else b""
                opcode = first & 0x0F
                if opcode in (_TEXT, _BINARY):
                    return payload.decode()
                if opcode == _PING:
                    self.writer.write(frame(_PONG, payload))
                elif opcode == _CLOSE:
                    return None
        except (asyncio.IncompleteReadError, ConnectionError):
            return None

    async def close(self) -> None:
        """Say goodbye and close the connection."""
        try:
            self.writer.write(frame(_CLOSE, struct.pack("!H", 1000)))
            self.writer.close()
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass  # the server went first
