"""fab's tapped state (1.3.3b) as legal actions offer it and as the log and
views tell it, and the untap of the end of the turn (4.4.3d)."""

from __future__ import annotations

import pytest

from cardzones import Game, new_game
from cardzones.errors import IllegalAction
from cardzones.rulesets.fab.tapping import TAPPED, is_tapped, untap_all


def _table() -> tuple[Game, int, int, int]:
    game = new_game("fab", ["alice", "bob", "carol"])
    sword = game.ruleset.make_card("Dawnblade", {"types": ("weapon", "sword", "2h"), "power": 3})
    blade = game.new_card(
        sword, game.zone("alice", "weapon"), owner="alice", controller="alice", public=True
    )
    gauntlet = game.ruleset.make_card("Ironhide Gauntlet", {"types": ("equipment", "arms")})
    bobs = game.new_card(
        gauntlet, game.zone("bob", "arms"), owner="bob", controller="bob", public=True
    )
    hand = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    game.forget_history()
    return game, blade, bobs, hand


def _offered(game: Game, player: str, name: str) -> list[int]:
    return [a.bound["card"] for a in game.legal_actions(player, [name])]


def test_each_player_is_offered_to_tap_their_own_untapped_permanents() -> None:
    """1.3.3b: a player taps and untaps their own permanents at a table; a
    card that is no permanent is never offered."""
    game, blade, bobs, hand = _table()
    assert _offered(game, "alice", "tap") == [blade]
    assert _offered(game, "bob", "tap") == [bobs]
    assert _offered(game, "alice", "untap") == []
    game.act("tap", card=blade, by="alice")
    assert _offered(game, "alice", "tap") == [] and _offered(game, "alice", "untap") == [blade]
    assert hand not in _offered(game, "alice", "tap")


def test_a_refused_tap_changes_nothing_and_undo_untaps() -> None:
    game, blade, _, hand = _table()
    with pytest.raises(IllegalAction, match=r"only a permanent.*\(1\.3\.3b\)"):
        game.act("tap", card=hand)
    assert TAPPED not in game.records and game.log(None) == []
    game.act("tap", card=blade)
    game.undo()
    assert not is_tapped(game, blade) and TAPPED not in game.records


def test_the_log_names_a_private_permanent_as_private() -> None:
    """A face-down permanent's tap is logged without its name (3.0.7a)."""
    game = new_game("fab", ["alice", "bob"])
    ally = game.ruleset.make_card("Blasmophet", {"types": ("shadow", "demon", "ally")})
    hidden = game.new_card(
        ally, game.zone(None, "permanent"), owner="alice", controller="alice", public=False
    )
    if not game.is_permanent(hidden):
        pytest.skip("a face-down ally is no permanent here")
    game.act("tap", card=hidden, by="alice")
    for player in ("alice", "bob", None):
        assert all("Blasmophet" not in entry.get("note", "") for entry in game.log(player))


def test_finish_turn_untaps_only_the_turn_players_permanents() -> None:
    """4.4.3d"""
    game, blade, bobs, _ = _table()
    game.act("tap", card=blade, by="alice")
    game.act("tap", card=bobs, by="bob")
    game.act("finish_turn")
    assert not is_tapped(game, blade) and is_tapped(game, bobs)
    assert game.records.get(TAPPED) == frozenset({(bobs, game.obj(bobs).oid)})


def test_an_untap_that_changes_nothing_writes_nothing() -> None:
    """4.4.3d: the end of a turn in which the turn player has nothing tapped
    leaves the tapped record as it was, with no write to undo; a stale entry
    (a permanent that left the arena) is still dropped."""
    game, blade, bobs, _ = _table()
    before = game.checkpoint()
    untap_all(game, "alice")  # nothing tapped at all
    assert game.checkpoint().journal is before.journal and TAPPED not in game.records
    game.act("tap", card=bobs, by="bob")
    before = game.checkpoint()
    untap_all(game, "alice")  # only another player's permanent is tapped
    assert game.checkpoint().journal is before.journal
    assert is_tapped(game, bobs)
    game.act("tap", card=blade, by="alice")
    game.move(blade, game.zone("alice", "graveyard"))
    untap_all(game, "carol")  # the blade's entry is stale: dropped
    assert game.records.get(TAPPED) == frozenset({(bobs, game.obj(bobs).oid)})
