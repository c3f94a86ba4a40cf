"""The battle of a rescue attempt: presenting a Hero, the block, enhancements
by initiative, the outcome from strength and toughness, and the end of
battle.

The state of the battle (:func:`outcome`) is read from the cards in it, once,
and everything that depends on it reads it from there: who has initiative,
whether a pass ends the battle, and the resolution.

Each act is a plan and an apply, as in :mod:`.turn`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from cardzones.errors import IllegalAction
from cardzones.kernel.cards import Dest
from cardzones.kernel.objects import ObjRef
from cardzones.rulesets.redemption.procedure.rescue import rescuable, rescue_soul
from cardzones.rulesets.redemption.procedure.state import (
    ATTEMPTS_PER_TURN,
    BLOCK,
    ENHANCE,
    Battle,
    Played,
    Procedure,
    current,
    put,
    running,
)
from cardzones.rulesets.redemption.procedure.targets import (
    check_enhancement,
    check_presented,
)
from cardzones.rulesets.redemption.procedure.turn import GAME_EVENT, opened, turn_players
from cardzones.rulesets.redemption.set_aside import end_battle
from cardzones.rulesets.redemption.turns import PHASES, advance_to
from cardzones.rulesets.redemption.zones import (
    DISCARD,
    FIELD_OF_BATTLE,
    TERRITORY,
)

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The outcomes of a battle (battle-resolution/outcomes).
HERO_WINS, EVIL_WINS = "hero_wins", "evil_wins"
MUTUAL, STALEMATE = "mutual_destruction", "stalemate"


class Side(NamedTuple):
    """The total strength and toughness of one side of the battle, its
    characters and the enhancements played on them together."""

    strength: int
    toughness: int


class Standing(NamedTuple):
    """The battle as it stands: each side's totals and the outcome if it
    ended now (battle-resolution/outcomes)."""

    good: Side
    evil: Side
    outcome: str


def live(game: Game, refs: tuple[ObjRef, ...]) -> list[int]:
    """The cards of ``refs`` that are still those objects in the Field of Battle."""
    fob = game.zone(None, FIELD_OF_BATTLE)
    out = []
    for ref in refs:
        found = game.referent(ref)
        if found is not None and found.zone == fob:
            out.append(found.card)
    return out


def _side(game: Game, characters: tuple[ObjRef, ...], battle: Battle) -> Side:
    cards = live(game, characters)
    on = set(characters)
    cards += live(game, tuple(p.card for p in battle.enhancements if p.on in on))
    strength = sum(game.stat(c, "strength") or 0 for c in cards)
    toughness = sum(game.stat(c, "toughness") or 0 for c in cards)
    return Side(strength, toughness)


def standing(game: Game, battle: Battle) -> Standing:
    """Each side's totals and the outcome (battle-resolution/outcomes): a side
    defeats the other when its strength is at least the other's toughness
    (defeat/discarded); both: mutual destruction; neither: stalemate. A Hero
    no Evil Character blocks wins unopposed."""
    good = _side(game, battle.heroes, battle)
    evil = _side(game, battle.blockers, battle)
    heroes, blockers = live(game, battle.heroes), live(game, battle.blockers)
    if not blockers:
        result = HERO_WINS if heroes else STALEMATE
    elif not heroes:
        result = EVIL_WINS
    else:
        beats_evil = good.strength >= evil.toughness
        beats_good = evil.strength >= good.toughness
        result = {
            (True, False): HERO_WINS,
            (False, True): EVIL_WINS,
            (True, True): MUTUAL,
            (False, False): STALEMATE,
        }[(beats_evil, beats_good)]
    return Standing(good, evil, result)


def initiative(game: Game, battle: Battle) -> str:
    """Who may act in the battle now: the defender while the block is open;
    then the player losing the battle (initiative/losing-player), or, in a
    stalemate or a mutual destruction, the player who did not play the last
    card, or the other one once that player passed
    (initiative/stalemate-or-mutual)."""
    if battle.stage == BLOCK:
        return battle.defender
    result = standing(game, battle).outcome
    if result == HERO_WINS:
        return battle.defender
    if result == EVIL_WINS:
        return battle.rescuer
    other = battle.defender if battle.last == battle.rescuer else battle.rescuer
    if battle.passed == other:
        return battle.defender if other == battle.rescuer else battle.rescuer
    return other


def in_battle(game: Game) -> tuple[Procedure, Battle]:
    state = opened(game)
    if state.battle is None:
        raise IllegalAction("there is no battle under way", rule="battle-phase/present-hero")
    return state, state.battle


# ----------------------------------------------------------------------
# rescue: present a Hero to rescue a Lost Soul
# ----------------------------------------------------------------------


class RescuePlan(NamedTuple):
    hero: int
    soul: int
    by: str
    defender: str


def plan_rescue(game: Game, by: str, hero: int, soul: int) -> RescuePlan:
    state = opened(game)
    turn_players(game, by, "a rescue attempt")
    if state.battle is not None:
        raise IllegalAction("a battle is under way already", rule="rescue-attempt/one-per-turn")
    if state.attempts >= ATTEMPTS_PER_TURN:
        raise IllegalAction(
            f"{by} has made their rescue attempt this turn", rule="rescue-attempt/one-per-turn"
        )
    if game.phase not in PHASES[: PHASES.index("battle") + 1]:
        raise IllegalAction(
            f"a rescue attempt is made in the battle phase, and {by}'s turn is past it",
            rule="battle-phase/present-hero",
        )
    check_presented(game, by, hero, "hero", "battle-phase/present-hero")
    if not rescuable(game, soul, by):
        raise IllegalAction(
            "a rescue attempt names a Lost Soul in an opponent's Land of Bondage",
            rule="battle-phase/present-hero",
        )
    info = game.zone_info(game.location(soul))
    assert info.owner is not None
    # opponent/in-battle: the opponent the rescuer engages is the one whose
    # Land of Bondage holds the Lost Soul; only they block and enhance.
    return RescuePlan(hero, soul, by, info.owner)


def apply_rescue(game: Game, plan: RescuePlan) -> None:
    """The turn moves on to its battle phase, the Hero enters the Field of
    Battle, and the defender may block."""
    advance_to(game, "battle")
    game.move(plan.hero, Dest(FIELD_OF_BATTLE), cause="own", by=plan.by)
    battle = Battle(
        plan.by, plan.defender, game.ref(plan.soul), (game.ref(plan.hero),), last=plan.by
    )
    state = running(game)
    put(game, state._replace(battle=battle, attempts=state.attempts + 1))
    game.log_event(
        GAME_EVENT,
        f"{plan.by} makes a rescue attempt with {game.obj(plan.hero).cdef.name} on "
        f"{game.obj(plan.soul).cdef.name} in {plan.defender}'s Land of Bondage",
        by=plan.by,
    )


# ----------------------------------------------------------------------
# block
# ----------------------------------------------------------------------


class BlockPlan(NamedTuple):
    card: int
    by: str


def plan_block(game: Game, by: str, card: int) -> BlockPlan:
    _, battle = in_battle(game)
    if battle.stage != BLOCK or by != battle.defender:
        raise IllegalAction(
            f"the rescue attempt is blocked by {battle.defender}, once, before enhancements "
            "are played",
            rule="card-type/evil-characters-block",
        )
    check_presented(game, by, card, "evil_character", "card-type/evil-characters-block")
    return BlockPlan(card, by)


def apply_block(game: Game, plan: BlockPlan) -> None:
    game.move(plan.card, Dest(FIELD_OF_BATTLE), cause="own", by=plan.by)
    state, battle = in_battle(game)
    battle = battle._replace(
        blockers=(game.ref(plan.card),), stage=ENHANCE, last=plan.by, passed=None
    )
    put(game, state._replace(battle=battle))
    game.log_event(GAME_EVENT, f"{plan.by} blocks with {game.obj(plan.card).cdef.name}", by=plan.by)


# ----------------------------------------------------------------------
# enhance
# ----------------------------------------------------------------------


class EnhancePlan(NamedTuple):
    card: int
    on: int
    by: str


def plan_enhance(game: Game, by: str, card: int, on: int) -> EnhancePlan:
    _, battle = in_battle(game)
    if battle.stage != ENHANCE:
        raise IllegalAction(
            f"{battle.defender} decides on the block first", rule="initiative/next-enhancement"
        )
    holder = initiative(game, battle)
    if by != holder:
        raise IllegalAction(
            f"{holder} has initiative and may play the next enhancement",
            rule="initiative/next-enhancement",
        )
    own = battle.heroes if by == battle.rescuer else battle.blockers
    if on not in live(game, own):
        raise IllegalAction(
            f"{by} plays an enhancement on a character of their side of the battle",
            rule="initiative/next-enhancement",
        )
    check_enhancement(game, by, card, on)
    return EnhancePlan(card, on, by)


def apply_enhance(game: Game, plan: EnhancePlan) -> None:
    on = game.ref(plan.on)
    game.move(plan.card, Dest(FIELD_OF_BATTLE), cause="own", by=plan.by)
    state, battle = in_battle(game)
    played = Played(game.ref(plan.card), plan.by, on)
    battle = battle._replace(enhancements=(*battle.enhancements, played), last=plan.by, passed=None)
    put(game, state._replace(battle=battle))
    now = standing(game, battle)
    game.log_event(
        GAME_EVENT,
        f"{plan.by} plays {game.obj(plan.card).cdef.name} on {game.obj(plan.on).cdef.name}: "
        f"{_totals(now)}",
        by=plan.by,
    )


def _totals(now: Standing) -> str:
    return (
        f"Heroes {now.good.strength}/{now.good.toughness} against Evil Characters "
        f"{now.evil.strength}/{now.evil.toughness}, {now.outcome.replace('_', ' ')}"
    )


# ----------------------------------------------------------------------
# pass: decline the block, or pass initiative
# ----------------------------------------------------------------------


class PassPlan(NamedTuple):
    by: str
    ends: bool


def plan_pass(game: Game, by: str) -> PassPlan:
    _, battle = in_battle(game)
    holder = initiative(game, battle)
    if by != holder:
        raise IllegalAction(
            f"{holder} has initiative: only they may pass it", rule="initiative/next-enhancement"
        )
    if battle.stage == BLOCK:
        return PassPlan(by, True)  # no block: the Hero is unopposed
    result = standing(game, battle).outcome
    if result not in (MUTUAL, STALEMATE):
        # The losing player cannot pass initiative: declining to play ends the battle.
        return PassPlan(by, True)  # initiative/losing-player
    # Both passed in turn since the last card: nobody plays any more.
    return PassPlan(by, battle.passed is not None)  # initiative/stalemate-or-mutual


def apply_pass(game: Game, plan: PassPlan) -> None:
    state, battle = in_battle(game)
    if not plan.ends:
        put(game, state._replace(battle=battle._replace(passed=plan.by)))
        game.log_event(GAME_EVENT, f"{plan.by} passes initiative", by=plan.by)
        return
    resolve(game, battle)


# ----------------------------------------------------------------------
# battle resolution and the end of battle
# ----------------------------------------------------------------------


def resolve(game: Game, battle: Battle) -> None:
    """Battle resolution (battle-resolution/outcomes): the outcome, then the
    rescue (battle-resolution/successful-rescue,
    mutual-destruction/rescue-successful), defeated characters discarded
    (defeat/discarded), survivors back to their owners' territories
    (withdraw/owners-territory, stalemate/withdraw), the enhancements played
    in the battle discarded (end-of-battle/enhancements-discarded). The turn
    then goes on to its discard phase, its one rescue attempt made."""
    now = standing(game, battle)
    heroes, blockers = live(game, battle.heroes), live(game, battle.blockers)
    names = ", ".join(game.obj(c).cdef.name for c in heroes) or "no Hero"
    against = ", ".join(game.obj(c).cdef.name for c in blockers) or "no blocker"
    lines = [f"the battle ends: {names} against {against}: {_totals(now)}"]
    beaten = {
        HERO_WINS: blockers,
        EVIL_WINS: heroes,
        MUTUAL: heroes + blockers,
        STALEMATE: [],
    }[now.outcome]
    for card in heroes + blockers:
        name = game.obj(card).cdef.name
        if card in beaten:
            game.move(card, Dest(DISCARD, "owner"), cause="rule", by=None)
            lines.append(f"{name} is discarded")
        else:
            game.move(card, Dest(TERRITORY, "owner"), cause="rule", by=None)
            lines.append(f"{name} returns to its owner's territory")
    state = running(game)
    put(game, state._replace(battle=None))
    end_battle(game)  # end-of-battle/enhancements-discarded
    soul = game.referent(battle.soul)
    if (
        now.outcome in (HERO_WINS, MUTUAL)
        and soul is not None
        and rescuable(game, soul.card, battle.rescuer)
    ):
        lines.append("the rescue is successful")
        game.log_event(GAME_EVENT, "; ".join(lines), by=battle.rescuer)
        rescue_soul(game, soul.card, battle.rescuer)
    else:
        lines.append("the rescue fails")
        game.log_event(GAME_EVENT, "; ".join(lines), by=battle.rescuer)
    after = current(game)
    if after is not None and after.winner is None:
        advance_to(game, "discard")
