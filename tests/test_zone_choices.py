"""Choices of zone in follow-on moves (3.0.10a with 3.0.12, 3.0.14e, 3.3.3b,
3.15.6, 4.4.3c): every choice any action can cause is given by the moved
card's owner, in the Python API (a zone, or a mapping from a player or a card
to a zone, several owners' choices in one act), in legal actions (one entry
per choice of the player's own; another owner's comes from their standing
choice) and as a step; a missing one is refused with ``needs a choice`` and
its options, never made for the player.
"""

from __future__ import annotations

import pytest
from test_legal import PLAYERS
from test_legal_generated import said

from cardzones import new_game
from cardzones.acts.actions import ArgumentError
from cardzones.acts.binding import complete
from cardzones.acts.legal import tried_legal_actions
from cardzones.acts.zone_choices import ZoneChoices
from cardzones.errors import NeedsChoice
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.game import Game
from cardzones.kernel.results import MoveResult

STRIKE = CardDef("Strike", frozenset({"action", "attack"}), {"power": 3})
ALLY = CardDef("Ally", frozenset({"action", "ally"}), {"life": 2})


def _chain_of_two_owners() -> tuple[Game, int, int]:
    """alice's and bob's cards on the combat chain; each has two graveyards."""
    game = new_game("fab", list(PLAYERS))
    chain = game.zone(None, "combat_chain")
    mine = game.new_card(STRIKE, chain, owner="alice", public=True)
    theirs = game.new_card(STRIKE, chain, owner="bob", public=True)
    for player in ("alice", "bob"):
        game.create_zone(player, "graveyard")
    return game, mine, theirs


def _graveyard(game: Game, player: str, n: int) -> int:
    zone = game.zone(player, "graveyard", n)
    assert zone is not None
    return zone


def test_closing_a_chain_of_two_owners_takes_both_choices_3_0_10a() -> None:
    game, mine, theirs = _chain_of_two_owners()
    a2, b1 = _graveyard(game, "alice", 2), _graveyard(game, "bob", 1)
    with pytest.raises(NeedsChoice) as needed:
        game.act("close_chain", choose_zone=a2)
    assert needed.value.chooser == "bob"
    assert needed.value.options == ("bob.graveyard.1", "bob.graveyard.2")
    assert game.location(theirs) == game.zone(None, "combat_chain")  # nothing changed
    game.act("close_chain", choose_zone={"alice": a2, "bob": b1})
    assert (game.location(mine), game.location(theirs)) == (a2, b1)


@pytest.mark.parametrize("bob_chooses", [1, 2])
def test_legal_actions_list_one_entry_per_choice_of_the_player_s_own_3_0_10a(
    bob_chooses: int,
) -> None:
    """A player acting for themselves gives only their own choices: alice's
    legal actions offer no choice of bob's, so closing the chain is not
    offered until bob chooses ahead; then once per choice of alice's."""
    game, mine, theirs = _chain_of_two_owners()
    assert game.legal_actions("alice", ["close_chain"]) == []
    assert tried_legal_actions(game, "alice", ["close_chain"]) == []
    game.act("zone_choice", zone=_graveyard(game, "bob", bob_chooses), by="bob")
    listed = game.legal_actions("alice", ["close_chain"])
    assert said(listed) == said(tried_legal_actions(game, "alice", ["close_chain"]))
    steps = [a.to_json(game)["close_chain"]["choose_zone"] for a in listed]
    assert steps == ["alice.graveyard.1", "alice.graveyard.2"]
    for action, step in zip(listed, steps, strict=True):
        trial = game.copy()
        action.apply(trial)
        assert trial.zone_name(trial.location(mine)) == step
        assert trial.zone_name(trial.location(theirs)) == f"bob.graveyard.{bob_chooses}"


def test_a_card_s_own_choice_comes_before_its_owner_s_3_0_10a() -> None:
    game, mine, theirs = _chain_of_two_owners()
    other = game.new_card(STRIKE, game.zone(None, "combat_chain"), owner="alice", public=True)
    a1, a2, b2 = (_graveyard(game, p, n) for p, n in (("alice", 1), ("alice", 2), ("bob", 2)))
    game.act("close_chain", choose_zone={"alice": a1, other: a2, "bob": b2})
    assert [game.location(c) for c in (mine, other, theirs)] == [a1, a2, b2]


def test_a_permanent_s_sub_cards_cleared_as_it_moves_take_the_choice_3_0_14e() -> None:
    """Once alice has two graveyards, a permanent with a sub-card can go to
    one of them: the one zone given is the choice for both of her cards."""
    game = new_game("fab", list(PLAYERS))
    ally = game.new_card(ALLY, game.zone(None, "permanent"), owner="alice", public=True)
    sub = game.new_card(STRIKE, game.zone("alice", "hand"), owner="alice")
    game.act("put_under", card=sub, top=ally, by="alice")
    a2 = game.create_zone("alice", "graveyard")
    listed = game.legal_actions("alice", ["move"], card=ally)
    to_graveyard = [a for a in listed if a.bound["to"] == Dest("graveyard", "alice")]
    assert [a.bound["choose_zone"] for a in to_graveyard] == [_graveyard(game, "alice", 1), a2]
    game.act("move", card=ally, to=Dest("graveyard", "alice"), choose_zone=a2)
    assert game.location(ally) == game.location(sub) == a2


@pytest.mark.parametrize(
    ("owner", "start", "ztype", "name", "args"),
    [
        # A card-layer removed from the stack, as a negate does (3.15.6).
        ("bob", "stack", "graveyard", "remove_layer", {"layer": 1}),
        # The pitch goes to the bottom of its owner's deck (4.4.3c).
        ("alice", "pitch", "deck", "end_turn", {}),
    ],
)
def test_the_card_goes_to_the_zone_its_owner_chooses_3_15_6_4_4_3c(
    owner: str, start: str, ztype: str, name: str, args: dict[str, int]
) -> None:
    game = new_game("fab", list(PLAYERS))
    card = game.new_card(STRIKE, game.zone(owner, "hand"), owner=owner)
    game.move(card, Dest(start, owner), by=owner)
    second = game.create_zone(owner, ztype)
    where = game.location(card)
    with pytest.raises(NeedsChoice, match=f"the {ztype} zone \\({owner} chooses\\)"):
        game.act(name, **args)
    assert (game.turn, game.location(card)) == (1, where)  # refused: nothing changed
    listed = game.legal_actions("alice", [name])
    assert said(listed) == said(tried_legal_actions(game, "alice", [name]))
    if owner == "alice":
        assert [a.bound["choose_zone"] for a in listed] == [game.zone(owner, ztype), second]
        game.act(name, **args, choose_zone={owner: second})
    else:
        # Bob's choice is not alice's to give: offered once bob has chosen ahead.
        assert listed == []
        game.act("zone_choice", zone=second, by=owner)
        listed = game.legal_actions("alice", [name])
        assert [a.bound["choose_zone"] for a in listed] == [None]
        listed[0].apply(game)
    assert game.location(card) == second


def test_finish_turn_takes_the_arsenal_choice_3_3_3b() -> None:
    game = new_game("fab", list(PLAYERS))
    card = game.new_card(STRIKE, game.zone("alice", "hand"), owner="alice")
    second = game.create_zone("alice", "arsenal")
    with pytest.raises(NeedsChoice, match="arsenal zone"):
        game.act("finish_turn", arsenal=card)
    # Judged as it is made: the choice is needed, and given it is done.
    action = game.ruleset.actions["finish_turn"]
    with pytest.raises(NeedsChoice, match="arsenal zone"):
        action.foresee(game, complete(action, {"arsenal": card}))
    chosen = complete(action, {"arsenal": card, "choose_zone": second})
    assert action.foresee(game, chosen) is MoveResult.DONE
    game.act("finish_turn", arsenal=card, choose_zone=second)
    assert game.location(card) == second


def test_a_mapping_that_names_nothing_is_refused() -> None:
    game, _, _ = _chain_of_two_owners()
    with pytest.raises(ArgumentError, match="not a zone id"):
        game.act("close_chain", choose_zone={"alice": "alice.graveyard.2"})
    with pytest.raises(ArgumentError, match="takes a zone"):
        game.act("close_chain", choose_zone={})
    assert ZoneChoices((("alice", (1,)),)).with_choice("alice", 2).pairs == (("alice", (1, 2)),)


@pytest.mark.parametrize("ahead", [False, True])
def test_every_action_is_judged_as_it_runs_with_several_zones_of_a_type_3_0_10a(
    ahead: bool,
) -> None:
    """With two graveyards, hands, pitch zones and decks each, and a card of
    each owner on the chain and the stack, what legal actions list (judged,
    where they can, without trying) is what trying every candidate lists;
    and so it is once each player has chosen ahead (zone_choice)."""
    game, _, _ = _chain_of_two_owners()
    for player in ("alice", "bob"):
        for ztype in ("hand", "pitch", "deck"):
            game.create_zone(player, ztype)
        game.new_card(STRIKE, game.zone(player, "hand"), owner=player)
        game.new_card(STRIKE, game.zone(player, "deck"), owner=player)
        game.new_card(STRIKE, game.zone(player, "pitch"), owner=player, public=True)
    layer = game.new_card(STRIKE, game.zone("bob", "hand"), owner="bob")
    game.move(layer, Dest("stack"), by="bob")
    if ahead:
        for player in ("alice", "bob"):
            for ztype in ("graveyard", "hand", "pitch", "deck"):
                second = game.zone(player, ztype, 2)
                assert second is not None
                game.act("zone_choice", zone=second, by=player)
    for player in ("alice", "bob"):
        listed = game.legal_actions(player)
        assert said(listed) == said(tried_legal_actions(game, player))
        if player == game.turn_player and ahead:
            assert {"close_chain", "remove_layer", "end_turn"} <= {a.name for a in listed}
        elif player == game.turn_player:
            # Bob's cards need bob's choices, which are not alice's to give.
            assert not {"close_chain", "remove_layer"} & {a.name for a in listed}
    if ahead:
        game.act("close_chain")
        assert game.contents(_graveyard(game, "bob", 2))
