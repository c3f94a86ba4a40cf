"""What fab's general move would give, judged once per listing of legal
actions for every card alike (:func:`foresee_fab_move`).

A listing judges each card the player acts on against each destination; the
kernel's judgement (:meth:`Game.foresee_move`) reads of the card only what
its record says, so cards alike in every respect the rules read are judged
once.

>>> from cardzones import new_game
>>> from cardzones.kernel.cards import Dest
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
>>> args = {"card": card, "to": Dest("graveyard", "alice"), "position": "top", "face": None,
...         "cause": "effect", "by": "alice", "choose_zone": None}
>>> foresee_fab_move(game, args).value
'moved'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardzones.acts.legal import judging
from cardzones.acts.zone_choices import choices, split
from cardzones.kernel.cards import Dest
from cardzones.kernel.objects import CARD
from cardzones.kernel.results import MoveResult
from cardzones.rulesets.fab.admission import OWN_DECK_CARDS_ONLY
from cardzones.rulesets.fab.cards import is_deck_card

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


#: The zone types whose admission reads of a card only whether it is a token
#: (8.1.8a): a stack or a combat chain takes any card (3.15.3, 3.6.2), a
#: banished zone or a graveyard any of its owner's (3.4.2, 3.8.2).
_TOKEN_ONLY = frozenset({"stack", "combat_chain", "banished", "graveyard"})

#: The zone types whose admission reads of a card its category: a token or
#: hero is no deck-card, public or private (1.3.2, 3.0.7a; 3.3.2, 3.7.2,
#: 3.9.2, 3.14.2).
_CATEGORY_ONLY = frozenset(OWN_DECK_CARDS_ONLY)


#: Where a listing keeps what it found of each card and each move, and the
#: rule set's piles (under :func:`~cardzones.acts.legal.judging`).
_MEMO = "fab.move"

#: What a listing reads of one card, found once: its record's class (an id
#: for owner, visibility, equipment and the top-card it is under or on, if
#: any), its class where only owner and visibility count (an id for them and
#: whether it is a sub-card), its types, whether it is a token, its category,
#: its zone's type, its zone, the zone types its replacement effects name and
#: their tag, and the card, held.
_Alike = tuple[
    int,
    int,
    frozenset[str],
    bool,
    int,
    str,
    int,
    frozenset[str],
    tuple[int, int, str | None],
    Any,
]


def foresee_fab_move(game: Game, args: Mapping[str, Any]) -> MoveResult | None:
    """What the move action with these arguments would give (the kernel's
    move, :meth:`Game.foresee_move`; None with ``then:``, which only doing
    tells), found once per listing of legal actions for all cards alike.

    Cards are alike when their records agree in all the move reads: their
    types and subtypes (all fab's admission reads of a card's
    characteristics, public or private, 3.0.7a; so its category, 1.3.2), or
    only whether it is a token, or its category, where that is all admission
    reads; owner, zone, visibility, kind and the zones it is equipped to
    (8.5.41c); the top-card it is under or on, if any (3.0.14); no
    replacement effect that would apply, or the same card's with the same
    controller (3.0.8a); and whether cards are under or on it (they go along
    or are cleared, 3.0.14c, 3.0.14e). The zone it goes to is then another
    than its own (else no move, 3.0.7b), so what admission finds there (a
    hero, 3.11.2; an arsenal's card, 3.3.2a; an equipment, 8.5.41c) is the
    same for each; cards alike in one zone see each other alike. Where it is
    counts only when it goes to a zone of the same type: else it is in none
    of the zones admission reads. A refusal is not kept: it is judged again,
    and raised as the move would raise it."""
    if args.get("then") is not None:
        return None
    card, dest, position = args["card"], args["to"], args["position"]
    face, cause, choice = args["face"], args["cause"], args["choose_zone"]
    choose_zone = None if choice is None else split(choice)[0]
    by = args["by"]
    if by is None:
        by = game.turn_player
    memo = judging(game)
    key: Any = None
    if memo is not None and choice is None and isinstance(dest, Dest):
        try:
            cards, found, piles = memo[_MEMO]
        except KeyError:
            cards, found, piles = memo[_MEMO] = ({}, {}, game.ruleset.piles)
        try:
            one = cards[card]
        except KeyError:
            one = cards[card] = _alike(game, card, cards)
        to = dest.type
        if one is not None and to in piles:
            # Into a soul, under a hero (3.11.5, 3.0.14): what it gives reads of
            # the card only whether it is that hero and whether it is under it
            # already (its top-card, in its class).
            hero = card if "hero" in one[2] else None
            key = (one[0], hero, dest, position, face, cause, by)
        elif one is not None:
            base, light, types, token, category, ztype, zone, replacing, tag, _ = one
            if to == "arena":
                to = "permanent"  # 3.0.5a
            replaced = None
            kind: Any = types
            if to in replacing:
                replaced = tag
            elif to in _TOKEN_ONLY:
                # Nor does it read what the card is equipped to, or under.
                base, kind = light, token
            elif to in _CATEGORY_ONLY:
                kind = category
            here = zone if ztype == to else None
            key = (base, kind, replaced, here, dest, position, face, cause, by)
        if key is not None:
            try:
                return found[key]  # type: ignore[no-any-return]
            except KeyError:
                pass
    # The choices given by player or card, and each player's standing ones (3.0.10a).
    with choices(game, choice):
        result = game.foresee_move(
            card, dest, position=position, face=face, cause=cause, by=by, choose_zone=choose_zone
        )
    if key is not None:
        found[key] = result
    return result


def _alike(game: Game, card: int, cards: dict[Any, Any]) -> _Alike | None:
    """What a listing reads of the card (see :data:`_Alike`); None for any
    but a card, and for a card with cards under or on it, which is judged by
    itself: whether they go along or are cleared (3.0.14c, 3.0.14e), and
    whether a clear needs a choice (3.0.10a), depends on those cards. Sub-cards
    are alike only under the same top-card (3.0.14)."""
    obj = game.obj(card)
    if obj.kind != CARD or game.kids(card):
        return None
    cdef = obj.cdef
    types = cdef.types
    token = "token" in types
    category = 4 * token + 2 * ("hero" in types) + is_deck_card(cdef)
    abilities = cdef.abilities
    replacing = frozenset(r.moved_to for r in cdef.replacements) if abilities else frozenset()
    tag = (id(abilities), obj.zone, obj.controller)  # read only where one applies
    # Records of one class share an id: a key of small parts hashes quickly.
    base: int = cards.setdefault(
        (obj.owner, obj.public, obj.equipped, obj.host, obj.rel), len(cards)
    )
    light: int = cards.setdefault((obj.owner, obj.public, obj.rel), len(cards))
    ztype = game.zone_info(obj.zone).type
    return (base, light, types, token, category, ztype, obj.zone, replacing, tag, cdef)
