"""The integrity of a table's game, on SQLite and on Postgres: every number
of every action is within the bounds its action table declares, a refused
act leaves nothing in the store, and nothing grows with the game in a way
that fails after enough acts."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tablekit import HANDLE_KEY, Seat, act, create, fab_body, random_act, redemption_body, seated

from cardzones import new_game
from cardzones.acts.actions import NUMBER_KINDS, Param
from cardzones.rulesets import get_ruleset, ruleset_names
from cardzones.table.creation import Creation
from cardzones.table.host import Host
from cardzones.table.limits import Limits
from cardzones.table.store import Store
from cardzones.web.app import create_app


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest) -> str:
    if request.param == "sqlite":
        return "sqlite://"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, limits=Limits(seat_frames=10_000))) as client:
        yield client


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.server.store  # type: ignore[attr-defined]
    return store


def number_params(params: tuple[Param, ...]) -> Iterator[Param]:
    for param in params:
        if param.kind in NUMBER_KINDS:
            yield param
        yield from number_params(param.fields)


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_every_number_of_every_action_has_bounds(ruleset: str) -> None:
    for action in get_ruleset(ruleset).actions.values():
        for param in number_params(action.params):
            assert param.bounds is not None, (action.name, param.name)
            low, high = param.bounds
            assert low <= high and max(abs(low), abs(high)) < 10**6, (action.name, param.name)
            described = {f["name"]: f for f in action.to_json()["params"]}.get(param.name)
            if described is not None:
                assert (described["min"], described["max"]) == param.bounds


HUGE = "9" * 4299


@pytest.mark.parametrize(
    "power", [int(HUGE), HUGE, "+" + HUGE, 10_000, -10_000, "+10000", 10**30, "1e9"]
)
def test_a_number_out_of_bounds_is_refused_and_nothing_is_stored(
    client: TestClient, power: Any
) -> None:
    """Eleven deltas of 4,299 nines once made a card's power unprintable:
    every later act was stored but refused, and the view answered 500."""
    created = create(client, fab_body())
    with seated(client, created) as seats:
        alice = seats["alice"]
        card = next(
            o["id"] for z in alice.view["zones"] if z["zone"] == "alice.hero" for o in z["objects"]
        )
        for i in range(11):
            alice.ws.send_json({"act": {"modify": {"card": card, "power": power}}, "id": i})
            answer = alice.receive()
            assert answer.get("refused") == i, answer
            assert "power" in answer["error"] and len(answer["error"]) < 300
        alice.ws.send_json({"act": {"modify": {"card": card, "power": 9_999}}, "id": "ok"})
        assert alice.receive()["ack"] == "ok"
        for seat in seats.values():
            assert seat.receive()["event"] == 1
    assert [a.number for a in store_of(client).actions(created["table"])] == [1]
    token = created["seats"]["bob"]
    view = client.get(
        f"/api/tables/{created['table']}/view", headers={"Authorization": f"Bearer {token}"}
    )
    assert view.status_code == 200


def mutate(act: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """An act with one of its values replaced by something a careless or
    hostile client might send."""
    nasty: list[Any] = [
        10**40,
        -(10**40),
        10_000,
        -1,
        1.5,
        True,
        None,
        "",
        "+" + "9" * 50,
        [],
        {},
        ["x"] * 50,
        "alice.hand[99999999999]",
        "\x00",
        "#1",
    ]
    ((name, args),) = act.items()
    if not isinstance(args, dict) or not args or rng.random() < 0.2:
        return {name: nasty[rng.randrange(len(nasty))]}
    key = rng.choice([*args, "power", "position", "count", "layer", "duration"])
    return {name: {**args, key: nasty[rng.randrange(len(nasty))]}}


@pytest.mark.parametrize("ruleset", ["fab", "redemption"])
def test_fuzzed_acts_leave_in_the_store_only_what_was_acknowledged(
    client: TestClient, db: str, ruleset: str
) -> None:
    """Random acts from each seat's view, a third of them mangled; the store
    then holds exactly the acknowledged acts, in order, and the game rebuilt
    from it is the live game."""
    rng = random.Random(2020)
    body = fab_body() if ruleset == "fab" else redemption_body()
    created = create(client, body)
    table = created["table"]
    acked: list[int] = []
    with seated(client, created) as seats:
        for i in range(120):
            actor = ("alice", "bob")[rng.randrange(2)]
            seat: Seat = seats[actor]
            act = random_act(seat.view, actor, rng.randrange)
            if rng.random() < 0.35:
                act = mutate(act, rng)
            seat.ws.send_json({"act": act, "id": i, "after": seat.number})
            answer = seat.receive()
            if "ack" in answer:
                acked.append(answer["number"])
                for other in seats.values():
                    assert other.receive().get("event") == answer["number"]
            else:
                assert answer.get("refused") == i, answer
    store = store_of(client)
    assert [a.number for a in store.actions(table)] == acked == list(range(1, len(acked) + 1))
    assert len(acked) > 10  # enough acts went through for the check to mean something
    live = client.app.state.server.hub.tables[table].table  # type: ignore[attr-defined]
    rebuilt = Host(store).load(table)
    assert rebuilt is not None and rebuilt.game.same_state(live.game)


def test_same_state_does_not_recurse_with_the_length_of_the_game() -> None:
    """Two games a thousand events long once took ``same_state`` past the
    recursion limit: the log is a chain as long as the game."""
    games = []
    for _ in range(2):
        game = new_game("fab", ["alice", "bob"])
        game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
        for i in range(1_500):
            game.log_event("note", f"event {i}")
        games.append(game)
    assert games[0].same_state(games[1])
    games[1].log_event("note", "one more")
    assert not games[0].same_state(games[1])
    assert not games[1].same_state(games[0])


def test_a_long_table_rebuilds_and_compares(db: str) -> None:
    store = Store(db)
    store.migrate()
    host = Host(store, snapshot_every=400)
    created = host.create(
        Creation("fab", ("alice", "bob"), 7, {}, {"alice.deck": ["A", "B"]}, None, HANDLE_KEY)
    )
    table = host.load(created.table_id)
    assert table is not None
    for i in range(900):
        face = "up" if i % 2 else "down"
        host.act(table, "alice", {"flip": {"card": "alice.deck[0]", "face": face}})
    for upto in (None, 850):
        again = host.load(created.table_id, upto)
        assert again is not None
        assert again.game.same_state(table.game) == (upto is None)
    store.close()


def test_an_act_stored_is_acknowledged_even_when_its_event_cannot_be_shown(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refused means nothing stored, and so stored means acknowledged: a
    failure after the commit (the event's frames, the snapshot) does not turn
    into a refusal of an act the store keeps."""
    from cardzones.table.table import Table

    created = create(client, fab_body())
    store = store_of(client)
    monkeypatch.setattr(client.app.state.server.host, "snapshot_every", 1)  # type: ignore[attr-defined]

    def no_snapshot(*args: Any) -> None:
        raise OSError("the disk is full")

    monkeypatch.setattr(store, "save_snapshot", no_snapshot)
    with seated(client, created) as seats:
        answer = act(seats, "alice", {"shuffle": {"zone": "alice.deck"}}, "one")
        assert answer["ack"] == "one"

        def broken(self: Table, viewer: str | None, actor: str) -> dict[str, Any]:
            raise RuntimeError("cannot show it")

        monkeypatch.setattr(Table, "event_frame", broken)
        alice = seats["alice"]
        alice.ws.send_json({"act": {"shuffle": {"zone": "alice.deck"}}, "id": "two"})
        assert alice.receive()["ack"] == "two"
        for seat in seats.values():
            with pytest.raises(WebSocketDisconnect) as closed:
                seat.receive()
            assert closed.value.code == 1011
    assert [a.number for a in store.actions(created["table"])] == [1, 2]
