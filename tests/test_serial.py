"""Saving and loading a game: ``Game.to_json``, and ``load_game`` (which finds
the rule set the data names) with ``Game.from_json`` (which is given it).

The saved form is the full, secret-bearing state. Loading it must give back
every map of the state, card definitions with their abilities included, and
so the same views and logs for every player; saving the loaded game must give
the same data again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_noninterference import Harness, all_cards, harness_params, run_action

from cardzones import Game, load_game, new_game
from cardzones.kernel.cards import CardDef, Dest, HistoryCondition, PlayFrom, Replacement, Trigger
from cardzones.kernel.events import iter_log
from cardzones.kernel.serial import MAPS, SerialError
from cardzones.rulesets.redemption.cards import own_fields
from cardzones.scenario.runner import find_scenarios, run_file

ROOT = Path(__file__).resolve().parent.parent


def state_maps(game: Game) -> dict[str, Any]:
    """Every map of the state, with the log as a flat list (a long log nests
    too deep to compare as it is stored)."""
    out: dict[str, Any] = {}
    for name, stored in zip(MAPS, game._maps, strict=True):
        assert isinstance(stored, dict)
        m: dict[Any, Any] = dict(stored)
        if name == "vars":
            m["log"] = list(iter_log(m["log"]))
        out[name] = m
    return out


def round_trip(game: Game) -> Game:
    data = game.to_json()
    text = json.dumps(data)  # plain JSON, nothing else
    loaded = load_game(json.loads(text))
    assert loaded.to_json() == data
    return loaded


def assert_same_game(a: Game, b: Game) -> None:
    assert state_maps(a) == state_maps(b)
    assert (a.players, a.seed, a.ruleset.name) == (b.players, b.seed, b.ruleset.name)
    for player in (None, *a.players):
        assert a.view(player) == b.view(player)
        assert a.log(player) == b.log(player)


def _scenario_files() -> list[Path]:
    return sorted(find_scenarios([ROOT / "scenarios", ROOT / "cardzones" / "examples"]))


@pytest.mark.parametrize("path", _scenario_files(), ids=lambda p: p.name[:-14])
def test_every_scenario_game_round_trips(path: Path) -> None:
    outcome = run_file(path)
    if outcome.context is None:
        pytest.skip(f"{path.name} does not load: {outcome.message}")
    game = outcome.context.game
    assert_same_game(game, round_trip(game))


def test_card_definitions_with_abilities_round_trip() -> None:
    card = CardDef(
        "Everything",
        types=frozenset({"action", "attack", "aura"}),
        stats={"power": 6, "defense": 2},
        keywords=frozenset({"go_again"}),
        abilities=(
            Replacement("graveyard", None, Dest("deck", "owner"), "bottom", None),
            Replacement("graveyard", "hand", Dest("banished", "owner"), "top", "up"),
            PlayFrom("banished", True, HistoryCondition("hand", "banished", True)),
            Trigger(
                to="graveyard",
                from_="arena",
                types_any=frozenset({"aura", "ally"}),
                controlled_by_you=True,
                do=Dest("soul", "you"),
            ),
        ),
    )
    game = new_game("fab", ("alice", "bob"), seed=3)
    zid = game.zone("alice", "permanent")
    assert zid is not None
    held = game.new_card(card, zid, owner="alice")
    loaded = round_trip(game)
    assert loaded.obj(held).cdef == card
    assert loaded.obj(held).cdef.triggers[0].types_any == frozenset({"aura", "ally"})
    assert loaded.obj(held).cdef.abilities == card.abilities


def test_a_game_saved_before_cards_had_extra_loads_with_the_same_views() -> None:
    """A card's own fields were once three fields of the card itself
    (``brigades``, ``classes``, ``alignment``): a game saved then loads, with
    those fields in ``extra`` and every view as it was."""
    game = new_game("redemption", ("alice", "bob"), seed=4)
    hand = game.zone("alice", "hand")
    assert hand is not None
    extra = own_fields({"blue", "gold"}, {"territory"}, "good")
    card = game.new_card(CardDef("Samson", frozenset({"hero"}), extra=extra), hand)
    plain = game.new_card(CardDef("Plain", frozenset({"site"})), hand)
    data = game.to_json()
    old = json.loads(json.dumps(data))
    records = [r for r in old["shared"] if r["class"].endswith(":CardDef")]
    assert len(records) == 2
    for record in records:
        fields = record["fields"]
        kept = dict(fields.pop("extra")["items"])
        fields["brigades"] = kept.get("brigade", {"$": "frozenset", "items": []})
        fields["classes"] = kept.get("class", {"$": "frozenset", "items": []})
        fields["alignment"] = kept.get("alignment")
    assert all("extra" not in r["fields"] for r in records)
    loaded = load_game(old)
    assert loaded.obj(card).cdef == game.obj(card).cdef
    assert loaded.obj(plain).cdef.extra == {}
    assert loaded.view("alice") == game.view("alice")
    assert loaded.to_json() == data


def test_a_loaded_game_has_no_undo_history_and_plays_on_the_same() -> None:
    game = new_game("fab", ("alice", "bob"), seed=11)
    deck = game.zone("alice", "deck")
    hand = game.zone("alice", "hand")
    assert deck is not None and hand is not None
    for i in range(6):
        game.new_card(CardDef(f"C{i}", types=frozenset({"action"})), deck)
    game.shuffle(deck)
    loaded = round_trip(game)
    assert game.can_undo() and not loaded.can_undo()
    for g in (game, loaded):
        g.shuffle(deck)
        g.move(g.contents(deck)[0], hand)
        g.end_turn()
    assert_same_game(game, loaded)


def test_loading_refuses_classes_outside_cardzones() -> None:
    data = new_game("fab").to_json()
    data["state"]["rules"] = {
        "$": "dict",
        "items": [[1, {"$": "record", "class": "os:sep", "fields": {}}]],
    }
    with pytest.raises(SerialError, match="not a cardzones class"):
        load_game(data)
    with pytest.raises(SerialError):
        load_game({"format": "something else"})


@pytest.mark.parametrize("harness", harness_params())
@given(data=st.data())
def test_random_games_round_trip(harness: Harness, data: st.DataObject) -> None:
    game = harness.build(data.draw(harness.setup, label="setup"))
    for action in data.draw(st.lists(harness.action, max_size=25), label="actions"):
        game, _ = run_action(harness, game, action)
    assert all_cards(game) == all_cards(round_trip(game))
    assert_same_game(game, round_trip(game))
