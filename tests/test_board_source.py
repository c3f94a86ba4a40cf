"""An ability's source from its card's menu, in Chromium at 1366×768: the
form of *Set aside…* opened from an enhancement's menu has the enhancement
as its source (the action table's ``card_types`` say which parameter a card
of that type fills), offers only enhancements for it, and sets aside; a
hero's menu still fills the cards to set aside. Each page and frame is
checked for leaks after every act, as in the other board tests.
"""

from __future__ import annotations

from typing import Any

import pytest
from boardkit import CHROMIUM, CHROMIUM_MISSING, ThreadServer, real_board_body
from test_board import Table, browser, names_in, server  # noqa: F401 (fixtures)
from test_board_forgiving import LAPTOP_768

if not CHROMIUM.exists():
    pytest.skip(CHROMIUM_MISSING, allow_module_level=True)

#: The set-aside form's entry of the open menu.
SET_ASIDE = '#menu button[data-action="set_aside"]:not(.legal)'


def test_set_aside_from_an_enhancements_menu_has_it_as_its_source(
    browser: Any,  # noqa: F811 (the fixture)
    server: ThreadServer,  # noqa: F811 (the fixture)
) -> None:
    t = Table(server, browser, real_board_body("redemption"))
    try:
        alice = t["alice"]
        page = alice.page
        page.set_viewport_size(LAPTOP_768)
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
        alice.submit({"cards": "Jonathan, the Devoted [K] (alice's territory)"})
        t.applied()
        assert sorted(names_in(t["bob"], "alice.set_aside")) == [
            "Given to Israel [K]",
            "Jonathan, the Devoted [K]",
        ]
        assert "Given to Israel [K]" not in names_in(alice, "alice.hand")
    finally:
        t.close()
