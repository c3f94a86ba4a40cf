"""The flow of the game under the procedure: the start of the game (4.1),
the phases of a turn (4.2 to 4.4), priority and passing (1.11), layers
resolving when every player passed in succession (5.3) and the end of the
game (4.5).

Each function writes the moves it makes and stores the procedure's record;
:mod:`.plans` calls them from the players' acts.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from cardzones.errors import IllegalAction
from cardzones.kernel.cards import Dest
from cardzones.kernel.objects import CARD, TRIGGERED
from cardzones.rulesets.fab import layers
from cardzones.rulesets.fab.cards import becomes_permanent
from cardzones.rulesets.fab.chain import LINKS, Chain
from cardzones.rulesets.fab.moves import hero_of
from cardzones.rulesets.fab.procedure import combat, leaving
from cardzones.rulesets.fab.procedure import effects as card_effects
from cardzones.rulesets.fab.procedure.state import (
    DEFEND,
    END,
    LAYER,
    PROCEDURE,
    Procedure,
    active_link,
    current,
    describe_result,
    next_player,
    players,
    remaining,
    store,
    with_priority,
)
from cardzones.rulesets.fab.procedure.timing import PRIORITY_ACTS as PRIORITY_ACTS
from cardzones.rulesets.fab.procedure.timing import priority_acts
from cardzones.rulesets.fab.quiet_points import QuietPoint, handed_on
from cardzones.rulesets.fab.turn import draw_to_intellect, finish_turn

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The kind of the log events of the procedure.
PROCEDURE_EVENT = "procedure"


def start_game(game: Game, first: str | None = None) -> None:
    """The start-of-game procedure (4.1), with the heroes, weapons and
    equipment in place already (4.1.2, 4.1.4, 4.1.8): the first player is
    ``first``, or else chosen by the game's secret randomness (4.1.3); every
    deck is shuffled (4.1.7); every player draws up to their hero's
    intellect and the first player's turn begins (4.1.9)."""
    if current(game) is not None:
        raise IllegalAction("the game is under the game procedure already", rule="4.1.1")
    if len(game.players) < 2:
        raise IllegalAction("a game has two players or more", rule="4.1.1")
    for player in game.players:
        hero_of(game, player)  # 4.1.2: refused, naming the player, without a hero
    if first is None:
        first = random.Random(f"{game.seed}:first-turn-player").choice(game.players)
    game.check_player(first)
    with game.atomic():
        if game.turn_player != first:
            game.set_turn_player(first)
        for player in game.players:
            deck = game.zone(player, "deck")
            if deck is not None and game.contents(deck):
                game.shuffle(deck, by=player)  # 4.1.7
        for player in game.players:
            draw_to_intellect(game, player)  # 4.1.9
        zero = tuple(0 for _ in game.players)
        chain = game.zone(None, "combat_chain")
        assert chain is not None
        store(game, Procedure(first, action_points=zero, resource_points=zero, chain=chain))
        game.log_event(PROCEDURE_EVENT, f"the game begins: {first} takes the first turn")
        begin_turn(game)


def begin_turn(game: Game) -> None:
    """The start phase (4.2) and the start of the action phase (4.3): the
    record of the new turn (:func:`~.state.new_turn`: 4.4.3e, 4.3.2, 4.3.3)
    is stored."""
    proc = current(game)  # a new turn's record once the turn changed
    assert proc is not None
    store(game, proc)


def give_priority(proc: Procedure, player: str | None) -> Procedure:
    """``player`` gains priority (1.11.3), and no one has passed since."""
    return with_priority(proc, player)


def who_acts(game: Game, proc: Procedure) -> str | None:
    """The player the procedure waits for: the defending player declaring
    defending cards (7.3.2), the turn player ending their turn (4.4.3b), or
    the player with priority (1.11.2); None once the game is over."""
    if proc.over:
        return None
    if proc.phase == END:
        return game.turn_player
    link = active_link(proc)
    if proc.step == DEFEND and not proc.declared and link is not None:
        return link.defender
    return proc.priority


#: The acts of the player the procedure waits for, by what it waits for
#: (:func:`awaited`), conceding aside (4.5.3c: any time); those of the player
#: with priority are :data:`~.timing.PRIORITY_ACTS` or fewer.
DEFEND_ACTS = ("defend",)
END_ACTS = ("finish_turn",)


def awaited(game: Game, proc: Procedure) -> tuple[str | None, tuple[str, ...]]:
    """The player the procedure waits for (:func:`who_acts`) and the names
    of the acts it lets them take now, conceding aside: ``finish_turn`` for
    the turn player in the end phase (4.4.3b), ``defend`` for the defending
    player declaring defending cards (7.3.2), and for the player with
    priority ``pass`` (1.11.4) with ``play`` and ``attack`` when a card or a
    weapon of theirs may be played or attack now by its timing (5.1, 5.2,
    8.1: :func:`~.timing.priority_acts`); no one and none once the game is
    over. A player's program asks legal actions for these names alone: the
    procedure's other acts give that player nothing now, so the list is the
    same, found sooner. Most of the time the player with priority may only
    pass: their listing is then ``pass`` alone. Which of ``play`` and
    ``attack`` are named depends on the cards of that player's hand and
    arsenal, as their legal actions do: the names are theirs to know, and
    are not shown to anyone else (a view shows :func:`who_acts`)."""
    # who_acts(game, proc), read in one pass: every act asks
    if proc.reason is not None:  # over
        return None, ()
    if proc.phase == END:
        return game.turn_player, END_ACTS
    priority = proc.priority
    if priority is None:
        links = proc.links
        if proc.step == DEFEND and not proc.declared and links and not links[-1].resolved:
            return links[-1].defender, DEFEND_ACTS  # the active link's (active_link)
        return None, ()
    return priority, priority_acts(game, proc, priority)


def pass_priority(game: Game, proc: Procedure) -> None:
    """1.11.4a: priority goes to the next player in clockwise order who is
    still in the game (4.5.1a); once every such player passed in succession,
    the top layer resolves, or with the stack empty the step or the phase
    ends."""
    passes = proc.passes + 1
    # every player is in the game until one loses (4.5.1a)
    losers, players = proc.losers, game.players
    if passes < (len(remaining(game, proc)) if losers else len(players)):
        assert proc.priority is not None
        if losers:
            following = next_player(game, proc.priority, losers)
        else:  # next_player's, with no one left out: every pass but the last asks
            following = players[(players.index(proc.priority) + 1) % len(players)]
        # The pass writes the record alone: fab's checks after the action
        # that found nothing before it find nothing after it (quiet_points).
        start = game.point
        store(game, with_priority(proc, following, passes))
        handed_on(start, game.point)
        return
    start = game.point
    chained = game.record(LINKS)
    before = proc
    if game.contents(layers.stack(game)):
        proc = resolve_top(game, proc)
    elif proc.step is not None:
        proc = combat.next_step(game, proc)
    else:
        end_action_phase(game, proc)
        return
    stepped = game.point is start  # the step itself wrote nothing
    # After a layer resolves and in each step of combat, the turn player
    # gains priority (1.11.3, 5.3.7, 7.2.5, 7.3.3, 7.4.2, 7.5.3, 7.6.3);
    # no one has it while the defending cards are declared (7.3.2).
    holder = None if proc.step == DEFEND and not proc.declared else game.turn_player
    proc = give_priority(proc, holder)
    store(game, proc)
    proc = _defend_nothing(game, proc)
    if stepped and _same_for_checks(before, proc, chained, game.record(LINKS)):
        # A step of combat that moved nothing (7.3.1, 7.4.1, 7.6.2): the
        # records written leave what fab's checks read as it was (quiet_points).
        handed_on(start, game.point)
    # A hero whose life the step's damage took to zero loses by the game
    # state action fab looks at after every action (4.5.3a, check_end): a
    # pass is one action, so it is looked at once, as the pass ends.


def _same_for_checks(
    before: Procedure, after: Procedure, chained: Chain | None, now: Chain | None
) -> bool:
    """Whether two records of the procedure and of the chain links, the
    writes of a step that wrote nothing else, leave fab's checks after an
    action where they were: the same players in the game, an end as it was
    (4.5.3a reads them), and the chain links' record holding the same zone
    and contents of it (what tells the end of an action whether anything
    arrived on the combat chain, 7.0.3a)."""
    if after.losers != before.losers or after.reason != before.reason:
        return False
    if chained is now:
        return True
    return (
        chained is not None
        and now is not None
        and chained.zone is not None
        and now.zone == chained.zone
        and now.cards is chained.cards
    )


def _defend_nothing(game: Game, proc: Procedure) -> Procedure:
    """A defending player with no card in hand and no equipment to defend
    with declares none, as everyone sees (7.3.2a): the game goes on."""
    link = active_link(proc)
    if proc.step != DEFEND or proc.declared or link is None:
        return proc
    hand = game.zone(link.defender, "hand")
    if hand is not None and game.contents(hand):
        return proc
    if combat.defending_cards(game, players(link)[1]):
        return proc
    proc = give_priority(proc._replace(declared=True), game.turn_player)
    store(game, proc)
    return proc


def resolve_top(game: Game, proc: Procedure) -> Procedure:
    """The top layer resolves (5.3): an attack becomes a chain link (7.1.3,
    7.2.3); a defense reaction becomes a defending card or fails (7.4.2d,
    8.1.3b, 5.3.2c); the effects of a card's text are generated (5.3.4,
    :mod:`.effects`), or it fails when its target is gone (5.3.2a); a hit's
    triggered-layer generates the hit's effects (6.6.1d); a card with go
    again gives its controller an action point (5.3.5, 8.3.5a); a card that
    becomes a permanent goes to the arena (5.3.6a); any other layer, an
    attack reaction among them (8.1.2b), leaves the stack as ``resolve``
    has it (5.3.7)."""
    top = game.contents(layers.stack(game))[0]
    obj = game.obj(top)
    by = obj.controller or obj.owner or game.turn_player
    if combat.is_attack(game, top):
        proc = combat.become_link(game, proc, top)
        link = active_link(proc)
        if obj.kind == CARD and link is not None and link.card == top:
            card_effects.resolve(game, proc, top, by, targeted=False)  # 5.3.4
        return proc
    if obj.kind == TRIGGERED and card_effects.resolve_hit_layer(game, top, by):
        return proc
    if obj.kind == CARD:
        cdef = game.characteristics(obj)
        if "defense_reaction" in cdef.types:
            defended = combat.defense_reaction_resolves(game, proc, top)
            if defended is not None:
                card_effects.resolve(game, defended, top, by)  # 5.3.4: "this gets +N{d}"
                return defended
            layers.resolve_layer(game, top, by)  # 5.3.2c: it fails, and is cleared
            return proc
        if not card_effects.resolve(game, proc, top, by):  # 5.3.4; 5.3.2a: it fails
            layers.resolve_layer(game, top, by)
            return proc
        if combat.has_go_again(game, top):
            proc = combat.gain_action_point(game, proc, by)
        if obj.public and becomes_permanent(cdef, "permanent"):
            game.move(top, Dest("permanent"), cause="rule", by=by)
            return proc
    layers.resolve_layer(game, top, by)
    return proc


def end_action_phase(game: Game, proc: Procedure) -> None:
    """4.3.4: with the stack empty, the combat chain closed and every player
    passing, the action phase ends and the end phase begins. The turn player
    chooses whether to put a card into their arsenal (4.4.3b), so the game
    waits for them when they can; otherwise the end phase runs at once."""
    proc = give_priority(proc._replace(phase=END), None)
    store(game, proc)
    if not arsenal_choice(game, game.turn_player):
        end_turn(game, None, ())


def arsenal_choice(game: Game, player: str) -> bool:
    """Whether ``player`` has a card in hand and an empty arsenal zone (4.4.3b)."""
    hand = game.zone(player, "hand")
    if hand is None or not game.contents(hand):
        return False
    return any(not game.contents(zid) for zid in game.zones_of(player, "arsenal"))


def end_turn(game: Game, arsenal: int | None, order: tuple[int, ...]) -> None:
    """The end phase (4.4) as ``finish_turn`` has it (arsenal, pitch to the
    bottom of the decks, draws up to intellect, 4.4.3b, c, f); every player
    loses their action and resource points (4.4.3e); the next turn begins
    (4.4.4, 4.2). It is a step of an act (a pass or ``finish_turn``): a
    hero at zero life after it loses by the game state action fab looks at
    once the act is over (4.5.3a, :func:`check_end`), as after any other."""
    finish_turn(game, arsenal, order)
    begin_turn(game)


def check_end(game: Game) -> None:
    """4.5.3a: a player still in the game whose hero's life total is zero or
    less, or who has no hero, loses (:func:`lose`). A game state action,
    looked at after every action."""
    # Who is still in the game and whether it is over are the stored record's
    # alone (what current() makes of it for a new turn or a lost chain link
    # changes neither): the record as current() gives it is read only when a
    # player lost, most actions ending with no one at zero.
    point = game.point
    if _NO_LOSER.still(point):
        return  # no one lost here, or before priority was handed on to here
    stored = game.record(PROCEDURE)
    if not isinstance(stored, Procedure) or stored.reason is not None:  # over
        return
    # It runs after every action: one loop, each hero's life read once.
    losers = stored.losers
    zones_of, contents, stat = game.zones_of, game.contents, game.stat
    lost: tuple[str, ...] = ()
    for player in game.players:
        if player in losers:
            continue
        zids = zones_of(player, "hero")
        heroes = contents(zids[0]) if zids else ()
        if heroes:
            life = stat(heroes[0], "life")
            if life is None or life > 0:
                continue
        lost += (player,)  # no hero (3.11.3), or a life total of zero or less
    if lost:
        proc = current(game)
        assert proc is not None
        lose(game, proc, lost, "4.5.3a: life total reduced to zero")
    else:
        _NO_LOSER.found_nothing(point)


#: Where :func:`check_end` last found no player to lose: a hero's life total
#: is read from its object and the effects on it, which a pass that hands on
#: priority leaves alone.
_NO_LOSER = QuietPoint("end of the game")


def lose(game: Game, proc: Procedure, lost: tuple[str, ...], reason: str) -> None:
    """The players in ``lost`` lose (4.5.3). With one player left, or none,
    the game ends (:func:`end_game`); with more, the losers leave it and the
    others play on (4.5.1a, :func:`~.leaving.leave`)."""
    left = [p for p in remaining(game, proc) if p not in lost]
    if len(left) <= 1:
        end_game(game, proc, lost, reason)
        return
    for player in lost:
        game.log_event(PROCEDURE_EVENT, f"{player} loses ({reason}) and leaves the game")
    leaving.leave(game, proc, lost)


def end_game(game: Game, proc: Procedure, lost: tuple[str, ...], reason: str) -> None:
    """The players in ``lost`` lose (4.5.3); when one player remains, they
    win, all their opponents having lost (4.5.2a), and when none does, the
    game is a draw for the remaining players (4.5.4a); either way the game
    ends (4.5.1) and no one has priority."""
    losers = (*proc.losers, *lost)
    left = [p for p in game.players if p not in losers]
    winner = left[0] if len(left) == 1 else None
    proc = give_priority(proc._replace(losers=losers, winner=winner, reason=reason), None)
    store(game, proc)
    game.log_event(PROCEDURE_EVENT, f"the game ends: {describe_result(proc)}")


def opens_layer_step(proc: Procedure) -> Procedure:
    """An attack added to the stack opens the combat chain, or ends the
    resolution step, and the layer step begins (7.0.2a, 7.6.3)."""
    return proc._replace(step=LAYER)
