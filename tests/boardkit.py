"""What the browser tests share: Debian's Chromium driven by Playwright, a
table server in a thread (so that a test can read the live game), start
positions whose every private card has a unique name and a unique stat, and
the check that a page holds nothing its viewer may not see."""

from __future__ import annotations

import asyncio
import html
import json
import os
import re
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from conftest import free_port
from tablekit import card_name

from cardzones.kernel.game import Game
from cardzones.web.app import create_app

#: Debian's Chromium; Playwright's own browser download does not work offline.
CHROMIUM = Path(os.environ.get("CARDZONES_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_MISSING = "needs Chromium: apt-get install chromium (Debian's chromium package)"
#: The switches for a headless Chromium that reaches nothing but 127.0.0.1.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Where the tests leave their screenshots (gitignored).
SCREENSHOTS = Path(__file__).resolve().parent.parent / "build" / "screenshots"
#: A private card's unique stat: STAT_BASE + its number, a value nothing else has
#: (within the 9,999 a card's stat may be).
STAT_BASE = 9_000
VIEWERS: tuple[str | None, ...] = ("alice", "bob", None)
#: A handle as views give them.
HANDLE = re.compile(r"\bo[0-9a-f]{12}\b")


# ----------------------------------------------------------------------
# Start positions
# ----------------------------------------------------------------------


def _deck_card(n: int, ruleset: str) -> dict[str, Any]:
    if ruleset == "fab":
        return {"types": ["action", "attack"], "power": 4, "defense": STAT_BASE + n}
    return {"type": "hero", "brigade": "blue", "strength": 3, "toughness": STAT_BASE + n}


def board_body(ruleset: str, seed: int = 11) -> dict[str, Any]:
    """A short game's start: decks and hands of cards with unique names and
    stats; in fab a hero with a soul card and a weapon each, in Redemption a
    hero and an evil character in each territory."""
    numbers = iter(range(1, 500))
    cards: dict[str, Any] = {}
    setup: dict[str, Any] = {}

    def fresh() -> str:
        n = next(numbers)
        name = card_name(n)
        cards[name] = _deck_card(n, ruleset)
        return name

    for player, letter in (("alice", "A"), ("bob", "B")):
        if ruleset == "fab":
            cards[f"Hero {letter}"] = {"types": ["hero", "warrior"], "intellect": 4, "life": 20}
            cards[f"Soul {letter}"] = {"types": ["action", "light"], "pitch": 1}
            cards[f"Blade {letter}"] = {"types": ["weapon", "sword", "1h"], "power": 3}
            setup[f"{player}.hero"] = [f"Hero {letter}"]
            setup[f"{player}.soul"] = [f"Soul {letter}"]
            setup[f"{player}.weapon"] = [f"Blade {letter}"]
        else:
            hero, evil = f"Gideon {letter}", f"Goliath {letter}"
            cards[hero] = {"type": "hero", "brigade": "red", "strength": 6, "toughness": 4}
            cards[evil] = {"type": "evil_character", "brigade": "crimson", "strength": 9}
            setup[f"{player}.territory"] = [hero, evil]
        setup[f"{player}.deck"] = [fresh() for _ in range(5)]
        setup[f"{player}.hand"] = [fresh() for _ in range(3)]
    return {
        "ruleset": ruleset,
        "players": ["alice", "bob"],
        "seed": seed,
        "cards": cards,
        "setup": setup,
    }


def real_board_body(ruleset: str, seed: int = 21) -> dict[str, Any]:
    """A realistic start of real cards from the repository's card fixtures
    (``card_data``), for the screenshots shown in the README and docs.

    Flesh and Blood: Dorinthea Ironsong with a full set of equipment, Dawnblade
    (a two-hander), a Light card in her soul, cards in hand and arsenal,
    against Azalea with Death Dealer (a two-handed bow) and Crow's Nest (its
    quiver). Redemption: a territory of heroes, one with an enhancement placed
    on it, a site, Lost Souls in the lands of bondage and one rescued, against
    Pharaoh, Ramses II and a fortress.
    """
    if ruleset == "fab":
        setup: dict[str, Any] = {
            "alice.hero": ["Dorinthea Ironsong"],
            "alice.soul": ["Merciful Retribution"],
            "alice.weapon": ["Dawnblade"],
            "alice.head": ["Ironrot Helm"],
            "alice.chest": ["Fyendal's Spring Tunic"],
            "alice.arms": ["Braveforge Bracers"],
            "alice.legs": ["Ironrot Legs"],
            "alice.hand": [
                {"card": "Warrior's Valor", "pitch": 1},
                {"card": "Sink Below", "pitch": 3},
                "Steelblade Supremacy",
                {"card": "Snatch", "pitch": 1},
            ],
            "alice.arsenal": [{"card": "Ironsong Response", "pitch": 1}],
            "alice.deck": [
                {"card": "Driving Blade", "pitch": 2},
                {"card": "Warrior's Valor", "pitch": 3},
                {"card": "Pummel", "pitch": 2},
                {"card": "Sink Below", "pitch": 1},
                "Hala Goldenhelm",
            ],
            "alice.graveyard": [{"card": "Driving Blade", "pitch": 1}],
            "bob.hero": ["Azalea, Ace in the Hole"],
            "bob.weapon": ["Death Dealer", "Crow's Nest"],
            "bob.legs": ["Nullrune Boots"],
            "bob.hand": [
                "Endless Arrow",
                {"card": "Sink Below", "pitch": 2},
                "Mark of the Beast",
                {"card": "Pummel", "pitch": 3},
            ],
            "bob.arsenal": ["Endless Arrow"],
            "bob.deck": [{"card": "Pummel", "pitch": 1}, "Endless Arrow", "Tome of Torment"],
        }
    else:
        setup = {
            "alice.territory": [
                {"card": "David, Giant Slayer [K]", "as": "david"},
                {"card": "Bravery of David [K]", "onto": "$david"},
                "Jonathan, the Devoted [K]",
                "Abraham (CoW)",
                "Assyria",
            ],
            "alice.land_of_bondage": [
                'Lost Soul "Dread" [Exodus 15:16 - K]',
                "Lost Soul [Exodus 10:10 - K]",
            ],
            "alice.land_of_redemption": ['Lost Soul "Awake" [Ephesians 5:14 - TPC]'],
            "alice.hand": [
                "Pleading for the City",
                "Given to Israel [K]",
                "Son of God [K]",
                "Hannah [K]",
            ],
            "alice.deck": [
                "Counsel for the King [K]",
                "Divination [K]",
                "Moses (Wa)",
                "Lord of Armies [K]",
            ],
            "alice.reserve": ["Covenant with David [K]"],
            "bob.territory": ["Pharaoh, Ramses II [K]", "Egyptian Archer [K]", "Assyrian Camp"],
            "bob.land_of_bondage": ["Lost Soul [Exodus 10:10 - K]"],
            "bob.hand": [
                "Egyptian Spear [K]",
                "Make Bricks! [K]",
                "Murderous Command [K]",
                "Egyptian Chariots [K]",
            ],
            "bob.deck": ["Besieged", "Blood Avenger", "Babylon"],
            "bob.discard": ["Pharaoh's Curse"],
        }
    return {
        "ruleset": ruleset,
        "players": ["alice", "bob"],
        "seed": seed,
        "card_data": ruleset,
        "setup": setup,
    }


# ----------------------------------------------------------------------
# A server in a thread
# ----------------------------------------------------------------------


class ThreadServer:
    """The table server (uvicorn on 127.0.0.1) in a thread of the test process,
    so that a test reads the live game the pages are shown. It can be stopped
    and started again on the same port and the same SQLite file."""

    def __init__(self, db: str, port: int | None = None, images: bool = False) -> None:
        self.db = db
        self.images = images
        self.port = port or free_port()
        self.app: Any = None
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> ThreadServer:
        self.app = create_app(self.db, images=self.images)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            timeout_graceful_shutdown=2,
        )
        server = self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        if self.server is not None and self.thread is not None:
            self.server.should_exit = True
            self.thread.join(15)
            assert not self.thread.is_alive(), "the server did not stop"
        self.server = self.thread = None

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        answer = httpx.post(self.url + "/api/tables", json=body, timeout=10.0)
        assert answer.status_code == 201, answer.text
        created: dict[str, Any] = answer.json()
        return created

    def game(self, table: str) -> Game:
        """A copy of a table's game, taken under the table's lock: secret-bearing,
        for the checks only. Not the live game itself: while the server answers
        a page's ``/legal`` it tries acts on it and takes them back, and a check
        reading it then would see a card where no act ever put it."""
        assert self.server is not None
        hub = self.app.state.server.hub
        live = hub.tables[table]
        loop = self.server.servers[0].get_loop()
        copied = asyncio.run_coroutine_threadsafe(hub.read(live, lambda t: t.game.copy()), loop)
        game: Game = copied.result(timeout=20)
        return game


@contextmanager
def thread_server(db: str | None = None, images: bool = False) -> Iterator[ThreadServer]:
    with tempfile.TemporaryDirectory(prefix="cardzones-board-") as folder:
        path = db or str(Path(folder) / "tables.sqlite3")
        server = ThreadServer(path, images=images).start()
        try:
            yield server
        finally:
            server.stop()


# ----------------------------------------------------------------------
# What a viewer may not see
# ----------------------------------------------------------------------


def secrets_of(game: Game, viewer: str | None) -> tuple[set[str], set[str]]:
    """From the engine's own notion of what ``viewer`` may look at now
    (``Game.may_look``, 3.0.3a): the names of the objects it may not look at,
    less the names it may also see on another object, and the unique stats of
    those cards."""
    hidden, shown = set(), set()
    for card in game.cards():
        name = game.obj(card).cdef.name
        (shown if game.may_look(viewer, card) else hidden).add(name)
    names = hidden - shown
    stats = set()
    for name in names:
        found = re.fullmatch(r"Kx(\d{4})q", name)
        if found:
            stats.add(str(STAT_BASE + int(found.group(1))))
    return names, stats


def assert_nothing_secret(where: str, text: str, names: set[str], stats: set[str]) -> None:
    for name in names:
        # As written, as JSON writes it, and as HTML does ('Lost Soul "Dread"').
        for form in {name, json.dumps(name)[1:-1], html.escape(name)}:
            assert form not in text, f"{where} holds {name!r}, which its viewer may not see"
    # A stat has four digits (a card's stats are at most 9,999), which a
    # handle's twelve hex digits may hold by chance: handles are not stats.
    text = HANDLE.sub("o-", text)
    for stat in stats:
        # Next to no other digit: "defense9003" in a text, "defense":9003 in JSON.
        assert not re.search(rf"(?<![\d.]){stat}(?![\d.])", text), (
            f"{where} holds the stat {stat} of a card its viewer may not see"
        )


#: Every attribute of every element, and every form field's current value.
ATTRIBUTES_JS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('*')) {
    for (const a of el.attributes) out.push(a.name + '=' + a.value);
    if ('value' in el && typeof el.value === 'string') out.push('value=' + el.value);
  }
  return out.join('\\n');
}"""


def page_blobs(page: Any) -> dict[str, str]:
    """Everything a page holds: its HTML, its text, its attributes, and the
    data its script keeps."""
    return {
        "html": page.content(),
        "text": page.evaluate("() => document.body.innerText + '\\n' + document.body.textContent"),
        "attributes": page.evaluate(ATTRIBUTES_JS),
        "script data": page.evaluate("() => JSON.stringify(window.cardzonesBoard)"),
    }


def frames_text(frames: list[Any]) -> str:
    return "\n".join(f if isinstance(f, str) else f.decode("utf-8", "replace") for f in frames)


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
