"""Ending the turn, judged without ending it (cardzones.rulesets.fab.turn_foresight,
Redemption's end_turn): on positions made to hold what the end of a turn
moves (a combat chain, pitch zones, a hand to fill, several graveyards, a
deck gone), legal actions list ``end_turn`` and ``finish_turn`` exactly as
trying them does, and try them only where a move cannot be told.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_legal import PLAYERS
from test_legal_generated import legal_counts_of, said

from cardzones import new_game
from cardzones.acts.binding import complete
from cardzones.errors import CardzonesError, NeedsChoice
from cardzones.kernel.cards import CardDef, Dest, Replacement
from cardzones.kernel.game import Game
from cardzones.kernel.objects import UNDER
from cardzones.kernel.results import MoveResult
from cardzones.rulesets.fab import turn_foresight

TURN = ["end_turn", "finish_turn"]
HERO = CardDef("Hero", frozenset({"hero"}), {"intellect": 4, "life": 20})
STRIKE = CardDef("Strike", frozenset({"action", "attack"}), {"power": 3})
ALLY = CardDef("Ally", frozenset({"action", "ally"}), {"life": 2})
#: 3.0.8a: put into a deck, it goes to the top of its owner's deck instead.
RETURNING = CardDef(
    "Returning",
    frozenset({"action"}),
    abilities=(Replacement("deck", None, Dest("hand", "owner")),),
)


def _game(deck: int = 6, hand: int = 2, pitch: int = 2) -> Game:
    game = new_game("fab", list(PLAYERS))
    for player in PLAYERS:
        game.new_card(HERO, game.zone(player, "hero"), owner=player, public=True)
        for n, ztype in ((deck, "deck"), (hand, "hand"), (pitch, "pitch")):
            for _ in range(n):
                game.new_card(STRIKE, game.zone(player, ztype), owner=player)
    return game


def _same(game: Game, player: str = "alice") -> list[tuple[str, MoveResult | None]]:
    judged = legal_actions_of(game, player)
    assert said(judged) == said(tried_of(game, player))
    return [(a.name, a.result) for a in judged]


def legal_actions_of(game: Game, player: str) -> list[Any]:
    return game.legal_actions(player, TURN)


def tried_of(game: Game, player: str) -> list[Any]:
    from cardzones.acts.legal import tried_legal_actions

    return tried_legal_actions(game, player, TURN)


def test_ending_the_turn_is_judged_without_a_try_4_4_3c_4_4_3f() -> None:
    game = _game()
    assert _same(game) == [("end_turn", MoveResult.DONE), ("finish_turn", MoveResult.DONE)]
    assert legal_counts_of(game, "alice", TURN) == 0
    # Not the turn player's to end (the seat policy): neither is listed.
    assert _same(game, "bob") == []


def test_closing_the_combat_chain_is_judged_3_6_2() -> None:
    """A card on the chain goes to its owner's graveyard, an ally back to the
    permanent zone: each move is judged, and nothing is tried."""
    game = _game()
    chain = game.zone(None, "combat_chain")
    game.new_card(STRIKE, chain, owner="bob", public=True)
    game.new_card(ALLY, chain, owner="alice", controller="alice", public=True)
    assert ("finish_turn", MoveResult.DONE) in _same(game)
    assert legal_counts_of(game, "alice", TURN) == 0


def test_a_chain_card_whose_owner_has_two_graveyards_waits_for_its_owner_3_0_10a() -> None:
    """Closing the chain sends a card to its owner's graveyard; of two, the
    owner chooses (3.0.10a), not the player who finishes the turn:
    finish_turn is not offered to alice until bob has chosen ahead, then
    once, judged so without a try, and the card goes where bob chose."""
    game = _game()
    strike = game.new_card(STRIKE, game.zone(None, "combat_chain"), owner="bob", public=True)
    second = game.create_zone("bob", "graveyard")
    assert _same(game) == [("end_turn", MoveResult.DONE)]
    assert legal_counts_of(game, "alice", TURN) == 0
    with pytest.raises(NeedsChoice, match="bob chooses"):
        game.act("finish_turn")
    game.act("zone_choice", zone=second, by="bob")
    assert _same(game) == [("end_turn", MoveResult.DONE), ("finish_turn", MoveResult.DONE)]
    assert legal_counts_of(game, "alice", TURN) == 0
    listed = [a for a in legal_actions_of(game, "alice") if a.name == "finish_turn"]
    assert [a.args["choose_zone"] for a in listed] == [None]
    listed[0].apply(game)
    assert game.location(strike) == second


def test_a_pitch_with_no_deck_to_go_to_is_tried_3_0_11() -> None:
    """A pitched card whose owner has no deck is cleared instead (3.0.11), to
    one of two graveyards (3.0.10a): only ending the turn meets that."""
    game = _game()
    game.act("remove_zone", zone=Dest("deck", "alice"), by="alice")
    assert game.zone("alice", "deck") is None
    _same(game)
    assert legal_counts_of(game, "alice", TURN) == 2
    # With two graveyards, alice chooses where her cleared cards go (3.0.10a):
    # each end of the turn is listed once per graveyard.
    game.create_zone("alice", "graveyard")
    assert (
        _same(game) == [("end_turn", MoveResult.DONE)] * 2 + [("finish_turn", MoveResult.DONE)] * 2
    )
    assert all(a.args["choose_zone"] is not None for a in legal_actions_of(game, "alice"))


def test_draws_past_the_deck_reach_the_pitched_cards_and_are_tried_4_4_3f() -> None:
    game = _game(deck=1, hand=0, pitch=2)
    _same(game)
    assert legal_counts_of(game, "alice", ["finish_turn"]) == 1
    # With nothing pitched, the draws empty the deck and stop: judged.
    game = _game(deck=1, hand=0, pitch=0)
    assert ("finish_turn", MoveResult.DONE) in _same(game)
    assert legal_counts_of(game, "alice", TURN) == 0


def test_a_draw_the_hand_cannot_take_stops_the_draws_3_0_11_4_4_3f() -> None:
    """A hero on top of the deck cannot go to a hand (3.9.2): the draw fails
    and the hand is filled no further; ending the turn ends."""
    game = _game(deck=2, hand=0, pitch=0)
    deck = game.zone("alice", "deck")
    top = game.new_card(HERO, deck, owner="alice", position="top", check=False)
    _same(game)
    game.act("finish_turn")
    assert game.location(top) == deck and game.turn == 2


def test_a_pitched_card_with_a_replacement_is_tried_3_0_8a() -> None:
    game = _game()
    game.new_card(RETURNING, game.zone("alice", "pitch"), owner="alice")
    _same(game)
    assert legal_counts_of(game, "alice", TURN) == 2


def _given(game: Game, name: str, args: dict[str, Any]) -> tuple[str, Any]:
    """What the action gives with these arguments: judged, and tried."""
    action = game.ruleset.actions[name]
    bound = complete(action, args)
    try:
        judged: Any = action.foresee(game, bound)
    except NeedsChoice:
        judged = "choice"
    except CardzonesError:
        judged = "refused"
    checkpoint = game.checkpoint()
    try:
        tried: Any = action.run(game, bound).result
    except NeedsChoice:
        tried = "choice"
    except CardzonesError:
        tried = "refused"
    finally:
        game.rollback(checkpoint)
    return judged, tried


def test_the_card_for_the_arsenal_is_judged_4_4_3b() -> None:
    game = _game()
    hand = game.contents(game.zone("alice", "hand"))
    deck = game.contents(game.zone("alice", "deck"))
    assert _given(game, "finish_turn", {"arsenal": hand[0]}) == (MoveResult.DONE,) * 2
    assert _given(game, "finish_turn", {"arsenal": deck[0]}) == ("refused",) * 2
    game.new_card(STRIKE, game.zone("alice", "arsenal"), owner="alice")
    assert _given(game, "finish_turn", {"arsenal": hand[0]}) == ("refused",) * 2  # 3.3.2a


def test_the_card_for_the_arsenal_makes_room_for_a_draw_4_4_3b_4_4_3f() -> None:
    """A full hand (intellect 4) draws nothing, until a card of it goes to
    the arsenal: then it draws one, which with two hands needs a choice
    (3.0.10a) that finish_turn does not take."""
    game = _game(hand=4)
    game.create_zone("alice", "hand")
    hand = game.contents(game.zone("alice", "hand"))
    assert _given(game, "finish_turn", {}) == (MoveResult.DONE,) * 2
    assert _given(game, "finish_turn", {"arsenal": hand[0]}) == ("choice",) * 2


def test_the_card_for_the_arsenal_from_a_second_hand_leaves_the_first_full_4_4_3f() -> None:
    """The draws fill the first hand (4.4.3f); a card for the arsenal from
    another hand of the player's (3.0.10) leaves it as full as it was."""
    game = _game(hand=4)
    second = game.create_zone("alice", "hand")
    card = game.new_card(STRIKE, second, owner="alice")
    assert _given(game, "finish_turn", {"arsenal": card}) == (MoveResult.DONE,) * 2


def test_the_lists_tell_a_wrong_judgement_of_the_end_of_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The comparison with trying holds the judgement to the rules: one that
    said the pitch always goes to the deck would list an end of turn that
    needs a choice of graveyard (3.0.11, 3.0.10a)."""
    game = _game()
    game.act("remove_zone", zone=Dest("deck", "alice"), by="alice")
    game.create_zone("alice", "graveyard")
    monkeypatch.setattr(turn_foresight, "_pitch_goes", lambda game: True)
    assert said(legal_actions_of(game, "alice")) != said(tried_of(game, "alice"))


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_the_end_of_turn_is_judged_as_it_is_tried(data: st.DataObject) -> None:
    """Random end-of-turn positions: the turn, the cards on the chain (and
    under them), in
    hands, decks and pitch zones, extra graveyards and hands, a deck gone, a card no
    hand takes in a deck, the card for the arsenal."""
    draw = data.draw
    game = _game(
        deck=draw(st.integers(0, 5), label="deck"),
        hand=draw(st.integers(0, 5), label="hand"),
        pitch=0,
    )
    if draw(st.booleans(), label="third turn"):
        game.end_turn()
        game.end_turn()
    for player in PLAYERS:
        for _ in range(draw(st.integers(0, 2), label=f"{player} pitch")):
            game.new_card(STRIKE, game.zone(player, "pitch"), owner=player)
    chain = game.zone(None, "combat_chain")
    for cdef in draw(st.lists(st.sampled_from([STRIKE, ALLY, RETURNING]), max_size=3)):
        owner = draw(st.sampled_from(PLAYERS), label="owner")
        card = game.new_card(cdef, chain, owner=owner, controller=owner, public=draw(st.booleans()))
        if draw(st.integers(0, 2), label="a card under it") == 0:  # 3.0.14c, 3.0.14e
            kid_owner = draw(st.sampled_from(PLAYERS), label="its owner")
            game.new_card(STRIKE, chain, owner=kid_owner, host=card, rel=UNDER, check=False)
    for player in PLAYERS:
        if draw(st.integers(0, 4), label=f"{player} loses the deck") == 0:
            game.act("remove_zone", zone=Dest("deck", player), by=player)
        if draw(st.booleans(), label=f"{player} two graveyards"):
            game.create_zone(player, "graveyard")
        if draw(st.integers(0, 3), label=f"{player} two hands") == 0:
            game.create_zone(player, "hand")  # a draw needs a choice (3.0.10a)
        deck = game.zone(player, "deck")
        if deck is not None and draw(st.booleans(), label=f"{player} has a hero in the deck"):
            at = draw(st.integers(0, len(game.contents(deck))), label="at")
            game.new_card(HERO, deck, owner=player, position=at, check=False)  # 3.9.2
        if draw(st.booleans(), label=f"{player} pitches a returning card"):
            game.new_card(RETURNING, game.zone(player, "pitch"), owner=player)
    player = game.turn_player
    _same(game, player)
    hand = game.zone(player, "hand")
    candidates = [*game.contents(hand), *game.contents(chain)] if hand is not None else []
    if candidates:
        card = draw(st.sampled_from(candidates), label="arsenal")
        judged, tried = _given(game, "finish_turn", {"arsenal": card})
        assert judged in (None, tried)
    judged, tried = _given(game, "end_turn", {})
    assert judged in (None, tried)


def test_a_redemption_turn_ends_judged_unless_set_aside_cards_may_return() -> None:
    """Ending a Redemption turn runs the phases it has not reached; only the
    preparation phase's returns (set-aside/duration-returns) are not told."""
    game = new_game("redemption", list(PLAYERS))
    territory = game.zone("alice", "territory")
    card = game.new_card(CardDef("Coin", frozenset({"artifact"})), territory, owner="alice")
    listed = game.legal_actions("alice", ["end_turn"])
    assert [(a.name, a.result) for a in listed] == [("end_turn", MoveResult.DONE)]
    assert legal_counts_of(game, "alice", ["end_turn"]) == 0
    game.act("set_aside", cards=[card], duration=1, by="alice")
    # Counted from alice's next upkeep (turn 3), where it is due: only then
    # is the end of her turn tried, the card returning as preparation begins.
    tries = []
    for _ in range(4):
        judged = game.legal_actions(game.turn_player, ["end_turn"])
        assert said(judged) == said(tried_of(game, game.turn_player))
        tries.append(legal_counts_of(game, game.turn_player, ["end_turn"]))
        game.act("end_turn")
    assert tries == [0, 0, 1, 0]
    assert game.location(card) == territory
