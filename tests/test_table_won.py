"""The game's winner at the table: when the rule set's game procedure
records one, every seat and the spectator are told in the event's frame,
each later welcome and the answer about finishing (``won``,
docs/protocol.md), while the game stays open until the seats finish it."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient
from tablekit import act, create, redemption_body, seated, take_back

from cardzones.web.app import create_app

#: alice holds four Redeemed Souls: the rescue of bob's Lost Soul is her fifth.
FIFTH_RESCUE = "\n".join(
    [
        "ruleset: redemption",
        "procedure: true",
        "cards:",
        "  Moses: {type: hero, brigade: gold, strength: 8, toughness: 6}",
        "  Soul: {type: lost_soul}",
        "setup:",
        "  alice.deck: [Moses]",
        "  bob.deck: [Soul]",
        "  alice.land_of_redemption: [Soul, Soul, Soul, Soul]",
        "",
    ]
)


def _ref(view: dict[str, Any], zone: str, name: str) -> str:
    found = next(z for z in view["zones"] if z["zone"] == zone)
    ref: str = next(o["id"] for o in found["objects"] if o.get("name") == name)
    return ref


def test_the_procedures_winner_reaches_every_seat_and_the_game_stays_open() -> None:
    with TestClient(create_app("sqlite://")) as client:
        created = create(client, {"scenario": FIFTH_RESCUE})
        table = created["table"]
        with seated(client, created) as seats:
            assert all(s.frames[0]["welcome"]["won"] is None for s in seats.values())
            assert "ack" in act(seats, "alice", {"open_game": {"shuffle": False}})
            view = seats["alice"].view
            hero = _ref(view, "alice.hand", "Moses")
            soul = _ref(view, "bob.land_of_bondage", "Soul")
            assert "ack" in act(seats, "alice", {"rescue": {"hero": hero, "soul": soul}})
            # no winner yet: no frame says one
            assert not any("won" in f for s in seats.values() for f in s.frames[1:])
            assert "ack" in act(seats, "bob", {"pass": {}})
            for seat in seats.values():
                last = seat.frames[-1]
                assert last["won"] == "alice", seat.name
                assert last["view"]["procedure"]["winner"] == "alice"
            # the game is won, not finished: finishing is still the seats' vote
            finish = client.get(
                f"/api/tables/{table}/finish",
                headers={"Authorization": f"Bearer {created['spectator']}"},
            ).json()
            assert finish == {"finished": None, "finish": None, "won": "alice"}
            # the procedure takes no act after its winner; a judge's act is taken
            refused = act(seats, "alice", {"proceed": {}})
            assert "the game is over: alice won" in refused["error"]
            moved = act(
                seats,
                "alice",
                {"move": {"card": "alice.land_of_redemption[0]", "to": "alice.discard"}},
            )
            assert "ack" in moved and seats[None].frames[-1]["won"] == "alice"
        with seated(client, created) as again:
            assert all(s.frames[0]["welcome"]["won"] == "alice" for s in again.values())


def test_a_table_without_a_procedure_has_no_winner_to_tell() -> None:
    with TestClient(create_app("sqlite://")) as client:
        created = create(client, redemption_body())
        with seated(client, created) as seats:
            assert seats["alice"].frames[0]["welcome"]["won"] is None
            act(seats, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
            assert not any("won" in f for s in seats.values() for f in s.frames)


def test_a_start_position_in_json_may_ask_for_the_procedure_too() -> None:
    """``procedure`` beside ``cards`` and ``setup`` is a scenario's key."""
    with TestClient(create_app("sqlite://")) as client:
        body = {**redemption_body(), "procedure": True}
        created = create(client, body)
        with seated(client, created) as seats:
            welcome = seats["bob"].frames[0]["welcome"]
            assert welcome["view"]["procedure"]["opened"] is False
            assert "ack" in act(seats, "alice", {"open_game": {}})
        refused = client.post("/api/tables", json={**body, "procedure": 1})
        assert refused.status_code == 400
        assert "procedure: is true, false or {first: PLAYER}" in refused.text


def test_a_take_back_of_the_winning_act_takes_the_winner_back() -> None:
    with TestClient(create_app("sqlite://")) as client:
        created = create(client, {"scenario": FIFTH_RESCUE})
        with seated(client, created) as seats:
            act(seats, "alice", {"open_game": {"shuffle": False}})
            view = seats["alice"].view
            hero = _ref(view, "alice.hand", "Moses")
            soul = _ref(view, "bob.land_of_bondage", "Soul")
            act(seats, "alice", {"rescue": {"hero": hero, "soul": soul}})
            act(seats, "bob", {"pass": {}})
            assert seats[None].frames[-1]["won"] == "alice"
            assert take_back(client, created, seats, "bob")
            for seat in seats.values():
                event = next(f for f in reversed(seat.frames) if "event" in f)
                assert "won" not in event and event["view"]["procedure"]["winner"] is None
            finish = client.get(
                f"/api/tables/{created['table']}/finish",
                headers={"Authorization": f"Bearer {created['spectator']}"},
            ).json()
            assert "won" not in finish
        with seated(client, created) as again:
            assert again["bob"].frames[0]["welcome"]["won"] is None
