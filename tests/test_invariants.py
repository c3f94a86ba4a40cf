"""Property tests: random games driven through the Python API keep the zone
invariants after every step.

Hypothesis builds a random card pool and a random sequence of actions, through
the kernel (``move``, ``flip``, ``shuffle``, ``clear``, ``end_turn``, ``undo``)
and the rule set's own actions. A refusal (:class:`IllegalAction`, including
``NeedsChoice``) is a legitimate answer; after every step, refused or not,
:func:`check_invariants` must hold.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from cardzones import Move, new_game
from cardzones.errors import CardzonesError, IllegalAction
from cardzones.kernel.cards import CardDef, Dest, HistoryCondition, PlayFrom, Replacement, Trigger
from cardzones.kernel.game import Game, MoveResult
from cardzones.kernel.objects import CARD, PLACED, TOP, UNDER, Obj
from cardzones.rulesets.fab import actions as fab
from cardzones.rulesets.fab import layers
from cardzones.rulesets.fab.cards import is_deck_card
from cardzones.rulesets.redemption import (
    PHASES,
    Ongoing,
    advance_to,
    end_battle,
    negate,
    place,
    play_dominant,
    relocate,
    return_cards,
    set_aside,
)
from cardzones.rulesets.redemption import discard as red_discard
from cardzones.rulesets.redemption.cards import CARD_TYPES, own_fields
from cardzones.scenario.runner import same_state

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
STEPS = 30

PLAYER_SETS = (("alice", "bob"), ("alice", "bob", "carol"))


# ----------------------------------------------------------------------
# Invariants
# ----------------------------------------------------------------------


def check_places(game: Game) -> None:
    """3.0.7, 3.0.14: every object is in exactly one place, either a top-level
    entry of one zone's contents or one entry of one host's pile; no card id
    appears twice; the ``zone``, ``host`` and ``rel`` fields say where it is; it is
    in a zone that exists (3.0.10, 3.0.11); and the piles have no cycle."""
    seen: Counter[int] = Counter()
    for zid, cards in game._contents.items():
        if not game.zone_exists(zid):
            assert not cards, f"removed zone {zid} still holds {cards}"
        for card in cards:
            seen[card] += 1
            assert card in game._objs, f"zone {zid} lists card {card}, which does not exist"
            obj = game._objs[card]
            assert obj.zone == zid, f"card {card} is listed in {zid} but says zone {obj.zone}"
            assert obj.host is None and obj.rel == TOP, f"top-level card {card} has a host"
    for host, kids in game._kids.items():
        assert kids, f"host {host} has an empty pile entry"
        assert host in game._objs, f"cards {kids} are under {host}, which does not exist"
        for kid in kids:
            seen[kid] += 1
            assert kid in game._objs, f"host {host} lists card {kid}, which does not exist"
            obj = game._objs[kid]
            assert obj.host == host, f"card {kid} is in {host}'s pile but says host {obj.host}"
            assert obj.rel != TOP, f"card {kid} is in a pile but is a top-level object"
    twice = [card for card, n in seen.items() if n > 1]
    assert not twice, f"cards in two places at once: {twice}"
    assert set(seen) == set(game._objs), (
        f"objects in no place: {sorted(set(game._objs) - set(seen))}"
    )
    for card, obj in game._objs.items():
        assert obj.card == card
        assert game.zone_exists(obj.zone), f"card {card} is in a zone that does not exist"
        chain = [card]
        cur = obj
        while cur.host is not None:
            assert cur.host not in chain, f"cycle of hosts {chain}"
            chain.append(cur.host)
            cur = game._objs[cur.host]


def check_hosts(game: Game) -> None:
    """3.0.14, 3.0.14c, 3.0.14d: a sub-card or placed card is in its host's
    zone; a sub-card has the visibility of its top-card and is under a top-level
    card (a sub-card has no sub-cards of its own)."""
    for card, obj in game._objs.items():
        if obj.host is None:
            continue
        host = game._objs[obj.host]
        assert obj.zone == host.zone, (
            f"card {card} is with {obj.host} but in zone {obj.zone}, not {host.zone}"
        )
        if obj.rel == UNDER:
            assert obj.public == host.public, (
                f"sub-card {card} is {'public' if obj.public else 'private'} "
                f"under a {'public' if host.public else 'private'} top-card (3.0.14d)"
            )
            assert host.host is None, f"sub-card {card} is under a card that is not top-level"
            assert obj.kind == CARD, f"non-card {card} is a sub-card (3.0.14)"
            assert not obj.equipped, f"sub-card {card} is equipped"


def check_capacity(game: Game) -> None:
    """3.0.11: no zone holds more top-level objects than its capacity (the
    arsenal 3.3.2a, the hero zone 3.11.2, the equipment zones 8.5.41c)."""
    for zid in game.all_zones():
        spec = game.zone_info(zid).spec
        if spec.capacity is not None:
            n = len(game.contents(zid))
            assert n <= spec.capacity, f"{game.zone_name(zid)} holds {n} > {spec.capacity}"


_OWN_DECK_CARDS = {"arsenal", "deck", "hand", "pitch"}
_OWN_CARDS = {"banished", "graveyard"}


def check_fab_admission(game: Game) -> None:
    """3.3.2, 3.7.2, 3.9.2, 3.14.2: arsenal, deck, hand and pitch hold only
    their owner's deck-cards; 3.4.2, 3.8.2: banished and graveyard only their
    owner's cards; 3.11.2: a hero zone holds at most one hero card; 1.6.2b: a
    non-card layer exists only on the stack; 8.1.8a: a token exists only in the
    arena or as a sub-card; 1.2.1b, 3.0.14b: an object in the arena or on the
    stack has a controller, and no other object has one, a sub-card included."""
    for zid in game.all_zones():
        info = game.zone_info(zid)
        for card in game.contents(zid):
            obj = game.obj(card)
            name = game.zone_name(zid)
            if obj.kind in ("activated", "triggered"):
                assert info.type == "stack", f"a {obj.kind} layer is in {name} (1.6.2b)"
                continue
            if info.type in _OWN_DECK_CARDS:
                assert obj.owner == info.owner, f"{name} holds {obj.owner}'s card"
                assert is_deck_card(obj.cdef), f"{name} holds {obj.cdef.name}, not a deck-card"
            if info.type in _OWN_CARDS:
                assert obj.owner == info.owner, f"{name} holds {obj.owner}'s card"
            if info.type == "hero":
                assert "hero" in obj.cdef.types, f"{name} holds {obj.cdef.name} (3.11.2)"
            if obj.is_token:
                assert info.spec.in_arena, f"token {obj.cdef.name} is in {name} (8.1.8a)"
            if info.spec.controlled:
                assert obj.controller in game.players, (
                    f"{obj.cdef.name} in {name} has controller {obj.controller!r} (1.2.1b)"
                )
            else:
                assert obj.controller is None, (
                    f"{obj.cdef.name} in {name} has a controller outside the arena (1.2.1b)"
                )
    for obj in game._objs.values():
        if obj.rel == UNDER:
            assert obj.controller is None, f"sub-card {obj.cdef.name} has a controller (3.0.14b)"


def check_equipment(game: Game) -> None:
    """8.5.41c, 8.5.41e: each object in an equipment zone is equipped to it, and
    each equipment zone has one occupant and at most one equipped object;
    8.2.2b, 8.2.2c: a two-hander is equipped to two of its player's weapon zones
    and occupies the first; 8.2.15a: the one exception is a quiver occupying
    the zone a two-hander bow is equipped to but does not occupy; 8.2.10b,
    8.2.15b: at most one off-hand and one quiver per player."""
    for obj in game._objs.values():
        if not obj.equipped:
            continue
        name = obj.cdef.name
        assert obj.host is None, f"{name} is equipped as a sub-card"
        assert obj.equipped[0] == obj.zone, f"{name} does not occupy the first zone it equips"
        info = game.zone_info(obj.zone)
        assert info.spec.equipment, f"{name} is equipped but in {game.zone_name(obj.zone)}"
        assert len(set(obj.equipped)) == len(obj.equipped)
        for z in obj.equipped:
            assert game.zone_exists(z), f"{name} is equipped to a zone that does not exist"
            zi = game.zone_info(z)
            assert (zi.owner, zi.type) == (info.owner, info.type), (
                f"{name} is equipped to zones of different types or players"
            )
        if "2h" in obj.cdef.types and info.type == "weapon":
            assert len(obj.equipped) == 2, f"two-hander {name} equips {len(obj.equipped)} zone(s)"
        else:
            assert len(obj.equipped) == 1, f"{name} equips {len(obj.equipped)} zones"
    for zid in game.all_zones():
        info = game.zone_info(zid)
        if not info.spec.equipment:
            continue
        name = game.zone_name(zid)
        occupants = game.contents(zid)
        assert len(occupants) <= 1, f"{name} has {len(occupants)} occupants"
        for card in occupants:
            assert zid in game.obj(card).equipped, (
                f"{game.obj(card).cdef.name} is in {name} but not equipped to it (8.5.41e)"
            )
        equipped = game.equipped_in(zid)
        if len(equipped) > 1:
            objs = [game.obj(c) for c in equipped]
            bows = [o for o in objs if {"2h", "bow"} <= o.cdef.types and o.zone != zid]
            quivers = [o for o in objs if "quiver" in o.cdef.types and o.zone == zid]
            assert len(equipped) == 2 and len(bows) == 1 and len(quivers) == 1, (
                f"{name} has {len(equipped)} equipped objects: "
                f"{[o.cdef.name for o in objs]} (8.5.41c, 8.2.15a)"
            )
    for player in game.players:
        held = [game.obj(c) for z in game.zones_of(player, "weapon") for c in game.contents(z)]
        offhands = [o for o in held if "off-hand" in o.cdef.types]
        quivers = [o for o in held if "quiver" in o.cdef.types]
        assert len(offhands) <= 1, f"{player} has {len(offhands)} off-hands (8.2.10b)"
        assert len(quivers) <= 1, f"{player} has {len(quivers)} quivers (8.2.15b)"


def check_ceased(game: Game, known: dict[int, CardDef | str]) -> None:
    """3.0.12a, 8.1.8a, 1.6.2b: a physical card never leaves the game; only a
    token or a non-card layer ceases to exist. ``known`` remembers, for every id
    seen so far, its card or its kind of layer."""
    for card, obj in game._objs.items():
        known[card] = obj.cdef if obj.kind == CARD else obj.kind
    for card in range(1, game._vars["next_card"]):
        if card in game._objs:
            continue
        what = known.get(card)
        if isinstance(what, CardDef):
            assert "token" in what.types, f"card {card} ({what.name}) vanished from the game"


FAB_CHECKS: tuple[Callable[[Game], None], ...] = (
    check_places,
    check_hosts,
    check_capacity,
    check_fab_admission,
    check_equipment,
)


def check_layout(game: Game) -> None:
    """The zone list the game keeps (3.0.10 changes it) is the one its zones
    give, in order: shared zones, then each player's, in spec order."""
    zones = game._zones
    want = [
        z
        for spec in game.ruleset.zone_specs.values()
        if spec.shared
        for z in zones.get((None, spec.type), ())
    ]
    for player in game.players:
        for spec in game.ruleset.zone_specs.values():
            if not spec.shared:
                want.extend(zones.get((player, spec.type), ()))
    assert game.all_zones() == want, f"kept zone list {game.all_zones()} is not {want}"


def check_invariants(game: Game, known: dict[int, CardDef | str]) -> None:
    """Every invariant of the game's rule set."""
    for check in CHECKS[game.ruleset.name]:
        check(game)
    check_layout(game)
    check_ceased(game, known)


# ----------------------------------------------------------------------
# fab: card pools and actions
# ----------------------------------------------------------------------

FAB_TYPES: tuple[frozenset[str], ...] = tuple(
    frozenset(t.split())
    for t in (
        "action",
        "action attack",
        "instant",
        "defense_reaction",
        "resource",
        "action aura",
        "action item",
        "action ally",
        "action attack arrow",
        "equipment arms",
        "equipment chest",
        "equipment head",
        "equipment legs",
        "weapon sword 1h",
        "weapon sword 2h",
        "weapon bow 2h",
        "weapon",
        "off-hand",
        "quiver",
        "hero",
        "token aura",
        "token weapon 1h",
        "token weapon 2h",
        "token ally",
        "landmark",
    )
)
FAB_ZONE_TYPES = [
    "arms",
    "arsenal",
    "banished",
    "chest",
    "combat_chain",
    "deck",
    "graveyard",
    "hand",
    "head",
    "hero",
    "legs",
    "permanent",
    "pitch",
    "stack",
    "weapon",
]


def fab_dests(players: tuple[str, ...]) -> st.SearchStrategy[Dest]:
    return st.builds(
        Dest,
        st.sampled_from([*FAB_ZONE_TYPES, "arena"]),
        st.sampled_from([None, "owner", "you", *players]),
        st.sampled_from([None, None, 1, 2, 3]),
    )


def fab_abilities(players: tuple[str, ...]) -> st.SearchStrategy[tuple[Any, ...]]:
    """3.0.8a replacements, 3.0.4e / 3.0.9c play_from and 3.0.9a triggers, biased
    towards the zones cards often go to, so that they apply."""
    ztype = st.sampled_from(FAB_ZONE_TYPES)
    common = st.sampled_from(["graveyard", "banished", "permanent", "hand", "deck", "pitch"])
    owner_dest = st.builds(Dest, st.one_of(common, ztype), st.just("owner"))
    replacement = st.builds(
        Replacement,
        st.one_of(common, ztype),
        st.none() | ztype,
        owner_dest,
        st.sampled_from(["top", "bottom"]),
        st.sampled_from([None, "up", "down"]),
    )
    play_from = st.builds(
        PlayFrom,
        st.one_of(common, ztype),
        st.booleans(),
        st.none()
        | st.builds(HistoryCondition, st.none() | ztype, st.none() | ztype, st.booleans()),
    )
    trigger = st.builds(
        Trigger,
        st.sampled_from([None, None]) | common,
        st.sampled_from([None, None, "arena"]) | ztype,
        st.sampled_from(
            [frozenset(), frozenset(), frozenset({"action"}), frozenset({"aura", "weapon"})]
        ),
        st.sampled_from([False, False, True]),
        st.builds(
            Dest,
            st.sampled_from([*FAB_ZONE_TYPES, "soul", "soul", "arena"]),
            st.sampled_from(["owner", "you", None]),
        ),
    )
    return st.lists(st.one_of(replacement, play_from, trigger), max_size=2).map(tuple)


@st.composite
def fab_card(draw: st.DrawFn, players: tuple[str, ...], i: int) -> CardDef:
    types = draw(st.sampled_from(FAB_TYPES))
    abilities = draw(fab_abilities(players)) if draw(st.booleans()) else ()
    power = draw(st.integers(0, 6))
    return CardDef(f"C{i}", types, {"power": power}, abilities=abilities)


def _admitting(game: Game, cdef: CardDef, owner: str) -> list[int]:
    """The zones that would take a new card (3.0.11), to deal a pool into."""
    out = []
    for zid in game.all_zones():
        probe = Obj(-1, -1, cdef, owner, owner, zid, True)
        if game.ruleset.admit(game, probe, zid, owner).ok:
            out.append(zid)
    return out


def fab_setup(draw: st.DrawFn, game: Game) -> None:
    """Deal a random pool: a hero for most players, then cards into zones that
    can take them, some face down, and a few sub-cards."""
    players = game.players
    hero = CardDef("Hero", frozenset({"hero"}))
    for player in players:
        if draw(st.integers(0, 3)) > 0:
            hero_zone = game.zone(player, "hero")
            assert hero_zone is not None
            game.new_card(hero, hero_zone, owner=player)
            note(f"game.new_card(Hero, {hero_zone}, owner={player!r})")
    n = draw(st.integers(2, 12))
    for i in range(n):
        cdef = draw(fab_card(players, i))
        owner = draw(st.sampled_from(players))
        zones = _admitting(game, cdef, owner)
        if not zones:
            continue
        zid = draw(st.sampled_from(zones))
        playable = [
            z for z in zones if any(a.zone == game.zone_info(z).type for a in cdef.play_from)
        ]
        if playable and draw(st.booleans()):
            zid = draw(st.sampled_from(playable))
        face = draw(st.sampled_from([None, None, None, True, False]))
        if face is not None:
            probe = Obj(-1, -1, cdef, owner, owner, zid, face)
            if not game.ruleset.admit(game, probe, zid, owner).ok:
                # A private card is only its category to the rules (3.0.7a): a
                # zone that takes the card face up may refuse it face down.
                face = None
        host = None
        hosts = [
            c
            for c in game.contents(zid)
            if game.is_permanent(c) or game.zone_info(zid).type == "stack"
        ]
        if hosts and draw(st.integers(0, 3)) == 0:
            host, face = draw(st.sampled_from(hosts)), None
        game.new_card(
            cdef,
            zid,
            owner=owner,
            public=face,
            position="bottom",
            host=host,
            rel=UNDER if host is not None else TOP,
        )
        note(
            f"game.new_card({cdef!r}, {zid}, owner={owner!r}, public={face!r}, "
            f"position='bottom', host={host!r}, rel={UNDER if host is not None else TOP})"
        )


def _pick_card(draw: st.DrawFn, game: Game) -> int:
    cards = sorted(game.cards())
    if not cards:
        return 10_000
    return draw(st.sampled_from(cards))


def _pick_zone(draw: st.DrawFn, game: Game) -> int:
    return draw(st.sampled_from(sorted(game._zinfo)))


def _maybe_zone(draw: st.DrawFn, game: Game) -> int | None:
    """Mostly no choice; sometimes a zone, legal or not (3.0.10a)."""
    if draw(st.integers(0, 3)) > 0:
        return None
    return _pick_zone(draw, game)


def _position(draw: st.DrawFn) -> Any:
    return draw(st.sampled_from(["top", "bottom", 0, 1, 2, 5]))


class Call:
    """A deferred call that shows itself as Python, for failing examples."""

    def __init__(
        self, fn: Callable[..., Any], *args: Any, atomic: Game | None = None, **kwargs: Any
    ) -> None:
        self.fn, self.args, self.kwargs, self.atomic = fn, args, kwargs, atomic

    def __call__(self) -> Any:
        if self.atomic is None:
            return self.fn(*self.args, **self.kwargs)
        with self.atomic.atomic():
            return self.fn(*self.args, **self.kwargs)

    def __repr__(self) -> str:
        parts = ["game" if isinstance(a, Game) else repr(a) for a in self.args]
        parts += [f"{k}={v!r}" for k, v in self.kwargs.items()]
        name = getattr(self.fn, "__qualname__", repr(self.fn))
        text = f"{getattr(self.fn, '__module__', '')}.{name}({', '.join(parts)})"
        return f"with game.atomic(): {text}" if self.atomic is not None else text


def fab_action(draw: st.DrawFn, game: Game) -> Call:
    """One random fab action."""
    players = game.players
    by = draw(st.sampled_from(players))
    kind = draw(
        st.sampled_from(
            [
                "move",
                "move",
                "move",
                "move_dest",
                "move_dest",
                "soul",
                "flip",
                "shuffle",
                "clear",
                "end_turn",
                "play",
                "put_under",
                "token",
                "create_zone",
                "remove_zone",
                "remove_zone",
                "add_layer",
                "remove_layer",
                "resolve",
                "resolve",
                "modify",
                "undo",
            ]
        )
    )
    if kind == "undo":
        return Call(game.undo)
    if kind in ("move", "move_dest"):
        card = _pick_card(draw, game)
        dest: Dest | int = _pick_zone(draw, game) if kind == "move" else draw(fab_dests(players))
        return Call(
            game.move,
            card,
            dest,
            position=_position(draw),
            face=draw(st.sampled_from([None, "up", "down"])),
            cause=draw(st.sampled_from(["effect", "rule"])),
            by=by,
            choose_zone=_maybe_zone(draw, game),
        )
    if kind == "soul":
        owner = draw(st.sampled_from([None, "owner", "you", *players]))
        return Call(game.move, _pick_card(draw, game), Dest("soul", owner), by=by)
    if kind == "flip":
        return Call(game.flip, _pick_card(draw, game), draw(st.sampled_from(["up", "down"])), by=by)
    if kind == "shuffle":
        return Call(game.shuffle, draw(st.sampled_from(game.all_zones())), by=by)
    if kind == "clear":
        return Call(game.clear, _pick_card(draw, game), by=by)
    if kind == "end_turn":
        cards = sorted(game.cards())
        order = draw(st.lists(st.sampled_from(cards), unique=True, max_size=4)) if cards else []
        return Call(game.end_turn, order)
    if kind == "play":
        playable = [
            c
            for c in sorted(game.cards())
            if any(
                a.zone == game.zone_info(game.location(c)).type for a in game.obj(c).cdef.play_from
            )
        ]
        card = (
            draw(st.sampled_from(playable))
            if playable and draw(st.booleans())
            else _pick_card(draw, game)
        )
        if game.exists(card) and draw(st.integers(0, 3)) > 0:
            by = game.obj(card).owner or by
        return Call(fab.play, game, card, by)
    if kind == "put_under":
        tops = [
            c
            for c in sorted(game.cards())
            if game.is_permanent(c) or game.zone_info(game.location(c)).type == "stack"
        ]
        top = (
            draw(st.sampled_from(tops)) if tops and draw(st.booleans()) else _pick_card(draw, game)
        )
        return Call(fab.put_under, game, _pick_card(draw, game), top, by)
    if kind == "token":
        cdef = draw(fab_card(players, 100 + game._vars["next_card"]))
        arena = [z for z in game.all_zones() if game.zone_info(z).spec.in_arena]
        dest = draw(
            st.one_of(
                fab_dests(players), st.sampled_from(sorted(game._zinfo)), st.sampled_from(arena)
            )
        )
        choose = _maybe_zone(draw, game)
        return Call(fab.try_create_token, game, cdef, dest, by, choose_zone=choose)
    if kind == "create_zone":
        ztype = draw(st.sampled_from(["arsenal", "weapon", "arms", "hero", "stack", "hand"]))
        return Call(fab.create_zone, game, by, ztype)
    if kind == "remove_zone":
        ztype = draw(st.sampled_from(["arsenal", "weapon", "weapon", "arms", "hero", "graveyard"]))
        own = list(game.zones_of(by, ztype))
        choose = (
            draw(st.sampled_from(own))
            if own and draw(st.integers(0, 3)) > 0
            else _maybe_zone(draw, game)
        )
        return Call(fab.remove_zone, game, by, ztype, choose)
    if kind == "add_layer":
        lkind = draw(st.sampled_from(["activated", "triggered", "card"]))
        return Call(layers.add_layer, game, lkind, _pick_card(draw, game), by, atomic=game)
    if kind == "remove_layer":
        return Call(layers.remove_layer, game, draw(st.integers(0, 4)), by, atomic=game)
    if kind == "resolve":
        return Call(layers.resolve_top, game, by, atomic=game)
    assert kind == "modify"
    return Call(
        game.add_effect,
        _pick_card(draw, game),
        "modify",
        mods=[("power", 1)],
        until=draw(st.sampled_from([None, "end_of_turn"])),
        atomic=game,
    )


# ----------------------------------------------------------------------
# redemption: card pools and actions
# ----------------------------------------------------------------------


@st.composite
def red_card(draw: st.DrawFn, i: int) -> CardDef:
    ctype = draw(st.sampled_from(CARD_TYPES))
    brigades = frozenset(draw(st.sets(st.sampled_from(["red", "blue"]), max_size=2)))
    classes = frozenset({"territory"}) if draw(st.integers(0, 3)) == 0 else frozenset()
    stats = {"strength": draw(st.integers(0, 8)), "toughness": draw(st.integers(0, 8))}
    return CardDef(f"R{i}", frozenset({ctype}), stats, extra=own_fields(brigades, classes))


def red_setup(draw: st.DrawFn, game: Game) -> None:
    """Deal a random pool into random zones, mostly in play, some placed on
    other cards."""
    players = game.players
    zones = game.all_zones()
    in_play = [z for z in zones if game.zone_info(z).spec.in_play]
    for i in range(draw(st.integers(2, 12))):
        cdef = draw(red_card(i))
        owner = draw(st.sampled_from(players))
        zid = draw(st.sampled_from(in_play if draw(st.integers(0, 2)) else zones))
        hand = game.zone(owner, "hand")
        if "dominant" in cdef.types and hand is not None and draw(st.integers(0, 2)):
            zid = hand
        host = None
        if game.contents(zid) and draw(st.integers(0, 3)) == 0:
            host = draw(st.sampled_from(game.contents(zid)))
        pcontrol = draw(st.sampled_from([None, *players]))
        game.new_card(
            cdef,
            zid,
            owner=owner,
            position="bottom",
            host=host,
            rel=PLACED if host is not None else TOP,
            pcontrol=pcontrol,
        )
        note(
            f"game.new_card({cdef!r}, {zid}, owner={owner!r}, position='bottom', "
            f"host={host!r}, rel={PLACED if host is not None else TOP}, pcontrol={pcontrol!r})"
        )


def _cards(draw: st.DrawFn, game: Game, in_play: bool = False) -> list[int]:
    cards = sorted(c for c in game.cards() if not in_play or game.in_play(c))
    if not cards:
        return [10_000]
    return draw(st.lists(st.sampled_from(cards), min_size=1, max_size=3, unique=True))


def _ongoing(draw: st.DrawFn, game: Game) -> Ongoing | None:
    if draw(st.booleans()):
        return None
    return Ongoing(_pick_card(draw, game), (("strength", draw(st.integers(-2, 3))),))


def red_action(draw: st.DrawFn, game: Game, handles: list[Any]) -> Call:
    """One random redemption action."""
    players = game.players
    by = draw(st.sampled_from([game.turn_player, *players]))
    kind = draw(
        st.sampled_from(
            [
                "move",
                "move",
                "relocate",
                "flip",
                "shuffle",
                "end_turn",
                "place",
                "place",
                "place_in",
                "set_aside",
                "set_aside",
                "return",
                "negate",
                "dominant",
                "discard",
                "phase",
                "phase",
                "end_battle",
                "modify",
                "undo",
            ]
        )
    )
    if kind == "undo":
        return Call(game.undo)
    if kind in ("move", "relocate"):
        card = _pick_card(draw, game)
        dest: Dest | int = draw(
            st.one_of(
                st.sampled_from(sorted(game._zinfo)),
                st.builds(
                    Dest,
                    st.sampled_from(RED_ZONE_TYPES),
                    st.sampled_from([None, "owner", "you", *players]),
                ),
            )
        )
        kw = {
            "position": _position(draw),
            "face": draw(st.sampled_from([None, "up", "down"])),
            "cause": draw(st.sampled_from(["effect", "rule"])),
        }
        if kind == "move":
            return Call(game.move, card, dest, by=by, **kw)
        return Call(relocate, game, Move(card, dest, by=by, **kw), label="m", atomic=game)
    if kind == "flip":
        return Call(game.flip, _pick_card(draw, game), draw(st.sampled_from(["up", "down"])), by=by)
    if kind == "shuffle":
        return Call(game.shuffle, draw(st.sampled_from(game.all_zones())), by=by)
    if kind == "end_turn":
        return Call(game.end_turn)
    if kind == "place":
        cards = _cards(draw, game, in_play=draw(st.booleans()))
        onto = _pick_card(draw, game)
        order = list(reversed(cards)) if draw(st.booleans()) else None
        return Call(
            place,
            game,
            cards,
            by=by,
            onto=onto,
            order=order,
            source=draw(st.sampled_from([None, cards[0]])),
            ongoing=_ongoing(draw, game),
            colon=draw(st.booleans()),
            label="p",
        )
    if kind == "place_in":
        cards = _cards(draw, game, in_play=draw(st.booleans()))
        into = draw(
            st.one_of(
                st.sampled_from(sorted(game._zinfo)),
                st.builds(
                    Dest,
                    st.sampled_from(RED_ZONE_TYPES),
                    st.sampled_from([None, "owner", *players]),
                ),
            )
        )
        order = list(cards) if draw(st.booleans()) else None
        return Call(
            place,
            game,
            cards,
            by=by,
            into=into,
            order=order,
            position=_position(draw),
            source=draw(st.sampled_from([None, cards[0]])),
            ongoing=_ongoing(draw, game),
            label="p",
        )
    if kind == "set_aside":
        cards = _cards(draw, game, in_play=draw(st.integers(0, 3)) > 0)
        enhancements = sorted(c for c in game.cards() if "enhancement" in game.obj(c).cdef.types)
        source = draw(st.sampled_from([None, *enhancements])) if enhancements else None
        areas = [z for z in game.all_zones() if game.zone_info(z).type == "set_aside"]
        return Call(
            set_aside,
            game,
            cards,
            by=by,
            source=source,
            played_on=draw(st.sampled_from([None, cards[0]])),
            duration=draw(st.sampled_from([None, None, 1, 2, 0])),
            ongoing=_ongoing(draw, game),
            area=draw(st.sampled_from(areas)) if draw(st.integers(0, 3)) == 0 else None,
            in_battle=draw(st.booleans()),
            label="s",
        )
    if kind == "return":
        aside = sorted(
            c for c in game.cards() if game.zone_info(game.location(c)).type == "set_aside"
        )
        cards = (
            draw(st.lists(st.sampled_from(aside), min_size=1, max_size=2, unique=True))
            if aside and draw(st.integers(0, 3)) > 0
            else _cards(draw, game)
        )
        return Call(
            return_cards, game, cards, by=by, cause=draw(st.sampled_from(["own", "effect"]))
        )
    if kind == "negate":
        handle = draw(st.sampled_from(handles)) if handles else ("kernel", 1)
        return Call(negate, game, handle, by=by)
    if kind == "dominant":
        dominants = sorted(c for c in game.cards() if "dominant" in game.obj(c).cdef.types)
        aside = sorted(
            c for c in game.cards() if game.zone_info(game.location(c)).type == "set_aside"
        )
        card = draw(st.sampled_from(dominants)) if dominants else _pick_card(draw, game)
        target = draw(st.sampled_from(aside)) if aside else _pick_card(draw, game)
        return Call(play_dominant, game, card, target, by=by)
    if kind == "discard":
        return Call(
            red_discard,
            game,
            _pick_card(draw, game),
            by=by,
            label=draw(st.sampled_from([None, "d"])),
        )
    if kind == "phase":
        return Call(advance_to, game, draw(st.sampled_from([*PHASES, "dusk"])))
    if kind == "end_battle":
        return Call(end_battle, game)
    assert kind == "modify"
    return Call(
        game.add_effect,
        _pick_card(draw, game),
        "modify",
        mods=[("strength", 1)],
        until=draw(st.sampled_from([None, "end_of_turn"])),
        atomic=game,
    )


RED_ZONE_TYPES = [
    "deck",
    "hand",
    "discard",
    "territory",
    "land_of_bondage",
    "land_of_redemption",
    "set_aside",
    "reserve",
    "banish",
    "field_of_battle",
]


def check_red(game: Game) -> None:
    """place/movement-follows-underlying: a card placed on a card is in that
    card's zone; set-aside/area-permanent-controller: a card that counts as set
    aside is in a set-aside area."""
    from cardzones.rulesets.redemption import is_set_aside

    for card, obj in game._objs.items():
        if obj.rel == PLACED:
            assert obj.host is not None and game._objs[obj.host].zone == obj.zone
        if is_set_aside(game, card):
            assert game.zone_info(obj.zone).type == "set_aside", (
                f"{obj.cdef.name} is set aside but in {game.zone_name(obj.zone)}"
            )


# ----------------------------------------------------------------------
# The driver, shared by the rule sets
# ----------------------------------------------------------------------

Setup = Callable[[st.DrawFn, Game], None]
Action = Callable[[st.DrawFn, Game, list[Any]], Call]

CHECKS: dict[str, tuple[Callable[[Game], None], ...]] = {
    "fab": FAB_CHECKS,
    "redemption": (check_places, check_hosts, check_capacity, check_red),
}
DRIVERS: dict[str, tuple[Setup, Action]] = {
    "fab": (fab_setup, lambda draw, game, handles: fab_action(draw, game)),
    "redemption": (red_setup, red_action),
}


def run_random_game(data: st.DataObject, ruleset: str) -> None:
    """Play a random game and check the invariants after every step; a refused
    or failed action (3.0.11) changes nothing, and undo restores the state
    before the last action that changed it exactly."""
    setup, action = DRIVERS[ruleset]
    players = data.draw(st.sampled_from(PLAYER_SETS))
    game = new_game(ruleset, players, seed=data.draw(st.integers(0, 3)))
    setup(data.draw, game)
    known: dict[int, CardDef | str] = {}
    check_invariants(game, known)
    history: list[Game] = []
    handles: list[Any] = []
    for _ in range(data.draw(st.integers(1, STEPS))):
        call = action(data.draw, game, handles)
        note(repr(call))
        name = getattr(call.fn, "__name__", "action")
        before = game.copy()
        if name == "undo":
            if history:
                game.undo()
                assert same_state(history.pop(), game), "undo did not restore the state"
            else:
                with pytest.raises(IllegalAction):
                    game.undo()
                assert same_state(before, game)
            check_invariants(game, known)
            continue
        try:
            result = call()
        except CardzonesError:
            assert same_state(before, game), f"a refused {name} changed the state"
            check_invariants(game, known)
            continue
        if isinstance(result, tuple):
            result, handle = result
            if handle is not None and not isinstance(handle, int):
                handles.append(handle)
        if result is MoveResult.FAILED:
            assert same_state(before, game), f"a failed {name} changed the state (3.0.11)"
        check_invariants(game, known)
        if not same_state(before, game):
            history.append(before)


@pytest.mark.parametrize("ruleset", ["fab", "redemption"])
@SETTINGS
@given(data=st.data())
def test_random_games_keep_the_zone_invariants(ruleset: str, data: st.DataObject) -> None:
    """3.0.7, 3.0.11, 3.0.14c, 3.0.14d, 3.3.2, 8.2.2b, 8.5.41c: see the checks."""
    run_random_game(data, ruleset)


# ----------------------------------------------------------------------
# Minimal reproductions of what the random games found
# ----------------------------------------------------------------------


def test_a_token_cannot_be_set_up_outside_the_arena() -> None:
    """8.1.8a: a token exists only in the arena; setup used to admit one into a
    graveyard or onto the stack."""
    game = new_game("fab")
    token = CardDef("Ash", frozenset({"token", "aura"}))
    for zid in (game.zone("alice", "graveyard"), game.zone(None, "stack")):
        assert zid is not None
        with pytest.raises(IllegalAction, match=r"8\.1\.8a"):
            game.new_card(token, zid, owner="alice")


def test_a_clear_replaced_to_a_zone_that_cannot_hold_it_goes_to_the_graveyard() -> None:
    """3.0.11, 3.0.12, 3.0.8a: clearing is the rule move itself; when a
    replacement sends it where it cannot go, it used to be cleared again
    without end (RecursionError). Its replacement has applied once, so it goes
    to the graveyard."""
    game = new_game("fab")
    phoenix = CardDef(
        "Phoenix",
        frozenset({"action"}),
        abilities=(Replacement("graveyard", None, Dest("hero", "owner")),),
    )
    hand = game.zone("alice", "hand")
    assert hand is not None
    card = game.new_card(phoenix, hand, owner="alice")
    assert game.clear(card) is MoveResult.CLEARED
    assert game.zone_name(game.location(card)) == "alice.graveyard"
    game.undo()
    bob_hand = game.zone("bob", "hand")
    assert bob_hand is not None
    assert game.move(card, bob_hand, cause="rule") is MoveResult.CLEARED
    assert game.zone_name(game.location(card)) == "alice.graveyard"
    known: dict[int, CardDef | str] = {}
    check_invariants(game, known)


def test_the_only_graveyard_cannot_cease_to_exist() -> None:
    """3.0.10b, 3.0.12: removing a player's only graveyard used to leave its
    cards in a zone that no longer exists (clearing them there is no move)."""
    game = new_game("fab")
    graveyard = game.zone("bob", "graveyard")
    assert graveyard is not None
    game.new_card(CardDef("A", frozenset({"action"})), graveyard, owner="bob")
    before = game.copy()
    with pytest.raises(IllegalAction, match=r"3\.0\.12"):
        fab.remove_zone(game, "bob", "graveyard", None)
    assert same_state(before, game)


def test_removing_the_weapon_zone_a_two_hander_does_not_occupy_clears_it() -> None:
    """8.2.2b, 3.0.10c: the weapon zone a two-hander is equipped to without
    occupying it is not empty (3.0.1a); when it ceases to exist the two-hander
    used to stay equipped to a zone that no longer exists."""
    game = new_game("fab")
    w1, w2 = game.zones_of("alice", "weapon")
    sword = game.new_card(CardDef("Greatsword", frozenset({"weapon", "2h"})), w1, owner="alice")
    assert game.obj(sword).equipped == (w1, w2)
    assert fab.remove_zone(game, "alice", "weapon", w2) is MoveResult.DONE
    assert game.zone_name(game.location(sword)) == "alice.graveyard"
    assert not game.obj(sword).equipped
    check_invariants(game, {})
