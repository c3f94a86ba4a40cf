"""The table protocol's contract on set-up: a creation body's ``cards`` and
``setup`` mean what they mean in a scenario file, so a written setup keeps its
order (a judge stacks a deck; a client relies on the order it wrote), and a
table shuffles only what it is asked to (``shuffle``) and the decks of deck
lists. On SQLite and on Postgres, since the order must survive the store: a
table rebuilt from its record deals the same cards.

The weak spot the shuffle at creation once closed stays closed: an order
that someone wrote is no secret, so a table made from a printed start
position (``cardzones cards deck`` writes ``shuffle:`` into it) starts from
an order nobody wrote, drawn with the table's secret seed; and an order a
judge wrote and keeps is never told to a seat that may not look at it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tablekit import act, create, fab_body, redemption_body, seated, store_url

from cardzones.kernel.game import Game
from cardzones.scenario.runner import PASS, run_text
from cardzones.table.creation import CreationError, build, creation_from_request, shuffle_decks
from cardzones.table.export import export_scenario
from cardzones.table.limits import Limits
from cardzones.table.record import Record
from cardzones.table.store import Store
from cardzones.web.app import create_app

#: Two tables a test, many with the same seed: over a stranger's rate.
LIFTED = Limits(creates_per_minute=10**9, sockets_per_minute=10**9)


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(request, tmp_path)


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with TestClient(create_app(url, limits=LIFTED)) as client:
        yield client


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.server.store  # type: ignore[attr-defined]
    return store


def names_in(game: Game, zone: str) -> list[str]:
    """The names in a zone, top first (secret-bearing, for the checks)."""
    owner, ztype = zone.split(".")
    return [game.obj(c).cdef.name for c in game.contents(game.zone(owner, ztype))]


def live_deck(client: TestClient, table: str, zone: str) -> list[str]:
    """A zone of the table as the server loads it from the store."""
    loaded = client.app.state.server.host.load(table)  # type: ignore[attr-defined]
    return names_in(loaded.game, zone)


def record_deck(record: Record, zone: str) -> list[str]:
    """A zone of the game a record builds."""
    return names_in(build(record).game, zone)


def written(body: dict[str, Any], zone: str) -> list[str]:
    return [e if isinstance(e, str) else e["card"] for e in body["setup"][zone]]


def hand_names(view: dict[str, Any], zone: str) -> list[str]:
    found = next(z for z in view["zones"] if z["zone"] == zone)
    return sorted(o["name"] for o in found["objects"] if "name" in o)


@pytest.mark.parametrize("make", [fab_body, redemption_body])
def test_setup_contract_a_written_setup_keeps_its_order(client: TestClient, make: Any) -> None:
    """Class 9: the order a body writes is the order of the game, with a seed
    given or not, from JSON and from a scenario text, before and after the
    store rebuilds the table; so a judge can stack a deck, and the first
    card drawn is the first card written."""
    body = make(seed=7)
    for given in (body, {k: v for k, v in body.items() if k != "seed"}):
        created = create(client, given)
        table = created["table"]
        with seated(client, created) as seats:
            for zone in ("alice.deck", "bob.deck"):
                assert live_deck(client, table, zone) == written(body, zone)
            before = hand_names(seats["alice"].view, "alice.hand")
            step = {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}
            assert "ack" in act(seats, "alice", step)
            after = hand_names(seats["alice"].view, "alice.hand")
            assert sorted(set(after) - set(before)) == [written(body, "alice.deck")[0]]
        record = store_of(client).creation(table)
        assert record is not None and record.shuffle == ()
        assert record_deck(record, "bob.deck") == written(body, "bob.deck")
        assert "shuffle" not in record.scenario()
    text = (
        "ruleset: fab\nseed: 7\nsetup:\n  alice.deck: [C, A, B]\n  bob.deck: [Z, Y]\n"
        "  alice.hero: [{card: H}]\ncards:\n  H: {types: [hero]}\n"
    )
    created = create(client, {"scenario": text})
    assert live_deck(client, created["table"], "alice.deck") == ["C", "A", "B"]
    assert live_deck(client, created["table"], "bob.deck") == ["Z", "Y"]


def test_setup_contract_a_body_shuffles_the_zones_it_names(client: TestClient) -> None:
    """Class 9: ``shuffle`` shuffles the zones it names with the table's
    seed, after the setup, and no other; the record keeps the list, so the
    store rebuilds the same order, and an export runs it the same way."""
    body = {**fab_body(seed=11), "shuffle": ["bob.deck"]}
    created = create(client, body)
    table = created["table"]
    order = live_deck(client, table, "bob.deck")
    assert sorted(order) == sorted(written(body, "bob.deck"))
    assert order != written(body, "bob.deck")
    assert live_deck(client, table, "alice.deck") == written(body, "alice.deck")
    record = store_of(client).creation(table)
    assert record is not None and record.shuffle == ("bob.deck",)
    assert record_deck(record, "bob.deck") == order
    # The same body and seed: the same order; another seed: another.
    again = create(client, body)
    assert live_deck(client, again["table"], "bob.deck") == order
    other = create(client, {**body, "seed": 12})
    assert live_deck(client, other["table"], "bob.deck") != order
    # The export names the shuffle, and replays to the same board.
    with seated(client, created) as seats:
        assert "ack" in act(seats, "bob", {"move": {"card": "bob.deck[0]", "to": "bob.hand"}})
    text = export_scenario(store_of(client), table)
    assert "\nshuffle: [bob.deck]\n" in text
    assert run_text(text).status == PASS


def test_setup_contract_a_secret_seed_shuffles_a_written_deck_unpredictably(
    client: TestClient,
) -> None:
    """Class 9, the weak spot kept closed: whoever wrote a deck's order (a
    printed start position) knows it, so a table asked to shuffle it with
    no seed draws a secret one: the order is neither the written one nor
    the same twice."""
    body = {k: v for k, v in fab_body(deck=12).items() if k != "seed"}
    body["shuffle"] = ["alice.deck", "bob.deck"]
    orders = set()
    for _ in range(3):
        table = create(client, body)["table"]
        for zone in ("alice.deck", "bob.deck"):
            order = live_deck(client, table, zone)
            assert sorted(order) == sorted(written(body, zone)) and order != written(body, zone)
            orders.add(tuple(order))
    assert len(orders) == 6


@pytest.mark.parametrize("shuffled", [False, True])
def test_setup_contract_a_written_order_reaches_no_seat_that_may_not_look(
    client: TestClient, shuffled: bool
) -> None:
    """Class 9, hidden information: two tables whose bob.deck was written in
    opposite orders (kept, or shuffled with one seed) send alice and the
    spectator the same frames, and bob too until he draws: the written order
    of a deck nobody may look at reaches nobody, not by a handle, a count
    or a log line."""
    body = fab_body(seed=5)
    body_b = {**body, "setup": {**body["setup"], "bob.deck": written(body, "bob.deck")[::-1]}}
    if shuffled:
        body = {**body, "shuffle": ["alice.deck", "bob.deck"]}
        body_b = {**body_b, "shuffle": ["alice.deck", "bob.deck"]}
    a, b = create(client, body), create(client, body_b)
    steps = [
        ("alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}),
        ("alice", {"shuffle": {"zone": "alice.deck"}}),
        ("alice", {"end_turn": {}}),
        ("bob", {"move": {"card": "bob.deck[2]", "to": "bob.deck", "position": "top"}}),
        ("bob", {"move": {"card": "bob.deck[0]", "to": "bob.hand"}}),
    ]
    with seated(client, a) as seats_a, seated(client, b) as seats_b:
        for actor, step in steps:
            answer_a, answer_b = act(seats_a, actor, step), act(seats_b, actor, step)
            assert answer_a == answer_b and "ack" in answer_a, answer_a
        for viewer in ("alice", None):
            assert seats_a[viewer].frames == seats_b[viewer].frames
        # bob's frames are the same until his draw shows him a card.
        assert seats_a["bob"].frames[:-1] == seats_b["bob"].frames[:-1]
        assert seats_a["bob"].frames[-1] != seats_b["bob"].frames[-1]


def test_setup_contract_tables_stored_before_keep_their_shuffled_decks() -> None:
    """A record stored before written orders were kept names no ``shuffle``:
    it builds, replays and exports as it did, every deck shuffled; a new
    record always names its shuffle, an empty one for a written order."""
    record = creation_from_request(fab_body(seed=9))
    stored = record.to_json()
    assert stored["shuffle"] == []
    old = Record.from_json({k: v for k, v in stored.items() if k != "shuffle"})
    assert old.shuffle is None
    game = build(record).game
    shuffle_decks(game)
    expected = names_in(game, "alice.deck")
    assert record_deck(old, "alice.deck") == expected != written(fab_body(), "alice.deck")


@pytest.mark.parametrize(
    ("shuffle", "message"),
    [
        ("alice.deck", "shuffle: must be a list of zones"),
        (["alice.nope"], "unknown zone type 'nope'"),
        (["carol.deck"], "carol"),
        (["alice.hand"], "shuffle: alice.hand is not an ordered zone"),
        (["alice.deck", "alice.deck"], "shuffle: alice.deck is listed twice"),
    ],
)
def test_setup_contract_a_bad_shuffle_is_refused(shuffle: Any, message: str) -> None:
    with pytest.raises(CreationError, match=message):
        creation_from_request({**fab_body(), "shuffle": shuffle})


def test_setup_contract_decks_take_no_shuffle_and_a_scenario_text_carries_its_own() -> None:
    body = {"ruleset": "fab", "decks": {"alice": "x"}, "shuffle": ["alice.deck"]}
    with pytest.raises(CreationError, match="leave out shuffle"):
        creation_from_request(body)
    with pytest.raises(CreationError, match="give either scenario or"):
        creation_from_request({"scenario": "ruleset: fab\n", "shuffle": ["alice.deck"]})
    # A fixed seed, so that the shuffle is known to change the order (a
    # secret one leaves it as it was once in 720 tables).
    text = (
        "ruleset: fab\nseed: 7\nsetup:\n  alice.deck: [A, B, C, D, E, F]\nshuffle: [alice.deck]\n"
    )
    record = creation_from_request({"scenario": text})
    assert record.shuffle == ("alice.deck",)
    assert record_deck(record, "alice.deck") != list("ABCDEF")
