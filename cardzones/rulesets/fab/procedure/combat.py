"""Combat under the procedure (chapter 7): an attack becomes a chain link,
defending cards are added to it, damage is dealt, the link resolves and the
combat chain closes.

Each function takes the procedure's record and gives the record after it,
writing the moves of the cards on the way; :mod:`.flow` stores the record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from cardzones.acts.legal import JUDGING, judging
from cardzones.errors import IllegalAction
from cardzones.kernel.objects import CARD, Obj
from cardzones.kernel.views import name_for
from cardzones.rulesets.fab import layers, life
from cardzones.rulesets.fab.chain import (
    Link,
    defended,
    defending_now,
    end_earlier_proxies,
    new_link,
)
from cardzones.rulesets.fab.layers import ATTACK_PROXY
from cardzones.rulesets.fab.moves import hero_of
from cardzones.rulesets.fab.procedure import effects as card_effects
from cardzones.rulesets.fab.procedure.state import (
    ATTACK,
    DAMAGE,
    DEFEND,
    REACTION,
    RESOLUTION,
    Procedure,
    active_link,
    attack_target,
    next_player,
    players,
    points,
    require,
    with_points,
)
from cardzones.rulesets.fab.turn import close_combat_chain, combat_chain

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def is_attack(game: Game, card: int, by: str | None = None) -> bool:
    """Whether a layer is an attack: an attack-proxy (1.4.3) or a card with
    the attack subtype (1.4.2); a private card as ``by`` may know it."""
    obj = game.obj(card)
    if obj.kind == ATTACK_PROXY:
        return True
    return obj.kind == CARD and "attack" in game.characteristics(obj, by=by).types


def has_go_again(game: Game, card: int) -> bool:
    """Whether the object has go again (8.3.5), printed or given by an
    effect (8.5.9)."""
    return card_effects.has_keyword(game, card, "go_again")


def gain_action_point(game: Game, proc: Procedure, player: str) -> Procedure:
    """1.13.2a, 1.13.2b: a player gains an action point during their own
    action phase only."""
    if player != game.turn_player or proc.phase != "action":
        return proc
    ap = points(game, proc.action_points, player) + 1
    return proc._replace(action_points=with_points(game, proc.action_points, player, ap))


def become_link(game: Game, proc: Procedure, attack: int) -> Procedure:
    """The attack step (7.2): the attack moves onto the combat chain as chain
    link N+1 (7.0.3a, 7.2.3a, 7.2.3b), attacking the hero it targets, whose
    controller is the defending player (1.4.5, 7.2.4b); an attack put on the
    stack with no target declared (by a judge's hand) targets the next
    player's in the game. With its target gone, the combat chain closes
    (7.2.2, 7.7.2b). The link is the combat chain's record of it (see
    :mod:`cardzones.rulesets.fab.chain`); an attack-proxy's source moves to
    it, ending the source's earlier attack-proxies (1.4.3c)."""
    obj = game.obj(attack)
    attacker = obj.controller or obj.owner or game.turn_player
    defender = attack_target(proc, attack) or next_player(game, attacker, proc.losers)
    proc = proc._replace(targets=tuple(t for t in proc.targets if t[0] != attack))
    if defender in proc.losers or defender == attacker:
        return close(game, proc)  # 7.2.2: the target left the game (4.5.1a)
    try:
        hero_of(game, defender)
    except IllegalAction:
        return close(game, proc)  # 7.2.2: no legal attack-target
    chain = combat_chain(game)
    game.move(attack, chain, cause="rule", by=attacker)  # 7.2.3a
    # Reading of 7.2.3b: the attack-source stays equipped in its weapon zone;
    # the link records it as the attack-source.
    link = new_link(game, attack, attacker, defender)  # 7.0.3a
    end_earlier_proxies(game, link, chain)  # 1.4.3c
    return proc._replace(step=ATTACK, links=(*proc.links, link))


def defending_cards(game: Game, player: str) -> list[int]:
    """The cards ``player`` may declare as defending (7.3.2a, 7.3.2b): the
    non-defense-reaction cards of their hand and their public equipment
    permanents, each with the defense property."""
    out: list[int] = []
    hand = game.zone(player, "hand")
    if hand is not None:
        for card in game.contents(hand):
            if _defends_from_hand(game, game.obj(card), player):
                out.append(card)
    for zid in equipment_zones(game, player):
        for card in game.contents(zid):
            if _defends_as_equipment(game, game.obj(card), player):
                out.append(card)
    return out


def _defends_from_hand(game: Game, obj: Obj, player: str) -> bool:
    """Whether a card of ``player``'s hand may defend (7.3.2a, 7.3.2b)."""
    cdef = game.characteristics(obj, by=player)
    return "defense_reaction" not in cdef.types and game.stat(obj.card, "defense") is not None


def _defends_as_equipment(game: Game, obj: Obj, player: str) -> bool:
    """Whether a card of one of ``player``'s equipment zones may defend (7.3.2a, 7.3.2b)."""
    return (
        bool(obj.equipped)  # equipped to a zone (an equipment permanent there)
        and obj.public
        and obj.controller == player
        and "equipment" in game.characteristics(obj).types
        and game.stat(obj.card, "defense") is not None
    )


def _declared_may_defend(game: Game, player: str, cards: tuple[int, ...]) -> frozenset[int]:
    """Those of ``cards`` that are among ``player``'s defending cards
    (:func:`defending_cards`), each judged alone: a declaration judges the
    cards it names, not every card that could defend."""
    hand = game.zone(player, "hand")
    out: set[int] = set()
    for card in cards:
        obj = game.find(card)
        if obj is None or obj.host is not None:
            continue  # a card no more, or one under another: in no zone's contents
        if obj.zone == hand:
            if _defends_from_hand(game, obj, player):
                out.add(card)
            continue
        info = game.zone_info(obj.zone)  # one of the player's equipment zones?
        if info.owner != player or not info.spec.equipment:
            continue
        if _defends_as_equipment(game, obj, player):
            out.add(card)
    return frozenset(out)


def equipment_zones(game: Game, player: str) -> list[int]:
    """``player``'s equipment and weapon zones (an off-hand is in a weapon zone)."""
    out: list[int] = []
    for ztype, spec in game.ruleset.zone_specs.items():
        if spec.equipment:
            out.extend(game.zones_of(player, ztype))
    return out


def check_defenders(game: Game, proc: Procedure, player: str, cards: tuple[int, ...]) -> Link:
    """The active link the cards would defend, refused unless ``player`` is
    its defending player in the defend step, before declaring, and each
    card may be declared (7.3.2, 7.3.2a, 7.3.2b, 8.3.4a)."""
    ready = _defending_once(game, player, proc, cards)
    _check_set(game, ready, player, cards)
    return ready.link


def judge_declaration(game: Game, player: str, cards: tuple[int, ...]) -> Procedure:
    """The record a declaration of ``cards`` by ``player`` is judged on
    (:func:`~.state.require`), refused as :func:`check_defenders` refuses it."""
    # A listing judges every set of the player's cards (up to 64): what they
    # are judged against is read from the listing's memo in this one frame,
    # and each set asks only whether its cards may defend.
    held = JUDGING.get()
    ready = held[1].get(("fab.defend", player)) if held is not None and held[0] is game else None
    if ready is None:
        ready = _defending_once(game, player, None, cards)
    allowed = ready.allowed
    for card in cards:
        if card not in allowed:
            _check_set(game, ready, player, cards)  # refused, naming the card (7.3.2b)
    # 8.3.4a refuses a set only against an attack with dominate.
    if ready.dominated:
        card_effects.check_dominate(game, ready.link, cards, True)
    return ready.proc


def _defending_once(
    game: Game,
    player: str,
    proc: Procedure | None = None,
    declared: tuple[int, ...] | None = None,
) -> _Defending:
    """What ``player``'s sets of defending cards are judged against, on
    ``proc`` or else the record now. While legal actions are judged the game
    stays as it is, and every set of the cards is judged: the record, its
    link and the cards that may defend are found once for all of them. An
    act judges the one set it ``declared``: of the cards that may defend,
    only those of the set are found."""
    memo = judging(game)
    ready: _Defending | None = None if memo is None else memo.get(("fab.defend", player))
    if ready is None or (proc is not None and ready.proc is not proc):
        found = require(game) if proc is None else proc
        ready = _defending(game, found, player, None if memo is not None else declared)
        if memo is not None:
            memo[("fab.defend", player)] = ready
    return ready


def _check_set(game: Game, ready: _Defending, player: str, cards: tuple[int, ...]) -> None:
    allowed = ready.allowed
    for card in cards:
        if card not in allowed:
            what = name_for(game, player, card)
            raise IllegalAction(
                f"{what} cannot defend: a defending card is a non-defense-reaction card from "
                "hand or a public equipment of the defending hero, with a defense value",
                rule="7.3.2b",
            )
    card_effects.check_dominate(game, ready.link, cards, ready.dominated)  # 8.3.4a


class _Defending(NamedTuple):
    """What every set of defending cards is judged against: the record, its
    active link, the cards that may defend it and whether its attack has
    dominate (8.3.4a)."""

    proc: Procedure
    link: Link
    allowed: frozenset[int]
    dominated: bool
    #: the cards of ``allowed`` in the order of their zones
    cards: tuple[int, ...] = ()


def _defending(
    game: Game, proc: Procedure, player: str, declared: tuple[int, ...] | None = None
) -> _Defending:
    link = active_link(proc)
    if proc.step != DEFEND or link is None or proc.declared:
        raise IllegalAction("defending cards are declared in the defend step", rule="7.3.2")
    if player != link.defender:
        raise IllegalAction(
            f"{link.defender} declares the defending cards, not {player}", rule="7.3.2a"
        )
    dominated = card_effects.attack_dominates(game, link)
    if declared is not None:
        return _Defending(proc, link, _declared_may_defend(game, player, declared), dominated)
    cards = tuple(defending_cards(game, player))
    return _Defending(proc, link, frozenset(cards), dominated, cards)


def may_defend_with(game: Game, proc: Procedure, player: str) -> tuple[int, ...]:
    """The cards ``player``, the defending player of the defend step on
    ``proc`` before declaring, may declare (:func:`defending_cards`), in the
    order of their zones: found once per listing, where the judgement of
    every set of them reads them too (:func:`judge_declaration`)."""
    return _defending_once(game, player, proc).cards


def add_defenders(game: Game, proc: Procedure, player: str, cards: tuple[int, ...]) -> Procedure:
    """7.3.2d, 7.0.5a: the declared cards move onto the active chain link
    together, in the order declared; an equipment remembers its zone, to
    return there at the close (7.7.5)."""
    link = check_defenders(game, proc, player, cards)
    return defend_with(game, proc, link, cards)


def defend_with(game: Game, proc: Procedure, link: Link, cards: tuple[int, ...]) -> Procedure:
    """The cards move onto ``link``, the active chain link, as
    :func:`add_defenders` has it, once they were judged (:func:`check_defenders`)."""
    chain = combat_chain(game)
    homes = []
    for card in cards:
        obj = game.obj(card)
        info = game.zone_info(obj.zone)
        homes.append(obj.zone if info.spec.equipment else -1)
        game.move(card, chain, face="up", cause="rule", by=link.defender)
    new = defended(game, link, cards, tuple(homes))  # 7.0.5a
    return proc._replace(links=(*proc.links[:-1], new))


def defense_reaction_resolves(game: Game, proc: Procedure, card: int) -> Procedure | None:
    """7.4.2d: a defense reaction becomes a defending card on the active
    chain link for its controller's hero; None when it cannot, and then it
    fails to resolve (5.3.2c)."""
    link = active_link(proc)
    controller = game.obj(card).controller
    if link is None or controller != link.defender:
        return None
    return defend_with(game, proc, link, (card,))


def deal_damage(game: Game, proc: Procedure) -> Procedure:
    """The damage step (7.5.2): the attack's power against the total defense
    of the defending cards; the difference, when positive, is dealt to the
    defending hero as damage, and the attack hits (7.5.2a, 7.5.5)."""
    link = active_link(proc)
    if link is None:
        return proc._replace(step=DAMAGE)
    attack = game.find(link.card)
    if attack is None or attack.zone != combat_chain(game):
        return close(game, proc)  # 7.7.2c: the active-attack ceased to exist
    power = game.stat(link.card, "power") or 0
    defense = sum(game.stat(card, "defense") or 0 for card in defending_now(game, link))
    damage = max(power - defense, 0)
    hit = False
    if damage:
        try:
            hero = hero_of(game, players(link)[1])
        except IllegalAction:
            hero = None  # 7.5.2b: the attack-target ceased to exist
        if hero is not None:
            life.deal_damage(game, hero, damage, link.attacker)  # 7.5.2a
            hit = True
    new = link._replace(damage=damage if hit else 0, hit=hit)
    if hit:
        card_effects.hit(game, new)  # 7.5.5, 6.6.6: its "when this hits" effects
    return proc._replace(step=DAMAGE, links=(*proc.links[:-1], new))


def resolve_link(game: Game, proc: Procedure) -> Procedure:
    """The resolution step (7.6.2): the active chain link resolves; with go
    again its attacker gains an action point (8.3.5b; 7.6.2a: as the attack
    last was, if it left the chain)."""
    link = active_link(proc)
    if link is None:
        return proc._replace(step=RESOLUTION)
    go_again = game.exists(link.card) and has_go_again(game, link.card)
    proc = proc._replace(step=RESOLUTION, links=(*proc.links[:-1], link._replace(resolved=True)))
    if go_again:
        proc = gain_action_point(game, proc, players(link)[0])
    return proc


def close(game: Game, proc: Procedure) -> Procedure:
    """The close step (7.7): the attacks and reactions on the stack go to
    their owners' graveyards (7.7.3; an attack-proxy ceases), equipment that
    defended returns to the zone it was equipped in (7.7.5), then the combat
    chain closes as ``close_chain`` closes it: attack-proxies cease, an
    attacking ally returns to the permanent zone, every other card goes to
    its owner's graveyard (7.7.6, 7.7.7). Other layers stay on the stack."""
    chain = combat_chain(game)
    player = game.turn_player
    for layer in game.contents(layers.stack(game)):
        if game.exists(layer) and _attack_or_reaction(game, layer):
            game.clear(layer, by=player)  # 7.7.3
    for link in proc.links:
        for (card, _), home in link.returning():
            held = game.find(card)
            if held is not None and held.zone == chain and game.zone_exists(home):
                game.move(card, home, cause="rule", by=player)
    close_combat_chain(game, player)
    return proc._replace(step=None, links=())


def _attack_or_reaction(game: Game, layer: int) -> bool:
    obj = game.obj(layer)
    if is_attack(game, layer):
        return True
    types = game.characteristics(obj).types if obj.kind == CARD else frozenset()
    return "attack_reaction" in types or "defense_reaction" in types


def next_step(game: Game, proc: Procedure) -> Procedure:
    """The step after the current one ends with the stack empty and every
    player passing in succession (7.2.6, 7.3.4, 7.4.3, 7.5.4, 7.6.4)."""
    step = proc.step
    if step == ATTACK and active_link(proc) is not None:
        return proc._replace(step=DEFEND, declared=False)  # 7.3.1
    if step == DEFEND:
        return proc._replace(step=REACTION)  # 7.4.1
    if step == REACTION:
        return deal_damage(game, proc)  # 7.5
    if step == DAMAGE:
        return resolve_link(game, proc)  # 7.6
    return close(game, proc)  # 7.6.4, 7.7.2a; a layer step without its attack, 7.7.2c
