"""The floors of the benchmark: what a move, a copy and a view cost with
nothing else, in plain CPython, on the same objects; and the move workload.

The move workload is drawn from a seeded random generator before any timing
starts: it is a list of segments, each a list of actions that are legal, one
after the other, from the standard position (:mod:`cardzones.bench.position`).
The timed loop only replays them through the public pipeline, and the game is
rolled back to the position between segments, outside the timer. Each action's
effect on the zones is traced, so that the floor of a move
(:func:`replay_bare`) replays exactly what the engine did.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from cardzones.bench.position import (
    Action,
    action_choices,
    apply_action,
    host_of,
    padded_places,
    pick_card,
)
from cardzones.errors import CardzonesError
from cardzones.kernel.game import Game
from cardzones.kernel.views import HIDDEN

# -- the floor's bare state -------------------------------------------------
#
# The floor of a move works on plain lists and one dict: every zone's cards and
# every pile under a card as a list, and an index of where each card is.
# Piles are keyed by the negated id of the card they are under, so that zone
# ids and pile keys never meet.

#: One step of the bare move: (card, list it leaves or None, list it is in
#: afterwards or None if it ceased, index to insert it at or None).
Op = tuple[int, int | None, int | None, int | None]


class Bare(NamedTuple):
    """The plain-Python state of a move's floor."""

    lists: dict[int, list[int]]
    where: dict[int, int]

    def fresh(self) -> Bare:
        """An independent copy, to replay a segment on."""
        return Bare({k: v.copy() for k, v in self.lists.items()}, self.where.copy())


def _spot(game: Game, card: int) -> tuple[int, int]:
    """The bare list a card is in, and its index in it."""
    host = game.host(card)
    if host is None:
        zid = game.location(card)
        return zid, game.contents(zid).index(card)
    return -host, game.kids(host).index(card)


def bare_state(game: Game) -> Bare:
    """The lists and index of the bare move for the state ``game`` is in."""
    lists = {zid: list(game.contents(zid)) for zid in game.all_zones()}
    where: dict[int, int] = {}
    for card in game.cards():
        where[card] = _spot(game, card)[0]
        if game.kids(card):
            lists[-card] = list(game.kids(card))
    for player in game.players:  # the workload puts cards under a card of each
        lists.setdefault(-host_of(game, player), [])
    return Bare(lists, where)


def replay_bare(ops: Sequence[Op], lists: dict[int, list[int]], where: dict[int, int]) -> None:
    """The floor of a move: replay what the engine's actions did to the zones,
    with nothing else: take each card out of one list, put it into another, and
    update the index."""
    for card, src, dst, i in ops:
        if src is not None:
            lists[src].remove(card)
        if dst is None:
            del where[card]
        else:
            if i is not None:
                lists[dst].insert(i, card)
            where[card] = dst


def _trace(game: Game, action: Action) -> list[Op]:
    """Take ``action`` on ``game`` and return what it did to the bare state.

    The cards it can change are its card and the cards under it. A card that
    changed place leaves its list and enters another at the index it has now;
    a card that stayed but became a new record (a flip, a reset, a host's move)
    is one index write; a card that ceased leaves its list and the index."""
    touched = (action.card, *game.kids(action.card))
    before = [(card, game.obj(card), _spot(game, card)) for card in touched]
    apply_action(game, action)
    out: list[Op] = []
    moves: list[Op] = []
    for card, record, (src, index) in before:
        if not game.exists(card):
            out.append((card, src, None, None))
            continue
        dst, now = _spot(game, card)
        if (dst, now) != (src, index):
            moves.append((card, src, dst, now))
        elif game.obj(card) is not record:
            out.append((card, None, dst, None))
    if len(moves) == 1 and not out:
        return moves
    # Several cards: every card leaves first, then they enter in the order of
    # their new indexes, so that each lands where the engine put it.
    out = [(card, src, dst, None) for card, src, dst, _ in moves] + out
    out += [(card, None, dst, i) for card, _, dst, i in sorted(moves, key=lambda m: (m[2], m[3]))]
    return out


def check_bare(game: Game, bare: Bare) -> None:
    """The floor must follow the engine exactly: same lists, same index."""
    expected = bare_state(game)
    lists = {k: v for k, v in bare.lists.items() if v or k in expected.lists}
    if lists != expected.lists or bare.where != expected.where:
        raise RuntimeError("the bare move did not follow the engine's actions")


class Workload(NamedTuple):
    """Segments of actions to time, and for each, what the actions did to the
    bare state, for the floor to replay from :attr:`start`."""

    segments: list[list[Action]]
    traces: list[list[Op]]
    start: Bare

    @property
    def actions(self) -> int:
        return sum(len(s) for s in self.segments)


def make_workload(game: Game, moves: int, seed: int = 1, segment: int = 200) -> Workload:
    """About ``moves`` actions in segments of ``segment``, each legal from the
    current state of ``game``, which is left as it was.

    Cards are drawn as in the standard position (see :func:`_pick`), so that a
    bigger position gets the same mix of actions on bigger zones. Actions that
    the rules refuse are not kept; actions that fail (3.0.11) are kept, as the
    work to find out is part of the pipeline.
    """
    rng = random.Random(seed)
    start = game.checkpoint()
    bare_start = bare_state(game)
    places = padded_places(game)
    workload = Workload([], [], bare_start)
    total = 0
    while total < moves:
        actions: list[Action] = []
        trace: list[Op] = []
        bare = bare_start.fresh()
        tries = 0
        while len(actions) < segment and tries < segment * 20:
            tries += 1
            card = pick_card(rng, bare.lists, places)
            options = [] if card is None else action_choices(game, card, rng)
            if not options:
                continue
            action = rng.choice(options)
            try:
                ops = _trace(game, action)
            except CardzonesError:
                continue
            actions.append(action)
            trace += ops
            replay_bare(ops, *bare)
        if not actions:
            raise ValueError("no legal action found for the workload")
        check_bare(game, bare)
        workload.segments.append(actions)
        workload.traces.append(trace)
        total += len(actions)
        game.rollback(start)
    return workload


# -- the floors of a copy and a view ----------------------------------------

#: The floor of a copy: the objects and where they are, as plain dicts.
CopyState = tuple[dict[int, Any], dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]]


def copy_state(game: Game) -> CopyState:
    """The data a copy of ``game`` must carry for its objects, in plain dicts:
    card -> record (the game's own immutable records), zone -> its cards and
    card -> the cards under it (tuples, as in the game)."""
    records = {card: game.obj(card) for card in game.cards()}
    zones = {zid: game.contents(zid) for zid in game.all_zones()}
    piles = {card: game.kids(card) for card in game.cards() if game.kids(card)}
    return records, zones, piles


def bare_copy(state: CopyState) -> CopyState:
    """The floor of a copy: one ``dict.copy`` of each dict of :func:`copy_state`.
    The records and tuples are immutable, so they are shared, as the game shares them."""
    records, zones, piles = state
    return records.copy(), zones.copy(), piles.copy()


# A plan for the bare view: how to build a JSON value equal to one view. A
# dict with no list in it is copied whole; a dict with lists is a template
# and its lists' plans; a run of bare hidden entries is their count.
Plan = Any


def view_plan(value: dict[str, Any]) -> Plan:
    """The plan to build a value equal to ``value`` (a view) with the least
    work: every dict and list anew, every immutable value shared. A dict of
    scalars in it (the view's ``by_name``) is copied whole."""
    nested = tuple(
        (k, _list_plan(v) if v.__class__ is list else _FlatDict(v))
        for k, v in value.items()
        if v.__class__ is list or v.__class__ is dict
    )
    if not nested:
        return value.copy()
    flat = {k: v for k, v in value.items() if v.__class__ is not list and v.__class__ is not dict}
    return (flat, nested)


class _FlatDict(dict):  # type: ignore[type-arg]
    """In a plan: a dict of scalars, built again with ``dict.copy``."""


def _list_plan(items: list[Any]) -> Plan:
    if not all(item.__class__ is dict for item in items):
        return tuple(items)  # a list of scalars: copied with list()
    out: list[Plan] = []
    for item in items:
        if item == HIDDEN:
            if out and out[-1].__class__ is int:
                out[-1] += 1
            else:
                out.append(1)
        else:
            out.append(view_plan(item))
    return out


def bare_view(plan: Plan) -> dict[str, Any]:
    """The floor of a view: build a value equal to the view the plan was made
    from, as many dicts and lists, each new."""
    if plan.__class__ is dict:
        return plan.copy()
    template, nested = plan
    out: dict[str, Any] = template.copy()
    for key, sub in nested:
        cls = sub.__class__
        out[key] = _bare_list(sub) if cls is list else dict(sub) if cls is _FlatDict else list(sub)
    return out


def _bare_list(plans: list[Plan]) -> list[Any]:
    out: list[Any] = []
    for plan in plans:
        cls = plan.__class__
        if cls is int:
            out += [{"hidden": True} for _ in range(plan)]
        elif cls is dict:
            out.append(plan.copy())
        else:
            out.append(bare_view(plan))
    return out


def count_dicts(value: Any) -> int:
    """How many dicts a JSON value holds, itself included."""
    if value.__class__ is dict:
        return 1 + sum(count_dicts(v) for v in value.values())
    if value.__class__ is list:
        return sum(count_dicts(v) for v in value)
    return 0
