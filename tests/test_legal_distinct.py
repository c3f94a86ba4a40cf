"""``Action.distinct``: an action that says its candidates are given once
each never gives two whose completed arguments are equal, so legal actions
may list them without looking for repeats. Held on random positions of
both rule sets, on the benchmark's standard position and on positions of
whole games under fab's procedure, for every action that says so; a listing
of such an action lists each action once.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_legal import PLAYERS, random_game

from cardzones import new_game
from cardzones.acts.actions import table_of
from cardzones.acts.listing import candidate_actions, candidate_key
from cardzones.bench.position import GAME, build_position
from cardzones.kernel.game import Game
from cardzones.rulesets.base import ruleset_of
from cardzones.rulesets.fab.bench_games import deal_both
from cardzones.rulesets.fab.procedure.flow import awaited
from cardzones.rulesets.fab.procedure.state import current


def repeats(game: Game, player: str) -> dict[str, int]:
    """How many candidates of each distinct action repeat one given before."""
    seen: dict[str, set[object]] = {}
    out: dict[str, int] = {}
    for action, args in candidate_actions(game, player):
        if not action.distinct:
            continue
        held = seen.setdefault(action.name, set())
        key = candidate_key(args)
        if key in held:
            out[action.name] = out.get(action.name, 0) + 1
        held.add(key)
    return out


def test_the_shared_moves_flips_and_modifies_say_so() -> None:
    for ruleset in ("fab", "redemption"):
        table = table_of(new_game(ruleset, list(PLAYERS)))
        assert {name for name, a in table.items() if a.distinct} >= {"move", "flip", "modify"}
    fab = table_of(new_game("fab", list(PLAYERS)))
    assert fab["add_layer"].distinct and fab["create_token"].distinct
    # The procedure's acts: passing and conceding once, each set of defenders once.
    assert fab["pass"].distinct and fab["defend"].distinct and fab["concede"].distinct


@pytest.mark.parametrize("ruleset", ["fab", "redemption"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_distinct_candidates_never_repeat(ruleset: str, data: st.DataObject) -> None:
    game = random_game(data, ruleset)
    for player in PLAYERS:
        assert repeats(game, player) == {}


@pytest.mark.parametrize("player", ["alice", "bob"])
def test_distinct_candidates_never_repeat_in_the_standard_position(player: str) -> None:
    game = build_position()
    assert repeats(game, player) == {}
    listed = [(a.name, candidate_key(dict(a.bound))) for a in game.legal_actions(player)]
    assert len(listed) == len(set(listed))


def test_distinct_candidates_never_repeat_in_whole_games() -> None:
    for seed in range(2):
        game = new_game(GAME, ("alice", "bob"), seed=seed)
        deal_both(game)
        ruleset_of(game).start_procedure(game)
        rng = random.Random(seed)
        proc = current(game)
        while proc is not None and not proc.over:
            player, choices = awaited(game, proc)
            assert repeats(game, player) == {}
            rng.choice(game.legal_actions(player, choices)).apply(game)
            proc = current(game)
