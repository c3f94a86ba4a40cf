"""Zone types that can never contain a card as it is, whatever they hold:
read from the same rules as :meth:`FabRuleset.admit
<cardzones.rulesets.fab.ruleset.FabRuleset.admit>`, once per card and zone
type, so that legal actions need not judge each move there (such a move
fails, 3.0.11, and a failed move of a card the player sees is not listed).

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "graveyard"))
>>> types = ("hero", "head", "weapon", "permanent", "banished")
>>> [t for t in types if never_contains(game, card, t)]
['hero', 'head', 'weapon', 'permanent']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardzones.kernel.objects import CARD
from cardzones.rulesets.fab.cards import EQUIP_SUBTYPES, becomes_permanent

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: What a weapon zone can contain (3.16.2a).
_WEAPON_TYPES = frozenset({"weapon", "off-hand", "quiver"})


def never_contains(game: Game, card: int, ztype: str) -> bool:
    """Whether no zone of type ``ztype`` can contain ``card``, whatever the
    zone holds: a hero zone one that is not a hero (3.11.2), an equipment zone
    one without a subtype it takes (8.5.41b, 3.2.2a, 3.5.2a, 3.10.2a, 3.12.2a,
    3.16.2a), the permanent zone one that would not be a permanent there
    (3.13.2). Judged only where admission reads the card as it is now: a
    public card, with no abilities (no replacement sends it elsewhere,
    3.0.8a), that is no token and stays public there; False otherwise, and
    for every other zone type."""
    spec = game.ruleset.zone_specs.get(ztype)
    if spec is None or not spec.public or not spec.in_arena:
        return False
    obj = game.obj(card)
    if obj.kind != CARD or not obj.public or obj.cdef.abilities:
        return False
    types = game.characteristics(obj).types
    if "token" in types:
        return False
    if ztype == "hero":
        return "hero" not in types  # 3.11.2
    if ztype == "permanent":
        return not becomes_permanent(game.characteristics(obj), ztype)  # 3.13.2
    if spec.equipment:
        if types.isdisjoint(EQUIP_SUBTYPES):
            return True  # 8.5.41b
        if ztype == "weapon":
            return types.isdisjoint(_WEAPON_TYPES)  # 3.16.2a
        return ztype not in types  # 3.2.2a, 3.5.2a, 3.10.2a, 3.12.2a
    return False
