"""Action tables: one per rule set, read by everything that runs actions, and
the one binder that checks and resolves their arguments."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from cardzones import Game, MoveResult, get_ruleset, new_game, ruleset_names
from cardzones.acts import (
    END_TURN,
    FLIP,
    SHUFFLE,
    Action,
    ActionResult,
    ArgumentError,
    BoundAction,
    OneOf,
    Param,
    ParamKind,
    Role,
    action_table,
    bind,
    move_action,
)
from cardzones.kernel.cards import CardDef, Dest
from cardzones.scenario.runner import INVALID, run_text

K = ParamKind
SHIPPED = ("fab", "redemption")


class Names:
    """A resolver that takes plain names: ``card:N`` is card N, a zone is
    ``zone:N``, a destination its type."""

    def card(self, value: Any) -> int:
        if not isinstance(value, str) or not value.startswith("card:"):
            raise ArgumentError(f"{value!r} is not a card")
        return int(value[5:])

    def zone(self, value: Any) -> int:
        if not isinstance(value, str) or not value.startswith("zone:"):
            raise ArgumentError(f"{value!r} is not a zone")
        return int(value[5:])

    def dest(self, value: Any) -> Dest:
        return Dest(str(value))

    def zone_name(self, value: Any) -> Dest:
        owner, _, ztype = str(value).partition(".")
        return Dest(ztype, owner)

    def player(self, value: Any) -> str:
        if value not in ("alice", "bob"):
            raise ArgumentError(f"{value!r} is not a player")
        return str(value)

    def card_def(self, name: str) -> CardDef:
        return CardDef(name)

    def effect(self, label: Any) -> Any:
        return ("effect", label)


def _done(game: Game, args: Mapping[str, Any]) -> ActionResult:
    return ActionResult(MoveResult.DONE)


BONUS = Param(
    "bonus",
    K.MAPPING,
    fields=(
        Param("card", K.CARD, required=True),
        Param("strength", K.DELTA),
        Param("toughness", K.DELTA),
    ),
    one_of=(OneOf(("strength", "toughness")),),
)
SAMPLE = Action(
    "sample",
    (
        Param("cards", K.CARDS, required=True),
        Param("onto", K.CARD),
        Param("in", K.DEST),
        Param("position", K.POSITION, default="top"),
        Param("face", K.CHOICE, options=("up", "down")),
        Param("by", K.PLAYER),
        Param("times", K.INT),
        Param("power", K.DELTA),
        Param("colon", K.BOOL, default=False),
        Param("keyword", K.WORD),
        Param("types", K.WORDS),
        Param("token", K.NAME),
        Param("effect", K.EFFECT),
        Param("area", K.ZONE),
        Param("zone", K.ZONE_NAME),
        BONUS,
        Param("then", K.ACTION),
    ),
    _done,
    one_of=(OneOf(("onto", "in"), exactly=True),),
)
TABLE = action_table(SAMPLE, FLIP, SHUFFLE, END_TURN)


def bound(**raw: Any) -> dict[str, Any]:
    return bind(SAMPLE, raw, Names(), table=TABLE, reserved=frozenset({"as"}))


def refused(**raw: Any) -> ArgumentError:
    with pytest.raises(ArgumentError) as info:
        bound(**raw)
    return info.value


def test_the_binder_resolves_every_kind() -> None:
    args = bound(
        cards=["card:1", "card:2"],
        onto="card:3",
        position=2,
        face="down",
        by="bob",
        times=3,
        power="+2",
        colon=True,
        keyword=" Go_Again ",
        types=["attack reaction", "Aura"],
        token="Quicken",
        effect="e1",
        area="zone:4",
        zone="alice.arsenal",
        bonus={"card": "card:5", "toughness": -1},
        then={"flip": {"face": "up"}},
        **{"as": "label"},
    )
    assert args["cards"] == (1, 2) and args["onto"] == 3 and args["in"] is None
    assert (args["position"], args["face"], args["by"], args["times"]) == (2, "down", "bob", 3)
    assert (args["power"], args["colon"], args["keyword"]) == (2, True, "go_again")
    assert args["types"] == ("attack_reaction", "aura")
    assert args["token"] == CardDef("Quicken") and args["effect"] == ("effect", "e1")
    assert args["area"] == 4 and args["zone"] == Dest("arsenal", "alice")
    assert args["bonus"] == {"card": 5, "strength": None, "toughness": -1}
    assert args["then"] == BoundAction(FLIP, {"face": "up", "by": None})
    assert "as" not in args


def test_left_out_parameters_take_their_defaults() -> None:
    args = bound(cards="card:9", **{"in": "hand"})
    assert args["cards"] == (9,) and args["in"] == Dest("hand")
    assert args["position"] == "top" and args["colon"] is False and args["bonus"] is None


@pytest.mark.parametrize(
    "raw,path,message",
    [
        ({"cards": ["card:1"], "onto": "card:2", "bogus": 1}, ("bogus",), "unknown key 'bogus'"),
        ({"onto": "card:2"}, ("cards",), "sample needs cards:"),
        ({"cards": ["card:1"]}, (), "exactly one of onto: and in:"),
        ({"cards": ["card:1"], "onto": "card:2", "in": "x"}, ("in",), "exactly one of"),
        ({"cards": ["card:1", "x"], "onto": "card:2"}, ("cards", 1), "'x' is not a card"),
        ({"cards": ["card:1", "card:1"], "onto": "card:2"}, ("cards",), "the same card twice"),
        ({"cards": [], "onto": "card:2"}, ("cards",), "a list of cards"),
        ({"cards": "card:1", "onto": "card:2", "position": -1}, ("position",), "0 or more"),
        ({"cards": "card:1", "onto": "card:2", "face": "left"}, ("face",), "one of up, down"),
        ({"cards": "card:1", "onto": "card:2", "times": True}, ("times",), "a whole number"),
        ({"cards": "card:1", "onto": "card:2", "power": "+x"}, ("power",), "such as +2"),
        ({"cards": "card:1", "onto": "card:2", "colon": "yes"}, ("colon",), "true or false"),
        ({"cards": "card:1", "onto": "card:2", "types": [1]}, ("types",), "a list of words"),
        ({"cards": "card:1", "onto": "card:2", "by": "zed"}, ("by",), "not a player"),
        (
            {"cards": "card:1", "onto": "card:2", "bonus": {"strength": 1}},
            ("bonus", "card"),
            "bonus needs card:",
        ),
        (
            {"cards": "card:1", "onto": "card:2", "bonus": {"card": "x", "strength": 1}},
            ("bonus", "card"),
            "'x' is not a card",
        ),
        (
            {"cards": "card:1", "onto": "card:2", "bonus": {"card": "card:3"}},
            ("bonus",),
            "at least one of strength, toughness",
        ),
        (
            {"cards": "card:1", "onto": "card:2", "then": {"shuffle": {}}},
            ("then", "shuffle"),
            "then: takes an action on the card (flip), not 'shuffle'",
        ),
        (
            {"cards": "card:1", "onto": "card:2", "then": {"flip": {"card": "card:1"}}},
            ("then", "flip", "card"),
            "leave out card:",
        ),
        (
            {"cards": "card:1", "onto": "card:2", "then": {"flip": {"face": "x"}}},
            ("then", "flip", "face"),
            "one of up, down",
        ),
        (
            {"cards": "card:1", "onto": "card:2", "then": {"flip": {}, "move": {}}},
            ("then",),
            "exactly one action",
        ),
    ],
)
def test_a_bad_argument_names_its_key_and_what_is_allowed(
    raw: dict[str, Any], path: tuple[Any, ...], message: str
) -> None:
    error = refused(**raw)
    assert error.path == path
    assert message in error.message


def test_an_unknown_key_lists_the_allowed_ones_with_the_callers() -> None:
    error = refused(cards="card:1", onto="card:2", bogus=1)
    # The caller's reserved key (as) is allowed too.
    assert "allowed: area, as, bonus, by, cards, colon" in error.message


def test_an_action_is_checked_when_it_is_made() -> None:
    with pytest.raises(ValueError, match="no parameter 'who'"):
        Action("x", (Param("by", K.PLAYER),), _done, actor="who")
    with pytest.raises(ValueError, match="must be a PLAYER"):
        Action("x", (Param("by", K.INT),), _done)
    with pytest.raises(ValueError, match="twice"):
        Action("x", (Param("a", K.INT), Param("a", K.INT)), _done, actor=None)
    with pytest.raises(ValueError, match="no parameter 'b'"):
        Action("x", (Param("a", K.INT),), _done, actor=None, one_of=(OneOf(("a", "b")),))


def test_a_card_parameter_is_one_the_actor_acts_on_unless_it_says_otherwise() -> None:
    assert Param("card", K.CARD).role is Role.ACTS_ON
    assert Param("cards", K.CARDS).role is Role.ACTS_ON
    assert Param("onto", K.CARD, role=Role.TARGET).role is Role.TARGET
    assert Param("zone", K.ZONE).role is None
    assert Param("times", K.INT).role is None


@pytest.mark.parametrize(
    ("kind", "role"),
    [
        (K.INT, Role.TARGET),
        (K.ZONE, Role.ACTS_ON),
        (K.CARD, Role.OWN_ZONE),
        (K.DEST, Role.OWN_ZONE),
        (K.CARD, Role.ANY_PLAYER),
    ],
)
def test_a_role_is_for_the_kinds_it_describes(kind: ParamKind, role: Role) -> None:
    with pytest.raises(ValueError, match="the role"):
        Param("x", kind, role=role)


def test_only_the_actor_takes_a_player_role() -> None:
    chosen = Param("controller", K.PLAYER, role=Role.ANY_PLAYER)
    assert Action("x", (chosen,), _done, actor="controller").param("controller") is chosen
    with pytest.raises(ValueError, match="only the actor"):
        Action("x", (Param("by", K.PLAYER), chosen), _done)


def test_roles_and_the_turn_player_flag_are_in_the_json_form() -> None:
    action = Action(
        "x",
        (Param("card", K.CARD), Param("onto", K.CARD, role=Role.TARGET), Param("n", K.INT)),
        _done,
        actor=None,
        turn_player=True,
    )
    data = action.to_json()
    assert [p.get("role") for p in data["params"]] == ["acts_on", "target", None]
    assert data["turn_player"] is True
    assert "turn_player" not in SHUFFLE.to_json()
    assert END_TURN.to_json()["turn_player"] is True
    assert SHUFFLE.param("zone").role is Role.OWN_ZONE


def test_the_binder_keeps_an_errors_class_when_it_adds_the_path() -> None:
    class Mine(ArgumentError):
        pass

    class Refusing(Names):
        def card(self, value: Any) -> int:
            raise Mine("not here")

    with pytest.raises(Mine) as caught:
        bind(FLIP, {"card": "card:1", "face": "up"}, Refusing())
    assert caught.value.path == ("card",) and caught.value.message == "not here"


def test_a_later_action_replaces_one_of_the_same_name() -> None:
    mine = move_action(doc="mine")
    table = action_table(move_action(), SHUFFLE, mine)
    assert list(table) == ["move", "shuffle"] and table["move"] is mine


@pytest.mark.parametrize("name", SHIPPED)
def test_each_shipped_rule_set_has_one_table_with_the_shared_actions(name: str) -> None:
    table = get_ruleset(name).actions
    for shared in ("move", "draw", "shuffle", "flip", "modify", "grant", "end_turn"):
        assert shared in table
        assert table[shared].candidates is not None, f"{shared} lists no candidates"
    # the kernel's own actions, with the rule set's candidates for legal actions
    assert replace(table["shuffle"], candidates=None) == SHUFFLE
    # the rule set's candidates for flip say they never repeat (Action.distinct)
    assert table["flip"].distinct
    assert replace(table["flip"], candidates=None, distinct=False) == FLIP
    for action in table.values():
        assert action.to_json()["name"] == action.name


@pytest.mark.parametrize("name", SHIPPED)
def test_the_rule_ids_an_action_names_are_the_rule_sets(name: str) -> None:
    ruleset = get_ruleset(name)
    named = {rule for action in ruleset.actions.values() for rule in action.rules}
    assert named, f"{name} names no rule in its table"
    assert named <= set(ruleset.rules), named - set(ruleset.rules)


def test_every_installed_rule_set_has_a_valid_table() -> None:
    for name in ruleset_names():
        for key, action in get_ruleset(name).actions.items():
            assert key == action.name


def test_the_table_runs_without_the_scenario_layer() -> None:
    """A table server binds with its own resolver and runs the same actions."""
    game = new_game("fab", ["alice", "bob"])
    card = game.new_card(game.card_def("Snatch"), game.zone("alice", "deck") or 0)
    hand = game.zone("alice", "hand")

    class Server(Names):
        def dest(self, value: Any) -> Dest:
            owner, _, ztype = str(value).partition(".")
            return Dest(ztype, owner)

    move = game.ruleset.actions["move"]
    args = bind(move, {"card": f"card:{card}", "to": "alice.hand", "by": "alice"}, Server())
    assert move.run(game, args) == ActionResult(MoveResult.MOVED)
    assert game.location(card) == hand
    game.undo()
    assert game.location(card) == game.zone("alice", "deck")


def test_scenario_errors_from_the_binder_say_file_line_and_key() -> None:
    text = (
        "name: x\nruleset: redemption\nsetup: {alice.territory: [{card: G, as: g}]}\n"
        "steps:\n"
        "  - set_aside:\n"
        "      cards: [$g]\n"
        "      ongoing:\n"
        "        card: $nobody\n"
        "        strength: +1\n"
    )
    outcome = run_text(text, "x.scenario.yaml")
    assert outcome.status == INVALID
    assert outcome.line == 8
    assert "unknown label $nobody" in outcome.message


@pytest.mark.parametrize("name", SHIPPED)
def test_every_action_of_a_shipped_rule_set_lists_its_candidates(name: str) -> None:
    """Legal actions are built from each action's candidates: none is left out."""
    missing = [a.name for a in get_ruleset(name).actions.values() if a.candidates is None]
    assert missing == []
