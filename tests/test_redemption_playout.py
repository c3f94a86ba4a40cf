"""Random playouts of Redemption's game procedure over real cards: two decks
built from the repository's fixture of the card database play whole games
by legal actions alone, and every game reaches a winner within its bound
(rescue/winning-number). Every act made is one that legal actions offered,
so an offered act that is refused fails the test (``play_out`` raises)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from cardzones import new_game
from cardzones.acts.legal_action import LegalAction
from cardzones.cards.importers import read_cards
from cardzones.kernel.cards import CardDef
from cardzones.kernel.game import Game
from cardzones.rulesets.redemption.procedure.playout import play_out
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


def _game(seed: int) -> Game:
    cards = _cards()
    game = new_game("redemption", ["alice", "bob"], seed=seed)
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
