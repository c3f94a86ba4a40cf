"""A menu on one card (``legal_actions(player, card=c)``) makes the
candidates of the shared actions whose one card is the card they act on
(move, flip, modify, grant) for that card alone
(:func:`~cardzones.acts.seats.actable_naming`), and lists what trying every
candidate of every card lists for it, on the benchmark's position.
"""

from __future__ import annotations

from test_legal_generated import said

from cardzones.acts.legal import legal_actions, tried_legal_actions
from cardzones.acts.seats import actable_cards, actable_naming, remembered
from cardzones.bench.position import build_position


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


def test_menus_on_the_benchmark_position_are_the_tried_ones() -> None:
    game = build_position()
    cards = sorted(game.cards())
    for card in cards[:: max(1, len(cards) // 12)]:
        for player in ("alice", "bob"):
            judged = legal_actions(game, player, card=card, judge=True)
            assert said(judged) == said(tried_legal_actions(game, player, card=card, judge=True))
