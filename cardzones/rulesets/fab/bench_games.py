"""The decks of the benchmark's whole games (``cardzones bench``, games a
second): a Blitz-sized game of the bench's own cards, a hero of 20 life, a
weapon, two pieces of equipment and 30 deck cards of every kind the game
procedure plays: attacks, actions with go again, attack and defense
reactions, instants.
"""

from __future__ import annotations

from cardzones.kernel.cards import CardDef
from cardzones.kernel.game import Game
from cardzones.rulesets.fab.procedure.playout import deal


def _card(name: str, *types: str, text: str = "", **stats: int) -> CardDef:
    keywords = frozenset({"go_again"}) if stats.pop("go_again", 0) else frozenset()
    return CardDef(name, frozenset(types), stats, keywords, text=text)


HERO = _card("Dorinthea", "hero", "warrior", life=20, intellect=4)
WEAPON = _card(
    "Dawnblade", "weapon", "sword", "2h", power=3, text="Once per Turn Action - {r}: Attack"
)
EQUIPMENT = (
    _card("Ironrot Helm", "equipment", "head", defense=1),
    _card("Ironrot Legs", "equipment", "legs", defense=1),
)
DECK = (
    *[_card("Snatch", "action", "attack", power=4, cost=0, pitch=1, defense=2)] * 4,
    *[_card("Wounding Blow", "action", "attack", power=4, cost=0, pitch=3, defense=3)] * 4,
    *[_card("Drone of Brutality", "action", "attack", power=6, cost=2, pitch=1, defense=2)] * 4,
    *[_card("Head Jab", "action", "attack", power=2, cost=0, pitch=2, defense=3, go_again=1)] * 4,
    *[_card("Warrior's Valor", "action", power=0, cost=1, pitch=2, defense=3, go_again=1)] * 3,
    *[_card("Ironsong Response", "attack_reaction", cost=0, pitch=3, defense=3)] * 3,
    *[_card("Sink Below", "defense_reaction", cost=0, pitch=3, defense=4)] * 4,
    *[_card("Sigil of Solace", "instant", cost=0, pitch=3)] * 2,
    *[_card("Cracked Bauble", "resource", pitch=2)] * 2,
)


def deal_both(game: Game) -> None:
    """Give every player of ``game`` the benchmark's hero, weapon, equipment
    and deck."""
    for player in game.players:
        deal(game, player, HERO, [WEAPON], EQUIPMENT, DECK)
