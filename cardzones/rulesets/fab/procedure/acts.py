"""The players' acts under the procedure as actions of fab's table: ``pass``,
``defend`` and ``concede``, and ``play``, ``attack`` and ``finish_turn``
with the procedure's meaning while the game is under it.

Every act runs the apply of its plan (:mod:`.plans`), its ``foresee`` is the
plan, and its candidates are the plans that may succeed, so legal actions
list what the procedure allows and nothing else. Outside the procedure
``play``, ``attack`` and ``finish_turn`` are the actions they were, with
their own candidates, judgement and offer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import combinations
from typing import TYPE_CHECKING, Any

from cardzones.acts.actions import (
    Action,
    ActionResult,
    ActionTable,
    ArgumentError,
    Param,
    ParamKind,
    acting,
    action_table,
)
from cardzones.acts.listing import SeatCandidate
from cardzones.acts.standard import BY
from cardzones.errors import IllegalAction
from cardzones.kernel.results import MoveResult
from cardzones.rulesets.fab.layers import LayerRef
from cardzones.rulesets.fab.procedure import combat, flow, plans, state
from cardzones.rulesets.fab.procedure.costs import Cost, distinct_pitch_sets
from cardzones.rulesets.fab.procedure.state import (
    END,
    Procedure,
    active,
    active_link,
    current,
    opponents,
)
from cardzones.rulesets.fab.procedure.timing import (
    may_attack_now,
    may_play_now,
    own_cards,
    playable_places,
)

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

K = ParamKind
Candidate = dict[str, Any]
#: Each act's candidates are made within the seat policy: the player acts for
#: themselves, naming cards of their own hand, arsenal, weapon and equipment
#: zones and opponents, and the plans (:mod:`.plans`) judge the rest; so a
#: listing does not check the seat policy on them again.
Seated = SeatCandidate

PITCH = Param(
    "pitch",
    K.CARDS,
    doc="cards of the player's hand pitched to pay the cost, under the game procedure (1.14.3)",
)

TARGET = Param(
    "target",
    K.PLAYER,
    doc="the opponent whose hero the attack targets, under the game procedure (1.4.5); "
    "needed when more than one opponent is in the game",
)

#: Up to how many cards that may defend legal actions offer every set of
#: them (4,096 sets), and the largest set they offer beyond that.
MAX_EVERY_SET, MAX_SET_OFFERED = 12, 3

#: The acts a player takes under the procedure: what legal actions list.
ACTS = ("pass", "play", "attack", "defend", "finish_turn", "concede")


def _plan_play(game: Game, args: Mapping[str, Any]) -> plans.Plan:
    pitch = tuple(args["pitch"] or ())
    return plans.plan_play(game, args["card"], acting(game, args), pitch, args["target"])


def _plan_attack(game: Game, args: Mapping[str, Any]) -> plans.Plan:
    pitch = tuple(args["pitch"] or ())
    return plans.plan_attack(game, args["card"], acting(game, args), pitch, args["target"])


def _plan_finish(game: Game, args: Mapping[str, Any]) -> plans.Plan:
    return plans.plan_finish(game, args["arsenal"], tuple(args["order"] or ()), acting(game, args))


def _plan_pass(game: Game, args: Mapping[str, Any]) -> plans.Plan:
    return plans.plan_pass(game, acting(game, args))


def _plan_defend(game: Game, args: Mapping[str, Any]) -> plans.Plan:
    return plans.plan_defend(game, tuple(args["cards"] or ()), acting(game, args))


def _plan_concede(game: Game, args: Mapping[str, Any]) -> plans.Plan:
    return plans.plan_concede(game, acting(game, args))


Planner = Callable[["Game", Mapping[str, Any]], plans.Plan]


def _runner(
    planner: Planner, result: MoveResult
) -> Callable[[Game, Mapping[str, Any]], ActionResult]:
    plain = ActionResult(result)  # immutable: one for every act that made nothing

    def run(game: Game, args: Mapping[str, Any]) -> ActionResult:
        made = plans.apply(game, planner(game, args))
        if made is None:
            return plain
        # as: names the attack-proxy, active while it exists, as outside the procedure.
        return ActionResult(result, card=made, effect=LayerRef(made))

    return run


def _judge(planner: Planner, result: MoveResult) -> Callable[[Game, Mapping[str, Any]], MoveResult]:
    def foresee(game: Game, args: Mapping[str, Any]) -> MoveResult:
        planner(game, args)
        return result

    return foresee


def _judge_pass(game: Game, args: Mapping[str, Any]) -> MoveResult:
    # plan_pass without the plan: a listing asks it of every player with
    # priority, the apply makes the plan it carries out.
    plans.judge_pass(game, acting(game, args))
    return MoveResult.DONE


def _judge_defend(game: Game, args: Mapping[str, Any]) -> MoveResult:
    # plan_defend without the plan (plans.judge_defend), for each of the many
    # sets a listing judges.
    cards = args["cards"]
    combat.judge_declaration(game, acting(game, args), tuple(cards) if cards else ())
    return MoveResult.DONE


# -- candidates: the plans that may succeed -----------------------------------------


def play_candidates(game: Game, player: str) -> Iterator[Candidate]:
    """Each card of the player's hand and arsenal they may play now, with
    each set of cards that may be pitched for it (5.1, 1.14.3b)."""
    cards = playable_places(game, player)
    targets: tuple[str, ...] | None = None
    for found in _paid(
        game, player, cards, plans.playable_cost, pitching_itself=False, timely=may_play_now
    ):
        if combat.is_attack(game, found["card"], player):
            if targets is None:
                targets = _targets(game, player)
            yield from _targeted(found, targets)
        else:
            yield found


def attack_candidates(game: Game, player: str) -> Iterator[Candidate]:
    """Each weapon the player may attack with now, with each set of cards
    that may be pitched for it."""
    weapons = own_cards(game, player, "weapon")
    targets: tuple[str, ...] | None = None
    for found in _paid(game, player, weapons, plans.attack_ready, timely=may_attack_now):
        if targets is None:
            targets = _targets(game, player)
        yield from _targeted(found, targets)


def _targets(game: Game, player: str) -> tuple[str, ...]:
    """The players whose heroes an attack of ``player``'s may target (1.4.5)."""
    proc = current(game)
    assert proc is not None
    return opponents(game, proc, player)


def _targeted(found: Candidate, targets: tuple[str, ...]) -> Iterator[Candidate]:
    """An attack with each opponent's hero as its target (1.4.5); with one
    opponent left the target goes unsaid, as the act is sent."""
    if len(targets) == 1:
        yield found
        return
    for target in targets:
        yield Seated(found, target=target)


#: Whether a card may be played or attack now, as far as its timing tells.
Timely = Callable[["Game", Procedure, int, str], bool]


def _paid(
    game: Game,
    player: str,
    cards: Sequence[int],
    ready: Callable[[Game, Procedure, int, str], Cost],
    *,
    pitching_itself: bool = True,
    timely: Timely | None = None,
) -> Iterator[Candidate]:
    """Each of ``cards`` that ``ready`` accepts for the player with priority,
    with each distinct set of cards that may be pitched for its cost; a card
    being played is never one of them. ``timely`` tells at once, with no
    refusal raised and no card named, the cards whose timing or place
    refuses them (most of a hand, most of the time): ``ready`` judges the rest."""
    proc = current(game)
    if proc is None or proc.over or proc.priority != player:
        return
    for card in cards:
        if timely is not None and not timely(game, proc, card, player):
            continue
        try:
            cost = ready(game, proc, card, player)
        except IllegalAction:
            continue
        need = plans.resource_need(game, proc, player, cost)
        for pitch in distinct_pitch_sets(game, player, need, None if pitching_itself else card):
            # no card pitched is written by leaving `pitch` out, as the act
            # is sent: a list of cards is never empty
            yield (
                Seated(card=card, by=player, pitch=list(pitch))
                if pitch
                else Seated(card=card, by=player)
            )


def pass_candidates(game: Game, player: str) -> tuple[Candidate, ...]:
    """Passing, for the player with priority (1.11.4): one candidate or none,
    given as a tuple (every act of a game lists it, most of them alone)."""
    proc = current(game)
    if proc is not None and not proc.over and proc.priority == player:
        return (Seated(by=player),)
    return ()


def defend_candidates(game: Game, player: str) -> Iterator[Candidate]:
    """Every set of the cards the defending player may declare, none
    included (7.3.2a), in the order of their zones; with more than
    :data:`MAX_EVERY_SET` of them, the sets of up to :data:`MAX_SET_OFFERED`."""
    proc = current(game)
    if proc is None or proc.over or proc.priority:
        return
    # 7.3.2: the defend step's defending player, before they declared (in
    # the end phase no one has priority either: no set is offered there).
    link = active_link(proc)
    if proc.step != state.DEFEND or proc.declared or link is None or link.defender != player:
        return
    cards = combat.may_defend_with(game, proc, player)
    # Every set doubles with each card: past a hand and equipment no game
    # deals, the sets offered stop at a few cards (defend accepts any set).
    largest = len(cards) if len(cards) <= MAX_EVERY_SET else MAX_SET_OFFERED
    for size in range(largest + 1):
        for chosen in combinations(cards, size):
            # one dict a set, as there are many sets
            yield Seated(by=player, cards=list(chosen)) if chosen else Seated(by=player)


def concede_candidates(game: Game, player: str) -> Iterator[Candidate]:
    """4.5.3c: the player the game waits for may concede instead of acting."""
    proc = current(game)
    if proc is not None and flow.who_acts(game, proc) == player:
        yield Seated(by=player)


def finish_candidates(game: Game, player: str) -> Iterator[Candidate]:
    """Ending the turn keeping the hand, and with each card of the hand for
    the arsenal when an arsenal zone is empty (4.4.3b)."""
    proc = current(game)
    if proc is None or proc.over or proc.phase != END or player != game.turn_player:
        return
    yield Seated(by=player)
    if flow.arsenal_choice(game, player):
        for card in own_cards(game, player, "hand"):
            yield Seated(arsenal=card, by=player)


# -- the table ----------------------------------------------------------------------


PASS = Action(
    "pass",
    (BY,),
    _runner(_plan_pass, MoveResult.DONE),
    doc="Pass priority under the game procedure: the next player gains it; once every "
    "player passed in succession the top layer resolves, or the step or phase ends.",
    rules=("1.11.4", "1.11.4a", "5.3.7", "4.3.4"),
    bare="by",
    candidates=pass_candidates,
    distinct=True,  # one candidate or none
    foresee=_judge_pass,
)
DEFEND = Action(
    "defend",
    (
        Param("cards", K.CARDS, doc="the defending cards, from hand and equipment (none: no card)"),
        BY,
    ),
    _runner(_plan_defend, MoveResult.DONE),
    doc="Declare defending cards in the defend step of combat, all in one act: cards "
    "from hand and public equipment with a defense value.",
    rules=("7.3.2", "7.3.2a", "7.3.2b", "7.3.2d", "7.0.5a"),
    candidates=defend_candidates,
    distinct=True,  # each set once
    foresee=_judge_defend,
)
CONCEDE = Action(
    "concede",
    (BY,),
    _runner(_plan_concede, MoveResult.DONE),
    doc="Concede the game under the game procedure: the player loses.",
    rules=("4.5.3c", "4.5.2a"),
    bare="by",
    candidates=concede_candidates,
    distinct=True,  # one candidate or none
    foresee=_judge(_plan_concede, MoveResult.DONE),
)


def _either(
    old: Action, planner: Planner, result: MoveResult, candidates: Any, params: tuple[Param, ...]
) -> Action:
    """``old`` outside the procedure, and the procedure's act under it."""
    run_act = _runner(planner, result)
    judge_act = _judge(planner, result)
    old_run, old_foresee, old_candidates, old_offer = (
        old.run,
        old.foresee,
        old.candidates,
        old.offer,
    )
    extra = {p.name for p in params} - {p.name for p in old.params}

    def run(game: Game, args: Mapping[str, Any]) -> ActionResult:
        if active(game):
            return run_act(game, args)
        _no_extra(args, extra)
        return old_run(game, args)

    def foresee(game: Game, args: Mapping[str, Any]) -> MoveResult | None:
        if active(game):
            return judge_act(game, args)
        _no_extra(args, extra)
        return old_foresee(game, args) if old_foresee is not None else None

    def offered(game: Game, player: str) -> Iterator[Mapping[str, Any]]:
        # The iterator itself, not a generator around it: every listing asks.
        if active(game):
            return iter(candidates(game, player))
        return iter(old_candidates(game, player) if old_candidates is not None else ())

    def offer(game: Game, args: Mapping[str, Any]) -> bool:
        return active(game) or old_offer is None or old_offer(game, args)

    return replace(
        old,
        params=params,
        run=run,
        foresee=foresee,
        candidates=offered,
        offer=offer,
        rules=(*old.rules, *planner_rules(old.name)),
    )


def planner_rules(name: str) -> tuple[str, ...]:
    """The rules an act carries under the procedure."""
    return {
        "play": (
            "5.1.1a",
            "5.1.2",
            "5.1.7a",
            "1.14.2b",
            "1.14.3",
            "1.14.3b",
            "8.1.1a",
            "8.1.1b",
            "1.4.5",
            "5.1.4b",
        ),
        "attack": ("5.2.1a", "8.1.1c", "1.4.5", "5.1.4b"),
        "finish_turn": ("4.4.3e", "4.4.4"),
    }.get(name, ())


def _no_extra(args: Mapping[str, Any], extra: set[str]) -> None:
    for name in extra:
        if args.get(name):
            raise ArgumentError(f"{name} is given under the game procedure only", (name,))


def procedure_table(table: ActionTable) -> ActionTable:
    """fab's table with the procedure's acts: ``pass``, ``defend`` and
    ``concede`` added, ``play``, ``attack`` and ``finish_turn`` taking the
    procedure's meaning under it."""
    play, attack, finish = table["play"], table["attack"], table["finish_turn"]
    return action_table(
        *table.values(),
        _either(play, _plan_play, MoveResult.MOVED, play_candidates, (*play.params, PITCH, TARGET)),
        _either(
            attack,
            _plan_attack,
            MoveResult.DONE,
            attack_candidates,
            (*attack.params, PITCH, TARGET),
        ),
        _either(finish, _plan_finish, MoveResult.DONE, finish_candidates, finish.params),
        PASS,
        DEFEND,
        CONCEDE,
    )


__all__ = ["ACTS", "procedure_table"]
