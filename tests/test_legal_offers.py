"""What legal actions offer a player beyond the rules of the zones: a judge's
actions only when asked for (``Action.judge``), and only the plays the rule
set's turn makes sense of (``Action.offer``: fab's card types). Both are
left out of what a player is offered, never refused: ``game.act`` still
takes them (docs/api.md, "What legal covers")."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from conftest import patience_ruleset

from cardzones import new_game
from cardzones.acts import GRANT, action_table, legal_actions, tried_legal_actions
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.game import Game
from cardzones.kernel.results import MoveResult
from cardzones.rulesets import get_ruleset, register_ruleset, unregister_ruleset
from cardzones.rulesets.fab.offers import attackers, offers_play

#: The actions each shipped table marks as a judge's.
JUDGES = {
    "fab": {"allow_look", "clear", "put_under", "grant", "create_zone", "remove_zone"},
    "redemption": {"grant"},
}


# ----------------------------------------------------------------------
# A judge's actions
# ----------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", sorted(JUDGES))
def test_each_table_marks_a_judges_actions_and_serves_the_mark(ruleset: str) -> None:
    table = get_ruleset(ruleset).actions
    assert {name for name, action in table.items() if action.judge} == JUDGES[ruleset]
    for name, action in table.items():
        assert action.to_json().get("judge") is (True if name in JUDGES[ruleset] else None)


def _names(listed: list[object]) -> set[str]:
    return {a.name for a in listed}  # type: ignore[attr-defined]


def test_fab_lists_a_judges_actions_when_named_or_asked_for() -> None:
    game = new_game("fab", ["alice", "bob"])
    snatch = CardDef("Snatch", frozenset({"action", "attack"}), {"power": 4})
    game.new_card(snatch, game.zone("alice", "hand"))
    game.new_card(snatch, game.zone("alice", "deck"))
    offered = _names(game.legal_actions("alice"))
    assert offered and not offered & JUDGES["fab"]
    everything = _names(game.legal_actions("alice", judge=True))
    assert {"clear", "create_zone", "remove_zone"} <= everything  # her own hand, too
    assert everything - JUDGES["fab"] == offered
    assert _names(game.legal_actions("alice", actions=["remove_zone"])) == {"remove_zone"}
    for judge in (False, True):
        assert _names(tried_legal_actions(game, "alice", judge=judge)) == _names(
            legal_actions(game, "alice", judge=judge)
        )
    # left out of the offer, not refused
    hand = game.zone("alice", "hand")
    assert game.act("remove_zone", zone=Dest("hand", "alice")).result is MoveResult.DONE
    assert game.zone("alice", "hand") is None and hand is not None


def test_redemption_lists_grant_when_asked_for() -> None:
    game = new_game("redemption", ["alice", "bob"])
    hero = CardDef("Hero", frozenset({"hero"}), {"strength": 5, "toughness": 5})
    brave = CardDef("Brave", frozenset({"hero"}), {"strength": 1}, keywords=frozenset({"brave"}))
    game.new_card(hero, game.zone("alice", "territory"))
    game.new_card(brave, game.zone("alice", "territory"))
    assert "grant" not in _names(game.legal_actions("alice"))
    asked = game.legal_actions("alice", judge=True)
    assert "grant" in _names(asked)
    assert _names(asked) - {"grant"} == _names(game.legal_actions("alice"))


@pytest.fixture
def patience() -> Iterator[type]:
    unregister_ruleset("patience")
    ruleset = patience_ruleset()
    register_ruleset(ruleset)
    yield ruleset
    unregister_ruleset("patience")


def test_a_third_game_gets_the_mark_from_the_shared_actions(patience: type) -> None:
    """Patience marks nothing, and offers everything; a table that takes the
    shared ``grant`` has it marked as a judge's without saying so."""
    assert not any(a.judge or a.offer for a in patience.actions.values())  # type: ignore[attr-defined]
    game = new_game("patience", ["alice", "bob"])
    ace = CardDef("1 of clubs", frozenset({"clubs"}), {"rank": 1}, keywords=frozenset({"wild"}))
    game.new_card(ace, game.zone("alice", "waste"))
    game.new_card(ace, game.zone("alice", "stock"))
    assert _names(game.legal_actions("alice", judge=True)) == _names(game.legal_actions("alice"))

    def grants(game: Game, player: str) -> Iterator[dict[str, object]]:
        for card in game.contents(game.zone(player, "waste")):  # type: ignore[arg-type]
            yield {"card": card, "keyword": "lucky"}

    class Granting(patience):  # type: ignore[misc, valid-type]
        name = "patience_granting"
        actions = action_table(*patience.actions.values(), replace(GRANT, candidates=grants))  # type: ignore[attr-defined]

    register_ruleset(Granting)
    try:
        assert Granting.actions["grant"].judge
        game = new_game("patience_granting", ["alice", "bob"])
        game.new_card(ace, game.zone("alice", "waste"))
        assert "grant" not in _names(game.legal_actions("alice"))
        assert "grant" in _names(game.legal_actions("alice", judge=True))
        assert "grant" in _names(game.legal_actions("alice", actions=["grant"]))
    finally:
        unregister_ruleset("patience_granting")


# ----------------------------------------------------------------------
# What fab offers to play
# ----------------------------------------------------------------------

SINK = CardDef("Sink Below", frozenset({"generic", "defense_reaction"}), {"defense": 4})
RALLY = CardDef("Rally", frozenset({"generic", "attack_reaction"}), {"power": 1})
SNATCH = CardDef("Snatch", frozenset({"generic", "action", "attack"}), {"power": 4})
SHIELD = CardDef("Shield", frozenset({"generic", "instant"}))
BLADE = CardDef("Dawnblade", frozenset({"weapon", "sword", "2h"}), {"power": 3})


def _duel() -> tuple[Game, dict[str, int]]:
    game = new_game("fab", ["alice", "bob"])
    cards = {}
    for player in ("alice", "bob"):
        hand = game.zone(player, "hand")
        for cdef in (SINK, RALLY, SNATCH, SHIELD):
            cards[f"{player} {cdef.name}"] = game.new_card(cdef, hand)
    cards["blade"] = game.new_card(BLADE, game.zone("alice", "weapon"), public=True)
    return game, cards


def _plays(game: Game, player: str) -> set[str]:
    listed = game.legal_actions(player, actions=["play"])
    tried = tried_legal_actions(game, player, ["play"])
    assert [a.bound for a in listed] == [a.bound for a in tried]
    return {game.obj(a.bound["card"]).name for a in listed}


def test_fab_offers_reactions_only_around_an_attack_on_the_combat_chain() -> None:
    game, cards = _duel()
    # alice's turn, nothing on the stack nor the chain: her action and
    # instant; bob's instant alone
    assert _plays(game, "alice") == {"Snatch", "Shield"}
    assert _plays(game, "bob") == {"Shield"}
    # her weapon attacks: on the stack, the attack is not yet a chain link,
    # and an action card waits for the stack to be empty
    game.act("attack", card=cards["blade"], by="alice")
    assert attackers(game) == set()
    assert _plays(game, "alice") == {"Shield"}
    assert _plays(game, "bob") == {"Shield"}
    game.act("resolve", by="alice")
    assert attackers(game) == {"alice"}
    # bob defends: his defense reaction; alice attacks: her attack reaction
    assert _plays(game, "bob") == {"Sink Below", "Shield"}
    assert _plays(game, "alice") == {"Rally", "Snatch", "Shield"}
    game.act("close_chain", by="alice")
    assert _plays(game, "bob") == {"Shield"}


def test_an_attack_card_on_the_chain_is_an_attack_too() -> None:
    game, cards = _duel()
    game.act("move", card=cards["alice Snatch"], to=Dest("combat_chain"), by="alice")
    assert attackers(game) == {"alice"}
    assert "Sink Below" in _plays(game, "bob")
    assert "Sink Below" not in _plays(game, "alice")


def test_what_fab_does_not_offer_the_rules_still_accept_3_3_4() -> None:
    game, cards = _duel()
    assert "Sink Below" not in _plays(game, "bob")
    done = game.act("play", card=cards["bob Sink Below"], by="bob")
    assert done.result is MoveResult.MOVED
    assert game.zone_name(game.location(cards["bob Sink Below"])) == "stack"


def test_a_card_the_player_may_not_look_at_is_offered_whatever_it_is() -> None:
    game, cards = _duel()
    card = cards["bob Sink Below"]
    assert not offers_play(game, {"card": card, "by": "bob"})
    # alice may not look at bob's card: what fab would offer bob tells her nothing
    assert offers_play(game, {"card": card, "by": "alice"})


def test_an_attack_card_that_defends_is_no_attack_7_0_5a() -> None:
    """bob defends alice's weapon attack with an attack action card: it is a
    defending card on her chain link, not an attack of his, so he is offered
    no attack reaction and she no defense reaction."""
    game, cards = _duel()
    game.act("attack", card=cards["blade"], by="alice")
    game.act("resolve", by="alice")
    game.act("move", card=cards["bob Snatch"], to=Dest("combat_chain"), by="bob")
    assert attackers(game) == {"alice"}
    assert "Rally" not in _plays(game, "bob")
    assert "Sink Below" in _plays(game, "bob")
    assert "Sink Below" not in _plays(game, "alice")
    assert "Rally" in _plays(game, "alice")
