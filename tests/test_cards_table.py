"""The table's start positions use the same card lookup: ``card_data`` in a
table's creation, and deck lists read into start positions that a table is
made from."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cardzones.cards.decks import read_deck, scenario_data, start_position
from cardzones.table.creation import Creation, CreationError, creation_from_request
from cardzones.table.export import scenario_of
from cardzones.web.app import create_app

DECKS = Path(__file__).parent / "fixtures" / "decks"


def body_of_decks(seed: int = 3) -> dict[str, Any]:
    alice = start_position(read_deck(DECKS / "dorinthea.fabrary.txt"), "alice", seed)
    bob = start_position(read_deck(DECKS / "azalea.txt"), "bob", seed)
    doc = scenario_data([alice, bob])
    return {k: doc[k] for k in ("ruleset", "players", "seed", "card_data", "setup")}


def test_a_table_starts_from_two_deck_lists_with_real_cards() -> None:
    record = creation_from_request(body_of_decks())
    assert record.card_data == "fab"
    game = record.build().game
    (dawnblade,) = game.contents(game.zone("alice", "weapon", 1))
    assert game.obj(dawnblade).cdef.types >= {"weapon", "2h", "sword"}
    assert game.obj(dawnblade).equipped == tuple(game.zones_of("alice", "weapon"))  # 8.2.2
    deck = [game.obj(c).cdef for c in game.contents(game.zone("bob", "deck"))]
    assert len(deck) == 8 and {c.name for c in deck} >= {"Endless Arrow", "Snatch"}
    # The record keeps card_data, and is the same after a trip through JSON.
    again = Creation.from_json(record.to_json())
    assert again == record and again.scenario()["card_data"] == "fab"


def test_a_table_body_names_real_cards_or_is_refused_with_the_reason() -> None:
    body = {"ruleset": "fab", "card_data": "fab", "setup": {"alice.hand": ["Snatch"]}}
    with pytest.raises(CreationError, match="Snatch has 3 pitches"):
        creation_from_request(body)
    body["setup"] = {"alice.hand": [{"card": "Snatch", "pitch": 2}]}
    game = creation_from_request(body).build().game
    (snatch,) = game.contents(game.zone("alice", "hand"))
    assert game.obj(snatch).cdef.stat("power") == 3


def test_a_scenario_text_with_card_data_makes_a_table_and_exports_with_it() -> None:
    text = "ruleset: redemption\ncard_data: redemption\nsetup:\n  alice.territory: ['Hannah [K]']\n"
    record = creation_from_request({"scenario": text})
    assert record.card_data == "redemption"
    doc = scenario_of("T", record, [])
    assert doc["card_data"] == "redemption"


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://")) as client:
        yield client


def test_post_a_table_made_from_deck_lists(client: TestClient) -> None:
    answer = client.post("/api/tables", json=body_of_decks())
    assert answer.status_code == 201, answer.text
    created = answer.json()
    view = client.get(
        f"/api/tables/{created['table']}/view",
        headers={"Authorization": f"Bearer {created['seats']['bob']}"},
    ).json()["view"]
    weapons = next(z for z in view["zones"] if z["zone"] == "alice.weapon.1")
    assert [o["name"] for o in weapons["objects"]] == ["Dawnblade"]
