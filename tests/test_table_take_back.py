"""Taking back acts takes consent (cardzones.table.take_back): a seat asks to
take back its acts since another seat last acted, the others accept or
refuse, and an accepted take-back is the table's next event, which returns
the game to the earlier position for every seat, keeps every log as it was
sent, and replays, loads and exports as played. On SQLite and Postgres."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from starlette.testclient import TestClient
from tablekit import act, create, fab_body, redemption_body, seated, store_url
from test_table_finish import At as TableAt

from cardzones.scenario.runner import run_file
from cardzones.table.export import ExportError, export_scenario, replay_steps
from cardzones.table.host import NO_REQUEST, NOTHING_TO_TAKE_BACK
from cardzones.web.app import create_app

DRAW = {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}
BOB_DRAWS = {"move": {"card": "bob.deck[0]", "to": "bob.hand"}}
VIEWERS: tuple[str | None, ...] = ("alice", "bob", None)


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(request, tmp_path)


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with TestClient(create_app(url)) as app:
        yield app


class At(TableAt):
    """The HTTP side of one table, and its take-backs."""

    def ask(self, who: str | None, acts: int | None = None) -> Any:
        body = None if acts is None else {"acts": acts}
        return self.client.post(f"{self.base}/take-back", json=body, headers=self.token(who))

    def answer(self, who: str, answer: str) -> Any:
        return self.client.post(
            f"{self.base}/take-back", json={"answer": answer}, headers=self.token(who)
        )

    def shown(self, who: str | None) -> Any:
        return self.client.get(f"{self.base}/take-back", headers=self.token(who)).json()

    def view(self, who: str | None) -> dict[str, Any]:
        answer = self.client.get(f"{self.base}/view", headers=self.token(who)).json()
        return dict(answer["view"])

    def log(self, who: str | None) -> list[dict[str, Any]]:
        return list(self.client.get(f"{self.base}/log", headers=self.token(who)).json()["log"])


def told(seats: dict[str | None, Any]) -> dict[str, Any] | None:
    """The next frame of every connection: the same ``take_back`` frame."""
    frames = [seat.receive() for seat in seats.values()]
    assert all(f == frames[0] for f in frames), frames
    assert set(frames[0]) == {"take_back"}, frames[0]
    found: dict[str, Any] | None = frames[0]["take_back"]
    return found


def taken_back(at: At, seats: dict[str | None, Any], acts: int = 1) -> int:
    """alice asks, bob accepts, and every connection reads the request, the
    event and the end of the request; the event's number."""
    assert at.ask("alice", acts).status_code == 200
    told(seats)
    number: int = at.answer("bob", "accept").json()["number"]
    for seat in seats.values():
        assert seat.receive()["event"] == number
    assert told(seats) is None
    return number


def store_of(client: TestClient) -> Any:
    return client.app.state.server.store  # type: ignore[attr-defined]


@pytest.mark.parametrize("body", [fab_body, redemption_body])
def test_an_accepted_take_back_returns_every_seat_to_the_earlier_position(
    client: TestClient, url: str, body: Any
) -> None:
    created = create(client, body())
    at = At(client, created)
    with seated(client, created) as seats:
        act(seats, "bob", BOB_DRAWS)
        before = {v: at.view(v) for v in VIEWERS}
        act(seats, "alice", DRAW)
        act(seats, "alice", DRAW)
        logs = {v: at.log(v) for v in VIEWERS}
        asked = at.ask("alice", 2)
        assert asked.status_code == 200, asked.text
        request = asked.json()["take_back"]
        assert request == {
            "by": "alice",
            "acts": 2,
            "to": 1,
            "after": 3,
            "accepted": [],
            "refused": None,
        }
        assert asked.json()["number"] is None
        assert told(seats) == request
        # Nothing changed yet, and everyone sees the request.
        assert {v: at.view(v) for v in VIEWERS} != before
        assert all(at.shown(v)["take_back"] == request for v in VIEWERS)
        accepted = at.answer("bob", "accept")
        assert accepted.status_code == 200, accepted.text
        assert accepted.json()["number"] == 4
        for viewer, seat in seats.items():
            frame = seat.receive()
            assert frame["event"] == 4 and frame["seat"] == "alice"
            assert frame["view"] == before[viewer]
            (entry,) = frame["log"]
            assert entry["event"] == "taken_back" and entry["by"] == "alice"
            assert "alice took back 2 acts" in entry["note"]
        assert told(seats) is None
        for viewer in VIEWERS:
            assert at.view(viewer) == before[viewer]
            # The log keeps what each viewer was sent, and only grows.
            assert at.log(viewer)[:-1] == logs[viewer]
        # Play goes on from the earlier position, numbered after the take-back.
        assert act(seats, "alice", DRAW)["number"] == 5
    # A new server process loads the same table from the store.
    with TestClient(create_app(url)) as again:
        other = At(again, created)
        for viewer in VIEWERS:
            assert other.log(viewer) == at.log(viewer)
            assert other.view(viewer) == at.view(viewer)
    store = store_of(client)
    assert [a.act.get("take_back") for a in store.actions(created["table"])][3] == {
        "by": "alice",
        "to": 1,
    }


def test_a_refused_take_back_changes_nothing_and_says_who_refused(client: TestClient) -> None:
    created = create(client, fab_body())
    at = At(client, created)
    with seated(client, created) as seats:
        act(seats, "alice", DRAW)
        view = at.view("alice")
        assert at.ask("alice").status_code == 200
        assert told(seats)["acts"] == 1  # type: ignore[index]
        refused = at.answer("bob", "refuse")
        assert refused.status_code == 200, refused.text
        assert refused.json()["take_back"]["refused"] == "bob"
        assert told(seats)["refused"] == "bob"  # type: ignore[index]
        assert at.view("alice") == view
        assert store_of(client).head(created["table"]) == 1
        # A refused request is answered no more; the seat may ask again, and
        # withdraw it by refusing its own.
        again = at.answer("bob", "accept")
        assert again.status_code == 409 and again.json()["error"] == NO_REQUEST
        assert at.ask("alice").status_code == 200
        told(seats)
        withdrawn = at.answer("alice", "refuse")
        assert withdrawn.json()["take_back"]["refused"] == "alice"
        told(seats)
        assert store_of(client).head(created["table"]) == 1


def test_an_act_leaves_a_request_behind(client: TestClient) -> None:
    created = create(client, fab_body())
    at = At(client, created)
    with seated(client, created) as seats:
        act(seats, "alice", DRAW)
        at.ask("alice")
        told(seats)
        act(seats, "bob", BOB_DRAWS)
        assert at.shown("bob")["take_back"] is None
        late = at.answer("bob", "accept")
        assert late.status_code == 409 and late.json()["error"] == NO_REQUEST
        # bob acted last: alice has nothing to take back, bob may ask.
        nothing = at.ask("alice")
        assert nothing.status_code == 409 and nothing.json()["error"] == NOTHING_TO_TAKE_BACK
        assert at.ask("bob").status_code == 200
        assert store_of(client).head(created["table"]) == 2


def test_bad_requests_are_refused_with_a_clear_message(client: TestClient) -> None:
    created = create(client, fab_body())
    at = At(client, created)
    with seated(client, created) as seats:
        assert at.ask("alice").json()["error"] == NOTHING_TO_TAKE_BACK
        act(seats, "alice", DRAW)
        assert at.ask(None).status_code == 403
        too_many = at.ask("alice", 2)
        assert too_many.status_code == 409 and "1 act now" in too_many.json()["error"]
        for body in ({"acts": 0}, {"acts": "1"}, {"answer": "maybe"}, {"acts": 1, "answer": 1}):
            answer = client.post(f"{at.base}/take-back", json=body, headers=at.token("alice"))
            assert answer.status_code == 400, (body, answer.text)
        assert at.answer("bob", "accept").json()["error"] == NO_REQUEST
        # A take-back is no act: sent as one, it is refused with the way to ask.
        refused = act(seats, "alice", {"take_back": {"to": 0}})
        assert "ask the other seats" in refused["error"]
        assert store_of(client).head(created["table"]) == 1


def test_a_card_drawn_and_taken_back_stays_known_only_to_who_saw_it(client: TestClient) -> None:
    names = [f"Kx{n:04d}q" for n in range(1, 200)]
    created = create(client, fab_body(names=names))
    at = At(client, created)
    with seated(client, created) as seats:
        act(seats, "alice", DRAW)
        drawn = next(e["card"]["name"] for e in at.log("alice") if "card" in e)
        taken_back(at, seats)
        # alice saw the card: her log still names it. Nobody else was shown
        # it, and nothing sent since names it to them.
        assert drawn in json.dumps(at.log("alice"))
        for viewer in ("bob", None):
            assert drawn not in json.dumps(at.log(viewer))
            assert drawn not in json.dumps(seats[viewer].frames)
            assert drawn not in json.dumps(at.view(viewer))
        # The card is back on top of alice's deck, where she may not look.
        assert drawn not in json.dumps(at.view("alice"))


def test_a_shuffle_taken_back_comes_out_anew(client: TestClient) -> None:
    created = create(client, fab_body(deck=8))
    at = At(client, created)
    table = created["table"]
    shuffle = {"shuffle": {"zone": "alice.deck"}}
    with seated(client, created) as seats:
        act(seats, "alice", shuffle)
        live = client.app.state.server.hub.tables[table].table  # type: ignore[attr-defined]
        deck = live.game.zone("alice", "deck")
        first = [live.game.obj(c).cdef.name for c in live.game.contents(deck)]
        taken_back(at, seats)
        act(seats, "alice", shuffle)
        game = live.game
        second = [game.obj(c).cdef.name for c in game.contents(game.zone("alice", "deck"))]
        assert second != first
    # A scenario of the acts that stand would shuffle as the first time did.
    with pytest.raises(ExportError, match="took back acts after a shuffle"):
        export_scenario(store_of(client), table)


def test_export_writes_the_acts_that_stand_and_history_replays_the_take_back(
    client: TestClient, tmp_path: Path
) -> None:
    created = create(client, fab_body())
    at = At(client, created)
    table = created["table"]
    with seated(client, created) as seats:
        act(seats, "bob", BOB_DRAWS)
        act(seats, "alice", DRAW)
        taken_back(at, seats)
        act(seats, "alice", {"move": {"card": "alice.deck[1]", "to": "alice.hand"}})
    store = store_of(client)
    text = export_scenario(store, table)
    doc = yaml.safe_load(text)
    assert "take_back" not in text and len([s for s in doc["steps"] if "move" in s]) == 2
    path = tmp_path / "game.scenario.yaml"
    path.write_text(text, encoding="utf-8")
    outcome = run_file(path)
    assert outcome.exit_code == 0, outcome.describe()
    for viewer in VIEWERS:
        steps = replay_steps(store, table, viewer)
        assert [s["event"] for s in steps] == [0, 1, 2, 3, 4]
        assert steps[3]["view"] == steps[1]["view"]
        assert steps[4]["log"] == at.log(viewer)[-len(steps[4]["log"]) :]


def test_a_take_back_reaches_another_process_on_postgres(postgres_url: str) -> None:
    with (
        TestClient(create_app(postgres_url)) as one,
        TestClient(create_app(postgres_url)) as two,
    ):
        created = create(one, fab_body())
        at_one, at_two = At(one, created), At(two, created)
        with seated(one, created) as here, seated(two, created) as there:
            act(here, "alice", DRAW)
            for seat in there.values():
                assert seat.receive()["event"] == 1
            at_one.ask("alice")
            told(here)
            assert told(there)["by"] == "alice"  # type: ignore[index]
            assert at_two.answer("bob", "accept").json()["number"] == 2
            for seat in [*here.values(), *there.values()]:
                frame = seat.receive()
                while "take_back" in frame:  # the request, as each process heard it
                    frame = seat.receive()
                assert frame["event"] == 2
            assert at_one.view("alice") == at_two.view("alice")
