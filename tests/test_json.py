"""The JSON a front end receives (docs/json.md): views and logs follow the
package's schemas, carry their format, name zones by name, give the same
public object the same handle in every view, and give log entries the handles
their viewer knows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from schemas import check_log, check_view

from cardzones import new_game, schema
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.game import Game
from cardzones.kernel.logview import LOG_FORMAT, log_document, omniscient_log
from cardzones.kernel.views import VIEW_FORMAT, omniscient_view
from cardzones.scenario.runner import find_scenarios, run_file

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted(find_scenarios([ROOT / "scenarios", ROOT / "cardzones" / "examples"]))


def _views(game: Game) -> dict[str, dict[str, Any]]:
    out = {"author": omniscient_view(game), "spectator": game.view(None)}
    for player in game.players:
        out[player] = game.view(player)
    return json.loads(json.dumps(out))  # as sent


def _public(view: dict[str, Any]) -> dict[str, list[str]]:
    """Per zone, the handles of its public objects (piles included), in the
    order the view lists them."""
    out: dict[str, list[str]] = {}

    def walk(objects: list[dict[str, Any]], into: list[str]) -> None:
        for o in objects:
            if o.get("public"):
                into.append(o["id"])
            walk([*o.get("under", ()), *o.get("placed", ())], into)

    for zone in view["zones"]:
        walk(zone["objects"], out.setdefault(zone["zone"], []))
    return out


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name[:-14])
def test_every_scenarios_final_views_and_logs_follow_the_schemas(path: Path) -> None:
    """Every view and log of every scenario, for the author, the spectator and
    each player, follows view.schema.json and log.schema.json; the same public
    object has the same handle in all of them, listed in the same order."""
    outcome = run_file(path)
    assert outcome.context is not None, outcome.message
    game = outcome.context.game
    views = _views(game)
    for view in views.values():
        check_view(view)
        assert view["format"] == VIEW_FORMAT
        assert [z["zone"] for z in view["zones"]] == list(view["by_name"])
        assert all(view["zones"][i]["zone"] == z for z, i in view["by_name"].items())
    for viewer in (None, *game.players):
        check_log(json.loads(json.dumps(game.log(viewer))), viewer)
    check_log(json.loads(json.dumps(omniscient_log(game))))
    public = {name: _public(view) for name, view in views.items()}
    assert all(p == public["author"] for p in public.values()), public


def test_schemas_are_valid_draft_2020_12() -> None:
    from jsonschema import Draft202012Validator

    for name in schema.NAMES:
        found = schema.load(name)
        assert found["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        Draft202012Validator.check_schema(found)
    assert schema.load("log")["properties"]["format"]["const"] == LOG_FORMAT


def test_the_schemas_refuse_what_they_do_not_describe() -> None:
    """A schema that accepted anything would check nothing."""
    from jsonschema import ValidationError

    game = new_game("fab", handle_key="k")
    view = json.loads(json.dumps(game.view("alice")))
    for broken in (
        {**view, "format": "cardzones-view/2"},
        {**view, "surprise": 1},
        {**view, "zones": [{**view["zones"][0], "objects": [{"hidden": True, "name": "X"}]}]},
    ):
        with pytest.raises(ValidationError):
            check_view(broken)
    with pytest.raises(ValidationError):
        check_log([{"seq": 0, "event": "moved", "turn": 1, "id": "not a handle"}])


def test_log_document_carries_its_format() -> None:
    game = new_game("fab", handle_key="k")
    document = log_document(game, "bob")
    assert document == {"format": LOG_FORMAT, "viewer": "bob", "entries": []}


def _handle_in(view: dict[str, Any], zone: str) -> list[str]:
    found = view["zones"][view["by_name"][zone]]["objects"]
    return [o["id"] for o in found if "id" in o]


def test_log_entries_carry_the_handles_their_viewer_knows() -> None:
    """A draw: alice's entry has the handle her view gives the card in her
    hand, bob's has none. A discard: every viewer's entry has the card's public
    handle, the one every view now gives it, and alice's also the handle it had
    in her hand."""
    game = new_game("fab", ("alice", "bob"), handle_key="k")
    deck = game.zone("alice", "deck")
    assert deck is not None
    card = game.new_card(CardDef("Snatch", frozenset({"action"}), {"power": 4}), deck)
    game.move(card, Dest("hand", "owner"), by="alice")
    alice, bob = game.log("alice")[-1], game.log("bob")[-1]
    in_hand = _handle_in(game.view("alice"), "alice.hand")
    assert alice["id"] == in_hand[0] and "was" not in alice
    assert "id" not in bob and "was" not in bob and "card" not in bob
    game.move(card, Dest("graveyard", "owner"), by="alice")
    public = _handle_in(game.view("bob"), "alice.graveyard")[0]
    for viewer in (None, "alice", "bob"):
        entry = game.log(viewer)[-1]
        assert entry["id"] == public == _handle_in(game.view(viewer), "alice.graveyard")[0]
    assert game.log("alice")[-1]["was"] == in_hand[0]
    assert "was" not in game.log("bob")[-1]
    assert omniscient_log(game)[-1]["id"] == public
    assert _handle_in(omniscient_view(game), "alice.graveyard") == [public]


def test_a_public_object_has_one_handle_for_everyone_and_no_link_to_its_private_life() -> None:
    """The same public object has the same handle in the author's view and in
    every player's and the spectator's; turned face up, it gets a handle that
    no view gave it while it was private."""
    game = new_game("fab", ("alice", "bob"), handle_key="k")
    banished = game.zone("alice", "banished")
    assert banished is not None
    card = game.new_card(CardDef("Tome", frozenset({"action"})), banished, public=False)
    private = set(_handle_in(game.view("alice"), "alice.banished"))
    private |= set(_handle_in(omniscient_view(game), "alice.banished"))
    game.flip(card, "up")
    shown = {
        h
        for view in (game.view(None), game.view("alice"), game.view("bob"), omniscient_view(game))
        for h in _handle_in(view, "alice.banished")
    }
    assert len(shown) == 1 and not shown & private
