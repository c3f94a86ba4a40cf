"""The table server under abuse (docs/table.md, Limits; docs/protocol.md), on
SQLite and on Postgres: input whose checking once took time out of proportion
to its size, unbounded text in acts, large answers asked for again and again,
one client with many seats, and spoofed addresses."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from tablekit import create, fab_body

from cardzones.table.limits import Limits
from cardzones.web.app import create_app


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest) -> str:
    if request.param == "sqlite":
        return "sqlite://"
    url: str = request.getfixturevalue("postgres_url")
    return url


def client_for(db: str, **limits: Any) -> TestClient:
    return TestClient(create_app(db, limits=Limits(**limits)))


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with client_for(db) as client:
        yield client


#: A text of escaped quotes, the worst case of a scan for strings by pattern.
QUOTES = '"' + '\\"' * 32_000 + '"'


def test_a_frame_of_escaped_quotes_or_brackets_is_answered_at_once(client: TestClient) -> None:
    """A first frame of 64 KB, before any token is checked, costs the server
    one parse: no scan of it grows with the square of its quotes."""
    created = create(client, fab_body())
    url = f"/api/tables/{created['table']}/ws"
    for frame, error in (
        ("[" + QUOTES + "]", "a frame is a JSON object"),
        ("[" * 65_000, "nests more than 32 levels"),
        ('{"hello": ' + QUOTES + "}", "does not open it"),
    ):
        started = time.perf_counter()
        with client.websocket_connect(url) as ws:
            ws.send_text(frame)
            assert error in ws.receive_json()["error"]
        assert time.perf_counter() - started < 2.0


def test_a_body_of_escaped_quotes_or_brackets_is_answered_at_once(client: TestClient) -> None:
    started = time.perf_counter()
    body = '{"ruleset": "fab", "seed": ' + '"' + '\\"' * 480_000 + '"}'
    answer = client.post(
        "/api/tables", content=body, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 400 and "seed" in answer.json()["error"]
    answer = client.post(
        "/api/tables", content="[" * 999_000, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 400 and answer.json()["limit"] == "json_depth"
    assert time.perf_counter() - started < 4.0
