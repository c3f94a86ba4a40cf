"""One record of the combat chain's links (7.0.3): the game procedure's
combat steps write the links the scenario keys and attack-proxies read
(:mod:`cardzones.rulesets.fab.chain`), and a game saved when the procedure
kept links of its own still loads and plays on the same."""

from __future__ import annotations

import json
from typing import Any

from cardzones import Game, new_game
from cardzones.kernel.cards import CardDef
from cardzones.rulesets.fab.chain import LINKS, Link, _merged, links, recorded
from cardzones.rulesets.fab.procedure import PROCEDURE, current
from cardzones.rulesets.fab.procedure.playout import deal

JAB = CardDef("Jab", frozenset({"action", "attack"}), {"power": 5, "cost": 0, "pitch": 1})
BLOCK = CardDef("Block", frozenset({"action"}), {"defense": 1, "cost": 0, "pitch": 1})
HELM = CardDef("Helm", frozenset({"equipment", "head"}), {"defense": 1})
HERO = CardDef("Hero", frozenset({"hero"}), {"life": 20, "intellect": 4})


def _zone(game: Game, player: str | None, ztype: str) -> int:
    zid = game.zone(player, ztype)
    assert zid is not None
    return zid


def _defended() -> tuple[Game, int, int]:
    """Alice's Jab on chain link 1, defended by Bob's Block from hand and
    his Helm, declared in the defend step. Gives the two cards."""
    game = new_game("fab", ["alice", "bob"], seed=1)
    deal(game, "alice", HERO, [], [], [JAB] * 6)
    deal(game, "bob", HERO, [], [HELM], [BLOCK] * 6)
    game.ruleset.start_procedure(game, "alice")
    game.act("play", card=game.contents(_zone(game, "alice", "hand"))[0], by="alice")
    for player in ("alice", "bob", "alice", "bob"):
        game.act("pass", by=player)
    block = game.contents(_zone(game, "bob", "hand"))[0]
    helm = game.contents(_zone(game, "bob", "head"))[0]
    game.act("defend", cards=(block, helm), by="bob")
    return game, block, helm


def _passes(game: Game, rounds: int) -> None:
    for _ in range(rounds):
        for player in ("alice", "bob"):
            game.act("pass", by=player)


def test_the_procedure_plays_on_the_links_the_chain_keys_read() -> None:
    """7.0.3a, 7.0.5a, 7.2.4b: the link the attack step made and the
    defend step added to is the combat chain's record; the procedure's own
    record holds none. The damage step's results (7.5.2, 7.5.5) are the
    same record's, and the close (7.7.5, 7.0.2) returns the equipment and
    forgets the links."""
    game, block, helm = _defended()
    proc = current(game)
    assert proc is not None and proc.step == "defend"
    assert proc.links == recorded(game) and len(proc.links) == 1
    assert game.records.get(PROCEDURE).links == ()
    (link,) = proc.links
    assert (link.attacker, link.defender) == ("alice", "bob")
    assert link.homes == (-1, _zone(game, "bob", "head"))
    assert [chain_link.defending for chain_link in links(game)] == [(block, helm)]
    _passes(game, 2)  # to the damage step: 5 power against 2 defense
    (link,) = recorded(game)
    assert (link.damage, link.hit, link.resolved) == (3, True, False)
    _passes(game, 1)  # the resolution step
    assert recorded(game)[0].resolved
    _passes(game, 1)  # the close step
    assert LINKS not in game.records and current(game).links == ()  # type: ignore[union-attr]
    assert game.obj(helm).zone == _zone(game, "bob", "head")


def _as_older_save(data: dict[str, Any]) -> dict[str, Any]:
    """The saved game as a version that kept the procedure's links in its
    own record wrote it: those links name cards by their ids alone, and
    the combat chain's links know no player, home or damage."""
    rules = data["state"]["rules"]["items"]
    chain = next(value for key, value in rules if key == LINKS)
    procedure = next(value for key, value in rules if key == PROCEDURE)
    own = []
    for link in chain["fields"]["links"]:
        fields = link["fields"]
        own.append(
            {
                "$": "record",
                "class": "cardzones.rulesets.fab.procedure.state:Link",
                "fields": {
                    "attack": fields["attack"][0],
                    "source": None,
                    "attacker": fields["attacker"],
                    "defender": fields.pop("defender"),
                    "defending": [card for card, _ in fields["defending"]],
                    "homes": fields.pop("homes"),
                    "damage": fields.pop("damage"),
                    "hit": fields.pop("hit"),
                    "resolved": fields.pop("resolved"),
                },
            }
        )
    procedure["fields"]["links"] = own
    return data


def test_a_game_saved_with_the_procedures_own_links_loads_and_plays_on() -> None:
    """A save from before the one record: the procedure's links are read
    into the combat chain's, every view is the same, and the game plays on
    to the same damage (7.5.2) and close (7.7.5)."""
    game, _, helm = _defended()
    saved = _as_older_save(json.loads(json.dumps(game.to_json())))
    assert "cardzones.rulesets.fab.procedure.state:Link" in json.dumps(saved)
    loaded = Game.from_json(saved, game.ruleset)
    assert current(loaded) == current(game)
    for player in ("alice", "bob", None):
        assert loaded.view(player) == game.view(player)
    for each in (game, loaded):
        _passes(each, 2)
    assert loaded.records.get(PROCEDURE).links == ()  # the first act wrote it anew
    assert recorded(loaded) == recorded(game) and recorded(game)[0].damage == 3
    for each in (game, loaded):
        _passes(each, 2)
    assert loaded.view(None) == game.view(None)
    assert loaded.obj(helm).zone == _zone(loaded, "bob", "head")


def test_a_card_put_on_the_combat_chain_by_hand_defends_for_the_procedure_too() -> None:
    """7.0.5a: a card of the defending player that a judge puts on the
    combat chain is a defending card on the active chain link, for the
    scenario keys and for the damage step alike (5 power, 3 defense)."""
    game, block, helm = _defended()
    late = game.contents(_zone(game, "bob", "hand"))[0]
    game.act("move", card=late, to=_zone(game, None, "combat_chain"), by="bob")
    assert [chain_link.defending for chain_link in links(game)] == [(block, helm, late)]
    proc = current(game)
    assert proc is not None and proc.links[0].defending_cards == (block, helm, late)
    _passes(game, 2)
    assert recorded(game)[0].damage == 2


def test_an_attack_put_on_the_combat_chain_by_hand_is_a_link_the_procedure_names() -> None:
    """7.0.3a, 7.2.4a, 7.2.4b: an attack card of the turn player a judge puts
    on the combat chain starts chain link 2 for the keys and the procedure
    alike; the procedure names its players: alice attacks bob's hero."""
    game, _, _ = _defended()
    second = game.contents(_zone(game, "alice", "hand"))[0]
    game.act("move", card=second, to=_zone(game, None, "combat_chain"), by="alice")
    assert [chain_link.attack for chain_link in links(game)][1] == second
    proc = current(game)
    assert proc is not None and proc.links[-1].card == second
    assert (proc.links[-1].attacker, proc.links[-1].defender) == ("alice", "bob")
    view = game.view("bob")["procedure"]["links"]
    assert [(entry["number"], entry["defender"]) for entry in view] == [(1, "bob"), (2, "bob")]


def _general_merge(old: tuple[Link, ...], new: tuple[Link, ...]) -> tuple[Link, ...]:
    mine = {link.attack: link for link in new}
    kept = tuple(mine.pop(link.attack, link) for link in old)
    return (*kept, *(link for link in new if link.attack in mine))


def test_links_merged_as_recorded_whatever_their_attacks() -> None:
    """put_links keeps the links it is given as they are when they have the
    recorded links' attacks in the same order, each once; every other way it
    merges them link by link (7.0.3a, 7.0.3c): the result is the same."""
    one = Link((1, 1), "Jab", "alice", None, defender="bob")
    two = Link((2, 2), "Jab", "alice", None, defender="bob")
    three = Link((3, 3), "Jab", "alice", None, defender="bob")
    hit = one._replace(damage=3, hit=True)
    cases = [
        ((one,), (hit,)),
        ((one, two), (hit, two._replace(resolved=True))),
        ((one, two), (two, one)),
        ((one,), (hit, three)),
        ((one, two), (three,)),
        ((one, two), (hit, hit)),
        ((), (one,)),
        ((one, two, three), (hit,)),
    ]
    for old, new in cases:
        assert _merged(old, new) == _general_merge(old, new), (old, new)
