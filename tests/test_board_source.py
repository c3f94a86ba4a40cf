"""An ability's source from its card's menu, in Chromium at 1366×768: the
form of *Set aside…* opened from an enhancement's menu has the enhancement
as its source (the action table's ``card_types`` say which parameter a card
of that type fills), offers only enhancements for it, and sets aside; a
hero's menu still fills the cards to set aside. A change of stats or of
life is said in words from the action table ("Give it +1 defense", "Deal 1
damage to it"), never as the engine writes the act. Each page and frame is
checked for leaks after every act, as in the other board tests.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from boardkit import CHROMIUM, CHROMIUM_MISSING, ThreadServer, real_board_body
from test_board import Viewer, browser, names_in, server  # noqa: F401 (fixtures)
from test_board_forgiving import alice_at
from test_board_match import life_of

if not CHROMIUM.exists():
    pytest.skip(CHROMIUM_MISSING, allow_module_level=True)

#: The set-aside form's entry of the open menu.
SET_ASIDE = '#menu button[data-action="set_aside"]:not(.legal)'


def test_set_aside_from_an_enhancements_menu_has_it_as_its_source(
    browser: Any,  # noqa: F811 (the fixture)
    server: ThreadServer,  # noqa: F811 (the fixture)
) -> None:
    with alice_at(server, browser, real_board_body("redemption"), "laptop") as t:
        alice = t["alice"]
        page = alice.page
        alice.actions("phase", {"phase": "preparation"})
        t.applied()
        # A hero's menu sets the hero aside: it is no enhancement, so never
        # the source.
        alice.named("alice.territory", "Jonathan, the Devoted").click()
        page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
        assert page.locator(SET_ASIDE).get_attribute("data-param") == "cards"
        page.keyboard.press("Escape")
        # The enhancement's menu: one entry, among those shown first, whose
        # form has the enhancement as its source.
        enhancement = alice.named("alice.hand", "Given to Israel")
        ref = enhancement.get_attribute("data-ref")
        enhancement.click()
        page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
        entry = page.locator(SET_ASIDE)
        assert entry.count() == 1
        assert entry.get_attribute("data-param") == "source"
        assert entry.inner_text() == "Set aside…"
        assert entry.is_visible(), page.inner_text("#menu")
        entry.click()
        source = page.locator('#form select[name="source"]')
        chosen = source.evaluate("s => s.selectedOptions[0].textContent")
        assert chosen == "Given to Israel [K] (alice's hand)"
        assert ref and source.input_value() == ref
        # Only enhancements may be named as the source: no hero, no card of
        # the deck whose face alice cannot see.
        offered = source.locator("option").all_inner_texts()
        assert sorted(offered) == [
            "Bravery of David [K] (alice's territory)",
            "Covenant with David [K] (alice's reserve)",
            "Given to Israel [K] (alice's hand)",
            "Pleading for the City (alice's hand)",
            "—",
        ], offered
        # The cards to set aside are those the rules take: cards in play, none
        # from a hand, a deck or a discard pile.
        targets = page.locator('#form select[name="cards"] option').all_inner_texts()
        assert "Jonathan, the Devoted [K] (alice's territory)" in targets, targets
        assert not [o for o in targets if re.search(r"hand|deck|discard|reserve", o)], targets
        alice.submit({"cards": "Jonathan, the Devoted [K] (alice's territory)"})
        t.applied()
        assert sorted(names_in(t["bob"], "alice.set_aside")) == [
            "Given to Israel [K]",
            "Jonathan, the Devoted [K]",
        ]
        assert "Given to Israel [K]" not in names_in(alice, "alice.hand")


#: Every entry of the open menu, as its whole sentence.
ENTRIES_JS = """() => [...document.querySelectorAll('#menu button')]
  .map(b => (b.getAttribute('aria-label') || b.textContent).trim())"""
#: An act said as the engine writes it: an action's name, a colon, a
#: parameter's name and its value ("Modify: defense +1", "Life: damage 1").
ENGINE_SAID = re.compile(r"^[A-Z][a-z ]*: [a-z_]+ [-+]?\d")


def entries_of(viewer: Viewer, card: Any) -> list[str]:
    """The entries of a card's menu, once its legal acts are in."""
    card.click()
    viewer.page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
    return list(viewer.page.evaluate(ENTRIES_JS))


def test_a_change_of_stats_or_of_life_is_said_in_the_games_words(
    browser: Any,  # noqa: F811 (the fixture)
    server: ThreadServer,  # noqa: F811 (the fixture)
) -> None:
    with alice_at(server, browser, real_board_body("fab"), "laptop") as t:
        alice = t["alice"]
        page = alice.page
        entries = entries_of(alice, alice.card("alice.arms"))
        assert {"Give it +1 defense", "Give it -1 defense"} <= set(entries), entries
        assert not [e for e in entries if ENGINE_SAID.match(e)], entries
        page.keyboard.press("Escape")
        entries = entries_of(alice, alice.card("alice.hero"))
        assert {"Deal 1 damage to it", "It gains 1 life"} <= set(entries), entries
        assert not [e for e in entries if ENGINE_SAID.match(e)], entries
        page.keyboard.press("Escape")
        # The entry does what it says.
        before = life_of(t[None], "alice")
        alice.one_click(alice.card("alice.hero"), "life", '"damage":1')
        t.applied()
        assert before == ["♥ 40"] and life_of(t[None], "alice") == ["♥ 39"]
