"""The players' acts under the procedure, each written once as a plan and
the apply of that plan.

A plan (:class:`Plan`) is the pure judgement of what an act would do: the
card it plays and what it costs, the cards it pitches or declares, or the
refusal, raised as :class:`~cardzones.errors.IllegalAction` with the rule
id, while the game stays as it is. :func:`apply` carries a plan out, as one
action. So legal actions are the plans that succeed, and an act is the apply
of its plan: no rule is written twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from cardzones.acts.legal import judging
from cardzones.errors import IllegalAction
from cardzones.kernel.cards import Dest
from cardzones.kernel.views import name_for
from cardzones.rulesets.fab import actions as fab_actions
from cardzones.rulesets.fab import turn as fab_turn
from cardzones.rulesets.fab.procedure import combat, flow
from cardzones.rulesets.fab.procedure import effects as card_effects
from cardzones.rulesets.fab.procedure.costs import (
    Cost,
    attack_cost,
    card_cost,
    check_pitch,
)
from cardzones.rulesets.fab.procedure.state import (
    END,
    Procedure,
    active_link,
    opponents,
    points,
    require,
    store,
    with_points,
)
from cardzones.rulesets.fab.procedure.timing import (
    action_timing_refusal,
    refuse_action,
    timing_window,
    window_refusal,
)

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The kinds of card that may be played, by the types that say so (8.1).
PLAYABLE = ("action", "instant", "attack_reaction", "defense_reaction")


class Plan(NamedTuple):
    """What an act would do: its name, the acting player, the card it plays
    or attacks with (or the card for the arsenal), the cost and the cards
    pitched for it, the cards declared as defending, the order of the
    pitched cards at the end of the turn, the player whose hero an
    attack targets, and the procedure's record the plan was judged on (a
    pass and a declaration of defending cards keep it, so that their apply
    carries on from it rather than read it again)."""

    act: str
    player: str
    card: int | None = None
    cost: Cost = Cost(0, 0)
    pitch: tuple[int, ...] = ()
    cards: tuple[int, ...] = ()
    order: tuple[int, ...] = ()
    target: str | None = None
    proc: Procedure | None = None


# -- priority ---------------------------------------------------------------


def check_priority(game: Game, proc: Procedure, player: str) -> None:
    """Refused unless ``player`` has priority (1.11.1, 1.11.2)."""
    if proc.priority == player:
        return
    if proc.phase == END:
        raise IllegalAction(
            f"no one has priority in the end phase: {game.turn_player} ends the turn",
            rule="4.4.1",
        )
    link = active_link(proc)
    if proc.priority is None and link is not None and not proc.declared:
        raise IllegalAction(
            f"no one has priority while {link.defender} declares defending cards", rule="7.3.2"
        )
    raise IllegalAction(f"{proc.priority} has priority, not {player}", rule="1.11.2")


def plan_pass(game: Game, player: str) -> Plan:
    """1.11.4: the player with priority passes."""
    # Plan("pass", player, proc=judge_pass(game, player)), made as a tuple
    # with the record judged in place: most acts are passes.
    proc = require(game)
    check_priority(game, proc, player)
    return _new_plan(Plan, ("pass", player, None, _NO_COST, (), (), (), None, proc))


_new_plan = tuple.__new__
_NO_COST = Cost(0, 0)
assert Plan._fields[-1] == "proc" and len(Plan._fields) == 9


def judge_pass(game: Game, player: str) -> Procedure:
    """The record a pass of ``player``'s is judged on, refused unless they
    have priority (1.11.2): :func:`plan_pass` without the plan, as a
    listing judges it."""
    proc = require(game)
    check_priority(game, proc, player)
    return proc


# -- playing a card and attacking ----------------------------------------------


def playable_cost(game: Game, proc: Procedure, card: int, player: str) -> Cost:
    """The cost of playing the card now (5.1.6), refused unless the player
    may play it now (5.1.1a, 5.1.2b, 8.1) and has the action points for it
    (5.1.7a, 1.14.2f); the resource points are judged with the pitch."""
    return _judged_once(game, ("fab.playable", card, player), _playable_cost, proc, card, player)


def _playable_cost(game: Game, proc: Procedure, card: int, player: str) -> Cost:
    check_priority(game, proc, player)
    if not game.may_play(card, player):
        raise IllegalAction("only a card of one's own hand or arsenal may be played", rule="5.1.1a")
    # The card's types, read once for its timing, dominate and its cost.
    obj = game.obj(card)
    types = game.characteristics(obj, by=player).types
    refusal = window_refusal(game, proc, player, timing_window(obj, types))
    if refusal is not None:
        # Named only now: the name of a card that may be played goes unread.
        what = name_for(game, player, card)
        raise IllegalAction(f"{what} {refusal[0]}", rule=refusal[1])
    if "defense_reaction" in types:
        card_effects.check_dominate_reaction(game, proc, card)  # 8.3.4b
    card_effects.check_targets(game, proc, card, player)  # 5.1.4a
    cost = card_cost(game, card, player, types)
    check_action_point(game, proc, player, cost)
    return cost


def _judged_once(
    game: Game,
    key: tuple[str, int, str],
    judge: Callable[[Game, Procedure, int, str], Cost],
    proc: Procedure,
    card: int,
    player: str,
) -> Cost:
    """``judge``'s cost of the card for the player; while legal actions are
    judged (the game stays as it is), the candidates find it and each
    candidate's own judgement reads it again, so it is kept under ``key``."""
    memo = judging(game)
    if memo is None:
        return judge(game, proc, card, player)
    cost: Cost | None = memo.get(key)
    if cost is None:
        cost = memo[key] = judge(game, proc, card, player)
    return cost


def check_action_point(game: Game, proc: Procedure, player: str, cost: Cost) -> None:
    """1.14.2f, 5.1.7a: the action points of the cost."""
    have = points(game, proc.action_points, player)
    if have < cost.action:
        raise IllegalAction(
            f"the cost is not paid: {player} has no action point (1.14.2f)", rule="5.1.7a"
        )


def resource_need(game: Game, proc: Procedure, player: str, cost: Cost) -> int:
    """How many resource points the pitch must gain (1.14.2d)."""
    return max(cost.resource - points(game, proc.resource_points, player), 0)


def plan_play(
    game: Game, card: int, player: str, pitch: tuple[int, ...], target: str | None = None
) -> Plan:
    """Playing a card (5.1): may it be played now, is an attack's target an
    opponent (5.1.4b), and do the action points and the pitched cards pay
    its cost (5.1.7, 1.14.2)."""
    proc = require(game)
    cost = playable_cost(game, proc, card, player)
    if combat.is_attack(game, card, player):
        target = attack_target_of(game, proc, player, target)
    elif target is not None:
        what = name_for(game, player, card)
        raise IllegalAction(f"{what} is no attack: it has no attack-target", rule="1.4.5")
    check_pitch(game, player, pitch, resource_need(game, proc, player, cost), card)
    return Plan("play", player, card, cost, pitch, target=target)


def attack_target_of(game: Game, proc: Procedure, player: str, target: str | None) -> str:
    """The player whose hero an attack of ``player``'s targets (1.4.5,
    5.1.4b): an opponent still in the game (1.1.5); with one opponent left
    it may go unsaid, with more it is declared."""
    choices = opponents(game, proc, player)
    if target is None:
        if len(choices) == 1:
            return choices[0]
        raise IllegalAction(
            f"an attack declares its target: the hero of one of {', '.join(choices)}",
            rule="1.4.5",
        )
    if target not in choices:
        raise IllegalAction(
            f"{target} is not an opponent of {player} in the game: an attack targets "
            f"the hero of one of {', '.join(choices)}",
            rule="1.4.5",
        )
    return target


def attack_ready(game: Game, proc: Procedure, weapon: int, player: str) -> Cost:
    """The cost of the weapon's attack now, refused unless ``player`` may
    activate it now: an equipped weapon they control (1.4.3, 1.4.3b,
    1.4.1b), an action ability (8.1.1), once per turn (5.2.1a)."""
    return _judged_once(game, ("fab.attack", weapon, player), _attack_ready, proc, weapon, player)


def _attack_ready(game: Game, proc: Procedure, weapon: int, player: str) -> Cost:
    check_priority(game, proc, player)
    fab_turn.check_attack(game, weapon, player)
    refusal = action_timing_refusal(game, proc, player, attack=True)
    if refusal is not None:
        refuse_action(f"the attack of {name_for(game, player, weapon)}", refusal)
    if weapon in proc.attacked:
        what = name_for(game, player, weapon)
        raise IllegalAction(f"{what} attacked this turn already: once per turn", rule="5.2.1a")
    cost = attack_cost(game, weapon)
    check_action_point(game, proc, player, cost)
    return cost


def plan_attack(
    game: Game, weapon: int, player: str, pitch: tuple[int, ...], target: str | None = None
) -> Plan:
    """Attacking with a weapon (5.2.2): its attack-proxy goes on the stack,
    targeting an opponent's hero (1.4.5), once its cost is paid."""
    proc = require(game)
    cost = attack_ready(game, proc, weapon, player)
    target = attack_target_of(game, proc, player, target)
    check_pitch(game, player, pitch, resource_need(game, proc, player, cost), None)
    return Plan("attack", player, weapon, cost, pitch, target=target)


# -- defending, ending the turn, conceding -----------------------------------------


def plan_defend(game: Game, cards: tuple[int, ...], player: str) -> Plan:
    """7.3.2: the defending player declares their defending cards."""
    return Plan("defend", player, cards=cards, proc=judge_defend(game, cards, player))


def judge_defend(game: Game, cards: tuple[int, ...], player: str) -> Procedure:
    """The record a declaration of defending cards is judged on, refused
    unless ``player`` may declare ``cards`` now (7.3.2): :func:`plan_defend`
    without the plan, as a listing judges every set."""
    return combat.judge_declaration(game, player, cards)


def plan_finish(game: Game, arsenal: int | None, order: tuple[int, ...], player: str) -> Plan:
    """4.4.3: the turn player ends their turn in the end phase, with a card
    from hand for an empty arsenal zone, or none (4.4.3b)."""
    proc = require(game)
    if proc.phase != END:
        raise IllegalAction(
            "the turn ends in the end phase, once every player passed with the stack empty "
            "and the combat chain closed",
            rule="4.3.4",
        )
    if player != game.turn_player:
        raise IllegalAction(f"{game.turn_player} ends the turn, not {player}", rule="4.4.3b")
    if arsenal is not None:
        fab_turn.check_arsenal(game, arsenal, player)
        if not any(not game.contents(z) for z in game.zones_of(player, "arsenal")):
            raise fab_turn.no_arsenal(player)
    return Plan("finish_turn", player, arsenal, order=order)


def plan_concede(game: Game, player: str) -> Plan:
    """4.5.3c: a player may concede while the game goes on; one who lost
    and left it has nothing left to concede (4.5.1a)."""
    proc = require(game)
    game.check_player(player)
    if player in proc.losers:
        raise IllegalAction(f"{player} lost and left the game", rule="4.5.1a")
    return Plan("concede", player)


# -- applying a plan ------------------------------------------------------------


def apply(game: Game, plan: Plan) -> int | None:
    """Carry out a plan that :func:`plan_play` (or another plan_) made on the
    game as it is now, as one action: the attack-proxy a weapon's attack
    made, or None."""
    with game.atomic():
        act = plan.act
        if act == "pass":
            flow.pass_priority(game, plan.proc or require(game))
        elif act == "play" or act == "attack":
            return _announce_and_pay(game, plan)
        elif act == "defend":
            proc = plan.proc
            link = None if proc is None else active_link(proc)
            if proc is None or link is None:  # a plan made without its record
                proc = combat.add_defenders(game, require(game), plan.player, plan.cards)
            else:  # judged as the plan was made, on this very record (7.3.2)
                proc = combat.defend_with(game, proc, link, plan.cards)
            # 7.3.3: the turn player gains priority once they are declared.
            store(game, flow.give_priority(proc._replace(declared=True), game.turn_player))
        elif act == "finish_turn":
            flow.end_turn(game, plan.card, plan.order)
        elif act == "concede":
            flow.lose(game, require(game), (plan.player,), "4.5.3c: conceded")
        else:
            raise IllegalAction(f"no act {act!r} under the game procedure")
    return None


def _announce_and_pay(game: Game, plan: Plan) -> int | None:
    """5.1.2 to 5.1.10: the card moves to the stack (the weapon's
    attack-proxy is made there, 1.4.3); the pitched cards move to the pitch
    zone and gain their points (1.14.3); the costs are paid (1.14.2); an
    attack opens the layer step (7.0.2a, 7.6.3); the player regains
    priority (5.1.10, 1.11.5). Pitching gains resource points (1.13.3a)."""
    player, card = plan.player, plan.card
    assert card is not None
    proxy = None
    if plan.act == "play":
        fab_actions.play(game, card, player)
        card_effects.played(game, card, player)  # 6.2.4
        attack = combat.is_attack(game, card)
    else:
        proxy = fab_turn.attack(game, card, player)
        attack = True
    layer = card if proxy is None else proxy
    gained = 0
    for pitched in plan.pitch:
        gained += game.stat(pitched, "pitch") or 0
        game.move(pitched, Dest("pitch", player), by=player)
    proc = require(game)
    rp = points(game, proc.resource_points, player) + gained - plan.cost.resource
    ap = points(game, proc.action_points, player) - plan.cost.action
    proc = proc._replace(
        resource_points=with_points(game, proc.resource_points, player, rp),
        action_points=with_points(game, proc.action_points, player, ap),
    )
    if plan.act == "attack":
        proc = proc._replace(attacked=(*proc.attacked, card))
    if attack and plan.target is not None:
        # 1.4.5, 5.1.4b: the attack-target is declared as the attack goes on the stack.
        proc = proc._replace(targets=(*proc.targets, (layer, plan.target)))
    if attack:
        proc = flow.opens_layer_step(proc)
    store(game, flow.give_priority(proc, player))
    return proxy
