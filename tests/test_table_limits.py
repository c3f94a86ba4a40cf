"""The table server's limits (docs/table.md, Limits) on SQLite and on
Postgres: a new table over a limit is refused before any work with an answer
that names the limit and its ``cardzones serve`` option, and nothing is
stored."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from tablekit import create, fab_body

from cardzones.table.creation import creation_from_request
from cardzones.table.limits import Limits
from cardzones.table.store import Store
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


def stored_tables(client: TestClient) -> int:
    store: Store = client.app.state.server.store  # type: ignore[attr-defined]
    return len(store.table_ids())


def deck_of(n: int, name: str = "A") -> dict[str, Any]:
    return {"ruleset": "fab", "players": ["alice", "bob"], "setup": {"alice.deck": [name] * n}}


@pytest.mark.parametrize(
    ("limits", "body", "limit"),
    [
        ({"zone_cards": 10}, deck_of(11), "zone_cards"),
        (
            {"cards": 15},
            {"ruleset": "fab", "setup": {"alice.deck": ["A"] * 8, "bob.deck": ["A"] * 8}},
            "cards",
        ),
        (
            {"zones": 1},
            {"ruleset": "fab", "setup": {"alice.deck": ["A"], "bob.deck": ["A"]}},
            "zones",
        ),
        ({"players": 2}, {"ruleset": "fab", "players": ["a", "b", "c"]}, "players"),
        ({"name_chars": 5}, {"ruleset": "fab", "players": ["alice", "bobbyjoe"]}, "name_chars"),
        (
            {"card_defs": 2},
            {"ruleset": "fab", "cards": {n: {"types": ["action"]} for n in "XYZ"}},
            "card_defs",
        ),
        (
            {"zone_cards": 10},
            {"scenario": "ruleset: fab\nsetup:\n  alice.deck: [" + ", ".join(["A"] * 11) + "]\n"},
            "zone_cards",
        ),
    ],
)
def test_a_start_position_over_a_limit_is_refused_naming_it(
    db: str, limits: dict[str, int], body: dict[str, Any], limit: str
) -> None:
    with client_for(db, **limits) as client:
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 400, answer.text
        assert answer.json()["limit"] == limit
        assert Limits.option(limit) in answer.json()["error"]
        assert stored_tables(client) == 0


def test_a_start_position_at_the_limits_is_created(db: str) -> None:
    with client_for(db, zone_cards=10, cards=10, players=2, name_chars=5) as client:
        create(client, deck_of(10))
        assert stored_tables(client) == 1


def test_a_body_over_the_byte_limit_is_refused_413_before_it_is_read(db: str) -> None:
    with client_for(db, body_bytes=1000) as client:
        body = deck_of(400)
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 413
        assert answer.json()["limit"] == "body_bytes"
        assert "--max-body-bytes" in answer.json()["error"]

        # Sent in chunks without a length: counted as it arrives.
        def chunks() -> Iterator[bytes]:
            for _ in range(100):
                yield b" " * 100

        answer = client.post(
            "/api/tables", content=chunks(), headers={"Content-Type": "application/json"}
        )
        assert answer.status_code == 413
        assert stored_tables(client) == 0


def test_the_default_limits_refuse_sixty_thousand_cards(client: TestClient) -> None:
    answer = client.post("/api/tables", json=deck_of(60_000))
    assert answer.status_code == 400
    assert answer.json()["limit"] == "zone_cards"
    spread = {
        "ruleset": "fab",
        "setup": {
            f"{p}.{z}": ["A"] * 900 for p in ("alice", "bob") for z in ("deck", "banished", "hand")
        },
    }
    answer = client.post("/api/tables", json=spread)
    assert answer.status_code == 400
    assert answer.json()["limit"] == "cards"
    assert stored_tables(client) == 0


def test_set_up_memory_grows_with_the_cards_not_their_square() -> None:
    """A zone of n cards once kept every earlier contents of the zone in the
    journal, n*n/2 card ids; set-up now keeps none of them."""
    big = Limits(zone_cards=100_000, cards=100_000)
    peaks = []
    for n in (2_000, 8_000):
        tracemalloc.start()
        creation_from_request(deck_of(n), big)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    # Four times the cards: linear growth is about 4x, square growth 16x.
    assert peaks[1] < 8 * peaks[0], peaks


def test_limits_travel_to_the_workers_as_words() -> None:
    limits = Limits(zone_cards=3, request_seconds=2.5, creates_per_minute=7)
    assert Limits.from_env(limits.to_env()) == limits
    assert Limits.from_env("") == Limits()


@pytest.mark.parametrize(
    "name",
    ["spectator", "owner", "al.ice", "al ice", "", "9lives", "al\x00ice", "a/b", "x" * 300],
)
def test_a_player_name_that_cannot_be_a_seat_is_refused_at_creation(
    client: TestClient, name: str
) -> None:
    """A seat named spectator would lose its link to the spectator's; a name
    that cannot be the owner part of a zone's name (alice.hand) makes a table
    nobody can play; a name of 300 characters once failed on Postgres."""
    answer = client.post("/api/tables", json={"ruleset": "fab", "players": [name, "bob"]})
    assert answer.status_code == 400, answer.text
    assert "players" in answer.json()["error"]
    assert stored_tables(client) == 0


def test_a_player_name_of_letters_digits_and_dashes_is_a_seat(client: TestClient) -> None:
    created = create(client, {"ruleset": "fab", "players": ["Zoë_1", "bob-2"]})
    assert set(created["seats"]) == {"Zoë_1", "bob-2"}


def test_json_nested_past_the_limit_is_refused_on_create_and_on_the_socket(db: str) -> None:
    """A thousand brackets deep took the parser past the recursion limit: a
    500 on create, a traceback and a closed socket on the WebSocket."""
    with client_for(db) as client:
        deep = "[" * 1000 + "]" * 1000
        for body in (deep, "[" * 5000, '{"ruleset": "fab", "cards": ' + deep + "}"):
            answer = client.post(
                "/api/tables", content=body, headers={"Content-Type": "application/json"}
            )
            assert answer.status_code == 400, answer.text
            assert answer.json()["limit"] == "json_depth"
            assert "--max-json-depth" in answer.json()["error"]
        created = create(client, fab_body())
        with client.websocket_connect(f"/api/tables/{created['table']}/ws") as ws:
            ws.send_text('{"hello": ' + deep + "}")
            assert "--max-json-depth" in ws.receive_json()["error"]
        with client.websocket_connect(f"/api/tables/{created['table']}/ws") as ws:
            ws.send_json({"hello": created["seats"]["alice"]})
            assert "welcome" in ws.receive_json()
            ws.send_text('{"act": ' + deep + ', "id": 1}')
            assert "--max-json-depth" in ws.receive_json()["error"]
            # The connection goes on.
            ws.send_json({"act": {"shuffle": {"zone": "alice.deck"}}, "id": 2})
            assert ws.receive_json()["ack"] == 2
        assert stored_tables(client) == 1
