"""Tables under fab's game procedure: a table made from deck lists, or from a
written start position that asks for it (``procedure``), plays under it; the
record keeps it, so the game it builds again is the same; and what every
seat is offered and shown follows the procedure (4.1.9, 1.11.2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardzones.table.creation import CreationError, build, creation_from_request
from cardzones.table.record import Record

DECKS = Path(__file__).parent / "fixtures" / "decks"
DORINTHEA = (DECKS / "dorinthea.fabrary.txt").read_text(encoding="utf-8")
AZALEA = (DECKS / "azalea.txt").read_text(encoding="utf-8")


def test_a_table_from_deck_lists_plays_under_the_procedure() -> None:
    body = {
        "ruleset": "fab",
        "decks": {"alice": DORINTHEA, "bob": AZALEA},
        "seed": 7,
        "procedure": {"first": "bob"},
    }
    record = creation_from_request(body)
    assert record.procedure == "bob"
    game = build(record).game
    # 4.1.9: both players drew up to intellect; bob begins with priority.
    for player in ("alice", "bob"):
        assert len(game.contents(game.zone(player, "hand"))) == 4  # type: ignore[arg-type]
    shown = game.view("alice")["procedure"]
    assert shown["priority"] == "bob" and shown["action_points"] == {"alice": 0, "bob": 1}
    assert game.view("bob")["procedure"] == shown == game.view(None)["procedure"]
    # 1.11.2: only bob is offered anything, and only the procedure's acts.
    assert game.legal_actions("alice") == []
    names = {a.name for a in game.legal_actions("bob")}
    assert "pass" in names and names <= {"pass", "play", "attack", "concede"}
    # Moves by hand stay available as a judge's actions.
    assert "move" in {a.name for a in game.legal_actions("alice", judge=True)}
    assert "move" in {a.name for a in game.legal_actions("bob", actions=["move"])}
    # The record keeps the procedure, and builds the same game again.
    again = Record.from_json(record.to_json())
    assert again.procedure == "bob"
    assert build(again).game.same_state(game)


def test_a_written_start_position_asks_for_the_procedure() -> None:
    text = (
        "ruleset: fab\nprocedure: true\nseed: 3\ncards:\n"
        "  Dorinthea Ironsong: {types: [hero, warrior], life: 40, intellect: 4}\n"
        "  Bravo: {types: [hero, guardian], life: 40, intellect: 4}\n"
        "setup:\n  alice.hero: [Dorinthea Ironsong]\n  bob.hero: [Bravo]\n"
        "  alice.deck: [A, B, C, D, E]\n  bob.deck: [F, G, H, I, J]\n"
    )
    record = creation_from_request({"scenario": text})
    assert record.procedure == ""
    game = build(record).game
    assert game.view(None)["procedure"]["first_player"] == game.turn_player


def test_deck_lists_run_the_procedure_unless_told_not_to() -> None:
    """A table made from deck lists is for playing a game: left out, the
    procedure runs (its first player the secret seed's choice); with
    ``"procedure": false`` the table plays by hand, as a judge's does."""
    body = {"ruleset": "fab", "decks": {"alice": DORINTHEA, "bob": AZALEA}, "seed": 7}
    record = creation_from_request(body)
    assert record.procedure == ""
    game = build(record).game
    assert game.view("alice")["procedure"]["first_player"] in ("alice", "bob")
    for player in ("alice", "bob"):  # 4.1.9: each drew up to intellect
        assert len(game.contents(game.zone(player, "hand"))) == 4  # type: ignore[arg-type]
    record = creation_from_request({**body, "procedure": False})
    assert record.procedure is None
    game = build(record).game
    assert "procedure" not in game.view("alice")
    assert not game.contents(game.zone("alice", "hand"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "error"),
    [
        ({"first": "carol"}, "first: names a player"),
        ("yes", "procedure: is true, false or {first: PLAYER}"),
    ],
)
def test_a_bad_procedure_is_refused(value: object, error: str) -> None:
    body = {
        "ruleset": "fab",
        "seed": 1,
        "setup": {"alice.hero": ["Dorinthea Ironsong"]},
        "cards": {"Dorinthea Ironsong": {"types": ["hero"], "life": 40, "intellect": 4}},
        "procedure": value,
    }
    with pytest.raises(CreationError, match=error.replace("{", r"\{").replace("}", r"\}")):
        creation_from_request(body)


def test_a_procedure_without_a_hero_is_refused() -> None:
    body = {"ruleset": "fab", "seed": 1, "setup": {"alice.deck": ["A"]}, "procedure": True}
    with pytest.raises(CreationError, match="procedure"):
        creation_from_request(body)


def test_a_link_names_its_cards_as_every_view_does_and_a_listed_act_is_sent_as_listed() -> None:
    """A chain link names its attack by the id every view gives the card on
    the combat chain (7.0.3), not by an id no view shows; and the legal acts
    that pitch nothing or declare no defending card leave the list out, so
    that each is taken as it is listed (1.14.3, 7.3.2a)."""
    text = (
        "ruleset: fab\nprocedure: {first: alice}\nseed: 3\ncards:\n"
        "  Dorinthea: {types: [hero, warrior], life: 20, intellect: 4}\n"
        "  Bravo: {types: [hero, guardian], life: 20, intellect: 4}\n"
        "  Dawnblade: {types: [warrior, weapon, sword, 2h], power: 3,"
        ' text: "Once per Turn Action - {r}: Attack"}\n'
        "  Ore: {types: [generic, action], pitch: 3, cost: 0, defense: 2}\n"
        "setup:\n  alice.hero: [Dorinthea]\n  bob.hero: [Bravo]\n  alice.weapon: [Dawnblade]\n"
        "  alice.hand: [Ore]\n  bob.hand: [Ore]\n"
    )
    game = build(creation_from_request({"scenario": text})).game
    attack = next(a for a in game.legal_actions("alice") if a.name == "attack")
    game.act("attack", **attack.bound)
    for player in ("alice", "bob", "alice", "bob"):
        game.act("pass", by=player)
    # the defend step: bob may declare Ore or nothing, the nothing with no list
    declared = [a.args for a in game.legal_actions("bob") if a.name == "defend"]
    assert declared[0].get("cards") is None and len(declared) == 2
    for viewer in ("alice", "bob", None):
        view = game.view(viewer)
        (chain,) = [z for z in view["zones"] if z["zone"] == "combat_chain"]
        (link,) = view["procedure"]["links"]
        assert link["attack"] == chain["objects"][0]["id"]
