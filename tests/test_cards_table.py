"""The table's start positions use the same card lookup: ``card_data`` in a
table's creation, and deck lists read into start positions that a table is
made from. The creation record keeps the cards themselves, so a table is
rebuilt, replayed, restored and exported the same whatever the card index
holds later; and a seat names a card only to create a token, so that the
answer never tells it which cards the hidden zones hold."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from starlette.testclient import TestClient
from tablekit import migrated_store

from cardzones.cards.decks import read_deck, scenario_data, start_position
from cardzones.cards.importers import import_file
from cardzones.cards.index import HOME_VARIABLE
from cardzones.cards.lookup import CardLookup
from cardzones.scenario.runner import PASS, run_text
from cardzones.table.acts import apply_act, bind_act
from cardzones.table.creation import Creation, CreationError, creation_from_request
from cardzones.table.export import export_scenario, scenario_of
from cardzones.table.host import Host
from cardzones.table.refusals import Refusal
from cardzones.table.store import Store
from cardzones.table.table import Table, rebuild
from cardzones.web.app import create_app

DECKS = Path(__file__).parent / "fixtures" / "decks"
CARDS = Path(__file__).parent / "fixtures" / "cards"
FAB_JSON = CARDS / "fab-card.json"
REDEMPTION = CARDS / "redemption-carddata.txt"


def body_of_decks(seed: int = 3) -> dict[str, Any]:
    alice = start_position(read_deck(DECKS / "dorinthea.fabrary.txt"), "alice")
    bob = start_position(read_deck(DECKS / "azalea.txt"), "bob")
    doc = scenario_data([alice, bob])
    body = {k: doc[k] for k in ("ruleset", "players", "card_data", "setup")}
    return {**body, "seed": seed}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A card index of the test's own (the run's shared one stays as it is)."""
    folder = tmp_path / "cards"
    import_file(FAB_JSON, home=folder)
    import_file(REDEMPTION, home=folder)
    monkeypatch.setenv(HOME_VARIABLE, str(folder))
    return folder


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with migrated_store(str(tmp_path / "tables.sqlite3")) as store:
        yield store


def changed_fab_database(path: Path) -> Path:
    """The fab fixture with every card changed: other types, other stats, and
    no Snatch at all; the tokens are no tokens any more."""
    entries = json.loads(FAB_JSON.read_text(encoding="utf-8"))
    out = []
    for entry in entries:
        if entry["name"] == "Snatch":
            continue
        entry = dict(entry)
        entry["types"] = ["Generic", "Action"]
        entry["power"] = "9"
        entry["defense"] = "0"
        out.append(entry)
    path.write_text(json.dumps(out), encoding="utf-8")
    return path


def test_a_table_starts_from_two_deck_lists_with_real_cards(home: Path) -> None:
    record = creation_from_request(body_of_decks())
    assert record.card_data == "fab"
    game = record.build().game
    (dawnblade,) = game.contents(game.zone("alice", "weapon", 1))
    assert game.obj(dawnblade).cdef.types >= {"weapon", "2h", "sword"}
    assert game.obj(dawnblade).equipped == tuple(game.zones_of("alice", "weapon"))  # 8.2.2
    deck = [game.obj(c).cdef for c in game.contents(game.zone("bob", "deck"))]
    assert len(deck) == 8 and {c.name for c in deck} >= {"Endless Arrow", "Snatch"}
    # The record keeps card_data, and is the same after a trip through JSON.
    again = Creation.from_json(json.loads(json.dumps(record.to_json())))
    assert again == record and again.card_data == "fab"


def test_the_record_writes_down_every_card_it_took_from_the_index(home: Path) -> None:
    record = creation_from_request(body_of_decks())
    names = {e["card"] for entries in record.setup.values() for e in entries if isinstance(e, dict)}
    assert names <= set(record.cards)
    assert record.cards["Dawnblade"]["types"] == ["2h", "sword", "warrior", "weapon"]
    # Used in two colours: one definition per pitch.
    valor = record.cards["Warrior's Valor"]
    assert [d["pitch"] for d in valor] == [1, 3]
    sink = record.cards["Sink Below"]  # red in bob's deck, blue in alice's
    assert [d["pitch"] for d in sink] == [1, 3]
    # fab names cards in create_token: every token card of the index is kept.
    assert {"Runechant", "Copper", "Aether Ashwing"} <= set(record.cards)
    # The scenario document of the record needs no index.
    assert "card_data" not in record.scenario()


def test_the_record_builds_the_same_game_without_any_index(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = body_of_decks()
    record = creation_from_request(body)
    first = record.build().game
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "no-index"))
    with pytest.raises(CreationError, match="has no fab cards"):
        creation_from_request(body)  # the index is gone indeed
    again = Creation.from_json(json.loads(json.dumps(record.to_json()))).build().game
    assert again.same_state(first)


def test_a_closed_record_without_a_cards_definition_is_refused(home: Path) -> None:
    record = creation_from_request(body_of_decks())
    cards = {k: v for k, v in record.cards.items() if k != "Dawnblade"}
    broken = Creation.from_json({**record.to_json(), "cards": cards})
    with pytest.raises(CreationError, match="'Dawnblade' is not one of this table's cards"):
        broken.build()


def test_a_table_body_names_real_cards_or_is_refused_with_the_reason(home: Path) -> None:
    body = {"ruleset": "fab", "card_data": "fab", "setup": {"alice.hand": ["Snatch"]}}
    with pytest.raises(CreationError, match="Snatch has 3 pitches"):
        creation_from_request(body)
    body["setup"] = {"alice.hand": [{"card": "Snatch", "pitch": 2}]}
    game = creation_from_request(body).build().game
    (snatch,) = game.contents(game.zone("alice", "hand"))
    assert game.obj(snatch).cdef.stat("power") == 3


def test_cards_the_body_defines_win_over_the_index(home: Path) -> None:
    body = {
        "ruleset": "fab",
        "card_data": "fab",
        "cards": {"Snatch": {"types": ["action", "attack"], "power": 9}},
        "setup": {"alice.hand": ["Snatch", "Pummel"]},
    }
    body["setup"]["alice.hand"][1] = {"card": "Pummel", "pitch": 1}
    record = creation_from_request(body)
    assert record.cards["Snatch"] == {"types": ["action", "attack"], "power": 9}
    game = record.build().game
    powers = [game.obj(c).cdef.stat("power") for c in game.contents(game.zone("alice", "hand"))]
    assert powers[0] == 9


def test_a_scenario_text_with_card_data_makes_a_table_that_exports_without_it(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "ruleset: redemption\ncard_data: redemption\nsetup:\n  alice.territory: ['Hannah [K]']\n"
    record = creation_from_request({"scenario": text})
    assert record.card_data == "redemption"
    assert record.cards["Hannah [K]"]["type"] == "hero"
    doc = scenario_of("T", record, [])
    assert "card_data" not in doc and set(doc["cards"]) == {"Hannah [K]"}
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "no-index"))
    outcome = run_text(yaml.safe_dump(doc, sort_keys=False), "export.scenario.yaml")
    assert outcome.status == PASS, outcome.describe()


def test_setup_contract_a_printed_deck_list_starts_from_an_order_nobody_wrote(
    home: Path,
) -> None:
    """Class 9: the start position ``cardzones cards deck`` prints lists
    each deck in list order, which its reader knows, and says ``shuffle:``:
    a scenario run and a table made from the text shuffle every deck first,
    the table with its secret seed; the rest of the setup keeps its order."""
    alice = start_position(read_deck(DECKS / "dorinthea.fabrary.txt"), "alice")
    bob = start_position(read_deck(DECKS / "azalea.txt"), "bob")
    doc = scenario_data([alice, bob])
    assert doc["shuffle"] == ["alice.deck", "bob.deck"]
    text = yaml.safe_dump(doc, sort_keys=False)
    assert run_text(text).status == PASS
    listed = {z: [e["card"] for e in doc["setup"][z]] for z in ("alice.deck", "bob.deck")}
    orders = set()
    for _ in range(2):
        record = creation_from_request({"scenario": text})
        assert record.shuffle == ("alice.deck", "bob.deck")
        game = record.build().game
        for zone, names in listed.items():
            owner, ztype = zone.split(".")
            dealt = [game.obj(c).cdef.name for c in game.contents(game.zone(owner, ztype))]
            assert sorted(dealt) == sorted(names) and dealt != names
            orders.add(tuple(dealt))
        hero = game.contents(game.zone("alice", "hero"))
        assert [game.obj(c).cdef.name for c in hero] == [doc["setup"]["alice.hero"][0]["card"]]
    assert len(orders) == 4  # a secret seed each time


# ----------------------------------------------------------------------
# Replay, restart and export after the index changed
# ----------------------------------------------------------------------


def play(host: Host, table: Table) -> None:
    """Acts that use real cards: a draw, a token, a move of a weapon."""
    host.act(table, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
    host.act(table, "alice", {"create_token": {"card": "Runechant", "to": "arena", "as": "r"}})
    host.act(table, "alice", {"move": {"card": "alice.hand[0]", "to": "alice.graveyard"}})
    host.act(table, "alice", {"end_turn": {}})
    host.act(table, "bob", {"move": {"card": "bob.deck[0]", "to": "bob.hand"}})
    host.act(table, "bob", {"create_token": {"card": "Copper", "to": "arena"}})


def test_a_table_replays_the_same_after_the_index_changed(
    home: Path, store: Store, tmp_path: Path
) -> None:
    host = Host(store, snapshot_every=4)
    created = host.create(creation_from_request(body_of_decks()))
    live = host.load(created.table_id)
    assert live is not None
    play(host, live)
    state = live.game.to_json()
    views = {v: live.view(v) for v in ("alice", "bob", None)}
    (rune,) = [c for c in live.game.cards() if live.game.obj(c).cdef.name == "Runechant"]
    assert "token" in live.game.obj(rune).cdef.types

    import_file(changed_fab_database(tmp_path / "changed.json"), home=home)
    with CardLookup("fab", home) as cards:
        assert cards.card_def("Dawnblade").types == {"generic", "action"}
        assert not cards.exists("Snatch")

    record = store.creation(created.table_id)
    assert record is not None
    acts = [a.act for a in store.actions(created.table_id)]
    from_scratch = rebuild(created.table_id, record, acts)
    restarted = Host(store).load(created.table_id)  # from its newest snapshot
    assert store.snapshot(created.table_id) is not None and restarted is not None
    for table in (from_scratch, restarted):
        assert table.game.to_json() == state
        assert table.game.same_state(live.game)
        assert {v: table.view(v) for v in ("alice", "bob", None)} == views
    # A token made after the change is the token the table was made with.
    host.act(restarted, "bob", {"create_token": {"card": "Runechant", "to": "arena"}})
    made = [c for c in restarted.game.cards() if restarted.game.obj(c).cdef.name == "Runechant"]
    assert len(made) == 2 and all("token" in restarted.game.obj(c).cdef.types for c in made)


def test_the_export_of_a_card_data_table_checks_without_any_index(
    home: Path, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = Host(store)
    created = host.create(creation_from_request(body_of_decks()))
    live = host.load(created.table_id)
    assert live is not None
    play(host, live)
    text = export_scenario(store, created.table_id)
    doc = yaml.safe_load(text)
    assert "card_data" not in doc
    # The tokens the game made are written; the index's other tokens are not.
    assert {"Runechant", "Copper"} <= set(doc["cards"]) and "Aether Ashwing" not in doc["cards"]
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "no-index"))
    outcome = run_text(text, "export.scenario.yaml")
    assert outcome.status == PASS, outcome.describe()
    # ... and the same with an index whose cards are all different.
    other = tmp_path / "other"
    import_file(changed_fab_database(tmp_path / "changed.json"), home=other)
    monkeypatch.setenv(HOME_VARIABLE, str(other))
    outcome = run_text(text, "export.scenario.yaml")
    assert outcome.status == PASS, outcome.describe()


# ----------------------------------------------------------------------
# What a seat may learn by naming a card
# ----------------------------------------------------------------------


def refusal(ctx: Any, seat: str, name: str) -> str:
    with pytest.raises(Refusal) as caught:
        bind_act(ctx, seat, {"create_token": {"card": name, "to": "arena"}})
    return caught.value.message


def test_a_seat_names_only_token_cards_whatever_the_hidden_zones_hold(home: Path) -> None:
    record = creation_from_request(body_of_decks())
    ctx = record.build()
    game = ctx.game
    bob_deck = {game.obj(c).cdef.name for c in game.contents(game.zone("bob", "deck"))}
    assert "Snatch" in bob_deck and "Snatch" in record.cards  # hidden from alice
    assert not game.may_look("alice", game.contents(game.zone("bob", "deck"))[0])
    # Snatch (in bob's hidden deck and in the record), Pummel (in the index, in
    # no zone) and a name of nothing: the same answer, the name aside.
    answers = {name: refusal(ctx, "alice", name) for name in ("Snatch", "Pummel", "Qwzx")}
    assert {a.replace(repr(n), "NAME") for n, a in answers.items()} == {
        "card: NAME is not a token card of this table (a seat names a card only to create a token)"
    }
    # A token card of the game is made as the index had it.
    applied = apply_act(ctx, "alice", {"create_token": {"card": "Runechant", "to": "arena"}})
    assert applied.stored["create_token"]["card"] == "Runechant"
    (rune,) = [c for c in game.cards() if game.obj(c).cdef.name == "Runechant"]
    assert game.obj(rune).cdef.types == {"runeblade", "token", "aura"}


def test_a_near_miss_suggests_token_cards_only(home: Path) -> None:
    ctx = creation_from_request(body_of_decks()).build()
    assert refusal(ctx, "alice", "runechant").endswith("; closest: 'Runechant'")
    # Sink Below is in both decks, and no token is called anything like it.
    assert "closest" not in refusal(ctx, "alice", "Sink Belo")


def test_a_table_without_card_data_names_only_its_token_cards_too() -> None:
    """A start position that defines its cards under cards: has its hidden
    cards there too: a seat names only the token cards among them."""
    body = {
        "ruleset": "fab",
        "cards": {
            "Ward": {"types": ["token", "aura"]},
            "Secret Blade": {"types": ["action", "attack"], "power": 7},
        },
        "setup": {"alice.hand": ["A"], "bob.deck": ["Secret Blade"]},
        "seed": 1,
    }
    ctx = creation_from_request(body).build()
    assert ctx.tokens == {"Ward"}
    apply_act(ctx, "alice", {"create_token": {"card": "Ward", "to": "arena"}})
    names = sorted(ctx.game.obj(c).cdef.name for c in ctx.game.cards())
    assert names == ["A", "Secret Blade", "Ward"]
    answers = {name: refusal(ctx, "alice", name) for name in ("Secret Blade", "Nothing")}
    assert {a.replace(repr(n), "NAME") for n, a in answers.items()} == {
        "card: NAME is not a token card of this table (a seat names a card only to create a token)"
    }


def test_a_token_of_several_colours_asks_for_the_colour_in_plain_words() -> None:
    body = {
        "ruleset": "fab",
        "cards": {
            "Spark": [
                {"types": ["token", "aura"], "pitch": 1},
                {"types": ["token", "aura"], "pitch": 3},
            ]
        },
        "setup": {"alice.hand": ["A"]},
    }
    ctx = creation_from_request(body).build()
    assert ctx.tokens == {"Spark"}
    assert refusal(ctx, "alice", "Spark") == (
        "card: Spark has 2 definitions under cards:: give pitch: 1 (red) or 3 (blue)"
    )


# ----------------------------------------------------------------------
# Over HTTP
# ----------------------------------------------------------------------


@pytest.fixture
def client(home: Path) -> Iterator[TestClient]:
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
