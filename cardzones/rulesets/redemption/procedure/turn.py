"""The turn under the game procedure: the opening of the game, the draws, the
phases, the hand limit and what a player puts in their territory.

Each act is written once, as a plan and an apply: ``plan_*`` judges the act
on the game as it is (it raises :class:`~cardzones.errors.IllegalAction`,
naming the rule, when the act is refused, and changes nothing), and
``apply_*`` carries out a plan that was judged. Legal actions are the plans
that succeed; the act is the apply of its plan (:mod:`.acts`).

The phases themselves are those of :mod:`cardzones.rulesets.redemption.turns`
(phases/order): entering the upkeep counts set-aside durations and entering
the preparation phase returns set-aside cards whose time has come.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from cardzones.errors import IllegalAction
from cardzones.kernel.cards import Dest
from cardzones.kernel.naming import name_for
from cardzones.rulesets.redemption.cards import is_lost_soul
from cardzones.rulesets.redemption.procedure.state import (
    DRAW_PHASE_CARDS,
    HAND_CAP,
    OPENING_HAND,
    Procedure,
    current,
    put,
    running,
)
from cardzones.rulesets.redemption.procedure.targets import in_hand
from cardzones.rulesets.redemption.turns import PHASES, advance_to
from cardzones.rulesets.redemption.zones import DECK, DISCARD, HAND, LAND_OF_BONDAGE, TERRITORY

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The event of the procedure's own lines in the log.
GAME_EVENT = "game"

#: The types a player puts in their territory from hand (territory/cards-put-there;
#: a city is a kind of site).
TERRITORY_TYPES = frozenset({"hero", "evil_character", "fortress", "site", "city", "artifact"})


def opened(game: Game) -> Procedure:
    """The procedure's state of a game that has opened; refused before."""
    state = running(game)
    if not state.opened:
        raise IllegalAction(
            "the game has not opened: open_game shuffles the decks and draws the opening hands",
            rule="game-start/opening-hand",
        )
    return state


def turn_players(game: Game, by: str, what: str) -> None:
    """Refused unless ``by`` is the turn player."""
    if by != game.turn_player:
        raise IllegalAction(f"{what} belongs to the turn player, {game.turn_player}")


def draw(game: Game, player: str, count: int) -> int:
    """``player`` draws ``count`` cards from the top of their deck: each Lost
    Soul drawn goes to their Land of Bondage and is replaced by another draw
    (draw-phase/lost-soul-to-land-of-bondage, draw-phase/lost-soul-replaced,
    lost-souls/land-of-bondage), until ``count`` cards that are not Lost Souls
    are drawn or the deck is empty (draw-phase/empty-deck: the game goes on),
    or the hand holds sixteen cards (hand/at-most-sixteen: the rest stay in the
    deck). How many cards went to the hand. One step of the caller's action."""
    deck, hand = game.zone(player, DECK), game.zone(player, HAND)
    bondage = game.zone(player, LAND_OF_BONDAGE)
    if deck is None or hand is None or bondage is None:
        return 0
    kept = 0
    while kept < count and len(game.contents(hand)) < HAND_CAP:  # hand/at-most-sixteen
        top = game.contents(deck)[:1]
        if not top:
            break  # draw-phase/empty-deck
        card = top[0]
        if is_lost_soul(game.obj(card).cdef):
            # Shown to everyone as it goes to the Land of Bondage, which is public.
            game.move(card, bondage, cause="rule", by=player)
            game.log_event(
                GAME_EVENT,
                f"{player} draws {game.obj(card).cdef.name}: a Lost Soul goes to their Land of "
                "Bondage, and they draw another card",
                by=player,
            )
            continue
        game.move(card, hand, cause="rule", by=player)
        kept += 1
    return kept


# ----------------------------------------------------------------------
# open_game
# ----------------------------------------------------------------------


class OpenPlan(NamedTuple):
    """Open the game: shuffle (or not, for a scenario that fixes the decks)."""

    shuffle: bool


def plan_open(game: Game, by: str, shuffle: bool) -> OpenPlan:
    state = running(game)
    turn_players(game, by, "opening the game")
    if state.opened:
        raise IllegalAction("the game has opened already", rule="game-start/opening-hand")
    return OpenPlan(shuffle)


def apply_open(game: Game, plan: OpenPlan) -> None:
    """Every deck is shuffled (game-start/shuffle), every player draws their
    opening hand (game-start/opening-hand), Lost Souls going to the Land of
    Bondage as in any draw; then the first turn's draw phase draws three
    (draw-phase/three-cards)."""
    for player in game.players:
        deck = game.zone(player, DECK)
        if plan.shuffle and deck is not None:
            game.shuffle(deck, by=player)
    for player in game.players:
        draw(game, player, OPENING_HAND)
    shuffled = "the decks are shuffled and " if plan.shuffle else ""
    game.log_event(GAME_EVENT, f"{shuffled}the opening hands are drawn")
    put(game, running(game)._replace(opened=True))
    _turn_draw(game)


def _turn_draw(game: Game) -> None:
    """The draw of the turn player's draw phase, the first thing of their
    turn (draw-phase/three-cards: the draw is not optional)."""
    player = game.turn_player
    kept = draw(game, player, DRAW_PHASE_CARDS)
    drew = f"{kept} card" if kept == 1 else f"{kept} cards"
    game.log_event(GAME_EVENT, f"{player} draws {drew} in their draw phase", by=player)
    put(game, running(game)._replace(drawn=True))


# ----------------------------------------------------------------------
# proceed: the next phase, or the end of the turn
# ----------------------------------------------------------------------


class ProceedPlan(NamedTuple):
    """Go to ``to``, a later phase of the turn; None ends the turn."""

    to: str | None


def plan_proceed(game: Game, by: str, to: str | None) -> ProceedPlan:
    state = opened(game)
    turn_players(game, by, "moving the turn on")
    if state.battle is not None:
        raise IllegalAction(
            "a battle is under way: it ends when a player passes (pass)",
            rule="initiative/losing-player",
        )
    here = PHASES.index(game.phase) if game.phase in PHASES else 0
    if to is None:
        to = PHASES[here + 1] if here + 1 < len(PHASES) else None
    elif PHASES.index(to) <= here:
        raise IllegalAction(
            f"it is {game.turn_player}'s {PHASES[here]} phase, and a turn's phases only move "
            f"forward ({', '.join(PHASES)})",
            rule="phases/order",
        )
    if to is None:
        hand = game.zone(by, HAND)
        held = len(game.contents(hand)) if hand is not None else 0
        if held > state.hand_limit:
            raise IllegalAction(
                f"{by} holds {held} cards: a hand is reduced to {state.hand_limit} or fewer in "
                "the discard phase before the turn ends (discard_down)",
                rule="discard-phase/hand-limit",
            )
    return ProceedPlan(to)


def apply_proceed(game: Game, plan: ProceedPlan) -> None:
    """The turn moves to the phase (phases/order), or ends: the next
    player's turn begins with the draw of their draw phase."""
    if plan.to is not None:
        advance_to(game, plan.to)
        return
    # The next turn begins (begin_turn below), the next player's in the
    # players' order (multiplayer/clockwise-turns).
    game.end_turn()


def begin_turn(game: Game) -> None:
    """The start of a turn while the procedure runs, however the last turn
    ended: no rescue attempt made yet, and the turn player draws three in
    their draw phase (draw-phase/three-cards)."""
    state = current(game)
    if state is None or not state.opened or state.winner is not None:
        return
    put(game, state._replace(drawn=False, attempts=0))
    _turn_draw(game)


# ----------------------------------------------------------------------
# discard_down: the hand limit of the discard phase
# ----------------------------------------------------------------------


class CardPlan(NamedTuple):
    """An act on one card of the acting player."""

    card: int
    by: str


def _from_hand(game: Game, by: str, card: int, phase: str, what: str, rule: str) -> int:
    """Refused unless it is ``by``'s turn, in its ``phase``, with no battle,
    and ``card`` is a top-level card of their own hand; their hand."""
    state = opened(game)
    turn_players(game, by, what)
    if state.battle is not None or game.phase != phase:
        raise IllegalAction(
            f"{what} belongs to the turn player's {phase} phase, and it is the {game.phase} phase",
            rule=rule,
        )
    hand = game.zone(by, HAND)
    if hand is None or not in_hand(game, card, by):
        raise IllegalAction(f"{what} takes a card of {by}'s own hand", rule=rule)
    return hand


def plan_discard_down(game: Game, by: str, card: int) -> CardPlan:
    hand = _from_hand(
        game, by, card, "discard", "discarding down to the hand limit", "discard-phase/hand-limit"
    )
    state = opened(game)
    if len(game.contents(hand)) <= state.hand_limit:
        raise IllegalAction(
            f"{by}'s hand is within the limit of {state.hand_limit} cards",
            rule="discard-phase/hand-limit",
        )
    return CardPlan(card, by)


def apply_discard_down(game: Game, plan: CardPlan) -> None:
    game.move(plan.card, Dest(DISCARD, "owner"), cause="rule", by=plan.by)


# ----------------------------------------------------------------------
# to_territory: a card from hand into its player's territory
# ----------------------------------------------------------------------


def plan_to_territory(game: Game, by: str, card: int) -> CardPlan:
    _from_hand(
        game,
        by,
        card,
        "preparation",
        "putting a card in the territory",
        "territory/cards-put-there",
    )
    types = game.characteristics(card, by=by).types
    if types.isdisjoint(TERRITORY_TYPES) or "lost_soul" in types:
        raise IllegalAction(
            f"{name_for(game, by, card)} does not go in a territory: characters, Fortresses, "
            "Sites and Artifacts do",
            rule="territory/cards-put-there",
        )
    return CardPlan(card, by)


def apply_to_territory(game: Game, plan: CardPlan) -> None:
    game.move(plan.card, Dest(TERRITORY, plan.by), cause="own", by=plan.by)
