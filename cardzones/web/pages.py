"""The server's pages. The board comes later; until then ``/play/ID`` says how
to reach the table with the protocol, and never reads the token in its link
(the fragment stays in the browser)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse

_STYLE = "body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:3em auto;padding:0 1em}"
#: No script, no frame, nothing loaded from elsewhere.
_POLICY = {"content-security-policy": "default-src 'none'; style-src 'unsafe-inline'"}


def _page(title: str, body: str) -> HTMLResponse:
    html = (
        f"<!doctype html><html lang=en><meta charset=utf-8><title>{title}</title>"
        f"<style>{_STYLE}</style><h1>{title}</h1>{body}</html>"
    )
    return HTMLResponse(html, headers=_POLICY)


async def home(request: Request) -> HTMLResponse:
    return _page(
        "cardzones table server",
        "<p>Create a table with <code>POST /api/tables</code>; each player gets a "
        "secret link. The table protocol is described in the project's "
        "<code>docs/protocol.md</code>.</p>",
    )


async def play(request: Request) -> HTMLResponse:
    return _page(
        "cardzones table",
        "<p>This is a seat's link. The board is not served yet: a client connects "
        "to <code>/api/tables/ID/ws</code> and says hello with the token after "
        "the <code>#</code> of this link.</p>",
    )
