"""Random playouts of Redemption's game procedure over real cards: two decks
built from the repository's fixture of the card database play whole games
by legal actions alone, and every game reaches a winner within its bound
(rescue/winning-number). Every act made is one that legal actions offered,
so an offered act that is refused fails the test (``play_out`` raises)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path

import pytest

from cardzones import new_game
from cardzones.acts.legal_action import LegalAction
from cardzones.cards.importers import read_cards
from cardzones.kernel.cards import CardDef
from cardzones.kernel.game import Game
from cardzones.rulesets.redemption.procedure.playout import offered, play_out
from cardzones.rulesets.redemption.procedure.rescue import redeemed
from cardzones.rulesets.redemption.procedure.state import current

FIXTURE = Path(__file__).parent / "fixtures" / "cards" / "redemption-carddata.txt"

#: Each deck, by card name as the card database spells it, and how many.
DECK = {
    "Moses (Wa)": 3,
    "Gideon (L)": 3,
    "Jonathan, the Devoted [K]": 3,
    "David, Giant Slayer [K]": 3,
    "Hannah [K]": 2,
    "Cornelius (C)": 2,
    "Egyptian Archer [K]": 2,
    "Pharaoh, Ramses II [K]": 1,
    "Given to Israel [K]": 2,
    "David's Prayer [K]": 2,
    "Egyptian Spear [K]": 2,
    "Egyptian Chariots [K]": 2,
    "Abandoned [K]": 1,
    "David's Tent [K]": 1,
    "Son of God [K]": 1,
    'Lost Soul "Dread" [Exodus 15:16 - K]': 4,
    "Lost Soul [Exodus 10:10 - K]": 4,
}
#: The bound on a game, in acts; games end far sooner.
LIMIT = 3_000


def _cards() -> dict[str, CardDef]:
    out: dict[str, CardDef] = {}
    for record in read_cards(FIXTURE).records:
        out.setdefault(record.name, record.cdef)
    return out


def _game(seed: int, players: Sequence[str] = ("alice", "bob")) -> Game:
    cards = _cards()
    game = new_game("redemption", list(players), seed=seed)
    for player in game.players:
        deck = game.zone(player, "deck")
        assert deck is not None
        for name, count in DECK.items():
            for _ in range(count):
                game.new_card(cards[name], deck)
    with game.atomic():
        game.ruleset.start_procedure(game)  # type: ignore[attr-defined]
    game.forget_history()
    return game


def _rescuer(rng: random.Random) -> object:
    """A random player who, offered a rescue attempt, mostly makes one."""

    def choose(actions: Sequence[LegalAction]) -> LegalAction:
        rescues = [a for a in actions if a.name == "rescue"]
        if rescues and rng.random() < 0.8:
            return rng.choice(rescues)
        return rng.choice(actions)

    return choose


@pytest.mark.parametrize("seed", range(6))
def test_a_random_playout_over_real_cards_reaches_a_winner(seed: int) -> None:
    game = _game(seed)
    rng = random.Random(seed)
    result = play_out(game, _rescuer(rng), limit=LIMIT)  # type: ignore[arg-type]
    assert result.winner is not None, result
    state = current(game)
    assert state is not None and state.winner == result.winner
    # the winner has the winning number of Redeemed Souls, and no one else reached it
    assert redeemed(game, result.winner) == state.souls_to_win
    loser = next(p for p in game.players if p != result.winner)
    assert redeemed(game, loser) < state.souls_to_win
    # once the game is over no one is offered any act of the procedure
    assert all(not game.legal_actions(p) for p in game.players)


def test_a_uniform_playout_offers_only_acts_that_succeed() -> None:
    """Uniform random choices, every act offered applied: none is refused,
    and the game is saved and loaded along the way without a difference."""
    game = _game(11)
    rng = random.Random(11)
    for _ in range(8):
        play_out(game, rng.choice, limit=60)
        again = Game.from_json(game.to_json(), game.ruleset)
        assert again.view("alice") == game.view("alice")
        assert again.view(None) == game.view(None)
        assert current(again) == current(game)
    acts = Counter(e["event"] for e in game.log(None))
    assert acts["game"] > 0


@pytest.mark.parametrize("seed", range(4))
def test_a_random_playout_of_three_players_reaches_a_winner(seed: int) -> None:
    """Three players, acts chosen at random among every player's legal
    actions: turns go around the table (multiplayer/clockwise-turns), each
    rescue attempt is made on one opponent's Lost Soul and fought by that
    opponent alone (opponent/in-battle), and the first to the winning number
    of Redeemed Souls wins at once (rescue/winning-number)."""
    game = _game(seed, ("alice", "bob", "carol"))
    choose = _rescuer(random.Random(seed))
    turn_players = [game.turn_player]
    defenders: set[str] = set()
    for _ in range(LIMIT):
        state = current(game)
        assert state is not None
        if state.winner is not None:
            break
        choose(offered(game)).apply(game)  # type: ignore[operator]
        if game.turn_player != turn_players[-1]:
            turn_players.append(game.turn_player)
        battle = current(game).battle  # type: ignore[union-attr]
        if battle is not None:
            assert battle.rescuer == game.turn_player != battle.defender
            defenders.add(battle.defender)
            # only the two players in battle act in it, a dominant aside
            for player in game.players:
                if player not in (battle.rescuer, battle.defender):
                    names = {a.name for a in game.legal_actions(player)}
                    assert names <= {"play_dominant"}, (player, names)
    state = current(game)
    assert state is not None and state.winner is not None
    assert redeemed(game, state.winner) == state.souls_to_win
    assert all(redeemed(game, p) < state.souls_to_win for p in game.players if p != state.winner)
    assert all(not game.legal_actions(p) for p in game.players)
    order = game.players
    for before, after in pairwise(turn_players):
        assert order[(order.index(before) + 1) % 3] == after
    # rescue attempts were made on both opponents of some player
    assert len(defenders) >= 2
