"""A menu on one card (``legal_actions(player, card=c)``) makes the
candidates of the shared actions whose one card is the card they act on
(move, flip, modify, grant; fab's play, pitch, clear, attack and a layer's
source) for that card alone
(:func:`~cardzones.acts.seats.actable_naming`), and of those whose one card
is any card the seat may name (counter, life) likewise
(:func:`~cardzones.acts.seats.nameable_naming`), and lists what trying every
candidate of every card lists for it, on the benchmark's position.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_legal_generated import said
from test_legal_sub_cards import _hero_with_souls
from test_table_frames import body, one_act

from cardzones import new_game
from cardzones.acts.legal import legal_actions, tried_legal_actions
from cardzones.acts.seats import (
    actable_cards,
    actable_naming,
    nameable_cards,
    nameable_naming,
    remembered,
)
from cardzones.bench.position import build_position
from cardzones.kernel.game import Game
from cardzones.table.creation import creation_from_request
from cardzones.table.table import Table


def test_actable_naming_gives_the_asked_card_alone() -> None:
    game = build_position()
    mine = actable_cards(game, "alice")
    theirs = next(c for c in sorted(game.cards()) if c not in mine)
    assert actable_naming(game, "alice") == mine  # no listing: every card
    with remembered(game, "alice"):
        assert actable_naming(game, "alice") == mine
    with remembered(game, "alice", mine[3]):
        assert actable_naming(game, "alice") == [mine[3]]
        assert actable_naming(game, "bob") == actable_cards(game, "bob")  # another seat's
    with remembered(game, "alice", theirs):
        assert actable_naming(game, "alice") == []  # not a card alice acts on
        assert nameable_naming(game, "alice") == (
            [theirs] if theirs in nameable_cards(game, "alice") else []
        )
    hidden = next(c for c in sorted(game.cards()) if c not in nameable_cards(game, "alice"))
    with remembered(game, "alice", hidden):
        assert nameable_naming(game, "alice") == []  # a card alice may not name


def test_menus_on_the_benchmark_position_are_the_tried_ones() -> None:
    game = build_position()
    cards = sorted(game.cards())
    for card in cards[:: max(1, len(cards) // 12)]:
        for player in ("alice", "bob"):
            judged = legal_actions(game, player, card=card, judge=True)
            assert said(judged) == said(tried_legal_actions(game, player, card=card, judge=True))


def _each_card_alone(game: Game) -> None:
    """A listing on one card tells each card of each player as the lists of
    every card they act on and of every card they may name do."""
    for player in game.players:
        mine = actable_cards(game, player)
        named = nameable_cards(game, player)
        for card in sorted(game.cards()):
            with remembered(game, player, card):
                alone = actable_naming(game, player)
                named_alone = nameable_naming(game, player)
            assert alone == ([card] if card in mine else []), (player, card)
            assert named_alone == ([card] if card in named else []), (player, card)


def test_a_card_alone_is_told_as_in_the_list_of_every_card() -> None:
    _each_card_alone(build_position())
    game = new_game("fab", ["alice", "bob"])
    hero = _hero_with_souls(game, ("alice", "bob", "alice"))  # sub-cards, one bob's
    for zone in ("deck", "hand", "deck"):
        for player in ("alice", "bob"):
            game.new_card(game.card_def("Snatch"), game.zone(player, zone))
    assert len(game.kids(hero)) == 3
    _each_card_alone(game)


@pytest.mark.parametrize("kind", ["fab", "redemption", "fab-procedure", "redemption-procedure"])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_card_alone_is_told_as_in_the_list_after_random_acts(kind: str, data: Any) -> None:
    table = Table.start("t1", creation_from_request(body(kind, data.draw(st.integers(1, 10**6)))))
    for _ in range(data.draw(st.integers(0, 20), label="acts")):
        one_act(table, table.players[data.draw(st.integers(0, 1))], data)
    _each_card_alone(table.game)
    # A card's menu of counters and life totals, as trying every candidate
    # of every card lists it for that card.
    game = table.game
    player = table.players[data.draw(st.integers(0, 1), label="seat")]
    card = data.draw(st.sampled_from(sorted(game.cards())), label="card")
    kept = ("counter", "life")
    judged = legal_actions(game, player, kept, card=card)
    assert said(judged) == said(tried_legal_actions(game, player, kept, card=card))
    if kind.startswith("fab"):
        # fab's own actions of one card (play, pitch, clear, attack, a layer's
        # source) are made for that card alone too, and a token's for none
        own = ("play", "pitch", "clear", "attack", "add_layer", "create_token")
        judged = legal_actions(game, player, own, card=card, judge=True)
        assert said(judged) == said(tried_legal_actions(game, player, own, card=card, judge=True))
