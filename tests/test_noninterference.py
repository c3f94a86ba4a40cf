"""Non-interference: what a player may not see never changes what they are shown.

Each example builds a random game, runs random actions on it, and at some
step makes a second game: a copy of the first in which two cards the observer
may not see (3.0.3a) have traded places. The two are look-alikes, cards the
rules cannot tell apart where they are (same owner, types, stats and
abilities; only their names differ), so that any difference the observer is
shown comes from the views, not from the rules consulting a hidden card. Both
games then get the same actions.
Actions name cards by where they are, never by which card they are, so the
player who acts picks "the second card of bob's hand" in both games, and that
is a different card in each.

After every step the observer (a player, or a spectator) must get:

- until either traded card is revealed to them, exactly the same view, the
  same log and the same answer to their own actions in both games;
- after it, the same view and log once the two traded cards' names are
  blanked and object handles are renamed by the step the observer first saw
  them. A handle that carried a card through a hidden stretch, or a log entry
  that learnt later which hidden card it moved, would show here.

Within each game, after every step, for every observer:

- the view hides exactly the objects the observer may not look at (3.0.3a);
- a player's log only grows: no entry changes once written;
- a handle that left the observer's view never comes back to it (only an undo,
  which restores an earlier state exactly, shows an old state again);
- an undo shows the observer exactly the view and log they had before.

The actions include the cases where other engines leaked: shuffles, cards
going face down, returns to hand, undo, copies, and saving and loading; and
Redemption's effects that remember cards (places with bonuses, set-asides,
labelled moves, their negations) with those cards going out of sight. The
cards a record, a bonus or a labelled move was about may trade places once
they have gone out of sight: records follow objects, and only public ones
(3.0.9, 3.0.9a, 3.0.9b), so nothing may follow such a card any more.

The rule set is a parameter: each rule set gives a :class:`Harness` with its
card pool, its setup, its actions and how to run them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import event as hypothesis_event
from hypothesis import given, note, settings
from hypothesis import strategies as st
from reference import reference_view
from schemas import check_log, check_view

from cardzones import Move, load_game, new_game
from cardzones.acts.seats import nameable_cards
from cardzones.errors import CardzonesError
from cardzones.kernel.cards import CardDef, Dest, HistoryCondition, PlayFrom, Replacement, Trigger
from cardzones.kernel.events import iter_log
from cardzones.kernel.game import Game
from cardzones.kernel.objects import CARD, UNDER, ObjRef
from cardzones.kernel.state import CONTENTS, KIDS, OBJS
from cardzones.kernel.views import omniscient_view
from cardzones.rulesets.redemption.cards import own_fields

pytestmark = pytest.mark.noninterference

Action = tuple[Any, ...]
Outcome = tuple[str, str]

# ----------------------------------------------------------------------
# Rule set harnesses
# ----------------------------------------------------------------------


@dataclass
class Harness:
    """What the property needs from a rule set."""

    name: str
    #: builds a game from a drawn setup
    build: Callable[[Any], Game]
    #: a strategy for one setup
    setup: st.SearchStrategy[Any]
    #: a strategy for one action (a tuple of a kind and small integers)
    action: st.SearchStrategy[Action]
    #: runs one action; returns what it did, for the player who did it
    perform: Callable[[Game, Action], str]
    #: the player who acts, or None (an undo, a copy)
    actor: Callable[[Game, Action], str | None]
    #: whether the rule set's effects remember cards in its records (then
    #: half the trades wait for a card a record was about)
    records: bool = False


def all_cards(game: Game) -> list[int]:
    """Every object, in a fixed order of places: zones in order, each zone top
    first, each card followed by the pile under and on it."""
    out: list[int] = []

    def walk(card: int) -> None:
        out.append(card)
        for kid in game.kids(card):
            walk(kid)

    for zid in game.all_zones():
        for card in game.contents(zid):
            walk(card)
    return out


def pick(items: list[Any] | tuple[Any, ...], i: int) -> Any:
    return items[i % len(items)] if items else None


#: The handle key of the random games: fixed, so that a game built twice from
#: one drawn setup is the same game (tests/test_determinism.py).
TEST_KEY = "noninterference"

#: Kinds the runner performs on the games themselves, whatever the rule set.
GAME_KINDS = ("undo", "copy", "save_load")


def weighted_actions(kinds: tuple[str, ...], weights: dict[str, int]) -> st.SearchStrategy[Action]:
    """One action: a kind, drawn by its weight (1 unless given), and six small
    integers that the rule set's ``perform`` reads its choices from."""
    return st.tuples(
        st.sampled_from([k for k in kinds for _ in range(weights.get(k, 1))]),
        *(st.integers(0, 255) for _ in range(6)),
    )


def actor_for(turn_kinds: tuple[str, ...]) -> Callable[[Game, Action], str | None]:
    """Who acts: nobody for the runner's own kinds, the turn player for
    ``turn_kinds``, and otherwise the player the action's last integer picks."""

    def actor(game: Game, action: Action) -> str | None:
        kind = action[0]
        if kind in GAME_KINDS:
            return None
        if kind in turn_kinds:
            return game.turn_player
        player: str = pick(game.players, action[6])
        return player

    return actor


def in_zone(game: Game, player: str, ztype: str, i: int) -> int | None:
    """A card of the player's first zone of that type, picked by ``i``."""
    zid = game.zone(player, ztype)
    return pick(game.contents(zid), i) if zid is not None else None


def perform_shared(game: Game, kind: str, b: int, c: int, card: int | None, by: str) -> str | None:
    """The kinds every rule set performs alike; None for any other kind."""
    if kind == "shuffle":
        zid = game.zone(by, "deck") if b % 3 else pick(game.all_zones(), c)
        assert zid is not None
        return str(game.shuffle(zid, by=by).value)
    if kind == "flip":
        face = ("up", "down")[b % 2]
        return "nothing" if card is None else str(game.flip(card, face, by=by).value)
    if kind == "end_turn":
        return str(game.end_turn(end_of_turn_order(game, b, c)).value)
    return None


def end_of_turn_order(game: Game, b: int, c: int) -> list[int]:
    """An order for the cards the end of the turn puts away, as the players
    choose it (fab's pitch zones, 4.4.3c): some of them, in a drawn order;
    the others keep theirs. Empty for a rule set without such a choice."""
    if "pitch" not in game.ruleset.zone_specs:
        return []
    pitched = [card for player in game.players for card in game.contents(_pitch(game, player))]
    random.Random(b).shuffle(pitched)
    return pitched[: c % (len(pitched) + 1)]


def _pitch(game: Game, player: str) -> int:
    zid = game.zone(player, "pitch")
    assert zid is not None
    return zid


# -- fab ----------------------------------------------------------------

_GY_TO_DECK = Replacement("graveyard", None, Dest("deck", "owner"), "bottom", None)
_GY_TO_BANISHED = Replacement("graveyard", None, Dest("banished", "owner"), "top", "up")

#: Card templates: (types, stats, abilities). Every deck-card template can be
#: in every private zone; cards of one template differ only in name.
FAB_TEMPLATES: tuple[tuple[frozenset[str], dict[str, int], tuple[Any, ...]], ...] = (
    (frozenset({"action", "attack"}), {"power": 4, "defense": 2}, ()),
    (frozenset({"action", "attack"}), {"power": 6}, (_GY_TO_DECK,)),
    (frozenset({"action"}), {"power": 1}, (_GY_TO_BANISHED,)),
    (frozenset({"action"}), {"pitch": 2}, (PlayFrom("banished"),)),
    (
        frozenset({"action", "attack"}),
        {"power": 3},
        (PlayFrom("banished", False, HistoryCondition("hand", "banished", True)),),
    ),
    (frozenset({"action", "aura"}), {"defense": 1}, ()),
    (frozenset({"instant"}), {}, (PlayFrom("banished", True),)),
    (
        frozenset({"action", "aura"}),
        {},
        (Trigger(to="graveyard", from_="arena", do=Dest("soul", "you")),),
    ),
    (frozenset({"defense_reaction"}), {"defense": 3}, ()),
    (frozenset({"attack_reaction"}), {"power": 2}, ()),
)
FAB_HERO = CardDef("Hero", types=frozenset({"hero"}))
FAB_WEAPON = CardDef("Blade", types=frozenset({"weapon", "1h", "sword"}), stats={"power": 2})
FAB_TOKENS = (
    CardDef("Ward", types=frozenset({"token", "aura"})),
    CardDef("Spike", types=frozenset({"token", "weapon", "1h"})),
)
FAB_SETUP_ZONES = (
    "hand",
    "deck",
    "hand",
    "deck",
    "arsenal",
    "banished",
    "graveyard",
    "pitch",
    "permanent",
    "soul",
)
FAB_DESTS = (
    Dest("hand", "owner"),
    Dest("deck", "owner"),
    Dest("graveyard", "owner"),
    Dest("banished", "owner"),
    Dest("arsenal", "owner"),
    Dest("pitch", "owner"),
    Dest("arena"),
    Dest("soul", "owner"),
    Dest("soul"),
    Dest("permanent"),
    Dest("combat_chain"),
    Dest("weapon", "owner"),
)
FACES = (None, "up", "down")
POSITIONS: tuple[Any, ...] = ("top", "bottom", 0, 1, 2)


def fab_card(template: int, serial: int) -> CardDef:
    types, stats, abilities = FAB_TEMPLATES[template % len(FAB_TEMPLATES)]
    return CardDef(
        f"T{template % len(FAB_TEMPLATES)}-{serial}", types=types, stats=stats, abilities=abilities
    )


fab_setup = st.tuples(
    st.integers(0, 2**16),  # seed
    st.booleans(),  # weapons
    st.integers(0, len(FAB_TEMPLATES) - 1),  # the first of this game's three templates
    st.lists(  # (template, owner, zone, face)
        st.tuples(st.integers(0, 2), st.integers(0, 1), st.integers(0, 40), st.integers(0, 2)),
        min_size=4,
        max_size=16,
    ),
)


def fab_build(spec: Any) -> Game:
    seed, weapons, first, entries = spec
    game = new_game("fab", ("alice", "bob"), seed=seed, handle_key=TEST_KEY)
    heroes = {}
    for player in game.players:
        zid = game.zone(player, "hero")
        assert zid is not None
        heroes[player] = game.new_card(FAB_HERO, zid, owner=player)
        if weapons:
            wzid = game.zone(player, "weapon", 1)
            assert wzid is not None
            game.new_card(FAB_WEAPON, wzid, owner=player)
    for serial, (template, owner_i, zone_i, face_i) in enumerate(entries):
        # Three templates per game, so that look-alike hidden cards are common.
        cdef = fab_card(first + template * 3, serial)
        owner = game.players[owner_i]
        ztype = FAB_SETUP_ZONES[zone_i % len(FAB_SETUP_ZONES)]
        face = FACES[face_i]
        public = None if face is None else face == "up"
        try:
            if ztype == "soul":
                hero = heroes[owner]
                game.new_card(cdef, game.location(hero), owner=owner, host=hero, rel=UNDER)
            else:
                zid = game.zone(owner, ztype)
                assert zid is not None
                game.new_card(cdef, zid, owner=owner, public=public)
        except CardzonesError:
            continue  # setup obeys each zone's limits: leave the card out
    if seed % 4 == 1:
        # Two banished zones each: a replacement's move there needs its owner's
        # choice (3.0.10a), which a hidden card must not make anyone ask.
        for player in game.players:
            game.create_zone(player, "banished")
    if seed % 3 == 0:
        # A face-down hero: its soul is a pile of face-down sub-cards (3.0.14d).
        game.flip(heroes[game.players[seed % 2]], "down")
    # Setting up is not an action: nothing to undo.
    game._journal = None
    game._marks = None
    return game


FAB_KINDS = (
    "move",
    "move_to",
    "draw",
    "discard",
    "banish_down",
    "return_to_hand",
    "shuffle",
    "flip",
    "modify",
    "grant",
    "end_turn",
    "pitch_order",
    "clear",
    "put_under",
    "play",
    "add_layer",
    "remove_layer",
    "resolve",
    "create_token",
    "create_zone",
    "remove_zone",
    "legal",
    "flip_top",
    "under_private",
    "undo",
    "copy",
    "save_load",
)
#: How often each kind is drawn, relative to the others.
FAB_WEIGHTS = {
    "flip_top": 2,
    "under_private": 2,
    "move": 6,
    "move_to": 6,
    "draw": 3,
    "discard": 2,
    "banish_down": 2,
    "return_to_hand": 2,
    "shuffle": 3,
    "flip": 4,
    "play": 3,
    "undo": 3,
    "copy": 1,
    "save_load": 1,
}

fab_action = weighted_actions(FAB_KINDS, FAB_WEIGHTS)
fab_actor = actor_for(("end_turn", "resolve", "remove_layer"))


def fab_perform(game: Game, action: Action) -> str:
    from cardzones.rulesets.fab import actions as fab
    from cardzones.rulesets.fab import layers
    from cardzones.rulesets.fab.pitch import choose_order

    kind, a, b, c, d, e, p = action
    players = game.players
    by = pick(players, p)
    cards = all_cards(game)
    card = pick(cards, a)
    shared = perform_shared(game, kind, b, c, card, by)
    if shared is not None:
        return shared

    def move(target: int | None, dest: Dest | int, **kw: Any) -> str:
        if target is None:
            return "nothing"
        return str(game.move(target, dest, by=by, **kw).value)

    if kind == "move":
        zid = pick(game.all_zones(), b)
        return move(
            card, zid, position=POSITIONS[c % 5], face=FACES[d % 3], cause=("effect", "rule")[e % 2]
        )
    if kind == "move_to":
        dest = FAB_DESTS[b % len(FAB_DESTS)]
        return move(
            card,
            dest,
            position=POSITIONS[c % 5],
            face=FACES[d % 3],
            cause=("effect", "rule")[e % 2],
        )
    if kind == "draw":
        return move(in_zone(game, by, "deck", 0), Dest("hand", by))
    if kind == "discard":
        return move(in_zone(game, by, "hand", a), Dest("graveyard", "owner"))
    if kind == "banish_down":
        source = ("hand", "deck", "arsenal")[b % 3]
        return move(in_zone(game, by, source, a), Dest("banished", by), face="down")
    if kind == "return_to_hand":
        source = ("graveyard", "banished", "arsenal", "pitch")[b % 4]
        target = in_zone(game, by, source, a) if c % 2 else card
        return move(target, Dest("hand", "owner"))
    if kind in ("modify", "grant"):
        if card is None:
            return "nothing"
        with game.atomic():
            if kind == "modify":
                game.add_effect(
                    card, "modify", mods=[("power", 1 + b % 3)], until=(None, "end_of_turn")[c % 2]
                )
            else:
                game.add_effect(card, "grant", keywords=["go_again"], until="end_of_turn")
        return "done"
    if kind == "pitch_order":
        # A player orders their own pitch, in secret (4.4.3c).
        pitched = list(game.contents(_pitch(game, by)))
        random.Random(b).shuffle(pitched)
        with game.atomic():
            choose_order(game, by, pitched[: c % (len(pitched) + 1)])
        return "done"
    if kind == "clear":
        if card is None:
            return "nothing"
        # With several graveyards the owner chooses (3.0.10a): sometimes one is.
        graveyards = game.zones_of(by, "graveyard")
        chosen = [pick(graveyards, d)] if e % 2 and graveyards else []
        with game.choosing([z for z in chosen if z is not None]):
            return str(game.clear(card, by=by).value)
    if kind == "flip_top":
        # A top-card with sub-cards turns over: the pile turns with it (3.0.14d).
        top = pick([c for c in cards if game.kids(c)], b)
        face = ("up", "down")[c % 2]
        return "nothing" if top is None else str(game.flip(top, face, by=by).value)
    if kind == "under_private":
        # Often a card with its own pile: its sub-cards then join the private
        # top-card too (3.0.14c, 3.0.14d).
        top = pick([c for c in cards if not game.is_public(c)], b)
        mover = pick([c for c in cards if game.kids(c)], a) if d % 2 else card
        if mover is None or top is None:
            return "nothing"
        return str(fab.put_under(game, mover, top, by).value)
    if kind == "put_under":
        top = pick(cards, b)
        if card is None or top is None:
            return "nothing"
        return str(fab.put_under(game, card, top, by).value)
    if kind == "play":
        target = in_zone(game, by, ("hand", "arsenal", "banished")[b % 3], a) if c % 2 else card
        return "nothing" if target is None else str(fab.play(game, target, by).value)
    if kind == "add_layer":
        if card is None:
            return "nothing"
        with game.atomic():
            layers.add_layer(game, ("activated", "triggered")[b % 2], card, by)
        return "done"
    if kind == "remove_layer":
        with game.atomic():
            return str(layers.remove_layer(game, 1 + b % 3, by).value)
    if kind == "resolve":
        with game.atomic():
            return str(layers.resolve_top(game, by).value)
    if kind == "create_token":
        dest = (Dest("permanent"), Dest("weapon", by), Dest("arena"))[b % 3]
        result, _ = fab.try_create_token(game, FAB_TOKENS[c % 2], dest, by)
        return str(result.value)
    if kind == "create_zone":
        # A second banished zone or deck: a replacement's move there needs
        # its owner's choice (3.0.10a), which a hidden card must not ask.
        fab.create_zone(game, by, ("arsenal", "weapon", "graveyard", "banished", "deck")[b % 5])
        return "done"
    if kind == "legal":
        # What the player is offered for a card they may name (3.0.7a): one
        # they may look at, or the top hidden card of a zone of theirs.
        named = pick(nameable_cards(game, by), b)
        if named is None:
            return "nothing"
        offered = game.legal_actions(by, ["move", "clear", "play"], card=named)
        return json.dumps([x.to_json(game) for x in offered], sort_keys=True)
    if kind == "remove_zone":
        ztype = ("arsenal", "weapon", "graveyard")[b % 3]
        zones = game.zones_of(by, ztype)
        choose = pick(zones, c) if c % 2 else None
        graveyards = game.zones_of(by, "graveyard")
        chosen = [g for g in [pick(graveyards, d)] if g is not None] if e % 2 else []
        return str(fab.remove_zone(game, by, ztype, choose, chosen=chosen).value)
    raise AssertionError(f"unknown action {kind}")


FAB = Harness("fab", fab_build, fab_setup, fab_action, fab_perform, fab_actor)


# -- redemption -----------------------------------------------------------

#: Card templates: (types, brigades, stats).
RED_TEMPLATES: tuple[tuple[frozenset[str], frozenset[str], dict[str, int]], ...] = (
    (frozenset({"hero"}), frozenset({"red"}), {"strength": 5, "toughness": 5}),
    (frozenset({"evil_character"}), frozenset({"crimson"}), {"strength": 4, "toughness": 3}),
    (frozenset({"enhancement"}), frozenset({"red"}), {"strength": 2, "toughness": 1}),
    (frozenset({"lost_soul"}), frozenset(), {}),
    (frozenset({"site"}), frozenset(), {}),
    (frozenset({"dominant"}), frozenset(), {}),
    (frozenset({"enhancement"}), frozenset({"crimson"}), {"toughness": 2}),
    (frozenset({"artifact"}), frozenset(), {}),
)
RED_SETUP_ZONES = (
    "hand",
    "deck",
    "hand",
    "deck",
    "reserve",
    "territory",
    "territory",
    "land_of_bondage",
    "discard",
    "field_of_battle",
    "banish",
)
RED_DESTS = tuple(
    Dest(t, o)
    for t in (
        "hand",
        "deck",
        "discard",
        "territory",
        "land_of_bondage",
        "reserve",
        "banish",
        "land_of_redemption",
        "field_of_battle",
        "set_aside",
    )
    for o in ("owner", None)
)


def red_card(template: int, serial: int) -> CardDef:
    types, brigades, stats = RED_TEMPLATES[template % len(RED_TEMPLATES)]
    return CardDef(
        f"R{template % len(RED_TEMPLATES)}-{serial}",
        types=types,
        stats=stats,
        extra=own_fields(brigades),
    )


red_setup = st.tuples(
    st.integers(0, 2**16),
    st.integers(0, len(RED_TEMPLATES) - 1),
    st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 1), st.integers(0, 40), st.integers(0, 2)),
        min_size=4,
        max_size=16,
    ),
)


def red_build(spec: Any) -> Game:
    seed, first, entries = spec
    game = new_game("redemption", ("alice", "bob"), seed=seed, handle_key=TEST_KEY)
    for serial, (template, owner_i, zone_i, face_i) in enumerate(entries):
        cdef = red_card(first + template * 3, serial)
        owner = game.players[owner_i]
        ztype = RED_SETUP_ZONES[zone_i % len(RED_SETUP_ZONES)]
        face = FACES[face_i]
        zid = game.zone(owner, ztype)
        assert zid is not None
        try:
            game.new_card(cdef, zid, owner=owner, public=None if face is None else face == "up")
        except CardzonesError:
            continue
    game._journal = None
    game._marks = None
    return game


RED_KINDS = (
    "move",
    "move_to",
    "draw",
    "discard",
    "return_to_hand",
    "shuffle",
    "flip",
    "modify",
    "end_turn",
    "place_onto",
    "place_in",
    "set_aside",
    "return",
    "negate",
    "dominant",
    "phase",
    "end_battle",
    "place_on_private",
    "set_aside_private",
    "hide_named",
    "public_round",
    "place_and_hide",
    "play_from_hand",
    "undo",
    "copy",
    "save_load",
)
RED_WEIGHTS = {
    "hide_named": 3,
    "public_round": 2,
    "place_and_hide": 3,
    "play_from_hand": 3,
    "place_on_private": 2,
    "set_aside_private": 2,
    "move": 5,
    "move_to": 6,
    "draw": 3,
    "discard": 2,
    "return_to_hand": 2,
    "shuffle": 3,
    "flip": 3,
    "place_onto": 4,
    "place_in": 3,
    "set_aside": 3,
    "undo": 3,
}

red_action = weighted_actions(RED_KINDS, RED_WEIGHTS)
red_actor = actor_for(("end_turn", "phase", "end_battle"))


def red_perform(game: Game, action: Action) -> str:
    from cardzones.kernel.effects import EffectRef
    from cardzones.rulesets.redemption.moves import discard, relocate
    from cardzones.rulesets.redemption.negate import negate
    from cardzones.rulesets.redemption.place import place
    from cardzones.rulesets.redemption.records import EffectHandle, Ongoing
    from cardzones.rulesets.redemption.set_aside import (
        end_battle,
        play_dominant,
        return_cards,
        set_aside,
    )
    from cardzones.rulesets.redemption.turns import advance_to

    kind, a, b, c, d, e, p = action
    by: str = pick(game.players, p)
    cards = all_cards(game)
    card = pick(cards, a)
    shared = perform_shared(game, kind, b, c, card, by)
    if shared is not None:
        return shared

    def move(target: int | None, dest: Dest | int, **kw: Any) -> str:
        if target is None:
            return "nothing"
        with game.atomic():
            result, _ = relocate(
                game, Move(target, dest, by=by, **kw), label=("m" if e % 2 else None)
            )
        return str(result.value)

    def ongoing(target: int | None) -> Ongoing | None:
        """Often a paired bonus: on a card of the game, or on the target."""
        bonus_on = pick(cards, e // 8) if (e // 4) % 2 else target
        if (e // 2) % 2 or bonus_on is None:
            return None
        return Ongoing(bonus_on, (("strength", 1 + d % 2), ("toughness", 1)))

    if kind == "move":
        return move(card, pick(game.all_zones(), b), position=POSITIONS[c % 5], face=FACES[d % 3])
    if kind == "move_to":
        return move(
            card, RED_DESTS[b % len(RED_DESTS)], position=POSITIONS[c % 5], face=FACES[d % 3]
        )
    if kind == "draw":
        return move(in_zone(game, by, "deck", 0), Dest("hand", by))
    if kind == "discard":
        target = in_zone(game, by, "hand", a) if b % 2 else card
        if target is None:
            return "nothing"
        return str(discard(game, target, by=by)[0].value)
    if kind == "return_to_hand":
        origin = ("territory", "discard", "reserve", "land_of_bondage")[b % 4]
        return move(in_zone(game, by, origin, a), Dest("hand", "owner"))
    if kind == "modify":
        if card is None:
            return "nothing"
        with game.atomic():
            game.add_effect(card, "modify", mods=[("strength", 1 + b % 2)], until="end_of_turn")
        return "done"
    if kind in ("place_onto", "place_in"):
        if (p // 2) % 2:
            # Often a card in play: the targets of a place ability must be.
            card = pick([x for x in cards if game.in_play(x)], a)
        if card is None:
            return "nothing"
        chosen = [card] + ([pick(cards, d)] if c % 3 == 0 and pick(cards, d) != card else [])
        source = pick(cards, e) if e % 2 else None
        colon = source in chosen and (c // 3) % 2 == 1
        if kind == "place_onto":
            result, _ = place(
                game,
                chosen,
                by=by,
                onto=pick(cards, b),
                source=source,
                order=chosen if len(chosen) > 1 else None,
                ongoing=ongoing(pick(cards, b)),
                colon=colon,
            )
        else:
            zone = ("territory", "land_of_bondage", "field_of_battle", "deck")[b % 4]
            result, _ = place(
                game,
                chosen,
                by=by,
                into=Dest(zone, by),
                source=source,
                order=chosen if len(chosen) > 1 else None,
                ongoing=ongoing(card),
                colon=colon,
            )
        return str(result.value)
    if kind == "hide_named":
        # A card an effect was about goes out of sight: to its owner's hand,
        # or face down where it is. Records, bonuses and labelled moves must
        # not follow it (the traded cards are often such a card).
        # A card a record follows now, so a public one: which card a record
        # once named is what the two games may differ in, and the act must
        # name the same place in both.
        followed = tracked(game)
        target = pick([x for x in cards if x in followed], b)
        if target is None:
            return "nothing"
        if c % 2:
            return str(game.flip(target, "down", by=by).value)
        return move(target, Dest("hand", "owner"))
    if kind == "public_round":
        # A card a record follows goes out of play face up and comes back: it
        # is the same card all along (a public stretch), so its records
        # follow it, and still nothing they do may depend on a hidden card.
        followed = tracked(game)
        target = pick([x for x in cards if x in followed], b)
        if target is None:
            return "nothing"
        away = ("discard", "set_aside", "banish", "land_of_redemption")[c % 4]
        with game.atomic():
            relocate(
                game,
                Move(target, Dest(away, "owner"), by=by, face="up"),
                label="m" if d % 2 else None,
            )
            back = ("territory", "land_of_bondage", "set_aside")[e % 3]
            relocate(game, Move(target, Dest(back, "owner"), by=by, face="up"))
        return "done"
    if kind == "place_and_hide":
        # One of the player's cards in play is placed, with a bonus, and
        # goes to its owner's hand: its record and bonus are about an object
        # that is gone, and the hand may hold a look-alike.
        mine = [x for x in cards if game.in_play(x) and game.obj(x).controller == by]
        target = pick(mine, a)
        if target is None:
            return "nothing"
        with game.atomic():
            zone = ("territory", "land_of_bondage", "field_of_battle")[b % 3]
            place(game, [target], by=by, into=Dest(zone, by), ongoing=ongoing(target))
            relocate(
                game, Move(target, Dest("hand", "owner"), by=by), label=("m" if c % 2 else None)
            )
        return "done"
    if kind == "play_from_hand":
        # A hand card comes into play, face down or up: the card that went
        # out of sight, or its look-alike.
        zone = ("territory", "land_of_bondage", "field_of_battle")[b % 3]
        return move(in_zone(game, by, "hand", a), Dest(zone, by), face=("down", "up")[c % 2])
    private = [x for x in cards if not game.is_public(x) and game.in_play(x)]
    if kind == "place_on_private":
        host = pick(private, b)
        if card is None or host is None:
            return "nothing"
        return str(place(game, [card], by=by, onto=host)[0].value)
    if kind == "set_aside_private":
        target = pick(private, a)
        if target is None:
            return "nothing"
        source = in_zone(game, by, "hand", b) if c % 2 else None
        result, _ = set_aside(
            game, [target], by=by, source=source, played_on=target, ongoing=ongoing(target)
        )
        return str(result.value)
    if kind == "set_aside":
        if card is None:
            return "nothing"
        source = pick(cards, b) if b % 2 else None
        result, _ = set_aside(
            game,
            [card],
            by=by,
            source=source,
            duration=(None, 1, 2)[c % 3],
            in_battle=bool(d % 2),
            ongoing=ongoing(card),
        )
        return str(result.value)
    if kind == "return":
        if card is None:
            return "nothing"
        return str(return_cards(game, [card], by=by, cause=("own", "effect")[b % 2]).value)
    if kind == "negate":
        # Every effect made so far: place, set-aside and remembered moves, and
        # the kernel's bonuses (modify), ended or not.
        effects: list[Any] = sorted(
            EffectHandle(k[0], k[1])
            for k in game._rules
            if isinstance(k, tuple) and len(k) == 2 and k[0] in ("place", "set_aside", "move")
        )
        effects += [EffectRef(eid) for eid in range(1, game._vars["next_eid"])]
        if not effects:
            return "nothing"
        return str(negate(game, pick(effects, b), by=by).value)
    if kind == "dominant":
        target = pick(cards, b)
        if card is None or target is None:
            return "nothing"
        return str(play_dominant(game, card, target, by=by).value)
    if kind == "phase":
        return str(advance_to(game, game.ruleset.phases[b % 5]).value)
    if kind == "end_battle":
        return str(end_battle(game).value)
    raise AssertionError(f"unknown action {kind}")


REDEMPTION = Harness(
    "redemption", red_build, red_setup, red_action, red_perform, red_actor, records=True
)


#: Every rule set's harness, by rule set name.
HARNESSES: dict[str, Harness] = {"fab": FAB, "redemption": REDEMPTION}


def harness_params() -> list[Any]:
    """One pytest parameter per rule set; skipped while a rule set cannot make
    a game yet."""
    out = []
    for name, harness in HARNESSES.items():
        try:
            new_game(name)
        except (CardzonesError, ImportError) as exc:
            out.append(pytest.param(harness, id=name, marks=pytest.mark.skip(reason=str(exc))))
        else:
            out.append(pytest.param(harness, id=name))
    return out


# ----------------------------------------------------------------------
# Running both games
# ----------------------------------------------------------------------


def run_action(harness: Harness, game: Game, action: Action) -> tuple[Game, Outcome]:
    """Run one action; an undo, a copy or a save-and-load may give a new game."""
    kind = action[0]
    if kind == "undo":
        if not game.can_undo():
            return game, ("result", "nothing")
        game.undo()
        return game, ("result", "undone")
    if kind == "copy":
        return game.copy(), ("result", "copied")
    if kind == "save_load":
        data = json.loads(json.dumps(game.to_json()))
        return load_game(data), ("result", "loaded")
    try:
        return game, ("result", harness.perform(game, action))
    except CardzonesError as exc:
        return game, (type(exc).__name__, str(exc))


def look_alike(game: Game, c1: int, c2: int) -> bool:
    """Two cards the rules cannot tell apart, except by name, where they are."""
    o1, o2 = game._objs[c1], game._objs[c2]
    d1, d2 = o1.cdef, o2.cdef
    return (
        o1.owner == o2.owner
        and o1.kind == o2.kind == CARD
        and (d1.types, dict(d1.stats), d1.keywords, d1.abilities)
        == (d2.types, dict(d2.stats), d2.keywords, d2.abilities)
        and not game.kids(c1)
        and not game.kids(c2)
        and c1 not in game._fx_by_card
        and c2 not in game._fx_by_card
        and (not d1.play_from or o1.origin == o2.origin)
        and o1.data == o2.data
        and not o1.equipped
        and not o2.equipped
    )


def private_alike(game: Game, c1: int, c2: int) -> bool:
    """Two private cards the rules know only as the same private card (3.0.7a):
    same owner, same private card of the rule set (fab: the same category;
    Redemption: any card), and the same abilities, since a card's own
    abilities apply as it is revealed by a move (3.0.8a). Their types, stats
    and the effects on them may differ: the rules must not tell them apart
    while they are hidden, so the observer sees the same until one is shown."""
    d1, d2 = game._objs[c1].cdef, game._objs[c2].cdef
    return d1.abilities == d2.abilities and private_alike_in_any_abilities(game, c1, c2)


def private_alike_in_any_abilities(game: Game, c1: int, c2: int) -> bool:
    """Two private cards that may differ also in their abilities, replacement
    effects included: what the rules know of a private object (3.0.7a) is
    what :func:`private_alike` compares, but for its abilities, which apply
    only as it is revealed (3.0.8a). Until one is shown, nothing a player is
    offered or answered may depend on them: not whether its move is legal,
    nor whether a replacement would ask its owner for a choice of zone."""
    o1, o2 = game._objs[c1], game._objs[c2]
    d1, d2 = o1.cdef, o2.cdef
    rules = game.ruleset
    return (
        o1.owner == o2.owner
        and o1.kind == o2.kind == CARD
        and not o1.public
        and not o2.public
        and rules.private_card(d1) == rules.private_card(d2)
        and ((not d1.play_from and not d2.play_from) or o1.origin == o2.origin)
        and o1.data == o2.data
        and not game.kids(c1)
        and not game.kids(c2)
        and not o1.equipped
        and not o2.equipped
    )


def _ints(value: Any, out: set[int]) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        out.add(value)
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            _ints(item, out)
    elif isinstance(value, dict):
        for key, item in value.items():
            _ints(key, out)
            _ints(item, out)


def _refs(value: Any, out: set[ObjRef]) -> None:
    if isinstance(value, ObjRef):
        out.add(value)
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            _refs(item, out)
    elif isinstance(value, dict):
        for key, item in value.items():
            _refs(key, out)
            _refs(item, out)


def tracked(game: Game) -> set[int]:
    """The cards the rules follow by identity, which every player watched
    (the card another was placed on, the object an effect still references),
    so trading them for others would change what the players know.

    A rule set's records name objects (:class:`~cardzones.kernel.ObjRef`),
    and follow one only while the card is still that public object: a card
    that went out of sight, became a new object, or came back, is not what a
    record names, and may trade places with another (the records, bonuses
    and labelled moves that were about it must not follow it). The objects'
    own data (fab's triggered layers) are taken as following every card
    number they hold."""
    refs: set[ObjRef] = set()
    _refs(game._rules, refs)
    out = {r.card for r in refs if game.referent(r) is not None}
    for obj in game._objs.values():
        _ints(obj.data, out)
    return out


def named_once(game: Game) -> set[int]:
    """The cards a rule set's record names or once named: an object it
    follows or followed, a placed card, the card of a bonus."""
    out: set[int] = set()

    def walk(value: Any) -> None:
        if isinstance(value, tuple) and hasattr(value, "_fields"):
            card = getattr(value, "card", None)
            if isinstance(card, int) and not isinstance(card, bool):
                out.add(card)
        if isinstance(value, tuple | list):
            for item in value:
                walk(item)

    for key, value in game._rules.items():
        walk(key)
        walk(value)
        if isinstance(key, tuple) and len(key) == 2 and key[0] == "placed_at":
            out.add(key[1])
    return out


def hidden_pairs(
    game: Game, observer: str | None, exact: bool = True, abilities: bool = False
) -> list[tuple[int, int]]:
    """Pairs of cards hidden from the observer that may trade places: exact
    look-alikes, or with ``exact=False`` cards that are alike only as private
    objects (:func:`private_alike`), with ``abilities`` in any abilities too
    (:func:`private_alike_in_any_abilities`)."""
    followed = tracked(game)
    hidden = [c for c in all_cards(game) if not game.may_look(observer, c) and c not in followed]
    alike = look_alike if exact else private_alike_in_any_abilities if abilities else private_alike
    return [(x, y) for i, x in enumerate(hidden) for y in hidden[i + 1 :] if alike(game, x, y)]


def trade_places(game: Game, c1: int, c2: int) -> None:
    """Put each card where the other one is, as journaled writes."""
    o1, o2 = game._objs[c1], game._objs[c2]
    where = ("zone", "public", "host", "rel", "controller")
    game._put(OBJS, c1, o1._replace(**{f: getattr(o2, f) for f in where}))
    game._put(OBJS, c2, o2._replace(**{f: getattr(o1, f) for f in where}))

    def swap(cards: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(c2 if c == c1 else c1 if c == c2 else c for c in cards)

    places = {(KIDS, o.host) if o.host is not None else (CONTENTS, o.zone) for o in (o1, o2)}
    for m, key in places:
        game._put(m, key, swap(game._maps[m][key]))


def revealed(
    game: Game, observer: str | None, cards: tuple[int, int], names: set[str], since: int
) -> bool:
    """Whether the observer may now look at either traded card, saw one move
    as a public object since the trade, or saw a layer made from one (its
    player, who may look at it, showed it). Judged from the state, never from a
    view: anything else that shows a traded card's name is a leak."""
    if any(c in game._objs and game.may_look(observer, c) for c in cards):
        return True
    for card, obj in game._objs.items():
        if obj.kind != CARD and obj.cdef.name in names and game.may_look(observer, card):
            return True
    for event in iter_log(game._vars["log"]):
        if event.seq < since or not event.public or event.card is None:
            continue
        if event.card in cards:
            return True
        if (
            event.lki is not None
            and event.lki.obj.kind != CARD
            and event.lki.obj.cdef.name in names
        ):
            return True
    return False


# ----------------------------------------------------------------------
# What one observer is shown, and the checks within one game
# ----------------------------------------------------------------------


def handles(tree: Any) -> Iterator[str]:
    if isinstance(tree, dict):
        if "id" in tree:
            yield tree["id"]
        for value in tree.values():
            yield from handles(value)
    elif isinstance(tree, list):
        for value in tree:
            yield from handles(value)


def check_view_follows_may_look(game: Game, view: dict[str, Any], observer: str | None) -> None:
    """Each zone shows exactly as many hidden objects, piles included, as there
    are objects the observer may not look at (3.0.3a): the view is made fast,
    and must still agree with the rule it implements."""

    def hidden_cards(card: int) -> int:
        own = 0 if game.may_look(observer, card) else 1
        return own + sum(hidden_cards(k) for k in game.kids(card))

    def hidden_entries(entry: dict[str, Any]) -> int:
        piles = [*entry.get("under", ()), *entry.get("placed", ())]
        return (1 if entry.get("hidden") else 0) + sum(hidden_entries(k) for k in piles)

    zones = game.all_zones()
    assert [z["zone"] for z in view["zones"]] == [game.zone_name(z) for z in zones]
    for zid, zone in zip(zones, view["zones"], strict=True):
        want = sum(hidden_cards(c) for c in game.contents(zid))
        got = sum(hidden_entries(o) for o in zone["objects"])
        assert got == want, f"{zone['zone']}: {got} hidden entries for {want} hidden objects"


def check_view_matches_reference(game: Game, view: dict[str, Any], observer: str | None) -> None:
    """The fast view (zone rows kept per layout, descriptions per record, whole
    hidden zones at once) shows exactly what the slow reference shows."""
    want = reference_view(game, observer)
    for got_zone, want_zone in zip(view["zones"], want, strict=True):
        assert got_zone == want_zone, f"{want_zone['zone']}: the view differs from the reference"


def strip_zone_labels(entry: dict[str, Any]) -> dict[str, Any]:
    # Zones are named as they are numbered now (3.0.10); that may change.
    return {k: v for k, v in entry.items() if k not in ("from", "to", "zone")}


@dataclass
class Watch:
    """One observer of one game: what they were shown, for the checks."""

    observer: str | None
    view: dict[str, Any] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)
    visible: frozenset[str] = frozenset()
    gone: frozenset[str] = frozenset()
    first_seen: dict[str, int] = field(default_factory=dict)
    #: states an undo may return to: (undo marks, view, log, visible, gone)
    saved: list[
        tuple[Any, dict[str, Any], list[dict[str, Any]], frozenset[str], frozenset[str]]
    ] = field(default_factory=list)

    def start(self, game: Game) -> None:
        self.view, self.log = game.view(self.observer), game.log(self.observer)
        self.check_schema()
        self.visible = frozenset(handles(self.view))
        for h in self.visible:
            self.first_seen.setdefault(h, 0)
        self.saved = [(game._marks, self.view, self.log, self.visible, self.gone)]

    def step(self, game: Game, kind: str, step: int) -> None:
        view, log = game.view(self.observer), game.log(self.observer)
        json.dumps(view), json.dumps(log)  # JSON-ready
        check_view_follows_may_look(game, view, self.observer)
        check_view_matches_reference(game, view, self.observer)
        visible = frozenset(handles(view))
        if kind == "undo":
            match = [s for s in self.saved if s[0] is game._marks]
            assert match, "an undo went to a state never seen"
            _, old_view, old_log, old_visible, old_gone = match[-1]
            assert view == old_view, "an undo does not show the view as it was"
            assert log == old_log, "an undo does not show the log as it was"
            self.saved = self.saved[: self.saved.index(match[-1]) + 1]
            self.visible, self.gone = old_visible, old_gone
        else:
            back = visible & self.gone
            assert not back, f"{self.observer}: handles {sorted(back)} came back after they left"
            before = [strip_zone_labels(e) for e in self.log]
            after = [strip_zone_labels(e) for e in log[: len(self.log)]]
            assert after == before, f"{self.observer}: the log changed what it had said"
            self.gone = self.gone | (self.visible - visible)
            self.visible = visible
            if kind == "save_load":
                assert view == self.view and log == self.log, "save and load changed the view"
                self.saved = []
            if not self.saved or self.saved[-1][0] is not game._marks:
                self.saved.append((game._marks, view, log, self.visible, self.gone))
        for h in visible:
            self.first_seen.setdefault(h, step)
        self.view, self.log = view, log

    def check_schema(self) -> None:
        """The view and log follow the package's JSON Schemas (docs/json.md)."""
        check_view(json.loads(json.dumps(self.view)))
        check_log(json.loads(json.dumps(self.log)), self.observer)

    def blanked(self, names: set[str]) -> Any:
        """The view and log with the traded cards' names blanked, handles named
        by when the observer first saw them, and unordered zones sorted."""

        # A log entry may name an object by a handle no view showed (the object
        # changed again within the same action): name those by order of use.
        others: dict[str, str] = {}

        def rename(handle: str) -> Any:
            if handle in self.first_seen:
                return self.first_seen[handle]
            return others.setdefault(handle, f"log{len(others)}")

        def walk(tree: Any) -> Any:
            if isinstance(tree, dict):
                out = {k: walk(v) for k, v in tree.items()}
                for key in ("id", "was"):
                    if key in out:
                        out[key] = rename(tree[key])
                if out.get("name") in names:
                    out["name"] = "?"
                if "objects" in out and not out.get("ordered"):
                    out["objects"] = sorted(
                        out["objects"], key=lambda o: json.dumps(o, sort_keys=True)
                    )
                return out
            if isinstance(tree, list):
                return [walk(v) for v in tree]
            return tree

        return walk({"view": self.view, "log": self.log})


OBSERVERS: tuple[str | None, ...] = ("alice", "bob", None)


def check_noninterference(
    harness: Harness,
    setup: Any,
    actions: list[Action],
    swap_at: int,
    choice: int,
    observer_i: int,
    exact: bool = True,
    abilities: bool = False,
) -> None:
    """Run the actions on a game and, from ``swap_at`` on, on a copy in which
    two cards hidden from the observer traded places.

    ``exact`` trades only exact look-alikes, which the rules cannot tell apart
    even once shown: the observer's views and logs must then stay the same
    with the two names blanked, all along. Otherwise the two may be any cards
    that are alike as private objects (:func:`private_alike`, 3.0.7a): until
    one is shown to the observer, every view, log and answer must be the same,
    and so must the answer to any player who may look at neither card (the
    messages of refused actions included). ``abilities`` (with ``exact=False``)
    lets the two differ in their abilities as well (replacement effects, play
    permissions, triggers)."""
    observer = OBSERVERS[observer_i % len(OBSERVERS)]
    a = harness.build(setup)
    b: Game | None = None
    watch_a = {o: Watch(o) for o in OBSERVERS}
    for w in watch_a.values():
        w.start(a)
    watch_b: dict[str | None, Watch] = {}
    names: set[str] = set()
    traded = (0, 0)
    strict = True
    since = 0
    blind: dict[str, bool] = {}
    for step, action in enumerate(actions, start=1):
        if b is None and step > swap_at:
            pairs = hidden_pairs(a, observer, exact, abilities)
            # In half the examples, the trade waits for a card an effect was
            # about (a record, a bonus or a labelled move named it): what
            # they follow is what could tell two hidden cards apart.
            if harness.records and choice % 2:
                pairs = [pair for pair in pairs if named_once(a) & set(pair)]
            if pairs:
                c1, c2 = pick(pairs, choice // 2)
                names = {a._objs[c1].cdef.name, a._objs[c2].cdef.name}
                traded = (c1, c2)
                note(f"step {step}: {names} trade places, hidden from {observer}")
                hypothesis_event(
                    "two hidden look-alikes traded places"
                    if exact
                    else "two hidden cards alike as private objects traded places"
                )
                if named_once(a) & {c1, c2}:
                    hypothesis_event("a traded card is one a record or bonus was about")
                if a._objs[c1].cdef.abilities != a._objs[c2].cdef.abilities:
                    hypothesis_event("the traded cards differ in their abilities")
                b = a.copy()
                trade_places(b, c1, c2)
                since = _next_seq(a)
                watch_b = {observer: _clone_watch(watch_a[observer])}
                blind = {p: True for p in a.players}
                assert b.view(observer) == a.view(observer), "the trade itself shows"
                assert b.log(observer) == a.log(observer), "the trade itself shows in the log"
        actor = harness.actor(a, action)
        if b is not None and actor is not None:
            # A player who may look at neither card (in either game) may be
            # answered only as the other game would answer them.
            blind[actor] = blind[actor] and not any(
                g.exists(c) and g.may_look(actor, c) for g in (a, b) for c in traded
            )
        a, outcome_a = run_action(harness, a, action)
        note(f"step {step}: {action} by {actor}: {outcome_a}")
        for w in watch_a.values():
            w.step(a, action[0], step)
        if b is None:
            continue
        b, outcome_b = run_action(harness, b, action)
        watch_b[observer].step(b, action[0], step)
        shown = revealed(a, observer, traded, names, since) or revealed(
            b, observer, traded, names, since
        )
        strict = strict and not shown
        for player in a.players:
            blind[player] = blind[player] and not (
                revealed(a, player, traded, names, since)
                or revealed(b, player, traded, names, since)
            )
        wa, wb = watch_a[observer], watch_b[observer]
        if strict:
            assert wa.view == wb.view, f"step {step}: {observer} sees a difference in the view"
            assert wa.log == wb.log, f"step {step}: {observer} sees a difference in the log"
            if actor == observer:
                assert outcome_a == outcome_b, f"step {step}: {observer} is answered differently"
        if actor is not None and blind.get(actor) and (exact or strict):
            assert outcome_a == outcome_b, (
                f"step {step}: {actor}, who may look at neither card, is answered differently"
            )
        if not exact:
            if not strict:
                break  # shown: the two games may now go their own ways
            continue
        assert outcome_a[0] == outcome_b[0], f"step {step}: the action went differently"
        assert wa.blanked(names) == wb.blanked(names), (
            f"step {step}: {observer} can tell the traded cards apart"
        )
    for watch in (*watch_a.values(), *watch_b.values()):
        watch.check_schema()


def _next_seq(game: Game) -> int:
    log = game._vars["log"]
    return 0 if log is None else int(log[0].seq) + 1


def _clone_watch(w: Watch) -> Watch:
    return Watch(w.observer, w.view, w.log, w.visible, w.gone, dict(w.first_seen), list(w.saved))


# ----------------------------------------------------------------------
# The properties
# ----------------------------------------------------------------------


@pytest.mark.parametrize("harness", harness_params())
@given(data=st.data())
def test_noninterference_of_hidden_cards(harness: Harness, data: st.DataObject) -> None:
    setup = data.draw(harness.setup, label="setup")
    actions = data.draw(st.lists(harness.action, min_size=1, max_size=30), label="actions")
    swap_at = data.draw(st.integers(0, len(actions) // 2), label="swap_at")
    choice = data.draw(st.integers(0, 1000), label="choice")
    observer = data.draw(st.integers(0, 2), label="observer")
    check_noninterference(harness, setup, actions, swap_at, choice, observer)


@pytest.mark.parametrize("harness", harness_params())
@given(data=st.data())
def test_noninterference_of_private_objects(harness: Harness, data: st.DataObject) -> None:
    """Two hidden cards that differ in everything the rules may not see of a
    private object (types, numbers, effects on them) trade places: until one is
    shown, the observer, and any player who may look at neither, sees and is
    told exactly the same (3.0.7a)."""
    setup = data.draw(harness.setup, label="setup")
    actions = data.draw(st.lists(harness.action, min_size=1, max_size=30), label="actions")
    swap_at = data.draw(st.integers(0, len(actions) // 2), label="swap_at")
    choice = data.draw(st.integers(0, 1000), label="choice")
    observer = data.draw(st.integers(0, 2), label="observer")
    check_noninterference(harness, setup, actions, swap_at, choice, observer, exact=False)


@pytest.mark.parametrize("harness", harness_params())
@given(data=st.data())
def test_noninterference_of_private_objects_with_other_abilities(
    harness: Harness, data: st.DataObject
) -> None:
    """Two hidden cards alike as private objects but in their abilities (a
    replacement effect that sends a card elsewhere, a permission to play it
    from a zone, a trigger) trade places: until one is shown, what the
    observer and any player who may look at neither are offered, shown and
    told is the same (3.0.7a; 3.0.8a: abilities apply only as a card is
    revealed)."""
    setup = data.draw(harness.setup, label="setup")
    actions = data.draw(st.lists(harness.action, min_size=1, max_size=30), label="actions")
    swap_at = data.draw(st.integers(0, len(actions) // 2), label="swap_at")
    choice = data.draw(st.integers(0, 1000), label="choice")
    observer = data.draw(st.integers(0, 2), label="observer")
    check_noninterference(
        harness, setup, actions, swap_at, choice, observer, exact=False, abilities=True
    )


# ----------------------------------------------------------------------
# The leaks found so far, each as a fixed example
# ----------------------------------------------------------------------


def _aura(name: str) -> CardDef:
    return CardDef(name, types=frozenset({"action", "aura"}))


def test_noninterference_log_entries_are_judged_when_written() -> None:
    """Two cards go face down to the permanent zone, one moves on and turns face
    up. The old log entries must not learn which of the two it was."""

    game = new_game("fab", ("alice", "bob"))
    graveyard = game.zone("alice", "graveyard")
    assert graveyard is not None
    # Arena-cards: face down, a deck-card has no permanent subtype (3.0.7a), so
    # it could not go to the permanent zone at all.
    x = game.new_card(CardDef("X", types=frozenset({"landmark"})), graveyard)
    z = game.new_card(CardDef("Z", types=frozenset({"landmark"})), graveyard)
    game.move(x, Dest("permanent"), by="alice", face="down")
    game.move(z, Dest("permanent"), by="alice", face="down")
    before = game.log("bob")
    game.move(x, Dest("combat_chain"), by="alice", face="down")
    game.flip(x, "up")
    after = game.log("bob")
    assert after[: len(before)] == before
    assert [e.get("card") for e in after[:3]] == [None, None, None]
    assert after[3]["card"]["name"] == "X"  # the flip itself shows it


@settings(max_examples=40, deadline=None, database=None)
@given(choice=st.integers(0, 39), pick_i=st.integers(0, 7))
def test_noninterference_a_hidden_replacement_asks_no_choice_of_zone_3_0_10a(
    choice: int, pick_i: int
) -> None:
    """alice has two banished zones; her deck holds cards whose replacement
    effect sends them from the graveyard to banishment (3.0.8a) and cards
    without one, which trade places hidden from her. What she is offered for
    the top card of her deck, and the answer to moving it to her graveyard,
    must not tell her which it is: a replacement of a card private as it
    moves asks for no choice of zone (3.0.10a read with 3.0.7a)."""
    entries = [(0, 0, 1, 0), (1, 0, 1, 0), (0, 0, 1, 0), (1, 0, 3, 0)]
    setup = (1, False, 2, entries)  # seed 1: two banished zones each
    actions: list[Action] = [
        ("legal", 0, pick_i, 0, 0, 0, 0),
        ("move_to", 0, 2, 0, 0, 0, 0),  # to the graveyard
    ]
    check_noninterference(FAB, setup, actions, 0, choice, 1, exact=False, abilities=True)


def test_noninterference_handle_does_not_follow_a_card_out_of_sight_and_back() -> None:
    """A private card of bob's in alice's territory is alice's to look at
    (3.0.3a); in the shared field of battle it is not. When it comes back, its
    handle must not tell alice that it is the card she saw before. (Redemption:
    in fab a private card can no longer be put into another player's zone, as
    only an equipment zone takes another player's card, and a private card has
    no subtype to be equipped with, 3.0.7a.)"""
    game = new_game("redemption", ("alice", "bob"))
    zone = game.zone("alice", "territory")
    battle = game.zone(None, "field_of_battle")
    assert zone is not None and battle is not None
    card = game.new_card(CardDef("Blade", types=frozenset({"artifact"})), zone, owner="bob")
    game.flip(card, "down")
    game._journal = game._marks = None

    def alice_ids() -> list[str]:
        return list(handles(game.view("alice")))

    seen = alice_ids()
    owners = list(handles(game.view("bob")))
    assert seen and owners
    game.move(card, battle, face="down", by="bob")
    assert alice_ids() == []
    game.move(card, zone, face="down", by="bob")
    assert alice_ids() and not set(alice_ids()) & set(seen)
    assert list(handles(game.view("bob"))) == owners  # the owner's is stable


def test_noninterference_layer_needs_a_source_its_player_may_look_at() -> None:
    """A layer is public and shows its source's card: a player must not make
    one from a card they may not look at (bob's hand)."""
    from cardzones.errors import IllegalAction
    from cardzones.rulesets.fab import layers

    game = new_game("fab", ("alice", "bob"))
    hand = game.zone("bob", "hand")
    assert hand is not None
    card = game.new_card(_aura("Secret"), hand)
    with pytest.raises(IllegalAction) as refused:
        layers.add_layer(game, "activated", card, "alice")
    assert "Secret" not in str(refused.value)
    layers.add_layer(game, "activated", card, "bob")  # bob may look at it


def test_noninterference_refusal_to_play_says_nothing_of_an_unseen_card() -> None:
    """Playing a card from one's own deck is refused in the same words whatever
    the card is: the reason must not depend on its abilities (3.7.4)."""
    from cardzones.errors import IllegalAction
    from cardzones.rulesets.fab import actions as fab

    messages = set()
    for abilities in ((), (PlayFrom("deck"),), (PlayFrom("banished"),)):
        game = new_game("fab", ("alice", "bob"))
        deck = game.zone("alice", "deck")
        assert deck is not None
        card = game.new_card(
            CardDef("Secret", types=frozenset({"action"}), abilities=abilities), deck
        )
        with pytest.raises(IllegalAction) as refused:
            fab.play(game, card, "alice")
        assert "Secret" not in str(refused.value)
        messages.add(str(refused.value))
    assert len(messages) == 1, messages


def test_noninterference_no_player_name_means_everything() -> None:
    """A player called "*" gets their own view: no name is a key to every card."""
    game = new_game("fab", ("*", "bob"))
    hand = game.zone("bob", "hand")
    assert hand is not None
    game.new_card(_aura("Secret"), hand)
    assert "Secret" not in json.dumps(game.view("*"))
    assert "Secret" in json.dumps(omniscient_view(game))


def _renamed(text: str) -> str:
    """Output with handles renamed by first appearance: each run of a
    scenario has a handle key of its own."""
    import re

    names: dict[str, str] = {}
    return re.sub(r"o[0-9a-f]{12}", lambda m: names.setdefault(m.group(0), f"h{len(names)}"), text)


def test_noninterference_cli_as_player_shows_only_that_players_view(tmp_path: Any) -> None:
    """``cardzones run --as bob`` prints bob's view and log, and nothing that
    depends on alice's hidden cards: not their names, and not whether the
    author's expectation about them holds (class: run --as). The exit code,
    the messages and the board are the same either way."""
    from typer.testing import CliRunner

    from cardzones.cli import app

    def scenario(expected: str) -> Any:
        path = tmp_path / f"{expected.replace(' ', '_')}.scenario.yaml"
        path.write_text(
            "name: hidden\nruleset: fab\n"
            "setup:\n  alice.hand: [Secret Alpha]\n"
            "  alice.deck: [{card: Secret Beta, as: b}, Secret Gamma]\n"
            "steps:\n"
            "  - move: {card: $b, to: alice.hand}\n"
            "  - shuffle: {zone: alice.deck}\n"
            f"  - expect: {{zone: alice.hand, cards: [{expected}, Secret Alpha]}}\n"
            '  - move: {card: "alice.hand[0]", to: alice.deck, error: refused}\n'
        )
        return path

    failing, holding = scenario("Secret Delta"), scenario("Secret Beta")
    runner = CliRunner()
    for args in (["--as", "bob", "--json"], ["--as", "bob"]):
        results = [runner.invoke(app, ["run", str(p), *args]) for p in (failing, holding)]
        for result in results:
            assert result.exit_code == 0, result.output
            assert "Secret" not in result.output, result.output
            assert "check" in result.output or "--json" in args
        assert _renamed(results[0].output) == _renamed(results[1].output)
    shown = runner.invoke(app, ["run", str(failing), "--as", "bob", "--json"]).output
    data = json.loads(shown[shown.index("{") : shown.rindex("}") + 1])
    assert data["view"]["viewer"] == "bob"
    hand = next(z for z in data["view"]["zones"] if z["zone"] == "alice.hand")
    assert hand["objects"] == [{"hidden": True}]  # the move to the deck was played
    author = runner.invoke(app, ["run", str(failing), "--json"])
    assert "Secret Alpha" in author.output and author.exit_code == 1
    assert runner.invoke(app, ["check", str(failing)]).exit_code == 1
    assert runner.invoke(app, ["check", str(holding)]).exit_code == 1  # error: refused, allowed


def test_noninterference_undo_does_not_let_a_handle_follow_a_card_back_into_hiding() -> None:
    """Bob plays a card and takes it back with an undo; it is hidden in his hand
    again. When a card from his hand is shown later, its handle must not tell
    alice whether it is the one she saw before."""
    from cardzones.rulesets.fab import actions as fab

    game = new_game("fab", ("alice", "bob"))
    hand = game.zone("bob", "hand")
    assert hand is not None
    x = game.new_card(_aura("X"), hand, owner="bob")
    y = game.new_card(_aura("Y"), hand, owner="bob")
    game._journal = game._marks = None
    fab.play(game, x, "bob")
    first = set(handles(game.view("alice")))
    game.undo()
    other = game.copy()
    trade_places(other, x, y)
    for g in (game, other):
        card = g.contents(hand)[0]
        g.move(card, Dest("permanent"), by="bob", face="up")
    shown = [set(handles(g.view("alice"))) for g in (game, other)]
    assert shown[0] == shown[1]
    assert not shown[0] & first


def test_noninterference_owner_handle_does_not_follow_a_card_through_the_deck() -> None:
    """Redemption has no resets, so a card keeps its object through a trip into
    its owner's deck, where even the owner may not look (3.7.4). When a card
    comes out of the deck, its handle must not tell bob whether it is the one
    he saw go in."""
    game = new_game("redemption", ("alice", "bob"))
    deck, territory = game.zone("bob", "deck"), game.zone("bob", "territory")
    assert deck is not None and territory is not None
    x = game.new_card(CardDef("X", types=frozenset({"hero"})), deck, owner="bob")
    y = game.new_card(CardDef("Y", types=frozenset({"hero"})), deck, owner="bob")
    game._journal = game._marks = None
    game.move(x, territory, face="down", by="bob")
    first = set(handles(game.view("bob")))
    game.move(x, deck, position="top", by="bob")
    other = game.copy()
    trade_places(other, x, y)
    for g in (game, other):
        g.move(g.contents(deck)[0], territory, face="down", by="bob")
    # Bob may look at the card now, so its name shows; its handle must not
    # link it to the card he saw before.
    shown = [set(handles(g.view("bob"))) for g in (game, other)]
    assert shown[0] == shown[1]
    assert not shown[0] & first
