"""fab's benchmark position and workload, which ``cardzones bench`` measures
(:mod:`cardzones.bench.position`).

The standard position is a two-player fab game of 126 objects in every kind of
zone: decks, hands, graveyards, banished, arsenals, pitch zones, all the
equipment zones (with a two-hander), heroes with sub-cards in their souls, and
permanents (auras and tokens). :func:`fill_position` fills an empty game with
it, or with a bigger one of the same shape. :func:`action_choices` lists the
actions the workload may take on a card where it is, :func:`apply_action`
takes one through the public API, and :func:`places` names every place a card
may be acted on. :data:`TABLE_CARDS` and :func:`table_setup` make the table
the load benchmarks play.

>>> from cardzones.kernel.game import Game
>>> from cardzones.rulesets.fab import FabRuleset
>>> game = Game(FabRuleset(), PLAYERS, 0)
>>> fill_position(game, STANDARD_OBJECTS)
>>> len(game.cards())
126
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from cardzones.kernel.cards import CardDef, Dest, Replacement
from cardzones.kernel.game import Game
from cardzones.kernel.objects import UNDER
from cardzones.rulesets.fab.actions import put_under

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


def fill_position(game: Game, objects: int = STANDARD_OBJECTS, seed: int = 0) -> None:
    """Fill ``game`` (an empty two-player fab game) with ``objects`` objects
    (at least 126) in the shape of the standard position; the extra objects go
    to the decks, graveyards, banished zones and the arena."""
    if objects < STANDARD_OBJECTS:
        raise ValueError(f"a position has at least {STANDARD_OBJECTS} objects")
    rng = random.Random(seed)
    extra = objects - STANDARD_OBJECTS
    for n, player in enumerate(PLAYERS):
        mine = extra // len(PLAYERS) + (extra % len(PLAYERS) if n == 0 else 0)
        _fill_player(game, player, rng, mine)


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


def action_choices(game: Game, card: int, rng: random.Random) -> list[Action]:
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
    return put_under(game, card, host_of(game, by), by)


def host_of(game: Game, player: str) -> int:
    """The card the workload puts ``player``'s cards under: their hero (3.11.5)."""
    return game.contents(_zid(game.zone(player, "hero")))[0]


def places(game: Game) -> list[tuple[str, int]]:
    """Where cards can be acted on: every zone, and the pile under each hero
    (a negated card id), each with a name (``alice.deck``, ``alice.hero.under``)."""
    out = [(game.zone_name(zid), zid) for zid in game.all_zones()]
    for player in game.players:
        hero = host_of(game, player)
        out.append((f"{game.zone_name(game.location(hero))}.under", -hero))
    return out


#: The cards of the table the load benchmarks play: a hero and look-alike attacks.
TABLE_CARDS: dict[str, dict[str, Any]] = {
    "Hero": {"types": ["hero"], "life": 20},
    "Strike": {"types": ["action", "attack"], "power": 4, "defense": 3, "pitch": 1},
}


def table_setup(player: str, deck: int) -> dict[str, list[str]]:
    """One seat's cards at the load benchmarks' table: a hero and ``deck`` attacks."""
    return {f"{player}.hero": ["Hero"], f"{player}.deck": ["Strike"] * deck}


def public_setup(player: str, cards: int) -> dict[str, list[str]]:
    """``cards`` of ``player``'s own in a public zone of theirs (the pitch
    zone), each one a candidate of their legal acts: the abuse bench's large
    table."""
    return {f"{player}.pitch": ["A"] * cards}
