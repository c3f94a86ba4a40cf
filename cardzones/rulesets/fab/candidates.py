"""The candidates of fab's own actions, for legal actions (see
:mod:`cardzones.rulesets.common`): what a player could ask now, from what they
may know alone. The rules then keep the legal ones.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
>>> list(play(game, "alice")) == [{"card": card}], list(play(game, "bob"))
(True, [])
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from cardzones.acts.seats import actable_cards, actable_naming, asked_card, nameable_cards
from cardzones.kernel.cards import CardDef, Dest
from cardzones.rulesets.common import Candidate, in_zone_of_type, own_zones, visible
from cardzones.rulesets.fab import layers
from cardzones.rulesets.fab.cards import is_token_card
from cardzones.rulesets.fab.pitch import pitch_order as order_now

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def clear(game: Game, player: str) -> Iterator[Candidate]:
    """Each card the player acts on (3.0.12)."""
    for card in actable_naming(game, player):  # "card" is a clear's one card
        yield {"card": card}


def put_under(game: Game, player: str) -> Iterator[Candidate]:
    """Each top-level card the player acts on, under each of their permanents
    and cards on the stack (3.0.14)."""
    mine = actable_cards(game, player)
    tops = [
        c
        for c in visible(game, player, mine)
        if game.host(c) is None
        and (game.is_permanent(c) or game.zone_info(game.location(c)).type == "stack")
    ]
    for card in mine:
        if game.host(card) is not None:
            continue
        for top in tops:
            if top != card:
                yield {"card": card, "top": top}


def play(game: Game, player: str) -> Iterator[Candidate]:
    """Each card the player may look at and may play (3.3.4, 3.0.4e, 3.0.9c)."""
    for card in visible(game, player, actable_naming(game, player)):  # a play's one card
        if game.may_play(card, player):
            yield {"card": card}


def pitch(game: Game, player: str) -> Iterator[Candidate]:
    """Each card in the player's hand (3.14.2 decides which the pitch zone takes)."""
    for card in visible(game, player, actable_naming(game, player)):  # a pitch's one card
        if in_zone_of_type(game, card, "hand", player):
            yield {"card": card}


def add_layer(game: Game, player: str) -> Iterator[Candidate]:
    """An activated- and a triggered-layer from each public card the player
    controls in the arena (1.6.1b)."""
    for card in actable_naming(game, player):  # "source" is a layer's one card
        if game.is_public(card) and game.in_arena(card):
            yield {"kind": "activated", "source": card}
            yield {"kind": "triggered", "source": card}


def remove_layer(game: Game, player: str) -> Iterator[Candidate]:
    """Each layer of the stack, by its number (3.15.6)."""
    for number in range(1, len(layers.layers(game)) + 1):
        yield {"layer": number}


def resolve(game: Game, player: str) -> Iterator[Candidate]:
    """The top layer, when there is one (3.15.5)."""
    if layers.layers(game):
        yield {}


def create_token(game: Game, player: str) -> Iterator[Candidate]:
    """Each token the player may look at a card of, in the arena and in each of
    their equipment and weapon zones (8.1.8a, 8.5.41d)."""
    if asked_card(game, player) is not None:
        return  # a token is named by its name: no candidate names the card asked
    tokens: dict[str, CardDef] = {}
    for card in visible(game, player, nameable_cards(game, player)):
        cdef = game.obj(card).cdef
        if is_token_card(cdef):
            tokens.setdefault(cdef.name, cdef)
    places = [Dest("arena")]
    places += [
        Dest(spec.type, player)
        for spec in game.ruleset.zone_specs.values()
        if not spec.shared and (spec.equipment or spec.type == "weapon")
    ]
    for cdef in tokens.values():
        for dest in places:
            yield {"card": cdef, "to": dest}


def create_zone(game: Game, player: str) -> Iterator[Candidate]:
    """A new zone of each of the player's zone types (3.0.10)."""
    for spec in game.ruleset.zone_specs.values():
        if not spec.shared:
            yield {"zone": Dest(spec.type, player)}


def remove_zone(game: Game, player: str) -> Iterator[Candidate]:
    """Each type of which the player has one zone (3.0.10b), and each zone of
    a type they have several of: which one ceases is then a choice (3.0.10c),
    made by naming it, so that ``choose_zone`` is left for the graveyard its
    cards go to (3.0.10a)."""
    seen: set[str] = set()
    for zid in own_zones(game, player):
        ztype = game.zone_info(zid).type
        if ztype in seen:
            continue
        seen.add(ztype)
        count = len(game.zones_of(player, ztype))
        if count == 1:
            yield {"zone": Dest(ztype, player)}
        else:
            for index in range(1, count + 1):
                yield {"zone": Dest(ztype, player, index)}


def attack(game: Game, player: str) -> Iterator[Candidate]:
    """Each equipped weapon the player controls."""
    for card in actable_naming(game, player):  # "card" is an attack's one card
        obj = game.obj(card)
        if obj.public and obj.equipped and "weapon" in game.characteristics(obj).types:
            yield {"card": card}


#: The most pitched cards whose orders are offered in full; past it each
#: offer names one card, so that the offers grow with the cards, not with
#: their square.
FULL_ORDERS = 8


def pitch_order(game: Game, player: str) -> Iterator[Candidate]:
    """Each of the player's pitched cards put first, the rest in the order now
    chosen (4.4.3c): choosing the cards one by one, last first, reaches every
    order, where listing every order would grow with the factorial. Past
    :data:`FULL_ORDERS` cards, each offer names the card put first alone (the
    rest follow in the order every player saw); any full order is still
    accepted."""
    chosen = order_now(game, player, ())
    if len(chosen) < 2:
        return
    for card in chosen[1:]:
        if len(chosen) > FULL_ORDERS:
            yield {"order": [card]}
        else:
            yield {"order": [card, *(c for c in chosen if c != card)]}


def finish_turn(game: Game, player: str) -> Iterator[Candidate]:
    """Ending the turn, keeping the hand, with the pitched cards in their order."""
    yield {}


def close_chain(game: Game, player: str) -> Iterator[Candidate]:
    """Closing the combat chain, when it holds anything."""
    chain = game.zone(None, "combat_chain")
    if chain is not None and game.contents(chain):
        yield {}


def zone_choice(game: Game, player: str) -> Iterator[Candidate]:
    """Each zone of the player's of a type they have several of (3.0.10a)."""
    for zid in own_zones(game, player):
        ztype = game.zone_info(zid).type
        if len(game.zones_of(player, ztype)) > 1:
            yield {"zone": zid}
