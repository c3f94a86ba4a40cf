"""A Flesh and Blood turn played at a table under the game procedure, through
the board in Chromium: alice plays an action with go again from its card's
menu, picking the card to pitch for it from the ways to pay it asks about,
passes, attacks with her weapon from the procedure's panel, passes
until something happens, bob declares a defending card by selecting it and
confirming once, alice plays an attack reaction whose "+2{p}" goes to her
weapon's attack, passes until something happens through the damage (its
power with the reaction's), the chain link's resolution and the chain's
close, and ends the turn keeping a card in her arsenal. Every seat and the
spectator see the chain link drawn as a link (its attack, its players, its
defending card, its damage and hit), who has priority, each player's points,
and at the end the winner. alice's clicks are counted, passes included: at
most ten.

After every act each viewer's page and every frame it received are checked
against what the engine says that viewer may look at (tests/boardkit.py).
"""

from __future__ import annotations

import json
import time
from typing import Any

from boardkit import SCREENSHOTS, ThreadServer, thread_server
from tablekit import card_name
from test_board import (  # noqa: F401 (fixture; skips without Chromium)
    WAIT_MS,
    Table,
    Viewer,
    browser,
)
from test_board_match import Match
from test_board_procedure import Clicks, menu_entry, panel_act, panel_leaks_nothing

from cardzones.rulesets.fab.procedure.view import procedure_view

#: The most clicks the turn player may take for the turn.
TURN_CLICKS = 10


def _scenario() -> str:
    """alice holds an action with go again, a card to pitch for it, an attack
    reaction giving a sword attack +2{p} and a card for her arsenal, with a
    weapon whose attack costs two; bob holds a card to defend with and cards
    nobody else sees, and each deck holds cards nobody sees."""
    alice_deck = [card_name(n) for n in range(1, 7)]
    bob_deck = [card_name(n) for n in range(11, 15)]
    bob_hand = [card_name(n) for n in range(21, 24)]
    lines = [
        "ruleset: fab",
        "procedure: {first: alice}",
        "seed: 3",
        "cards:",
        "  Dorinthea: {types: [hero, warrior], life: 20, intellect: 4}",
        "  Bravo: {types: [hero, guardian], life: 20, intellect: 4}",
        "  Dawnblade: {types: [warrior, weapon, sword, 2h], power: 3,"
        ' text: "Once per Turn Action - {r}{r}: Attack"}',
        "  Warm Up: {types: [generic, action], keywords: [go_again], pitch: 1, cost: 1,"
        " defense: 2}",
        "  Red Ore: {types: [generic, action], pitch: 3, cost: 0, defense: 2}",
        "  Sharpen: {types: [warrior, attack_reaction], pitch: 2, cost: 0,"
        ' text: "Target sword attack gets +2{p}."}',
        "  Keeper: {types: [generic, action, attack], power: 2, pitch: 2, cost: 1, defense: 3}",
        "  Sturdy Wall: {types: [generic, action], defense: 2, pitch: 1, cost: 0}",
        "  Helm: {types: [generic, equipment, head], defense: 1}",
    ]
    lines += [
        f"  {name}: {{types: [generic, action], pitch: 1, cost: 0, defense: 2}}"
        for name in alice_deck + bob_deck + bob_hand
    ]
    lines += [
        "setup:",
        "  alice.hero: [Dorinthea]",
        "  bob.hero: [Bravo]",
        "  alice.weapon: [Dawnblade]",
        "  bob.head: [Helm]",
        "  alice.hand: [Warm Up, Red Ore, Sharpen, Keeper]",
        f"  bob.hand: [Sturdy Wall, {', '.join(bob_hand)}]",
        f"  alice.deck: [{', '.join(alice_deck)}]",
        f"  bob.deck: [{', '.join(bob_deck)}]",
        "",
    ]
    return "\n".join(lines)


def procedure(t: Table) -> dict[str, Any]:
    """The procedure as the engine has it now (the public view's)."""
    field = procedure_view(t.server.game(t.id), None)
    assert field is not None
    return field


def head(t: Table) -> int:
    return int(t.server.app.state.server.store.head(t.id))


def settle(t: Table, done: Any) -> None:
    """Wait until the table's procedure is as ``done`` says and no act is on
    its way, then until every page shows the last event; then the check."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        before = head(t)
        if done(procedure(t)):
            time.sleep(0.3)  # a board passing for its seat may still send
            if head(t) == before and done(procedure(t)):
                break
        assert time.monotonic() < deadline, procedure(t)
        time.sleep(0.05)
    t.number = head(t)
    for viewer in t.viewers.values():
        viewer.wait_number(t.number)
    t.check()


def has_priority(player: str) -> Any:
    return lambda field: field["priority"] == player


def waits_for(player: str) -> Any:
    return lambda field: field["waiting_for"] == player and field["priority"] is None


def passes(t: Table, clicks: Clicks, viewer: Viewer) -> None:
    """The viewer's one-click Pass, in view at the bottom of the screen."""
    assert viewer.name is not None
    settle(t, has_priority(viewer.name))
    button = panel_act(viewer, "Pass")
    assert button.is_visible() and button.evaluate("e => e.closest('.proc-passbar') !== null")
    clicks.click(viewer, button)


def passes_until(t: Table, clicks: Clicks, viewer: Viewer) -> None:
    settle(t, has_priority(viewer.name or ""))
    clicks.click(viewer, panel_act(viewer, "Pass until something happens"))


def sent_passes(viewer: Viewer) -> int:
    """How many passes the viewer's page sent."""
    acts = [json.loads(f).get("act") for f in viewer.sent if isinstance(f, str)]
    return sum(1 for a in acts if isinstance(a, dict) and "pass" in a)


def links_of(viewer: Viewer) -> list[dict[str, str]]:
    """Each chain link as the viewer's panel draws it: its values by key."""
    viewer.page.wait_for_function("n => window.cardzonesBoard.number >= n", arg=0)
    return [
        {
            value.get_attribute("data-key") or "": value.inner_text().strip()
            for value in link.locator(".proc-value").all()
        }
        for link in viewer.page.locator("#procedure .proc-link").all()
    ]


def everyone_sees_links(t: Table, expected: list[dict[str, str]]) -> None:
    for viewer in t.viewers.values():
        viewer.wait_number(t.number)
        shown = links_of(viewer)
        assert len(shown) == len(expected), (viewer.label, shown)
        for link, want in zip(shown, expected, strict=True):
            for key, value in want.items():
                assert link.get(key) == value, (viewer.label, key, link)


def points_of(viewer: Viewer, player: str) -> list[str]:
    row = viewer.page.locator(f'#procedure .proc-points .proc-player[data-player="{player}"]')
    return [t.strip() for t in row.locator(".proc-point").all_inner_texts()]


def test_a_turn_with_a_pitch_an_action_a_weapon_attack_a_block_a_reaction_and_the_arsenal(
    browser: Any,  # noqa: F811 (fixture)
) -> None:
    with thread_server() as server:
        _play(server, browser)


def _play(server: ThreadServer, chromium: Any) -> None:
    # the check knows what each viewer saw: the card alice pitched goes to
    # the bottom of her deck, and the log that told everyone stays
    t = Match(server, chromium, {"scenario": _scenario()})
    alice, bob, spectator = t["alice"], t["bob"], t[None]
    clicks = Clicks()
    try:
        for viewer in t.viewers.values():
            viewer.page.locator("#procedure .proc-priority").wait_for()
            assert viewer.page.inner_text("#procedure .proc-priority") == "alice has priority"
            assert points_of(viewer, "alice") == ["action points 1", "resource points 0"]
        assert spectator.page.locator("#procedure .proc-acts").count() == 0
        assert bob.page.locator("#procedure .proc-passbar").count() == 0

        # The panel: one entry for each card to play or attack with; a card
        # that may be paid for in several ways asks which once clicked.
        panel_act(alice, "Play Warm Up, choose the pitch…")
        assert alice.page.locator("#procedure .proc-way").count() == 0
        assert alice.page.locator('#procedure [aria-label^="Play Warm Up, pitch: "]').count() == 0

        # The action from its card's menu: its entry asks which cards to
        # pitch, each way by its cards' names and pitch values, one click.
        clicks.click(alice, alice.named("alice.hand", "Warm Up"))
        clicks.click(alice, menu_entry(alice, "Play, choose the pitch…"))
        ways = alice.page.locator("#menu .proc-ways .proc-way")
        ways.first.wait_for()
        assert sorted(ways.all_inner_texts()) == [
            "Keeper (pitch 2)",
            "Red Ore (pitch 3)",
            "Sharpen (pitch 2)",
        ]
        clicks.click(
            alice, alice.page.locator('#menu .proc-way[aria-label="Play, pitch: Red Ore"]')
        )
        t.applied()
        for viewer in t.viewers.values():
            assert points_of(viewer, "alice") == ["action points 0", "resource points 2"]
        panel_leaks_nothing(t)

        # The layer resolves when both pass; go again gives an action point.
        passes(t, clicks, alice)
        passes(t, clicks, bob)
        settle(t, has_priority("alice"))
        assert points_of(spectator, "alice") == ["action points 1", "resource points 2"]

        # The weapon's attack: one click in the panel, paid with the points left.
        clicks.click(alice, panel_act(alice, "Attack with Dawnblade"))
        t.applied()
        passes_until(t, clicks, alice)
        # alice's board passes for her in the layer step and the attack step
        passes(t, clicks, bob)
        passes(t, clicks, bob)
        settle(t, waits_for("bob"))
        everyone_sees_links(
            t,
            [
                {
                    "attack": "attack Dawnblade",
                    "attacker": "attacker alice",
                    "defending": "defending none",
                }
            ],
        )
        for viewer in t.viewers.values():
            assert viewer.page.inner_text("#procedure .proc-waiting") == "waiting for bob"
        assert alice.page.locator("#procedure .proc-passbar").count() == 0
        panel_leaks_nothing(t)

        # The defend step: bob selects his card and confirms once.
        bob.page.wait_for_selector("#procedure .proc-acts[data-ready=yes]")
        select = bob.page.locator("#procedure .proc-select")
        toggles = select.locator(".proc-toggle")
        assert "Sturdy Wall" in toggles.all_inner_texts() and "Helm" in toggles.all_inner_texts()
        confirm = select.locator(".proc-confirm")
        assert confirm.inner_text() == "Defend"
        clicks.click(bob, select.locator(".proc-toggle", has_text="Sturdy Wall"))
        assert confirm.inner_text() == "Defend, cards: Sturdy Wall"
        clicks.click(bob, confirm)
        t.applied()
        # bob declared: alice's board stopped passing for her
        until = alice.page.locator("#procedure .proc-pass-until")
        until.wait_for()
        assert until.get_attribute("aria-pressed") == "false"
        everyone_sees_links(
            t,
            [
                {
                    "attacker": "attacker alice",
                    "defender": "defender bob",
                    "defending": "defending Sturdy Wall",
                }
            ],
        )
        panel_leaks_nothing(t)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        alice.page.screenshot(path=SCREENSHOTS / "fab-procedure-defended-alice.png")

        # The reaction step: alice's attack reaction, then passing until
        # something happens: the damage, the link's resolution, the close.
        passes(t, clicks, alice)
        passes(t, clicks, bob)
        settle(t, has_priority("alice"))
        clicks.click(alice, panel_act(alice, "Play Sharpen"))
        t.applied()
        passes_until(t, clicks, alice)
        # bob passes as alice's board does: Sharpen resolves, then each step
        # ends, the damage is dealt, the link resolves, the chain closes and
        # the action phase ends
        bob_passes = 0
        while True:
            settle(t, lambda field: field["priority"] == "bob" or field["phase"] == "end")
            if procedure(t)["phase"] == "end":
                break
            passes(t, clicks, bob)
            bob_passes += 1
        assert bob_passes == 5
        settle(t, waits_for("alice"))
        # Sharpen's +2 went to Dawnblade's attack: 5 power against 2 defense
        assert _life(t, "bob") == 17
        everyone_sees_links(t, [])  # the chain closed
        assert alice.page.locator("#procedure .proc-pass-until").count() == 0

        # The end of the turn, keeping a card in the arsenal: one click.
        clicks.click(
            alice, panel_act(alice, "End the turn as the rules do, keeping Keeper in the arsenal")
        )
        t.applied()
        settle(t, has_priority("bob"))
        assert bob.page.locator('#board [data-zone="alice.arsenal"] .card').count() == 1
        panel_leaks_nothing(t)

        assert clicks.of["alice"] <= TURN_CLICKS, clicks.of
        # alice: the menu, its entry and the way to pay, a pass, the attack,
        # a pass until, a pass, the reaction, a pass until, the end of turn;
        # bob: eight passes, a card selected and the declaration confirmed
        assert clicks.of == {"alice": 10, "bob": 11}, clicks.of
        # what alice's board sent: her two passes by hand, and the passes
        # her two clicks on "Pass until something happens" made (the layer
        # and attack steps; Sharpen's layer, the reaction, damage and
        # resolution steps and the action phase), as many as bob's
        assert sent_passes(alice) == 2 + 2 + 5

        # A concession is under More; every board shows the winner.
        bob.page.wait_for_selector("#procedure .proc-acts[data-ready=yes]")
        bob.page.click("#procedure .proc-more")
        panel_act(bob, "Concede").click()
        t.applied()
        for viewer in t.viewers.values():
            viewer.page.locator("#procedure .proc-winner").wait_for()
            assert viewer.page.inner_text("#procedure .proc-winner") == "alice won the game"
            assert viewer.page.locator("#procedure .proc-acts").count() == 0
        t.check()
    finally:
        t.close()


def _life(t: Table, player: str) -> int:
    """The life total of the player's hero, as the public view shows it."""
    view = t.server.game(t.id).view(None)
    (zone,) = [z for z in view["zones"] if z["zone"] == f"{player}.hero"]
    return int(zone["objects"][0]["life"])
