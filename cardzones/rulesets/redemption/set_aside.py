"""Set-aside abilities (the Set-aside rules text, ids ``set-aside/...``):
setting cards aside, durations, returns, dominants on set-aside cards, and
set-aside enhancements in and out of battle.

>>> from cardzones import new_game
>>> game = new_game("redemption")
>>> moses = game.new_card(game.card_def("Moses"), game.zone("alice", "territory"))
>>> result, handle = set_aside(game, [moses], by="alice", duration=1)
>>> game.zone_name(game.location(moses)), is_set_aside(game, moses)
('alice.set_aside', True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from cardzones.errors import IllegalAction, NeedsChoice
from cardzones.kernel.cards import Dest
from cardzones.kernel.naming import name_for
from cardzones.kernel.results import MoveResult
from cardzones.rulesets.redemption import records
from cardzones.rulesets.redemption.cards import (
    brigades_match,
    is_character,
    is_dominant,
    is_enhancement,
    is_territory_class,
)
from cardzones.rulesets.redemption.held import catch_up, now

# The queries of what is set aside live in held.py; they stay importable here.
from cardzones.rulesets.redemption.held import is_set_aside as is_set_aside
from cardzones.rulesets.redemption.held import set_aside_holds as set_aside_holds
from cardzones.rulesets.redemption.held import still_set_aside as still_set_aside
from cardzones.rulesets.redemption.place import current_placement, put_back, relocated_from
from cardzones.rulesets.redemption.records import (
    LIVE_SET_ASIDES,
    SET_ASIDE,
    EffectHandle,
    Ongoing,
    SetAsideRecord,
)
from cardzones.rulesets.redemption.zones import (
    DISCARD,
    FIELD_OF_BATTLE,
    HAND,
    TERRITORY,
)
from cardzones.rulesets.redemption.zones import SET_ASIDE as SET_ASIDE_ZONE

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The phases in which a set-aside enhancement may be played outside battle.
OUTSIDE_BATTLE_PHASES = ("preparation", "discard")


# ----------------------------------------------------------------------
# Queries
# ----------------------------------------------------------------------


def permanent_controller(game: Game, card: int) -> str:
    obj = game.obj(card)
    keeper = obj.pcontrol or obj.owner
    assert keeper is not None
    return keeper


def live_records(game: Game) -> list[SetAsideRecord]:
    return [records.get(game, SET_ASIDE, rid) for rid in records.ids(game, LIVE_SET_ASIDES)]


def record_of(game: Game, card: int) -> SetAsideRecord | None:
    """The unfinished set-aside ability that holds ``card`` in its area now."""
    for rec in reversed(live_records(game)):
        if card in still_set_aside(game, rec):
            return rec
    return None


# ----------------------------------------------------------------------
# Setting aside
# ----------------------------------------------------------------------


def set_aside(
    game: Game,
    cards: Sequence[int],
    *,
    by: str,
    source: int | None = None,
    played_on: int | None = None,
    duration: int | None = None,
    ongoing: Ongoing | None = None,
    area: int | None = None,
    in_battle: bool = False,
    label: str | None = None,
) -> tuple[MoveResult, EffectHandle]:
    """Set ``cards`` aside, each in the set-aside area of its permanent controller
    (set-aside/area-permanent-controller).

    ``duration`` is a number of the setter's turns (set-aside/duration-turn-based).
    A ``source`` enhancement joins its cards in the set-aside area
    (set-aside/enhancement-joins-cards), or with ``in_battle`` stays in the field
    of battle until :func:`end_battle`. ``area`` is the player's choice of area
    for the enhancement when the targets go to different ones
    (set-aside/enhancement-area-choice). Refused, it changes nothing.
    """
    with game.atomic():
        return _set_aside(
            game, tuple(cards), by, source, played_on, duration, ongoing, area, in_battle, label
        )


def _set_aside(
    game: Game,
    cards: tuple[int, ...],
    by: str,
    source: int | None,
    played_on: int | None,
    duration: int | None,
    ongoing: Ongoing | None,
    area: int | None,
    in_battle: bool,
    label: str | None,
) -> tuple[MoveResult, EffectHandle]:
    game.check_player(by)
    if not cards or len(set(cards)) != len(cards):
        raise IllegalAction(
            "a set-aside ability needs distinct cards to set aside", rule="set-aside/targets"
        )
    if duration is not None and duration < 1:
        raise IllegalAction(
            f"a duration is a number of turns, 1 or more, not {duration}",
            rule="set-aside/paired-defines-benefit-or-duration",
        )
    for card in cards:
        if not game.in_play(card):
            obj = game.obj(card)
            raise IllegalAction(
                f"cannot set {name_for(game, by, card)} aside: it is in "
                f"{game.zone_name(obj.zone)}, and the "
                "targets of a set-aside ability must be in play",
                rule="set-aside/default-targets-in-play",
            )
    # The source is the card the player plays: what it is, they know (they show
    # it by playing it); a card they may not look at is nothing to them (3.0.7a).
    enhancement = (
        source
        if source is not None and is_enhancement(game.characteristics(source, by=by))
        else None
    )
    if source is not None and enhancement is None and _hidden_from_others(game, source, by):
        # Played from where only its player sees it, it is an enhancement, shown
        # as it is played, or nothing: an ability it does not have must not
        # happen while it stays hidden, or the others would learn what it is not.
        raise IllegalAction(
            f"{name_for(game, by, source)} is not a set-aside enhancement, so it cannot be "
            "the source played for this ability",
            rule="set-aside/enhancement-joins-cards",
        )
    if enhancement is not None and enhancement in cards:
        raise IllegalAction(
            "a set-aside enhancement cannot set itself aside", rule="set-aside/targets"
        )
    if enhancement is not None and not in_battle:
        _check_outside_battle(
            game, enhancement, cards, played_on if played_on is not None else cards[0], by
        )
    areas = _areas(game, cards)
    enh_area = _enhancement_area(game, enhancement, areas, area)

    # A placed card it takes away goes back where it was placed if the
    # set-aside ability is negated (place/return-conditions).
    before = {card: (current_placement(game, card), game.obj(card)) for card in cards}
    for card in cards:
        game.move(card, areas[card], by=by)
    if enhancement is not None:
        if in_battle:
            fob = game.zone(None, FIELD_OF_BATTLE)
            assert fob is not None
            if game.obj(enhancement).zone != fob:
                game.move(enhancement, fob, face="up", by=by, played=True)
        else:
            assert enh_area is not None
            game.move(enhancement, enh_area, face="up", by=by)

    handle, eid = records.start(game, SET_ASIDE, ongoing, label)
    rid = handle.rid
    relocated = tuple(
        relocated_from(game, card, obj, was)
        for card, (was, obj) in before.items()
        if was is not None and game.exists(card)
    )
    rec = SetAsideRecord(
        rid,
        by,
        tuple(game.ref(card) for card in cards),
        duration,
        game.turn,
        enhancement=None if enhancement is None else game.ref(enhancement),
        area=enh_area,
        in_battle=in_battle and enhancement is not None,
        eid=eid,
        relocated=relocated,
        since=now(game),
    )
    records.put(game, SET_ASIDE, rid, rec)
    records.add_id(game, LIVE_SET_ASIDES, rid)
    return MoveResult.MOVED, handle


def _hidden_from_others(game: Game, card: int, player: str) -> bool:
    """Whether ``player`` may look at the card and someone else may not."""
    return game.may_look(player, card) and not game.is_public(card)


def _check_outside_battle(
    game: Game, enhancement: int, cards: tuple[int, ...], played_on: int, by: str
) -> None:
    """set-aside/enhancement-outside-battle and .../enhancement-no-opponent-targets."""
    enh = game.characteristics(enhancement, by=by)
    rule = "set-aside/enhancement-outside-battle"
    if game.turn_player != by or game.phase not in OUTSIDE_BATTLE_PHASES:
        raise IllegalAction(
            f"{name_for(game, by, enhancement)} is a set-aside enhancement played outside "
            f"battle, which {by} may do "
            f"only in their own preparation or discard phase (it is {game.turn_player}'s "
            f"{game.phase} phase)",
            rule=rule,
        )
    char_obj = game.obj(played_on)
    # The character is judged as every player knows it: a face-down card is no
    # character, whatever it is (3.0.7a), so the refusal is the same for all.
    char = game.characteristics(char_obj)
    if not is_character(char):
        raise IllegalAction(
            f"{name_for(game, by, enhancement)} must be played on a character, and "
            f"{name_for(game, by, played_on)} is not one",
            rule=rule,
        )
    if not brigades_match(enh, char):
        raise IllegalAction(
            f"{name_for(game, by, enhancement)} must be played on a character of its brigade, "
            f"and {name_for(game, by, played_on)} is not",
            rule=rule,
        )
    zone = game.zone_info(char_obj.zone)
    if zone.type != TERRITORY or zone.owner != by:
        raise IllegalAction(
            f"{name_for(game, by, enhancement)} must be played on a character in {by}'s "
            f"territory, and {name_for(game, by, played_on)} is in {game.zone_name(char_obj.zone)}",
            rule=rule,
        )
    if is_territory_class(enh):
        return
    for card in cards:
        controller = game.obj(card).controller
        if controller is not None and controller != by:
            raise IllegalAction(
                f"{name_for(game, by, enhancement)} is played outside battle, so it cannot "
                f"target {name_for(game, by, card)}, which {controller} controls (unless it is "
                "a territory "
                "class enhancement)",
                rule="set-aside/enhancement-no-opponent-targets",
            )


def _areas(game: Game, cards: tuple[int, ...]) -> dict[int, int]:
    """The set-aside area of each target: its permanent controller's
    (set-aside/area-permanent-controller, set-aside/area-controller)."""
    out = {}
    for card in cards:
        zid = game.zone(permanent_controller(game, card), SET_ASIDE_ZONE)
        if zid is None:
            raise IllegalAction(
                f"{permanent_controller(game, card)} has no set-aside area",
                rule="set-aside/area-permanent-controller",
            )
        out[card] = zid
    return out


def _enhancement_area(
    game: Game, enhancement: int | None, areas: dict[int, int], chosen: int | None
) -> int | None:
    """set-aside/enhancement-area-choice: the player who played it chooses among
    the areas its targets go to."""
    options = list(dict.fromkeys(areas.values()))
    if enhancement is None:
        if chosen is not None:
            raise IllegalAction(
                "area: chooses where a set-aside enhancement goes, and there is none",
                rule="set-aside/enhancement-area-choice",
            )
        return None
    if chosen is not None:
        if chosen not in options:
            names = ", ".join(game.zone_name(z) for z in options)
            raise IllegalAction(
                f"the enhancement joins its cards: area is one of {names}",
                rule="set-aside/enhancement-area-choice",
            )
        return chosen
    if len(options) > 1:
        raise NeedsChoice(
            "area",
            [game.zone_name(z) for z in options],
            what="the set-aside area the enhancement joins",
            rule="set-aside/enhancement-area-choice",
        )
    return options[0]


# ----------------------------------------------------------------------
# Returning
# ----------------------------------------------------------------------


def return_cards(game: Game, cards: Sequence[int], *, by: str, cause: str = "own") -> MoveResult:
    """Return set-aside cards to the territory of their permanent controller
    (set-aside/return-to-territory).

    With ``cause="own"`` it is the controller's own choice, allowed only in their
    own preparation phase and only when no duration was given
    (set-aside/own-return-preparation, set-aside/duration-remain). With
    ``cause="effect"`` an effect returns them; one returned before its duration
    takes every card set aside with it (set-aside/premature-group-return).
    """
    with game.atomic():
        return _return_cards(game, tuple(cards), by, cause)


def _require_set_aside(game: Game, card: int, player: str, rule: str) -> None:
    """Refuse, under ``rule``, an action on a card that is not set aside; the
    card is named only if ``player`` may look at it."""
    if not is_set_aside(game, card):
        raise IllegalAction(
            f"{name_for(game, player, card)} is not set aside (it is in "
            f"{game.zone_name(game.obj(card).zone)})",
            rule=rule,
        )


def _return_cards(game: Game, cards: tuple[int, ...], by: str, cause: str) -> MoveResult:
    game.check_player(by)
    for card in cards:
        _require_set_aside(game, card, by, "set-aside/definition")
    group = list(cards)
    if cause == "effect":
        for card in cards:
            rec = record_of(game, card)
            if rec is not None and rec.duration is not None and not rec.due:
                group.extend(c for c in still_set_aside(game, rec) if c not in group)
    else:
        _check_own_return(game, cards, by)
    for card in group:
        return_one(game, card, by, "effect")
    settle(game)
    return MoveResult.MOVED


def _check_own_return(game: Game, cards: tuple[int, ...], by: str) -> None:
    for card in cards:
        obj = game.obj(card)
        controller = obj.controller or permanent_controller(game, card)
        if controller != by:
            raise IllegalAction(
                f"only {controller}, who controls {name_for(game, by, card)}, may return it",
                rule="set-aside/no-duration-controller-chooses",
            )
    for card in cards:
        rec = record_of(game, card)
        if rec is not None and rec.duration is not None:
            raise IllegalAction(
                f"{name_for(game, by, card)} was set aside with a duration of {rec.duration} "
                "turn(s): it returns when the duration is reached, not by choice",
                rule="set-aside/duration-remain",
            )
    if game.turn_player != by or game.phase != "preparation":
        raise IllegalAction(
            f"{by} may return set-aside cards only in their own preparation phase "
            f"(it is {game.turn_player}'s {game.phase} phase)",
            rule="set-aside/own-return-preparation",
        )


def return_one(game: Game, card: int, by: str | None, cause: str) -> MoveResult:
    """Every return from a set-aside area goes to the territory of the card's
    permanent controller (set-aside/return-to-territory)."""
    keeper = permanent_controller(game, card)
    return game.move(card, Dest(TERRITORY, keeper), cause=cause, by=by or keeper)


def discard(game: Game, card: int, by: str | None, cause: str = "rule") -> MoveResult:
    obj = game.obj(card)
    return game.move(
        card, Dest(DISCARD, "owner"), cause=cause, by=by or obj.owner or game.turn_player
    )


def finish(game: Game, rec: SetAsideRecord) -> SetAsideRecord:
    """Mark a set-aside ability finished: it counts no more turns, and its
    enhancement, if it waits in the set-aside area, is discarded."""
    rec = rec._replace(done=True)
    records.put(game, SET_ASIDE, rec.rid, rec)
    records.drop_id(game, LIVE_SET_ASIDES, rec.rid)
    enh = game.referent(rec.enhancement)
    if enh is not None and not rec.in_battle and is_set_aside(game, enh.card):
        discard(game, enh.card, rec.by)
    return rec


def settle(game: Game) -> None:
    """A set-aside ability with none of its cards left in a set-aside area is
    over; its enhancement has nothing left to join and is discarded."""
    for rec in live_records(game):
        rec, held = catch_up(game, rec)
        if not held:
            finish(game, rec)


# ----------------------------------------------------------------------
# Durations
# ----------------------------------------------------------------------


def count_upkeep(game: Game) -> None:
    """In the turn player's upkeep, count one turn for each of their set-aside
    abilities with a duration, starting with the turn after they set the cards
    aside (set-aside/duration-turn-based)."""
    for rec in live_records(game):
        if rec.duration is None or rec.by != game.turn_player or game.turn <= rec.start_turn:
            continue
        records.put(game, SET_ASIDE, rec.rid, rec._replace(counted=rec.counted + 1))


def return_due(game: Game) -> None:
    """At the start of the preparation phase, the cards whose duration was reached
    return (set-aside/duration-returns, set-aside/duration-turn-based)."""
    for rec in live_records(game):
        if rec.due and rec.by == game.turn_player:
            for card in still_set_aside(game, rec):
                return_one(game, card, rec.by, "rule")
            finish(game, rec)


# ----------------------------------------------------------------------
# Negating, dominants and the end of battle
# ----------------------------------------------------------------------


def negate_set_aside(game: Game, rec: SetAsideRecord, by: str) -> None:
    """The set-aside ability is negated: its ongoing ability ends, the cards it
    still holds return, and its enhancement is discarded and has no effect
    (set-aside/dominant-discards, set-aside/dominant-enhancement-discarded).
    Abilities gained while set aside cannot be negated after the return
    (set-aside/no-negate-after-return)."""
    if rec.negated:
        return
    held = still_set_aside(game, rec)
    if not held:
        raise IllegalAction(
            "that set-aside ability cannot be negated after return: none of "
            "its cards is still set aside",
            rule="set-aside/no-negate-after-return",
        )
    if rec.eid is not None:
        game.end_effect(rec.eid)
    for card in held:
        # The Place text decides where a placed card goes once the effect
        # that relocated it is negated: back where it was placed
        # (place/return-conditions); any other card returns to territory.
        named = game.ref(card)
        entry = next((e for e in rec.relocated if e.card == named), None)
        if entry is None or not put_back(game, entry, by):
            return_one(game, card, by, "effect")
    _discard_enhancement(game, rec, by)
    current: SetAsideRecord = records.get(game, SET_ASIDE, rec.rid)
    finish(game, current._replace(negated=True, in_battle=False))


def play_dominant(game: Game, card: int, target: int, *, by: str | None = None) -> MoveResult:
    """Play a dominant from hand on a set-aside card: the card is discarded, its
    set-aside ability is negated, a set-aside enhancement of that ability is
    discarded, and the dominant goes to its owner's discard pile
    (set-aside/dominant-discards, set-aside/dominant-enhancement-discarded)."""
    with game.atomic():
        dom = game.obj(card)
        player = by or dom.owner or game.turn_player
        info = game.zone_info(dom.zone)
        # Where the card is comes first: what it is must not decide the answer
        # to a player who may not look at it.
        if info.type != HAND or dom.host is not None or not game.may_look(player, card):
            raise IllegalAction(
                f"a dominant is played from its player's hand, and "
                f"{name_for(game, player, card)} is in {game.zone_name(dom.zone)}",
                rule="set-aside/dominant-discards",
            )
        if not is_dominant(game.characteristics(card, by=player)):
            raise IllegalAction(
                f"{name_for(game, player, card)} is not a dominant",
                rule="set-aside/dominant-discards",
            )
        _require_set_aside(game, target, player, "set-aside/dominant-discards")
        rec = record_of(game, target)
        discard(game, target, player, "effect")
        if rec is not None:
            _negate_after_dominant(game, records.get(game, SET_ASIDE, rec.rid), player)
        discard(game, card, player, "effect")
    return MoveResult.MOVED


def _negate_after_dominant(game: Game, rec: SetAsideRecord, by: str) -> None:
    if still_set_aside(game, rec):
        negate_set_aside(game, rec, by)
        return
    # The target was the last card it held: only the enhancement is left to go.
    if rec.eid is not None:
        game.end_effect(rec.eid)
    _discard_enhancement(game, rec, by)
    finish(game, rec._replace(negated=True, in_battle=False))


def _discard_enhancement(game: Game, rec: SetAsideRecord, by: str) -> None:
    """A negated set-aside's enhancement is discarded and has no effect
    (set-aside/dominant-enhancement-discarded), if it is still the object
    that joined its cards or waits in battle to join them."""
    enh = game.referent(rec.enhancement)
    if enh is not None and game.zone_info(enh.zone).type in (SET_ASIDE_ZONE, FIELD_OF_BATTLE):
        discard(game, enh.card, by)


def end_battle(game: Game) -> MoveResult:
    """End the battle: set-aside enhancements played in it join their cards in
    the set-aside area (set-aside/enhancement-in-battle-joins-at-end), the other
    enhancements in the field of battle go to their owners' discard piles, and
    characters stay where they are."""
    with game.atomic():
        fob = game.zone(None, FIELD_OF_BATTLE)
        assert fob is not None
        for rec in live_records(game):
            if not rec.in_battle or rec.enhancement is None:
                continue
            rec = rec._replace(in_battle=False)
            records.put(game, SET_ASIDE, rec.rid, rec)
            found = game.referent(rec.enhancement)
            if found is None or found.zone != fob:
                continue
            enh = found.card
            if still_set_aside(game, rec) and rec.area is not None:
                game.move(enh, rec.area, face="up", cause="rule", by=rec.by)
                # It joins its cards as the object it is there now.
                records.put(game, SET_ASIDE, rec.rid, rec._replace(enhancement=game.ref(enh)))
            else:
                discard(game, enh, rec.by)
        for card in _enhancements(game, game.contents(fob)):
            discard(game, card, None)
        settle(game)
    return MoveResult.DONE


def _enhancements(game: Game, cards: Iterable[int]) -> list[int]:
    return [c for c in cards if is_enhancement(game.characteristics(c))]
