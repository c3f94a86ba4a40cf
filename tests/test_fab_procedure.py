"""fab's game procedure played as whole games by legal actions alone, over
the repository's fixture of real cards: every game ends with a winner, and
after every act the game holds the procedure's invariants. Rule ids: 1.11.2
(one player acts), 1.13 (points are never negative), 4.5.3a (the end),
7.0.3 (chain links), 4.4.3e (points lost at the end of the turn)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from schemas import check_view
from test_noninterference import hidden_pairs, trade_places

from cardzones import Game, new_game
from cardzones.acts.legal import tried_legal_actions
from cardzones.cards.importers import read_cards
from cardzones.kernel.cards import CardDef
from cardzones.rulesets.fab.procedure import current, who_acts
from cardzones.rulesets.fab.procedure.playout import deal, play_out
from cardzones.rulesets.fab.procedure.state import STEPS

FIXTURE = Path(__file__).parent / "fixtures" / "cards" / "fab-card.json"
_POOL = {(r.name, r.number): r.cdef for r in read_cards(FIXTURE).records}


def _card(name: str, pitch: int | None = None) -> CardDef:
    return _POOL[(name, pitch)]


def _colours(name: str, copies: int = 1) -> list[CardDef]:
    return [_card(name, pitch) for pitch in (1, 2, 3) for _ in range(copies)]


#: Two decks of the fixture's cards: attacks, non-attack actions with go
#: again, reactions of both kinds, instants, items, an aura, a block and a
#: resource card, three kinds of weapon and eight pieces of equipment.
DECKS: dict[str, dict[str, Any]] = {
    "alice": {
        "hero": _card("Dorinthea Ironsong"),
        "weapons": [_card("Dawnblade")],
        "equipment": [
            _card("Braveforge Bracers"),
            _card("Fyendal's Spring Tunic"),
            _card("Ironrot Helm"),
            _card("Nullrune Boots"),
        ],
        "deck": [
            *_colours("Snatch", 3),
            *_colours("Drone of Brutality", 2),
            *_colours("Driving Blade"),
            *_colours("Warrior's Valor"),
            *_colours("Ironsong Response"),
            *_colours("Pummel"),
            *_colours("Sink Below"),
            *_colours("Sigil of Solace"),
            _card("Steelblade Supremacy", 1),
            _card("Endless Arrow", 1),
            _card("Endless Arrow", 1),
        ],
    },
    "bob": {
        "hero": _card("Levia, Shadowborn Abomination"),
        "weapons": [_card("Harmonized Kodachi"), _card("Harmonized Kodachi")],
        "equipment": [
            _card("Ironrot Legs"),
            _card("Courage of Bladehold"),
            _card("Crown of Seeds"),
            _card("Ironrot Gauntlet"),
        ],
        "deck": [
            *[_card("Mark of the Beast", 2)] * 6,
            *_colours("Snatch", 3),
            *_colours("Drone of Brutality", 3),
            *_colours("Sink Below"),
            *_colours("Pummel"),
            *[_card("Boast", 3)] * 2,
            *[_card("Cracked Bauble", 2)] * 2,
            *[_card("Energy Potion", 3)] * 2,
            _card("Frost Hex", 3),
            _card("Tome of Torment", 1),
            _card("Merciful Retribution", 2),
        ],
    },
}


def dealt(seed: int) -> Game:
    game = new_game("fab", ["alice", "bob"], seed=seed)
    for player, deck in DECKS.items():
        deal(game, player, **deck)
    game.ruleset.start_procedure(game)
    return game


class Checker:
    """The invariants of the procedure, looked at after every act; the costly
    ones every ``every`` acts."""

    def __init__(self, every: int) -> None:
        self.every = every
        self.acts = 0
        self.turn_player = ""
        self.steps_seen: set[str] = set()
        self.traded = 0

    def __call__(self, game: Game) -> None:
        self.acts += 1
        proc = current(game)
        assert proc is not None
        # 1.13: no player has negative points; 4.4.3e: a new turn starts with
        # the turn player's one action point and nothing else (4.3.2).
        for values in (proc.action_points, proc.resource_points):
            assert all(v >= 0 for v in values), proc
        if game.turn_player != self.turn_player and not proc.over:
            self.turn_player = game.turn_player
            assert proc.phase == "action" and proc.step is None and not proc.links
            assert not any(proc.resource_points)
            assert sum(proc.action_points) == 1
        # 7.0.3: links exist while the combat chain is open, and their
        # attacks are on it.
        if proc.step is not None:
            self.steps_seen.add(proc.step)
            assert proc.step in STEPS
        else:
            assert not proc.links
        chain = game.zone(None, "combat_chain")
        assert chain is not None
        for link in proc.links:
            assert game.obj(link.card).zone == chain
        if not game.contents(chain):
            assert not proc.links
        # 4.5.1a: a player who lost while the game went on left it, owning
        # and controlling nothing, and turns, priority and attacks pass them
        # over (those who lost as it ended keep their cards).
        for player in proc.losers if not proc.over else ():
            assert not any(
                game.obj(c).owner == player or game.obj(c).controller == player
                for c in game.cards()
            )
        if proc.over:
            assert proc.winner is not None and who_acts(game, proc) is None
            return
        assert game.turn_player not in proc.losers
        assert who_acts(game, proc) not in proc.losers
        for link in proc.links:
            assert link.attacker != link.defender
        if self.acts % self.every:
            return
        self._costly(game)

    def _costly(self, game: Game) -> None:
        proc = current(game)
        assert proc is not None
        actor = who_acts(game, proc)
        # 1.11.2: only the player the procedure waits for may act.
        for player in game.players:
            listed = game.legal_actions(player)
            assert bool(listed) == (player == actor), (player, actor, proc)
        # A plan is what its apply does: judged and tried, the same list.
        assert actor is not None
        judged = [(a.name, dict(a.bound)) for a in game.legal_actions(actor)]
        tried = [(a.name, dict(a.bound)) for a in tried_legal_actions(game, actor, _acts())]
        assert judged == tried
        # Every viewer sees the same procedure, and views follow the schema.
        views = [game.view(p) for p in (*game.players, None)]
        for view in views:
            check_view(json.loads(json.dumps(view)))
        assert all(v["procedure"] == views[0]["procedure"] for v in views)
        # A saved game keeps the procedure; undo takes an act back exactly.
        again = Game.from_json(game.to_json(), game.ruleset)
        assert again.view(actor) == game.view(actor)
        before = game.copy()
        game.legal_actions(actor)[0].apply(game)
        game.undo()
        assert game.same_state(before)
        self._no_leak(game, actor)

    def _no_leak(self, game: Game, actor: str) -> None:
        """Non-interference: cards hidden from the acting player traded for
        others alike as private objects (an opponent's hand card for one of
        their deck) change nothing in the actor's legal actions or view."""
        listed = [a.to_json(game) for a in game.legal_actions(actor)]
        shown = game.view(actor)
        pairs = hidden_pairs(game, actor, exact=False)
        for c1, c2 in random.Random(self.acts).sample(pairs, min(3, len(pairs))):
            traded = game.copy()
            trade_places(traded, c1, c2)
            assert [a.to_json(traded) for a in traded.legal_actions(actor)] == listed
            assert traded.view(actor) == shown
            self.traded += 1


def _acts() -> tuple[str, ...]:
    from cardzones.rulesets.fab.procedure import ACTS

    return ACTS


# Two seeds whose games each player wins once (bob in 42 turns, alice in 99).
@pytest.mark.parametrize("seed", [14, 16])
def test_random_games_end_with_a_winner(seed: int) -> None:
    game = dealt(seed)
    checker = Checker(every=40)
    checker.turn_player = game.turn_player
    result = play_out(game, random.Random(seed), max_acts=20_000, after=checker)
    assert result.winner in game.players
    assert result.turns > 2
    proc = current(game)
    assert (
        proc is not None
        and proc.over
        and proc.losers == (next(p for p in game.players if p != result.winner),)
    )
    # Every step of combat was reached along the way, and hidden cards were
    # traded many times.
    assert checker.steps_seen == set(STEPS)
    assert checker.traded > 20


def dealt_for(seed: int, players: int) -> Game:
    """A game of ``players`` players, dealt alice's and bob's decks in turn."""
    names = ["alice", "bob", "carol", "dave"][:players]
    game = new_game("fab", names, seed=seed)
    for i, player in enumerate(names):
        deal(game, player, **DECKS[("alice", "bob")[i % 2]])
    game.ruleset.start_procedure(game)
    return game


# Seeds whose games end each way: 4.5.2a the last one standing wins, the
# others having lost one by one and left the game (4.5.1a).
# The costly checks are spaced out more in the longer games of four.
@pytest.mark.parametrize(("seed", "players", "every"), [(1, 3, 200), (2, 4, 600)])
def test_random_games_of_more_players_end_with_the_last_one_standing(
    seed: int, players: int, every: int
) -> None:
    game = dealt_for(seed, players)
    checker = Checker(every=every)
    checker.turn_player = game.turn_player
    result = play_out(game, random.Random(seed), max_acts=40_000, after=checker)
    proc = current(game)
    assert proc is not None and proc.over
    assert result.winner in game.players
    assert sorted((*proc.losers, result.winner)) == sorted(game.players)
    assert checker.steps_seen == set(STEPS)
    assert checker.traded > 20


def test_the_first_player_is_the_games_secret_choice() -> None:
    """4.1.3: without a first player given, the game's secret randomness
    chooses; each player begins some games."""
    firsts = {current(dealt(seed)).first for seed in range(12)}  # type: ignore[union-attr]
    assert firsts == {"alice", "bob"}


def test_the_start_draws_up_to_intellect_from_shuffled_decks() -> None:
    """4.1.7, 4.1.9: decks are shuffled, then each player draws up to intellect."""
    a, b = dealt(1), dealt(2)
    for game in (a, b):
        for player in game.players:
            hand = game.zone(player, "hand")
            assert hand is not None and len(game.contents(hand)) == 4
    names = [
        [a.obj(c).cdef.name for c in a.contents(a.zone("alice", "deck"))],  # type: ignore[arg-type]
        [b.obj(c).cdef.name for c in b.contents(b.zone("alice", "deck"))],  # type: ignore[arg-type]
    ]
    assert names[0] != names[1]


def test_outside_the_procedure_nothing_changes() -> None:
    """A game not under the procedure has no procedure in its views, and
    play, attack and finish_turn keep their meaning: pitch is refused."""
    game = new_game("fab", ["alice", "bob"], seed=1)
    for player, deck in DECKS.items():
        deal(game, player, **deck)
    assert "procedure" not in game.view("alice")
    card = game.contents(game.zone("alice", "deck"))[0]  # type: ignore[arg-type]
    names = {a.name for a in game.legal_actions("alice")}
    assert "pass" not in names and "defend" not in names and "move" in names
    with pytest.raises(Exception, match="under the game procedure only"):
        game.act("play", card=card, pitch=(card,), by="alice")


def test_a_huge_hand_offers_small_defending_sets_and_defend_takes_any() -> None:
    """7.3.2a: any number of cards may defend; past 12 that could, legal
    actions offer the sets of up to three (thousands otherwise), and the act
    accepts a larger one all the same."""
    jab = CardDef("Jab", frozenset({"action", "attack"}), {"power": 3, "cost": 0, "pitch": 1})
    block = CardDef("Block", frozenset({"action"}), {"defense": 1, "cost": 0, "pitch": 1})
    hero = CardDef("Hero", frozenset({"hero"}), {"life": 20, "intellect": 4})
    game = new_game("fab", ["alice", "bob"], seed=1)
    deal(game, "alice", hero, [], [], [jab] * 4)
    deal(game, "bob", hero, [], [], [])
    bob_hand = game.zone("bob", "hand")
    assert bob_hand is not None
    for _ in range(14):
        game.new_card(block, bob_hand, owner="bob")
    game.ruleset.start_procedure(game, "alice")
    game.act("play", card=game.contents(game.zone("alice", "hand"))[0], by="alice")  # type: ignore[arg-type]
    for player in ("alice", "bob", "alice", "bob"):
        game.act("pass", by=player)
    assert who_acts(game, current(game)) == "bob"  # type: ignore[arg-type]
    listed = game.legal_actions("bob")
    assert len([a for a in listed if a.name == "defend"]) == 1 + 14 + 91 + 364
    five = game.contents(bob_hand)[:5]
    game.act("defend", cards=five, by="bob")
    proc = current(game)
    assert proc is not None and proc.links[-1].defending_cards == five
