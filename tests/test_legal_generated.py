"""Legal actions judged from the rules are the legal actions found by trying:
on random positions of both rule sets and of the example third game
(patience, tests/plugins), ``legal_actions`` (each candidate judged by its
action's ``foresee``, only the rest tried) gives exactly the list of
``tried_legal_actions`` (every candidate tried on the game and taken back):
the same actions, in the same order, with the same results. So does each
of them asked for one card or one zone.

What the list leaves out (docs/api.md): a candidate the seat policy or the
rules refuse, one whose effect would fail (3.0.11) where the player sees
everything it names, one the rule set does not offer (``Action.offer``),
and a judge's actions unless asked for (``Action.judge``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import patience_ruleset
from hypothesis import given, note, settings
from hypothesis import strategies as st
from test_legal import PLAYERS, random_game

from cardzones import new_game
from cardzones.acts.binding import RESOLVED, bind_written
from cardzones.acts.legal import _frozen, legal_actions, tried_legal_actions
from cardzones.acts.legal_action import LegalAction
from cardzones.acts.named import Named
from cardzones.acts.seats import actable_cards
from cardzones.errors import CardzonesError, NeedsChoice
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.game import Game
from cardzones.kernel.results import MoveResult
from cardzones.rulesets import register_ruleset, unregister_ruleset


def said(listed: list[LegalAction]) -> list[Any]:
    return [(a.name, _frozen(dict(a.bound)), a.result) for a in listed]


def same_lists(game: Game, player: str, data: st.DataObject) -> None:
    before = game.copy()
    # A judge's actions too, so that both ways judge every candidate; a
    # player is offered the same list without them (Action.judge).
    judged = legal_actions(game, player, judge=True)
    assert game.same_state(before), "judging legal actions changed the game"
    tried = tried_legal_actions(game, player, judge=True)
    assert said(judged) == said(tried)
    players = [a for a in judged if not a.action.judge]
    assert said(legal_actions(game, player)) == said(players)
    assert said(tried_legal_actions(game, player)) == said(players)
    assert not any(a.result is MoveResult.FAILED for a in judged), (
        "an action the rules would let fail is listed with its result"
    )
    same_steps(game, player, judged)
    cards = sorted({v for a in judged for v in a.bound.values() if isinstance(v, int)})
    for card in (
        data.draw(st.lists(st.sampled_from(cards), max_size=2), label="cards") if cards else []
    ):
        one = legal_actions(game, player, card=card, judge=True)
        assert said(one) == said(tried_legal_actions(game, player, card=card, judge=True))
        assert said(one) == said([a for a in judged if _names(a, card)])
    for zone in data.draw(
        st.lists(st.sampled_from(list(game.all_zones())), max_size=2), label="zones"
    ):
        assert said(legal_actions(game, player, zone=zone, judge=True)) == said(
            tried_legal_actions(game, player, zone=zone, judge=True)
        )


def same_steps(game: Game, player: str, listed: list[LegalAction]) -> None:
    """Each action is written as a step by one writer for the listing (the
    quick way, each card named once) as the binder's own pass writes it
    alone, or refused alike."""
    shared = Named(game, player, {})
    for action in listed:
        try:
            alone = bind_written(action.action, action.bound, RESOLVED, Named(game, player, {}))
        except CardzonesError:
            with pytest.raises(CardzonesError):
                action.to_json(game, writer=shared)
            continue
        assert action.to_json(game, writer=shared) == {action.name: alone[1]}


def _names(action: LegalAction, card: int) -> bool:
    for param in action.action.params:
        value = action.bound.get(param.name)
        if param.kind == "card" and value == card:
            return True
        if param.kind == "cards" and value is not None and card in value:
            return True
    return False


@pytest.mark.parametrize("ruleset", ["fab", "redemption"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_judged_legal_actions_are_the_tried_ones(ruleset: str, data: st.DataObject) -> None:
    game = random_game(data, ruleset)
    same_lists(game, data.draw(st.sampled_from(PLAYERS), label="player"), data)


#: A card of each type whose play fab offers by the turn (rulesets/fab/offers.py).
TIMED = tuple(
    CardDef(f"Timed {kind}", frozenset({kind}), {"defense": 2})
    for kind in ("defense_reaction", "attack_reaction", "action", "instant")
)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_judged_legal_actions_are_the_tried_ones_around_an_attack(data: st.DataObject) -> None:
    """On random fab positions with an attack on the combat chain and a card
    of each timed type in each hand, both ways offer the same plays: a
    defense reaction to the defender, an attack reaction to the attacker."""
    game = random_game(data, "fab")
    attacker = data.draw(st.sampled_from(PLAYERS), label="attacker")
    chain = game.zone(None, "combat_chain")
    assert chain is not None
    raid = CardDef("Raid", frozenset({"action", "attack"}), {"power": 3})
    game.new_card(raid, chain, owner=attacker, controller=attacker, public=True, check=False)
    held = {}
    for player in PLAYERS:
        hand = game.zone(player, "hand")
        if hand is not None:  # a random position may have removed it
            for cdef in TIMED:
                held[player, cdef.name] = game.new_card(cdef, hand, owner=player)
    player = data.draw(st.sampled_from(PLAYERS), label="player")
    same_lists(game, player, data)
    plays = {a.bound["card"] for a in legal_actions(game, player, ["play"])}
    if (player, "Timed defense_reaction") in held:
        card = held[player, "Timed defense_reaction"]
        assert (card in plays) is (player != attacker and game.may_play(card, player))
        card = held[player, "Timed attack_reaction"]
        assert (card in plays) is (player == attacker and game.may_play(card, player))


# ----------------------------------------------------------------------
# The third game
# ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def patience() -> Iterator[None]:
    unregister_ruleset("patience")
    register_ruleset(patience_ruleset())
    yield
    unregister_ruleset("patience")


SUITS = ("clubs", "diamonds", "hearts", "spades")


def patience_game(data: st.DataObject) -> Game:
    game = new_game("patience", list(PLAYERS), seed=data.draw(st.integers(0, 99), label="seed"))
    for player in PLAYERS:
        for ztype in ("stock", "waste", "foundation"):
            zone = game.zone(player, ztype)
            assert zone is not None
            for _ in range(data.draw(st.integers(0, 4), label=f"{player}.{ztype}")):
                suit = data.draw(st.sampled_from(SUITS), label="suit")
                rank = data.draw(st.integers(1, 5), label="rank")
                card = CardDef(f"{rank} of {suit}", frozenset({suit}), {"rank": rank})
                game.new_card(card, zone, check=False)
    rng = random.Random(data.draw(st.integers(0, 2**16), label="play"))
    for _ in range(data.draw(st.integers(0, 12), label="acts")):
        player = rng.choice(PLAYERS)
        listed = legal_actions(game, player)
        if listed:
            action = rng.choice(listed)
            note(f"{player}: {action}")
            action.apply(game)
    return game


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_judged_legal_actions_are_the_tried_ones_in_a_third_game(
    patience: None, data: st.DataObject
) -> None:
    game = patience_game(data)
    same_lists(game, data.draw(st.sampled_from(PLAYERS), label="player"), data)


def test_a_move_whose_effect_would_fail_is_not_listed_3_0_11(patience: None) -> None:
    game = new_game("patience", ["alice"])
    stock, waste = game.zone("alice", "stock"), game.zone("alice", "waste")
    assert stock is not None and waste is not None
    two = game.new_card(CardDef("2 of clubs", frozenset({"clubs"}), {"rank": 2}), waste)
    hidden = game.new_card(CardDef("3 of clubs", frozenset({"clubs"}), {"rank": 3}), stock)
    to_foundation = Dest("foundation", "alice")
    moves = [a for a in legal_actions(game, "alice", ["move"]) if a.bound["to"] == to_foundation]
    # an empty foundation takes an ace (patience/foundation): the 2 it shows is left out,
    # the hidden card is listed, as whether it fits would tell what it is
    assert [a.bound["card"] for a in moves] == [hidden]
    assert moves[0].result is None
    assert two not in [
        a.bound["card"]
        for a in tried_legal_actions(game, "alice", ["move"])
        if a.bound["to"] == to_foundation
    ]


def test_a_card_with_sub_cards_is_tried_where_clearing_them_needs_a_choice_3_0_14e() -> None:
    """Moving a hero clears the cards under it (3.0.14e); with two graveyards
    that clear needs a choice (3.0.10a), which only the move itself meets."""
    game = new_game("fab", list(PLAYERS))
    hero = game.new_card(CardDef("Hero", frozenset({"hero"})), game.zone("alice", "hero"))
    under = game.new_card(CardDef("Soul", frozenset({"action"})), game.zone("alice", "hand"))
    game.act("put_under", card=under, top=hero, by="alice")
    game.create_zone("alice", "graveyard")
    judged = legal_actions(game, "alice", card=hero, judge=True)
    assert said(judged) == said(tried_legal_actions(game, "alice", card=hero, judge=True))
    assert all(a.bound.get("to") != Dest("banished", "alice") for a in judged)


def test_a_failing_move_of_a_card_with_sub_cards_is_judged_3_0_11_3_0_14e() -> None:
    """A move that fails changes nothing (3.0.11), so the sub-cards that a
    move would take along or clear (3.0.14e) do not keep the rules from
    judging it; one that succeeds clears them, each judged as its clear is
    (3.0.12, tests/test_legal_sub_cards.py)."""
    game = new_game("fab", list(PLAYERS))
    hero = game.new_card(CardDef("Hero", frozenset({"hero"})), game.zone("alice", "hero"))
    under = game.new_card(CardDef("Soul", frozenset({"action"})), game.zone("alice", "hand"))
    game.act("put_under", card=under, top=hero, by="alice")
    assert game.foresee_move(hero, Dest("deck", "alice")) is MoveResult.FAILED  # 3.7.2
    assert game.foresee_move(hero, Dest("graveyard", "alice")) is MoveResult.MOVED
    judged = legal_actions(game, "alice", card=hero)
    assert said(judged) == said(tried_legal_actions(game, "alice", card=hero))


@pytest.mark.parametrize("player", PLAYERS)
def test_the_benchmark_position_judged_is_tried(player: str) -> None:
    """The benchmark's position (heroes with souls, equipment, replacement
    effects, tokens): every candidate judged as trying it gives."""
    from cardzones.bench.position import build_position

    game = build_position()
    judged = legal_actions(game, player)
    assert judged and said(judged) == said(tried_legal_actions(game, player))


def test_draws_and_life_changes_are_judged_as_they_are_tried() -> None:
    """A draw from an empty deck is refused and one card's draw gives its
    move's result; a life change past the largest total is refused: the
    rules judge each as trying it does, and none is tried."""
    game = new_game("fab", list(PLAYERS))
    hero = CardDef("Hero", frozenset({"hero"}), {"life": 9999, "intellect": 4})
    game.new_card(hero, game.zone("alice", "hero"))
    for _ in range(2):
        asked = ["draw", "life"]
        judged = legal_actions(game, "alice", asked)
        assert said(judged) == said(tried_legal_actions(game, "alice", asked))
        assert legal_counts_of(game, "alice", asked) == 0
        game.new_card(CardDef("Snatch", frozenset({"action"})), game.zone("alice", "deck"))
    assert [(a.name, a.result) for a in legal_actions(game, "alice", ["draw"])] == [
        ("draw", MoveResult.MOVED)
    ]
    assert [a.args.get("gain") for a in legal_actions(game, "alice", ["life"])] == [None]


def legal_counts_of(game: Game, player: str, actions: list[str]) -> int:
    """How many candidates of ``actions`` listing them tries."""
    from cardzones.acts.legal import _listing

    return _listing(game, player, actions, None, None, True)[1].tries


def _moves_left_out(game: Game, player: str) -> Iterator[tuple[int, Dest]]:
    """The moves fab's candidates leave out for ``player`` (:func:`cannot_take`)."""
    from cardzones.rulesets.common import destinations
    from cardzones.rulesets.fab.admission import cannot_take

    dests = [dest for dest, _ in destinations(game, player)]
    for card in actable_cards(game, player):
        if game.may_look(player, card):
            left_out = cannot_take(game, card, dests) or [False] * len(dests)
            yield from ((card, dest) for dest, no in zip(dests, left_out, strict=True) if no)


def _would_list(game: Game, player: str, card: int, dest: Dest) -> bool:
    """Whether the move, tried on the game and taken back, would be listed:
    it is not refused and its result is not ``failed``."""
    checkpoint = game.checkpoint()
    try:
        done = game.act("move", card=card, to=dest, by=player)
    except NeedsChoice as choice:
        game.rollback(checkpoint)
        zones = {game.zone_name(z): z for z in game.all_zones()}
        return any(
            _would_list_into(game, player, card, dest, zones[z])
            for z in choice.options
            if z in zones
        )
    except CardzonesError:
        game.rollback(checkpoint)
        return False
    game.rollback(checkpoint)
    return done.result is not MoveResult.FAILED


def _would_list_into(game: Game, player: str, card: int, dest: Dest, zid: int) -> bool:
    checkpoint = game.checkpoint()
    try:
        done = game.act("move", card=card, to=dest, by=player, choose_zone=zid)
    except CardzonesError:
        return False
    finally:
        game.rollback(checkpoint)
    return done.result is not MoveResult.FAILED


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_move_left_out_of_the_candidates_fails_3_0_11(data: st.DataObject) -> None:
    """A move of a card the player sees into a zone that cannot take it
    (3.11.2, 3.13.2, 3.3.2, 3.3.2a, 8.5.41b, 8.5.41c, 3.16.2a) is not a
    candidate: tried, each such move is refused or fails, so it would not be
    listed."""
    game = random_game(data, "fab")
    for player in PLAYERS:
        for card, dest in _moves_left_out(game, player):
            assert not _would_list(game, player, card, dest), (player, card, dest)


@pytest.mark.parametrize("player", PLAYERS)
def test_the_benchmark_position_leaves_out_only_failing_moves_3_0_11(player: str) -> None:
    from cardzones.bench.position import build_position

    game = build_position()
    left_out = list(_moves_left_out(game, player))
    assert left_out, "the benchmark's position has cards no zone type takes"
    for card, dest in left_out:
        assert not _would_list(game, player, card, dest), (card, dest)


def test_what_a_replacement_or_a_token_changes_is_not_left_out_3_0_8a_8_1_8a() -> None:
    """A move is left out of the candidates only where admission reads the
    card as it is. An equipment is no deck-card, so a hand cannot take it
    (3.9.2), but one whose replacement effect banishes it instead (3.0.8a)
    is moved; a token leaving the arena ceases to exist (8.1.8a) rather than
    fail, while a hero zone refuses it (3.11.2). Each is judged as trying it
    judges it."""
    from cardzones.kernel.cards import Replacement
    from cardzones.rulesets.fab.admission import cannot_take

    game = new_game("fab", list(PLAYERS))
    z = game.zone
    game.new_card(CardDef("Hero", frozenset({"hero"})), z("alice", "hero"))
    banished = Replacement("hand", None, Dest("banished", "owner"))
    helm = game.new_card(
        CardDef("Banished Helm", frozenset({"equipment", "head"}), abilities=(banished,)),
        z("alice", "graveyard"),
    )
    plain = game.new_card(CardDef("Helm", frozenset({"equipment", "head"})), z("alice", "banished"))
    token = game.new_card(CardDef("Token", frozenset({"token", "aura"})), z("alice", "permanent"))
    hand, hero = Dest("hand", "alice"), Dest("hero", "alice")
    assert cannot_take(game, helm, [hand, hero]) == [False, True]
    assert cannot_take(game, plain, [hand, hero]) == [True, True]
    assert cannot_take(game, token, [hand, hero]) == [False, True]
    listed = {
        (a.bound["card"], a.bound["to"]): a.result for a in legal_actions(game, "alice", ["move"])
    }
    assert listed[(helm, hand)] is MoveResult.MOVED
    assert listed[(token, hand)] is MoveResult.CEASED
    assert (plain, hand) not in listed and (token, hero) not in listed
    assert said(legal_actions(game, "alice", ["move"])) == said(
        tried_legal_actions(game, "alice", ["move"])
    )
