"""The benchmark behind ``cardzones bench``: moves, undo, copies and views,
each against a floor measured in plain CPython in the same run, legal actions
(per candidate tried, against a move and its undo), and scenarios.

Each figure is reported with its floor and the ratio of the two, as the
ratio holds from run to run on a shared machine where the figures do not. The
floors do the same work on the same objects with nothing else: a bare move
(:func:`replay_bare`), a bare copy (:func:`bare_copy`) and a bare view
(:func:`bare_view`); ``copy.deepcopy`` of the game is the baseline of a copy.
docs/performance.md defines them.

The standard position is a two-player fab game of 126 objects in every kind of
zone: decks, hands, graveyards, banished, arsenals, pitch zones, all the
equipment zones (with a two-hander), heroes with sub-cards in their souls, and
permanents (auras and tokens). :func:`build_position` makes it, or a bigger one
of the same shape.

The move workload is drawn from a seeded random generator before any timing
starts: it is a list of segments, each a list of actions that are legal, one
after the other, from the standard position. The timed loop only replays them
through the public pipeline, and the game is rolled back to the position
between segments, outside the timer.

>>> len(build_position().cards()), len(build_position(500).cards())
(126, 500)
"""

from __future__ import annotations

import copy
import functools
import random
import time
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from cardzones import new_game
from cardzones.errors import CardzonesError
from cardzones.kernel.cards import CardDef, Dest, Replacement
from cardzones.kernel.game import Game
from cardzones.kernel.objects import UNDER
from cardzones.kernel.views import HIDDEN, view
from cardzones.rulesets.fab.actions import put_under
from cardzones.scenario.runner import run_file

#: The number of objects of the standard position.
STANDARD_OBJECTS = 126

PLAYERS = ("alice", "bob")

# -- the cards --------------------------------------------------------------


def _card(name: str, *types: str, abilities: tuple[Any, ...] = (), **stats: int) -> CardDef:
    return CardDef(name, types=frozenset(types), stats=stats, abilities=abilities)


#: Deck-cards of the position; the last two have replacement effects (3.0.8a).
DECK_CARDS = (
    _card("Snatch", "action", "attack", power=4, pitch=1, defense=2),
    _card("Sink Below", "defense_reaction", pitch=3, defense=4),
    _card("Enlightened Strike", "action", "attack", power=5, pitch=2, defense=3),
    _card("Sigil of Solace", "instant", pitch=3),
    _card("Energy Potion", "action", "item", pitch=1, defense=2),
    _card("Might", "action", "aura", pitch=2, defense=2),
    _card(
        "Drone of Brutality",
        "action",
        "attack",
        power=6,
        pitch=2,
        defense=2,
        abilities=(Replacement("graveyard", None, Dest("deck", "owner"), "bottom", "down"),),
    ),
    _card(
        "Mauvrion Skies",
        "action",
        "attack",
        power=3,
        pitch=1,
        defense=3,
        abilities=(Replacement("graveyard", "hand", Dest("banished", "owner")),),
    ),
)
HERO = _card("Dorinthea", "hero", "warrior", intellect=4, life=20)
SOUL = _card("Herald of Judgment", "action", "attack", "light", power=6, pitch=1, defense=3)
EQUIPMENT = {
    "arms": _card("Nullrune Gloves", "equipment", "arms", defense=1),
    "chest": _card("Nullrune Robe", "equipment", "chest", defense=1),
    "head": _card("Nullrune Hood", "equipment", "head", defense=1),
    "legs": _card("Nullrune Boots", "equipment", "legs", defense=1),
}
TWO_HANDER = _card("Anothos", "weapon", "hammer", "2h", power=4)
ONE_HANDER = _card("Dawnblade", "weapon", "sword", "1h", power=3)
OFF_HAND = _card("Ironhide Gauntlet", "equipment", "off-hand", defense=2)
AURA = _card("Ward of Dawn", "action", "aura", pitch=2, defense=2)
TOKEN = _card("Quicken", "token", "aura")

# How a player's deck-cards are spread over the zones of the standard position.
_SPREAD = (
    ("deck", 30),
    ("hand", 4),
    ("graveyard", 9),
    ("banished", 3),
    ("arsenal", 1),
    ("pitch", 2),
)


def build_position(objects: int = STANDARD_OBJECTS, seed: int = 0) -> Game:
    """A two-player fab game with ``objects`` objects (at least 126) in the shape
    of the standard position; the extra objects go to the decks, graveyards,
    banished zones and the arena. Its history is empty."""
    if objects < STANDARD_OBJECTS:
        raise ValueError(f"a position has at least {STANDARD_OBJECTS} objects")
    rng = random.Random(seed)
    game = new_game("fab", PLAYERS, seed=seed)
    extra = objects - STANDARD_OBJECTS
    for n, player in enumerate(PLAYERS):
        mine = extra // len(PLAYERS) + (extra % len(PLAYERS) if n == 0 else 0)
        _fill_player(game, player, rng, mine)
    game.forget_history()
    assert len(list(game.cards())) == objects
    return game


def _fill_player(game: Game, player: str, rng: random.Random, extra: int) -> None:
    zone = game.zone
    hero = game.new_card(HERO, _zid(zone(player, "hero")), owner=player)
    for _ in range(3):
        game.new_card(SOUL, _zid(zone(player, "hero")), owner=player, host=hero, rel=UNDER)
    for slot, cdef in EQUIPMENT.items():
        game.new_card(cdef, _zid(zone(player, slot)), owner=player)
    if player == PLAYERS[0]:
        game.new_card(TWO_HANDER, _zid(zone(player, "weapon", 1)), owner=player)
    else:
        game.new_card(ONE_HANDER, _zid(zone(player, "weapon", 1)), owner=player)
        game.new_card(OFF_HAND, _zid(zone(player, "weapon", 2)), owner=player)
    counts = dict(_SPREAD)
    if player == PLAYERS[0]:
        counts["graveyard"] += 1  # one weapon to the other's two: 63 objects each
    # The extra objects: half to the deck, the rest to graveyard, banished and arena.
    counts["deck"] += extra // 2
    counts["graveyard"] += extra // 4
    counts["banished"] += extra // 8
    arena_extra = extra - extra // 2 - extra // 4 - extra // 8
    for ztype, count in counts.items():
        zid = _zid(zone(player, ztype))
        for i in range(count):
            public = False if ztype == "banished" and i % 3 == 0 else None
            game.new_card(rng.choice(DECK_CARDS), zid, owner=player, public=public)
    permanent = _zid(zone(None, "permanent"))
    for i in range(4 + arena_extra):
        cdef = TOKEN if i % 2 else AURA
        game.new_card(cdef, permanent, owner=player)


def _zid(zid: int | None) -> int:
    assert zid is not None
    return zid


# -- the workload -----------------------------------------------------------

# Kinds of action in a workload.
MOVE, FLIP, CLEAR, UNDER_HERO = range(4)


class Action(NamedTuple):
    """One precomputed action: what to do to which card, and with what."""

    kind: int
    card: int
    dest: Dest | int | None = None
    position: Any = "top"
    face: str | None = None
    by: str = PLAYERS[0]


def _choices(game: Game, card: int, rng: random.Random) -> list[Action]:
    """The actions the workload may take on ``card`` where it is now."""
    obj = game.obj(card)
    info = game.zone_info(obj.zone)
    ztype = info.type
    owner = obj.owner or PLAYERS[0]
    here = game.zone

    def to(ztype: str, **kw: Any) -> Action:
        return Action(MOVE, card, _zid(here(owner, ztype)), by=owner, **kw)

    if obj.rel == UNDER:
        return [
            Action(MOVE, card, Dest("graveyard", "owner"), by=owner),
            to("banished", face="down"),
        ]
    if ztype == "deck":
        top = game.contents(obj.zone)[0]
        return [
            Action(MOVE, top, _zid(here(owner, "hand")), by=owner),
            Action(MOVE, top, Dest("banished", "owner"), face="up", by=owner),
            to("pitch"),
        ]
    if ztype == "hand":
        out = [
            to("pitch"),
            to("graveyard"),
            to("deck", position="bottom"),
            Action(MOVE, card, Dest("banished", "owner"), face="down", by=owner),
            Action(MOVE, card, Dest("combat_chain"), by=owner),
            Action(UNDER_HERO, card, by=owner),
        ]
        if not game.contents(_zid(here(owner, "arsenal"))):
            out.append(to("arsenal", face="down"))
        if "aura" in obj.cdef.types or "item" in obj.cdef.types:
            out.append(Action(MOVE, card, Dest("arena"), by=owner))
        return out
    if ztype == "pitch":
        return [to("deck", position="bottom", face="down"), to("graveyard")]
    if ztype == "graveyard":
        out = [to("banished"), to("deck", position=rng.randrange(5)), to("hand")]
        for slot in ("arms", "chest", "head", "legs"):
            if slot in obj.cdef.types:
                out.append(to(slot))
        if "weapon" in obj.cdef.types or "off-hand" in obj.cdef.types:
            out.append(to("weapon"))
        return out
    if ztype == "banished":
        return [
            Action(FLIP, card, face="down" if obj.public else "up", by=owner),
            to("graveyard"),
            to("hand", face="up"),
        ]
    if ztype == "arsenal":
        return [Action(FLIP, card, face="up", by=owner), to("hand")]
    if ztype in ("permanent", "combat_chain"):
        return [Action(CLEAR, card, by=owner), Action(MOVE, card, Dest("graveyard", "owner"))]
    if info.spec.equipment:
        return [Action(MOVE, card, Dest("graveyard", "owner"), by=owner), to("banished")]
    return []  # heroes and the stack stay where they are


def apply_action(game: Game, action: Action) -> object:
    """Take one workload action on ``game`` through the public API."""
    kind, card, dest, position, face, by = action
    if kind == MOVE:
        assert dest is not None
        return game.move(card, dest, position=position, face=face, by=by)
    if kind == FLIP:
        return game.flip(card, face or "up", by=by)
    if kind == CLEAR:
        return game.clear(card, by=by)
    return put_under(game, card, _hero(game, by), by)


def _hero(game: Game, player: str) -> int:
    return game.contents(_zid(game.zone(player, "hero")))[0]


def _places(game: Game) -> list[tuple[str, int]]:
    """Where cards can be acted on: every zone, and the pile under each hero
    (a negated card id), each with a name (``alice.deck``, ``alice.hero.under``)."""
    out = [(game.zone_name(zid), zid) for zid in game.all_zones()]
    for player in game.players:
        hero = _hero(game, player)
        out.append((f"{game.zone_name(game.location(hero))}.under", -hero))
    return out


def _cards_at(game: Game, place: int) -> tuple[int, ...]:
    return game.contents(place) if place > 0 else game.kids(-place)


@functools.cache
def _standard_sizes() -> dict[str, int]:
    game = build_position()
    return {name: len(_cards_at(game, place)) for name, place in _places(game)}


def _padded_places(game: Game) -> list[tuple[int, int]]:
    """Each place of ``game``, with how many objects it has beyond the
    standard position's."""
    standard = _standard_sizes()
    return [
        (place, max(0, len(_cards_at(game, place)) - standard.get(name, 0)))
        for name, place in _places(game)
    ]


def _pick(
    rng: random.Random, lists: dict[int, list[int]], places: Sequence[tuple[int, int]]
) -> int | None:
    """A card to act on, drawn as in the standard position: a place is chosen
    with the weight of its size less its padding, then a card in it uniformly.
    ``lists`` holds the cards of each place now (the bare state).

    A bigger position's extra objects are padding: they make its zones bigger
    but not more often acted on, so it gets the standard mix of actions (drawn
    uniformly over its cards, the tokens filling its arena would make many
    more of its actions a token that ceases)."""
    weights = [max(0, len(lists[place]) - pad) for place, pad in places]
    if not any(weights):
        return None
    ((place, _),) = rng.choices(places, weights)
    return rng.choice(lists[place])


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
    for player in game.players:  # the workload puts cards under the heroes
        lists.setdefault(-_hero(game, player), [])
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
    places = _padded_places(game)
    workload = Workload([], [], bare_start)
    total = 0
    while total < moves:
        actions: list[Action] = []
        trace: list[Op] = []
        bare = bare_start.fresh()
        tries = 0
        while len(actions) < segment and tries < segment * 20:
            tries += 1
            card = _pick(rng, bare.lists, places)
            options = [] if card is None else _choices(game, card, rng)
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


# -- measurements -----------------------------------------------------------

_clock = time.perf_counter


def _engine_segment(game: Game, actions: Sequence[Action], heroes: dict[str, int]) -> float:
    move, flip, clear = game.move, game.flip, game.clear
    t0 = _clock()
    for kind, card, dest, position, face, by in actions:
        if kind == MOVE:
            move(card, dest, position=position, face=face, by=by)  # type: ignore[arg-type]
        elif kind == FLIP:
            flip(card, face, by)  # type: ignore[arg-type]
        elif kind == CLEAR:
            clear(card, by)
        else:
            put_under(game, card, heroes[by], by)
    return _clock() - t0


def _floor_segment(ops: Sequence[Op], start: Bare) -> float:
    lists, where = start.fresh()
    t0 = _clock()
    replay_bare(ops, lists, where)
    return _clock() - t0


def time_moves(game: Game, workload: Workload, repeats: int) -> tuple[float, float]:
    """Microseconds per action through the public pipeline, and for its floor.

    Each segment starts from the state ``game`` is in and is timed ``repeats``
    times, then the floor replays the same segment as often; each one's best
    time counts, so a pause of the machine spoils one sample, not the run, and
    a busy spell longer than a few milliseconds falls on both."""
    start = game.checkpoint()
    heroes = {p: _hero(game, p) for p in game.players}
    engine = floor = 0.0
    for actions, ops in zip(workload.segments, workload.traces, strict=True):
        best = float("inf")
        for _ in range(repeats):
            best = min(best, _engine_segment(game, actions, heroes))
            game.rollback(start)
        engine += best
        floor += min(_floor_segment(ops, workload.start) for _ in range(repeats))
    n = workload.actions
    return engine / n * 1e6, floor / n * 1e6


def time_undo(game: Game, workload: Workload, repeats: int) -> tuple[float, float]:
    """Microseconds to undo one action, and per action of the bare move.

    Each segment of the workload is played (untimed), then undone one action at
    a time back to where it started, ``repeats`` times; then the bare move
    replays the segment as often. Each one's best time counts."""
    undo, can_undo = game.undo, game.can_undo
    base = game.checkpoint()
    if can_undo():
        raise ValueError("time_undo needs a game with no history")
    elapsed = floor = 0.0
    undone = 0
    for actions, ops in zip(workload.segments, workload.traces, strict=True):
        best = float("inf")
        n = 0
        for _ in range(repeats):
            for action in actions:
                apply_action(game, action)
            n = 0
            t0 = _clock()
            while can_undo():
                undo()
                n += 1
            best = min(best, _clock() - t0)
            game.rollback(base)
        elapsed += best
        undone += n
        floor += min(_floor_segment(ops, workload.start) for _ in range(repeats))
    return elapsed / max(undone, 1) * 1e6, floor / workload.actions * 1e6


def _calls_per_sample(call: Callable[[], object], seconds: float) -> int:
    """How many calls make a sample of about ``seconds`` (short samples keep a
    pause of the machine out of most of them). The first call warms caches."""
    call()
    t0 = _clock()
    call()
    return max(1, int(seconds / max(_clock() - t0, 1e-7)))


def _sample(call: Callable[[], object], number: int) -> float:
    t0 = _clock()
    for _ in range(number):
        call()
    return (_clock() - t0) / number * 1e6


#: About how long one sample of a short call lasts, in seconds.
SAMPLE_S = 2e-4


def per_call_us(
    calls: Sequence[Callable[[], object]], samples: int, every: Sequence[int] = ()
) -> list[float]:
    """Microseconds per call of each of ``calls``: the best of its samples.

    The samples are taken in turn, one of each call after the other, so that a
    busy spell of the machine falls on all of them. ``every`` gives, per call,
    one sample in how many turns it takes (1 for all), for calls so slow that
    a sample is a single call."""
    every = list(every) + [1] * (len(calls) - len(every))
    numbers = [_calls_per_sample(call, SAMPLE_S) for call in calls]
    best = [float("inf")] * len(calls)
    for turn in range(samples):
        for i, call in enumerate(calls):
            if turn % every[i] == 0:
                best[i] = min(best[i], _sample(call, numbers[i]))
    return best


#: Deepcopy takes milliseconds: one sample of it in this many of a copy.
DEEPCOPY_EVERY = 10


def time_copy(game: Game, pristine: Game, samples: int) -> tuple[float, float, float]:
    """Microseconds per :meth:`Game.copy`, per copy of its floor, and per
    ``copy.deepcopy`` of ``pristine``: a game in the same state that no move or
    view has filled caches in, so the naive way to copy at its cheapest."""
    state = copy_state(game)
    copy_us, floor_us, deep_us = per_call_us(
        [game.copy, lambda: bare_copy(state), lambda: copy.deepcopy(pristine)],
        samples,
        every=(1, 1, DEEPCOPY_EVERY),
    )
    return copy_us, floor_us, deep_us


def time_view(game: Game, samples: int, player: str = "alice") -> tuple[float, float, int]:
    """Microseconds per view of the game for one player, per build of the same
    JSON value by its floor, and how many dicts that value holds."""
    shown = view(game, player)
    plan = view_plan(shown)
    if bare_view(plan) != shown:
        raise RuntimeError("the bare view does not build the engine's view")
    view_us, floor_us = per_call_us([lambda: view(game, player), lambda: bare_view(plan)], samples)
    return view_us, floor_us, count_dicts(shown)


def time_legal(game: Game, samples: int, player: str = "alice") -> tuple[float, int, int]:
    """Microseconds per :meth:`Game.legal_actions` of one player, how many
    candidates it tried (after the seat policy) and how many it listed."""
    from cardzones.kernel.legal import candidate_actions
    from cardzones.kernel.seats import seat_refusal

    tried = sum(
        1
        for action, args in candidate_actions(game, player)
        if seat_refusal(game, player, action, args) is None
        and not (action.turn_player and game.turn_player != player)
    )
    listed = len(game.legal_actions(player))
    (legal_us,) = per_call_us([lambda: game.legal_actions(player)], samples)
    return legal_us, tried, listed


def example_files() -> list[Path]:
    """The scenario files bundled with the package."""
    root = resources.files("cardzones") / "examples"
    return sorted(Path(str(p)) for p in root.iterdir() if p.name.endswith(".scenario.yaml"))


def time_scenarios(files: Sequence[Path], rounds: int, repeats: int) -> float:
    """Scenario files run per second, loading and checking included."""

    def run() -> float:
        t0 = _clock()
        for _ in range(rounds):
            for file in files:
                run_file(file)
        return _clock() - t0

    return len(files) * rounds / min(run() for _ in range(repeats))


# -- the run ----------------------------------------------------------------

#: The figures of one position, in the order the report shows them.
KEYS = (
    "objects",
    "moves_per_s",
    "move_us",
    "move_floor_us",
    "move_ratio",
    "undo_us",
    "undo_ratio",
    "copy_us",
    "copy_floor_us",
    "copy_ratio",
    "deepcopy_us",
    "copy_speedup_vs_deepcopy",
    "view_us",
    "view_floor_us",
    "view_ratio",
    "view_dicts",
    "legal_ms",
    "legal_tried",
    "legal_listed",
    "legal_per_try_us",
    "legal_try_ratio",
    "scenarios_per_s",
)

#: What a bigger position adds to its figures: each cost against the first
#: position's (a view's per dict it shows).
GROWTH_KEYS = ("move_growth", "undo_growth", "copy_growth", "view_growth")

#: The targets, as ratios measured in the same run: (key, at most, bound).
TARGETS = (
    ("move_ratio", True, 12.0),
    ("undo_ratio", True, 10.0),
    ("copy_ratio", True, 2.0),
    ("view_ratio", True, 2.0),
    ("copy_speedup_vs_deepcopy", False, 1000.0),
)

#: How much a move, an undo, a copy, and a view per dict it shows, may cost on
#: a bigger position, against the first one (flat or nearly).
GROWTH_TARGET = 1.5


class _Position(NamedTuple):
    objects: int
    game: Game
    pristine: Game
    workload: Workload


def parse_sizes(text: str) -> list[int]:
    """``"126,500,2000"`` as sizes of positions, each at least 126.

    >>> parse_sizes("126, 500")
    [126, 500]
    """
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        raise ValueError(f"expected numbers of objects like 126,500,2000, got {text!r}") from None
    small = [n for n in sizes if n < STANDARD_OBJECTS]
    if small:
        raise ValueError(f"a position has at least {STANDARD_OBJECTS} objects, got {small[0]}")
    return sizes


def _progress(show: bool) -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=not show,
    )


def run_bench(
    quick: bool = False,
    objects: int | Sequence[int] = STANDARD_OBJECTS,
    scale: float = 1.0,
    progress: bool = False,
) -> dict[str, Any]:
    """Measure every figure and its floor on positions of ``objects`` objects.

    One size gives the figures of :data:`KEYS`. Several give ``{"runs": [...],
    "scenarios_per_s": ...}``: each size's figures, with :data:`GROWTH_KEYS`
    against the first size.

    The measurements are made in rounds; each round measures every figure of
    every size once, each interleaved with its floor, and each figure's best
    round counts: a busy spell of the machine, which can last seconds, then
    spoils one round of every figure rather than one figure of the run.
    ``quick`` makes a short run; ``scale`` multiplies the iteration counts (the
    tests use a tiny one); ``progress`` shows a progress bar on stderr.
    """
    sizes = [objects] if isinstance(objects, int) else list(objects)

    def n(full: int, short: int) -> int:
        return max(1, int((short if quick else full) * scale))

    rounds = n(10, 8)
    figures = ("moves", "undo", "copies", "views", "legal")
    with _progress(progress) as bar:
        task = bar.add_task("", total=len(sizes) + rounds * (len(sizes) * len(figures) + 1))
        positions = []
        for size in sizes:
            bar.update(task, description=f"workload, {size} objects")
            game = build_position(size)
            workload = make_workload(game, n(100_000, 30_000), segment=200)
            positions.append(_Position(size, game, build_position(size), workload))
            bar.advance(task)
        best: list[dict[str, float]] = [{} for _ in sizes]
        scenario_s = float("inf")
        for r in range(rounds):
            for pos, low in zip(positions, best, strict=True):
                for figure in figures:
                    bar.update(
                        task, description=f"round {r + 1}/{rounds}: {figure}, {pos.objects} objects"
                    )
                    for key, value in _measure(figure, pos, n).items():
                        low[key] = min(low.get(key, value), value)
                    bar.advance(task)
            bar.update(task, description=f"round {r + 1}/{rounds}: scenarios")
            files = example_files()
            scenario_s = min(scenario_s, 1 / time_scenarios(files, 1, n(20, 5)))
            bar.advance(task)
    runs = [_figures(pos.objects, low) for pos, low in zip(positions, best, strict=True)]
    scenarios_per_s = round(1 / scenario_s, 1)
    if isinstance(objects, int) or len(runs) == 1:
        return {**runs[0], "scenarios_per_s": scenarios_per_s}
    first = runs[0]
    for run in runs:
        run["move_growth"] = round(run["move_us"] / first["move_us"], 2)
        run["undo_growth"] = round(run["undo_us"] / first["undo_us"], 2)
        run["copy_growth"] = round(run["copy_us"] / first["copy_us"], 2)
        run["view_growth"] = round(
            run["view_us"] / run["view_dicts"] / (first["view_us"] / first["view_dicts"]), 2
        )
    return {"runs": runs, "scenarios_per_s": scenarios_per_s}


def _measure(figure: str, pos: _Position, n: Callable[[int, int], int]) -> dict[str, float]:
    """One round of one figure, with its floor, in microseconds."""
    if figure == "moves":
        move, floor = time_moves(pos.game, pos.workload, n(4, 3))
        return {"move_us": move, "move_floor_us": floor}
    if figure == "undo":
        undo, floor = time_undo(pos.game, pos.workload, n(3, 2))
        return {"undo_us": undo, "move_floor_us": floor}
    if figure == "copies":
        copy_us, floor, deep = time_copy(pos.game, pos.pristine, n(100, 50))
        return {"copy_us": copy_us, "copy_floor_us": floor, "deepcopy_us": deep}
    if figure == "legal":
        legal_us, tried, listed = time_legal(pos.game, n(3, 2))
        return {"legal_us": legal_us, "legal_tried": tried, "legal_listed": listed}
    view_us, floor, dicts = time_view(pos.game, n(200, 100))
    return {"view_us": view_us, "view_floor_us": floor, "view_dicts": dicts}


def _figures(objects: int, best: dict[str, float]) -> dict[str, Any]:
    move, floor = best["move_us"], best["move_floor_us"]
    copy_us, copy_floor, deep = best["copy_us"], best["copy_floor_us"], best["deepcopy_us"]
    view_us, view_floor = best["view_us"], best["view_floor_us"]
    per_try = best["legal_us"] / max(1, best["legal_tried"])
    return {
        "objects": objects,
        "moves_per_s": round(1e6 / move),
        "move_us": round(move, 3),
        "move_floor_us": round(floor, 4),
        "move_ratio": round(move / floor, 2),
        "undo_us": round(best["undo_us"], 3),
        "undo_ratio": round(best["undo_us"] / floor, 2),
        "copy_us": round(copy_us, 3),
        "copy_floor_us": round(copy_floor, 3),
        "copy_ratio": round(copy_us / copy_floor, 2),
        "deepcopy_us": round(deep, 1),
        "copy_speedup_vs_deepcopy": round(deep / copy_us, 1),
        "view_us": round(view_us, 2),
        "view_floor_us": round(view_floor, 2),
        "view_ratio": round(view_us / view_floor, 2),
        "view_dicts": int(best["view_dicts"]),
        "legal_ms": round(best["legal_us"] / 1e3, 2),
        "legal_tried": int(best["legal_tried"]),
        "legal_listed": int(best["legal_listed"]),
        "legal_per_try_us": round(per_try, 2),
        "legal_try_ratio": round(per_try / (move + best["undo_us"]), 2),
    }


# -- the report -------------------------------------------------------------

#: The rows of the report: (what, engine key, floor key, what the floor is, ratio key).
_ROWS = (
    ("move, µs per action", "move_us", "move_floor_us", "bare move", "move_ratio"),
    ("undo, µs per action", "undo_us", "move_floor_us", "bare move", "undo_ratio"),
    ("copy, µs", "copy_us", "copy_floor_us", "bare copy", "copy_ratio"),
    ("view, µs", "view_us", "view_floor_us", "bare view", "view_ratio"),
    ("copy against deepcopy, µs", "copy_us", "deepcopy_us", "deepcopy", "copy_speedup_vs_deepcopy"),
    (
        "legal actions, µs per try",
        "legal_per_try_us",
        "move_undo_us",
        "move + undo",
        "legal_try_ratio",
    ),
)


def _mark(ok: bool) -> str:
    return "[green]ok[/green]" if ok else "[red]missed[/red]"


def _target(key: str, value: float) -> str:
    for target_key, at_most, bound in TARGETS:
        if target_key == key:
            ok = value <= bound if at_most else value >= bound
            return f"{'<=' if at_most else '>='} {bound:,g}× {_mark(ok)}"
    return ""


def report(result: dict[str, Any]) -> Table:
    """The figures as a table: each engine figure, its floor, the ratio and its
    target; for several sizes, :func:`growth_report`."""
    if "runs" in result:
        return growth_report(result)
    table = Table(
        title=f"cardzones bench (fab, {result['objects']} objects)",
        caption=(
            f"{result['moves_per_s']:,} moves/s, {result['scenarios_per_s']:,} scenarios/s; "
            f"the view shows {result['view_dicts']:,} dicts; legal actions take "
            f"{result['legal_ms']:,} ms ({result['legal_tried']:,} tries, "
            f"{result['legal_listed']:,} listed). Ratios are to floors "
            "measured in the same run (docs/performance.md)."
        ),
    )
    for column in ("figure", "engine", "floor", "the floor", "ratio", "target"):
        table.add_column(column, justify="left" if column in ("figure", "the floor") else "right")
    for label, engine, floor, floor_name, ratio in _ROWS:
        base = (
            round(result["move_us"] + result["undo_us"], 3)
            if floor == "move_undo_us"
            else result[floor]
        )
        table.add_row(
            label,
            f"{result[engine]:,}",
            f"{base:,}",
            floor_name,
            f"{result[ratio]:,}×",
            _target(ratio, result[ratio]),
        )
    return table


#: The rows of the growth report: (what, key, growth key). A view's row is
#: per dict it shows, as a view is linear in what its viewer sees.
_GROWTH_ROWS = (
    ("move, µs per action", "move_us", "move_growth"),
    ("undo, µs per action", "undo_us", "undo_growth"),
    ("copy, µs", "copy_us", "copy_growth"),
    ("view, µs", "view_us", None),
    ("view, dicts shown", "view_dicts", None),
    ("view, ns per dict shown", "view_ns_per_dict", "view_growth"),
    ("bare move, µs per action", "move_floor_us", None),
    ("move ratio", "move_ratio", None),
    ("undo ratio", "undo_ratio", None),
    ("copy ratio", "copy_ratio", None),
    ("view ratio", "view_ratio", None),
    ("copy against deepcopy", "copy_speedup_vs_deepcopy", None),
    ("legal actions, ms", "legal_ms", None),
    ("legal actions, candidates tried", "legal_tried", None),
    ("legal actions, µs per try", "legal_per_try_us", None),
)


def _number(value: float) -> str:
    """A figure with three significant digits or so, and thousands separated."""
    if isinstance(value, int) or abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def growth_report(result: dict[str, Any]) -> Table:
    """How each figure grows with the number of objects: one column per size,
    then the largest size's cost against the first one's, and its target."""
    runs = result["runs"]
    table = Table(
        title="cardzones bench: growth with the number of objects (fab)",
        caption=f"every size measured in the same run; {result['scenarios_per_s']:,} scenarios/s",
    )
    table.add_column("objects")
    for run in runs:
        table.add_column(f"{run['objects']:,}", justify="right")
    table.add_column("growth", justify="right")
    table.add_column("target", justify="right")
    for label, key, growth in _GROWTH_ROWS:
        cells = []
        for run in runs:
            value = (
                run["view_us"] / run["view_dicts"] * 1e3 if key == "view_ns_per_dict" else run[key]
            )
            cells.append(_number(value))
        if growth is None:
            table.add_row(label, *cells, "", "")
            continue
        g = runs[-1][growth]
        target = f"<= {GROWTH_TARGET:g}× {_mark(g <= GROWTH_TARGET)}"
        table.add_row(label, *cells, f"{g:,}×", target)
    return table
