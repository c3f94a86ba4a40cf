"""Card categories and permanents (1.3)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from cardzones.kernel.cards import CardDef
from cardzones.rulesets.base import Numbers

#: The numbers of fab cards that actions and expectations name: a modify
#: changes power, defense, pitch and cost; a counter named for power, defense,
#: life, intellect or arcane changes it (``+1_life``: 4.4.3a counts counters
#: in an ally's life).
NUMBERS = Numbers(
    modified=("power", "defense", "pitch", "cost"),
    counted=("power", "defense", "life", "intellect", "arcane"),
)

#: What a private deck-card shows the rules: that it is a deck-card, and no
#: more (see :func:`private_card`). Card data cannot give this type: its types
#: never hold a space.
DECK_CARD = "deck card"
#: 1.3.2c: the types that make a deck-card.
DECK_TYPES = frozenset(
    {"action", "attack_reaction", "block", "defense_reaction", "instant", "mentor", "resource"}
)
#: The card types (1.3.2): those of hero-, token- and deck-cards (1.3.2a-c) and
#: of arena-cards. A card's list of types, subtypes and traits names at least
#: one of them; the other words are free (classes, talents, subtypes).
CARD_TYPES = frozenset(
    {
        *DECK_TYPES,
        "hero",
        "token",
        "equipment",
        "weapon",
        "demi-hero",
        "companion",
        "macro",
    }
)
#: 1.3.3: deck-card subtypes that make a permanent in the arena.
PERMANENT_SUBTYPES = frozenset(
    {"affliction", "ally", "ash", "aura", "construct", "figment", "invocation", "item", "landmark"}
)
#: 8.5.41b: the subtypes that can be equipped.
EQUIP_SUBTYPES = frozenset({"1h", "2h", "arms", "chest", "head", "legs", "off-hand", "quiver"})


def is_hero_card(cdef: CardDef) -> bool:
    """1.3.2a."""
    return "hero" in cdef.types


def is_token_card(cdef: CardDef) -> bool:
    """1.3.2b."""
    return "token" in cdef.types


def is_deck_card(cdef: CardDef) -> bool:
    """1.3.2c (a private deck-card has only its mark, :data:`DECK_CARD`)."""
    return not cdef.types.isdisjoint(DECK_TYPES) or DECK_CARD in cdef.types


def is_arena_card(cdef: CardDef) -> bool:
    """1.3.2d: any non-hero, non-token, non-deck card."""
    return not (is_hero_card(cdef) or is_token_card(cdef) or is_deck_card(cdef))


def category(cdef: CardDef) -> str:
    if is_hero_card(cdef):
        return "hero"
    if is_token_card(cdef):
        return "token"
    if is_deck_card(cdef):
        return "deck"
    return "arena"


#: A private card of each category, as the rules see it (:func:`private_card`).
_PRIVATE = {
    "hero": CardDef("", frozenset({"hero"})),
    "token": CardDef("", frozenset({"token"})),
    "deck": CardDef("", frozenset({DECK_CARD})),
    "arena": CardDef(""),
}
_PRIVATE_HERO, _PRIVATE_TOKEN = _PRIVATE["hero"], _PRIVATE["token"]
_PRIVATE_DECK, _PRIVATE_ARENA = _PRIVATE["deck"], _PRIVATE["arena"]


def private_card(cdef: CardDef) -> CardDef:
    """What the rules know of a private card (3.0.7a): its category (1.3.2) and
    nothing else. The category is known without seeing the face: a deck holds
    only deck-cards (1.3.2c), a hero starts as a player's hero (1.3.2a),
    arena-cards start the game outside the deck (1.3.2d) and tokens are not
    part of any card-pool (1.3.2b). So a face-down aura and a face-down attack
    are the same card here, a deck-card with no subtypes.

    >>> aura = CardDef("Seismic Surge", frozenset({"action", "aura"}))
    >>> private_card(aura).types == {DECK_CARD}, becomes_permanent(private_card(aura), "permanent")
    (True, False)
    """
    # category(), inlined: every hook asks this of private cards, and the
    # kernel on every move of one (1.3.2a, 1.3.2b, 1.3.2c).
    types = cdef.types
    if "hero" in types:
        return _PRIVATE_HERO
    if "token" in types:
        return _PRIVATE_TOKEN
    if not types.isdisjoint(DECK_TYPES) or DECK_CARD in types:
        return _PRIVATE_DECK
    return _PRIVATE_ARENA


def becomes_permanent(cdef: CardDef, zone_type: str) -> bool:
    """1.3.3: whether the card is a permanent once in that arena zone."""
    if not is_deck_card(cdef) or is_hero_card(cdef) or is_token_card(cdef):
        return True
    return zone_type != "combat_chain" and not cdef.types.isdisjoint(PERMANENT_SUBTYPES)


def type_problem(words: Iterable[str]) -> str | None:
    """Why a list of types, subtypes and traits looks mistyped, or None.

    A list that names no card type (1.3.2) is an arena-card's (1.3.2d), so it is
    accepted, unless one of its words is close to a card type: then that word
    is taken for a slip, and the message names it and the card types.

    >>> type_problem(["action", "attack"]) is None, type_problem(["shadow", "ally"]) is None
    (True, True)
    >>> print(type_problem(["acton", "attack"]))
    types: [acton, attack] names no card type: 'acton' is not one (did you mean action?); \
the card types are action, attack_reaction, block, companion, defense_reaction, demi-hero, \
equipment, hero, instant, macro, mentor, resource, token, weapon
    """
    words = list(words)
    if not CARD_TYPES.isdisjoint(words):
        return None
    slips = []
    for word in words:
        close = difflib.get_close_matches(word, sorted(CARD_TYPES), n=1, cutoff=0.8)
        if close:
            slips.append(f"{word!r} is not one (did you mean {close[0]}?)")
    if not slips:
        return None
    return (
        f"types: [{', '.join(words)}] names no card type: {'; '.join(slips)}; "
        f"the card types are {', '.join(sorted(CARD_TYPES))}"
    )


def card_types(words: Iterable[str]) -> frozenset[str]:
    """Normalise a list of types: lower case, spaces to underscores, hyphens kept."""
    return frozenset(w.strip().lower().replace(" ", "_") for w in words)
