"""Which of fab's general moves the kernel's plan judges alike
(:func:`move_class`), so that a listing of legal actions asks the plan
(:meth:`Game.foresee_move`) once for each class of moves and not once for
each card: the ``alike`` of fab's ``move`` action
(:func:`~cardzones.acts.standard.move_action`).

What the plan reads of the card is its record and what the rule set's hooks
read of it: its owner, zone, visibility, kind and the top-card it is under
or on (3.0.7b, 3.0.14), the zones it is equipped to (8.5.41c), the
replacement effects that name the zone it goes to (3.0.8a), whether it is a
token (8.1.8a), and what admission reads of its characteristics there, as
fab declares it beside admission
(:data:`~cardzones.rulesets.fab.admission.ADMISSION_READS`).

>>> from cardzones import new_game
>>> from cardzones.kernel.cards import Dest, Move
>>> game = new_game("fab", ["alice", "bob"])
>>> hand = game.zone("alice", "hand")
>>> one, two = (game.new_card(game.card_def(n), hand) for n in ("Snatch", "Sink Below"))
>>> to = Dest("graveyard", "alice")
>>> memo = {}
>>> first, second = (move_class(game, Move(c, to, by="alice"), memo) for c in (one, two))
>>> first == second
True
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from cardzones.kernel.cards import Dest, MoveFields
from cardzones.kernel.objects import CARD
from cardzones.rulesets.fab import admission
from cardzones.rulesets.fab.admission import CATEGORY, TOKEN, TYPES
from cardzones.rulesets.fab.cards import is_deck_card

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


#: Where a listing keeps what it found of each card (under
#: :func:`~cardzones.acts.legal.judging`).
_MEMO = "fab.move"

#: What a listing reads of one card, found once: its record's class (an id
#: for owner, visibility, equipment and the top-card it is under or on, if
#: any), its class where admission reads only whether it is a token (an id
#: for owner, visibility and whether it is a sub-card), what admission may
#: read of its characteristics (whether it is a token, its category, its
#: types and subtypes: :data:`ADMISSION_READS`), whether it is a hero, its
#: zone's type, its zone, the zone types its replacement effects name and
#: their tag, and the card, held.
_Alike = tuple[
    int,
    int,
    bool,
    int,
    frozenset[str],
    bool,
    str,
    int,
    frozenset[str],
    tuple[int, int, str | None],
    Any,
]


def move_class(game: Game, move: MoveFields, memo: dict[Any, Any]) -> Hashable:
    """The class of ``move`` (:class:`~cardzones.acts.standard.Alike`): moves
    of one class get one verdict from the kernel's plan while the game stays
    as it is. None for a move judged by itself: to a zone id, of any object
    but a card, or of a card with cards under or on it (whether they go
    along or are cleared, 3.0.14c, 3.0.14e, and whether a clear needs a
    choice, 3.0.10a, depends on those cards).

    Into a soul, under a hero (3.11.5, 3.0.14), a move reads of the card
    only whether it is that hero and whether it is under it already. Any
    other move reads what :data:`ADMISSION_READS` declares for the zone type
    it goes to, or, where one of the card's replacement effects names that
    type, the card's own replacement with its controller (3.0.8a); where it
    is counts only when it goes to a zone of the same type (else no move,
    3.0.7b, and it is in none of the zones admission reads)."""
    card, dest, position, face, cause, by, _, _ = move
    if not isinstance(dest, Dest):
        return None
    try:
        cards, piles = memo[_MEMO]
    except KeyError:
        cards, piles = memo[_MEMO] = ({}, game.ruleset.piles)
    try:
        one = cards[card]
    except KeyError:
        one = cards[card] = _alike(game, card, cards)
    if one is None:
        return None
    # The destination by its fields: a dataclass hashes itself in Python, and
    # the key is hashed once per candidate.
    to, owner, index = dest.type, dest.owner, dest.index
    if to in piles:
        hero = card if one[5] else None
        return (one[0], hero, to, owner, index, position, face, cause, by)
    base, light, token, category, types, _, ztype, zone, replacing, tag, _ = one
    ztype_to = "permanent" if to == "arena" else to  # 3.0.5a
    here = zone if ztype == ztype_to else None
    if ztype_to in replacing:
        return (base, types, tag, here, to, owner, index, position, face, cause, by)
    # Through its module: 3.11 calls a method of a name imported by `from` as a
    # bound method made at each call.
    read = admission.ADMISSION_READS.get(ztype_to, TYPES)
    if read == TOKEN:
        return (light, token, None, here, to, owner, index, position, face, cause, by)
    kind = category if read == CATEGORY else types
    return (base, kind, None, here, to, owner, index, position, face, cause, by)


def _alike(game: Game, card: int, cards: dict[Any, Any]) -> _Alike | None:
    """What a listing reads of the card (see :data:`_Alike`); None for any
    but a card, and for a card with cards under or on it. Sub-cards are
    alike only under the same top-card (3.0.14)."""
    obj = game.obj(card)
    if obj.kind != CARD or game.kids(card):
        return None
    cdef = obj.cdef
    types = cdef.types
    token, hero = "token" in types, "hero" in types
    category = 4 * token + 2 * hero + is_deck_card(cdef)
    abilities = cdef.abilities
    replacing = frozenset(r.moved_to for r in cdef.replacements) if abilities else frozenset()
    tag = (id(abilities), obj.zone, obj.controller)  # read only where one applies
    # Records of one class share an id: a key of small parts hashes quickly.
    base: int = cards.setdefault(
        (obj.owner, obj.public, obj.equipped, obj.host, obj.rel), len(cards)
    )
    light: int = cards.setdefault((obj.owner, obj.public, obj.rel), len(cards))
    ztype = game.zone_info(obj.zone).spec.type
    return (base, light, token, category, types, hero, ztype, obj.zone, replacing, tag, cdef)
