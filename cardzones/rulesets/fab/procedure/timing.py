"""When a card may be played or a weapon attack under the procedure, by
timing alone (8.1, 1.13.2b, 8.1.1a, 8.1.1b): the part of judging a play or
an attack that reads no cost, and so tells at once, with no refusal raised
and no card named, that most of a hand may not be played now.

:mod:`.plans` judges each act with it; the acts' candidates (:mod:`.acts`)
pass over the cards it refuses; :func:`priority_acts` tells, from it alone,
which of the acts of the player with priority may give anything now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from cardzones.acts.legal import judging
from cardzones.errors import IllegalAction
from cardzones.kernel.objects import CARD, Obj
from cardzones.rulesets.fab import layers
from cardzones.rulesets.fab.layers import ATTACK_PROXY
from cardzones.rulesets.fab.procedure.state import (
    ACTION,
    REACTION,
    RESOLUTION,
    Procedure,
    active_link,
)

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The acts of the player with priority (1.11.2, 1.11.4, 5.1, 5.2) by which
#: of ``play`` and ``attack`` may give anything now; ``pass`` always may.
PRIORITY_ACTS = ("pass", "play", "attack")
PASS_AND_PLAY = ("pass", "play")
PASS_AND_ATTACK = ("pass", "attack")
PASS_ONLY = ("pass",)


def own_cards(game: Game, player: str, ztype: str) -> list[int]:
    """The cards in ``player``'s zones of the type, zone by zone."""
    out: list[int] = []
    for zid in game.zones_of(player, ztype):
        out.extend(game.contents(zid))
    return out


#: The zones a player plays cards from (5.1.1a), in the order they are offered.
PLAYED_FROM = ("hand", "arsenal")


def playable_places(game: Game, player: str) -> list[int]:
    """The cards a player plays from: their hand, then their arsenal (5.1.1a)."""
    return [card for ztype in PLAYED_FROM for card in own_cards(game, player, ztype)]


def may_play_now(game: Game, proc: Procedure, card: int, player: str) -> bool:
    """Whether the card's timing lets ``player`` play it now (8.1). The
    cards asked about are the player's own hand and arsenal: whether it may
    be played from there (5.1.1a), and at what cost, is the plan's to judge."""
    return play_timing_refusal(game, proc, card, player) is None


def may_attack_now(game: Game, proc: Procedure, weapon: int, player: str) -> bool:
    """Whether the weapon may attack now by its timing: an action ability
    (1.13.2b, 8.1.1a, 8.1.1b) that did not attack this turn (5.2.1a)."""
    return weapon not in proc.attacked and (
        action_timing_refusal(game, proc, player, attack=True) is None
    )


def priority_acts(game: Game, proc: Procedure, player: str) -> tuple[str, ...]:
    """The acts of ``player``, who has priority, that may give a legal action
    now: ``pass`` always (1.11.4); ``play`` when a card of their hand or
    arsenal may be played now by its timing (:func:`may_play_now`);
    ``attack`` when a weapon of theirs may attack now by its timing
    (:func:`may_attack_now`). An action card or a weapon's attack, an action,
    costs an action point (5.1.6b, 5.2.2b): without one, it is refused as its
    plan refuses it (5.1.7a, 1.14.2f) and counts for nothing here. The acts
    left out would list nothing: their candidates are the very cards these
    functions accept, and their plans refuse the rest."""
    # points(game, proc.action_points, player), read directly: every act asks
    action_point = proc.action_points[game.players.index(player)] >= 1
    # The timing of a weapon's attack is one for all of them (8.1.1a, 8.1.1b).
    attack = (
        action_point
        and action_timing_refusal(game, proc, player, attack=True) is None
        and any(weapon not in proc.attacked for weapon in own_cards(game, player, "weapon"))
    )
    if _any_playable(game, proc, player, action_point):
        return PRIORITY_ACTS if attack else PASS_AND_PLAY
    return PASS_AND_ATTACK if attack else PASS_ONLY


def _any_playable(game: Game, proc: Procedure, player: str, action_point: bool) -> bool:
    """Whether a card of ``player``'s hand or arsenal may be played now by
    its timing (:func:`may_play_now`), an action card only with
    ``action_point``. Each timing is judged once, however many cards share
    it (8.1); the first card it allows ends the look."""
    judged: dict[str, bool] = {}
    if not action_point:  # 5.1.6b: an action card's cost has an action point
        judged[ACTION_CARD] = judged[ATTACK_ACTION] = False
    zones_of, contents = game.zones_of, game.contents
    obj, characteristics = game.obj, game.characteristics
    for ztype in PLAYED_FROM:
        for zid in zones_of(player, ztype):
            cards = contents(zid)
            if not cards:
                continue  # an empty arsenal, most of the time
            # Every act asks this of the player with priority: in a zone of
            # theirs that its owner may look at (a hand, an arsenal), each card
            # is what they know it to be, its card (the characteristics a
            # player using it reads, 3.0.4e), without asking card by card.
            info = game.zone_info(zid)
            sees = info.owner == player and info.spec.owner_may_look
            for card in cards:
                found = obj(card)
                types = (found.cdef if sees else characteristics(found, by=player)).types
                window = _CARD_WINDOWS.get(types) if found.kind == CARD else None
                if window is None:
                    window = timing_window(found, types)
                allowed = judged.get(window)
                if allowed is None:
                    allowed = judged[window] = window_refusal(game, proc, player, window) is None
                if allowed:
                    return True
    return False


#: The timing a card is played by (8.1), as :func:`timing_window` reads it
#: from its types: any time with priority (8.1.6a), a reaction's (8.1.2a,
#: 8.1.3a), an action's (8.1.1a, 8.1.1b; an attack's differs in the
#: resolution step), or never (5.1.2b).
INSTANT, ATTACK_REACTION, DEFENSE_REACTION = "instant", "attack_reaction", "defense_reaction"
ACTION_CARD, ATTACK_ACTION, NEVER = "action", "attack", "never"


def timing_window(obj: Obj, types: frozenset[str]) -> str:
    """The timing the object with these types is played by (8.1): a card
    that is an instant as well is played as one (5.1.3d's declaration)."""
    if obj.kind == CARD:
        # A card's timing is its types' alone: found once per set of types.
        window = _CARD_WINDOWS.get(types)
        if window is None:
            window = _window(obj, types)
            if len(_CARD_WINDOWS) < _MAX_KEPT:
                _CARD_WINDOWS[types] = window
        return window
    return _window(obj, types)


#: The timing of a card (an object of the kind ``CARD``) by its types: the
#: sets of types a game's cards have are few, and every act of the player with
#: priority asks it of each card of their hand (:func:`_any_playable`).
_CARD_WINDOWS: dict[frozenset[str], str] = {}
#: Up to how many sets of types :data:`_CARD_WINDOWS` keeps.
_MAX_KEPT = 4096


def _window(obj: Obj, types: frozenset[str]) -> str:
    if "instant" in types:
        return INSTANT
    if "attack_reaction" in types:
        return ATTACK_REACTION
    if "defense_reaction" in types:
        return DEFENSE_REACTION
    if "action" in types:
        # combat.is_attack, on the types already read
        attack = obj.kind == ATTACK_PROXY or (obj.kind == CARD and "attack" in types)
        return ATTACK_ACTION if attack else ACTION_CARD
    return NEVER


def window_refusal(game: Game, proc: Procedure, player: str, window: str) -> tuple[str, str] | None:
    """Why a card played by the timing ``window`` may not be played now by
    ``player``, as the end of a sentence that names it, with the rule; None
    when it may be."""
    if window == INSTANT:
        return None  # 8.1.6a: any time the player has priority
    if window in (ATTACK_REACTION, DEFENSE_REACTION):
        attacking = window == ATTACK_REACTION
        if reaction_timing_ok(proc, player, attacking):
            return None
        return _reaction_refusal(attacking)
    if window == NEVER:
        # 8.1.7a, 8.1.12a: a resource or a block card is never played, nor a
        # hero, a weapon or an equipment (they start in the arena).
        return "is not a card that can be played", "5.1.2b"
    refusal = action_timing_refusal(game, proc, player, attack=window == ATTACK_ACTION)
    return None if refusal is None else (f"is an action: {refusal[0]}", refusal[1])


def play_timing_refusal(
    game: Game, proc: Procedure, card: int, player: str
) -> tuple[str, str] | None:
    """Why the card may not be played now, by its types (8.1), as the end of
    a sentence that names it, with the rule; None when it may be."""
    obj = game.obj(card)
    types = game.characteristics(obj, by=player).types
    return window_refusal(game, proc, player, timing_window(obj, types))


def reaction_timing_ok(proc: Procedure, player: str, attacking: bool) -> bool:
    """Whether the player may play a reaction now: in the reaction step, an
    attack reaction as the attacking player (8.1.2a), a defense reaction as
    the defending player (8.1.3a)."""
    link = active_link(proc)
    if link is None or proc.step != REACTION:
        return False
    return player == (link.attacker if attacking else link.defender)


def check_reaction_timing(proc: Procedure, player: str, attacking: bool, what: str) -> None:
    """A reaction is played in the reaction step, an attack reaction by the
    attacking player (8.1.2a), a defense reaction by the defending player
    (8.1.3a)."""
    if not reaction_timing_ok(proc, player, attacking):
        message, rule = _reaction_refusal(attacking)
        raise IllegalAction(f"{what} {message}", rule=rule)


def _reaction_refusal(attacking: bool) -> tuple[str, str]:
    kind, side = ("an attack", "attacking") if attacking else ("a defense", "defending")
    message = f"is {kind} reaction: it is played by the {side} player in the reaction step"
    return message, "8.1.2a" if attacking else "8.1.3a"


def action_timing_refusal(
    game: Game, proc: Procedure, player: str, *, attack: bool
) -> tuple[str, str] | None:
    """Why an action card or action ability may not be played now, with the
    rule, or None when it may: the turn player's, in their action phase
    (1.13.2b), with the stack empty (8.1.1a), and outside combat but for an
    attack in the resolution step (8.1.1b, 7.0.1a, 7.6.3a).

    While legal actions are judged it is found once per player, kind and
    step, as every card of a hand asks it."""
    memo = judging(game)
    if memo is None:
        return _action_timing_refusal(game, proc, player, attack)
    # The game (its turn player, its stack) stays as it is meanwhile; the
    # phase and step are the record's asked about.
    key = ("fab.action_timing", player, attack, proc.phase, proc.step)
    try:
        refusal: tuple[str, str] | None = memo[key]
    except KeyError:
        refusal = memo[key] = _action_timing_refusal(game, proc, player, attack)
    return refusal


def _action_timing_refusal(
    game: Game, proc: Procedure, player: str, attack: bool
) -> tuple[str, str] | None:
    if player != game.turn_player or proc.phase != ACTION:
        return "only the turn player plays actions, in their action phase", "1.13.2b"
    if game.contents(layers.stack(game)):
        return "the stack must be empty", "8.1.1a"
    if proc.step is not None and not (attack and proc.step == RESOLUTION):
        return "during combat only an attack, in the resolution step", "8.1.1b"
    return None


def check_action_timing(
    game: Game, proc: Procedure, player: str, *, attack: bool, what: str
) -> None:
    """An action card or action ability: refused as
    :func:`action_timing_refusal` says."""
    refusal = action_timing_refusal(game, proc, player, attack=attack)
    if refusal is not None:
        refuse_action(what, refusal)


def refuse_action(what: str, refusal: tuple[str, str]) -> NoReturn:
    message, rule = refusal
    raise IllegalAction(f"{what} is an action: {message}", rule=rule)
