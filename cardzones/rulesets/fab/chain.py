"""The chain links of the combat chain, as the engine records them (7.0.3).

The engine has no combat steps: an attack reaches the combat chain when its
attack-proxy resolves (3.6.2) or when a card is moved there, and a card
defends when it is put there. So the chain links are read from the order in
which objects arrive on the combat chain, at the end of each action:

- an object that arrives as an attack starts chain link N+1 (7.0.3a): an
  attack-proxy (1.4.3), or a public card with the attack subtype controlled
  by the turn player (1.4.2a: put onto the combat chain as an attack);
- a card of another player than the attacker that arrives while there is a
  chain link is put on the newest one as a defending card (7.0.3f, 7.0.5a),
  and defends until it leaves the combat chain.

Cards a set-up puts on the combat chain arrived by no move: they are on it,
but on no chain link.

A chain link stays when its attack ceases or leaves: its name is the last
known information of the attack (1.2.3, 7.0.3c). The links are forgotten
when the combat chain closes (:func:`forget_links`).

When an attack-proxy becomes chain link N, its attack-source moves with it
to that link, so an earlier attack-proxy of the same source on the combat
chain ceases to exist (1.4.3c and its example: a weapon that attacks twice
on one combat chain).

>>> from cardzones import new_game
>>> from cardzones.rulesets.fab.turn import attack
>>> game = new_game("fab", ["alice", "bob"])
>>> sword = game.ruleset.make_card("Dawnblade", {"types": ("weapon", "sword", "2h"), "power": 3})
>>> blade = game.new_card(sword, game.zone("alice", "weapon"), owner="alice",
...                       controller="alice", public=True)
>>> first = attack(game, blade, "alice")
>>> _ = game.act("resolve")
>>> second = attack(game, blade, "alice")
>>> _ = game.act("resolve")
>>> game.exists(first), [(link.number, link.attack == second) for link in links(game)]
(False, [(1, False), (2, True)])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from cardzones.kernel.objects import CARD, Obj
from cardzones.rulesets.base import ChainLink
from cardzones.rulesets.fab.layers import ATTACK_PROXY, LayerData

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The record of the combat chain's links while it holds any.
LINKS = "chain_links"

Key = tuple[int, int]  # a card and its object (3.0.9)


class Link(NamedTuple):
    """A chain link as recorded: its attack (card, object, name as it
    arrived, controller) and the objects put on it as defending cards."""

    attack: Key
    name: str
    attacker: str | None
    source: Key | None
    defending: tuple[Key, ...] = ()


class Chain(NamedTuple):
    """The combat chain's links, the first first; the objects on the combat
    chain at the last change of them, to tell arrivals; and its contents
    then, with its zone, so that an action that leaves the combat chain as it
    was costs one comparison (a record saved before the zone was kept has
    None, and the zone is looked up)."""

    links: tuple[Link, ...]
    present: frozenset[Key]
    cards: tuple[int, ...] = ()
    zone: int | None = None


def _combat_chain(game: Game) -> int | None:
    return game.zone(None, "combat_chain")


def is_attack(game: Game, obj: Obj) -> bool:
    """Whether an object arriving on the combat chain arrives as an attack
    (see the module's documentation)."""
    if obj.kind == ATTACK_PROXY:
        return True
    return (
        obj.kind == CARD
        and obj.public
        and obj.controller == game.turn_player
        and "attack" in game.characteristics(obj).types
    )


def _source(obj: Obj) -> Key | None:
    data = obj.data
    if obj.kind != ATTACK_PROXY or not isinstance(data, LayerData):
        return None
    if data.ref_card is None or data.ref_oid is None:
        return None
    return data.ref_card, data.ref_oid


def note_arrivals(game: Game, chain: int) -> None:
    """Record what arrived on the combat chain during the action: new chain
    links and defending cards. An attack-proxy that starts a link ends the
    earlier attack-proxies of its source on the chain (1.4.3c).

    An object arrives by a logged move. One put there by a set-up, which logs
    nothing, is on the combat chain but on no chain link; it is recorded as
    there with the next arrival, so an action that changes nothing (a failed
    one, 3.0.11) writes nothing either. ``chain`` is the combat chain's zone.

    An action that leaves the combat chain's contents as they were (the same
    tuple, as the game keeps it) costs one lookup of the record and one
    comparison."""
    cards = game.contents(chain)
    record: Chain | None = game.records.get(LINKS)
    if record is None:
        if not cards:
            return
        record = _NO_LINKS
    elif cards is record.cards or cards == record.cards:
        return  # nothing arrived or left (a card made new in place did not arrive)
    links = record.links
    present = record.present
    renewed: set[int] | None = None  # the cards there already, read once needed
    here: list[Key] = []
    changed = ended = False
    for card in cards:
        obj = game.obj(card)
        key = (card, obj.oid)
        here.append(key)
        if key in present:
            continue  # there already
        if renewed is None:
            renewed = {card for card, _ in present}
        if card in renewed:
            continue  # a new object of a card there already did not arrive
        if obj.host is not None or not game.moved_since(card, -1):
            continue  # a sub-card, or a set-up object: on no chain link
        changed = True
        if is_attack(game, obj):
            links = (*links, Link(key, obj.cdef.name, obj.controller, _source(obj)))
            ended = _end_earlier_proxies(game, links[-1], chain) or ended
        elif links and obj.kind == CARD and obj.controller != links[-1].attacker:
            last = links[-1]
            links = (*links[:-1], last._replace(defending=(*last.defending, key)))
    kept = frozenset(here)
    if not changed and present <= kept:
        return  # no arrival and no departure: set-up objects alone are new
    if ended:  # the proxies that ceased have left the combat chain
        kept = frozenset(k for k in here if game.exists(k[0]) and game.obj(k[0]).oid == k[1])
        cards = game.contents(chain)
    game.records.put(LINKS, Chain(links, kept, cards, chain))


#: The record of a combat chain that has had no link yet.
_NO_LINKS = Chain((), frozenset())


def _end_earlier_proxies(game: Game, link: Link, chain: int) -> bool:
    """1.4.3c: the attack-source of the new chain link's attack-proxy is on
    that link now, so its attack-proxies on earlier links cease (last known
    information keeps them, 1.2.3). Returns whether any ceased."""
    if link.source is None:
        return False
    ended = False
    for card in game.contents(chain):
        obj = game.obj(card)
        if card != link.attack[0] and _source(obj) == link.source:
            game.cease(card, link.attacker or game.turn_player, cause="rule")
            ended = True
    return ended


def forget_links(game: Game) -> None:
    """The combat chain has closed: it has no chain links any more (7.0.2)."""
    if LINKS in game.records:
        game.records.pop(LINKS)


def links(game: Game) -> tuple[ChainLink, ...]:
    """The chain links of the combat chain, the first first: each with its
    attack and the cards defending on it now, those still on the combat
    chain as the objects they were when they defended (7.0.5a)."""
    record: Chain | None = game.records.get(LINKS)
    if record is None:
        return ()
    out = []
    for number, link in enumerate(record.links, start=1):
        defending = tuple(
            card
            for card, oid in link.defending
            if game.exists(card) and game.obj(card).oid == oid and _on_chain(game, card)
        )
        out.append(ChainLink(number, link.attack[0], link.name, defending))
    return tuple(out)


def _on_chain(game: Game, card: int) -> bool:
    return game.obj(card).zone == _combat_chain(game)
