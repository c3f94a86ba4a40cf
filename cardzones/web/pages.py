"""The server's pages: the board's two pages and its static files.

``/`` is the page that creates a table and shows the seat and spectator links;
``/play/ID`` is the board. Both are plain HTML that load ``/static/board.css``
and a script of their own; nothing is inlined and nothing comes from another
site. The board reads the seat's token from the link's fragment (``#TOKEN``),
which the browser never sends to the server, so no page, log line or request
path holds a token.

Every page carries a strict Content-Security-Policy: scripts, styles, images
and connections only from the server itself, no inline script or style, no
plugin, no frame, no form sent elsewhere.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.staticfiles import StaticFiles

#: The board's files, shipped in the package (no build step).
STATIC = files("cardzones.web") / "static"

#: Only the server's own scripts, styles and sockets; nothing inline, nothing
#: from elsewhere. ``connect-src 'self'`` covers the same origin's ws:/wss:.
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
_HEADERS = {"content-security-policy": POLICY, "x-frame-options": "DENY"}
#: The board's policy on a server started with card pictures (``serve
#: --images``): pictures may also come from any https address, loaded by the
#: browser; scripts, styles and connections stay the server's own.
_IMAGE_HEADERS = {
    **_HEADERS,
    "content-security-policy": POLICY.replace("img-src 'self'", "img-src 'self' https:"),
}


@cache
def _html(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def static_files() -> StaticFiles:
    """The board's scripts and styles under ``/static``."""
    return StaticFiles(directory=str(STATIC))


async def home(request: Request) -> HTMLResponse:
    """The page that creates a table."""
    return HTMLResponse(_html("create.html"), headers=_HEADERS)


async def play(request: Request) -> HTMLResponse:
    """The board of one table. The page is the same for every seat: who is
    looking is decided by the token in the fragment, over the WebSocket."""
    return HTMLResponse(_html("play.html"), headers=_HEADERS)


async def play_with_images(request: Request) -> HTMLResponse:
    """The board on a server that shows card pictures."""
    return HTMLResponse(_html("play.html"), headers=_IMAGE_HEADERS)
