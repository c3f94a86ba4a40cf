"""A game holds no reference cycle: once dropped, it is freed by reference
counts alone, without the garbage collector. Each test runs with the
collector off, drops what it made and checks that a weak reference to every
game it made has died; a whole playout leaves nothing for the collector.

A cycle through a game (its records pointing back at it, a context whose
references hold the context, a refusal whose traceback holds the frame that
raised it) would keep the game and its whole history alive until a full
collection, which walks every live game, and every open table, to find it.
"""

from __future__ import annotations

import gc
import random
import weakref
from collections.abc import Callable, Iterator

import pytest
from tablekit import BODIES
from test_redemption_playout import _game as redemption_game
from test_redemption_playout import _rescuer

from cardzones import new_game
from cardzones.bench.position import GAME
from cardzones.kernel.game import Game
from cardzones.rulesets.base import ruleset_of
from cardzones.rulesets.fab.bench_games import deal_both
from cardzones.rulesets.fab.procedure.flow import awaited
from cardzones.rulesets.fab.procedure.playout import play_out
from cardzones.rulesets.fab.procedure.state import current
from cardzones.rulesets.redemption.procedure import playout as redemption_playout
from cardzones.table.creation import creation_from_request
from cardzones.table.refusals import Refusal
from cardzones.table.table import Table, rebuild


@pytest.fixture
def no_collector() -> Iterator[None]:
    """The collector off, and nothing left from before for it to find."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _procedure_game(seed: int) -> Game:
    game = new_game(GAME, ("alice", "bob"), seed=seed)
    deal_both(game)
    ruleset_of(game).start_procedure(game)
    return game


def _acts(game: Game, rng: random.Random, count: int) -> None:
    """``count`` acts of fab's procedure, each chosen at random."""
    for _ in range(count):
        proc = current(game)
        if proc.over:
            return
        player, choices = awaited(game, proc)
        rng.choice(game.legal_actions(player, choices)).apply(game)


def _fab_playout() -> list[Game]:
    game = _procedure_game(0)
    play_out(game, random.Random(0))
    return [game]


def _fab_copies() -> list[Game]:
    """Copies at every act, each then played on apart from the original."""
    game, rng = _procedure_game(1), random.Random(1)
    copies = []
    for _ in range(40):
        copies.append(game.copy())
        _acts(copies[-1], rng, 1)
        _acts(game, rng, 1)
    return [game, *copies]


def _fab_undo_and_rollback() -> list[Game]:
    game, rng = _procedure_game(2), random.Random(2)
    start = game.checkpoint()
    _acts(game, rng, 60)
    for _ in range(10):
        game.undo()
    _acts(game, rng, 10)
    game.rollback(start)
    return [game]


def _fab_views_and_listings() -> list[Game]:
    game = _procedure_game(3)
    _acts(game, random.Random(3), 80)
    for player in (None, *game.players):
        game.view(player)
        game.log(player)
    for player in game.players:
        game.legal_actions(player)
    return [game]


def _saved_and_loaded() -> list[Game]:
    game = _procedure_game(4)
    _acts(game, random.Random(4), 80)
    return [game, Game.from_json(game.to_json(), game.ruleset)]


def _redemption_playout() -> list[Game]:
    game = redemption_game(1)
    redemption_playout.play_out(game, _rescuer(random.Random(1)), limit=3_000)  # type: ignore[arg-type]
    return [game, game.copy()]


def _tables() -> list[Game]:
    """A table of each rule set: legal acts taken, acts refused, listings,
    views; the table restored from its snapshot, and rebuilt from its acts
    and looked at as it was at an earlier event (a take-back's way)."""
    games = []
    for ruleset in sorted(BODIES):
        creation = creation_from_request(BODIES[ruleset](seed=3))
        table = Table.start("t", creation)
        stored = []
        for _ in range(4):
            seat = table.game.turn_player
            pending = table.try_act(seat, table.legal(seat)[0]["act"])
            stored.append(pending.applied.stored)
            table.commit(pending)
        seat = table.game.turn_player
        # refused in binding, and by the rules once bound
        for draw in ({"player": "nobody"}, {"player": seat, "count": 999}):
            with pytest.raises(Refusal):
                table.try_act(seat, {"draw": draw})
        for seat in table.players:
            table.view(seat)
        restored = Table.from_snapshot("t", creation, table.snapshot())
        rebuilt = rebuild("t", creation, stored)
        games += [table.game, restored.game, rebuilt.game, rebuilt.earlier(2).game]
    return games


KINDS: dict[str, Callable[[], list[Game]]] = {
    "fab playout": _fab_playout,
    "copies": _fab_copies,
    "undo and rollback": _fab_undo_and_rollback,
    "views and listings": _fab_views_and_listings,
    "saved and loaded": _saved_and_loaded,
    "redemption playout": _redemption_playout,
    "tables": _tables,
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_dropped_game_is_freed_by_reference_counts(kind: str, no_collector: None) -> None:
    refs = [weakref.ref(game) for game in KINDS[kind]()]
    assert refs
    alive = [ref for ref in refs if ref() is not None]
    assert not alive, f"{len(alive)} of {len(refs)} games outlived their last reference"


@pytest.mark.parametrize("kind", ["fab playout", "redemption playout"])
def test_a_whole_playout_leaves_nothing_for_the_collector(kind: str, no_collector: None) -> None:
    KINDS[kind]()  # once first: what a first game loads stays loaded
    gc.collect()
    KINDS[kind]()
    assert gc.collect() == 0


def test_a_game_follows_by_weak_reference() -> None:
    game = new_game("fab", ["alice", "bob"])
    ref = weakref.ref(game)
    assert ref() is game
    del game
    assert ref() is None
