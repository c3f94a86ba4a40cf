"""Carrying out the effects of a card's text under the procedure: the
clauses :mod:`.card_text` reads, generated with the engine's own effects
(``modify`` for numbers, a granted keyword for go again and dominate, the
``life`` action for life, a draw as the rules draw).

- A card-layer's resolution abilities generate their effects as it resolves,
  before go again (5.3.4, 5.3.5); a targeted one needs its target to be
  legal still, or the layer fails to resolve (5.3.2a, 1.8.5).
- A card with a targeted effect is played only with a legal target to
  declare (5.1.4a, 5.1.5): the attack of the active chain link, of the
  types the text names (1.8.5d).
- "The next attack action card you play this turn" waits for that card
  (6.2.4) and ends with the turn (6.2.2a).
- "When this hits" / "If this hits" is a triggered effect: the hit puts a
  triggered-layer on the stack (7.5.5, 6.6.5, 6.6.6) whose effects are
  generated as it resolves (6.6.1d).
- Dominate: an attack with it is defended by one card from hand at most
  (8.3.4, 8.3.4a), and then no defense reaction is played from hand (8.3.4b).

Every modify lasts until the end of the turn (6.2.2a) and is bound to its
object, so it ends too when that object leaves for a new one (3.0.9).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from cardzones.acts.legal import judging
from cardzones.errors import IllegalAction
from cardzones.kernel.effects import END_OF_TURN
from cardzones.kernel.objects import CARD, TRIGGERED
from cardzones.kernel.results import MoveResult
from cardzones.kernel.views import name_for
from cardzones.rulesets.fab import layers, life
from cardzones.rulesets.fab.chain import Link
from cardzones.rulesets.fab.moves import hero_of
from cardzones.rulesets.fab.procedure import card_text as ct
from cardzones.rulesets.fab.procedure.state import Procedure, active_link, players
from cardzones.rulesets.fab.turn import draw_move

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The record of the "next attack action card" effects waiting for a card.
NEXT_ATTACK = "fab.next_attack"
#: The record of the triggered-layers that hold a hit's effects.
HIT_LAYERS = "fab.hit_layers"
#: The kind of the log lines of the effects.
EFFECT_EVENT = "effect"


class Waiting(NamedTuple):
    """A "next attack action card you play this turn" effect (6.2.4): whose
    it is, the turn it was generated in, and the clause it applies."""

    player: str
    turn: int
    clause: ct.Clause


class HitLayer(NamedTuple):
    """A triggered-layer of a hit: the layer, and the attack whose text it
    carries out."""

    layer: int
    attack: int


def reading(game: Game, card: int, by: str | None = None) -> ct.Reading:
    """The text of the card's current object read: its public properties,
    or a private card's as ``by``, who plays it, knows them (3.0.4e)."""
    cdef = game.characteristics(game.obj(card), by=by)
    return ct.read(cdef.text, cdef.name)


def has_keyword(game: Game, card: int, word: str) -> bool:
    """Whether the object has the keyword, printed or given by an effect;
    dominate written out in the text is the keyword too (8.3.4)."""
    obj = game.obj(card)
    if not obj.public:
        return word in game.characteristics(obj).keywords
    if word in game.keywords(card):
        return True
    return word == ct.DOMINATE and any(
        c.kind == ct.DOMINATE and c.when == ct.STATIC for c in reading(game, card).clauses
    )


# -- targets ---------------------------------------------------------------------


def legal_target(game: Game, proc: Procedure, target: ct.Target) -> int | None:
    """The attack a targeted effect may target (1.8.5a, 1.8.5d): the
    active-attack of the active chain link, when it has every type the text
    names (and is a card with the action type for an "attack action card");
    None when there is no such attack."""
    link = active_link(proc)
    if link is None or not game.exists(link.card):
        return None
    obj = game.obj(link.card)
    if obj.zone != proc.chain or not obj.public:
        return None
    types = game.characteristics(obj).types
    if target.card and (obj.kind != CARD or "action" not in types):
        return None
    if any(t not in types for t in target.types):
        return None
    return link.card


def check_targets(game: Game, proc: Procedure, card: int, player: str) -> None:
    """5.1.4a, 5.1.5: a card whose text targets an attack is played only
    with a legal target for each targeted effect. An attack's own targeted
    effects are not carried out (it is the attack), so they ask for none."""
    if "attack" in game.characteristics(game.obj(card), by=player).types:
        return
    for clause in reading(game, card, player).clauses:
        if clause.target is None or clause.when != ct.RESOLVES:
            continue
        if legal_target(game, proc, clause.target) is None:
            what = name_for(game, player, card)
            raise IllegalAction(
                f"{what} targets {_described(clause.target)}, and there is none to target",
                rule="5.1.4a",
            )


def _described(target: ct.Target) -> str:
    """What the target must be, in words: "a sword attack", "an attack
    action card"."""
    said = " ".join((*target.types, "attack")) + (" action card" if target.card else "")
    return f"{'an' if said[0] in 'aeiou' else 'a'} {said}"


# -- generating effects ----------------------------------------------------------------


def resolve(game: Game, proc: Procedure, card: int, by: str, *, targeted: bool = True) -> bool:
    """5.3.4: the resolution abilities of the card-layer ``card`` generate
    their effects, in the order written; False when the layer fails to
    resolve instead, a target it declared being no longer legal (5.3.2a).
    Without ``targeted`` (an attack's, which targets no attack but itself),
    the targeted ones do nothing."""
    clauses = [
        c
        for c in reading(game, card).clauses
        if c.when == ct.RESOLVES and (targeted or c.target is None)
    ]
    targets = {}
    for clause in clauses:
        if clause.target is not None:
            found = legal_target(game, proc, clause.target)
            if found is None:
                _log(game, f"{_label(game, card)} fails to resolve: its target is gone", by)
                return False
            targets[clause] = found
    for clause in clauses:
        generate(game, clause, card, by, targets.get(clause))
    return True


def generate(game: Game, clause: ct.Clause, source: int, by: str, target: int | None) -> None:
    """One clause's effect, from ``source``, controlled by ``by`` (6.1, 6.2)."""
    if clause.subject == ct.NEXT_ATTACK:
        waiting = game.record(NEXT_ATTACK, ())
        new = Waiting(by, game.turn, clause)
        game.records.put(NEXT_ATTACK, (*_this_turn(game, waiting), new))
        _log(game, f"{by}'s next attack action card this turn {_change(clause)}", by)
        return
    if clause.kind == ct.DRAW:
        draw(game, by, clause.amount)
    elif clause.kind == ct.GAIN_LIFE:
        gain_life(game, by, clause.amount)
    else:
        subject = target if clause.subject == ct.TARGET_ATTACK else source
        if subject is not None and game.exists(subject):
            change(game, subject, clause, by)


def change(game: Game, card: int, clause: ct.Clause, by: str) -> None:
    """A modify of the card until the end of the turn (8.5.8, 8.5.9,
    6.2.2a): its power or defense, or a keyword it gains; go again it has
    already is not given again (8.3.5c)."""
    if clause.kind in (ct.POWER, ct.DEFENSE):
        game.act("modify", card=card, until=END_OF_TURN, by=by, **{clause.kind: clause.amount})
        return
    if has_keyword(game, card, clause.kind):
        return  # 8.3.5c: that part of the effect fails
    game.add_effect(card, "grant", keywords=[clause.kind], until=END_OF_TURN)
    _log(game, f"{_label(game, card)} {_change(clause)}", by)


def draw(game: Game, player: str, number: int) -> None:
    """8.5.6: the player draws, one card at a time; a draw from an empty
    deck fails (8.5.6b)."""
    deck = game.zone(player, "deck")
    for _ in range(number):
        if deck is None or not game.contents(deck):
            _log(game, f"{player} draws no card: the deck is empty (8.5.6b)", player)
            return
        if game.move(draw_move(game.contents(deck)[0], player)) is MoveResult.FAILED:
            return


def gain_life(game: Game, player: str, amount: int) -> None:
    """8.5.7a: the player's hero gains life; with no hero, or one without
    the life property, the gain fails."""
    try:
        hero = hero_of(game, player)
    except IllegalAction:
        return
    if game.is_public(hero) and game.stat(hero, "life") is not None:
        life.gain_life(game, hero, amount, player)  # 8.5.7a


def played(game: Game, card: int, player: str) -> None:
    """6.2.4: the "next attack action card" effects waiting for ``player``
    apply to the card they just played when it is an attack action card,
    and are then spent; those of an earlier turn have ended (6.2.2a)."""
    waiting = _this_turn(game, game.record(NEXT_ATTACK, ()))
    if not waiting:
        if game.record(NEXT_ATTACK):
            game.records.put(NEXT_ATTACK, ())
        return
    obj = game.obj(card)
    types = game.characteristics(obj, by=player).types
    if obj.kind != CARD or "attack" not in types or "action" not in types:
        return
    mine = [w for w in waiting if w.player == player]
    if not mine:
        return
    game.records.put(NEXT_ATTACK, tuple(w for w in waiting if w.player != player))
    for each in mine:
        change(game, card, each.clause, player)


def _this_turn(game: Game, waiting: tuple[Waiting, ...]) -> tuple[Waiting, ...]:
    return tuple(w for w in waiting if w.turn == game.turn)


# -- hits ------------------------------------------------------------------------------


def hit(game: Game, link: Link) -> None:
    """7.5.5, 6.6.5, 6.6.6: the attack hit; each of its "when this hits"
    effects puts one triggered-layer on the stack, controlled by the
    attack's controller, before anyone gains priority."""
    if not game.exists(link.card):
        return
    clauses = [c for c in reading(game, link.card).clauses if c.when == ct.HITS]
    if not clauses:
        return
    cdef = game.characteristics(game.obj(link.card))
    attacker = players(link)[0]
    made = layers.push_layer(game, cdef, TRIGGERED, layers.LayerData(link.card), attacker, attacker)
    game.records.put(HIT_LAYERS, (*game.record(HIT_LAYERS, ()), HitLayer(made, link.card)))
    _log(game, f"{_label(game, link.card)} hit: its triggered effect goes on the stack", None)


def resolve_hit_layer(game: Game, layer: int, by: str) -> bool:
    """6.6.1d: a hit's triggered-layer generates the hit's effects and
    ceases (3.0.12a); False for any other layer."""
    kept = game.record(HIT_LAYERS, ())
    found = next((h for h in kept if h.layer == layer), None)
    if found is None:
        return False
    game.records.put(HIT_LAYERS, tuple(h for h in kept if h.layer != layer))
    attack = found.attack
    cdef = game.characteristics(game.obj(layer))
    for clause in ct.read(cdef.text, cdef.name).clauses:
        if clause.when == ct.HITS:
            generate(game, clause, attack, by, None)
    if game.exists(layer):
        game.cease(layer, by, cause="rule")
    return True


# -- dominate ----------------------------------------------------------------------------


def check_dominate(
    game: Game, link: Link, cards: tuple[int, ...], dominated: bool | None = None
) -> None:
    """8.3.4a: an attack with dominate takes one defending card from hand at
    most; the cards from hand among ``cards`` are counted with those that
    defend it already. ``dominated`` says whether the attack has dominate,
    when it was read already."""
    before = _hand_defenders(link) if link.homes else 0
    if len(cards) + before <= 1:
        return  # at most one card from hand, wherever the cards are
    if dominated is None:
        # While legal actions are judged the game stays as it is: whether the
        # attack has dominate is read once for every set of defending cards.
        memo = judging(game)
        dominated = None if memo is None else memo.get(("fab.dominate", link.card))
        if dominated is None:
            dominated = attack_dominates(game, link)
            if memo is not None:
                memo[("fab.dominate", link.card)] = dominated
    # Most attacks have not dominate: then no card of a set is looked at.
    if dominated and sum(1 for card in cards if _in_hand(game, card)) + before > 1:
        raise IllegalAction(
            "the attack has dominate: it can't be defended by more than one card from hand",
            rule="8.3.4a",
        )


def attack_dominates(game: Game, link: Link) -> bool:
    """Whether the link's attack has dominate (8.3.4), printed or given."""
    return has_keyword(game, link.card, ct.DOMINATE)


def check_dominate_reaction(game: Game, proc: Procedure, card: int) -> None:
    """8.3.4b: while an attack with dominate is defended by a card from
    hand, no defense reaction is played from hand."""
    link = active_link(proc)
    if link is None or not _in_hand(game, card) or not _hand_defenders(link):
        return
    if has_keyword(game, link.card, ct.DOMINATE):
        raise IllegalAction(
            "the attack has dominate and is defended by a card from hand: no defense "
            "reaction is played from hand",
            rule="8.3.4b",
        )


def _hand_defenders(link: Link) -> int:
    return sum(1 for home in link.homes if home < 0)


def _in_hand(game: Game, card: int) -> bool:
    return game.zone_info(game.obj(card).zone).type == "hand"


# -- words -----------------------------------------------------------------------------


def _label(game: Game, card: int) -> str:
    obj = game.obj(card)
    owner = obj.controller or obj.owner
    name = game.characteristics(obj).name if obj.public else "a card"
    return f"{owner}'s {name}" if owner else name


def _change(clause: ct.Clause) -> str:
    if clause.kind == ct.POWER:
        return f"gets +{clause.amount} power this turn"
    if clause.kind == ct.DEFENSE:
        return f"gets +{clause.amount} defense this turn"
    return f"gains {clause.kind.replace('_', ' ')} this turn"


def _log(game: Game, note: str, by: str | None) -> None:
    game.log_event(EFFECT_EVENT, note, by=by)
