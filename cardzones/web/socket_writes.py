"""uvicorn's WebSocket protocol, writing the frames an app sends in one turn
of the event loop to the socket at once.

uvicorn writes each frame to its socket as the app sends it: a system call,
and on the other side a wake-up, for every frame. An act's sender is sent its
ack and then the act's event one after the other, with nothing between them;
here both are encoded as they are sent and written together at the end of
that turn of the loop, in one write. The frames, their order and their bytes
are the same: only the writes they take are fewer. Whatever else writes to
the socket (a pong, a close, the handshake) goes through the same protocol
state, which hands over every byte not yet written in order, so nothing
overtakes a frame that waits for the end of the turn.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState


class CoalescingWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's protocol, the frames of one turn of the loop in one write."""

    #: whether a write of the frames sent this turn is scheduled
    _write_due = False

    async def send(self, message: Any) -> None:
        if message.get("type") != "websocket.send" or not self._open():
            await super().send(message)  # the handshake, a close, a denial: as uvicorn does
            return
        await self.writable.wait()  # uvicorn's own backpressure, kept
        if self.disconnected:
            raise ClientDisconnected()
        try:
            data = message.get("bytes")
            if data is not None:
                self.conn.send_binary(data)
            else:
                text = message.get("text")
                if text is not None:
                    self.conn.send_text(text.encode())
        except InvalidState:
            raise ClientDisconnected() from None
        if not self._write_due:
            self._write_due = True
            self.loop.call_soon(self._write)

    def _open(self) -> bool:
        """Whether the socket is past its handshake and not closing: where
        uvicorn would encode and write a frame at once."""
        return (
            self.handshake_complete
            and not self.close_sent
            and self.initial_response is None
            and not self.disconnected
        )

    def _write(self) -> None:
        """Write what the protocol has not written yet (the frames sent this
        turn, unless something else wrote them first)."""
        self._write_due = False
        output = self.conn.data_to_send()
        if output and not self.transport.is_closing():
            self.transport.write(b"".join(output))
