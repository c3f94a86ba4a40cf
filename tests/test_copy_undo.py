"""Property tests for copies and undo (DESIGN.md, Speed).

Hypothesis drives random sequences of fab actions through the public API on
the benchmark's standard position (every kind of zone, sub-cards, equipment,
tokens, replacement effects), and checks that:

- undoing every action, one at a time, passes back through exactly the states
  the game was in, and ends at the initial state: the same maps, the same
  full serialisation and the same views for every player;
- a checkpoint rolled back to restores the state it was taken in;
- a copy and its original are independent both ways, even when one of them
  undoes actions made before the copy was taken.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardzones.bench.position import AURA, TOKEN, build_position
from cardzones.errors import CardzonesError
from cardzones.kernel.cards import Dest
from cardzones.kernel.game import Game
from cardzones.kernel.views import view
from cardzones.rulesets.fab import actions as fab
from cardzones.rulesets.fab import layers

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

Snapshot = tuple[dict[Any, Any], ...]
Action = Callable[[Game], object]

# ----------------------------------------------------------------------
# Random actions
# ----------------------------------------------------------------------

_DESTS = (
    "hand",
    "deck",
    "graveyard",
    "banished",
    "pitch",
    "arsenal",
    "arena",
    "soul",
    "combat_chain",
    "arms",
    "weapon",
)


def _card(game: Game, i: int) -> int:
    cards = sorted(game.cards())
    return cards[i % len(cards)]


def _zone(game: Game, i: int) -> int:
    zones = game.all_zones()
    return zones[i % len(zones)]


def _player(game: Game, i: int) -> str:
    return game.players[i % len(game.players)]


def _move_to_zone(i: int, z: int, face: str | None, position: Any, cause: str) -> Action:
    def run(game: Game) -> object:
        return game.move(
            _card(game, i),
            _zone(game, z),
            position=position,
            face=face,
            cause=cause,
            by=game.obj(_card(game, i)).owner,
        )

    return run


def _move_to_dest(i: int, ztype: str, face: str | None) -> Action:
    def run(game: Game) -> object:
        card = _card(game, i)
        by = game.obj(card).owner or game.turn_player
        return game.move(card, Dest(ztype, "owner"), by=by, face=face)

    return run


def _flip(i: int, face: str) -> Action:
    return lambda game: game.flip(_card(game, i), face)


def _clear(i: int) -> Action:
    return lambda game: game.clear(_card(game, i))


def _under(i: int, p: int) -> Action:
    def run(game: Game) -> object:
        player = _player(game, p)
        return fab.put_under(game, _card(game, i), fab.hero_of(game, player), player)

    return run


def _shuffle(z: int) -> Action:
    return lambda game: game.shuffle(_zone(game, z))


def _effect(i: int, delta: int) -> Action:
    def run(game: Game) -> object:
        with game.atomic():
            return game.add_effect(
                _card(game, i), "modify", mods=[("power", delta)], until="end_of_turn"
            )

    return run


def _token(p: int) -> Action:
    def run(game: Game) -> object:
        player = _player(game, p)
        return fab.try_create_token(game, TOKEN, Dest("permanent"), player)

    return run


def _play(i: int) -> Action:
    def run(game: Game) -> object:
        card = _card(game, i)
        return fab.play(game, card, game.obj(card).owner or game.turn_player)

    return run


def _resolve(game: Game) -> object:
    with game.atomic():
        return layers.resolve_top(game, game.turn_player)


def _new_aura(p: int) -> Action:
    def run(game: Game) -> object:
        player = _player(game, p)
        with game.atomic():
            return game.new_card(AURA, game.zones_of(player, "hand")[0], owner=player)

    return run


def _new_zone(p: int) -> Action:
    return lambda game: game.create_zone(_player(game, p), "weapon")


def _remove_zone(p: int, z: int) -> Action:
    def run(game: Game) -> object:
        zones = game.zones_of(_player(game, p), "weapon")
        if zones:
            game.remove_zone(zones[z % len(zones)])
        return None

    return run


def _record(p: int, value: int) -> Action:
    def run(game: Game) -> object:
        with game.atomic():
            game.records.put(("bench", _player(game, p)), value)
        return value

    return run


_index = st.integers(min_value=0, max_value=10_000)
_face = st.sampled_from([None, "up", "down"])

actions = st.one_of(
    st.builds(
        _move_to_zone,
        _index,
        _index,
        _face,
        st.sampled_from(["top", "bottom", 0, 2]),
        st.sampled_from(["effect", "rule"]),
    ),
    st.builds(_move_to_dest, _index, st.sampled_from(_DESTS), _face),
    st.builds(_flip, _index, st.sampled_from(["up", "down"])),
    st.builds(_clear, _index),
    st.builds(_under, _index, _index),
    st.builds(_shuffle, _index),
    st.builds(_effect, _index, st.integers(-2, 3)),
    st.builds(_token, _index),
    st.builds(_play, _index),
    st.just(_resolve),
    st.builds(_new_aura, _index),
    st.just(lambda game: game.end_turn()),
    # Zones, effects and records are shared by a copy until either one writes.
    st.builds(_new_zone, _index),
    st.builds(_remove_zone, _index, _index),
    st.builds(_record, _index, st.integers(0, 3)),
)


def _apply(game: Game, action: Action) -> bool:
    """Run an action; True when it changed the state (and so can be undone).
    A refused action must leave no trace."""
    before = _snapshot(game)
    marks = game._marks
    try:
        action(game)
    except CardzonesError:
        assert _same(game, before), "a refused action changed the state"
        assert game._marks is marks
        return False
    if game._marks is marks:
        assert _same(game, before), "an action changed the state but cannot be undone"
        return False
    return True


# ----------------------------------------------------------------------
# Comparing states
# ----------------------------------------------------------------------


def _snapshot(game: Game) -> Snapshot:
    # The maps hold immutable records, so shallow copies pin the whole state.
    return tuple(dict(m) for m in game._maps)


def _same(game: Game, snapshot: Snapshot) -> bool:
    return tuple(game._maps) == snapshot


def _serialised(game: Game) -> str:
    """The full state and what every player and a spectator see, as text."""
    views = {str(p): view(game, p) for p in (*game.players, None)}
    return json.dumps({"state": game.to_json(), "views": views}, sort_keys=True)


# ----------------------------------------------------------------------
# Properties
# ----------------------------------------------------------------------

START = build_position()


def _fresh() -> Game:
    game = START.copy()
    game.forget_history()
    return game


@SETTINGS
@given(st.lists(actions, max_size=25), st.data())
def test_undoing_everything_restores_the_initial_state(
    steps: list[Action], data: st.DataObject
) -> None:
    game = _fresh()
    initial, initial_text = _snapshot(game), _serialised(game)
    history = []  # the state before each action that changed something
    checkpoint_at = data.draw(st.integers(0, len(steps)), label="checkpoint after step")
    checkpoint = game.checkpoint()
    at_checkpoint = initial
    for n, action in enumerate(steps):
        if n == checkpoint_at:
            checkpoint, at_checkpoint = game.checkpoint(), _snapshot(game)
        before = _snapshot(game)
        if _apply(game, action):
            history.append(before)
    if checkpoint_at == len(steps):
        checkpoint, at_checkpoint = game.checkpoint(), _snapshot(game)
    # Roll back to the checkpoint on a copy, so the undo below sees every step.
    other = game.copy()
    other.rollback(checkpoint)
    assert _same(other, at_checkpoint)
    for before in reversed(history):
        assert game.can_undo()
        game.undo()
        assert _same(game, before), "undo did not restore the state before the action"
    assert not game.can_undo()
    assert _same(game, initial)
    assert _serialised(game) == initial_text


@SETTINGS
@given(
    st.lists(actions, max_size=8),
    st.lists(actions, max_size=15),
    st.lists(actions, max_size=15),
    st.integers(0, 20),
    st.integers(0, 20),
)
def test_copies_are_independent_both_ways(
    prefix: list[Action],
    on_copy: list[Action],
    on_original: list[Action],
    undo_copy: int,
    undo_original: int,
) -> None:
    original = _fresh()
    for action in prefix:
        _apply(original, action)
    copy = original.copy()
    assert _same(copy, _snapshot(original))
    assert _serialised(copy) == _serialised(original)

    # Change the copy, and undo in it, past the point it was copied at too.
    _check_untouched(original, copy, on_copy, undo_copy, "changing the copy changed the original")
    # And the reverse.
    _check_untouched(
        copy, original, on_original, undo_original, "changing the original changed the copy"
    )


def _check_untouched(
    watched: Game, changed: Game, actions: list[Action], undos: int, message: str
) -> None:
    """Acting on and undoing in ``changed`` leaves ``watched`` exactly as it was."""
    pinned, pinned_text = _snapshot(watched), _serialised(watched)
    for action in actions:
        _apply(changed, action)
    for _ in range(undos):
        if changed.can_undo():
            changed.undo()
    assert _same(watched, pinned), message
    assert _serialised(watched) == pinned_text


def test_rollback_refuses_a_checkpoint_from_another_history() -> None:
    game, other = _fresh(), _fresh()
    other.move(
        other.contents(other.zones_of("alice", "deck")[0])[0], other.zones_of("alice", "hand")[0]
    )
    foreign = other.checkpoint()
    game.move(game.contents(game.zones_of("bob", "deck")[0])[0], game.zones_of("bob", "hand")[0])
    before, text = _snapshot(game), _serialised(game)
    with pytest.raises(CardzonesError):
        game.rollback(foreign)
    assert _same(game, before)
    assert _serialised(game) == text
    game.undo()
    assert _same(game, _snapshot(_fresh()))


def test_undo_puts_a_removed_object_back_in_its_place() -> None:
    game = _fresh()
    order = list(game.cards())
    token = next(c for c in order if "token" in game.obj(c).cdef.types)
    assert game.clear(token).value == "ceased"
    assert token not in game.cards()
    game.undo()
    assert list(game.cards()) == order


def test_seldom_written_maps_are_copied_before_the_first_write() -> None:
    # A copy shares the zones, effects and records with its original until
    # one of the two writes to them; each write, and each undo of a write made
    # before the copy, must stay in the game that made it.
    original = _fresh()
    card = original.contents(original.zones_of("alice", "graveyard")[0])[0]
    with original.atomic():
        original.records.put("before", 1)
    copy = original.copy()
    pinned, text = _snapshot(original), _serialised(original)
    zone = copy.create_zone("alice", "weapon")
    with copy.atomic():
        copy.add_effect(card, "modify", mods=[("power", 1)], until="end_of_turn")
        copy.records.put("after", 2)
    copy.undo()
    copy.undo()  # the new zone
    copy.undo()  # the record put before the copy
    assert "before" not in copy.records
    assert zone not in copy.all_zones()
    assert _same(original, pinned)
    assert _serialised(original) == text
    # And the reverse: the original writes, the copy keeps what it had.
    pinned, text = _snapshot(copy), _serialised(copy)
    original.create_zone("bob", "weapon")
    with original.atomic():
        original.records.put("before", 3)
        original.add_effect(card, "modify", mods=[("power", 2)], until="end_of_turn")
    original.undo()
    original.undo()
    assert original.records.get("before") == 1
    assert _same(copy, pinned)
    assert _serialised(copy) == text


def test_maps_stay_in_order_when_keys_come_and_go_many_times() -> None:
    # Trying an action and rolling it back adds and removes the same keys over
    # and over; the maps are compacted now and then (State._removed), which
    # must keep every key in its place.
    game = _fresh()
    initial, text = _snapshot(game), _serialised(game)
    hand = game.zones_of("alice", "hand")[0]
    for _ in range(200):
        point = game.checkpoint()
        game.create_zone("alice", "weapon")
        game.new_card(AURA, hand, owner="alice")
        game.rollback(point)
    assert _same(game, initial)
    assert [list(m) for m in game._maps] == [list(m) for m in initial]
    assert _serialised(game) == text
    assert _same(game.copy(), initial)
