"""Targets by type: what a card may be played on, as its type, alignment and
brigade say (the Card Type page), and the type a card's own text names.

>>> dominant_effect("Discard any Hero.")
('discard', ('hero',))
>>> dominant_effect("Discard a Hero or an Evil Character in battle.")
('discard', ('evil_character', 'hero'))
>>> dominant_effect("Rescue any Lost Soul in play.")
('rescue', ('lost_soul',))
>>> dominant_effect("Look at an opponent's hand.") is None
True
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from cardzones.errors import IllegalAction
from cardzones.kernel.naming import name_for
from cardzones.rulesets.redemption.cards import alignment, brigades_match, is_enhancement
from cardzones.rulesets.redemption.zones import HAND, TERRITORY

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The words a card's text names a card type by, and the type each names.
TYPE_WORDS = (
    (re.compile(r"\bevil characters?\b", re.I), "evil_character"),
    (re.compile(r"\bheroe?s?\b", re.I), "hero"),
    (re.compile(r"\blost souls?\b", re.I), "lost_soul"),
)
#: What a type is called in a message.
TYPE_NAMES = {"hero": "Hero", "evil_character": "Evil Character", "lost_soul": "Lost Soul"}
ARTICLES = {"hero": "A", "evil_character": "An", "lost_soul": "A"}
PLURALS = {"hero": "Heroes", "evil_character": "Evil Characters", "lost_soul": "Lost Souls"}
#: The first words of a dominant's text that the procedure carries out.
VERBS = ("discard", "rescue")

#: Which characters an enhancement of each alignment is used by
#: (card-type/enhancement-alignment): good by Heroes, evil by Evil
#: Characters, dual (neutral) by both.
USED_BY = {
    "good": frozenset({"hero"}),
    "evil": frozenset({"evil_character"}),
    "neutral": frozenset({"hero", "evil_character"}),
}


def is_type(game: Game, card: int, by: str, ctype: str) -> bool:
    """Whether ``card`` is of the type ``ctype``, as ``by`` sees it."""
    return ctype in game.characteristics(card, by=by).types


def in_hand(game: Game, card: int, player: str) -> bool:
    """Whether ``card`` is a top-level card of ``player``'s hand: where a
    card is played from."""
    info = game.zone_info(game.location(card))
    return info.type == HAND and info.owner == player and game.host(card) is None


def in_hand_or_territory(game: Game, card: int, player: str) -> bool:
    """Whether ``card`` is a top-level card of ``player``'s hand or territory."""
    info = game.zone_info(game.location(card))
    return info.type in (HAND, TERRITORY) and info.owner == player and game.host(card) is None


def check_presented(game: Game, by: str, card: int, ctype: str, rule: str) -> None:
    """Refused unless ``card`` is a top-level card of ``by``'s hand or
    territory and of the type ``ctype``: where it is is asked first, so that
    what a card is is told only of a card the player may look at."""
    if not in_hand_or_territory(game, card, by):
        raise IllegalAction(
            f"{ARTICLES[ctype]} {TYPE_NAMES[ctype]} comes from {by}'s hand or territory",
            rule=rule,
        )
    if not is_type(game, card, by, ctype):
        raise IllegalAction(
            f"{name_for(game, by, card)} is not {ARTICLES[ctype].lower()} {TYPE_NAMES[ctype]}",
            rule=rule,
        )


def check_enhancement(game: Game, by: str, card: int, on: int) -> None:
    """Refused unless ``card`` is an enhancement in ``by``'s hand that the
    character ``on`` may use: of an alignment that character's type uses
    (card-type/enhancement-alignment) and of a brigade of that character
    (card-type/enhancement-brigade)."""
    if not in_hand(game, card, by):
        raise IllegalAction(
            f"{by} plays an enhancement from their own hand", rule="initiative/next-enhancement"
        )
    enh, char = game.characteristics(card, by=by), game.characteristics(on, by=by)
    if not is_enhancement(enh):
        raise IllegalAction(
            f"{name_for(game, by, card)} is not an enhancement",
            rule="card-type/enhancement-alignment",
        )
    side = alignment(enh)
    if side is not None and USED_BY.get(side, frozenset()).isdisjoint(char.types):
        users = " and ".join(PLURALS[t] for t in sorted(USED_BY[side]))
        raise IllegalAction(
            f"{name_for(game, by, card)} is {'an' if side[0] in 'aeiou' else 'a'} {side} "
            f"enhancement, used by {users}, and {name_for(game, by, on)} is not one",
            rule="card-type/enhancement-alignment",
        )
    if not brigades_match(enh, char):
        raise IllegalAction(
            f"{name_for(game, by, card)} shares no brigade with {name_for(game, by, on)}: an "
            "enhancement is of the brigade "
            "of the character it is played on",
            rule="card-type/enhancement-brigade",
        )


def dominant_effect(text: str) -> tuple[str, tuple[str, ...]] | None:
    """What a dominant's text does that the procedure carries out: its first
    word (discard or rescue) and the card types it names
    (card-type/named-type), or None for any other text. "Evil Character" is
    read before "Hero", so that neither is taken for the other."""
    words = text.strip().split(maxsplit=1)
    if not words or words[0].lower() not in VERBS:
        return None
    rest, named = text, []
    for pattern, ctype in TYPE_WORDS:
        if pattern.search(rest):
            named.append(ctype)
            rest = pattern.sub(" ", rest)
    return (words[0].lower(), tuple(named)) if named else None


def check_named_type(
    game: Game, by: str, source: int, target: int, ctypes: tuple[str, ...]
) -> None:
    """Refused unless ``target`` is of a type ``source``'s text names
    (card-type/named-type)."""
    if not any(is_type(game, target, by, ctype) for ctype in ctypes):
        name = name_for(game, by, source)
        kinds = " and ".join(PLURALS[c] for c in ctypes)
        either = " or ".join(f"{ARTICLES[c].lower()} {TYPE_NAMES[c]}" for c in ctypes)
        raise IllegalAction(
            f"{name} names {kinds}, and {name_for(game, by, target)} is not {either}",
            rule="card-type/named-type",
        )
