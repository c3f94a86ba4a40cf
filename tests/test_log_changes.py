"""What the others see: a change of a card's stats and the end of a battle
reach every viewer's log, and the log names the card only where every
viewer may look at it (3.0.7a)."""

from __future__ import annotations

from cardzones import new_game


def test_a_change_of_stats_is_in_every_log_naming_only_a_public_card() -> None:
    game = new_game("fab", ["alice", "bob"])
    hidden = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    public = game.new_card(game.card_def("Snatch"), game.zone(None, "combat_chain"), public=True)
    game.act("modify", card=hidden, power=2, by="alice")
    game.act("modify", card=public, power=-1, defense=1, until="end_of_turn", by="alice")
    for viewer in ("alice", "bob", None):
        first, second = game.log(viewer)[-2:]
        assert first["event"] == second["event"] == "modified"
        assert first["note"] == "a card in alice.hand gets +2 power"
        assert second["note"] == "alice's Snatch gets -1 power, +1 defense until end of turn"
        assert first["by"] == "alice"


def test_the_end_of_a_battle_is_in_every_log() -> None:
    game = new_game("redemption", ["alice", "bob"])
    game.act("end_battle", by="alice")
    for viewer in ("alice", "bob", None):
        entry = game.log(viewer)[-1]
        assert (entry["event"], entry["note"], entry["by"]) == (
            "battle",
            "the battle ends",
            "alice",
        )
