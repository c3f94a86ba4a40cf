"""An act's path at a table, as the server takes it: no read of the store
before an act while no other process writes (a taken number or a refusal on
an old state reads it and tries again), snapshots spaced with the game and
kept after the ack, and the log entries since an event, which are read from
the events since it (with the whole log only for a card gone before them)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tablekit import migrated_store

from cardzones import new_game
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.game import MoveResult
from cardzones.kernel.logview import log_view, omniscient_log
from cardzones.rulesets.fab.actions import try_create_token
from cardzones.table.creation import Creation
from cardzones.table.host import SNAPSHOT_SPREAD, Host
from cardzones.table.refusals import Refusal
from cardzones.table.store import Store

DRAW = {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}
DISCARD = {"move": {"card": "alice.hand[0]", "to": "alice.graveyard"}}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with migrated_store(str(tmp_path / "tables.sqlite3")) as store:
        yield store


def two_processes(store: Store) -> tuple[Host, Host, str]:
    """Two hosts on one store, as two server processes are, and a table."""
    first, second = Host(store), Host(store)
    created = first.create(Creation("fab", ("alice", "bob"), 7, {}, {"alice.deck": ["A", "B"]}))
    return first, second, created.table_id


def test_an_act_on_an_old_state_finds_its_number_taken_and_is_taken_again(
    store: Store,
) -> None:
    first, second, table_id = two_processes(store)
    mine, theirs = first.load(table_id), second.load(table_id)
    assert mine is not None and theirs is not None
    second.act(theirs, "alice", DRAW)
    seen: list[int] = []
    done = first.act(mine, "alice", DRAW, lambda t, a: seen.append(a.number), read_first=False)
    assert (done.number, seen) == (2, [1])  # the other process's event came first
    assert [a.number for a in store.actions(table_id)] == [1, 2]
    assert mine.game.same_state(second.load(table_id).game)  # type: ignore[union-attr]


def test_an_act_refused_on_an_old_state_is_judged_again_on_the_new_one(store: Store) -> None:
    first, second, table_id = two_processes(store)
    mine, theirs = first.load(table_id), second.load(table_id)
    assert mine is not None and theirs is not None
    second.act(theirs, "alice", DRAW)
    # As this process last saw the table, alice's hand is empty: the discard
    # is refused there, and allowed once the draw is applied.
    done = first.act(mine, "alice", DISCARD, read_first=False)
    assert done.number == 2


def test_an_act_refused_on_the_newest_state_is_refused_once_and_changes_nothing(
    store: Store,
) -> None:
    first, _, table_id = two_processes(store)
    table = first.load(table_id)
    assert table is not None
    state = table.game.to_json()
    with pytest.raises(Refusal):
        first.act(table, "alice", DISCARD, read_first=False)
    assert table.number == 0 and table.game.to_json() == state
    assert store.actions(table_id) == []


def test_snapshots_are_spaced_with_the_game_and_may_be_kept_after_the_act(
    store: Store,
) -> None:
    host = Host(store, snapshot_every=2)
    created = host.create(Creation("fab", ("alice", "bob"), 7, {}, {"alice.deck": ["A"]}))
    table = host.load(created.table_id)
    assert table is not None
    due = [n for n in range(1, 200) if host.snapshot_due(n)]
    # every 2 events up to 2 * SPREAD * 2, then every 4, 8, ...: between a
    # 16th and an 8th of the game
    assert due[: 2 * SNAPSHOT_SPREAD] == list(range(2, 4 * SNAPSHOT_SPREAD + 1, 2))
    assert all(n / 16 <= host.snapshot_interval(n) <= max(2, n / 8) for n in range(1, 200))
    for i in range(2):
        host.act(table, "alice", DRAW if i % 2 == 0 else {"end_turn": {}}, snapshot=False)
    assert host.snapshot_due(table.number) and store.snapshot(created.table_id) is None
    host.keep_snapshot(table)
    kept = store.snapshot(created.table_id)
    assert kept is not None and kept["number"] == 2


def test_the_log_since_an_event_is_the_tail_of_the_whole_log_for_a_card_gone_before_it() -> None:
    """A token that ceased (8.1.8a) long before the entries asked for: its
    owner and printed card come from the whole log, as for the full log."""
    game = new_game("fab", ["alice", "bob"])
    spark = CardDef("Spark", frozenset({"token", "aura"}))
    result, token = try_create_token(game, spark, Dest("arena"), "alice")
    assert result is MoveResult.DONE and token is not None
    deck = game.zone("alice", "deck")
    assert deck is not None
    strike = CardDef("Strike", frozenset({"action", "attack"}))
    cards = [game.new_card(strike, deck, owner="alice") for _ in range(3)]
    assert game.move(token, Dest("graveyard", "alice")) is MoveResult.CEASED
    for card in cards:
        game.move(card, Dest("hand", "alice"))
    whole = {viewer: log_view(game, viewer) for viewer in ("alice", "bob", None)}
    for viewer, entries in whole.items():
        for since in range(len(entries) + 1):
            assert log_view(game, viewer, since) == entries[since:]
    assert omniscient_log(game)[-1]["card"] == {"name": "Strike"}


def test_the_cards_of_some_events_are_known_as_the_whole_log_knows_them() -> None:
    """Whatever events are asked about, their cards' owners and printed cards
    are those the whole log gives, even a token's created event alone, after
    it ceased (8.1.8a), which none of them shows as it was."""
    from cardzones.kernel.logview import _identities

    game = new_game("fab", ["alice", "bob"])
    spark = CardDef("Spark", frozenset({"token", "aura"}))
    _, token = try_create_token(game, spark, Dest("arena"), "bob")
    assert token is not None
    assert game.move(token, Dest("graveyard", "bob")) is MoveResult.CEASED
    events = list(game.events())
    whole = _identities(game)
    for first in range(len(events)):
        for last in range(first, len(events) + 1):
            window = events[first:last]
            some = _identities(game, window)
            named = {e.card for e in window if e.card is not None}
            assert {card: some[card] for card in named} == {card: whole[card] for card in named}
    # an event that does not show the card as it was (an event of an older
    # form): its card is looked for in the whole log
    bare = events[0]._replace(lki=None)
    assert _identities(game, [bare])[token] == ("bob", spark)
