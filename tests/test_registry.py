"""The rule set registry (above the kernel), saved games found through it, and
the parts of the kernel's public surface that rule sets build on: nested
actions, the record store, moves inside an action."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from cardzones import (
    Game,
    IllegalAction,
    MoveResult,
    Ruleset,
    RulesetError,
    UnknownReference,
    ZoneSpec,
    get_ruleset,
    load_game,
    new_game,
    register_ruleset,
    ruleset_names,
    unregister_ruleset,
)
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.serial import SerialError
from cardzones.rulesets.registry import GROUP


class Blank(Ruleset):
    """A rule set with one zone type."""

    name = "blank"
    zone_specs = MappingProxyType({"pile": ZoneSpec("pile", public=True, ordered=True)})


def test_the_shipped_rule_sets_are_found_through_their_entry_points() -> None:
    from importlib.metadata import entry_points

    names = {ep.name for ep in entry_points(group=GROUP)}
    assert {"fab", "redemption"} <= names
    assert {"fab", "redemption"} <= set(ruleset_names())
    assert get_ruleset("fab") is get_ruleset("fab")  # made once, shared by its games


def test_an_unknown_rule_set_is_refused_with_the_names_there_are() -> None:
    with pytest.raises(
        UnknownReference, match="unknown ruleset 'chess'; use one of fab, redemption"
    ):
        new_game("chess")


def test_register_and_unregister() -> None:
    made = register_ruleset(Blank)
    try:
        assert "blank" in ruleset_names() and get_ruleset("blank") is made
        game = new_game("blank", ["alice"])
        assert game.zone_name(game.zone("alice", "pile") or 0) == "alice.pile"
        with pytest.raises(RulesetError, match="registered already"):
            register_ruleset(Blank())
        assert register_ruleset(Blank(), replace=True) is not made
    finally:
        unregister_ruleset("blank")
    assert "blank" not in ruleset_names()
    with pytest.raises(UnknownReference):
        get_ruleset("blank")


def test_a_broken_registration_is_refused_clearly() -> None:
    with pytest.raises(RulesetError, match="not a cardzones Ruleset"):
        register_ruleset(lambda: 5)  # type: ignore[arg-type, return-value]
    with pytest.raises(RulesetError, match="could not make its rule set: boom"):
        register_ruleset(lambda: (_ for _ in ()).throw(RuntimeError("boom")))  # type: ignore[arg-type]
    with pytest.raises(RulesetError, match="a name of its own"):
        register_ruleset(Ruleset)


def test_a_saved_game_is_loaded_through_the_registry() -> None:
    game = new_game("redemption", seed=4)
    data = game.to_json()
    assert load_game(data).same_state(game)
    # The kernel knows no rule set by name: it is given the rule set.
    assert Game.from_json(data, get_ruleset("redemption")).same_state(game)
    with pytest.raises(SerialError, match=r"use cardzones\.load_game"):
        Game.from_json(data)
    with pytest.raises(SerialError, match="a redemption game, not fab"):
        Game.from_json(data, get_ruleset("fab"))
    data["ruleset"] = "chess"
    with pytest.raises(UnknownReference, match="unknown ruleset 'chess'"):
        load_game(data)


def test_nested_actions_are_one_action_to_undo() -> None:
    """A block inside another is part of it: undo takes back the whole, and a
    refused inner block rolls back to where it began."""
    game = new_game("fab", ["alice", "bob"])
    deck, hand = game.zone("alice", "deck"), game.zone("alice", "hand")
    assert deck is not None and hand is not None
    a, b, c = (game.new_card(CardDef(n, frozenset({"action"})), deck) for n in "ABC")
    game.forget_history()
    before = game.copy()
    with game.atomic():
        game.move(a, hand)
        with game.atomic():
            game.move(b, hand)
        try:
            with game.atomic():
                game.move(c, hand)
                raise IllegalAction("changed my mind")
        except IllegalAction:
            pass
    assert game.contents(hand) == (a, b) and game.location(c) == deck
    game.undo()
    assert game.same_state(before) and not game.can_undo()


def test_a_move_inside_an_action_is_a_step_of_it() -> None:
    game = new_game("fab", ["alice", "bob"])
    deck = game.zone("alice", "deck")
    assert deck is not None
    card = game.new_card(CardDef("A", frozenset({"action"})), deck)
    game.forget_history()
    with pytest.raises(IllegalAction), game.atomic():
        assert game.move(card, Dest("graveyard", "owner")) is MoveResult.MOVED
        game.flip(card, "down")
        raise IllegalAction("refused after the move")
    assert game.location(card) == deck and not game.can_undo()


def test_the_record_store_is_journaled() -> None:
    game = new_game("fab", ["alice", "bob"])
    with game.atomic():
        game.records.put("k", (1, 2))
    copy = game.copy()
    with game.atomic():
        game.records.pop("k")
    assert "k" not in game.records and copy.records.get("k") == (1, 2)
    game.undo()
    assert game.records.get("k") == (1, 2) and list(game.records) == ["k"]
