"""The ways of paying for a card that legal actions offer under fab's game
procedure: each distinct choice of cards to pitch once, as a set, never as
an ordering of one, and never a card that was not needed (1.14.3b)."""

from __future__ import annotations

from typing import Any

from cardzones.table.creation import build, creation_from_request

POSITION = """\
ruleset: fab
procedure: {first: alice}
seed: 3
cards:
  Dorinthea Ironsong: {types: [hero, warrior], life: 40, intellect: 4}
  Bravo: {types: [hero, guardian], life: 40, intellect: 4}
  Heavy Swing: {types: [generic, action, attack], power: 6, pitch: 1, cost: 3, defense: 2}
  Blue Wall: {types: [generic, action], pitch: 3, cost: 0, defense: 2}
  Red Jab: {types: [generic, action], pitch: 1, cost: 0, defense: 2}
  Yellow Feint: {types: [generic, action], pitch: 2, cost: 0, defense: 2}
setup:
  alice.hero: [Dorinthea Ironsong]
  bob.hero: [Bravo]
  alice.hand: [Heavy Swing, Blue Wall, Red Jab, Blue Wall, Yellow Feint]
  alice.deck: [A1]
  bob.deck: [B1, B2, B3, B4]
"""


def _plays(game: Any, name: str) -> list[list[str]]:
    out = []
    for legal in game.legal_actions("alice", actions=["play"]):
        args = legal.bound
        if game.obj(args["card"]).cdef.name == name:
            out.append(sorted(game.obj(c).cdef.name for c in args.get("pitch") or ()))
    return out


def test_each_distinct_set_of_cards_to_pitch_is_offered_once() -> None:
    game = build(creation_from_request({"scenario": POSITION})).game
    ways = _plays(game, "Heavy Swing")
    # Three points: a Blue Wall (either of the two is the same choice), a
    # smaller card pitched first and then a Blue Wall, or Red Jab with Yellow
    # Feint; never both Blue Walls, the second of which is not needed.
    assert sorted(ways) == [
        ["Blue Wall"],
        ["Blue Wall", "Red Jab"],
        ["Blue Wall", "Yellow Feint"],
        ["Red Jab", "Yellow Feint"],
    ]
    assert len(ways) == len({tuple(w) for w in ways})


def test_either_copy_pays_when_sent_by_hand() -> None:
    game = build(creation_from_request({"scenario": POSITION})).game
    hand = game.contents(game.zone("alice", "hand"))
    walls = [c for c in hand if game.obj(c).cdef.name == "Blue Wall"]
    swing = next(c for c in hand if game.obj(c).cdef.name == "Heavy Swing")
    game.act("play", card=swing, pitch=[walls[1]], by="alice")
    assert game.obj(walls[1]).zone == game.zone("alice", "pitch")
    assert game.obj(walls[0]).zone == game.zone("alice", "hand")
