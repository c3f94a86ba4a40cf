"""A card with cards under or on it, judged without moving it: the rule set
says whether they go along (3.0.14c) or are cleared (3.0.14e, 3.0.12), and
whether a clear would need a choice of graveyard (3.0.10a), which only the
move meets (:meth:`Ruleset.foresee_children`). Each position here must list
exactly what trying every candidate lists, and the moves the rules judge are
not tried.
"""

from __future__ import annotations

import pytest
from test_legal import PLAYERS
from test_legal_generated import legal_counts_of, said

from cardzones import new_game
from cardzones.acts.legal import legal_actions, tried_legal_actions
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.game import Game
from cardzones.kernel.results import MoveResult
from cardzones.rulesets.fab.ruleset import FabRuleset

HERO = CardDef("Hero", frozenset({"hero"}), {"intellect": 4, "life": 20})
SOUL = CardDef("Herald", frozenset({"action"}))
AURA = CardDef("Aura", frozenset({"action", "aura"}))
COIN = CardDef("Coin", frozenset({"artifact"}))

#: Where fab's move takes a hero: to zones that make it a new object
#: (3.0.9, its sub-cards cleared, 3.0.14e) and to arena zones and the stack
#: that do not (carried along, 3.0.14c).
CLEARING = (Dest("graveyard", "alice"), Dest("banished", "alice"))
CARRYING = (Dest("permanent"), Dest("combat_chain"), Dest("stack"), Dest("arena"))


def _hero_with_souls(game: Game, owners: tuple[str, ...] = ("alice",) * 3) -> int:
    hero = game.new_card(HERO, game.zone("alice", "hero"))
    for owner in owners:
        card = game.new_card(SOUL, game.zone(owner, "hand"), owner=owner)
        game.act("put_under", card=card, top=hero, by="alice")
    return hero


def _same_and_untried(game: Game, card: int) -> list[tuple[Dest, MoveResult | None]]:
    judged = legal_actions(game, "alice", ["move"], card=card)
    assert said(judged) == said(tried_legal_actions(game, "alice", ["move"], card=card))
    return [(a.bound["to"], a.result) for a in judged]


def test_a_hero_with_sub_cards_is_judged_without_a_try_3_0_14c_3_0_14e() -> None:
    game = new_game("fab", list(PLAYERS))
    hero = _hero_with_souls(game)
    for dest in (*CLEARING, *CARRYING):
        assert game.foresee_move(hero, dest) is MoveResult.MOVED, dest
    listed = dict(_same_and_untried(game, hero))
    assert all(listed[dest] is MoveResult.MOVED for dest in (*CLEARING, *CARRYING))
    assert legal_counts_of(game, "alice", ["move"]) == 0
    # What was judged is what the move does: carried along, or cleared.
    trial = game.copy()
    trial.move(hero, Dest("permanent"))
    assert len(trial.kids(hero)) == 3  # 3.0.14c
    trial = game.copy()
    souls = game.kids(hero)
    trial.move(hero, Dest("banished", "alice"))
    graveyard = trial.zone("alice", "graveyard")
    assert not trial.kids(hero) and all(trial.location(s) == graveyard for s in souls)  # 3.0.14e


def test_the_benchmark_hero_is_judged_without_a_try_3_0_14e() -> None:
    from cardzones.bench.position import build_position

    game = build_position()
    hero = game.contents(game.zone("alice", "hero"))[0]
    assert game.kids(hero)
    assert _same_and_untried(game, hero)
    assert legal_counts_of(game, "alice", ["move"]) == 0


def test_a_clear_that_needs_a_choice_of_graveyard_is_tried_3_0_10a_3_0_14e() -> None:
    """With two graveyards, clearing the sub-cards needs the owner's choice
    (3.0.10a), which only the move meets: the rules cannot tell, so the
    move is tried; a move that carries them along needs no choice (3.0.14c)."""
    game = new_game("fab", list(PLAYERS))
    hero = _hero_with_souls(game)
    first = game.zone("alice", "graveyard")
    game.create_zone("alice", "graveyard")
    assert game.foresee_move(hero, Dest("banished", "alice")) is None
    # The hero's own graveyard is chosen; its sub-cards' is not.
    assert game.foresee_move(hero, Dest("graveyard", "alice"), choose_zone=first) is None
    for dest in CARRYING:
        assert game.foresee_move(hero, dest) is MoveResult.MOVED
    _same_and_untried(game, hero)
    assert legal_counts_of(game, "alice", ["move"]) > 0


def test_a_sub_card_of_another_owner_is_cleared_to_its_owners_graveyard_3_0_12() -> None:
    """A sub-card goes to its owner's graveyard (3.0.12): bob's two
    graveyards make a choice (3.0.10a), whoever moves the hero."""
    game = new_game("fab", list(PLAYERS))
    hero = _hero_with_souls(game, ("alice", "bob"))
    assert game.foresee_move(hero, Dest("banished", "alice")) is MoveResult.MOVED
    game.create_zone("bob", "graveyard")
    assert game.foresee_move(hero, Dest("banished", "alice")) is None
    assert game.foresee_move(hero, Dest("permanent")) is MoveResult.MOVED
    _same_and_untried(game, hero)


def test_cards_with_sub_cards_alike_are_judged_each_by_its_own_3_0_14e() -> None:
    """Alice's aura and hero are alike to what her move's admission reads
    (owner, visibility, category), and the aura is listed first; the hero's
    sub-card is bob's, and bob has two graveyards (3.0.10a): the aura's
    judgement must not do for the hero."""
    game = new_game("fab", list(PLAYERS))
    aura = game.new_card(AURA, game.zones_of(None, "permanent")[0], owner="alice")
    card = game.new_card(SOUL, game.zone("alice", "hand"), owner="alice")
    game.act("put_under", card=card, top=aura, by="alice")
    hero = _hero_with_souls(game, ("bob",))
    game.create_zone("bob", "graveyard")
    graveyard = Dest("graveyard", "alice")
    moves = [a.bound["card"] for a in legal_actions(game, "alice", ["move"])]
    assert moves.index(aura) < moves.index(hero)
    assert game.foresee_move(aura, graveyard) is MoveResult.MOVED
    assert game.foresee_move(hero, graveyard) is None
    for player in PLAYERS:
        judged = legal_actions(game, player)
        assert said(judged) == said(tried_legal_actions(game, player))


def test_the_lists_tell_a_wrong_judgement_of_sub_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison with trying holds the judgement to the rules: a rule
    set that said a clear needing a choice (3.0.10a) goes through would list
    moves that trying does not."""
    game = new_game("fab", list(PLAYERS))
    hero = _hero_with_souls(game)
    game.create_zone("alice", "graveyard")
    monkeypatch.setattr(FabRuleset, "foresee_children", lambda *args: True)
    judged = legal_actions(game, "alice", ["move"], card=hero)
    assert said(judged) != said(tried_legal_actions(game, "alice", ["move"], card=hero))


def test_a_token_under_a_hero_is_judged_3_0_12a() -> None:
    """A token sub-card cleared ceases to exist (3.0.12a): no graveyard, so
    no choice, even with two."""
    game = new_game("fab", list(PLAYERS))
    hero = game.new_card(HERO, game.zone("alice", "hero"))
    token = game.new_card(
        CardDef("Token", frozenset({"token", "aura"})), game.zones_of(None, "permanent")[0]
    )
    game.act("put_under", card=token, top=hero, by="alice")
    game.create_zone("alice", "graveyard")
    assert game.foresee_move(hero, Dest("banished", "alice")) is MoveResult.MOVED
    _same_and_untried(game, hero)


def test_cards_placed_on_a_redemption_card_go_along() -> None:
    """place/movement-follows-underlying: cards placed on a card that is not
    a site or a Lost Soul go along with it, which the rules judge; on a Lost
    Soul an exception may move them, which only the move tells."""
    game = new_game("redemption", list(PLAYERS))
    hero = CardDef("Hero", frozenset({"hero"}), {"strength": 5, "toughness": 5})
    host = game.new_card(hero, game.zone("alice", "territory"))
    territory = game.zone("alice", "territory")
    placed = game.new_card(COIN, territory)
    game.act("place", cards=[placed], onto=host, by="alice")
    assert game.kids(host) == (placed,)
    assert game.foresee_move(host, Dest("discard", "alice")) is MoveResult.MOVED
    judged = legal_actions(game, "alice", ["move"], card=host)
    assert judged
    assert said(judged) == said(tried_legal_actions(game, "alice", ["move"], card=host))
    assert legal_counts_of(game, "alice", ["move"]) == 0
    soul = game.new_card(CardDef("Soul", frozenset({"lost_soul"})), territory)
    coin = game.new_card(COIN, territory)
    game.act("place", cards=[coin], onto=soul, by="alice")
    assert game.foresee_move(soul, Dest("discard", "alice")) is None
    judged = legal_actions(game, "alice", ["move"], card=soul)
    assert said(judged) == said(tried_legal_actions(game, "alice", ["move"], card=soul))


def test_a_hero_with_sub_cards_moved_where_it_is_does_not_move_3_0_7b_3_0_14d() -> None:
    """A move to the zone the card is in is no move (3.0.7b); turned face
    down there, its sub-cards turn with it (3.0.14d), and nothing is cleared
    or needs a choice, whatever the graveyards."""
    game = new_game("fab", list(PLAYERS))
    hero = _hero_with_souls(game)
    game.create_zone("alice", "graveyard")
    for face in (None, "down"):
        assert game.foresee_move(hero, Dest("hero", "alice"), face=face) is MoveResult.NO_MOVE
    _same_and_untried(game, hero)
    souls = game.kids(hero)
    assert game.move(hero, Dest("hero", "alice"), face="down") is MoveResult.NO_MOVE
    assert game.kids(hero) == souls and not any(game.is_public(s) for s in souls)


def test_a_token_with_sub_cards_cleared_clears_them_3_0_12a_3_0_14e() -> None:
    """A token cleared ceases to exist (3.0.12a) and the cards under it are
    cleared (3.0.14e): with two graveyards for the sub-card's owner that
    needs a choice (3.0.10a), which only clearing meets. It is the owner's
    (bob's), not alice's: her clear is offered once he has chosen ahead."""
    game = new_game("fab", list(PLAYERS))
    token = game.new_card(
        CardDef("Token", frozenset({"token", "aura"})),
        game.zones_of(None, "permanent")[0],
        owner="alice",
        controller="alice",
    )
    assert game.foresee_clear(token) is MoveResult.CEASED
    card = game.new_card(SOUL, game.zone("bob", "hand"), owner="bob")
    game.act("put_under", card=card, top=token, by="alice")
    game.create_zone("bob", "graveyard")
    assert game.foresee_clear(token) is None
    judged = legal_actions(game, "alice", ["clear"], card=token, judge=True)
    tried = tried_legal_actions(game, "alice", ["clear"], card=token, judge=True)
    assert said(judged) == said(tried) and len(tried) == 0  # bob's choice: not alice's
    second = game.zone("bob", "graveyard", 2)
    game.act("zone_choice", zone=second, by="bob")
    judged = legal_actions(game, "alice", ["clear"], card=token, judge=True)
    tried = tried_legal_actions(game, "alice", ["clear"], card=token, judge=True)
    assert said(judged) == said(tried) and len(tried) == 1
    tried[0].apply(game)
    assert game.location(card) == second
