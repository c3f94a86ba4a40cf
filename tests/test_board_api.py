"""What the board needs from the server beyond the table protocol: the rule
sets' action tables, the end of a game, and a replay step by step from one
viewer's point of view, which until the end is only a seat's own."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tablekit import act, create, fab_body, redemption_body, seated

from cardzones.rulesets import get_ruleset
from cardzones.table import store as store_module
from cardzones.table.host import GAME_OVER
from cardzones.table.store import Store
from cardzones.web.app import create_app
from cardzones.web.pages import POLICY
from cardzones.web.server import NOT_OPENED


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://")) as client:
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_rulesets_serve_each_action_table_as_its_json() -> None:
    with TestClient(create_app("sqlite://")) as client:
        answer = client.get("/api/rulesets").json()
    by_name = {r["name"]: r["actions"] for r in answer["rulesets"]}
    for name in ("fab", "redemption"):
        expected = [a.to_json() for a in get_ruleset(name).actions.values()]
        assert by_name[name] == expected
    # The run's card index holds both games' cards (test_table_decks.py: none).
    assert answer["deck_lists"] is True
    assert all(r["deck_lists"] is True for r in answer["rulesets"])


STATIC = Path(__file__).resolve().parent.parent / "cardzones" / "web" / "static"


def test_rulesets_serve_each_board_layout_and_the_pages_name_no_game() -> None:
    """The board takes a mat's areas, rows, piles and the zones' words from the
    rule set, and the page that starts a table its deck lists' help: no page
    names a game, so a third one gets a board through its own package."""
    with TestClient(create_app("sqlite://")) as client:
        answer = client.get("/api/rulesets").json()
    names = [r["name"] for r in answer["rulesets"]]
    for entry in answer["rulesets"]:
        ruleset = get_ruleset(entry["name"])
        assert entry["board"] == ruleset.board.to_json()
        assert entry["deck_list_help"] == ruleset.deck_list_help
        board = entry["board"]
        laid = {a for row in board["rows"] for a in row.split()}
        assert set(board["order"]) <= laid and set(board["wide"]) <= laid
        types = set(ruleset.zone_specs)
        assert set(board["areas"]) <= types and set(board["piles"]) <= types
        assert set(board["stacked"]) <= types
        # The numbers a face shows in a colour are the rule set's own, by value.
        assert set(board["coloured"]) <= set(ruleset.numbers.modified)
        assert all(isinstance(t, str) for t in board["life_shown"])
        assert set(board["piles"].values()) <= set(ruleset.piles)
    pages = sorted(p for p in STATIC.iterdir() if p.suffix in (".js", ".css", ".html"))
    assert pages
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for name in names:
            assert not re.search(rf"\b{re.escape(name)}\b", text), (page.name, name)


def test_pages_load_only_the_servers_own_scripts_and_styles(client: TestClient) -> None:
    created = create(client, fab_body())
    for path in ("/", f"/play/{created['table']}"):
        page = client.get(path)
        assert page.headers["content-security-policy"] == POLICY
        assert "script-src 'self'" in POLICY and "'unsafe-inline'" not in POLICY
        # no inline script and no inline event handler
        assert "<script>" not in page.text and not re.search(r"\son[a-z]+=", page.text)
    for name in ("board.js", "dom.js", "create.js", "board.css"):
        static = client.get(f"/static/{name}")
        assert static.status_code == 200 and not re.search(
            r"innerHTML|outerHTML|insertAdjacentHTML|document\.write", static.text
        )


def play_some(seats: Any) -> None:
    act(seats, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
    act(seats, "alice", {"end_turn": {}})
    act(seats, "bob", {"move": {"card": "bob.deck[0]", "to": "bob.hand"}})


@pytest.mark.parametrize("body", [fab_body, redemption_body])
def test_a_seat_replays_its_own_view_and_any_seats_once_the_game_is_finished(
    client: TestClient, body: Any
) -> None:
    created = create(client, body())
    table, tokens = created["table"], created["seats"]
    url = f"/api/tables/{table}/history"
    with seated(client, created) as seats:
        play_some(seats)
        own = client.get(url, headers=bearer(tokens["alice"])).json()
        assert own["seat"] == "alice" and own["finished"] is None
        frames = [f for f in seats["alice"].frames if "event" in f]
        assert [s["view"] for s in own["steps"][1:]] == [f["view"] for f in frames]
        assert [s["log"] for s in own["steps"][1:]] == [f["log"] for f in frames]
        assert own["steps"][0]["view"] == seats["alice"].frames[0]["welcome"]["view"]
        # Not another seat's, nor the spectator's from a seat, before the end.
        for other in ("bob", "spectator"):
            answer = client.get(url, params={"as": other}, headers=bearer(tokens["alice"]))
            assert answer.status_code == 403, answer.text
        spectator = bearer(created["spectator"])
        assert client.get(url, params={"as": "bob"}, headers=spectator).status_code == 403
        assert client.get(url, headers=spectator).json()["seat"] is None
        # The spectator cannot end the game; a seat proposes it, all hear it,
        # and it ends when the other seat agrees too.
        finish = f"/api/tables/{table}/finish"
        assert client.post(finish, headers=spectator).status_code == 403
        proposed = client.post(finish, headers=bearer(tokens["bob"])).json()
        assert proposed["finished"] is None and proposed["finish"]["agreed"] == ["bob"]
        for seat in seats.values():
            assert seat.receive() == {"finish": proposed["finish"]}
        for who, other in (("alice", "bob"), ("bob", "alice")):
            answer = client.get(url, params={"as": other}, headers=bearer(tokens[who]))
            assert answer.status_code == 403, answer.text
        accepted = client.post(finish, headers=bearer(tokens["alice"])).json()
        ended = accepted["finished"]
        assert ended["by"] == "bob" and ended["number"] == 3
        assert ended["agreed"] == ["bob", "alice"] and ended["conceded"] == []
        for seat in seats.values():
            assert seat.receive()["finish"]["agreed"] == ["bob", "alice"]
            assert seat.receive() == {"finished": ended}
        again = client.post(finish, headers=bearer(tokens["alice"])).json()["finished"]
        assert again == ended
        # No act after the end.
        answer = act(seats, "bob", {"move": {"card": "bob.deck[0]", "to": "bob.hand"}})
        assert answer["error"] == GAME_OVER
        # Now alice replays bob's game exactly as bob's frames showed it.
        as_bob = client.get(url, params={"as": "bob"}, headers=bearer(tokens["alice"])).json()
        bob_frames = [f for f in seats["bob"].frames if "event" in f]
        assert [s["view"] for s in as_bob["steps"][1:]] == [f["view"] for f in bob_frames]
        assert as_bob["finished"] == ended
        assert (
            client.get(url, params={"as": "nobody"}, headers=bearer(tokens["alice"])).status_code
            == 400
        )
    # A reconnect's welcome says the game is over.
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"hello": tokens["alice"], "after": 3})
        assert ws.receive_json()["welcome"]["finished"] == ended


def test_history_and_finish_need_a_token_that_opens_the_table(client: TestClient) -> None:
    created = create(client, fab_body())
    table = created["table"]
    for method, path in (("get", "history"), ("post", "finish")):
        call = getattr(client, method)
        assert call(f"/api/tables/{table}/{path}").status_code == 401
        wrong = call(f"/api/tables/{table}/{path}", headers=bearer("x" * 32))
        missing = call(f"/api/tables/nope/{path}", headers=bearer(created["seats"]["alice"]))
        assert wrong.status_code == missing.status_code == 404
        assert wrong.json() == missing.json() == {"error": NOT_OPENED}


def test_a_table_made_before_the_end_existed_is_not_finished(tmp_path: Any) -> None:
    store = Store(str(tmp_path / "t.sqlite3"))
    store.migrate()
    with store.engine.connect() as conn:
        version = conn.exec_driver_sql("select version_num from alembic_version").scalar()
    # Brought to the newest version, whose tables all carry their end (if any).
    from alembic.script import ScriptDirectory

    migrations = Path(store_module.__file__).parent / "migrations"
    assert version == ScriptDirectory(str(migrations)).get_current_head()
    assert json.dumps(store.finished("none")) == "null"


def test_rulesets_say_which_has_a_game_procedure() -> None:
    """``procedure`` says whether a table of the rule set may run its game
    procedure: true exactly for the rule sets whose procedure begins."""
    from cardzones.rulesets.base import Ruleset

    with TestClient(create_app("sqlite://")) as client:
        answer = client.get("/api/rulesets").json()
    said = {r["name"]: r["procedure"] for r in answer["rulesets"]}
    assert said == {"fab": True, "redemption": True}
    for name, has in said.items():
        ruleset = get_ruleset(name)
        assert (type(ruleset).start_procedure is not Ruleset.start_procedure) == has
