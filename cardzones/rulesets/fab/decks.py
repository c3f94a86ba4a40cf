"""Where a fab deck list's cards start (3.11.4, 4.1.4a, 4.1.6): the hero-card
in the hero zone, each arena-card that can be equipped in the first zone that
can take it (with the equipping rules of 8.5.41, 8.2.2, 8.2.10, 8.2.15), the
deck-cards as the deck (3.7.6) in list order, and every other card out of the
game as inventory."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardzones.kernel.cards import CardDef
from cardzones.rulesets.base import DeckCard, DeckRefused, Placement
from cardzones.rulesets.fab.cards import EQUIP_SUBTYPES, is_deck_card, is_hero_card

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def place_deck(game: Game, player: str, cards: Sequence[DeckCard]) -> Placement:
    """Where each of a deck list's cards starts for ``player``."""
    heroes = [c for c in cards if c.section == "main" and is_hero_card(c.cdef)]
    if len(heroes) != 1:
        names = ", ".join(dict.fromkeys(c.cdef.name for c in heroes)) or "none"
        raise DeckRefused(f"a fab deck list names exactly one hero (3.11.4); found {names}")
    placed: list[tuple[str, int]] = []
    out: list[int] = []
    deck: list[int] = []
    # The hero, then two-handers, one-handers, off-hands and quivers, so that each
    # finds the zones it needs (8.2.2b, 8.2.10a, 8.2.15a); otherwise list order.
    for i in sorted(range(len(cards)), key=lambda i: _equip_order(cards[i].cdef)):
        card = cards[i]
        cdef = card.cdef
        if card.section != "main":
            out.append(i)
        elif is_hero_card(cdef):
            zone = _put(game, player, cdef, ("hero",))
            if zone is None:
                out.append(i)
            else:
                placed.append((zone, i))
        elif is_deck_card(cdef):
            deck.append(i)
        elif not cdef.types.isdisjoint(EQUIP_SUBTYPES):
            ztypes: tuple[str, ...] = (
                ("weapon",) if cdef.types & {"weapon", "off-hand", "quiver"} else ()
            )
            ztypes += tuple(t for t in ("head", "chest", "arms", "legs") if t in cdef.types)
            zone = _put(game, player, cdef, ztypes)
            if zone is None:
                out.append(i)
            else:
                placed.append((zone, i))
        else:
            out.append(i)
    placed.extend((f"{player}.deck", i) for i in deck)
    return Placement(placed, out)


def _equip_order(cdef: CardDef) -> int:
    if is_hero_card(cdef):
        return -1
    for rank, word in enumerate(("2h", "weapon", "off-hand", "quiver")):
        if word in cdef.types:
            return rank
    return 4


def _put(game: Game, player: str, cdef: CardDef, ztypes: Sequence[str]) -> str | None:
    """The first zone of those types that the rules let the card enter, with
    the card put there (so that the next card finds it taken)."""
    for ztype in ztypes:
        for zid in game.zones_of(player, ztype):
            probe = game.probe(cdef, zid, owner=player, controller=player)
            if game.ruleset.admit(game, probe, zid, player).ok:
                game.new_card(cdef, zid, owner=player, public=True)
                return game.zone_name(zid)
    return None
