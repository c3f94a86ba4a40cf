"""The table protocol (docs/protocol.md) driven in-process through Starlette's
test client, for both rule sets: every message, and every kind of bad input,
each answered clearly while the table goes on for everybody else and nothing
is stored."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tablekit import BODIES, Seat, act, create, fab_body, redemption_body, seated

from cardzones.table.store import Store
from cardzones.web.app import create_app
from cardzones.web.routes.sockets import MAX_FRAME
from cardzones.web.server import NOT_OPENED

RULESETS = ("fab", "redemption")


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://")) as client:
        yield client


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.server.store  # type: ignore[attr-defined]
    return store


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def zone(view: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(z for z in view["zones"] if z["zone"] == name)
    return found


# ----------------------------------------------------------------------
# Creating a table
# ----------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_create_answers_a_token_per_seat_and_links_with_the_token_in_the_fragment(
    client: TestClient, ruleset: str
) -> None:
    created = create(client, BODIES[ruleset]())
    table = created["table"]
    assert set(created["seats"]) == {"alice", "bob"}
    tokens = [*created["seats"].values(), created["spectator"]]
    assert len(set(tokens)) == 3
    assert all(len(t) >= 22 for t in tokens)  # 128 bits or more, URL-safe
    for seat, token in created["seats"].items():
        assert created["links"][seat] == f"/play/{table}#{token}"
    assert created["links"]["spectator"] == f"/play/{table}#{created['spectator']}"


def test_create_from_a_scenario_text_uses_its_start_and_ignores_its_steps(
    client: TestClient,
) -> None:
    text = """
name: a start
ruleset: redemption
players: [ann, ben]
setup:
  ann.hand: [Gideon]
steps:
  - move: {card: "ann.hand[0]", to: ann.discard}
"""
    created = create(client, {"scenario": text})
    assert set(created["seats"]) == {"ann", "ben"}
    answer = client.get(
        f"/api/tables/{created['table']}/view", headers=bearer(created["seats"]["ann"])
    )
    view = answer.json()["view"]
    assert answer.json()["number"] == 0
    assert [o["name"] for o in zone(view, "ann.hand")["objects"]] == ["Gideon"]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        (json.dumps({"ruleset": "fab", "colour": "red"}), "unknown key(s) 'colour'"),
        (json.dumps({"players": ["a", "b"]}), "ruleset is required"),
        (json.dumps({"ruleset": "chess"}), "ruleset must be one of"),
        (json.dumps({"ruleset": "fab", "players": ["a", "a"]}), "players"),
        (json.dumps({"ruleset": "fab", "seed": "x"}), "seed"),
        (json.dumps({"ruleset": "fab", "setup": {"alice.nowhere": ["A"]}}), "unknown zone type"),
        (json.dumps({"ruleset": "fab", "setup": {"alice.hero": ["Not a hero"]}}), "3.11.2"),
        (json.dumps({"ruleset": "fab", "scenario": "name: x"}), "either scenario or"),
        (json.dumps({"scenario": 5}), "text of a scenario"),
        (
            json.dumps(
                {"scenario": "name: x\nruleset: fab\nsetup:\n  alice.hand: [A]\n  bob.nope: [B]\n"}
            ),
            "scenario line 5:",
        ),
        (json.dumps({"scenario": "name: x\nruleset: [unclosed\n"}), "scenario line"),
    ],
)
def test_a_bad_body_gets_400_naming_what_was_wrong_and_creates_nothing(
    client: TestClient, body: str, expected: str
) -> None:
    answer = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert expected in answer.json()["error"]
    assert store_of(client).table_ids() == []


def test_a_body_too_large_gets_413(client: TestClient) -> None:
    answer = client.post("/api/tables", content=b"{" + b" " * (1 << 21) + b"}")
    assert answer.status_code == 413
    assert store_of(client).table_ids() == []


# ----------------------------------------------------------------------
# View and log over HTTP
# ----------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_view_and_log_are_the_seats_own(client: TestClient, ruleset: str) -> None:
    created = create(client, BODIES[ruleset]())
    table = created["table"]
    alice = client.get(
        f"/api/tables/{table}/view", headers=bearer(created["seats"]["alice"])
    ).json()
    bob = client.get(f"/api/tables/{table}/view", headers=bearer(created["seats"]["bob"])).json()
    public = client.get(f"/api/tables/{table}/view", headers=bearer(created["spectator"])).json()
    assert alice["view"]["viewer"] == "alice" and bob["view"]["viewer"] == "bob"
    assert public["view"]["viewer"] is None
    assert all("name" in o for o in zone(alice["view"], "alice.hand")["objects"])
    assert all(o == {"hidden": True} for o in zone(bob["view"], "alice.hand")["objects"])
    assert all(o == {"hidden": True} for o in zone(public["view"], "alice.hand")["objects"])
    log = client.get(f"/api/tables/{table}/log", headers=bearer(created["spectator"])).json()
    assert log == {"number": 0, "log": []}


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer  "},
        {"Authorization": "Basic abc"},
    ],
)
@pytest.mark.parametrize("what", ["view", "log"])
def test_no_bearer_token_gets_401(client: TestClient, headers: dict[str, str], what: str) -> None:
    created = create(client, fab_body())
    answer = client.get(f"/api/tables/{created['table']}/{what}", headers=headers)
    assert answer.status_code == 401
    assert "error" in answer.json()


@pytest.mark.parametrize("what", ["view", "log"])
def test_a_wrong_token_and_a_missing_table_get_the_same_404(client: TestClient, what: str) -> None:
    created = create(client, fab_body())
    other = create(client, fab_body())
    answers = [
        client.get(f"/api/tables/{created['table']}/{what}", headers=bearer("x" * 32)),
        client.get(f"/api/tables/nosuchtable/{what}", headers=bearer("x" * 32)),
        # a real token of another table opens nothing here either
        client.get(
            f"/api/tables/{created['table']}/{what}", headers=bearer(other["seats"]["alice"])
        ),
        client.get(f"/api/tables/nosuchtable/{what}", headers=bearer(created["seats"]["alice"])),
    ]
    assert {a.status_code for a in answers} == {404}
    assert len({a.content for a in answers}) == 1
    assert (
        len({tuple(sorted((k, v) for k, v in a.headers.items() if k != "date")) for a in answers})
        == 1
    )
    assert answers[0].json() == {"error": NOT_OPENED}


# ----------------------------------------------------------------------
# The WebSocket: hello, acts, events
# ----------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_act_is_acknowledged_then_every_connection_gets_its_own_view(
    client: TestClient, ruleset: str
) -> None:
    created = create(client, BODIES[ruleset]())
    with seated(client, created) as seats:
        welcome = seats["alice"].frames[0]["welcome"]
        assert welcome["seat"] == "alice" and welcome["number"] == 0 and welcome["log"] == []
        assert seats[None].frames[0]["welcome"]["seat"] is None
        answer = act(seats, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}, "c1")
        assert answer == {"ack": "c1", "number": 1, "result": "moved"}
        events = {name: seat.frames[-1] for name, seat in seats.items()}
        assert all(e["event"] == 1 and e["seat"] == "alice" for e in events.values())
        # alice sees the card she drew in her view and her log; bob and the spectator do not
        drawn = events["alice"]["log"][-1]["card"]["name"]
        assert drawn in json.dumps(events["alice"]["view"])
        for other in ("bob", None):
            assert drawn not in json.dumps(events[other])
            assert "card" not in events[other]["log"][-1]
            assert zone(events[other]["view"], "alice.hand")["count"] == 4


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_card_is_named_by_the_handle_its_own_view_gives(client: TestClient, ruleset: str) -> None:
    created = create(client, BODIES[ruleset]())
    with seated(client, created) as seats:
        mine = zone(seats["alice"].view, "alice.hand")["objects"][0]
        answer = act(
            seats,
            "alice",
            {
                "move": {
                    "card": mine["id"],
                    "to": f"alice.{'graveyard' if ruleset == 'fab' else 'discard'}",
                }
            },
        )
        assert "ack" in answer
        # bob's handle for one of his own cards names nothing for alice, and
        # gets the same refusal as a made-up handle
        his = zone(seats["bob"].view, "bob.hand")["objects"][0]["id"]
        first = act(seats, "alice", {"flip": {"card": his, "face": "up"}})
        second = act(seats, "alice", {"flip": {"card": "o000000000000", "face": "up"}})
        assert first["error"].replace(his, "H") == second["error"].replace("o000000000000", "H")
        assert "no such card" in first["error"]


def test_a_refused_act_gets_the_engines_error_and_rule_and_changes_nothing(
    client: TestClient,
) -> None:
    created = create(client, fab_body())
    with seated(client, created) as seats:
        store = store_of(client)
        before = seats["alice"].view
        answer = act(seats, "alice", {"resolve": {}}, "c9")
        assert answer == {
            "refused": "c9",
            "error": "the stack is empty: there is no layer to resolve (3.15.5)",
            "rule": "3.15.5",
        }
        # a refusal about a card alice may not look at says nothing of the card
        answer = act(seats, "alice", {"play": {"card": "alice.deck[0]"}}, "c10")
        assert answer["refused"] == "c10" and answer["rule"] == "3.0.3a"
        assert "Kx" not in answer["error"]
        assert store.head(created["table"]) == 0
        headers = bearer(created["seats"]["alice"])
        view = client.get(f"/api/tables/{created['table']}/view", headers=headers).json()
        assert view == {"number": 0, "view": before}


@pytest.mark.parametrize(
    ("step", "expected"),
    [
        (
            {"move": {"card": "alice.deck[0]", "to": "alice.hand", "by": "bob"}},
            "acts for itself only",
        ),
        ({"move": {"card": "$x", "to": "alice.hand"}}, "no other text starts with $"),
        ({"move": {"card": "#3", "to": "alice.hand"}}, "no other text starts with $ or #"),
        (
            {"move": {"card": "Kx0001q@alice.deck", "to": "alice.hand"}},
            "named by its id or by ZONE[i]",
        ),
        ({"move": {"card": "bob.hand[0]", "to": "alice.hand"}}, "only in your own zones"),
        (
            {"move": {"card": "bob.hero[0]", "to": "bob.graveyard"}},
            "may act only on cards alice controls",
        ),
        ({"move": {"card": "alice.deck[99]", "to": "alice.hand"}}, "has 8 card(s)"),
        ({"shuffle": {"zone": "bob.deck"}}, "only to its own zones"),
        ({"expect": {"zone": "bob.hand", "cards": ["Kx0001q"]}}, "for scenario files"),
        (
            {"move": {"card": "alice.deck[0]", "to": "alice.hand"}, "error": "x"},
            "for scenario files",
        ),
        ({"teleport": {}}, "unknown action 'teleport'"),
        ({"move": {}, "flip": {}}, "exactly one action"),
        (
            {"move": {"card": "alice.deck[0]", "to": "alice.hand", "colour": 1}},
            "unknown key 'colour'",
        ),
        (
            {"move": {"card": "alice.deck[0]", "to": "alice.hand", "then": {"resolve": {}}}},
            "then: takes",
        ),
        ("move", "an act is one action"),
    ],
)
def test_wrong_acts_are_refused_and_change_nothing(
    client: TestClient, step: Any, expected: str
) -> None:
    created = create(client, fab_body())
    with seated(client, created) as seats:
        answer = act(seats, "alice", step, "q")
        assert answer["refused"] == "q", answer
        assert expected in answer["error"], answer
        assert store_of(client).head(created["table"]) == 0
        # the table goes on
        assert "ack" in act(seats, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})


def test_turn_actions_belong_to_the_turn_player(client: TestClient) -> None:
    created = create(client, redemption_body())
    with seated(client, created) as seats:
        assert "turn player" in act(seats, "bob", {"phase": "upkeep"})["error"]
        assert "turn player" in act(seats, "bob", {"end_turn": {}})["error"]
        assert "ack" in act(seats, "alice", {"phase": "upkeep"})
        assert "ack" in act(seats, "alice", {"end_turn": {}})
        assert "ack" in act(seats, "bob", {"phase": "upkeep"})


def test_redemption_set_aside_may_target_an_opponents_card_where_the_rules_allow(
    client: TestClient,
) -> None:
    created = create(client, redemption_body())
    with seated(client, created) as seats:
        evil = [
            o
            for o in zone(seats["alice"].view, "bob.territory")["objects"]
            if "evil_character" in o["types"]
        ]
        answer = act(seats, "alice", {"set_aside": {"cards": [evil[0]["id"]], "duration": 1}})
        assert "ack" in answer, answer
        assert zone(seats["bob"].view, "bob.set_aside")["count"] == 1
        # but alice may not discard bob's card: she does not control it
        hero = zone(seats["alice"].view, "bob.territory")["objects"][0]["id"]
        assert (
            "may act only on cards alice controls"
            in act(seats, "alice", {"discard": {"card": hero}})["error"]
        )


def test_a_spectator_cannot_act(client: TestClient) -> None:
    created = create(client, fab_body())
    with seated(client, created) as seats:
        seats[None].ws.send_json({"act": {"end_turn": {}}, "id": 7, "after": 0})
        assert seats[None].receive() == {"refused": 7, "error": "a spectator cannot act"}


def test_a_reconnect_gets_its_view_then_the_log_after_its_number(client: TestClient) -> None:
    created = create(client, fab_body())
    table = created["table"]
    with seated(client, created) as seats:
        for _ in range(3):
            act(seats, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
        with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
            again = Seat(ws, "alice")
            welcome = again.hello(created["seats"]["alice"], after=1)["welcome"]
            assert welcome["number"] == 3 and welcome["view"] == seats["alice"].view
            assert [e["seq"] for e in welcome["log"]] == [1, 2]
            act(seats, "bob", {"move": {"card": "bob.deck[0]", "to": "bob.hand"}})
            assert again.receive()["event"] == 4  # the next event, once


# ----------------------------------------------------------------------
# The WebSocket: bad frames
# ----------------------------------------------------------------------


@pytest.mark.parametrize("token", ["x" * 32, ""])
def test_a_wrong_token_and_a_missing_table_are_closed_alike_with_4401(
    client: TestClient, token: str
) -> None:
    created = create(client, fab_body())
    closes = []
    for table in (created["table"], "nosuchtable"):
        with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
            ws.send_json({"hello": token or created["seats"]["alice"] + "x", "after": 0})
            frame = ws.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            closes.append((frame, closed.value.code))
    assert closes[0] == closes[1] == ({"error": NOT_OPENED}, 4401)


@pytest.mark.parametrize(
    "first", ['{"act": {}}', "not json", '{"hello": 5}', '{"hello": "t", "x": 1}', "[]"]
)
def test_any_other_first_frame_is_closed_with_4400(client: TestClient, first: str) -> None:
    created = create(client, fab_body())
    with client.websocket_connect(f"/api/tables/{created['table']}/ws") as ws:
        ws.send_text(first)
        assert "error" in ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4400


def test_bad_frames_get_an_error_and_the_table_goes_on(client: TestClient) -> None:
    created = create(client, fab_body())
    with seated(client, created) as seats:
        alice = seats["alice"]
        for text, expected in [
            ("{oops", "not valid JSON"),
            ('"a string"', "JSON object"),
            ('{"act": {"end_turn": {}}, "sneaky": 1}', "unknown key(s) 'sneaky'"),
            ('{"hello": "again"}', "unknown key(s) 'hello'"),
            ("x" * (MAX_FRAME + 1), f"larger than {MAX_FRAME} bytes"),
            (json.dumps({"act": {"end_turn": {}}, "id": "é" * (MAX_FRAME // 2)}), "larger than"),
        ]:
            alice.ws.send_text(text)
            assert expected in alice.receive()["error"]
        alice.ws.send_bytes(b"\xff\xfe")
        assert "error" in alice.receive()
        assert store_of(client).head(created["table"]) == 0
        assert "ack" in act(seats, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
        assert "ack" in act(seats, "bob", {"move": {"card": "bob.deck[0]", "to": "bob.hand"}})


def test_more_than_100_frames_in_a_second_is_closed_with_4429_and_others_go_on(
    client: TestClient,
) -> None:
    created = create(client, fab_body())
    with seated(client, created) as seats:
        flood = seats["bob"]
        for _ in range(101):
            flood.ws.send_text("{}")
        codes = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                codes.append(flood.receive())
        assert closed.value.code == 4429
        assert "more than 100 frames" in codes[-1]["error"]
        answer = seats["alice"]
        answer.ws.send_json(
            {"act": {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}, "id": 1}
        )
        assert answer.receive()["ack"] == 1


def test_a_wrong_origin_is_refused_and_the_servers_own_or_an_allowed_one_is_not() -> None:
    app = create_app("sqlite://", origins=["https://board.example"])
    with TestClient(app, base_url="http://testserver") as client:
        created = create(client, fab_body())
        url = f"/api/tables/{created['table']}/ws"
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect(url, headers={"origin": "https://evil.example"}),
        ):
            pass
        assert closed.value.code == 4403
        for origin in ("http://testserver", "https://board.example"):
            with client.websocket_connect(url, headers={"origin": origin}) as ws:
                ws.send_json({"hello": created["seats"]["alice"], "after": 0})
                assert "welcome" in ws.receive_json()


def test_pages_carry_no_token_and_forbid_scripts(client: TestClient) -> None:
    created = create(client, fab_body())
    page = client.get(f"/play/{created['table']}")
    assert page.status_code == 200
    assert created["seats"]["alice"] not in page.text
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert page.headers["referrer-policy"] == "no-referrer"
