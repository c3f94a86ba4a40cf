"""The chain links of the combat chain, as the engine records them (7.0.3):
one record, which the scenario keys, the attack-proxies and the game
procedure's combat steps all read.

Under the game procedure its combat steps make the links (7.2.3, 7.3.2d,
7.4.2d) and write them here (:func:`put_links`). Without it the engine has no
combat steps: an attack reaches the combat chain when its attack-proxy
resolves (3.6.2) or when a card is moved there, and a card defends when it
is put there. So the chain links are read from the order in which objects
arrive on the combat chain, at the end of each action:

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
    """A chain link (7.0.3), the one record of it the engine keeps: its
    active-attack (card, object, name as it arrived, controller: the
    attacking player), its attack-source (1.4.3b), and the objects put on it
    as defending cards (7.0.5a), each with the zone it came from (``homes``:
    an equipment returns there at the close, 7.7.5; -1 for any other).

    The game procedure adds what its combat steps decide: the defending
    player (7.2.4b), the damage dealt (None before the damage step), whether
    the attack hit (7.5.5) and whether the link resolved (7.6.2). A link the
    engine records from a move by hand has no defending player."""

    attack: Key
    name: str
    attacker: str | None
    source: Key | None
    defending: tuple[Key, ...] = ()
    defender: str | None = None
    homes: tuple[int, ...] = ()
    damage: int | None = None
    hit: bool = False
    resolved: bool = False

    @property
    def card(self) -> int:
        """The active-attack's card (it may have ceased or left since)."""
        return self.attack[0]

    @property
    def source_card(self) -> int | None:
        """The attack-source's card, if the attack has one."""
        return None if self.source is None else self.source[0]

    @property
    def defending_cards(self) -> tuple[int, ...]:
        """The cards put on the link as defending cards, in order."""
        return tuple(card for card, _ in self.defending)

    def returning(self) -> tuple[tuple[Key, int], ...]:
        """Each defending equipment with the zone it was equipped in (7.7.5).
        A link recorded before the zones were kept has none."""
        pairs = zip(self.defending, self.homes, strict=False)
        return tuple((key, home) for key, home in pairs if home >= 0)


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
    record: Chain | None = game.record(LINKS)
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
            links = (*links, new_link(game, card, obj.controller))  # 7.0.3a
            ended = end_earlier_proxies(game, links[-1], chain) or ended
        elif links and obj.kind == CARD and obj.controller != links[-1].attacker:
            links = (*links[:-1], defended(game, links[-1], (card,), (-1,)))  # 7.0.5a
    kept = frozenset(here)
    if not changed and present <= kept:
        return  # no arrival and no departure: set-up objects alone are new
    if ended:  # the proxies that ceased have left the combat chain
        kept = frozenset(k for k in here if game.exists(k[0]) and game.obj(k[0]).oid == k[1])
        cards = game.contents(chain)
    game.records.put(LINKS, Chain(links, kept, cards, chain))


#: The record of a combat chain that has had no link yet.
_NO_LINKS = Chain((), frozenset())


def new_link(game: Game, attack: int, attacker: str | None, defender: str | None = None) -> Link:
    """The chain link an attack that has just moved onto the combat chain
    makes (7.0.3a), attacking ``defender``'s hero when the procedure knows
    whom (7.2.4b)."""
    obj = game.obj(attack)
    return Link((attack, obj.oid), obj.cdef.name, attacker, _source(obj), defender=defender)


def defended(game: Game, link: Link, cards: tuple[int, ...], homes: tuple[int, ...]) -> Link:
    """The link with ``cards``, just put on it, as defending cards (7.0.5a),
    each the object it is now; ``homes`` as :class:`Link` keeps them."""
    keys = tuple((card, game.obj(card).oid) for card in cards)
    return link._replace(
        defending=(*link.defending, *keys),
        homes=(*_padded(link), *homes),
    )


def _padded(link: Link) -> tuple[int, ...]:
    # A link recorded before the zones were kept has none: its cards stay.
    missing = len(link.defending) - len(link.homes)
    return (*link.homes, *(-1,) * missing) if missing > 0 else link.homes


def end_earlier_proxies(game: Game, link: Link, chain: int) -> bool:
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


def recorded(game: Game) -> tuple[Link, ...]:
    """The combat chain's links as recorded, the first first (7.0.3)."""
    record: Chain | None = game.record(LINKS)
    return () if record is None else record.links


def put_links(game: Game, links: tuple[Link, ...], chain: int) -> None:
    """Record the links as the game procedure has them after its step: each
    replaces the recorded link of the same active-attack, and a new one
    (7.0.3a) comes after them all. A recorded link the procedure no longer
    plays on (its attack left the combat chain by hand) stays, as a chain
    link stays when its attack ceases (7.0.3c). The attacks and defending
    cards the procedure put there are recorded as there, so they arrive
    once; anything else that arrived is noted at the end of the action
    (:func:`note_arrivals`). Nothing is written when nothing changed."""
    record: Chain | None = game.record(LINKS)
    old = () if record is None else record.links
    if links == old:
        return
    merged = _merged(old, links)
    if merged == old:
        return
    base = _NO_LINKS if record is None else record
    cards = game.contents(chain)
    # Each set made from a list: the procedure puts links at every step of combat.
    obj = game.obj
    now = frozenset([(card, obj(card).oid) for card in cards])
    put = frozenset([link.attack for link in links] + [k for x in links for k in x.defending])
    known = base.present | put
    if now <= known:  # nothing else arrived: the end of the action has nothing to note
        game.records.put(LINKS, Chain(merged, now, cards, chain))
    else:
        game.records.put(LINKS, base._replace(links=merged, present=known & now, zone=chain))


def _merged(old: tuple[Link, ...], links: tuple[Link, ...]) -> tuple[Link, ...]:
    """The recorded links ``old`` with each replaced by the link of ``links``
    of the same active-attack, and the others of ``links`` after them all."""
    if len(links) == len(old) and len({link.attack for link in links}) == len(links):
        # The same attacks in the same order, each once (a step of combat
        # changed what it decides of them): the links as they are.
        for new, was in zip(links, old, strict=True):
            if new.attack != was.attack:
                break
        else:
            return links
    mine = {link.attack: link for link in links}
    kept = tuple(mine.pop(link.attack, link) for link in old)
    return (*kept, *(link for link in links if link.attack in mine))


def defending_now(game: Game, link: Link) -> tuple[int, ...]:
    """The cards defending on the link now: those still on the combat chain
    as the objects they were when they defended (7.0.5a)."""
    chain = _combat_chain(game)
    find = game.find
    return tuple(
        card
        for card, oid in link.defending
        if (found := find(card)) is not None and found.oid == oid and found.zone == chain
    )


def links(game: Game) -> tuple[ChainLink, ...]:
    """The chain links of the combat chain, the first first: each with its
    attack and the cards defending on it now (:func:`defending_now`)."""
    return tuple(
        ChainLink(number, link.card, link.name, defending_now(game, link))
        for number, link in enumerate(recorded(game), start=1)
    )
