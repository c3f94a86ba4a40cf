"""The Python API's errors for a newcomer's first calls: ``Game.act`` takes
ids, and a name where it takes one is said so, with how to get the id,
never a bare ``KeyError``."""

from __future__ import annotations

import pytest

from cardzones import new_game
from cardzones.errors import CardzonesError


@pytest.mark.parametrize(
    "action,args,expected",
    [
        ("shuffle", {"zone": "Dori.deck"}, "zone: Game.act takes a zone id"),
        ("flip", {"card": "Dori.deck[0]", "face": "up"}, "card: Game.act takes a card id"),
        ("move", {"card": 1, "to": "Dori.hand"}, "to: Game.act takes a destination"),
    ],
)
def test_a_name_where_act_takes_an_id_is_a_clear_error(
    action: str, args: dict[str, object], expected: str
) -> None:
    game = new_game("fab", ["Dori", "Kat"])
    game.new_card(game.card_def("Snatch"), game.zone("Dori", "deck"))
    before = game.to_json()
    with pytest.raises(CardzonesError, match=expected):
        game.act(action, **args)
    assert game.to_json() == before
    # The id it asks for works.
    assert game.act("shuffle", zone=game.zone("Dori", "deck")).result.value == "done"
