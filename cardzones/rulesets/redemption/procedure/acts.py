"""The players' acts of the game procedure, as actions of the Redemption
table.

Each act is its plan and its apply (:mod:`.turn`, :mod:`.battle`,
:mod:`.dominant`): the action's ``foresee`` is the plan (refused, it raises
as the act would), and its ``run`` applies the plan, as one action. So legal
actions list exactly the plans that succeed, and no rule is written twice.
The candidates are what the acting player may know alone: their own cards,
cards in play, and the game's public state.

Outside the procedure (a game without its state, :mod:`.state`) the acts
have no candidates and are refused, and every other action keeps its meaning.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from cardzones.acts.actions import Action, ActionResult, Param, ParamKind, Role, acting
from cardzones.acts.seats import actable_cards, nameable_cards
from cardzones.acts.standard import BY
from cardzones.kernel.results import MoveResult
from cardzones.rulesets.common import Candidate, in_zone_of_type, visible
from cardzones.rulesets.redemption.procedure import battle, dominant, turn
from cardzones.rulesets.redemption.procedure.state import BLOCK, Procedure, current
from cardzones.rulesets.redemption.turns import PHASES
from cardzones.rulesets.redemption.zones import HAND, LAND_OF_BONDAGE, TERRITORY

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

K = ParamKind
#: What an act's plan is: each act has its own (a NamedTuple of its module).
P = TypeVar("P")
Listed = Callable[["Game", str, Procedure], Iterator[Candidate]]


def _act(
    name: str,
    params: tuple[Param, ...],
    plan: Callable[[Game, Mapping[str, Any]], P],
    apply: Callable[[Game, P], None],
    listed: Listed,
    doc: str,
    rules: tuple[str, ...],
    turn_player: bool = False,
) -> Action:
    """An act whose foresee is its plan and whose run applies its plan;
    ``turn_player`` for an act only the turn player makes (a table refuses
    it from another seat before the rules are asked)."""

    def run(game: Game, args: Mapping[str, Any]) -> ActionResult:
        with game.atomic():
            apply(game, plan(game, args))
        return ActionResult(MoveResult.DONE)

    def foresee(game: Game, args: Mapping[str, Any]) -> MoveResult:
        plan(game, args)
        return MoveResult.DONE

    def candidates(game: Game, player: str) -> Iterator[Candidate]:
        state = current(game)
        if state is not None and state.winner is None:
            yield from listed(game, player, state)

    return Action(
        name,
        params,
        run,
        doc=doc,
        rules=rules,
        candidates=candidates,
        foresee=foresee,
        turn_player=turn_player,
    )


def _fighting(game: Game, args: Mapping[str, Any]) -> str:
    """The acting player of a battle act: the one given, else the one with
    initiative (the defender while the block is open)."""
    given: str | None = args.get("by")
    if given is not None:
        return given
    state = current(game)
    if state is None or state.battle is None:
        return game.turn_player
    return battle.initiative(game, state.battle)


def _own(game: Game, player: str, *ztypes: str) -> list[int]:
    """The player's own cards in their zones of ``ztypes``, as they see them."""
    return [
        c
        for c in visible(game, player, actable_cards(game, player))
        if any(in_zone_of_type(game, c, z, player) for z in ztypes)
    ]


# -- candidates ------------------------------------------------------------


def _open_listed(game: Game, player: str, state: Procedure) -> Iterator[Candidate]:
    if not state.opened and player == game.turn_player:
        yield {}


def _proceed_listed(game: Game, player: str, state: Procedure) -> Iterator[Candidate]:
    if player != game.turn_player or state.battle is not None:
        return
    yield {}
    here = PHASES.index(game.phase) if game.phase in PHASES else 0
    for later in PHASES[here + 2 :]:
        yield {"to": later}


def _hand_listed(game: Game, player: str, state: Procedure) -> Iterator[Candidate]:
    if player == game.turn_player:
        for card in _own(game, player, HAND):
            yield {"card": card}


def _rescue_listed(game: Game, player: str, state: Procedure) -> Iterator[Candidate]:
    if player != game.turn_player or state.battle is not None:
        return
    # opponent/any-other-player: the Lost Souls of every opponent, whichever
    # the player chooses to rescue from.
    souls = [
        c
        for c in visible(game, player, nameable_cards(game, player))
        if any(in_zone_of_type(game, c, LAND_OF_BONDAGE, p) for p in game.opponents(player))
    ]
    for hero in _own(game, player, HAND, TERRITORY):
        for soul in souls:
            yield {"hero": hero, "soul": soul}


def _block_listed(game: Game, player: str, state: Procedure) -> Iterator[Candidate]:
    if state.battle is not None and state.battle.stage == BLOCK:
        for card in _own(game, player, HAND, TERRITORY):
            yield {"card": card}


def _enhance_listed(game: Game, player: str, state: Procedure) -> Iterator[Candidate]:
    fight = state.battle
    if fight is None or fight.stage == BLOCK:
        return
    side = fight.heroes if player == fight.rescuer else fight.blockers
    characters = battle.live(game, side)
    for card in _own(game, player, HAND):
        for on in characters:
            yield {"card": card, "character": on}


def _pass_listed(game: Game, player: str, state: Procedure) -> Iterator[Candidate]:
    if state.battle is not None:
        yield {}


def _dominant_listed(game: Game, player: str, state: Procedure) -> Iterator[Candidate]:
    if not state.opened:
        return
    dominants = [c for c in _own(game, player, HAND) if "dominant" in game.obj(c).cdef.types]
    if not dominants:
        return
    targets = [c for c in visible(game, player, nameable_cards(game, player)) if game.in_play(c)]
    for card in dominants:
        for target in targets:
            yield {"card": card, "target": target}


# -- the acts --------------------------------------------------------------

CARD = Param("card", K.CARD, required=True, doc="the card, from the player's own hand")

OPEN_GAME = _act(
    "open_game",
    (BY, Param("shuffle", K.BOOL, default=True, doc="false: draw the decks as they lie")),
    lambda g, a: turn.plan_open(g, acting(g, a), a["shuffle"]),
    turn.apply_open,
    _open_listed,
    "Open the game: shuffle every deck, draw every opening hand (Lost Souls go to the Land "
    "of Bondage and are replaced), then the first player's draw phase draws three.",
    ("game-start/shuffle", "game-start/opening-hand", "draw-phase/three-cards"),
    turn_player=True,
)
PROCEED = _act(
    "proceed",
    (BY, Param("to", K.CHOICE, options=PHASES, doc="a later phase (default: the next)")),
    lambda g, a: turn.plan_proceed(g, acting(g, a), a["to"]),
    turn.apply_proceed,
    _proceed_listed,
    "Go on to the next phase (or the one named); from the discard phase, end the turn: the "
    "next player draws three in their draw phase.",
    ("phases/order", "discard-phase/hand-limit", "draw-phase/three-cards"),
    turn_player=True,
)
DISCARD_DOWN = _act(
    "discard_down",
    (CARD, BY),
    lambda g, a: turn.plan_discard_down(g, acting(g, a), a["card"]),
    turn.apply_discard_down,
    _hand_listed,
    "In the discard phase, discard a card of a hand over the limit of eight.",
    ("discard-phase/hand-limit",),
    turn_player=True,
)
TO_TERRITORY = _act(
    "to_territory",
    (CARD, BY),
    lambda g, a: turn.plan_to_territory(g, acting(g, a), a["card"]),
    turn.apply_to_territory,
    _hand_listed,
    "In the preparation phase, put a character, Fortress, Site or Artifact from hand in the "
    "territory.",
    ("territory/cards-put-there",),
    turn_player=True,
)
RESCUE = _act(
    "rescue",
    (
        Param("hero", K.CARD, required=True, doc="the Hero, from hand or territory"),
        Param("soul", K.CARD, required=True, role=Role.TARGET, doc="the Lost Soul to rescue"),
        BY,
    ),
    lambda g, a: battle.plan_rescue(g, acting(g, a), a["hero"], a["soul"]),
    battle.apply_rescue,
    _rescue_listed,
    "Make the turn's rescue attempt: the Hero enters the Field of Battle to rescue the Lost "
    "Soul named; the defender may block.",
    ("battle-phase/present-hero", "rescue-attempt/one-per-turn"),
    turn_player=True,
)
BLOCK_ACT = _act(
    "block",
    (Param("card", K.CARD, required=True, doc="the Evil Character, from hand or territory"), BY),
    lambda g, a: battle.plan_block(g, _fighting(g, a), a["card"]),
    battle.apply_block,
    _block_listed,
    "Block the rescue attempt with an Evil Character.",
    ("card-type/evil-characters-block",),
)
ENHANCE = _act(
    "enhance",
    (
        CARD,
        Param("character", K.CARD, required=True, doc="the player's own character in battle"),
        BY,
    ),
    lambda g, a: battle.plan_enhance(g, _fighting(g, a), a["card"], a["character"]),
    battle.apply_enhance,
    _enhance_listed,
    "With initiative, play an enhancement from hand on a character of one's side of battle.",
    (
        "initiative/next-enhancement",
        "card-type/enhancement-alignment",
        "card-type/enhancement-brigade",
    ),
)
PASS = _act(
    "pass",
    (BY,),
    lambda g, a: battle.plan_pass(g, _fighting(g, a)),
    battle.apply_pass,
    _pass_listed,
    "Decline the block, or play no enhancement: a losing player's pass ends the battle; in a "
    "stalemate or mutual destruction it passes initiative, and two passes end it.",
    ("initiative/losing-player", "initiative/stalemate-or-mutual", "battle-resolution/outcomes"),
)
PLAY_DOMINANT = _act(
    "play_dominant",
    (
        CARD,
        Param("target", K.CARD, required=True, role=Role.TARGET, doc="the card it is played on"),
        BY,
    ),
    lambda g, a: dominant.plan_dominant(g, acting(g, a), a["card"], a["target"]),
    dominant.apply_dominant,
    _dominant_listed,
    "Play a dominant that discards or rescues a card of the type its text names.",
    ("dominant/any-phase", "card-type/named-type"),
)


def drawing_lost_souls(shared: Action) -> Action:
    """The shared ``draw`` (a judge's action while the procedure runs), which
    under the procedure draws as every draw of the game does: a Lost Soul
    drawn goes to its owner's Land of Bondage and another card is drawn
    (draw-phase/lost-soul-replaced), as far as the deck goes
    (draw-phase/empty-deck). Outside the procedure it is the shared draw."""

    def run(game: Game, args: Mapping[str, Any]) -> ActionResult:
        if current(game) is None:
            return shared.run(game, args)
        player = args["player"] if args["player"] is not None else acting(game, args)
        with game.atomic():
            kept = turn.draw(game, player, args["count"])
        return ActionResult(MoveResult.MOVED if kept else MoveResult.DONE)

    def foresee(game: Game, args: Mapping[str, Any]) -> MoveResult | None:
        if current(game) is None and shared.foresee is not None:
            return shared.foresee(game, args)
        return None  # where the Lost Souls lie, only drawing tells

    return replace(
        shared,
        run=run,
        foresee=foresee,
        doc=f"{shared.doc} Under the game procedure a Lost Soul drawn goes to its owner's "
        "Land of Bondage and another card is drawn.",
        rules=(*shared.rules, "draw-phase/lost-soul-replaced"),
    )


#: The procedure's acts, in the order a turn meets them.
PROCEDURE_ACTIONS = (
    OPEN_GAME,
    PROCEED,
    TO_TERRITORY,
    RESCUE,
    BLOCK_ACT,
    ENHANCE,
    PASS,
    DISCARD_DOWN,
    PLAY_DOMINANT,
)
#: Their names: what legal actions offer while the procedure runs.
PROCEDURE_NAMES = frozenset(a.name for a in PROCEDURE_ACTIONS)
#: The same names, in the order of the action table.
PROCEDURE_ORDER = tuple(a.name for a in PROCEDURE_ACTIONS)
