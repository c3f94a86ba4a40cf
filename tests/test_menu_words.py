"""A rule set's words for its actions in a board's menus (MenuWords): each
names only parameters its action has, in a group the board lists, and a
rule set cannot give words to an action its table lacks."""

from __future__ import annotations

import re

import pytest

from cardzones.acts.actions import action_table
from cardzones.acts.menu_words import GROUPS, MenuWords, with_menu_words
from cardzones.acts.standard import FLIP, SHUFFLE
from cardzones.rulesets import get_ruleset

PLACEHOLDER = re.compile(r"\{(\w+)\}")


@pytest.mark.parametrize("name", ["fab", "redemption"])
def test_the_words_name_the_actions_own_parameters(name: str) -> None:
    worded = [a for a in get_ruleset(name).actions.values() if a.menu is not None]
    assert worded, f"{name} gives none of its actions words of its own"
    for action in worded:
        menu = action.menu
        assert menu is not None
        params = {p.name for p in action.params}
        sentences = [menu.says, *menu.about.values()]
        named = {m for s in sentences for m in PLACEHOLDER.findall(s)}
        assert named <= params, (action.name, named - params)
        assert set(menu.about) <= params, action.name
        assert menu.group in ("", *GROUPS)
        assert action.to_json()["menu"] == menu.to_json()


def test_the_board_says_the_shipped_games_own_acts_from_their_rule_sets() -> None:
    fab = get_ruleset("fab").actions
    redemption = get_ruleset("redemption").actions
    assert fab["pitch"].to_json()["menu"]["says"] == "Pitch[ {card}]"
    assert "arsenal" in fab["finish_turn"].to_json()["menu"]["says"]
    assert redemption["rescue"].to_json()["menu"]["about"]["hero"] == "Rescue {soul}"
    # An action every game shares keeps the board's own words.
    assert "menu" not in fab["move"].to_json() and "menu" not in redemption["move"].to_json()


def test_words_for_a_missing_action_or_group_are_refused() -> None:
    table = action_table(FLIP, SHUFFLE)
    with pytest.raises(ValueError, match="the table does not have: draw"):
        with_menu_words(table, {"draw": MenuWords("Move")})
    with pytest.raises(ValueError, match="a menu's group is one of"):
        MenuWords("Sideways")
    worded = with_menu_words(table, {"flip": MenuWords(says="Turn {card} face {face}")})
    assert worded["flip"].to_json()["menu"] == {"says": "Turn {card} face {face}"}
    assert worded["shuffle"] is SHUFFLE
