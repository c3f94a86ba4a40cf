"""The candidates of Redemption's own actions, for legal actions (see
:mod:`cardzones.rulesets.common`): what a player could ask now, from what they
may know alone. The rules then keep the legal ones.

>>> from cardzones import new_game
>>> game = new_game("redemption", ["alice", "bob"])
>>> list(phase(game, "alice"))
[{'phase': 'upkeep'}, {'phase': 'preparation'}, {'phase': 'battle'}, {'phase': 'discard'}]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from cardzones.acts.seats import actable_cards, nameable_cards
from cardzones.kernel.cards import Dest
from cardzones.kernel.effects import EffectRef
from cardzones.rulesets.common import Candidate, in_zone_of_type, visible
from cardzones.rulesets.redemption import records
from cardzones.rulesets.redemption.held import is_set_aside
from cardzones.rulesets.redemption.records import MOVE, NEXT_ID, PLACE, SET_ASIDE, EffectHandle
from cardzones.rulesets.redemption.turns import PHASES

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def _in_play(game: Game, player: str) -> list[int]:
    """The cards in play the player may look at: targets (place/default-targets-in-play)."""
    return [c for c in visible(game, player, nameable_cards(game, player)) if game.in_play(c)]


def place(game: Game, player: str) -> Iterator[Candidate]:
    """One card the player acts on in play, onto each other card in play and in
    each zone in play; and each card of their hand as the source that places
    itself onto each card in play (place/default-targets-in-play)."""
    targets = _in_play(game, player)
    zones = [
        Dest(spec.type) if spec.shared else Dest(spec.type, player)
        for spec in game.ruleset.zone_specs.values()
        if spec.in_play
    ]
    mine = visible(game, player, actable_cards(game, player))
    for card in mine:
        if not game.in_play(card):
            continue
        for target in targets:
            if target != card:
                yield {"cards": (card,), "onto": target}
        for dest in zones:
            if not in_zone_of_type(game, card, dest.type, dest.owner):
                yield {"cards": (card,), "in": dest}
    for card in mine:
        if in_zone_of_type(game, card, "hand", player):
            for target in targets:
                yield {"cards": (card,), "source": card, "onto": target}


def set_aside(game: Game, player: str) -> Iterator[Candidate]:
    """Each card in play, set aside by the player (set-aside/definition)."""
    for card in _in_play(game, player):
        yield {"cards": (card,)}


def return_(game: Game, player: str) -> Iterator[Candidate]:
    """Each set-aside card the player controls, by their own return and by an
    effect (set-aside/return-to-territory)."""
    for card in visible(game, player, actable_cards(game, player)):
        if is_set_aside(game, card):
            yield {"cards": (card,)}
            yield {"cards": (card,), "cause": "effect"}


def negate(game: Game, player: str) -> Iterator[Candidate]:
    """Each active place, set-aside or remembered move, and each modify or
    grant on a card the player may look at."""
    for rid in range(1, game.records.get(NEXT_ID, 1)):
        for kind in (PLACE, SET_ASIDE, MOVE):
            if records.get(game, kind, rid) is not None:
                handle = EffectHandle(kind, rid)
                if game.is_active(handle):
                    yield {"effect": handle}
    for card in visible(game, player, nameable_cards(game, player)):
        for effect in game.effects_on(card):
            if effect.kind in ("modify", "grant"):
                yield {"effect": EffectRef(effect.eid)}


def dominant(game: Game, player: str) -> Iterator[Candidate]:
    """Each dominant in the player's hand, on each set-aside card
    (set-aside/dominant-discards)."""
    dominants = [
        c
        for c in visible(game, player, actable_cards(game, player))
        if in_zone_of_type(game, c, "hand", player) and "dominant" in game.obj(c).cdef.types
    ]
    targets = [
        c for c in visible(game, player, nameable_cards(game, player)) if is_set_aside(game, c)
    ]
    for card in dominants:
        for target in targets:
            yield {"card": card, "target": target}


def discard(game: Game, player: str) -> Iterator[Candidate]:
    """Each card the player acts on."""
    for card in actable_cards(game, player):
        yield {"card": card}


def phase(game: Game, player: str) -> Iterator[Candidate]:
    """Each phase after the current one (the turn moves forward only)."""
    current = game.phase
    later = PHASES[PHASES.index(current) + 1 :] if current in PHASES else PHASES
    for name in later:
        yield {"phase": name}


def end_battle(game: Game, player: str) -> Iterator[Candidate]:
    """Ending the battle (set-aside/enhancement-in-battle-joins-at-end)."""
    yield {}


def start_turn(game: Game, player: str) -> Iterator[Candidate]:
    """Starting the turn, while it is in its draw phase."""
    if game.phase in (None, "draw"):
        yield {}
