"""What the table tests share: stores, start positions with a unique name on
every card, clients for the in-process app and for a real server, a server
process that can be killed, and random acts made from what a seat's view
shows."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import free_port
from schemas import check_log, check_view
from starlette.testclient import TestClient, WebSocketTestSession

from cardzones.table.store import Store

# ----------------------------------------------------------------------
# Stores
# ----------------------------------------------------------------------


@contextmanager
def migrated_store(url: str) -> Iterator[Store]:
    """A table store on ``url`` with its schema made, closed afterwards."""
    store = Store(url)
    store.migrate()
    try:
        yield store
    finally:
        store.close()


def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The store a test parametrized with ``"sqlite"`` or ``"postgres"`` asks
    for: a new SQLite file, or the test cluster's database."""
    if request.param == "sqlite":
        return str(tmp_path / "tables.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url


# ----------------------------------------------------------------------
# Start positions
# ----------------------------------------------------------------------


def card_name(n: int) -> str:
    """A name no other card has, and that is in no other name: each private
    card can be looked for in every frame."""
    return f"Kx{n:04d}q"


#: The handle key of the test tables. A real table draws a secret one; these
#: give a fixed one, so that a seat's view, and so the acts Hypothesis draws
#: from it, are the same in every run of an example.
HANDLE_KEY = "test tables"


def fab_body(
    seed: int = 7, deck: int = 8, hand: int = 3, names: list[str] | None = None
) -> dict[str, Any]:
    """A fab table: a hero and a weapon each, a deck and a hand of look-alike
    attacks (only their names differ), and a card in each banished zone."""
    pool = iter(names or [card_name(n) for n in range(1, 200)])
    cards: dict[str, Any] = {
        "Hero A": {"types": ["hero"]},
        "Hero B": {"types": ["hero"]},
        "Ward": {"types": ["token", "aura"]},
    }
    setup: dict[str, Any] = {}
    for player, hero in (("alice", "Hero A"), ("bob", "Hero B")):
        setup[f"{player}.hero"] = [hero]
        for zone, count in (("deck", deck), ("hand", hand), ("banished", 1)):
            entries = []
            for _ in range(count):
                name = next(pool)
                cards[name] = {"types": ["action", "attack"], "power": 4, "defense": 2}
                entries.append(name)
            setup[f"{player}.{zone}"] = entries
    return {
        "ruleset": "fab",
        "players": ["alice", "bob"],
        "seed": seed,
        "handle_key": HANDLE_KEY,
        "cards": cards,
        "setup": setup,
    }


def redemption_body(
    seed: int = 7, deck: int = 8, hand: int = 3, names: list[str] | None = None
) -> dict[str, Any]:
    """A Redemption table: decks and hands of look-alike heroes, and a hero and
    an evil character in play for each player."""
    pool = iter(names or [card_name(n) for n in range(1, 200)])
    cards: dict[str, Any] = {}
    setup: dict[str, Any] = {}
    for player in ("alice", "bob"):
        for zone, count in (("deck", deck), ("hand", hand)):
            entries = []
            for _ in range(count):
                name = next(pool)
                cards[name] = {"type": "hero", "brigade": "blue", "strength": 3, "toughness": 3}
                entries.append(name)
            setup[f"{player}.{zone}"] = entries
        hero, evil = next(pool), next(pool)
        cards[hero] = {"type": "hero", "brigade": "red", "strength": 5, "toughness": 5}
        cards[evil] = {
            "type": "evil_character",
            "brigade": "crimson",
            "strength": 4,
            "toughness": 4,
        }
        setup[f"{player}.territory"] = [hero, evil]
    return {
        "ruleset": "redemption",
        "players": ["alice", "bob"],
        "seed": seed,
        "handle_key": HANDLE_KEY,
        "cards": cards,
        "setup": setup,
    }


BODIES = {"fab": fab_body, "redemption": redemption_body}


# ----------------------------------------------------------------------
# Clients
# ----------------------------------------------------------------------


def create(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


class Seat:
    """One WebSocket of the in-process app, with every frame it received."""

    def __init__(self, ws: WebSocketTestSession, name: str | None) -> None:
        self.ws = ws
        self.name = name
        self.frames: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.number = 0

    def receive(self) -> dict[str, Any]:
        frame: dict[str, Any] = self.ws.receive_json()
        self.frames.append(frame)
        if "welcome" in frame:
            self.view, self.number = frame["welcome"]["view"], frame["welcome"]["number"]
        if "event" in frame:
            assert frame["event"] == self.number + 1, (self.number, frame["event"])
            self.view, self.number = frame["view"], frame["event"]
        body = frame.get("welcome", frame)
        if isinstance(body, dict) and "view" in body:
            check_view(body["view"])  # docs/json.md: every view follows the schema
        if isinstance(body, dict) and isinstance(body.get("log"), list):
            check_log(body["log"], self.name)
        return frame

    def hello(self, token: str, after: int = 0) -> dict[str, Any]:
        self.ws.send_json({"hello": token, "after": after})
        return self.receive()


@contextmanager
def seated(client: TestClient, created: dict[str, Any]) -> Iterator[dict[str | None, Seat]]:
    """A connection for each seat and one for the spectator, welcomed."""
    table = created["table"]
    with (
        client.websocket_connect(f"/api/tables/{table}/ws") as a,
        client.websocket_connect(f"/api/tables/{table}/ws") as b,
        client.websocket_connect(f"/api/tables/{table}/ws") as s,
    ):
        seats = {"alice": Seat(a, "alice"), "bob": Seat(b, "bob"), None: Seat(s, None)}
        for name, seat in seats.items():
            token = created["spectator"] if name is None else created["seats"][name]
            assert "welcome" in seat.hello(token)
        yield seats


def act(
    seats: dict[str | None, Seat], actor: str, step: dict[str, Any], request: str = "r"
) -> dict[str, Any]:
    """Send an act and read every frame it causes: the answer, and an event
    for each connection when it was applied."""
    seats[actor].ws.send_json({"act": step, "id": request, "after": seats[actor].number})
    answer = seats[actor].receive()
    if "ack" in answer:
        for seat in seats.values():
            frame = seat.receive()
            assert frame.get("event") == answer["number"], frame
    return answer


def take_back(
    client: TestClient, created: dict[str, Any], seats: dict[str | None, Seat], asker: str
) -> bool:
    """``asker`` asks to take back its last act, every other seat accepts,
    and every connection reads the frames that causes: the request, the
    event and the request's end. False when the table refuses the request
    (another seat acted last), and nothing happened."""
    where = f"/api/tables/{created['table']}/take-back"

    def post(who: str, body: dict[str, Any]) -> Any:
        token = created["seats"][who]
        return client.post(where, json=body, headers={"Authorization": f"Bearer {token}"})

    asked = post(asker, {"acts": 1})
    if asked.status_code == 409:
        return False
    assert asked.status_code == 200, asked.text
    for seat in seats.values():
        assert "take_back" in seat.receive()
    answers = [post(p, {"answer": "accept"}) for p in created["seats"] if p != asker]
    number = answers[-1].json()["number"]
    assert number is not None, answers[-1].text
    for seat in seats.values():
        while "take_back" in (frame := seat.receive()):
            pass  # the acceptances before the last
        assert frame.get("event") == number, frame
        assert seat.receive() == {"take_back": None}
    return True


# ----------------------------------------------------------------------
# Random acts, from a seat's view only
# ----------------------------------------------------------------------

FAB_KINDS = ("move",) * 6 + (
    "flip",
    "shuffle",
    "end_turn",
    "pitch_order",
    "play",
    "clear",
    "create_token",
)
RED_KINDS = ("move",) * 6 + (
    "flip",
    "shuffle",
    "end_turn",
    "discard",
    "phase",
    "set_aside",
    "place",
    "place",
    "negate",
)
PHASES = ("draw", "upkeep", "preparation", "battle", "discard")
#: Zones in play, where Redemption's place and set-aside abilities find their targets.
IN_PLAY = ("territory", "land_of_bondage", "field_of_battle")
#: The effect labels random acts give and negate: a few, so that some exist.
LABELS = ("e0", "e1", "e2")


def card_refs(view: dict[str, Any], seat: str, mine: bool) -> list[str]:
    """Ways the seat can name a card: the handle of each object it sees, and
    ``ZONE[i]`` for every position of a zone. With ``mine``, only its own."""
    out: list[str] = []

    def walk(obj: dict[str, Any]) -> None:
        if "id" in obj and (not mine or obj.get("controller", obj.get("owner")) == seat):
            out.append(obj["id"])
        for pile in ("under", "placed"):
            for kid in obj.get(pile, ()):
                walk(kid)

    for zone in view["zones"]:
        if mine and zone["owner"] != seat:
            for obj in zone["objects"]:
                walk(obj)
            continue
        for i in range(zone["count"]):
            out.append(f"{zone['zone']}[{i}]")
        for obj in zone["objects"]:
            walk(obj)
    return out


def random_act(view: dict[str, Any], seat: str, pick: Any) -> dict[str, Any]:
    """A random act for ``seat`` made only from its view; ``pick(n)`` draws an
    integer in [0, n). Most are legal; some the rules or the table refuse."""
    ruleset = view["ruleset"]
    kinds = FAB_KINDS if ruleset == "fab" else RED_KINDS
    kind = kinds[pick(len(kinds))]
    mine = card_refs(view, seat, mine=pick(8) != 0)
    zones = [z["zone"] for z in view["zones"]]
    own_zones = [z["zone"] for z in view["zones"] if z["owner"] == seat]
    card = mine[pick(len(mine))] if mine else f"{seat}.deck[0]"
    if kind == "move":
        dest = zones[pick(len(zones))] if pick(3) == 0 else own_zones[pick(len(own_zones))]
        step: dict[str, Any] = {"card": card, "to": dest}
        if pick(3) == 0:
            step["face"] = ("up", "down")[pick(2)]
        return {"move": step}
    if kind == "flip":
        return {"flip": {"card": card, "face": ("up", "down")[pick(2)]}}
    if kind == "shuffle":
        return {"shuffle": {"zone": f"{seat}.deck"}}
    if kind == "end_turn":
        # fab: the order of the pitched cards going to the bottom of the decks
        # (4.4.3c), some of them, as this seat names them.
        pitched = [
            obj["id"]
            for zone in view["zones"]
            if zone["zone"].endswith(".pitch")
            for obj in zone["objects"]
            if "id" in obj
        ]
        order = [pitched.pop(pick(len(pitched))) for _ in range(pick(len(pitched) + 1))]
        return {"end_turn": {"order": order} if order else {}}
    if kind == "pitch_order":
        # fab: a seat orders its own pitched cards, in secret (4.4.3c).
        own_pitch = [
            obj["id"]
            for zone in view["zones"]
            if zone["zone"] == f"{seat}.pitch"
            for obj in zone["objects"]
            if "id" in obj
        ]
        chosen = [own_pitch.pop(pick(len(own_pitch))) for _ in range(pick(len(own_pitch) + 1))]
        return {"pitch_order": {"order": chosen}}
    if kind == "phase":
        return {"phase": PHASES[pick(len(PHASES))]}
    if kind == "create_token":
        return {"create_token": {"card": "Ward", "to": "permanent"}}
    in_play = [
        obj
        for zone in view["zones"]
        if zone["zone"].split(".")[-1] in IN_PLAY
        for obj in zone["objects"]
        if "id" in obj
    ]
    other = in_play[pick(len(in_play))]["id"] if in_play else card
    own = [obj["id"] for obj in in_play if obj.get("controller") == seat]
    if kind in ("set_aside", "place") and own and pick(4):
        # Mostly a card the targets may be: one of the seat's own in play.
        card = own[pick(len(own))]
    if kind == "set_aside":
        step = {"cards": [card], "duration": 1 + pick(2), "as": LABELS[pick(len(LABELS))]}
        if pick(2):
            step["ongoing"] = {"card": card, "strength": 1 + pick(2)}
        return {"set_aside": step}
    if kind == "place":
        step = {"cards": [card], "as": LABELS[pick(len(LABELS))]}
        if pick(2):
            step["onto"] = other
        else:
            where = IN_PLAY[pick(len(IN_PLAY))]
            step["in"] = where if where == "field_of_battle" else f"{seat}.{where}"
        if pick(2):
            step["ongoing"] = {"card": other, "strength": 1 + pick(2), "toughness": 1}
        return {"place": step}
    if kind == "negate":
        return {"negate": {"effect": LABELS[pick(len(LABELS))]}}
    return {kind: {"card": card}}


# ----------------------------------------------------------------------
# A real server
# ----------------------------------------------------------------------


class ServerProcess:
    """``cardzones serve`` in a process of its own, on 127.0.0.1."""

    def __init__(
        self, db: str, *args: str, port: int | None = None, log: Path | None = None
    ) -> None:
        self.db = db
        self.args = args
        #: where the server's output goes (nowhere by default)
        self.log = log
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> ServerProcess:
        command = [sys.executable, "-m", "cardzones.cli", "serve", "--db", self.db]
        command += ["--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning"]
        out: Any = subprocess.DEVNULL if self.log is None else self.log.open("ab")
        self.proc = subprocess.Popen(
            [*command, *self.args],
            stdout=out,
            stderr=out,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            start_new_session=True,
        )
        if self.log is not None:
            out.close()  # the server has its own copy
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped at start (exit {self.proc.returncode})")
            try:
                if httpx.get(self.url + "/", timeout=1.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.kill()
        raise RuntimeError("the server did not start in time")

    def kill(self) -> None:
        """SIGKILL, to the server and every worker it started."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        with httpx.Client(base_url=self.url, timeout=10.0) as client:
            return create(client, body)


def frames_text(frames: list[dict[str, Any]]) -> str:
    return json.dumps(frames, sort_keys=True)
