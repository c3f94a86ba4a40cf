"""A player an effect lets look at their own deck (3.7.4): what they are
shown, and that no one else learns anything from it."""

from __future__ import annotations

from cardzones import Game, new_game


def _game(names: tuple[str, ...]) -> tuple[Game, int]:
    game = new_game("fab", ["alice", "bob"])
    deck = game.zone("alice", "deck")
    for name in names:
        game.new_card(game.card_def(name), deck, position="bottom")
    game.forget_history()
    return game, deck


def _deck_shown(game: Game, player: str | None) -> list[object]:
    board = game.view(player)
    zone = next(z for z in board["zones"] if z["zone"] == "alice.deck")
    return [o.get("name", "hidden") for o in zone["objects"]]


def test_the_owner_sees_the_deck_and_the_others_see_what_they_saw() -> None:
    """3.7.4: while the look lasts, alice is shown her deck; bob's view and
    log are the same whatever her deck holds."""
    seen = []
    for names in (("A", "B", "C"), ("X", "Y", "Z")):
        game, deck = _game(names)
        game.act("allow_look", zone=deck, by="alice")
        assert _deck_shown(game, "alice") == list(names)
        seen.append((game.view("bob"), game.log("bob")))
    assert seen[0] == seen[1]
    assert _deck_shown(game, "bob") == ["hidden"] * 3


def test_a_look_is_undone_copied_and_saved_with_the_game() -> None:
    game, deck = _game(("A", "B"))
    game.act("allow_look", zone=deck, by="alice")
    again = Game.from_json(game.to_json(), game.ruleset)
    assert _deck_shown(again, "alice") == ["A", "B"]
    assert _deck_shown(game.copy(), "alice") == ["A", "B"]
    game.undo()
    assert _deck_shown(game, "alice") == ["hidden", "hidden"]


def test_many_cards_are_shown_to_the_looker_too() -> None:
    """A large deck takes the view's fast path for hidden zones: the look
    is honoured there as well."""
    names = tuple(f"C{i}" for i in range(40))
    game, deck = _game(names)
    assert _deck_shown(game, "alice") == ["hidden"] * 40
    game.act("allow_look", zone=deck, by="alice")
    assert _deck_shown(game, "alice") == list(names)
    assert _deck_shown(game, "bob") == ["hidden"] * 40
