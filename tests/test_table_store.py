"""The event store on SQLite and on Postgres: migrations, tokens kept as
digests, numbered actions with optimistic concurrency, snapshots, and replay
that rebuilds the game exactly."""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from tablekit import BODIES, fab_body, migrated_store, random_act, store_url

from cardzones.table.action_log import Conflict
from cardzones.table.creation import Creation, creation_from_request
from cardzones.table.database import database_url
from cardzones.table.host import Host
from cardzones.table.refusals import Refusal
from cardzones.table.schema import metadata
from cardzones.table.store import Store
from cardzones.table.table import Table, rebuild


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    with migrated_store(store_url(request, tmp_path)) as store:
        yield store


def creation(ruleset: str = "fab", seed: int = 7) -> Creation:
    return creation_from_request(BODIES[ruleset](seed=seed))


def play(host: Host, table: Table, count: int, seed: int) -> None:
    """``count`` random acts, as each seat's view allows, through the host."""
    rng = random.Random(seed)
    for _ in range(count):
        seat = table.game.turn_player if rng.random() < 0.7 else rng.choice(table.players)
        step = random_act(table.view(seat), seat, rng.randrange)
        with contextlib.suppress(Refusal):
            host.act(table, seat, step)


def test_migrations_make_exactly_the_schema_the_code_uses(store: Store) -> None:
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diff == []
    store.migrate()  # a second start changes nothing


def test_sqlite_runs_in_wal_mode_with_full_syncs(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "t.sqlite3"))
    store.migrate()
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(sa.text("PRAGMA synchronous")).scalar() == 2  # FULL


def test_database_urls() -> None:
    assert database_url("postgresql://u@h/db").drivername == "postgresql+psycopg"
    assert database_url("some/file.db").drivername == "sqlite"
    with pytest.raises(ValueError, match="unsupported database"):
        database_url("mysql://u@h/db")


def test_tokens_are_kept_only_as_digests(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    store = Store(str(path))
    store.migrate()
    created = Host(store).create(creation())
    store.close()
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    for token in [*created.seats.values(), created.spectator]:
        assert token.encode() not in data
    store = Store(str(path))
    assert store.seat(created.table_id, created.seats["bob"]).player == "bob"  # type: ignore[union-attr]
    assert store.seat(created.table_id, created.spectator).player is None  # type: ignore[union-attr]
    assert store.seat(created.table_id, created.seats["bob"] + "x") is None
    assert store.seat("nosuchtable", created.seats["bob"]) is None


def test_an_action_number_is_written_once(store: Store) -> None:
    store.create_table("t", creation(), {"alice": "a" * 64, "bob": "b" * 64}, "c" * 64)
    store.append("t", 1, "alice", {"end_turn": {}})
    with pytest.raises(Conflict):
        store.append("t", 1, "bob", {"end_turn": {}})
    assert [(a.number, a.seat) for a in store.actions("t")] == [(1, "alice")]
    assert store.head("t") == 1


@pytest.mark.parametrize("ruleset", ["fab", "redemption"])
def test_rebuilt_equals_replayed_from_scratch_equals_the_live_game(
    store: Store, ruleset: str
) -> None:
    host = Host(store, snapshot_every=7)
    created = host.create(creation(ruleset, seed=11))
    live = host.load(created.table_id)
    assert live is not None
    play(host, live, 40, seed=3)
    assert live.number >= 20  # most random acts are legal
    stored = store.actions(created.table_id)
    assert [a.number for a in stored] == list(range(1, live.number + 1))
    from_snapshot = host.load(created.table_id)
    record = store.creation(created.table_id)
    assert record is not None and from_snapshot is not None
    from_scratch = rebuild(created.table_id, record, [a.act for a in stored])
    assert store.snapshot(created.table_id) is not None
    state = live.game.to_json()
    assert from_snapshot.game.to_json() == state
    assert from_scratch.game.to_json() == state
    for viewer in ("alice", "bob", None):
        assert from_snapshot.log(viewer, 3) == live.log(viewer, 3)
        assert from_snapshot.view(viewer) == live.view(viewer)
    # a game as of an earlier event is the game replayed that far
    middle = host.load(created.table_id, upto=10)
    assert middle is not None
    assert (
        middle.game.to_json()
        == rebuild(created.table_id, record, [a.act for a in stored[:10]]).game.to_json()
    )


def test_a_writer_that_lost_the_race_reloads_and_tries_again(store: Store) -> None:
    host = Host(store)
    created = host.create(creation())
    first, second = host.load(created.table_id), host.load(created.table_id)
    assert first is not None and second is not None
    host.act(first, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
    seen: list[int] = []
    # second has not seen event 1: its act conflicts, it applies event 1, then its own as 2
    done = host.act(
        second,
        "bob",
        {"move": {"card": "bob.deck[0]", "to": "bob.hand"}},
        lambda table, action: seen.append(action.number),
    )
    assert (done.number, seen) == (2, [1])
    assert second.game.to_json() == host.load(created.table_id).game.to_json()  # type: ignore[union-attr]


def test_two_writers_racing_on_one_table_give_one_order_without_gaps(store: Store) -> None:
    host = Host(store)
    created = host.create(creation())
    acked: dict[str, list[int]] = {"alice": [], "bob": []}
    errors: list[BaseException] = []

    def writer(seat: str) -> None:
        table = host.load(created.table_id)
        assert table is not None
        try:
            for i in range(15):
                # always legal: a seat moves its deck's top card to its hand, or back
                step: dict[str, Any] = (
                    {"move": {"card": f"{seat}.deck[0]", "to": f"{seat}.hand"}}
                    if i % 2 == 0
                    else {"move": {"card": f"{seat}.hand[0]", "to": f"{seat}.deck"}}
                )
                acked[seat].append(host.act(table, seat, step).number)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(s,)) for s in acked]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    numbers = sorted(acked["alice"] + acked["bob"])
    assert numbers == list(range(1, 31))
    stored = store.actions(created.table_id)
    assert [a.number for a in stored] == numbers
    for seat in acked:
        assert [a.number for a in stored if a.seat == seat] == acked[seat]


def test_a_stored_act_names_physical_cards_and_no_handle(store: Store) -> None:
    host = Host(store)
    created = host.create(creation_from_request(fab_body()))
    table = host.load(created.table_id)
    assert table is not None
    handle = next(z for z in table.view("alice")["zones"] if z["zone"] == "alice.hand")["objects"][
        0
    ]["id"]
    host.act(table, "alice", {"move": {"card": handle, "to": "alice.graveyard"}})
    (action,) = store.actions(created.table_id)
    assert action.act["move"]["card"].startswith("#")
    assert handle not in str(action.act)
    assert action.act["move"]["by"] == "alice"
