"""Game.resume: an earlier position that goes on from a later game's
counters, as a table's take-back needs, where undo restores them."""

from __future__ import annotations

from cardzones import new_game


def test_resume_numbers_after_the_later_game_and_shuffles_anew() -> None:
    game = new_game("fab", ["alice", "bob"], 5)
    deck = game.zone("alice", "deck")
    for n in range(8):
        game.new_card(game.card_def(f"C{n}"), deck)
    earlier = game.copy()
    game.shuffle(deck, by="alice")
    shuffled = list(game.contents(deck))
    last = game.events()[-1].seq
    # Undo's way: the same shuffle again.
    again = earlier.copy()
    again.shuffle(deck, by="alice")
    assert list(again.contents(deck)) == shuffled
    # Resume's way: the next event is numbered after the later game's, and
    # the next shuffle is one nobody has seen.
    assert earlier.resume(game, "taken_back", "alice took back 1 act", "alice") is True
    event = earlier.events()[-1]
    assert (event.seq, event.kind, event.by, event.card) == (last + 1, "taken_back", "alice", None)
    assert list(earlier.contents(deck)) != shuffled
    earlier.shuffle(deck, by="alice")
    assert list(earlier.contents(deck)) != shuffled
    assert earlier.events()[-1].seq == last + 2
    # Nothing shuffled since: resume says so.
    assert game.copy().resume(game, "taken_back", "", None) is False
