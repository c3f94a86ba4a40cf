"""Tables started from deck lists over the table protocol: ``"decks": {PLAYER:
TEXT}`` in ``POST /api/tables``, read with the repository's card fixtures (the
run's card index, see pyproject.toml) for both rule sets. The hero and
equipment start in their zones and the rest as the deck, shuffled by the seed;
the record keeps its cards, so the table needs no card index afterwards; a
bad list gets 400 naming the problem and its line and creates nothing; and a
server without the cards says deck lists are unavailable and how to import
them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tablekit import act, create, seated

from cardzones.cards.importers import import_file
from cardzones.cards.index import HOME_VARIABLE
from cardzones.table.creation import build
from cardzones.table.deck_lists import MAX_CARDS
from cardzones.table.store import Store
from cardzones.web.app import create_app

FIXTURES = Path(__file__).parent / "fixtures"
DECKS = FIXTURES / "decks"
FAB_CARDS = FIXTURES / "cards" / "fab-card.json"

DORINTHEA = (DECKS / "dorinthea.fabrary.txt").read_text(encoding="utf-8")
DORINTHEA_FABDB = (DECKS / "dorinthea.fabdb.txt").read_text(encoding="utf-8")
AZALEA = (DECKS / "azalea.txt").read_text(encoding="utf-8")
K_STARTER = (DECKS / "k-starter-part.dek").read_text(encoding="utf-8")


def fab_decks(seed: int | None = 7, **more: Any) -> dict[str, Any]:
    """Two fab lists, played by hand (``procedure: false``): these tests are
    of the start position the lists give, which the procedure then plays on."""
    body: dict[str, Any] = {
        "ruleset": "fab",
        "decks": {"alice": DORINTHEA, "bob": AZALEA},
        "procedure": False,
    }
    if seed is not None:
        body["seed"] = seed
    return {**body, **more}


def redemption_decks(seed: int | None = 7, **more: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "ruleset": "redemption",
        "card_data": "redemption",
        "decks": {"alice": K_STARTER, "bob": K_STARTER},
        "procedure": False,
    }
    if seed is not None:
        body["seed"] = seed
    return {**body, **more}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "tables.sqlite3"))) as client:
        yield client


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.server.store  # type: ignore[attr-defined]
    return store


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def view_of(client: TestClient, created: dict[str, Any], seat: str | None) -> dict[str, Any]:
    token = created["spectator"] if seat is None else created["seats"][seat]
    answer = client.get(f"/api/tables/{created['table']}/view", headers=bearer(token))
    assert answer.status_code == 200
    view: dict[str, Any] = answer.json()["view"]
    return view


def zone(view: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(z for z in view["zones"] if z["zone"] == name)
    return found


def names(view: dict[str, Any], name: str) -> list[str]:
    return [o.get("name", "?") for o in zone(view, name)["objects"]]


def deck_order(client: TestClient, table: str, player: str) -> list[str]:
    """The deck of the game the stored record builds, top first: the record
    lists it as the deck list does, and the table shuffles it with the seed
    (secret-bearing, for the checks)."""
    record = store_of(client).creation(table)
    assert record is not None
    game = build(record).game
    return [game.obj(c).cdef.name for c in game.contents(game.zone(player, "deck"))]


def post(client: TestClient, body: dict[str, Any]) -> tuple[int, str]:
    answer = client.post("/api/tables", json=body)
    return answer.status_code, answer.json().get("error", "")


# ----------------------------------------------------------------------
# Tables from deck lists
# ----------------------------------------------------------------------


def test_rulesets_say_deck_lists_are_read_for_each_game_of_the_card_index(
    client: TestClient,
) -> None:
    answer = client.get("/api/rulesets").json()
    assert answer["deck_lists"] is True
    assert {r["name"]: r["deck_lists"] for r in answer["rulesets"]} == {
        "fab": True,
        "redemption": True,
    }


def test_fab_deck_lists_start_heroes_and_equipment_in_their_zones(client: TestClient) -> None:
    created = create(client, fab_decks())
    assert set(created["seats"]) == {"alice", "bob"}
    assert set(created["links"]) == {"alice", "bob", "spectator"}
    view = view_of(client, created, "bob")
    # Both players' arenas are public: hero, weapons and equipment (3.11.4, 8.2.2, 8.2.15a).
    assert names(view, "alice.hero") == ["Dorinthea Ironsong"]
    assert names(view, "alice.weapon.1") == ["Dawnblade"]
    assert names(view, "alice.head") == ["Ironrot Helm"]
    assert names(view, "alice.legs") == ["Ironrot Legs"]
    assert names(view, "alice.arms") == ["Braveforge Bracers"]
    assert names(view, "bob.hero") == ["Azalea, Ace in the Hole"]
    assert names(view, "bob.weapon.1") == ["Death Dealer"]
    assert names(view, "bob.weapon.2") == ["Crow's Nest"]
    assert names(view, "bob.legs") == ["Nullrune Boots"]
    # The rest is the deck: a count, no card anyone may look at.
    assert zone(view, "alice.deck")["count"] == 15
    assert zone(view, "bob.deck")["count"] == 8  # the sideboard stays out
    for seat in ("alice", "bob", None):
        seen = view_of(client, created, seat)
        for player in ("alice", "bob"):
            assert all(o == {"hidden": True} for o in zone(seen, f"{player}.deck")["objects"])
    # A card a view shows has the card data's stats (Dawnblade is a 2H sword, power 3).
    (dawnblade,) = zone(view, "alice.weapon.1")["objects"]
    assert set(dawnblade["types"]) >= {"weapon", "2h", "sword"} and dawnblade["power"] == 3


def test_fabdb_and_fabrary_exports_give_the_same_table(client: TestClient) -> None:
    fabrary = create(client, fab_decks())
    fabdb = create(client, fab_decks(decks={"alice": DORINTHEA_FABDB, "bob": AZALEA}))
    a, b = view_of(client, fabrary, "alice"), view_of(client, fabdb, "alice")
    for name in ("alice.hero", "alice.weapon.1", "alice.head", "alice.legs", "alice.arms"):
        assert names(a, name) == names(b, name)


def test_redemption_deck_lists_make_the_deck_and_the_reserve(client: TestClient) -> None:
    created = create(client, redemption_decks())
    alice = view_of(client, created, "alice")
    assert zone(alice, "alice.deck")["count"] == 14
    assert sorted(names(alice, "alice.reserve")) == ["Covenant with David [K]", "Pharaoh's Curse"]
    # The reserve is face down (a player's own, not the opponent's).
    bob = view_of(client, created, "bob")
    assert zone(bob, "alice.reserve")["count"] == 2
    assert all(o == {"hidden": True} for o in zone(bob, "alice.reserve")["objects"])
    # The Tokens superzone is in no zone.
    record = store_of(client).creation(created["table"])
    assert record is not None and record.card_data == "redemption"
    assert not any(
        e["card"] == "Proselyte Token" for entries in record.setup.values() for e in entries
    )


@pytest.mark.parametrize("body", [fab_decks, redemption_decks])
def test_the_seed_shuffles_the_deck_and_is_never_sent(client: TestClient, body: Any) -> None:
    first = create(client, body(seed=11))
    again = create(client, body(seed=11))
    order = deck_order(client, first["table"], "alice")
    assert deck_order(client, again["table"], "alice") == order
    others = {tuple(deck_order(client, create(client, body(seed=s))["table"], "alice"))
              for s in (12, 13, 14)}  # fmt: skip
    assert others - {tuple(order)}, "another seed gives another order"
    # No seed: the server draws a secret one, and no answer holds it.
    created = create(client, body(seed=None))
    record = store_of(client).creation(created["table"])
    assert record is not None
    for seat in ("alice", "bob", None):
        assert str(record.seed) not in json.dumps(view_of(client, created, seat))
    assert str(record.seed) not in json.dumps(created)


@pytest.mark.parametrize("body", [fab_decks, redemption_decks])
def test_setup_contract_a_table_from_deck_lists_shuffles_every_deck(
    client: TestClient, body: Any
) -> None:
    """Class 9: a written setup keeps its order, but a deck list's order is
    known to whoever wrote it, so a table made from ``decks`` shuffles every
    deck (its record names no ``shuffle``: every deck) and nothing else."""
    created = create(client, body(seed=11))
    record = store_of(client).creation(created["table"])
    assert record is not None and record.shuffle is None and "shuffle" not in record.to_json()
    for player in ("alice", "bob"):
        listed = [e["card"] if isinstance(e, dict) else e for e in record.setup[f"{player}.deck"]]
        dealt = deck_order(client, created["table"], player)
        assert sorted(dealt) == sorted(listed) and dealt != listed


@pytest.mark.parametrize("body", [fab_decks, redemption_decks])
def test_the_record_keeps_its_cards_and_plays_without_the_card_index(
    client: TestClient, body: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = create(client, body())
    record = store_of(client).creation(created["table"])
    assert record is not None
    entries = [e["card"] for es in record.setup.values() for e in es]
    assert set(entries) <= set(record.cards)
    before = view_of(client, created, "alice")
    # The index goes away: a server on the same store still opens and plays it.
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "no-index"))
    db = str(tmp_path / "tables.sqlite3")
    with TestClient(create_app(db)) as later:
        assert view_of(later, created, "alice") == before
        with seated(later, created) as seats:
            answer = act(seats, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
            assert "ack" in answer, answer
            drawn = names(seats["alice"].view, "alice.hand")
            assert drawn and drawn[0] in record.cards
            # bob and the spectator see a card go to alice's hand, not which.
            for other in ("bob", None):
                frame = json.dumps(seats[other].frames[-1])
                assert zone(seats[other].view, "alice.hand")["objects"] == [{"hidden": True}]
                assert all(f'"{n}"' not in frame for n in drawn)


def test_players_come_from_the_lists_in_their_order_unless_given(client: TestClient) -> None:
    body = {"ruleset": "fab", "decks": {"bob": AZALEA, "alice": DORINTHEA}, "procedure": False}
    created = create(client, body)
    assert list(created["seats"]) == ["bob", "alice"]
    view = view_of(client, created, "alice")
    assert view["players"] == ["bob", "alice"] and view["turn_player"] == "bob"
    created = create(client, fab_decks(players=["alice", "bob"]))
    assert view_of(client, created, "alice")["turn_player"] == "alice"


# ----------------------------------------------------------------------
# Bad deck lists
# ----------------------------------------------------------------------

HERO = "Hero: Dorinthea Ironsong\n"
DEK = '<deck version="2.0">\n<superzone name="Deck">\n{}\n</superzone>\n</deck>\n'


def dek(*cards: str) -> str:
    return DEK.format("\n".join(f"<card><name>{c}</name></card>" for c in cards))


BAD = [
    pytest.param(
        fab_decks(decks={"alice": HERO + "3 Snach (red)\n", "bob": AZALEA}),
        ["decks.alice:2: no fab card called 'Snach' in the card index; closest: 'Snatch'"],
        id="fab-unknown-card",
    ),
    pytest.param(
        fab_decks(decks={"alice": HERO + "2 Driving Blade (red)\n3 Snatch\n", "bob": AZALEA}),
        [
            "decks.alice:3: Snatch comes in red, yellow and blue: write the colour, "
            "as in 3 Snatch (red)"
        ],
        id="fab-ambiguous-pitch",
    ),
    pytest.param(
        fab_decks(decks={"alice": HERO + "Dawnblade\n\n0 Snatch (red)\n", "bob": AZALEA}),
        ["decks.alice:4: 0 copies of Snatch is not a count"],
        id="fab-malformed-line",
    ),
    pytest.param(
        fab_decks(decks={"alice": "Dawnblade\n3 Snatch (red)\n", "bob": AZALEA}),
        ["decks.alice: a fab deck list names exactly one hero (3.11.4); found none"],
        id="fab-no-hero",
    ),
    pytest.param(
        fab_decks(decks={"alice": HERO + "3 Snatch\n", "bob": "2 Snach (blue)\n"}),
        [
            "decks.alice:2: Snatch comes in red, yellow and blue: write the colour, "
            "as in 3 Snatch (red)",
            "decks.bob:1: no fab card called 'Snach' in the card index; closest: 'Snatch'",
        ],
        id="fab-every-problem-of-every-list",
    ),
    pytest.param(
        redemption_decks(decks={"alice": dek("Mosess"), "bob": K_STARTER}),
        ["decks.alice:3: no redemption card called 'Mosess' in the card index; closest: "],
        id="redemption-unknown-card",
    ),
    pytest.param(
        redemption_decks(decks={"alice": dek("Son of God [K]", "Moses"), "bob": K_STARTER}),
        [
            "decks.alice:4: 'Moses' names 2 different cards: Moses (Pr) (set Prp), "
            "Moses (Wa) (set War); write one of them as it is written here"
        ],
        id="redemption-ambiguous-name",
    ),
    pytest.param(
        redemption_decks(decks={"alice": DEK.format("<card><name>Moses</card>"), "bob": K_STARTER}),
        ["decks.alice:3: not a LackeyCCG .dek file: mismatched tag: line 3"],
        id="redemption-malformed-line",
    ),
    pytest.param(
        redemption_decks(decks={"alice": "1 Son of God\n", "bob": K_STARTER}),
        ["decks.alice: a Redemption deck list is a LackeyCCG .dek file"],
        id="redemption-plain-text",
    ),
    pytest.param(
        fab_decks(decks={"alice": HERO + f"{99} Snatch (red)\n" * 11, "bob": AZALEA}),
        [f"decks.alice: 1090 cards; a deck list at a table holds {MAX_CARDS} at most"],
        id="too-many-cards",
    ),
    pytest.param(
        fab_decks(decks={"alice": DORINTHEA}, players=["alice", "bob"]),
        ["decks: no deck list for bob"],
        id="a-player-without-a-list",
    ),
    pytest.param(
        fab_decks(decks={"alice": DORINTHEA, "carol": AZALEA}, players=["alice", "bob"]),
        ["decks: no deck list for bob"],
        id="a-list-for-no-player",
    ),
    pytest.param(
        fab_decks(
            decks={"alice": DORINTHEA, "bob": AZALEA, "carol": AZALEA}, players=["alice", "bob"]
        ),
        ["decks: 'carol' is not a player; the players are alice, bob"],
        id="a-list-too-many",
    ),
    pytest.param(
        fab_decks(decks={"alice": DORINTHEA, "bob": ["3 Snatch (red)"]}),
        ["decks.bob: is the text of a deck list, not ['3 Snatch (red)']"],
        id="not-a-text",
    ),
    pytest.param(
        fab_decks(decks=[DORINTHEA, AZALEA]),
        ["decks: is an object, one deck list per player: {PLAYER: TEXT}"],
        id="not-an-object",
    ),
    pytest.param(
        fab_decks(setup={"alice.hand": ["Snatch"]}),
        ["decks give the whole start position; leave out setup"],
        id="decks-and-setup",
    ),
    pytest.param(
        fab_decks(card_data="redemption"),
        ["card_data: 'redemption' does not match ruleset: fab"],
        id="card-data-of-another-game",
    ),
    pytest.param(
        fab_decks(ruleset="chess"),
        ["ruleset must be one of"],
        id="unknown-ruleset",
    ),
    pytest.param(
        fab_decks(players="alice"),
        ["players: must be a list of distinct single-word names"],
        id="bad-players",
    ),
    pytest.param(
        fab_decks(scenario="ruleset: fab\n"),
        ["give either scenario or ruleset, players, seed, cards, card_data, setup, decks"],
        id="decks-and-a-scenario",
    ),
]


@pytest.mark.parametrize(("body", "expected"), BAD)
def test_a_bad_deck_list_gets_400_naming_the_problem_and_creates_nothing(
    client: TestClient, body: dict[str, Any], expected: list[str]
) -> None:
    status, error = post(client, body)
    assert status == 400, error
    lines = error.split("\n")
    assert len(lines) == len(expected), error
    for line, wanted in zip(lines, expected, strict=True):
        assert line.startswith(wanted), (line, wanted)
    assert store_of(client).table_ids() == []


def test_an_unknown_key_beside_decks_names_the_keys(client: TestClient) -> None:
    status, error = post(client, fab_decks(deck={"alice": DORINTHEA}))
    assert status == 400
    assert error == (
        "unknown key(s) 'deck'; the keys are ruleset, players, seed, cards, card_data, "
        "setup, decks, shuffle, procedure, handle_key, finish_after, scenario"
    )


# ----------------------------------------------------------------------
# A server without the cards
# ----------------------------------------------------------------------


def test_without_a_card_index_deck_lists_are_unavailable_and_say_how_to_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "empty"))
    with TestClient(create_app("sqlite://")) as client:
        answer = client.get("/api/rulesets").json()
        assert answer["deck_lists"] is False
        assert all(r["deck_lists"] is False for r in answer["rulesets"])
        for body, game in ((fab_decks(), "fab"), (redemption_decks(), "redemption")):
            status, error = post(client, body)
            assert status == 400
            assert error.startswith(
                f"deck lists are not available: the server's card index has no {game} cards"
            )
            assert f"`cardzones cards update {game}`" in error
            assert "`cardzones cards import FILE`" in error
            assert str(tmp_path) not in error  # no path of the server's
        assert store_of(client).table_ids() == []
        # An import while the server runs counts at once.
        import_file(FAB_CARDS, home=tmp_path / "empty")
        answer = client.get("/api/rulesets").json()
        assert answer["deck_lists"] is True
        assert {r["name"]: r["deck_lists"] for r in answer["rulesets"]} == {
            "fab": True,
            "redemption": False,
        }
        create(client, fab_decks())
        status, error = post(client, redemption_decks())
        assert status == 400 and "has no redemption cards" in error


def test_a_deck_list_table_reads_its_start_position_once_and_each_card_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The lists look each card up in the index once; the record writes the
    cards down, and the table's game is built from it once: one start
    position read, each card made from its entry once."""
    from cardzones.cards.lookup import CardLookup
    from cardzones.position import start
    from cardzones.position.start import StartPosition
    from cardzones.table.creation import creation_from_request
    from cardzones.table.table import Table

    read: list[str] = []
    found: list[tuple[str, int | None]] = []
    made: list[str] = []
    from_doc = StartPosition.from_doc.__func__  # type: ignore[attr-defined]
    find = CardLookup._find  # noqa: SLF001 - counts the index's look-ups
    parse = start.parse_card

    def reading(cls: Any, doc: Any, file: str) -> Any:
        read.append(file)
        return from_doc(cls, doc, file)

    def finding(self: CardLookup, name: str, pitch: int | None) -> Any:
        found.append((name, pitch))
        return find(self, name, pitch)

    def making(name: str, node: Any, ruleset: Any) -> Any:
        made.append(name)
        return parse(name, node, ruleset)

    monkeypatch.setattr(StartPosition, "from_doc", classmethod(reading))
    monkeypatch.setattr(CardLookup, "_find", finding)
    monkeypatch.setattr(start, "parse_card", making)
    record = creation_from_request(fab_decks())
    table = Table.start("t1", record)
    assert len(read) == 1
    assert found and len(found) == len(set(found))
    assert len(made) == sum(len(v) if isinstance(v, list) else 1 for v in record.cards.values())
    assert table.ctx.game.same_state(record.build().game)


def test_a_table_from_deck_lists_may_run_the_game_procedure(client: TestClient) -> None:
    """``"procedure": true`` beside ``decks`` runs the rule set's game
    procedure once every deck is shuffled, kept in the table's record, in
    either game; a value that is not true, false or a first player is
    refused."""
    created = create(client, redemption_decks(procedure=True))
    alice = view_of(client, created, "alice")
    assert alice["procedure"]["opened"] is False and zone(alice, "alice.deck")["count"] == 14
    record = store_of(client).creation(created["table"])
    assert record is not None and record.procedure == "" and record.scenario()["procedure"] is True
    with seated(client, created) as seats:
        assert "ack" in act(seats, "alice", {"open_game": {}})
        opened = seats["alice"].view
        assert opened["procedure"]["opened"] is True
        # the opening hands hold no Lost Soul: drawn ones went to the Land of Bondage
        hand = zone(opened, "alice.hand")["objects"]
        assert len(hand) == 8 + 3 and all("lost_soul" not in o["types"] for o in hand)
        bondage = zone(opened, "alice.land_of_bondage")["objects"]
        assert all("lost_soul" in o["types"] for o in bondage)
    plain = create(client, redemption_decks(procedure=False))
    assert "procedure" not in view_of(client, plain, "alice")
    status, error = post(client, redemption_decks(procedure="yes"))
    assert status == 400 and error == "procedure: is true, false or {first: PLAYER}"
    fab = create(client, fab_decks(procedure=True))
    assert view_of(client, fab, "alice")["procedure"]["priority"] in ("alice", "bob")
