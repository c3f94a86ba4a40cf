"""No leak through the server: what each seat and the spectator receive over
the WebSocket, in a stream of random acts (Hypothesis), against the engine's
own notion of what that viewer may look at (``Game.may_look``, 3.0.3a).

Every card has a name no other card has, so a private name can be looked for
in every frame. For every frame a viewer receives:

- its view is exactly the engine's view for that viewer;
- no name, and no handle that any viewer is shown, of a card the viewer may
  not look at appears in its view, nor in a refusal;
- a log entry names only a card the viewer could look at before or after the
  act it belongs to;
- it holds no token but the viewer's own, and not the seed.

Now and then a seat takes back its last act, with the other's consent
(docs/protocol.md, Taking back acts): the frames of the request and of the
take-back's event are checked the same way.

And the engine's non-interference property, through the server: two tables
that differ only in two cards a viewer may not see (traded places, cards the
rules cannot tell apart) send that viewer identical frames, until the engine
lets the viewer see either card.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from tablekit import BODIES, Seat, act, card_name, create, random_act, seated, take_back

from cardzones.kernel.game import Game
from cardzones.kernel.logview import log_view
from cardzones.kernel.views import _shown_handle, _summary, view
from cardzones.table.limits import Limits
from cardzones.web.app import create_app

pytestmark = pytest.mark.noninterference

VIEWERS: tuple[str | None, ...] = ("alice", "bob", None)


#: One client makes two tables and six sockets for each example: above any
#: rate a stranger is allowed (docs/table.md, Limits), so those are lifted.
LIFTED = Limits(creates_per_minute=10**9, sockets_per_minute=10**9)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://", limits=LIFTED)) as client:
        yield client


def live_game(client: TestClient, table: str) -> Game:
    game: Game = client.app.state.server.hub.tables[table].table.game  # type: ignore[attr-defined]
    return game


def may_see(game: Game, viewer: str | None) -> set[int]:
    return {c for c in game.cards() if game.may_look(viewer, c)}


def handles_of(game: Game, card: int) -> set[str]:
    """Every handle any viewer's view shows for the card."""
    summary = _summary(game)
    return {_shown_handle(game, v, card, summary) for v in VIEWERS if game.may_look(v, card)}


def check_frame(
    game: Game,
    viewer: str | None,
    frame: dict[str, Any],
    seen: set[int],
    forbidden: list[str],
) -> None:
    """``seen``: the cards the viewer could look at before the act or after it."""
    text = json.dumps(frame)
    for secret in forbidden:
        assert secret not in text, "a token or the seed was sent"
    body = frame.get("welcome", frame)
    shown = json.dumps({k: v for k, v in body.items() if k != "log"})
    # A name the viewer may see on another card (a second token of the same
    # name) proves nothing either way.
    visible = {game.obj(c).cdef.name for c in game.cards() if game.may_look(viewer, c)}
    for card in game.cards():
        if game.may_look(viewer, card):
            continue
        if game.obj(card).cdef.name not in visible:
            assert game.obj(card).cdef.name not in shown, f"{viewer} was shown a private name"
        for handle in handles_of(game, card):
            assert handle not in text, f"{viewer} was sent a handle of a card it may not see"
    allowed = {game.obj(c).cdef.name for c in seen if game.exists(c)}
    for entry in body.get("log", ()):
        if "card" in entry:
            assert entry["card"]["name"] in allowed or entry["card"]["name"] == "Ward", entry


def pick_from(data: st.DataObject) -> Any:
    return lambda n: data.draw(st.integers(0, max(0, n - 1)))


@pytest.mark.parametrize("ruleset", ["fab", "redemption"])
@settings(max_examples=25)
@given(data=st.data())
def test_no_private_property_reaches_a_viewer(client: TestClient, ruleset: str, data: Any) -> None:
    seed = data.draw(st.integers(10**12, 10**13), label="seed")
    created = create(client, BODIES[ruleset](seed=seed))
    tokens = {
        "alice": created["seats"]["alice"],
        "bob": created["seats"]["bob"],
        None: created["spectator"],
    }
    forbidden = {v: [str(seed), *(t for w, t in tokens.items() if w != v)] for v in VIEWERS}
    with seated(client, created) as seats:
        game = live_game(client, created["table"])
        for secrets_of_viewer in forbidden.values():
            secrets_of_viewer.append(game.handle_key)  # no frame shows the handle key
        for viewer, seat in seats.items():
            check_frame(game, viewer, seat.frames[0], may_see(game, viewer), forbidden[viewer])
        for _ in range(data.draw(st.integers(5, 30), label="acts")):
            turn = game.turn_player
            actor = (
                turn
                if data.draw(st.integers(0, 3))
                else data.draw(st.sampled_from(["alice", "bob"]))
            )
            step = random_act(seats[actor].view, actor, pick_from(data))
            before = {v: may_see(game, v) for v in VIEWERS}
            counts = {v: len(s.frames) for v, s in seats.items()}
            if data.draw(st.integers(0, 5), label="take back") == 0:
                note(f"{actor}: take back")
                take_back(client, created, seats, actor)
                game = live_game(client, created["table"])  # a take-back replaces it
            else:
                note(f"{actor}: {step}")
                act(seats, actor, step)
            for viewer, seat in seats.items():
                seen = before[viewer] | may_see(game, viewer)
                for frame in seat.frames[counts[viewer] :]:
                    check_frame(game, viewer, frame, seen, forbidden[viewer])
                    if "event" in frame:
                        assert frame["view"] == json.loads(json.dumps(view(game, viewer)))


def traded(body: dict[str, Any], zone: str, data: Any) -> tuple[dict[str, Any], tuple[str, str]]:
    """The body with two cards of ``zone`` (look-alikes) trading places."""
    other = copy.deepcopy(body)
    entries = other["setup"][zone]
    i = data.draw(st.integers(0, len(entries) - 2), label="first")
    j = data.draw(st.integers(i + 1, len(entries) - 1), label="second")
    entries[i], entries[j] = entries[j], entries[i]
    return other, (entries[j], entries[i])


def revealed(game: Game, viewer: str | None, names: tuple[str, str]) -> bool:
    """Whether the engine lets the viewer see either traded card now, or has
    ever named one in the viewer's log."""
    for card in game.cards():
        if game.obj(card).cdef.name in names and game.may_look(viewer, card):
            return True
    log = json.dumps(log_view(game, viewer))
    return any(json.dumps(name) in log for name in names)


@pytest.mark.parametrize("ruleset", ["fab", "redemption"])
@pytest.mark.parametrize("zone", ["bob.hand", "alice.deck"])
@settings(max_examples=20)
@given(data=st.data())
def test_games_that_differ_only_in_what_a_viewer_cannot_see_send_it_identical_frames(
    client: TestClient, ruleset: str, zone: str, data: Any
) -> None:
    seed = data.draw(st.integers(0, 10**6), label="seed")
    names = [card_name(n) for n in range(1, 200)]
    body = BODIES[ruleset](seed=seed, names=names)
    # The handle key is a table's own secret; two tables compared frame by
    # frame share one, as they share the seed.
    body["handle_key"] = f"noleak-{seed}"
    body_b, pair = traded(body, zone, data)
    a, b = create(client, body), create(client, body_b)
    with seated(client, a) as seats_a, seated(client, b) as seats_b:
        game_a, game_b = live_game(client, a["table"]), live_game(client, b["table"])
        watching = {v for v in ("alice", None) if not revealed(game_a, v, pair)}
        for viewer in watching:
            assert seats_a[viewer].frames == seats_b[viewer].frames
        for _ in range(data.draw(st.integers(5, 25), label="acts")):
            turn = game_a.turn_player
            actor = (
                turn
                if data.draw(st.integers(0, 3))
                else data.draw(st.sampled_from(["alice", "bob"]))
            )
            step = random_act(seats_a[actor].view, actor, pick_from(data))
            counts = {v: len(seats_a[v].frames) for v in watching}
            if data.draw(st.integers(0, 5), label="take back") == 0:
                note(f"{actor}: take back")
                assert take_back(client, a, seats_a, actor) == take_back(client, b, seats_b, actor)
                game_a, game_b = live_game(client, a["table"]), live_game(client, b["table"])
            else:
                note(f"{actor}: {step}")
                act(seats_a, actor, step)
                act(seats_b, actor, step)
            for viewer in list(watching):
                if revealed(game_a, viewer, pair) or revealed(game_b, viewer, pair):
                    watching.discard(viewer)
                    continue
                new_a = seats_a[viewer].frames[counts[viewer] :]
                new_b = seats_b[viewer].frames[counts[viewer] :]
                assert new_a == new_b, f"{viewer} can tell the tables apart"
            if not watching:
                break


def test_the_seat_class_counts_events_in_order() -> None:
    # The helper the properties rely on refuses an event out of order.
    class Fake:
        def __init__(self, frames: list[dict[str, Any]]) -> None:
            self.frames = frames

        def receive_json(self) -> dict[str, Any]:
            return self.frames.pop(0)

    seat = Seat(Fake([{"event": 2, "view": {}}]), "alice")  # type: ignore[arg-type]
    with pytest.raises(AssertionError):
        seat.receive()
