"""A third game without any change to cardzones: the example rule set of
docs/writing-a-ruleset.md (tests/plugins), found through its entry point or
registered with ``register_ruleset``, runs its own scenario file.

The rule set is a small distribution (``patience_dist``: a package and its
``*.dist-info`` with ``entry_points.txt``), which the tests put on the path,
as installing it would: ``importlib.metadata`` then finds its entry point in
the group ``cardzones.rulesets``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardzones import (
    Game,
    IllegalAction,
    MoveResult,
    get_ruleset,
    load_game,
    new_game,
    register_ruleset,
    ruleset_names,
    unregister_ruleset,
)
from cardzones.kernel.cards import CardDef
from cardzones.position.cards import card_entry, parse_card
from cardzones.position.loader import from_data
from cardzones.rulesets import RulesetError, ruleset_origin
from cardzones.scenario.runner import FAIL, INVALID, PASS, run_file, run_text

ROOT = Path(__file__).resolve().parent.parent
PLUGINS = ROOT / "tests" / "plugins"
DIST = PLUGINS / "patience_dist"
SCENARIO = PLUGINS / "patience.scenario.yaml"
MODULE = "cardzones_patience"


def _forget() -> None:
    unregister_ruleset("patience")
    sys.modules.pop(MODULE, None)


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The example distribution on the path, as if it were installed."""
    _forget()
    monkeypatch.syspath_prepend(str(DIST))
    yield
    _forget()


@pytest.fixture
def registered() -> Iterator[object]:
    """The example rule set registered by the program, not installed."""
    _forget()
    spec = importlib.util.spec_from_file_location(MODULE, DIST / MODULE / "__init__.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    _forget()


def test_it_is_unknown_until_installed() -> None:
    _forget()
    assert "patience" not in ruleset_names()
    outcome = run_file(SCENARIO)
    assert outcome.status == INVALID
    assert "ruleset must be one of" in outcome.message and "patience" in outcome.message


def test_found_through_its_entry_point(installed: None) -> None:
    assert "patience" in ruleset_names()
    assert ruleset_origin("patience") == "cardzones_patience:PatienceRuleset (cardzones-patience)"
    ruleset = get_ruleset("patience")
    assert ruleset.name == "patience" and "turn" in ruleset.actions
    outcome = run_file(SCENARIO)
    assert outcome.status == PASS, outcome.describe()
    assert outcome.steps == 23


def test_registered_with_register_ruleset(registered: object) -> None:
    ruleset = register_ruleset(registered.PatienceRuleset)  # type: ignore[attr-defined]
    assert ruleset_origin("patience") == "registered"
    assert get_ruleset("patience") is ruleset
    assert run_file(SCENARIO).status == PASS
    with pytest.raises(RulesetError, match="registered already"):
        register_ruleset(registered.PatienceRuleset)  # type: ignore[attr-defined]
    unregister_ruleset("patience")
    assert "patience" not in ruleset_names()


def test_its_rules_are_enforced(installed: None) -> None:
    """The scenario fails when the rule set's own rule does not hold."""
    text = SCENARIO.read_text(encoding="utf-8").replace(
        "to: alice.foundation, result: failed}", "to: alice.foundation, result: moved}", 1
    )
    outcome = run_text(text, "patience.scenario.yaml")
    assert outcome.status == FAIL
    assert "should give result moved, found failed" in outcome.message


def test_its_action_is_one_atomic_action_and_undoes(installed: None) -> None:
    game = new_game("patience", ["alice"], seed=2)
    stock = game.zone("alice", "stock")
    assert stock is not None
    for rank in range(1, 5):
        game.new_card(CardDef(f"{rank} of clubs", frozenset({"clubs"}), {"rank": rank}), stock)
    game.forget_history()
    turn = game.ruleset.actions["turn"]
    before = game.copy()
    assert turn.run(game, {"by": None, "count": 2}).result is MoveResult.MOVED
    assert len(game.contents(stock)) == 2
    game.undo()
    assert game.same_state(before)
    with pytest.raises(IllegalAction, match="turn 1 to 4"):
        turn.run(game, {"by": None, "count": 9})
    assert game.same_state(before)


def test_a_saved_game_keeps_its_records(installed: None) -> None:
    game = new_game("patience", ["alice", "bob"], seed=5)
    stock = game.zone("alice", "stock")
    assert stock is not None
    game.new_card(CardDef("Ace", frozenset({"hearts"}), {"rank": 1}), stock)
    game.ruleset.actions["turn"].run(game, {"by": "alice", "count": 1})
    data = json.loads(json.dumps(game.to_json()))
    loaded = load_game(data)
    assert isinstance(loaded, Game) and loaded.same_state(game)
    assert loaded.records.get(("turned", "alice")) == game.records.get(("turned", "alice"))


def test_its_cards_are_written_down_and_read_back(installed: None) -> None:
    ruleset = get_ruleset("patience")
    queen = CardDef("Queen", frozenset({"spades"}), {"rank": 12})
    entry = card_entry(queen, ruleset)
    assert entry == {"suit": "spades", "rank": 12}
    assert parse_card("Queen", from_data(entry), ruleset) == queen


def _cli(
    *args: str, installed: bool = True, home: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if home is not None:
        env["CARDZONES_HOME"] = str(home)
    if installed:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(DIST), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "cardzones.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cardzones_check_runs_its_scenario() -> None:
    result = _cli("check", "tests/plugins")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS tests/plugins/patience.scenario.yaml (23 steps)" in result.stdout
    assert "1 passed, 0 failed" in result.stdout
    missing = _cli("check", "tests/plugins", installed=False)
    assert missing.returncode == 2
    assert "ruleset must be one of" in missing.stderr


def test_cardzones_rulesets_and_actions_list_it() -> None:
    listed = _cli("rulesets", "--json")
    assert listed.returncode == 0, listed.stderr
    rows = {row["name"]: row for row in json.loads(listed.stdout)["rulesets"]}
    assert set(rows) >= {"fab", "redemption", "patience"}
    assert rows["patience"]["zones"] == ["foundation", "stock", "waste"]
    assert "turn" in rows["patience"]["actions"]
    actions = _cli("actions", "patience", "--json")
    assert actions.returncode == 0, actions.stderr
    table = {a["name"]: a for a in json.loads(actions.stdout)["actions"]["patience"]}
    assert table["turn"]["params"][1] == {
        "name": "count",
        "kind": "int",
        "default": 1,
        "doc": "how many cards to turn",
        "min": 1,
        "max": 52,
    }
    assert "patience" in _cli("rulesets").stdout
    covered = _cli("coverage", "tests/plugins", "--ruleset", "patience")
    assert covered.returncode == 0, covered.stdout + covered.stderr
    assert "4 rule ids (4 patience); 4 named by a scenario" in covered.stdout


def test_a_board_lays_out_its_mat_from_its_own_package(installed: None) -> None:
    """The board's page names no game: patience's mat comes with its rule set."""
    from starlette.testclient import TestClient

    from cardzones.web.app import create_app

    with TestClient(create_app("sqlite://")) as client:
        answer = client.get("/api/rulesets").json()
    (board,) = [r["board"] for r in answer["rulesets"] if r["name"] == "patience"]
    assert board["rows"] == ["stock waste foundation"]
    assert board["areas"] == {"stock": "stock", "waste": "waste", "foundation": "foundation"}


def test_its_deck_list_starts_as_its_stock(installed: None) -> None:
    """patience/stock: a deck list's cards start in the stock, in list order."""
    from cardzones.kernel import CardDef
    from cardzones.rulesets.base import DeckCard

    ruleset = get_ruleset("patience")
    game = new_game("patience", ["alice"])
    cards = [DeckCard(CardDef("Ace"), None, "main"), DeckCard(CardDef("Two"), None, "out")]
    where = ruleset.place_deck(game, "alice", cards)
    assert where.placed == [("alice.stock", 0)] and where.out == [1]


# ----------------------------------------------------------------------
# Its cards, its deck lists and its board, through its own package
# ----------------------------------------------------------------------

PACK = "name\tsuit\trank\n" + "".join(
    f"{rank.title()} of Hearts\thearts\t{n}\n"
    for n, rank in enumerate(("ace", "two", "three", "four"), 1)
)
STOCK = "# alice's stock, top first\nTwo of Hearts\nAce of Hearts\n2 Three of Hearts\n"


@pytest.fixture
def patience_cards(
    installed: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """A card index of its own with patience's cards, imported from a card
    pack in patience's own format, and a bad line skipped."""
    from cardzones.cards.importers import import_file
    from cardzones.cards.index import HOME_VARIABLE

    home = tmp_path / "home"
    monkeypatch.setenv(HOME_VARIABLE, str(home))
    pack = tmp_path / "hearts.tsv"
    pack.write_text(PACK + "Joker\tstars\t0\n", encoding="utf-8")
    report = import_file(pack, home=home)
    assert (report.ruleset, report.format, report.imported) == ("patience", "patience-pack", 4)
    assert [str(p) for p in report.problems] == ["line 6: stars is not a suit; skipped"]
    yield home


def test_its_cards_come_from_its_own_card_format(patience_cards: Path, tmp_path: Path) -> None:
    from cardzones.cards.importers import detect_format
    from cardzones.cards.index import card_games
    from cardzones.cards.lookup import CardLookup

    assert "patience" in card_games()
    assert detect_format(tmp_path / "hearts.tsv") == "patience-pack"
    with CardLookup("patience", patience_cards) as cards:
        three = cards.find("three of hearts").cdef
        assert three == CardDef("Three of Hearts", frozenset({"hearts"}), {"rank": 3})
        with pytest.raises(Exception, match="no patience card called 'Five of Hearts'"):
            cards.find("Five of Hearts")
    listed = _cli("cards", "status", "--json", home=patience_cards)
    assert listed.returncode == 0, listed.stderr
    (row,) = json.loads(listed.stdout)["games"]
    assert (row["ruleset"], row["format"], row["cards"]) == ("patience", "patience-pack", 4)


def test_its_deck_list_is_read_by_its_package_into_its_stock(
    patience_cards: Path, tmp_path: Path
) -> None:
    """patience/stock: a deck list is the stock, top first, in list order."""
    from cardzones.cards.decks import read_deck, scenario_data, start_position
    from cardzones.cards.errors import DeckListError

    path = tmp_path / "stock.txt"
    path.write_text(STOCK, encoding="utf-8")
    deck = read_deck(path, "patience")
    assert deck.ruleset == "patience"
    assert [(e.name, e.count, e.line) for e in deck.entries] == [
        ("Two of Hearts", 1, 2),
        ("Ace of Hearts", 1, 3),
        ("Three of Hearts", 2, 4),
    ]
    # Plain text could be a fab deck list too: without its game, it is not guessed.
    with pytest.raises(DeckListError, match="cannot tell which game's deck list it is"):
        read_deck(path)
    with pytest.raises(DeckListError, match="no card found"):
        get_ruleset("patience").read_deck_list("# nothing\n", "empty.txt")
    position = start_position(deck, "alice", home=patience_cards)
    assert [(p.zone, p.name) for p in position.cards] == [
        ("alice.stock", "Two of Hearts"),
        ("alice.stock", "Ace of Hearts"),
        ("alice.stock", "Three of Hearts"),
        ("alice.stock", "Three of Hearts"),
    ]
    scenario = scenario_data([position])
    assert scenario["card_data"] == "patience"
    assert scenario["steps"] == [{"expect": {"turn": 1}}]
    text = json.dumps({**scenario, "steps": [{"expect": {"zone": "alice.stock", "count": 4}}]})
    outcome = run_text(text, "stock.scenario.yaml")
    assert outcome.status == PASS, outcome.describe()
    printed = _cli("cards", "deck", str(path), "--ruleset", "patience", home=patience_cards)
    assert printed.returncode == 0, printed.stderr
    assert "alice.stock:" in printed.stdout and "card_data: patience" in printed.stdout


def test_a_table_from_its_deck_lists_shows_its_own_board(patience_cards: Path) -> None:
    """The board's layout and the deck lists' words come from its rule set,
    and a table starts from its deck lists with each stock in place."""
    from starlette.testclient import TestClient
    from tablekit import act, create, seated

    from cardzones.web.app import create_app

    with TestClient(create_app("sqlite://")) as client:
        answer = client.get("/api/rulesets").json()
        (row,) = [r for r in answer["rulesets"] if r["name"] == "patience"]
        assert row["deck_lists"] is True
        assert row["board"]["rows"] == ["stock waste foundation"]
        assert row["deck_list_example"] == get_ruleset("patience").deck_list_example
        body = {"ruleset": "patience", "seed": 3, "decks": {"alice": STOCK, "bob": STOCK}}
        created = create(client, body)
        with seated(client, created) as seats:
            view = seats["bob"].view
            stock = next(z for z in view["zones"] if z["zone"] == "alice.stock")
            assert stock["count"] == 4 and all(o == {"hidden": True} for o in stock["objects"])
            assert "ack" in act(seats, "alice", {"turn": {"count": 1}})
            waste = next(z for z in seats["bob"].view["zones"] if z["zone"] == "alice.waste")
            assert waste["count"] == 1 and waste["objects"][0]["name"].endswith("of Hearts")
        bad = client.post("/api/tables", json={**body, "decks": {"alice": "Ace of Clubs"}})
        assert bad.status_code == 400
        assert "no patience card called 'Ace of Clubs'" in bad.json()["error"]
