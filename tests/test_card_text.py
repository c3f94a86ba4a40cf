"""A card's rules text and picture address: read from each card database
into the card index, printed by ``cardzones cards show``, kept by a table's
creation record, and shown in views to a viewer who may look at the card;
a hidden card shows nothing of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from schemas import check_view
from typer.testing import CliRunner

from cardzones.cards.index import HOME_VARIABLE
from cardzones.cli import app
from cardzones.kernel.views import view
from cardzones.scenario.runner import PASS, run_text
from cardzones.table.creation import creation_from_request

FIXTURES = Path(__file__).parent / "fixtures" / "cards"
DAWNBLADE_TEXT = "A text written for the tests: a sword that grows when it hits."
DAWNBLADE_IMAGE = "https://images.example.org/fab/1HP143.webp"


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "home"))
    return CliRunner()


def cards(runner: CliRunner, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["cards", *args])
    assert "Traceback" not in result.output
    return result.exit_code, " ".join(result.output.split())


def test_cards_show_prints_the_rules_text_of_each_database(runner: CliRunner) -> None:
    for name in ("fab-card.json", "redemption-carddata.txt"):
        assert cards(runner, "import", str(FIXTURES / name))[0] == 0
    code, out = cards(runner, "show", "Dawnblade")
    assert code == 0
    assert f"text {DAWNBLADE_TEXT}" in out and f"image address {DAWNBLADE_IMAGE}" in out
    code, out = cards(runner, "show", "Dawnblade", "--json")
    (card,) = json.loads(out)
    assert card["card"]["text"] == DAWNBLADE_TEXT and card["card"]["image"] == DAWNBLADE_IMAGE
    code, out = cards(runner, "show", "David, Giant Slayer [K]")
    assert code == 0 and "text A text written for the tests: a hero who fells giants." in out
    # A Redemption picture is where LackeyCCG takes it from: its ImageFile.
    lackey = "https://jalstad.github.io/RedemptionLackeyCCG/RedemptionQuick/sets/setimages/general/"
    assert "K14-David-Giant-Slayer.jpg" in out.replace(" ", "")
    code, out = cards(runner, "show", "David, Giant Slayer [K]", "--json")
    (card,) = json.loads(out)
    assert card["card"]["image"] == f"{lackey}K14-David-Giant-Slayer.jpg"
    code, out = cards(runner, "show", "Edge of Autumn", "--json")
    (card,) = json.loads(out)
    assert "text" not in card["card"] and "image" not in card["card"]  # none in the fixture
    # The CSV form of the fab database has the text too.
    assert cards(runner, "import", str(FIXTURES / "fab-card.csv"))[0] == 0
    code, out = cards(runner, "show", "Steelblade Supremacy")
    assert code == 0 and "text A text written for the tests: weapon attacks get stronger." in out


def _objects(game: Any, viewer: str | None, zone: str) -> list[dict[str, Any]]:
    data = json.loads(json.dumps(view(game, viewer)))
    check_view(data)
    found: list[dict[str, Any]] = next(z for z in data["zones"] if z["zone"] == zone)["objects"]
    return found


def test_views_show_the_text_and_image_of_a_card_the_viewer_may_look_at(
    runner: CliRunner,
) -> None:
    assert cards(runner, "import", str(FIXTURES / "fab-card.json"))[0] == 0
    outcome = run_text(
        "name: t\nruleset: fab\ncard_data: fab\n"
        "setup:\n  alice.weapon: [Dawnblade]\n  alice.hand: [Steelblade Supremacy]\n"
        "steps:\n  - expect: {zone: alice.hand, count: 1}\n"
    )
    assert outcome.status == PASS, outcome.describe()
    game = outcome.context.game
    for viewer in ("alice", "bob", None):
        (blade,) = _objects(game, viewer, "alice.weapon.1")
        assert blade["text"] == DAWNBLADE_TEXT and blade["image"] == DAWNBLADE_IMAGE
        assert blade["name"] == "Dawnblade" and "sword" in blade["types"] and blade["power"] == 3
    assert _objects(game, "alice", "alice.hand")[0]["name"] == "Steelblade Supremacy"
    # A hidden card is its back alone: no name, no text, no image.
    assert _objects(game, "bob", "alice.hand") == [{"hidden": True}]
    assert _objects(game, None, "alice.hand") == [{"hidden": True}]


def test_a_tables_card_data_keeps_text_and_drops_every_picture_a_body_gives() -> None:
    body: dict[str, Any] = {
        "ruleset": "redemption",
        "players": ["alice", "bob"],
        "cards": {
            "Samson": {
                "type": "hero",
                "brigade": "blue",
                "strength": 8,
                "toughness": 6,
                "text": "Holds the gates.",
                "image": "https://images.example.org/samson.jpg",
            }
        },
        "setup": {"alice.territory": ["Samson"]},
    }
    game = creation_from_request(body).build().game
    (samson,) = _objects(game, "bob", "alice.territory")
    assert samson["text"] == "Holds the gates."
    # A picture's address comes only from the server's card index, never from
    # a creation body: another seat's board would load it (a beacon).
    assert "image" not in samson
    body["cards"]["Samson"]["image"] = "javascript:alert(1)"
    game = creation_from_request(body).build().game
    (samson,) = _objects(game, "bob", "alice.territory")
    assert "image" not in samson
