"""Tables of three seats under a game procedure, played over the socket.
Flesh and Blood: each seat is offered the acts the procedure allows it, an
attack's target among its opponents (1.4.5), priority goes around the
three seats (1.11.4a), a seat that concedes leaves the game while the
other two play on (4.5.1a), and when one is left every seat is told the
winner (4.5.2a). Redemption: a rescue attempt names any opponent's Lost
Soul, and that opponent alone fights the battle."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from starlette.testclient import TestClient
from tablekit import Seat, act, create

from cardzones.web.app import create_app

THREE = "\n".join(
    [
        "ruleset: fab",
        "players: [alice, bob, carol]",
        "procedure: {first: alice}",
        "seed: 5",
        "cards:",
        "  Dorinthea: {types: [hero, warrior], life: 20, intellect: 2}",
        "  Bravo: {types: [hero, guardian], life: 20, intellect: 2}",
        "  Katsu: {types: [hero, ninja], life: 20, intellect: 2}",
        "  Snatch: {types: [generic, action, attack], power: 4, defense: 2, pitch: 1, cost: 0}",
        "setup:",
        "  alice.hero: [Dorinthea]",
        "  bob.hero: [Bravo]",
        "  carol.hero: [Katsu]",
        "  alice.hand: [Snatch, Snatch]",
        "  bob.hand: [Snatch, Snatch]",
        "  carol.hand: [Snatch, Snatch]",
        "",
    ]
)


@contextmanager
def every_seat(client: TestClient, created: dict[str, Any]) -> Iterator[dict[str | None, Seat]]:
    """A connection for each of the table's seats and one for the spectator."""
    table = created["table"]
    with ExitStack() as stack:
        seats: dict[str | None, Seat] = {}
        for name in (*created["seats"], None):
            ws = stack.enter_context(client.websocket_connect(f"/api/tables/{table}/ws"))
            seats[name] = Seat(ws, name)
            token = created["spectator"] if name is None else created["seats"][name]
            assert "welcome" in seats[name].hello(token)
        yield seats


def legal(client: TestClient, created: dict[str, Any], seat: str) -> list[dict[str, Any]]:
    answer = client.get(
        f"/api/tables/{created['table']}/legal",
        headers={"Authorization": f"Bearer {created['seats'][seat]}"},
    ).json()
    return [entry["act"] for entry in answer["legal"]]


def test_three_seats_play_under_the_procedure_until_one_is_left() -> None:
    with TestClient(create_app("sqlite://")) as client:
        created = create(client, {"scenario": THREE})
        assert sorted(created["seats"]) == ["alice", "bob", "carol"]
        with every_seat(client, created) as seats:
            # 1.11.2: only alice acts; her attacks name each opponent's hero.
            assert legal(client, created, "bob") == legal(client, created, "carol") == []
            plays = [a["play"] for a in legal(client, created, "alice") if "play" in a]
            assert sorted({p["target"] for p in plays}) == ["bob", "carol"]
            untargeted = {k: v for k, v in plays[0].items() if k != "target"}
            refused = act(seats, "alice", {"play": untargeted})
            assert "an attack declares its target" in refused["error"]
            card = next(p for p in plays if p["target"] == "carol")
            assert "ack" in act(seats, "alice", {"play": card})
            # 1.11.4a: priority goes clockwise around the three seats.
            for seat in ("alice", "bob", "carol"):
                assert seats[seat].view["procedure"]["priority"] == seat
                assert "ack" in act(seats, seat, {"pass": {}})
            (link,) = seats[None].view["procedure"]["links"]
            assert (link["attacker"], link["defender"]) == ("alice", "carol")
            # 4.5.1a: carol concedes and leaves; the two others play on.
            assert "ack" in act(seats, "carol", {"concede": {}})
            shown = seats["bob"].view["procedure"]
            assert shown["out"] == ["carol"] and shown["winner"] is None
            assert not any("won" in f for s in seats.values() for f in s.frames[1:])
            assert legal(client, created, "carol") == []
            assert "ack" in act(seats, "alice", {"pass": {}})
            assert seats["alice"].view["procedure"]["priority"] == "bob"
            # 4.5.2a: bob concedes too; alice is the last one standing.
            assert "ack" in act(seats, "bob", {"concede": {}})
            for seat in seats.values():
                assert seat.frames[-1]["won"] == "alice", seat.name
                assert seat.view["procedure"]["out"] == ["carol", "bob"]


RESCUE = "\n".join(
    [
        "ruleset: redemption",
        "players: [alice, bob, carol]",
        "procedure: true",
        "cards:",
        "  Moses: {type: hero, brigade: gold, strength: 8, toughness: 6}",
        "  Pharaoh: {type: evil_character, brigade: pale_green, strength: 6, toughness: 6}",
        "  Soul: {type: lost_soul}",
        "setup:",
        "  alice.deck: [Moses]",
        "  bob.deck: [Soul, Pharaoh]",
        "  carol.deck: [Soul, Pharaoh]",
        "",
    ]
)


def test_three_seats_of_redemption_rescue_from_the_opponent_they_choose() -> None:
    """opponent/any-other-player: alice is offered a rescue of either
    opponent's Lost Soul; opponent/in-battle: the one she names blocks, and
    the third seat is offered nothing in the battle."""
    with TestClient(create_app("sqlite://")) as client:
        created = create(client, {"scenario": RESCUE})
        with every_seat(client, created) as seats:
            assert "ack" in act(seats, "alice", {"open_game": {"shuffle": False}})
            rescues = [a["rescue"] for a in legal(client, created, "alice") if "rescue" in a]
            souls = {r["soul"] for r in rescues}
            view = seats["alice"].view
            bondage = {
                z["zone"]: [o["id"] for o in z["objects"]]
                for z in view["zones"]
                if z["zone"].endswith(".land_of_bondage")
            }
            assert souls == {*bondage["bob.land_of_bondage"], *bondage["carol.land_of_bondage"]}
            chosen = next(r for r in rescues if r["soul"] in bondage["carol.land_of_bondage"])
            assert "ack" in act(seats, "alice", {"rescue": chosen})
            assert seats[None].view["procedure"]["battle"]["defender"] == "carol"
            assert legal(client, created, "bob") == []
            assert any("block" in a for a in legal(client, created, "carol"))
            assert "error" in act(seats, "bob", {"pass": {}})
            assert "ack" in act(seats, "carol", {"pass": {}})
            for seat in seats.values():
                assert seat.view["procedure"]["rescued"] == {"alice": 1, "bob": 0, "carol": 0}
