"""The listing of fab's procedure acts: the acts the procedure waits for
(``flow.awaited``) list what every act lists, and candidates made within
the seat policy (``SeatCandidate``) list what binding each with the seat
policy and trying it lists, results included. Rule ids: 1.11.2 (the player
with priority acts), 7.3.2 (the defending player declares), 4.4.3b (the
turn player ends the turn)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardzones import Game, new_game
from cardzones.acts.legal import tried_legal_actions
from cardzones.acts.listing import SeatCandidate
from cardzones.rulesets.base import ruleset_of
from cardzones.rulesets.fab.bench_games import deal_both
from cardzones.rulesets.fab.procedure import ACTS
from cardzones.rulesets.fab.procedure.acts import play_candidates
from cardzones.rulesets.fab.procedure.flow import (
    DEFEND_ACTS,
    END_ACTS,
    PRIORITY_ACTS,
    awaited,
    who_acts,
)
from cardzones.rulesets.fab.procedure.state import END, current

#: Every act but conceding, which any player may do at any time.
EVERY_ACT = tuple(act for act in ACTS if act != "concede")


def _started(seed: int) -> Game:
    game = new_game("fab", ["alice", "bob"], seed=seed)
    deal_both(game)
    ruleset_of(game).start_procedure(game)
    return game


def _listed(actions: list[Any]) -> list[tuple[str, dict[str, Any], Any]]:
    return [(a.name, dict(a.bound), a.result) for a in actions]


@pytest.mark.parametrize("seed", [3, 11])
def test_the_awaited_acts_list_what_every_act_lists_and_tried_agrees(seed: int) -> None:
    game = _started(seed)
    rng = random.Random(seed)
    kinds: set[tuple[str, ...]] = set()
    narrowed: set[tuple[str, ...]] = set()
    acts = 0
    while True:
        proc = current(game)
        assert proc is not None
        player, names = awaited(game, proc)
        if proc.over:
            assert (player, names) == (None, ())
            break
        assert player == who_acts(game, proc)
        if proc.phase == END:
            assert names == END_ACTS  # 4.4.3b
        elif proc.priority is None:
            assert names == DEFEND_ACTS  # 7.3.2
        else:
            assert player == proc.priority  # 1.11.2
            # pass always; play and attack unless their timing lets nothing
            # be played or attack now, and then they list nothing (8.1)
            assert names[0] == "pass" and set(names) <= set(PRIORITY_ACTS)
            assert names == tuple(a for a in PRIORITY_ACTS if a in names)
            for left_out in set(PRIORITY_ACTS) - set(names):
                assert player is not None
                assert game.legal_actions(player, (left_out,)) == []
                assert tried_legal_actions(game, player, (left_out,)) == []
        if names[0] == "pass":
            narrowed.add(names)
        kinds.add(names if names[0] != "pass" else PRIORITY_ACTS)
        assert player is not None
        short = game.legal_actions(player, names)
        assert _listed(short) == _listed(game.legal_actions(player, EVERY_ACT))
        if acts % 7 == 0 or len(short) > 1:
            # Trying binds every candidate with the seat policy: the same
            # actions, arguments and results as judging them as made.
            assert _listed(short) == _listed(tried_legal_actions(game, player, EVERY_ACT))
        rng.choice(short).apply(game)
        acts += 1
    assert kinds == {PRIORITY_ACTS, DEFEND_ACTS, END_ACTS}
    assert narrowed == {("pass",), ("pass", "play"), ("pass", "attack"), PRIORITY_ACTS}
    assert proc.winner is not None


def test_the_procedure_candidates_are_made_within_the_seat_policy() -> None:
    game = _started(5)
    proc = current(game)
    assert proc is not None
    made = list(play_candidates(game, proc.priority or ""))
    assert made and all(type(given) is SeatCandidate for given in made)
