"""The WebSocket's ``legal`` frame (docs/protocol.md, Legal acts on the
socket): the same answer as ``GET /api/tables/ID/legal`` at random positions
(SQLite, and once on Postgres), the same refusals and budget, the frame rate,
the spectator, no handle or private property of a hidden card, and its place
among the events on the socket."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from tablekit import (
    BODIES,
    Seat,
    act,
    card_name,
    card_refs,
    create,
    fab_body,
    random_act,
    seated,
)
from test_table_noleak import handles_of, live_game, pick_from, revealed, traded

from cardzones.table.limits import Limits
from cardzones.web import hub as hub_module
from cardzones.web.app import create_app
from cardzones.web.hub import Live
from cardzones.web.legal import BURST, LegalDesk, encode_page
from cardzones.web.routes.legal import readable_soon
from cardzones.web.routes.socket_legal import SPECTATOR

#: One client makes many tables and sockets, and sends many frames a second.
LIFTED = Limits(
    creates_per_minute=10**9,
    sockets_per_minute=10**9,
    seat_frames=10**6,
    address_frames=10**6,
)


class Clock:
    """The desk's clock, moved by hand: a minute between two questions keeps
    every budget full."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _client(url: str, limits: Limits = LIFTED) -> TestClient:
    return TestClient(create_app(url, limits=limits))


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with _client("sqlite://") as client:
        yield client


def on_clock(client: TestClient) -> Clock:
    """The desk on a clock of the test's, its seats and people forgotten
    (their budgets began on another clock)."""
    clock = Clock()
    desk(client).clock = clock
    desk(client).seats.clear()
    desk(client).people.clear()
    return clock


def desk(client: TestClient) -> LegalDesk:
    found: LegalDesk = client.app.state.server.legal  # type: ignore[attr-defined]
    return found


def menu(seat: Seat, asked: dict[str, Any], request: Any = "l") -> dict[str, Any]:
    """Ask on the seat's socket and read up to the answer (events on the way
    are read too)."""
    seat.ws.send_json({"legal": asked, "id": request})
    while True:
        frame = seat.receive()
        if frame.get("listed", object()) == request or frame.get("refused", object()) == request:
            return frame


def http_menu(client: TestClient, created: dict[str, Any], seat: str, asked: dict[str, Any]) -> Any:
    """The same question over HTTP, as (status, body)."""
    query = {k: v for k, v in asked.items() if k != "actions"}
    if "actions" in asked:
        query["actions"] = ",".join(asked["actions"])
    if "judge" in query:
        query["judge"] = "1" if query["judge"] else "0"
    answer = client.get(
        f"/api/tables/{created['table']}/legal",
        params=query,
        headers={"Authorization": f"Bearer {created['seats'][seat]}"},
    )
    return answer.status_code, answer.json()


def forget(client: TestClient) -> None:
    """The desk forgets every list it keeps (not how long each took), so
    that the next question is answered anew."""
    for seat in desk(client).seats.values():
        seat.number = -1


def as_http(frame: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """A socket answer in the terms of the HTTP one."""
    if "listed" in frame:
        return 200, {k: v for k, v in frame.items() if k != "listed"}
    return 400, {"error": frame["error"]}


def asked_of(data: Any, view: dict[str, Any], seat: str) -> dict[str, Any]:
    """A random question, of the kind the board and other clients ask."""
    asked: dict[str, Any] = {}
    if data.draw(st.booleans(), label="card"):
        asked["card"] = data.draw(st.sampled_from(card_refs(view, seat, mine=False)))
    elif data.draw(st.integers(0, 3), label="zone") == 0:
        asked["zone"] = data.draw(st.sampled_from([z["zone"] for z in view["zones"]]))
    if data.draw(st.integers(0, 3), label="actions") == 0:
        names = ["move", "play", "draw", "end_turn", "flip", "shuffle", "clear", "nothing"]
        asked["actions"] = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=3))
    if data.draw(st.integers(0, 3), label="judge") == 0:
        asked["judge"] = True
    if data.draw(st.integers(0, 5), label="from") == 0:
        asked["from"] = data.draw(st.integers(0, 5))
    return asked


def check_hidden(client: TestClient, table: str, viewer: str, frame: dict[str, Any]) -> None:
    """No handle, and no private name, of a card the viewer may not look at."""
    game = live_game(client, table)
    text = json.dumps(frame)
    visible = {game.obj(c).cdef.name for c in game.cards() if game.may_look(viewer, c)}
    for card in game.cards():
        if game.may_look(viewer, card):
            continue
        name = game.obj(card).cdef.name
        assert name in visible or name not in text, f"{viewer} was listed a private name"
        for handle in handles_of(game, card):
            assert handle not in text, f"{viewer} was listed a handle of a card it may not see"


@pytest.mark.parametrize("ruleset", ["fab", "redemption"])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_the_socket_answers_what_http_answers(client: TestClient, ruleset: str, data: Any) -> None:
    clock = on_clock(client)
    created = create(client, BODIES[ruleset](seed=data.draw(st.integers(0, 10**6), label="seed")))
    table = created["table"]
    with seated(client, created) as seats:
        for _ in range(data.draw(st.integers(1, 12), label="acts")):
            game = live_game(client, table)
            actor = game.turn_player if data.draw(st.booleans()) else "bob"
            step = random_act(seats[actor].view, actor, pick_from(data))
            note(f"{actor}: {step}")
            act(seats, actor, step)
            for viewer in ("alice", "bob"):
                asked = asked_of(data, seats[viewer].view, viewer)
                note(f"{viewer} asks {asked}")
                clock.now += 60.0
                forget(client)
                frame = menu(seats[viewer], asked)
                check_hidden(client, table, viewer, frame)
                clock.now += 60.0
                forget(client)
                assert as_http(frame) == http_menu(client, created, viewer, asked)
                if "listed" not in frame:
                    continue
                # ... and what the engine lists at that position, page and all.
                assert frame["number"] == seats[viewer].number
                listed = live_game(client, table)  # the same position: nobody acted
                wanted = asked.get("actions")
                legal = client.app.state.server.hub.tables[table].table.legal(  # type: ignore[attr-defined]
                    viewer,
                    None if wanted is None else tuple(sorted(set(wanted))),
                    card=asked.get("card"),
                    zone=asked.get("zone"),
                    judge=asked.get("judge", False),
                )
                page = json.loads(encode_page(frame["number"], legal, asked.get("from", 0)))
                assert {k: v for k, v in frame.items() if k != "listed"} == page
                assert listed is live_game(client, table)


@pytest.mark.parametrize("ruleset", ["fab", "redemption"])
@pytest.mark.parametrize("zone", ["bob.hand", "alice.deck"])
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_tables_that_differ_only_in_cards_alice_cannot_see_answer_her_menus_alike(
    client: TestClient, ruleset: str, zone: str, data: Any
) -> None:
    """The socket's answers to alice are the same, word for word, at two
    tables whose only difference is two look-alike cards she may not look
    at, until the engine lets her see either."""
    on_clock(client)
    seed = data.draw(st.integers(0, 10**6), label="seed")
    body = BODIES[ruleset](seed=seed, names=[card_name(n) for n in range(1, 200)])
    body["handle_key"] = f"socket-legal-{seed}"
    body_b, pair = traded(body, zone, data)
    a, b = create(client, body), create(client, body_b)
    with seated(client, a) as seats_a, seated(client, b) as seats_b:
        game_a, game_b = live_game(client, a["table"]), live_game(client, b["table"])
        for n in range(data.draw(st.integers(1, 10), label="acts")):
            if revealed(game_a, "alice", pair) or revealed(game_b, "alice", pair):
                break
            view = seats_a["alice"].view
            for asked in (
                {},
                {"card": data.draw(st.sampled_from(card_refs(view, "alice", False)))},
            ):
                forget(client)
                answer_a = menu(seats_a["alice"], asked, n)
                forget(client)
                assert answer_a == menu(seats_b["alice"], asked, n), "alice can tell them apart"
            actor = game_a.turn_player if data.draw(st.booleans()) else "bob"
            step = random_act(seats_a[actor].view, actor, pick_from(data))
            note(f"{actor}: {step}")
            act(seats_a, actor, step)
            act(seats_b, actor, step)


def test_the_socket_answers_what_http_answers_on_postgres(postgres_url: str) -> None:
    with _client(postgres_url) as client:
        created = create(client, fab_body())
        with seated(client, created) as seats:
            act(seats, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
            card = seats["alice"].view["zones"][seats["alice"].view["by_name"]["alice.hand"]]
            handle = card["objects"][0]["id"]
            for asked in ({}, {"card": handle}, {"actions": ["end_turn", "draw"]}):
                forget(client)
                frame = menu(seats["alice"], asked)
                assert frame["listed"] == "l" and frame["number"] == 1 and frame["legal"]
                forget(client)
                assert as_http(frame) == http_menu(client, created, "alice", asked)


def test_a_quick_list_is_made_on_the_event_loop(client: TestClient, monkeypatch: Any) -> None:
    """The seat's first list of a kind is made in a worker thread, under the
    table's lock; once one was quick, the next is made on the event loop."""
    created = create(client, fab_body())
    reads: list[Any] = []
    real = hub_module.OpenTables.read

    async def counted(self: Any, live: Any, what: Any, *, others: bool = False) -> Any:
        reads.append(what)
        return await real(self, live, what, others=others)

    monkeypatch.setattr(hub_module.OpenTables, "read", counted)
    with seated(client, created) as seats:
        alice = seats["alice"]
        hand = alice.view["zones"][alice.view["by_name"]["alice.hand"]]["objects"]
        first = menu(alice, {"card": hand[0]["id"]}, 1)
        assert first["listed"] == 1 and len(reads) == 1
        second = menu(alice, {"card": hand[1]["id"]}, 2)
        assert second["listed"] == 2 and len(reads) == 1
        act(seats, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
        third = menu(alice, {"card": hand[1]["id"]}, 3)
        assert third["number"] == 1 and len(reads) == 1
        # A list of another kind is measured first.
        menu(alice, {}, 4)
        assert len(reads) == 2


def test_bad_legal_frames_are_refused_and_the_socket_goes_on(client: TestClient) -> None:
    created = create(client, fab_body())
    with seated(client, created) as seats:
        alice = seats["alice"]
        for asked, words in (
            ([], "legal: is an object"),
            ({"cards": "x"}, "legal: unknown key(s) 'cards'"),
            ({"card": 7}, "card: is a text"),
            ({"card": "x" * 401}, "card is longer than 400 characters"),
            ({"judge": "yes"}, "judge: is true or false"),
            ({"from": -1}, "from: is the first entry of a page"),
            ({"actions": "play"}, "actions: is a list of action names"),
            ({"actions": ["p"] * 65}, "actions: at most 64 names"),
            ({"actions": ["p" * 65]}, "actions: a name has at most 64 characters"),
            ({"card": "nonesuch"}, "card: nonesuch: no such card"),
        ):
            frame = menu(alice, asked)
            assert frame["refused"] == "l" and words in frame["error"], (asked, frame)
        alice.ws.send_json({"legal": {}, "id": "l", "after": 3})
        assert "unknown key(s) 'after'" in alice.receive()["error"]
        alice.ws.send_json({"legal": {}, "id": [1]})
        assert alice.receive() == {"refused": None, "error": "id: is a text or a number"}
        assert menu(alice, {}, 9)["listed"] == 9
        # The socket's frames still act.
        assert "ack" in act(seats, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})


def test_the_spectator_is_refused(client: TestClient) -> None:
    created = create(client, fab_body())
    with seated(client, created) as seats:
        assert menu(seats[None], {}) == {"refused": "l", "error": SPECTATOR}


def test_the_socket_and_http_share_the_seats_budget(client: TestClient) -> None:
    clock = on_clock(client)
    created = create(client, fab_body())
    with seated(client, created) as seats:
        alice = seats["alice"]
        assert menu(alice, {})["listed"] == "l"
        desk(client).seats[(created["table"], "alice")].budget.charge(BURST + 1.0, clock.now)
        assert menu(seats["bob"], {})["listed"] == "l"  # bob's budget is bob's
        refused = menu(alice, {})
        assert refused["refused"] == "l" and refused["retry_after"] >= 1
        assert "too many requests for the legal acts" in refused["error"]
        assert http_menu(client, created, "alice", {})[0] == 429
        clock.now += 60.0
        assert menu(alice, {})["listed"] == "l"


def test_legal_frames_count_in_the_seats_frame_rate() -> None:
    limits = Limits(creates_per_minute=10**9, sockets_per_minute=10**9, seat_frames=10)
    with _client("sqlite://", limits) as client:
        created = create(client, fab_body())
        with client.websocket_connect(f"/api/tables/{created['table']}/ws") as ws:
            alice = Seat(ws, "alice")
            alice.hello(created["seats"]["alice"])
            started = time.monotonic()
            for i in range(21):
                assert menu(alice, {"actions": ["draw"]}, i)["listed"] == i
            # 22 frames at 10 a second after a burst of 10: 1.2 s at least.
            assert time.monotonic() - started >= 1.1


def test_an_answer_comes_after_the_events_it_is_of_and_before_later_ones(
    client: TestClient,
) -> None:
    created = create(client, fab_body())
    with seated(client, created) as seats:
        alice, bob = seats["alice"], seats["bob"]
        # alice asks right behind her act, without reading: her answer is
        # of the act's event, and comes after it.
        draw = {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}
        for i in range(5):
            alice.ws.send_json({"act": draw, "id": f"a{i}", "after": alice.number})
            alice.ws.send_json({"legal": {"card": "alice.hand[0]"}, "id": f"m{i}"})
            bob.ws.send_json({"legal": {"actions": ["draw"]}, "id": f"b{i}"})
        for seat, count in ((alice, 5), (bob, 5)):
            last, answers = 0, 0
            while answers < count or last < 5:
                frame = seat.receive()
                if "event" in frame:
                    last = frame["event"]
                elif "listed" in frame:
                    # Every event up to its number, and none after it.
                    assert frame["number"] == last, (frame["listed"], frame["number"], last)
                    answers += 1
        for i, seat in enumerate((alice, bob)):
            assert menu(seat, {}, i)["number"] == 5


class _FakeTable:
    """A table with a number and a list, for the desk alone."""

    def __init__(self) -> None:
        self.number = 4
        self.id = "t"
        self.finished = None
        self.votes = SimpleNamespace(due=lambda now: False)

    def legal(self, viewer: Any, wanted: Any, **asked: Any) -> list[dict[str, Any]]:
        return [{"act": {"draw": {}}, "result": "moved"}]


def test_the_desk_reads_through_a_worker_thread_unless_the_table_may_be_read_here() -> None:
    """A list of a kind the seat has not made yet, or of a table that may not
    be read on the loop now, goes through ``read`` (a worker thread, under
    the lock); a quick kind of a table that may be, does not."""
    table = _FakeTable()
    reads: list[Any] = []

    async def read(what: Any) -> Any:
        reads.append(what)
        return what(table)

    async def here() -> Any:
        return table

    async def not_here() -> Any:
        return None

    async def run() -> None:
        desk = LegalDesk()
        number, body = await desk.page(read, "t", "alice", None, card="a", inline=here)
        assert number == 4 and json.loads(body)["legal"] and len(reads) == 1
        await desk.page(read, "t", "alice", None, card="b", inline=here)
        assert len(reads) == 1  # the same kind, quick: made here
        await desk.page(read, "t", "alice", None, card="c", inline=not_here)
        assert len(reads) == 2
        await desk.page(read, "t", "alice", ["draw"], card="d", inline=here)
        assert len(reads) == 3  # another kind: measured in a worker thread first

    asyncio.run(run())


def test_a_menu_waits_for_an_act_half_way_then_reads_the_table_here() -> None:
    """While an act holds the table's lock, a menu of a table no other
    process writes waits for it on the loop and reads the table as the act
    left it; while another process writes, or a proposal to finish is due,
    it is sent to the hub's read."""

    class FakeServer:
        class hub:
            class host:
                clock = staticmethod(time.time)

    async def run() -> None:
        live = Live(table=_FakeTable())  # type: ignore[arg-type]
        await live.lock.acquire()
        waiting = asyncio.ensure_future(readable_soon(FakeServer, live))  # type: ignore[arg-type]
        await asyncio.sleep(0.01)
        assert not waiting.done()
        live.table.number = 5
        live.lock.release()
        assert (await waiting).number == 5
        live.table.votes.due = lambda now: True  # a proposal to finish is due
        assert await readable_soon(FakeServer, live) is None  # type: ignore[arg-type]
        live.table.votes.due = lambda now: False
        live.heard_at = time.monotonic()  # another process wrote to it just now
        assert await readable_soon(FakeServer, live) is None  # type: ignore[arg-type]

    asyncio.run(run())
