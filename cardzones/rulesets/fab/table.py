"""The fab action table: the shared actions, with fab's own move (the hero's
soul as a destination, 3.11.5), and clear, put_under, play, pitch, add_layer,
remove_layer, resolve, create_token, create_zone, remove_zone, life
(4.4.3a), tap and untap (1.3.3b) and allow_look (3.7.4).

>>> sorted(ACTIONS)[:4]
['add_layer', 'allow_look', 'attack', 'clear']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardzones.acts.actions import (
    NO_CARD,
    Action,
    ActionResult,
    ArgumentError,
    Param,
    ParamKind,
    Role,
    acting,
    action_table,
)
from cardzones.acts.binding import complete
from cardzones.acts.counters import life_action, life_candidates
from cardzones.acts.legal import judging
from cardzones.acts.standard import BY, CHOOSE_ZONES, move_action
from cardzones.acts.zone_choices import ZoneChoice, ZoneChoices, choices, chosen, stand
from cardzones.errors import IllegalAction, NeedsChoice
from cardzones.kernel.cards import Chosen, Dest
from cardzones.kernel.effects import END_OF_TURN
from cardzones.kernel.results import MoveResult
from cardzones.kernel.views import name_for
from cardzones.rulesets.common import shared_actions
from cardzones.rulesets.fab import actions as fab
from cardzones.rulesets.fab import candidates as cand
from cardzones.rulesets.fab import layers, pitch
from cardzones.rulesets.fab import turn as fab_turn
from cardzones.rulesets.fab.admission import cannot_take
from cardzones.rulesets.fab.cards import NUMBERS
from cardzones.rulesets.fab.looking import ALLOW_LOOK
from cardzones.rulesets.fab.move_foresight import move_class
from cardzones.rulesets.fab.moves import foresee_sub_card
from cardzones.rulesets.fab.offers import offers_play
from cardzones.rulesets.fab.procedure.acts import procedure_table
from cardzones.rulesets.fab.tapping import TAP, UNTAP
from cardzones.rulesets.fab.turn_foresight import foresee_end_turn, foresee_finish_turn

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

K = ParamKind
CARD = Param("card", K.CARD, required=True, doc="the card")
CHOOSE_GRAVEYARD = Param(
    "choose_zone",
    K.ZONE_CHOICE,
    doc="which of its owner's graveyards a card goes to, when there are several; by player "
    "or card when the cards have several owners (3.0.10a)",
)


MOVE = move_action(
    doc="Move a card: the one general move. PLAYER.soul puts it under that player's hero "
    "(3.11.5); arena means the permanent zone (3.0.5a).",
    rules=("3.0.5a", "3.0.7", "3.0.8", "3.0.9b", "3.0.11", "3.0.13", "3.11.5"),
    alike=move_class,
)


def _chosen(game: Game, args: Mapping[str, Any]) -> tuple[Chosen, ...]:
    """The graveyard ``choose_zone`` names for the cards the action clears, or
    the choices it gives by player or card."""
    choose: ZoneChoice = args["choose_zone"]
    if choose is None or isinstance(choose, ZoneChoices):
        return chosen(choose, game)
    ztype = game.ruleset.clear_to
    if game.zone_info(choose).type != ztype:
        raise IllegalAction(
            f"choose_zone names the {ztype} a card goes to; {game.zone_name(choose)} is not one",
            rule="3.0.10a",
        )
    return chosen(choose, game)


def _clear(game: Game, args: Mapping[str, Any]) -> ActionResult:
    # 3.0.12 sends it to "its owner's graveyard"; of several, the owner
    # chooses (3.0.10a).
    with game.choosing(_chosen(game, args)):
        return ActionResult(game.clear(args["card"], by=acting(game, args)))


def _put_under(game: Game, args: Mapping[str, Any]) -> ActionResult:
    return ActionResult(fab.put_under(game, args["card"], args["top"], acting(game, args)))


def _play(game: Game, args: Mapping[str, Any]) -> ActionResult:
    return ActionResult(fab.play(game, args["card"], acting(game, args)))


def _add_layer(game: Game, args: Mapping[str, Any]) -> ActionResult:
    with game.atomic():
        card = layers.add_layer(game, args["kind"], args["source"], acting(game, args))
    return ActionResult(MoveResult.DONE, card=card, effect=layers.LayerRef(card))


def _remove_layer(game: Game, args: Mapping[str, Any]) -> ActionResult:
    # A card-layer removed is cleared (3.15.6, 3.0.12): of several
    # graveyards, its owner chooses (3.0.10a).
    with game.atomic(), choices(game, args["choose_zone"]):
        return ActionResult(layers.remove_layer(game, args["layer"], acting(game, args)))


def _resolve(game: Game, args: Mapping[str, Any]) -> ActionResult:
    # A card-layer goes to its owner's graveyard (3.15.5); of several, the
    # owner chooses (3.0.10a).
    with game.atomic(), game.choosing(_chosen(game, args)):
        return ActionResult(layers.resolve_top(game, acting(game, args)))


def _pitch(game: Game, args: Mapping[str, Any]) -> ActionResult:
    """Pitch: the move of a card from a hand to its owner's pitch zone, made by
    the hand's owner; so it logs the events that move logs (3.14.1, 3.14.2)."""
    card = args["card"]
    obj = game.obj(card)
    info = game.zone_info(obj.zone)
    by: str | None = args["by"]
    if info.type != "hand" or obj.host is not None or info.owner is None:
        who = by if by is not None else game.turn_player
        raise IllegalAction(
            f"a card is pitched from its owner's hand, and {name_for(game, who, card)} is in "
            f"{game.zone_name(obj.zone)}"
        )
    if by is not None and by != info.owner:
        raise IllegalAction(f"only {info.owner} pitches from {game.zone_name(obj.zone)}")
    args = complete(MOVE, {"card": card, "to": Dest("pitch", info.owner), "by": info.owner})
    return MOVE.run(game, args)


def _controller(game: Game, args: Mapping[str, Any]) -> str:
    """A token's controller: the one given, or else the player making it."""
    controller: str | None = args["controller"]
    return controller if controller is not None else acting(game, args)


def _foresee_clear(game: Game, args: Mapping[str, Any]) -> MoveResult | None:
    """3.0.12, with the owner's choice of graveyard (3.0.10a)."""
    with game.choosing(_chosen(game, args)):
        return game.foresee_clear(args["card"], acting(game, args))


def _zone_choice(game: Game, args: Mapping[str, Any]) -> ActionResult:
    _foresee_zone_choice(game, args)
    with game.atomic():
        stand(game, acting(game, args), args["zone"])
    return ActionResult(MoveResult.DONE)


def _foresee_zone_choice(game: Game, args: Mapping[str, Any]) -> MoveResult:
    """3.0.10a: a player chooses ahead among zones of their own."""
    player, zone = acting(game, args), args["zone"]
    if game.zone_info(zone).owner != player:
        raise IllegalAction(
            f"{player} chooses ahead among their own zones, and {game.zone_name(zone)} is not one",
            rule="3.0.10a",
        )
    return MoveResult.DONE


def _pitch_order(game: Game, args: Mapping[str, Any]) -> ActionResult:
    with game.atomic():
        pitch.choose_order(game, acting(game, args), args["order"])
    return ActionResult(MoveResult.DONE)


def _foresee_pitch_order(game: Game, args: Mapping[str, Any]) -> MoveResult:
    """4.4.3c: an order of the cards of one's pitch zone is always chosen."""
    pitch.check_order(game, acting(game, args), args["order"])
    return MoveResult.DONE


def _foresee_put_under(game: Game, args: Mapping[str, Any]) -> MoveResult:
    """3.0.14, each top-card judged once while legal actions are listed."""
    memo = judging(game)
    tops = None if memo is None else memo.setdefault("fab.sub_card_tops", {})
    return foresee_sub_card(game, args["card"], args["top"], tops)


def _foresee_play(game: Game, args: Mapping[str, Any]) -> MoveResult:
    """3.3.4, 3.0.4e, 3.0.9c: a card that may be played goes on the stack."""
    if not game.may_play(args["card"], acting(game, args)):
        raise IllegalAction("the card may not be played")  # play says why
    return MoveResult.MOVED


def _foresee_pitch(game: Game, args: Mapping[str, Any]) -> MoveResult | None:
    """What the move of a pitch would give (3.14.2)."""
    obj = game.obj(args["card"])
    info = game.zone_info(obj.zone)
    by: str | None = args["by"]
    if info.type != "hand" or obj.host is not None or info.owner is None:
        raise IllegalAction("a card is pitched from its owner's hand")  # pitch says why
    if by is not None and by != info.owner:
        raise IllegalAction(f"only {info.owner} pitches from {game.zone_name(obj.zone)}")
    with choices(game, None):  # as the move's run reads them (3.0.10a)
        return game.foresee_move(args["card"], Dest("pitch", info.owner), by=info.owner)


def _foresee_add_layer(game: Game, args: Mapping[str, Any]) -> MoveResult:
    """1.6.1b: a layer from a card the player may look at goes on the stack."""
    layers.check_layer(game, args["kind"], args["source"], acting(game, args))
    return MoveResult.DONE


def _foresee_create_zone(game: Game, args: Mapping[str, Any]) -> MoveResult:
    """3.0.10: a player's zone of any type that is not shared."""
    zone: Dest = args["zone"]
    if game.spec(zone.type).shared:
        raise IllegalAction(f"there is only one {zone.type} zone", rule="3.0.10")
    return MoveResult.DONE


def _create_token(game: Game, args: Mapping[str, Any]) -> ActionResult:
    dest: Dest = args["to"]
    if dest.type == "soul":
        raise ArgumentError("a token is created in the arena (8.1.8a)", ("to",))
    result, card = fab.try_create_token(
        game, args["card"], dest, _controller(game, args), choose_zone=args["choose_zone"]
    )
    return ActionResult(result, card=NO_CARD if card is None else card)


def _foresee_create_token(game: Game, args: Mapping[str, Any]) -> MoveResult:
    """8.1.8a, 8.5.41d: judged as the token is, before it exists."""
    dest: Dest = args["to"]
    if dest.type == "soul":
        raise ArgumentError("a token is created in the arena (8.1.8a)", ("to",))
    return fab.foresee_token(
        game, args["card"], dest, _controller(game, args), choose_zone=args["choose_zone"]
    )


def _create_zone(game: Game, args: Mapping[str, Any]) -> ActionResult:
    zone: Dest = args["zone"]
    assert zone.owner is not None
    fab.create_zone(game, zone.owner, zone.type)
    return ActionResult(MoveResult.DONE)


def _remove_zone(game: Game, args: Mapping[str, Any]) -> ActionResult:
    zone: Dest = args["zone"]
    choose: ZoneChoice = args["choose_zone"]
    if isinstance(choose, ZoneChoices):  # the graveyards, by player or card (3.0.10a)
        with choices(game, choose):
            return _removed(game, zone, None)
    with choices(game, None):
        return _removed(game, zone, choose)


def _removed(game: Game, zone: Dest, choose: int | None) -> ActionResult:
    """remove_zone, with one zone named in ``choose_zone``."""
    assert zone.owner is not None
    victim: int | None = None
    if zone.index is not None:
        victim = game.zone(zone.owner, zone.type, zone.index)
        if victim is None:
            raise IllegalAction(f"{zone} does not exist", rule="3.0.10")
    elif choose is not None and choose in game.zones_of(zone.owner, zone.type):
        # choose_zone names the zone that ceases (3.0.10c) ...
        victim, choose = choose, None
    # ... or, of the owner's graveyards, the one its cards go to (3.0.10a).
    graveyard = () if choose is None else (choose,)
    try:
        return ActionResult(fab.remove_zone(game, zone.owner, zone.type, victim, chosen=graveyard))
    except NeedsChoice as needed:
        if victim is None or zone.index is not None or needed.key != "choose_zone":
            raise
        raise IllegalAction(
            f"{needed}; choose_zone named the zone that ceases, so name that one in zone: "
            f"({game.zone_name(victim)}) and the other choice in choose_zone:",
            rule=needed.rule,
        ) from None


def _life_lasts(game: Game, card: int) -> str | None:
    """A hero's life total keeps its changes; an ally's is reset to its base
    life at the end of the turn (4.4.3a)."""
    return None if "hero" in game.characteristics(card).types else END_OF_TURN


def _attack(game: Game, args: Mapping[str, Any]) -> ActionResult:
    proxy = fab_turn.attack(game, args["card"], acting(game, args))
    return ActionResult(MoveResult.DONE, card=proxy, effect=layers.LayerRef(proxy))


def _foresee_attack(game: Game, args: Mapping[str, Any]) -> MoveResult:
    """1.4.3: an attack-proxy goes on the stack for a weapon that may attack."""
    fab_turn.check_attack(game, args["card"], acting(game, args))
    return MoveResult.DONE


def _close_chain(game: Game, args: Mapping[str, Any]) -> ActionResult:
    chain = fab_turn.combat_chain(game)
    if not game.contents(chain):
        raise IllegalAction("the combat chain is empty: there is nothing to close")
    with game.atomic(), choices(game, args["choose_zone"]):
        fab_turn.close_combat_chain(game, game.turn_player)
    return ActionResult(MoveResult.DONE)


def _finish_turn(game: Game, args: Mapping[str, Any]) -> ActionResult:
    # Of two empty arsenals (3.3.3b), two graveyards for the chain's cards or
    # two decks for the pitch, each card's owner chooses (3.0.10a).
    with choices(game, args["choose_zone"]):
        return ActionResult(fab_turn.finish_turn(game, args["arsenal"], args["order"] or ()))


def _foresee_finish_turn(game: Game, args: Mapping[str, Any]) -> MoveResult | None:
    """4.4.3: each step judged as its moves are."""
    with choices(game, args["choose_zone"]):
        return foresee_finish_turn(game, args["arsenal"])


def _foresee_end_turn(game: Game, args: Mapping[str, Any]) -> MoveResult | None:
    """4.4.3c: the pitch goes to the bottom of the decks, whatever the order."""
    with choices(game, args["choose_zone"]):
        return foresee_end_turn(game)


FAB_ACTIONS = (
    Action(
        "attack",
        (Param("card", K.CARD, required=True, doc="the equipped weapon that attacks"), BY),
        _attack,
        doc="Attack with a weapon: its attack-proxy goes on the stack as a layer, and "
        "resolving it makes it a chain link on the combat chain; as: names the attack.",
        rules=("1.4.1a", "1.4.1b", "1.4.3", "1.4.3a", "1.4.3b", "1.4.3c", "3.6.2"),
        candidates=cand.attack,
        foresee=_foresee_attack,
    ),
    Action(
        "close_chain",
        (BY, CHOOSE_ZONES),
        _close_chain,
        doc="Close the combat chain: attack-proxies cease, an attacking ally goes back to "
        "the permanent zone, and every other card goes to its owner's graveyard.",
        rules=("1.4.3c", "3.6.2"),
        actor=None,
        turn_player=True,
        candidates=cand.close_chain,
    ),
    Action(
        "finish_turn",
        (
            Param(
                "arsenal",
                K.CARD,
                doc="a card of the turn player's hand to put face down into an empty arsenal",
            ),
            Param(
                "order",
                K.CARDS,
                doc="the pitched cards as they will lie at the bottom of the deck, top first",
            ),
            BY,
            CHOOSE_ZONES,
        ),
        _finish_turn,
        doc="End the turn as the rules do: the combat chain closes, the end-of-turn "
        "procedure runs (arsenal, pitch to the bottom of the deck, draw up to intellect), "
        "and the next turn begins.",
        rules=("4.4.3", "4.4.3a", "4.4.3b", "4.4.3c", "4.4.3d", "4.4.3f"),
        actor=None,
        turn_player=True,
        candidates=cand.finish_turn,
        foresee=_foresee_finish_turn,
    ),
    life_action(_life_lasts, rules=("4.4.3a",), candidates=life_candidates),
    Action(
        "clear",
        (CARD, BY, CHOOSE_GRAVEYARD),
        _clear,
        doc="Clear an object.",
        rules=("3.0.10a", "3.0.12", "3.0.12a"),
        candidates=cand.clear,
        foresee=_foresee_clear,
        # 3.0.12: an object is cleared by a rule or an effect (3.0.11, 3.0.14e,
        # a layer that resolves), never as a player's choice; clearing one by
        # hand is a judge's correction.
        judge=True,
    ),
    Action(
        "put_under",
        (
            Param("card", K.CARD, required=True, doc="the card that becomes a sub-card"),
            Param("top", K.CARD, required=True, doc="the permanent or card on the stack"),
            BY,
        ),
        _put_under,
        doc="Make a card a sub-card: a new object with its top-card's visibility.",
        rules=("3.0.14", "3.0.14b", "3.0.14c", "3.0.14d"),
        candidates=cand.put_under,
        foresee=_foresee_put_under,
        # 3.0.14: a card becomes a sub-card through a card's effect, which the
        # engine does not carry; putting one under by hand is a judge's
        # correction.
        judge=True,
    ),
    Action(
        "play",
        (CARD, Param("by", K.PLAYER, doc="the player who plays it (default: the turn player)")),
        _play,
        doc="Put a card on the stack as a card-layer; refused unless it may be played.",
        rules=("1.3.1b", "1.6.2a", "3.0.4e", "3.0.9c", "3.3.4"),
        candidates=cand.play,
        foresee=_foresee_play,
        # When a card is played is its type's rule, not the zones': the action
        # accepts any play the zone rules allow, and legal actions offer only
        # those the turn makes sense of.
        offer=offers_play,
    ),
    Action(
        "pitch",
        (
            CARD,
            Param("by", K.PLAYER, doc="the player who pitches it (default: the hand's owner)"),
        ),
        _pitch,
        doc="Pitch a card: move it from its owner's hand to their pitch zone; the same "
        "events as that move.",
        rules=("3.14.1", "3.14.2"),
        candidates=cand.pitch,
        foresee=_foresee_pitch,
    ),
    Action(
        "pitch_order",
        (
            Param(
                "order",
                K.CARDS,
                required=True,
                doc="cards of the player's pitch zone, as they will lie at the bottom of the "
                "deck, top first",
            ),
            BY,
        ),
        _pitch_order,
        doc="Choose the order in which one's pitched cards go to the bottom of the deck at "
        "the end of the turn: a hidden choice, logged nowhere.",
        rules=("4.4.3c",),
        candidates=cand.pitch_order,
        foresee=_foresee_pitch_order,
    ),
    Action(
        "zone_choice",
        (Param("zone", K.ZONE, required=True, role=Role.OWN_ZONE, doc="one of one's zones"), BY),
        _zone_choice,
        doc="Choose ahead which of one's zones of a type one's cards go to, when an action "
        "moves them into that type and there are several: until one chooses another; a "
        "choice given in the act comes first. Logged nowhere.",
        rules=("3.0.10a",),
        candidates=cand.zone_choice,
        foresee=_foresee_zone_choice,
    ),
    Action(
        "add_layer",
        (
            Param(
                "kind",
                K.CHOICE,
                required=True,
                options=("activated", "triggered"),
                doc="the kind of layer",
            ),
            Param("source", K.CARD, required=True, doc="the card it comes from"),
            BY,
        ),
        _add_layer,
        doc="Put an activated- or triggered-layer on the stack; as: names the layer.",
        rules=("1.6.1a", "1.6.1b", "3.15.4"),
        candidates=cand.add_layer,
        foresee=_foresee_add_layer,
        distinct=True,  # one of each kind a card
    ),
    Action(
        "remove_layer",
        (
            Param(
                "layer",
                K.INT,
                required=True,
                bounds=(1, 9_999),
                doc="the layer's number, 1 at the bottom",
            ),
            BY,
            CHOOSE_GRAVEYARD,
        ),
        _remove_layer,
        doc="Remove a layer: a card-layer is cleared, a non-card layer ceases.",
        rules=("3.15.6",),
        turn_player=True,
        candidates=cand.remove_layer,
    ),
    Action(
        "resolve",
        (BY, CHOOSE_GRAVEYARD),
        _resolve,
        doc="Resolve the top layer.",
        rules=("3.15.5", "3.0.9a", "3.0.10a"),
        # At a table, resolving stands for "every player passed": the turn
        # player's to say.
        turn_player=True,
        candidates=cand.resolve,
    ),
    Action(
        "create_token",
        (
            Param("card", K.NAME, required=True, doc="the token's name"),
            Param("to", K.DEST, required=True, doc="the arena zone it is created in"),
            Param(
                "controller",
                K.PLAYER,
                role=Role.ANY_PLAYER,
                doc="its controller (default: the acting player; in a scenario the turn player)",
            ),
            Param("choose_zone", K.ZONE, doc="which zone, when several can take it"),
            Param("by", K.PLAYER, doc="the player making it (default: the turn player)"),
        ),
        _create_token,
        doc="Create a token in the arena, equipped in an equipment or weapon zone; "
        "as: names the token.",
        rules=("8.1.8a", "8.5.41d", "8.5.41e"),
        actor="controller",
        candidates=cand.create_token,
        foresee=_foresee_create_token,
        distinct=True,  # one a token's name and destination
    ),
    Action(
        "create_zone",
        (
            Param(
                "zone",
                K.ZONE_NAME,
                required=True,
                role=Role.OWN_ZONE,
                doc="a player's zone, such as alice.arsenal",
            ),
            BY,
        ),
        _create_zone,
        doc="A new zone of a type for a player.",
        rules=("3.0.10",),
        actor=None,
        candidates=cand.create_zone,
        foresee=_foresee_create_zone,
        # 3.0.10: a rule or an effect creates a zone, not a player; making one
        # by hand changes the table itself, an administrator's act.
        judge=True,
    ),
    Action(
        "remove_zone",
        (
            Param(
                "zone",
                K.ZONE_NAME,
                required=True,
                role=Role.OWN_ZONE,
                doc="a player's zone, such as alice.arsenal",
            ),
            Param(
                "choose_zone",
                K.ZONE_CHOICE,
                doc="which one ceases, when there are several; or which of the owner's "
                "graveyards its cards go to; by player or card, the graveyards (3.0.10a)",
            ),
            BY,
        ),
        _remove_zone,
        doc="A zone of a player ceases to exist; its cards are cleared.",
        rules=("3.0.10b", "3.0.10c"),
        actor=None,
        candidates=cand.remove_zone,
        # 3.0.10b, 3.0.10c: a zone ceases through a rule or an effect; a player
        # who removes one of their own (their hand) is not playing the game.
        judge=True,
    ),
)


#: The fab action table.
ACTIONS = procedure_table(
    action_table(
        *shared_actions(MOVE, cannot_take, numbers=NUMBERS, end_turn=_foresee_end_turn),
        *FAB_ACTIONS,
        TAP,
        UNTAP,
        ALLOW_LOOK,
    )
)
