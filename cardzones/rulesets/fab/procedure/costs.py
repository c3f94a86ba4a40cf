"""Costs and pitching (1.13, 1.14, 5.1.6, 5.1.7): what playing a card or
activating a weapon's attack costs, whether the cards a player pitches pay
it, and every set of cards that may be pitched for it.

A cost has an action part and a resource part (5.1.6). The action asset-cost
of an action card starts at one (5.1.6b), and at zero for one played as an
instant; the resource asset-cost is the card's cost (5.1.6c). A player pays
from their resource points and pitches cards from hand one at a time while
they have too few (1.14.2d); a card may be pitched only while the points it
gains are needed (1.14.3b), and only one with a pitch value (1.14.3a).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from cardzones.acts.legal import judging
from cardzones.errors import IllegalAction
from cardzones.kernel.views import name_for

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The resource symbols of a weapon's attack ability, as its text prints it:
#: "Once per Turn Action - {r}{r}: Attack".
_ATTACK_COST = re.compile(r"action\s*[-\u2013\u2014]+\s*((?:\{r\}|\d+)*)\s*:\s*attack", re.I)


class Cost(NamedTuple):
    """An asset-cost: action points and resource points (1.14.2)."""

    action: int
    resource: int


def card_cost(game: Game, card: int, player: str, types: frozenset[str] | None = None) -> Cost:
    """What playing the card costs (5.1.6): one action point for an action
    card not played as an instant (5.1.6b: a card that is both is played as
    one), and its cost in resource points (5.1.6c; none printed is zero).
    ``types`` are the card's types as ``player`` knows them, when read already."""
    if types is None:
        types = game.characteristics(game.obj(card), by=player).types
    action = 1 if "action" in types and "instant" not in types else 0
    return Cost(action, max(game.stat(card, "cost") or 0, 0))


def attack_cost(game: Game, weapon: int) -> Cost:
    """What a weapon's attack ability costs: it is an action ability, one
    action point (5.2.2b, 5.1.6b), and the resource symbols its text prints
    before ":", or its printed cost when the text prints none."""
    cdef = game.characteristics(game.obj(weapon))
    resource = printed_attack_cost(cdef.text or "")
    if resource is None:
        resource = max(game.stat(weapon, "cost") or 0, 0)
    return Cost(1, resource)


@lru_cache(maxsize=1024)
def printed_attack_cost(text: str) -> int | None:
    """The resource points of the attack ability a text prints, or None when
    it prints none. Kept per text: a weapon's attack is judged at every
    listing of legal actions, and its text seldom changes."""
    found = _ATTACK_COST.search(text)
    if found is None:
        return None
    symbols = found[1]
    return symbols.lower().count("{r}") + sum(int(d) for d in re.findall(r"\d+", symbols))


def pitch_value(game: Game, card: int) -> int | None:
    """The resource points pitching the card gains (1.14.3), None for a card
    without the pitch property (1.14.3a)."""
    return game.stat(card, "pitch")


def pitchable(game: Game, player: str, exclude: int | None = None) -> list[tuple[int, int]]:
    """The cards of ``player``'s hand that may be pitched, with the points
    each gains: a card with a pitch value above zero (1.14.3a), other than
    ``exclude`` (the card being played)."""
    # While legal actions are judged, every card played or attacked with
    # pitches from the same hand: it is read once.
    memo = judging(game)
    found: list[tuple[int, int]] | None = None
    if memo is not None:
        found = memo.get(("fab.pitchable", player))
    if found is None:
        found = []
        hand = game.zone(player, "hand")
        for card in game.contents(hand) if hand is not None else ():
            value = pitch_value(game, card)
            if value is not None and value > 0:
                found.append((card, value))
        if memo is not None:
            memo[("fab.pitchable", player)] = found
    return [pair for pair in found if pair[0] != exclude]


def _known_pitches(game: Game, player: str) -> dict[int, int] | None:
    """While legal actions are judged, the cards of ``player``'s hand that
    may be pitched (:func:`pitchable`) with the points each gains; None at
    any other time."""
    memo = judging(game)
    if memo is None:
        return None
    known: dict[int, int] | None = memo.get(("fab.pitch_values", player))
    if known is None:
        known = memo[("fab.pitch_values", player)] = dict(pitchable(game, player))
    return known


def _pitch_of(game: Game, player: str, card: int, exclude: int | None) -> int:
    """The points pitching the card gains, refused unless it is a card of
    ``player``'s hand, not ``exclude``, with a pitch value (1.14.3, 1.14.3a)."""
    obj = game.obj(card)
    info = game.zone_info(obj.zone)
    # A card is named only in a refusal: every set a listing offers is judged.
    if card == exclude:
        what = name_for(game, player, card)
        raise IllegalAction(f"{what} is the card being played: it cannot pay for itself")
    if info.type != "hand" or info.owner != player or obj.host is not None:
        what = name_for(game, player, card)
        raise IllegalAction(
            f"{what} is not in {player}'s hand: only a card from hand is pitched", rule="1.14.3"
        )
    value = pitch_value(game, card)
    if value is None or value <= 0:
        what = name_for(game, player, card)
        raise IllegalAction(f"{what} has no pitch value to gain", rule="1.14.3a")
    return value


def check_pitch(
    game: Game,
    player: str,
    pitch: Sequence[int],
    need: int,
    exclude: int | None,
) -> int:
    """The resource points the pitched cards gain, refused unless they pay
    ``need`` points (5.1.7a, 1.14.2b) without a card that was not needed
    (1.14.3b), each from the player's hand with a pitch value (1.14.3a)."""
    gained = 0
    largest = 0
    known = _known_pitches(game, player) if pitch else None
    for card in pitch:
        # A card of the hand known to pitch, while legal actions are judged,
        # is not looked at again.
        value = None if known is None or card == exclude else known.get(card)
        if value is None:
            value = _pitch_of(game, player, card, exclude)
        gained += value
        largest = max(largest, value)
    if gained < need:
        raise IllegalAction(
            f"the cost is not paid: {need} more resource point{'s' if need != 1 else ''} "
            f"needed and the pitched cards gain {gained} (1.14.2b)",
            rule="5.1.7a",
        )
    if pitch and gained - largest >= need:
        raise IllegalAction(
            "a card may be pitched only while the points it gains are needed: "
            f"{need} needed, and fewer cards pay it",
            rule="1.14.3b",
        )
    return gained


def pitch_sets(
    game: Game, player: str, need: int, exclude: int | None
) -> Iterator[tuple[int, ...]]:
    """Every set of cards of ``player``'s hand whose pitch pays ``need``
    points with each card needed (:func:`check_pitch` accepts each), in the
    order of the hand; the empty set alone when nothing is needed."""
    if need <= 0:
        yield ()
        return
    yield from _grown(pitchable(game, player, exclude), need, 0, (), 0, 0)


def _grown(
    cards: list[tuple[int, int]],
    need: int,
    start: int,
    chosen: tuple[int, ...],
    total: int,
    largest: int,
) -> Iterator[tuple[int, ...]]:
    """The sets :func:`pitch_sets` gives that grow from ``chosen`` (which
    gains ``total`` points, ``largest`` the most of one card) with cards from
    ``start`` on. A function of its own, not a closure: a closure calling
    itself is a reference cycle, left for the garbage collector at every call."""
    # Without its largest card a set pays less than is needed, or one of
    # its cards was not needed; that only grows as cards are added.
    if total - largest >= need:
        return
    if total >= need:
        yield chosen
    for i in range(start, len(cards)):
        card, value = cards[i]
        yield from _grown(cards, need, i + 1, (*chosen, card), total + value, max(largest, value))


def distinct_pitch_sets(
    game: Game, player: str, need: int, exclude: int | None
) -> Iterator[tuple[int, ...]]:
    """The sets of :func:`pitch_sets` that are distinct choices for the
    player: two sets whose cards have the same names and pitch values pay
    alike and leave alike hands, so only the first of them is offered.
    Every set is a set, never an ordering of one: pitching order gains
    nothing (1.14.3)."""
    seen: set[tuple[tuple[str, int], ...]] = set()
    memo = judging(game)
    if memo is None:
        for chosen, key in _keyed(game, player, pitch_sets(game, player, need, exclude), None):
            if key not in seen:
                seen.add(key)
                yield chosen
        return
    # While legal actions are judged, every card played or attacked with
    # pitches from the same hand: the sets paying ``need`` from the whole
    # hand are found once, with their keys, and those of a card being played
    # are the ones without it, in the same order (a set pays, each card
    # needed, by its own cards alone: leaving a card out of the hand leaves
    # out the sets it is in and no other).
    sets: list[tuple[tuple[int, ...], tuple[tuple[str, int], ...]]] | None
    sets = memo.get(("fab.pitch_sets", player, need))
    if sets is None:
        alike = memo.get(("fab.pitch_alike", player))
        if alike is None:
            alike = memo[("fab.pitch_alike", player)] = {}
        found = pitch_sets(game, player, need, None)
        sets = memo[("fab.pitch_sets", player, need)] = list(_keyed(game, player, found, alike))
    for chosen, key in sets:
        if exclude is not None and exclude in chosen:
            continue
        if key not in seen:
            seen.add(key)
            yield chosen


def _keyed(
    game: Game,
    player: str,
    sets: Iterator[tuple[int, ...]],
    alike: dict[int, tuple[str, int]] | None,
) -> Iterator[tuple[tuple[int, ...], tuple[tuple[str, int], ...]]]:
    """Each set with what tells it from another for the player: the names
    and pitch values of its cards, sorted. A card's name and pitch value are
    found once per card in ``alike``: the same cards make many sets."""
    for chosen in sets:
        if not chosen:
            yield chosen, ()
        else:
            yield chosen, tuple(sorted(_alike(game, player, card, alike) for card in chosen))


def _alike(
    game: Game, player: str, card: int, known: dict[int, tuple[str, int]] | None
) -> tuple[str, int]:
    """What tells a pitched card from another for the player: its name and
    pitch value (kept in ``known`` while the game stays as it is)."""
    if known is not None:
        found = known.get(card)
        if found is not None:
            return found
    found = (game.characteristics(game.obj(card), by=player).name, pitch_value(game, card) or 0)
    if known is not None:
        known[card] = found
    return found
