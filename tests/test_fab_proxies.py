"""The check of 1.4.3c after every fab action: an attack-proxy ceases to
exist once its attack-source is no longer the object it was. Attack-proxies
are recorded as they are made, so that with none there is nothing to check."""

from __future__ import annotations

from cardzones import Game, new_game
from cardzones.rulesets.fab.layers import PROXIES
from cardzones.rulesets.fab.turn import attack


def _armed() -> tuple[Game, int]:
    game = new_game("fab", ["alice", "bob"])
    sword = game.ruleset.make_card("Dawnblade", {"types": ("weapon", "sword", "2h"), "power": 3})
    blade = game.new_card(
        sword, game.zone("alice", "weapon"), owner="alice", controller="alice", public=True
    )
    game.forget_history()
    return game, blade


def test_an_attack_proxy_is_recorded_until_it_ceases() -> None:
    """1.4.3c"""
    game, blade = _armed()
    assert PROXIES not in game.records
    proxy = attack(game, blade, "alice")
    assert game.records.get(PROXIES) == (proxy,)
    game.move(blade, game.zone("alice", "graveyard"))
    assert not game.exists(proxy)
    assert PROXIES not in game.records
    game.undo()
    assert game.exists(proxy) and game.records.get(PROXIES) == (proxy,)


def test_a_proxy_whose_source_is_the_same_object_stays() -> None:
    """1.4.3c: only a source that is no longer the object it was ends the proxy."""
    game, blade = _armed()
    proxy = attack(game, blade, "alice")
    other = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    game.move(other, game.zone("alice", "graveyard"))
    assert game.exists(proxy) and game.records.get(PROXIES) == (proxy,)


def test_a_proxy_that_ceases_another_way_is_forgotten() -> None:
    """An attack-proxy removed as a layer (3.15.6) is no longer recorded."""
    game, blade = _armed()
    proxy = attack(game, blade, "alice")
    game.cease(proxy, "alice", cause="rule")
    assert PROXIES not in game.records
