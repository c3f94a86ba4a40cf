"""A listed action applied later: the seat policy is checked again on the
game as it is then, the quick way a listing checks it, and where that
refuses the binder refuses with its own message, as before the quick way."""

from __future__ import annotations

import pytest

from cardzones import new_game
from cardzones.acts.binding import RESOLVED, bind
from cardzones.acts.candidate_shapes import seat_checked
from cardzones.acts.seats import SeatPolicy, SeatRefusal
from cardzones.errors import CardzonesError
from cardzones.kernel.game import Game


def _game_with_a_card_in_hand() -> tuple[Game, int]:
    game = new_game("fab", ["alice", "bob"])
    hand = game.zone("alice", "hand")
    assert hand is not None
    card = game.new_card(game.card_def("Snatch"), hand)
    return game, card


def test_a_listed_play_binds_as_the_binder_binds_it() -> None:
    game, _ = _game_with_a_card_in_hand()
    listed = game.legal_actions("alice", actions=["play", "pitch", "flip"])
    assert listed
    for legal in listed:
        quick = seat_checked(game, "alice", legal.action, legal.bound)
        bound = bind(legal.action, legal.bound, RESOLVED, seat=SeatPolicy(game, "alice"))
        assert quick == bound
        assert list(quick or ()) == list(bound)


def test_a_card_the_player_may_not_look_at_is_refused_by_the_binder() -> None:
    game, card = _game_with_a_card_in_hand()
    (play,) = game.legal_actions("alice", actions=["play"], card=card)
    # A card of bob's hand, which alice never saw, in place of her own.
    bobs = game.zone("bob", "hand")
    assert bobs is not None
    hidden = game.new_card(game.card_def("Snatch"), bobs)
    assert not game.may_look("alice", hidden)
    bound = {**play.bound, "card": hidden}
    assert seat_checked(game, "alice", play.action, bound) is None
    before = game.copy()
    with pytest.raises(SeatRefusal, match="may not look at"):
        play._replace(bound=bound).apply(game)
    assert game.same_state(before)


def test_another_players_act_and_a_gone_card_fall_back_to_the_binder() -> None:
    game, card = _game_with_a_card_in_hand()
    (play,) = game.legal_actions("alice", actions=["play"], card=card)
    assert seat_checked(game, "bob", play.action, play.bound) is None
    with pytest.raises(SeatRefusal):
        play._replace(player="bob").apply(game)
    # A card that ceased to exist: the quick way leaves it to the binder,
    # whose error names what is wrong.
    game.cease(card)
    assert seat_checked(game, "alice", play.action, play.bound) is None
    with pytest.raises(CardzonesError):
        play.apply(game)
