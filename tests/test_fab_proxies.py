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


def _shown(game: Game, player: str, zone: str) -> list[dict[str, object]]:
    board = game.view(player)
    found = next(z for z in board["zones"] if z["zone"] == zone)
    return list(found["objects"])


def test_every_viewer_is_shown_the_inherited_power() -> None:
    """1.4.3a, 1.4.3d: the proxy's view reads its source's modified power,
    for each player and the author alike."""
    game, blade = _armed()
    game.act("modify", card=blade, power=1)
    proxy = attack(game, blade, "alice")
    game.act("counter", card=blade, name="+1_power", add=1, by="alice")
    for player in ("alice", "bob", None):
        (shown,) = _shown(game, player, "stack")  # type: ignore[arg-type]
        assert shown["power"] == 5 and "counters" not in shown
    game.act("resolve")
    assert [o["power"] for o in _shown(game, "bob", "combat_chain")] == [5]
    assert game.stat(proxy, "power") == 5


def test_following_a_source_writes_nothing_while_it_does_not_change() -> None:
    """An action that changes no source leaves the proxy's effects as they
    are, and undo takes an inherited change back with its action."""
    game, blade = _armed()
    proxy = attack(game, blade, "alice")
    game.act("modify", card=blade, power=2)
    before = game.effects_on(proxy)
    other = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    game.move(other, game.zone("alice", "graveyard"))
    assert game.effects_on(proxy) == before
    game.undo()
    assert game.effects_on(proxy) == before
    game.undo()
    assert game.stat(proxy, "power") == 3 and game.effects_on(proxy) == ()


def test_the_second_attack_of_a_weapon_ends_the_first_only_on_the_chain() -> None:
    """1.4.3c: while both proxies are on the stack, the weapon is on no chain
    link, and both stay; the one that becomes a chain link ends the other
    once that one is on the chain."""
    game, blade = _armed()
    first = attack(game, blade, "alice")
    second = attack(game, blade, "alice")
    assert game.exists(first) and game.exists(second)
    game.act("resolve")  # the second, on top, becomes chain link 1
    assert game.exists(first) and game.exists(second)
    game.act("resolve")  # the first becomes chain link 2: the weapon goes with it
    assert game.exists(first) and not game.exists(second)


def test_a_saved_game_keeps_chain_links_tapped_permanents_and_inherited_power() -> None:
    """The records of chain links (7.0.3a), tapped permanents (1.3.3b) and a
    proxy's inherited effect (1.4.3d) go through a save and a load."""
    import json

    from cardzones.rulesets.fab.chain import links
    from cardzones.rulesets.fab.tapping import is_tapped

    game, blade = _armed()
    proxy = attack(game, blade, "alice")
    game.act("resolve")
    game.act("tap", card=blade)
    game.act("modify", card=blade, power=1)
    sink = game.new_card(game.card_def("Sink Below"), game.zone("bob", "hand"), owner="bob")
    game.act("move", card=sink, to=game.zone(None, "combat_chain"), by="bob")
    loaded = Game.from_json(json.loads(json.dumps(game.to_json())), game.ruleset)
    assert links(loaded) == links(game) and [link.defending for link in links(loaded)] == [(sink,)]
    assert is_tapped(loaded, blade) and loaded.stat(proxy, "power") == 4
