"""Picture addresses are not beacons. A board started with ``cardzones serve
--images`` loads a card's picture from the address its view gives; if a
table's maker could give each card an address of its own, another seat's
board would load the picture of each card in that seat's hidden hand, and
the maker would learn its draws. So a table's picture addresses come from
the server's card index alone, never from a creation body, and a card the
viewer may not look at carries none, in a view, a log entry or on the
board. On SQLite and on Postgres."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from starlette.testclient import TestClient
from tablekit import act, create, fab_body, seated, store_url

from cardzones.table.creation import build
from cardzones.table.export import export_scenario
from cardzones.table.limits import Limits
from cardzones.table.record import Record
from cardzones.table.store import Store
from cardzones.web.app import create_app

#: Where a table's maker would learn what each seat's board loads.
BEACON = "https://beacon.example.org/"
#: A hand, a deck and a card in play for each seat, every card from the
#: card index, each with a picture address of its own.
HANDS = {
    "alice.hand": ["Hannah [K]", "David's Harp [K]"],
    "alice.deck": ["Divination [K]", "Egyptian Archer [K]", "Make Bricks! [K]"],
    "alice.territory": ["David, Giant Slayer [K]"],
    "bob.hand": ["Jonathan, the Devoted [K]", "Lord of Armies [K]"],
    "bob.deck": ["Murderous Command [K]", "Son of God [K]", "Bravery of David [K]"],
}
DRAWS = [
    ("alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}),
    ("alice", {"end_turn": {}}),
    ("bob", {"move": {"card": "bob.deck[0]", "to": "bob.hand"}}),
    ("bob", {"move": {"card": "bob.hand[0]", "to": "bob.deck", "position": "bottom"}}),
]


@pytest.fixture(params=["sqlite", "postgres"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    url = store_url(request, tmp_path)
    limits = Limits(creates_per_minute=10**9, sockets_per_minute=10**9)
    with TestClient(create_app(url, limits=limits, images=True)) as client:
        yield client


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.server.store  # type: ignore[attr-defined]
    return store


def beaconed(body: dict[str, Any]) -> dict[str, Any]:
    """The body with a picture address of its own on every card it defines."""
    defined = enumerate(body["cards"].items())
    cards = {name: {**d, "image": f"{BEACON}{i}.png"} for i, (name, d) in defined}
    return {**body, "cards": cards}


def no_picture_in(record: Record) -> None:
    for name, body in record.cards.items():
        for one in body if isinstance(body, list) else [body]:
            assert "image" not in one, name


def test_pictures_a_creation_body_gives_no_picture_address(client: TestClient) -> None:
    """Class 7: every card a body defines, in JSON or in a scenario text,
    loses its picture address; the record keeps none, no frame to any seat
    carries one, and the export has none."""
    body = beaconed(fab_body())
    text_body = {k: body[k] for k in ("ruleset", "players", "seed", "cards", "setup")}
    for given in (body, {"scenario": yaml.safe_dump(text_body)}):
        created = create(client, given)
        table = created["table"]
        record = store_of(client).creation(table)
        assert record is not None
        no_picture_in(record)
        with seated(client, created) as seats:
            for actor, step in (
                ("alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}}),
                ("alice", {"move": {"card": "alice.hand[0]", "to": "alice.graveyard"}}),
            ):
                assert "ack" in act(seats, actor, step)
            for seat in seats.values():
                assert BEACON not in json.dumps(seat.frames)
        assert BEACON not in export_scenario(store_of(client), table)


def test_pictures_an_index_card_keeps_the_index_picture_and_a_defined_card_has_none(
    client: TestClient,
) -> None:
    """Class 7: with ``card_data``, a card of the index shows the index's
    picture address, and a card the body defines (even over an index card's
    name) shows none."""
    body = {
        "ruleset": "redemption",
        "card_data": "redemption",
        "seed": 3,
        "cards": {
            "Beacon": {"type": "hero", "brigade": "blue", "image": BEACON + "b.png"},
            "Hannah [K]": {"type": "hero", "brigade": "blue", "image": BEACON + "h.png"},
        },
        "setup": {"alice.territory": ["Beacon", "Hannah [K]", "David, Giant Slayer [K]"]},
    }
    created = create(client, body)
    record = store_of(client).creation(created["table"])
    assert record is not None
    index_picture = record.cards["David, Giant Slayer [K]"]["image"]
    assert index_picture.startswith("https://") and not index_picture.startswith(BEACON)
    with seated(client, created) as seats:
        for seat in seats.values():
            territory = next(z for z in seat.view["zones"] if z["zone"] == "alice.territory")[
                "objects"
            ]
            pictures = {o["name"]: o.get("image") for o in territory}
            assert pictures == {
                "Beacon": None,
                "Hannah [K]": None,
                "David, Giant Slayer [K]": index_picture,
            }


def test_pictures_a_card_its_viewer_may_not_look_at_carries_none(client: TestClient) -> None:
    """Class 7: every card of the index has its own picture here; through
    draws, an end of turn and a card put back into a deck, each viewer's
    frames carry the picture of exactly the cards it may look at (its own
    hand and what is in play), never of another hand or of a deck."""
    body = {"ruleset": "redemption", "card_data": "redemption", "seed": 5, "setup": HANDS}
    created = create(client, body)
    record = store_of(client).creation(created["table"])
    assert record is not None
    picture = {name: record.cards[name]["image"] for names in HANDS.values() for name in names}
    assert len(set(picture.values())) == len(picture)
    with seated(client, created) as seats:
        for actor, step in DRAWS:
            assert "ack" in act(seats, actor, step)
        seen = {seat: json.dumps(s.frames) for seat, s in seats.items()}
    drawn = {"alice": "Divination [K]", "bob": "Murderous Command [K]"}
    in_play = set(HANDS["alice.territory"])
    for viewer, text in seen.items():
        may = set(in_play)
        if viewer is not None:
            may |= set(HANDS[f"{viewer}.hand"]) | {drawn[viewer]}
        for name, address in picture.items():
            assert (address in text) is (name in may), (viewer, name)


def test_pictures_a_table_stored_with_a_body_picture_shows_none() -> None:
    """Class 7: a table stored before (without a card index, so every
    picture in its record came from its body) is built without them."""
    record = Record(
        "fab",
        ("alice", "bob"),
        7,
        {"A": {"types": ["action"], "image": BEACON + "a.png"}},
        {"alice.hand": ["A"]},
    )
    game = build(record).game
    assert BEACON not in json.dumps(game.view("alice"))


def test_pictures_no_board_loads_a_body_picture(tmp_path: Path) -> None:
    """Class 7, at the board: on a server with pictures, a seat that looks
    closely at every card of its own hand loads no address a body gave."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from boardkit import CHROMIUM, CHROMIUM_ARGS, CHROMIUM_MISSING, thread_server

    if not CHROMIUM.exists():
        pytest.skip(CHROMIUM_MISSING)
    profile = tempfile.mkdtemp(prefix="cardzones-chromium-")
    asked: list[str] = []
    with thread_server(images=True) as server, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, env={**os.environ, "TMPDIR": profile}
        )
        try:
            created = server.create(beaconed(fab_body()))
            for seat in ("alice", "bob"):
                page = browser.new_page()

                def refuse(route: Any) -> None:
                    asked.append(route.request.url)
                    route.abort()

                page.route("https://**", refuse)
                page.goto(server.url + created["links"][seat])
                page.wait_for_selector("#conn[data-state=connected]")
                cards = page.locator(f'#board [data-zone="{seat}.hand"] .cards > .card')
                assert cards.count() == 3
                for i in range(cards.count()):
                    cards.nth(i).hover()
                    page.locator("#preview").wait_for()
                    assert page.locator("#preview .p-name").count() == 1
                    assert page.locator("#preview img").count() == 0
        finally:
            browser.close()
            shutil.rmtree(profile, ignore_errors=True)
    assert asked == []
