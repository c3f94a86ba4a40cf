"""What fab offers a player to play now, among the plays its zone rules accept.

The zone rules say where a card may be played from (3.3.4, 3.0.4e) and
nothing of when. A card's type says when, and some plays make no sense at a
given moment of the turn, though the ``play`` action accepts them (a scenario
may play any card the zone rules allow). Legal actions leave those out
(``Action.offer``), from what the engine keeps of the turn: the turn
player, the stack and the attacks on the combat chain.

- A **defense reaction** is played by a player defending an attack: it is
  offered only while an attack of another player is on the combat chain.
- An **attack reaction** is played by the attacking player: it is offered
  only while an attack of theirs is on the combat chain.
- An **action** card is played by the turn player while the stack is empty
  (one that is also an instant may be played as an instant).

An attack is an attack-proxy (1.4.3) or a public card with the attack
subtype, as a chain link on the combat chain (3.6.2); its controller
attacks, and every other player defends. A card the player may not look at
is always offered: its type is not theirs to know.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> sink = game.ruleset.make_card("Sink Below", {"types": ("defense_reaction",)})
>>> card = game.new_card(sink, game.zone("bob", "hand"))
>>> offers_play(game, {"card": card, "by": "bob"})   # nothing attacks bob
False
>>> snatch = game.ruleset.make_card("Snatch", {"types": ("action", "attack"), "power": 4})
>>> attack = game.new_card(snatch, game.zone(None, "combat_chain"), owner="alice",
...                        controller="alice", public=True)
>>> offers_play(game, {"card": card, "by": "bob"})
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardzones.kernel.objects import CARD
from cardzones.rulesets.fab import layers
from cardzones.rulesets.fab.chain import links as chain_links
from cardzones.rulesets.fab.layers import ATTACK_PROXY

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def attackers(game: Game) -> set[str]:
    """The controllers of the attacks on the combat chain (3.6.2): its
    attack-proxies (1.4.3) and its public top-level cards with the attack
    subtype, except those defending on a chain link: an attack card put on
    the chain to defend is a defending card, not an attack (7.0.5a)."""
    chain = game.zone(None, "combat_chain")
    out: set[str] = set()
    if chain is None:
        return out
    defending = {card for link in chain_links(game) for card in link.defending}
    for card in game.contents(chain):
        if card in defending:
            continue
        obj = game.obj(card)
        if obj.kind == ATTACK_PROXY:
            attack = True
        else:
            attack = (
                obj.kind == CARD
                and obj.public
                and obj.host is None
                and "attack" in game.characteristics(obj).types
            )
        who = obj.controller if obj.controller is not None else obj.owner
        if attack and who is not None:
            out.add(who)
    return out


def offers_play(game: Game, args: Mapping[str, Any]) -> bool:
    """Whether fab offers the player the play of the card now (see the
    module's documentation); ``args`` as the ``play`` action takes them, the
    player in ``by``."""
    card, player = args["card"], args["by"]
    if not game.exists(card) or not game.may_look(player, card):
        return True
    types = game.characteristics(game.obj(card), by=player).types
    if "instant" in types:
        return True
    if "defense_reaction" in types:
        return any(who != player for who in attackers(game))
    if "attack_reaction" in types:
        return player in attackers(game)
    if "action" in types:
        return player == game.turn_player and not layers.layers(game)
    return True
