"""Finishing by consent has a fuse, and the server sets its floor: once a
proposal to finish has waited ``finish_after`` seconds without a decline,
every seat may replay every other's hidden cards, and the table's maker,
who may be a seat, sets ``finish_after``. One second would let the maker
agree, wait and read everything. So ``cardzones serve --min-finish-after``
(minutes, ten by default) is a floor: a body asking for less is refused
with the limit named, a table stored with less waits the floor all the
same, and every seat is told the fuse in its welcome and on its board.
On SQLite and on Postgres."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient
from tablekit import ServerProcess, create, fab_body, seated, store_url

from cardzones.table.creation import CreationError, creation_from_request
from cardzones.table.finish import DEFAULT_FINISH_AFTER, fuse
from cardzones.table.limits import Limits
from cardzones.table.schema import tables
from cardzones.web.app import create_app

FLOOR = 600  # seconds: the default floor, ten minutes


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(request, tmp_path)


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def table_count(client: TestClient) -> int:
    store = client.app.state.server.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(tables)).scalar_one())


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("value", [1, 60, FLOOR - 1])
def test_finish_fuse_a_body_under_the_servers_floor_is_refused(url: str, value: int) -> None:
    """Class 6: the floor is the server's; a body that asks for a shorter
    fuse gets 400 naming the limit and its option, and no table is made."""
    with TestClient(create_app(url)) as client:
        answer = client.post("/api/tables", json={**fab_body(), "finish_after": value})
        assert answer.status_code == 400
        assert answer.json() == {
            "error": f"finish_after is at least {FLOOR} seconds on this server (10 minutes, "
            f"cardzones serve --min-finish-after); got {value}",
            "limit": "min_finish_after",
        }
        beside = {"scenario": "ruleset: fab\n", "finish_after": value}
        assert client.post("/api/tables", json=beside).status_code == 400
        assert table_count(client) == 0
        create(client, {**fab_body(), "finish_after": FLOOR})
        assert table_count(client) == 1
    with pytest.raises(CreationError) as refused:
        creation_from_request({**fab_body(), "finish_after": value})
    assert refused.value.limit == "min_finish_after"


def test_finish_fuse_the_floor_is_the_operators(url: str) -> None:
    """Class 6: another floor, from ``Limits`` as ``serve`` gives it: the
    least a body may ask for moves with it, and a table that asks for
    nothing waits the floor when it is above the default hour."""
    limits = Limits(min_finish_after=120)
    with TestClient(create_app(url, limits=limits)) as client:
        answer = client.post("/api/tables", json={**fab_body(), "finish_after": 7199})
        assert answer.status_code == 400 and answer.json()["limit"] == "min_finish_after"
        for body, waits in (({**fab_body(), "finish_after": 7200}, 7200), (fab_body(), 7200)):
            created = create(client, body)
            with seated(client, created) as seats:
                for seat in seats.values():
                    assert seat.frames[0]["welcome"]["finish_after"] == waits
    assert fuse(None, 0) == DEFAULT_FINISH_AFTER


def test_finish_fuse_a_table_stored_with_a_shorter_fuse_waits_the_floor(url: str) -> None:
    """Class 6: a table made before the floor (or by a program that wrote
    its record itself) with ``finish_after: 1`` still waits the server's
    floor: the maker cannot agree, wait a second and read the others."""
    with TestClient(create_app(url)) as client:
        server = client.app.state.server  # type: ignore[attr-defined]
        clock = server.host.clock = Clock()
        record = replace(creation_from_request(fab_body()), finish_after=1)
        made = server.host.create(record)
        created = {"table": made.table_id, "seats": made.seats, "spectator": made.spectator}
        base = f"/api/tables/{made.table_id}"
        with seated(client, created) as seats:
            assert {s.frames[0]["welcome"]["finish_after"] for s in seats.values()} == {FLOOR}
            agreed = client.post(f"{base}/finish", headers=bearer(made.seats["alice"])).json()
            assert agreed["finish"]["until"] == clock.now + FLOOR
            for seat in seats.values():
                assert seat.receive() == {"finish": agreed["finish"]}
            history = f"{base}/history"
            as_bob = {"as": "bob"}
            clock.now += 2
            closed = client.get(history, params=as_bob, headers=bearer(made.seats["alice"]))
            assert closed.status_code == 403
            clock.now += FLOOR - 2
            opened = client.get(history, params=as_bob, headers=bearer(made.seats["alice"]))
            assert opened.status_code == 200 and opened.json()["seat"] == "bob"


def test_finish_fuse_serve_takes_the_floor_in_minutes(tmp_path: Path) -> None:
    """Class 6: ``cardzones serve --min-finish-after MINUTES`` sets the
    floor of every worker; minutes, from 0 (no floor) to thirty days."""
    assert Limits.option("min_finish_after") == "--min-finish-after"
    limits = Limits(min_finish_after=45)
    assert Limits.from_env(limits.to_env()) == limits
    assert Limits().min_finish_after == 10
    with ServerProcess(str(tmp_path / "t.sqlite3"), "--min-finish-after", "30") as server:
        body = {**fab_body(), "finish_after": 1799}
        answer = httpx.post(server.url + "/api/tables", json=body, timeout=10.0)
        assert answer.status_code == 400 and "--min-finish-after" in answer.json()["error"]
        server.create({**fab_body(), "finish_after": 1800})
    run = subprocess.run(
        [sys.executable, "-m", "cardzones.cli", "serve", "--min-finish-after", "-1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr


def test_finish_fuse_every_seats_board_shows_it(tmp_path: Path) -> None:
    """Class 6: every board, the spectator's too, shows how long a proposal
    waits, and once one stands the time it finishes the game."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from boardkit import CHROMIUM, CHROMIUM_ARGS, CHROMIUM_MISSING, thread_server

    if not CHROMIUM.exists():
        pytest.skip(CHROMIUM_MISSING)
    profile = tempfile.mkdtemp(prefix="cardzones-chromium-")
    with thread_server() as server, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, env={**os.environ, "TMPDIR": profile}
        )
        try:
            created = server.create({**fab_body(), "finish_after": 900})
            pages: dict[str | None, Any] = {}
            for seat in ("alice", "bob", None):
                page = browser.new_page()
                page.goto(server.url + created["links"][seat or "spectator"])
                page.wait_for_selector("#conn[data-state=connected]")
                pages[seat] = page
            for page in pages.values():
                fuse_text = page.inner_text("#finish-fuse")
                assert fuse_text == "a proposal to finish waits 15 min", fuse_text
            finish = f"{server.url}/api/tables/{created['table']}/finish"
            httpx.post(finish, headers=bearer(created["seats"]["bob"]), timeout=10.0)
            for page in pages.values():
                page.wait_for_function(
                    "() => document.querySelector('#finish-fuse').textContent"
                    ".startsWith('the game finishes at ')"
                )
                assert page.inner_text("#finish-text").endswith("unless a seat plays on")
        finally:
            browser.close()
            shutil.rmtree(profile, ignore_errors=True)
