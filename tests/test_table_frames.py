"""A table's event frames keep the zones no event changed (cardzones.table.frames):
after every act of random games of each rule set, each viewer's frame text is
the text of a frame made afresh, and its zones the kernel's fresh view's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from tablekit import BODIES, act, create, random_act, seated, store_url

from cardzones.kernel.log import events
from cardzones.kernel.views import view
from cardzones.table.creation import creation_from_request
from cardzones.table.frames import written_zones
from cardzones.table.json_text import dumps
from cardzones.table.refusals import Refusal
from cardzones.table.table import Table
from cardzones.web.app import create_app

DECKS = Path(__file__).parent / "fixtures" / "decks"

REDEMPTION_PROCEDURE = (
    "ruleset: redemption\nprocedure: true\nseed: 5\ncards:\n"
    "  Gideon: {type: hero, brigade: gold, strength: 6, toughness: 6}\n"
    "  Abner: {type: evil_character, brigade: crimson, strength: 4, toughness: 4}\n"
    "  Soul: {type: lost_soul}\n"
    "setup:\n"
    "  alice.deck: [Gideon, Soul, Abner, Gideon, Gideon, Soul, Abner, Gideon, Abner]\n"
    "  bob.deck: [Soul, Gideon, Abner, Abner, Gideon, Soul, Gideon, Abner, Soul]\n"
)


def body(kind: str, seed: int) -> dict[str, Any]:
    """A table of each kind: free play in each rule set, and each rule
    set's game procedure (fab's from deck lists, with equipment and effects).
    Its handle key comes from the seed too: handles set the order of the
    cards of an unordered zone, and so which card a drawn act names, and a
    drawn test case must play out the same way each time it is run."""
    key = {"handle_key": f"frames-{seed}"}
    if kind == "fab-procedure":
        decks = {
            "alice": (DECKS / "dorinthea.fabrary.txt").read_text(encoding="utf-8"),
            "bob": (DECKS / "azalea.txt").read_text(encoding="utf-8"),
        }
        return {"ruleset": "fab", "decks": decks, "seed": seed, **key}
    if kind == "redemption-procedure":
        return {"scenario": REDEMPTION_PROCEDURE, **key}
    return {**BODIES[kind](seed=seed), **key}


def check(table: Table, actor: str) -> None:
    for viewer in (*table.players, None):
        text = table.event_text(viewer, actor)
        assert text == dumps(table.event_frame(viewer, actor)), viewer
        fresh = view(table.game, viewer)
        assert table.view(viewer) == fresh


def one_act(table: Table, seat: str, data: st.DataObject) -> bool:
    """Try one act of ``seat``: a legal one (a judge's now and then), or one
    made from its view alone; True when it became an event."""
    pick = lambda n: data.draw(st.integers(0, max(0, n - 1)))  # noqa: E731
    way = pick(3)
    if way < 2:
        offered = table.legal(seat, judge=way == 1)
        if not offered:
            return False
        act = offered[pick(len(offered))]["act"]
    else:
        act = random_act(table.view(seat), seat, pick)
    before = len(events(table.game))
    try:
        pending = table.try_act(seat, act)
    except Refusal:
        return False
    named_cards_are_in_written_zones(table.game, before)
    table.commit(pending)
    return True


def named_cards_are_in_written_zones(game: Any, before: int) -> None:
    """Every card a new event names lies in a zone the journal says was
    written (what keeping a zone's handles relies on), unless every zone is
    made again."""
    zones = written_zones(game)
    if zones is None:
        return
    for event in events(game)[before:]:
        if event.card is not None and game.exists(event.card):
            assert game.obj(event.card).zone in zones, event


@pytest.mark.parametrize("kind", ["fab", "redemption", "fab-procedure", "redemption-procedure"])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_kept_frame_is_a_fresh_frame_after_every_act(kind: str, data: Any) -> None:
    seed = data.draw(st.integers(1, 10**6), label="seed")
    table = Table.start("t1", creation_from_request(body(kind, seed)))
    check(table, "alice")
    for _ in range(data.draw(st.integers(5, 25), label="acts")):
        seat = table.players[data.draw(st.integers(0, len(table.players) - 1))]
        if one_act(table, seat, data):
            check(table, seat)


def test_an_act_refused_or_tried_keeps_nothing_it_wrote() -> None:
    """A frame made while an act is tried (its writes not yet an event) is a
    fresh one, and keeps nothing; once the act is put back, the kept zones
    are those of the game as it was."""
    table = Table.start("t1", creation_from_request(BODIES["fab"](seed=3)))
    before = table.event_text("alice", "alice")
    pending = table.try_act("alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
    during = table.event_text("alice", "alice")
    assert during == dumps(table.event_frame("alice", "alice")) != before
    table.abandon(pending)
    assert table.event_text("alice", "alice") == before


def test_the_journal_names_the_zones_an_act_changed() -> None:
    table = Table.start("t1", creation_from_request(BODIES["fab"](seed=3)))
    game = table.game
    assert written_zones(game) == set()
    table.try_act("alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
    assert written_zones(game) == {game.zone("alice", "deck"), game.zone("alice", "hand")}


def test_a_write_no_zone_names_makes_every_zone_again() -> None:
    """A rule letting a player look into a zone (3.7.4) writes no zone's
    contents and no object, yet changes what that player's view shows."""
    table = Table.start("t1", creation_from_request(BODIES["fab"](seed=3)))
    game = table.game
    kept = table.event_text("bob", "alice")
    game.allow_look("bob", game.zone("alice", "hand"))
    assert written_zones(game) is None
    table.commit(table.try_act("alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}))
    text = table.event_text("bob", "alice")
    assert text == dumps(table.event_frame("bob", "alice")) != kept


def count_made(parts: Any) -> dict[str | None, list[int]]:
    """The zones made anew for each viewer (by id, in order), from now on."""
    made: dict[str | None, list[int]] = {}
    keeper = parts.zones

    def watched(game: Any, viewer: str | None) -> Any:
        zones = keeper(game, viewer)

        def watch(rows: Any, make: Any) -> Any:
            def counted(some: Any) -> Any:
                made.setdefault(viewer, []).extend(row.zid for row in some)
                return make(some)

            return zones(rows, counted)

        return watch

    parts.zones = watched
    return made


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(request, tmp_path)


def test_the_server_sends_each_connection_its_kept_frames(db: str) -> None:
    """Through the server, every connection's event frame is the text of a
    fresh frame for its viewer, and only the zones an act changed are made
    again for it: the others come from what the table kept."""
    with TestClient(create_app(db)) as client:
        created = create(client, BODIES["fab"](seed=5))
        tables = client.app.state.server.hub.tables  # type: ignore[attr-defined]
        with seated(client, created) as seats:
            live = tables[created["table"]].table
            made = count_made(live.parts)
            for n, player in enumerate(("alice", "bob", "alice")):
                made.clear()
                step = {"move": {"card": f"{player}.deck[0]", "to": f"{player}.hand"}}
                assert "ack" in act(seats, player, step, f"r{n}")
                for viewer, seat in seats.items():
                    fresh = json.loads(dumps(live.event_frame(viewer, player)))
                    assert seat.frames[-1] == fresh
                    if n:  # the first event's frames are the first made
                        game = live.game
                        moved = {game.zone(player, "deck"), game.zone(player, "hand")}
                        assert set(made[viewer]) == moved, (n, viewer)


def test_a_zone_every_viewer_sees_alike_is_made_once_for_all() -> None:
    """A zone whose cards are all public, without effects or piles, is made
    once per event and its text given to every viewer; a zone with a card
    some viewer may not look at is made for each viewer."""
    table = Table.start("t1", creation_from_request(BODIES["fab"](seed=3)))
    game = table.game
    made = count_made(table.parts)
    viewers = (*table.players, None)
    for viewer in viewers:
        table.event_text(viewer, "alice")
    everything = {zid for zids in made.values() for zid in zids}
    assert set(made["alice"]) == everything  # the first viewer makes every zone
    for viewer in viewers[1:]:
        for zid in made.get(viewer, ()):  # the others only the ones seen apart
            assert any(not game.is_public(c) for c in game.contents(zid)), (viewer, zid)
    for step, public in (
        ({"move": {"card": "alice.deck[0]", "to": "alice.graveyard"}}, "graveyard"),
        ({"move": {"card": "alice.deck[0]", "to": "alice.hand"}}, None),
    ):
        made.clear()
        table.commit(table.try_act("alice", step))
        for viewer in viewers:
            text = table.event_text(viewer, "alice")
            assert text == dumps(table.event_frame(viewer, "alice")), viewer
        deck, hand = game.zone("alice", "deck"), game.zone("alice", "hand")
        if public is not None:
            assert game.contents(game.zone("alice", public))
            assert made["alice"] == [deck, game.zone("alice", public)]
            assert made["bob"] == made[None] == [deck]
        else:
            assert made["alice"] == made["bob"] == made[None] == [deck, hand]


@pytest.mark.parametrize("behind", [1, 3, 70])
def test_a_viewer_behind_by_some_events_gets_a_fresh_frame(behind: int) -> None:
    """A viewer whose last frame is some events old (another viewer's frames
    made at each of them) gets a fresh frame: its kept zones are those no
    event since changed."""
    table = Table.start("t1", creation_from_request(BODIES["fab"](seed=11)))
    game = table.game
    for viewer in (*table.players, None):
        table.event_text(viewer, "alice")
    deck, hand, grave = (game.zone("alice", z) for z in ("deck", "hand", "graveyard"))
    for n in range(behind):
        here, there = (deck, hand) if n % 3 or not game.contents(hand) else (hand, grave)
        if not game.contents(here):  # the deck is drawn out: the graveyard goes back
            here, there = grave, deck
        card = f"{game.zone_name(here)}[0]"
        table.commit(table.try_act("alice", {"move": {"card": card, "to": game.zone_name(there)}}))
        table.event_text("alice", "alice")  # alice keeps up; bob and the spectator do not
    for viewer in (*table.players, None):
        assert table.event_text(viewer, "alice") == dumps(table.event_frame(viewer, "alice"))
