"""Redemption's game procedure as a whole: its acts are judged by the plan
they apply (legal actions, judged, equal legal actions, tried), it keeps its
state through undo, copies, saving and loading, every seat's view shows it
without a hidden card, and a player's list tells them nothing their view
does not."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import yaml
from schemas import check_view
from test_noninterference import trade_places
from test_redemption_playout import _game

from cardzones.acts.legal import tried_legal_actions
from cardzones.errors import IllegalAction
from cardzones.kernel.game import Game
from cardzones.rulesets.redemption.procedure.acts import PROCEDURE_NAMES
from cardzones.rulesets.redemption.procedure.state import current


def _said(game: Game, actions: Any) -> list[Any]:
    return [(a.to_json(game), a.result) for a in actions]


def _positions(seed: int, steps: int) -> list[Game]:
    """Copies of a game after each of ``steps`` uniformly random legal acts."""
    game, rng = _game(seed), random.Random(seed)
    out = [game.copy()]
    for _ in range(steps):
        acts = [a for p in game.players for a in game.legal_actions(p)]
        if not acts:
            break
        rng.choice(acts).apply(game)
        out.append(game.copy())
    return out


@pytest.mark.parametrize("seed", range(3))
def test_each_listed_act_is_a_plan_that_its_apply_carries_out(seed: int) -> None:
    """Judging each act by its plan lists what trying each act lists: the plan
    and the apply are one rule, not two."""
    for game in _positions(seed, 40):
        before = game.copy()
        for player in game.players:
            judged = game.legal_actions(player)
            tried = tried_legal_actions(game, player, PROCEDURE_NAMES)
            assert _said(game, judged) == _said(game, tried)
        # judging is pure: the plans changed nothing
        assert before.same_state(game)


def test_only_the_procedures_acts_are_offered_and_a_judge_has_the_rest() -> None:
    game = _game(0)
    assert {a.name for a in game.legal_actions("alice")} == {"open_game"}
    assert game.legal_actions("bob") == []
    judged = {a.name for a in game.legal_actions("alice", judge=True)}
    assert {"open_game", "move", "draw"} <= judged
    # asked for by name, as a judge's action is
    assert {a.name for a in game.legal_actions("alice", actions=["draw"])} == {"draw"}


@pytest.mark.parametrize("seed", range(3))
def test_every_view_shows_the_procedure_without_a_hidden_card(seed: int) -> None:
    for game in _positions(seed, 60):
        for viewer in (None, *game.players):
            view = json.loads(json.dumps(game.view(viewer)))
            check_view(view)
            shown = {o["id"] for z in view["zones"] for o in z["objects"] if not o.get("hidden")}
            battle = view["procedure"]["battle"]
            if battle is None:
                continue
            ids = [c["id"] for c in (*battle["heroes"], *battle["blockers"])]
            ids += [e["id"] for e in battle["enhancements"]]
            ids += [battle["soul"]["id"]] if battle["soul"] else []
            assert set(ids) <= shown
        # the procedure is public: every seat sees the same account of it
        names = [
            {k: v for k, v in game.view(p)["procedure"].items() if k != "battle"}
            for p in game.players
        ]
        assert all(n == names[0] for n in names)


@pytest.mark.parametrize("seed", range(3))
def test_a_players_acts_do_not_depend_on_cards_hidden_from_them(seed: int) -> None:
    """Two cards of alice's hand trade places: bob's view, his procedure view
    and his legal actions stay the same."""
    for game in _positions(seed, 50)[1::5]:
        hand = game.zone("alice", "hand")
        assert hand is not None
        cards = game.contents(hand)
        pairs = [
            (x, y)
            for x in cards
            for y in cards
            if x < y and game.obj(x).cdef.name != game.obj(y).cdef.name
        ]
        if not pairs:
            continue
        other = game.copy()
        trade_places(other, *pairs[0])
        assert other.view("bob") == game.view("bob")
        assert _said(other, other.legal_actions("bob")) == _said(game, game.legal_actions("bob"))


def test_undo_copy_and_save_keep_the_procedure() -> None:
    game = _game(4)
    before = current(game)
    game.legal_actions("alice")[0].apply(game)
    after = current(game)
    assert after is not None and after.opened and before != after
    copy = game.copy()
    loaded = Game.from_json(game.to_json(), game.ruleset)
    assert current(copy) == current(loaded) == after
    game.undo()
    assert current(game) == before
    assert current(copy) == after


def test_a_refused_act_changes_nothing_and_names_its_rule() -> None:
    game = _game(5)
    game.legal_actions("alice")[0].apply(game)
    copy = game.copy()
    with pytest.raises(IllegalAction) as refused:
        game.act("proceed", by="bob")
    assert "belongs to the turn player, alice" in str(refused.value)
    with pytest.raises(IllegalAction) as refused:
        game.act("pass")
    assert "battle-phase/present-hero" in str(refused.value)
    assert copy.same_state(game)


def test_a_table_runs_the_procedure_its_start_position_asks_for() -> None:
    """A table made from a start position with ``procedure: true`` keeps it in
    its record, runs the procedure (its seats are offered its acts) and
    records the state, winner included, as the game's own; a saved record
    builds the same game, and the exported scenario asks for it too."""
    from cardzones.table.creation import creation_from_request
    from cardzones.table.export import scenario_of
    from cardzones.table.record import Record

    text = (
        "ruleset: redemption\nprocedure: true\ncards:\n"
        "  Gideon: {type: hero, brigade: gold, strength: 6, toughness: 6}\n"
        "  Soul: {type: lost_soul}\n"
        "setup:\n  alice.deck: [Gideon, Gideon]\n  bob.deck: [Soul, Gideon]\n"
    )
    record = creation_from_request({"scenario": text})
    assert record.procedure is not None
    again = Record.from_json(record.to_json())
    assert again.procedure == "" and again.scenario()["procedure"] is True
    ctx = record.build()
    assert [a.name for a in ctx.game.legal_actions("alice")] == ["open_game"]
    assert ctx.game.view("bob")["procedure"]["opened"] is False
    plain = creation_from_request({"scenario": text.replace("true", "false")})
    assert not plain.procedure and "procedure" not in plain.to_json()
    assert "procedure" not in plain.build().game.view("bob")
    exported = scenario_of("t1", record, [{"open_game": {"by": "alice"}}])
    assert exported["procedure"] is True
    # the exported file plays the game again, the procedure with it
    from cardzones.scenario.runner import PASS, run_text

    replay = run_text(yaml.safe_dump(exported, sort_keys=False))
    assert replay.status == PASS, replay.message


def test_a_procedure_key_that_is_not_true_or_false_is_an_invalid_file() -> None:
    from cardzones.scenario.runner import INVALID, run_text

    head = "ruleset: redemption\nprocedure: yes please\n"
    outcome = run_text(f"name: x\n{head}steps:\n  - expect: {{turn: 1}}\n")
    assert outcome.status == INVALID
    assert "procedure: is true, false or {first: PLAYER}" in outcome.message and outcome.line == 3


def test_a_rule_set_without_a_procedure_refuses_to_begin_one() -> None:
    from types import MappingProxyType

    from cardzones.kernel.zones import ZoneSpec
    from cardzones.rulesets.base import Ruleset

    class Pile(Ruleset):
        name = "pile"
        zone_specs = MappingProxyType({"pile": ZoneSpec("pile", public=True, ordered=True)})

    game = Game(Pile(), ["alice"])
    with pytest.raises(IllegalAction, match="pile has no game procedure"):
        Pile().start_procedure(game)
