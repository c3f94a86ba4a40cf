"""A weapon's attack and the end of a turn, as one action each.

A weapon attacks with its attack-proxy (1.4.3): a non-card object that
represents the weapon's attack, made on the stack as a layer. When it
resolves it becomes a chain link on the combat chain, which holds cards and
attack-proxies (3.6.2); it ceases to exist once its attack-source (the
weapon) does (1.4.3c), and at the latest when the combat chain closes.

The end of the turn is the end-of-turn procedure (4.4.3) with the combat
chain closed first: the turn player may put a card from their hand face down
into an empty arsenal (4.4.3b), every pitch zone goes to the bottom of its
deck (4.4.3c), the turn player untaps the permanents they control (4.4.3d)
and draws up to their hero's intellect, on
the first turn every player (4.4.3f); then the turn passes, and allies' life
totals are reset (4.4.3a).

Closing the combat chain is chapter 7's close step, which the rules texts
do not hold; the engine reads it this way: attack-proxies cease, a card
that is a permanent outside the chain (an attacking ally) returns to the
permanent zone, and every other card goes to its owner's graveyard.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> sword = game.ruleset.make_card("Dawnblade", {"types": ("weapon", "sword", "2h"), "power": 3})
>>> blade = game.new_card(sword, game.zone("alice", "weapon"), owner="alice",
...                       controller="alice", public=True)
>>> proxy = attack(game, blade, "alice")
>>> game.obj(proxy).kind, game.zone_name(game.obj(proxy).zone), game.stat(proxy, "power")
('attack_proxy', 'stack', 3)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardzones.errors import IllegalAction
from cardzones.kernel.cards import CardDef, Dest, Move
from cardzones.kernel.objects import CARD, Obj
from cardzones.kernel.results import MoveResult
from cardzones.kernel.views import name_for
from cardzones.rulesets.fab.cards import becomes_permanent
from cardzones.rulesets.fab.chain import forget_links
from cardzones.rulesets.fab.layers import ATTACK_PROXY, PROXIES, LayerData, push_layer, stack
from cardzones.rulesets.fab.moves import hero_of
from cardzones.rulesets.fab.quiet_points import QuietPoint
from cardzones.rulesets.fab.tapping import untap_all

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def combat_chain(game: Game) -> int:
    """The combat chain's zone (3.6), found as zones_of has it."""
    zids = game.zones_of(None, "combat_chain")
    assert zids
    return zids[0]


def attack(game: Game, weapon: int, by: str) -> int:
    """Attack with a weapon the player controls: its attack-proxy goes on the
    stack (1.4.3), owned and controlled by that player (1.4.1a, 1.4.1b), with
    the weapon's properties (1.4.3a)."""
    obj = check_attack(game, weapon, by)
    data = LayerData(weapon, ref_card=weapon, ref_oid=obj.oid)
    with game.atomic():
        return push_layer(game, game.characteristics(obj), ATTACK_PROXY, data, by, by)


def check_attack(game: Game, weapon: int, by: str) -> Obj:
    """The weapon, when ``by`` may attack with it (1.4.3, 1.4.3b, 1.4.1b);
    refused otherwise."""
    obj = game.obj(weapon)
    # The weapon is named only in a refusal (legal actions ask this often).
    if obj.kind != CARD or not obj.public or "weapon" not in game.characteristics(obj).types:
        what = name_for(game, by, weapon)
        raise IllegalAction(f"only a weapon attacks this way, and {what} is not one", rule="1.4.3")
    if not obj.equipped or not game.is_permanent(weapon):
        what = name_for(game, by, weapon)
        raise IllegalAction(f"{what} is not an equipped weapon", rule="1.4.3b")
    if obj.controller != by:
        what = name_for(game, by, weapon)
        raise IllegalAction(f"{by} does not control {what}", rule="1.4.1b")
    return obj


def proxies_without_source(game: Game) -> list[int]:
    """Attack-proxies whose attack-source no longer exists as the object it
    was (1.4.3c), on the stack or the combat chain."""
    # Looked at after every action while an attack-proxy exists: each object
    # of the two zones is found once, and a source by its card alone.
    out = []
    find, contents = game.find, game.contents
    for zid in (stack(game), combat_chain(game)):
        for card in contents(zid):
            obj = find(card)
            if obj is None or obj.kind != ATTACK_PROXY:
                continue
            data = obj.data
            if not isinstance(data, LayerData) or data.ref_card is None:
                continue
            source = find(data.ref_card)
            if source is None or source.oid != data.ref_oid:
                out.append(card)
    return out


def cease_proxies_without_source(game: Game) -> None:
    """1.4.3c: every attack-proxy whose attack-source no longer exists as the
    object it was ceases to exist, as a rule. An attack-proxy is recorded as
    it is made (:func:`push_layer`) and forgotten once it no longer exists:
    while none is recorded, there is nothing to look at."""
    made = game.record(PROXIES)
    if made is None:
        return
    point = game.point
    if _EVERY_SOURCE.still(point):
        return  # as it was where every source was found, or since priority was handed on
    for proxy in proxies_without_source(game):
        game.cease(proxy, cause="rule")
    exists = game.exists
    for card in made:
        if not exists(card):
            break
    else:
        if game.point is point:
            _EVERY_SOURCE.found_nothing(point)
        return  # every one recorded exists still: the record stays as it is
    left = tuple(card for card in made if exists(card))
    if not left:
        game.records.pop(PROXIES)
    else:
        game.records.put(PROXIES, left)


#: Where :func:`cease_proxies_without_source` last found every attack-proxy
#: with its source, ceasing none (quiet_points).
_EVERY_SOURCE = QuietPoint("attack-proxies without a source")


def close_combat_chain(game: Game, by: str) -> None:
    """The combat chain closes: attack-proxies cease (1.4.3c: their
    attack-source is on no chain link any more), a card that would be a
    permanent in the permanent zone goes back there, every other card goes
    to its owner's graveyard."""
    chain = combat_chain(game)
    forget_links(game)  # 7.0.2: a closed combat chain has no chain links
    find = game.find
    for card in list(game.contents(chain)):
        obj = find(card)  # each object read once, as the chain's cards move away one by one
        if obj is None or obj.zone != chain:
            continue
        move = closing_move(game, obj, by)
        if move is None:
            game.cease(card, by, cause="rule")
        else:
            game.move(move)


def closing_move(game: Game, obj: Obj, by: str) -> Move | None:
    """The rule move by which closing the combat chain sends an object of it
    away, made by ``by``: None for one that is no card (it ceases, 1.4.3c);
    to the permanent zone a card that would be a permanent there, and to its
    owner's graveyard any other."""
    if obj.kind != CARD:
        return None
    if obj.public and _permanent_there(game.characteristics(obj)):
        return Move(obj.card, Dest("permanent"), cause="rule", by=by)
    return Move(obj.card, Dest("graveyard", "owner"), cause="rule", by=by)


def _permanent_there(cdef: CardDef) -> bool:
    """Whether the card is a permanent in the permanent zone (1.3.3,
    :func:`becomes_permanent`), which its types alone say: found once per
    set of types, as every card leaving a closing combat chain asks it."""
    known = _PERMANENT.get(cdef.types)
    if known is None:
        known = becomes_permanent(cdef, "permanent")
        if len(_PERMANENT) < _MAX_KEPT:
            _PERMANENT[cdef.types] = known
    return known


#: Whether a card is a permanent in the permanent zone, by its set of types.
_PERMANENT: dict[frozenset[str], bool] = {}
#: Up to how many sets of types :data:`_PERMANENT` keeps.
_MAX_KEPT = 4096


def draw_move(card: int, player: str) -> Move:
    """4.4.3f: one draw up to intellect, the card to its player's hand."""
    return Move(card, Dest("hand", player), by=player)


def arsenal_move(card: int, player: str) -> Move:
    """4.4.3b: the card for the arsenal goes there face down."""
    return Move(card, Dest("arsenal", player), face="down", by=player)


def draw_to_intellect(game: Game, player: str) -> None:
    """4.4.3f: the player draws until their hand holds as many cards as their
    hero's intellect; nothing when it holds that many already, and no more
    than their deck holds."""
    limits = draw_limits(game, player)
    if limits is None:
        return
    intellect, hand, deck = limits
    while len(game.contents(hand)) < intellect and game.contents(deck):
        top = game.contents(deck)[0]
        if game.move(draw_move(top, player)) is MoveResult.FAILED:
            return  # 3.0.11: the hand cannot take the top card, and it stays on top


def draw_limits(game: Game, player: str) -> tuple[int, int, int] | None:
    """What the draws up to intellect read (4.4.3f): the hero's intellect,
    the player's hand and deck; None where there is nothing to draw up to (no
    hero, a private hero, no intellect) or nothing to draw from or into."""
    try:
        hero = hero_of(game, player)
    except IllegalAction:
        return None  # no hero, no intellect
    intellect = game.stat(hero, "intellect") if game.is_public(hero) else None
    hand, deck = game.zone(player, "hand"), game.zone(player, "deck")
    if intellect is None or hand is None or deck is None:
        return None
    return intellect, hand, deck


def drawers(game: Game, player: str) -> list[str]:
    """Who draws up to intellect at the end of ``player``'s turn: that player,
    and on the first turn every player (4.4.3f)."""
    out = [player]
    if game.turn == 1:
        out += [p for p in game.players if p != player]
    return out


def no_arsenal(player: str) -> IllegalAction:
    """The refusal of a card for the arsenal when no arsenal zone takes it (4.4.3b)."""
    return IllegalAction(f"{player} has no empty arsenal zone", rule="4.4.3b")


def check_arsenal(game: Game, card: int, player: str) -> None:
    """Refused unless the card for the arsenal is in ``player``'s hand (4.4.3b)."""
    obj = game.obj(card)
    info = game.zone_info(obj.zone)
    if info.type != "hand" or info.owner != player or obj.host is not None:
        raise IllegalAction(f"the card for the arsenal comes from {player}'s hand", rule="4.4.3b")


def to_arsenal(game: Game, card: int, player: str) -> None:
    """4.4.3b: the turn player puts a card from their hand face down into an
    empty arsenal zone they own."""
    check_arsenal(game, card, player)
    done = game.move(arsenal_move(card, player))
    if done is not MoveResult.MOVED:
        raise no_arsenal(player)


def finish_turn(game: Game, arsenal: int | None, order: tuple[int, ...]) -> MoveResult:
    """The end of the turn, as one action: the combat chain closes, then the
    end-of-turn procedure (4.4.3b, c, f), then the next turn begins, with
    "this turn" effects ended and allies' life totals reset (4.4.3a)."""
    player = game.turn_player
    with game.atomic():
        close_combat_chain(game, player)
        if arsenal is not None:
            to_arsenal(game, arsenal, player)
        game.ruleset.end_turn(game, order)  # 4.4.3c
        untap_all(game, player)  # 4.4.3d
        for drawer in drawers(game, player):
            draw_to_intellect(game, drawer)
        return game.end_turn(())
