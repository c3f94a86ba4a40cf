"""Finishing a game takes consent (cardzones/table/finish.py,
docs/protocol.md "Finishing a game"), on SQLite and on Postgres.

One seat alone can no longer end a game and then read the others' hidden
cards in ``/history``: a finish is a proposal the other seats accept, a
concession ends the game for the seat that concedes only, and another
seat's point of view opens only once every seat agreed or the proposal's
time limit (set at creation) passed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tablekit import act, create, fab_body, redemption_body, seated

from cardzones.table.action_log import GameOver
from cardzones.table.creation import CreationError, creation_from_request
from cardzones.table.finish import DEFAULT_FINISH_AFTER, MAX_FINISH_AFTER
from cardzones.table.host import CONCEDED, GAME_OVER
from cardzones.table.limits import Limits
from cardzones.table.store import Store
from cardzones.web.app import create_app

DRAW = {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}
BOB_DRAWS = {"move": {"card": "bob.deck[0]", "to": "bob.hand"}}


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "tables.sqlite3")
    found: str = request.getfixturevalue("postgres_url")
    return found


#: A server whose operator lifted the floor of the fuse (cardzones serve
#: --min-finish-after 0), so that its workings are tested in seconds;
#: tests/test_table_fuse.py tests the floor.
NO_FLOOR = Limits(min_finish_after=0)


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with TestClient(create_app(url, limits=NO_FLOOR)) as client:
        yield client


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def use_clock(client: TestClient) -> Clock:
    clock = Clock()
    client.app.state.server.host.clock = clock  # type: ignore[attr-defined]
    return clock


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class At:
    """The HTTP side of one table."""

    def __init__(self, client: TestClient, created: dict[str, Any]) -> None:
        self.client = client
        self.created = created
        self.base = f"/api/tables/{created['table']}"

    def token(self, who: str | None) -> dict[str, str]:
        return bearer(self.created["spectator"] if who is None else self.created["seats"][who])

    def vote(self, who: str | None, vote: str | None = None) -> Any:
        body = None if vote is None else {"vote": vote}
        return self.client.post(f"{self.base}/finish", json=body, headers=self.token(who))

    def history(self, who: str, viewer: str) -> Any:
        return self.client.get(
            f"{self.base}/history", params={"as": viewer}, headers=self.token(who)
        )

    def closed(self) -> None:
        """No seat replays the game from another's point of view yet."""
        for who, other in (("alice", "bob"), ("bob", "alice"), ("alice", "spectator")):
            answer = self.history(who, other)
            assert answer.status_code == 403, answer.text
            assert "every seat agreed" in answer.json()["error"]

    def opened(self) -> None:
        for who, other in (("alice", "bob"), ("bob", "alice")):
            answer = self.history(who, other)
            assert answer.status_code == 200, answer.text
            assert answer.json()["seat"] == other


def finish_frames(seats: dict[str | None, Any]) -> list[dict[str, Any]]:
    """The next frame of every connection: all the same."""
    frames = [seat.receive() for seat in seats.values()]
    assert all(f == frames[0] for f in frames), frames
    return frames


@pytest.mark.parametrize("body", [fab_body, redemption_body])
def test_a_proposal_finishes_the_game_only_when_every_seat_agrees(
    client: TestClient, body: Any
) -> None:
    created = create(client, body())
    at = At(client, created)
    with seated(client, created) as seats:
        act(seats, "alice", DRAW)
        proposed = at.vote("bob")
        assert proposed.status_code == 200
        assert proposed.json()["finished"] is None
        votes = proposed.json()["finish"]
        assert votes["agreed"] == ["bob"] and votes["conceded"] == []
        assert votes["until"] is not None
        assert finish_frames(seats)[0] == {"finish": votes}
        # Proposing changes nothing of the game: both still act, nobody sees more.
        at.closed()
        assert "ack" in act(seats, "bob", BOB_DRAWS)
        assert "ack" in act(seats, "alice", {"end_turn": {}})
        # Asking twice is one vote.
        assert at.vote("bob").json()["finish"] == votes
        assert client.get(f"{at.base}/finish", headers=at.token(None)).json() == {
            "finished": None,
            "finish": votes,
        }
        # alice agrees: the game is over, after its last event.
        ended = at.vote("alice", "agree").json()["finished"]
        assert ended["by"] == "bob" and ended["number"] == 3
        assert ended["agreed"] == ["bob", "alice"]
        frames = finish_frames(seats)
        assert frames[0]["finish"]["agreed"] == ["bob", "alice"]
        assert finish_frames(seats)[0] == {"finished": ended}
        at.opened()
        assert act(seats, "bob", BOB_DRAWS)["error"] == GAME_OVER
        assert at.vote("bob", "decline").json()["finished"] == ended
    store = client.app.state.server.store  # type: ignore[attr-defined]
    assert store.head(created["table"]) == 3


def test_a_decline_withdraws_the_proposal(client: TestClient) -> None:
    created = create(client, fab_body())
    at = At(client, created)
    with seated(client, created) as seats:
        at.vote("bob")
        finish_frames(seats)
        declined = at.vote("alice", "decline").json()
        assert declined == {"finished": None, "finish": None}
        assert finish_frames(seats)[0] == {"finish": {"agreed": [], "conceded": [], "until": None}}
        at.closed()
        # A proposal may be made again; an agreement withdrawn stays withdrawn.
        again = at.vote("alice").json()["finish"]
        assert again["agreed"] == ["alice"]
        finish_frames(seats)
        at.closed()
        assert "ack" in act(seats, "alice", DRAW)


def test_a_concession_ends_the_game_for_that_seat_only_until_all_agree(
    client: TestClient,
) -> None:
    created = create(client, fab_body())
    at = At(client, created)
    store = client.app.state.server.store  # type: ignore[attr-defined]
    with seated(client, created) as seats:
        act(seats, "alice", DRAW)
        conceded = at.vote("bob", "concede").json()
        assert conceded["finished"] is None
        assert conceded["finish"]["conceded"] == ["bob"]
        finish_frames(seats)
        # bob acts no more, and nothing of his is stored; alice plays on.
        answer = act(seats, "bob", BOB_DRAWS)
        assert answer["error"] == CONCEDED and store.head(created["table"]) == 1
        assert "ack" in act(seats, "alice", {"end_turn": {}})
        # Conceding opens nobody's hidden cards: not alice's to bob.
        at.closed()
        # alice plays on: the concession stands, and its clock stops.
        after = at.vote("alice", "decline").json()["finish"]
        assert after == {"agreed": [], "conceded": ["bob"], "until": None}
        finish_frames(seats)
        refused = at.vote("bob", "decline")
        assert refused.status_code == 409 and "you conceded" in refused.json()["error"]
        assert at.vote("bob", "agree").json()["finish"] == after  # a concession stays
        at.closed()
        # alice agrees at last: now both may replay the game from any seat.
        ended = at.vote("alice").json()["finished"]
        assert ended["agreed"] == ["alice"] and ended["conceded"] == ["bob"]
        assert ended["by"] == "bob"
        at.opened()


def test_history_opens_when_the_time_limit_set_at_creation_passes(client: TestClient) -> None:
    clock = use_clock(client)
    created = create(client, {**fab_body(), "finish_after": 600})
    at = At(client, created)
    with seated(client, created) as seats:
        act(seats, "alice", DRAW)
        votes = at.vote("bob").json()["finish"]
        assert votes["until"] == clock.now + 600
        finish_frames(seats)
        clock.now += 599
        at.closed()
        assert "ack" in act(seats, "alice", {"end_turn": {}})
        clock.now += 1
        # The first request after the limit finishes the game, at the limit.
        at.opened()
        ended = finish_frames(seats)[0]["finished"]
        assert ended["number"] == 2 and ended["at"] == votes["until"]
        assert ended["agreed"] == ["bob"] and ended["conceded"] == []  # alice let it pass
        assert act(seats, "alice", DRAW)["error"] == GAME_OVER


def test_an_act_after_the_time_limit_is_refused_and_finishes_the_game(
    client: TestClient,
) -> None:
    clock = use_clock(client)
    created = create(client, {**fab_body(), "finish_after": 60})
    at = At(client, created)
    with seated(client, created) as seats:
        at.vote("alice", "concede")
        finish_frames(seats)
        clock.now += 61
        # The act finds the limit passed: every connection hears the end,
        # then the act is refused.
        seats["bob"].ws.send_json({"act": BOB_DRAWS, "id": "r", "after": 0})
        ended = finish_frames(seats)[0]["finished"]
        assert ended["conceded"] == ["alice"] and ended["at"] == clock.now - 1
        assert seats["bob"].receive() == {"refused": "r", "error": GAME_OVER}
    store = client.app.state.server.store  # type: ignore[attr-defined]
    assert store.head(created["table"]) == 0
    at.opened()


def test_the_time_limit_finishes_the_game_though_nobody_asks(url: str) -> None:
    """The server's own timer: every connection hears the end when the limit
    passes, with no request at all."""
    with TestClient(create_app(url, limits=NO_FLOOR)) as client:
        created = create(client, {**fab_body(), "finish_after": 1})
        at = At(client, created)
        with seated(client, created) as seats:
            start = time.monotonic()
            at.vote("bob")
            finish_frames(seats)
            ended = finish_frames(seats)[0]["finished"]
            assert time.monotonic() - start >= 0.9
            assert ended["by"] == "bob"
        at.opened()


def test_the_store_takes_no_act_after_the_limit_nor_from_a_seat_that_conceded(
    url: str,
) -> None:
    store = Store(url)
    store.migrate()
    try:
        creation = creation_from_request(fab_body())
        store.create_table("t1", creation, {"alice": "d1", "bob": "d2"}, "d0")
        players = ("alice", "bob")
        store.append("t1", 1, "alice", {"end_turn": {}}, now=100.0)
        votes, finished = store.vote("t1", "bob", "concede", players, 50, now=100.0)
        assert finished is None and votes.until == 150.0
        with pytest.raises(GameOver):
            store.append("t1", 2, "bob", {"end_turn": {}}, now=101.0)
        store.append("t1", 2, "alice", {"end_turn": {}}, now=149.0)
        with pytest.raises(GameOver):
            store.append("t1", 3, "alice", {"end_turn": {}}, now=150.0)
        assert store.finish_due("t1", 149.0) is None
        ended = store.finish_due("t1", 150.0)
        assert ended is not None and (ended.number, ended.at, ended.by) == (2, 150.0, "bob")
        assert store.finished("t1") == ended
        assert [a.number for a in store.actions("t1")] == [1, 2]
    finally:
        store.close()


def test_bad_votes_are_refused_and_change_nothing(client: TestClient) -> None:
    created = create(client, fab_body())
    at = At(client, created)
    url = f"{at.base}/finish"
    assert at.vote(None).status_code == 403
    for body in ({"vote": "maybe"}, {"vote": 1}, {"vote": "agree", "x": 1}, [1]):
        answer = client.post(url, json=body, headers=at.token("bob"))
        assert answer.status_code == 400 and "VOTE one of agree" in answer.json()["error"]
    answer = client.post(url, content=b"{" * 2000, headers=at.token("bob"))
    assert answer.status_code == 413
    answer = client.post(url, content=b"not json", headers=at.token("bob"))
    assert answer.status_code == 400
    assert client.get(url, headers=at.token("alice")).json() == {"finished": None, "finish": None}


@pytest.mark.parametrize("value", [0, -1, MAX_FINISH_AFTER + 1, "60", 1.5, True])
def test_finish_after_is_whole_seconds_within_its_bounds(client: TestClient, value: Any) -> None:
    answer = client.post("/api/tables", json={**fab_body(), "finish_after": value})
    assert answer.status_code == 400 and "finish_after" in answer.json()["error"]
    with pytest.raises(CreationError):
        creation_from_request({**fab_body(), "finish_after": value})


def test_finish_after_is_kept_with_the_table_and_stands_beside_a_scenario() -> None:
    record = creation_from_request({**fab_body(), "finish_after": 90}, NO_FLOOR)
    assert record.finish_after == 90
    assert type(record).from_json(record.to_json()).finish_after == 90
    text = "ruleset: fab\nsetup:\n  alice.hand: [A]\n"
    assert creation_from_request({"scenario": text, "finish_after": 5}, NO_FLOOR).finish_after == 5
    assert creation_from_request(fab_body()).finish_after is None
    assert DEFAULT_FINISH_AFTER == 3600


def test_votes_and_the_end_reach_another_process_on_postgres(postgres_url: str) -> None:
    """Two servers on one Postgres database: a vote cast at one is heard on
    the other's connections, and so is the end."""
    with (
        TestClient(create_app(postgres_url)) as first,
        TestClient(create_app(postgres_url)) as second,
    ):
        created = create(first, fab_body())
        at = At(first, created)
        with seated(second, created) as seats:
            # The second server listens from a connection it opens in the
            # background when it starts: give it that moment.
            time.sleep(2.0)
            votes = at.vote("bob").json()["finish"]
            assert finish_frames(seats)[0] == {"finish": votes}
            ended = at.vote("alice").json()["finished"]
            frames = [seat.receive() for seat in seats.values()]
            frames += [seat.receive() for seat in seats.values()]
            assert {"finished": ended} in frames
            assert all(f == {"finished": ended} or "finish" in f for f in frames)
        At(second, created).opened()
