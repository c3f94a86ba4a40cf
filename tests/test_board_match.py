"""A whole match of each rule set, played only through the board in Chromium
by two seats while a spectator watches: the chat, the log in words, a large
preview of a card on hover or tap (the back alone for a card its viewer may
not see), the menus in words with the judge's acts apart, a refused drop
with the rule's message beside the card, and the end of each turn.

After every act, and after every chat line and preview, each viewer's page
(HTML, text, attributes, the data its script keeps, so the chat and the
preview too) and every WebSocket frame it received are checked against what
the engine says that viewer may look at (tests/boardkit.py).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from boardkit import (
    SCREENSHOTS,
    STAT_BASE,
    ThreadServer,
    assert_nothing_secret,
    board_body,
    frames_text,
    page_blobs,
    real_board_body,
    secrets_of,
    thread_server,
)
from test_board import (  # noqa: F401 (fixtures)
    LAPTOP,
    PHONE,
    Table,
    Viewer,
    browser,
    names_in,
    server,
)

#: What a menu in words never shows: a handle, a zone's name as the engine
#: writes it, a position in a zone, or JSON.
RAW = re.compile(r"\bo[0-9a-f]{12}\b|\b[a-z]+\.[a-z_]+\b|\[-?\d+\]|[{}\"]")


class Match(Table):
    """A table whose check also knows what each viewer has seen: a card a
    viewer once looked at (bob's pitched card, which everyone saw before it
    went to the bottom of his deck) may be named in the log that told them,
    and nothing else that viewer may not look at now may be anywhere."""

    def __init__(self, host: ThreadServer, chromium: Any, body: dict[str, Any]) -> None:
        self.seen: dict[str | None, set[str]] = {}
        super().__init__(host, chromium, body)

    def check(self) -> None:
        game = self.server.game(self.id)
        for name, viewer in self.viewers.items():
            seen = self.seen.setdefault(name, set())
            for card in game.cards():
                if game.may_look(name, card):
                    seen.add(game.obj(card).cdef.name)
            hidden, _ = secrets_of(game, name)
            names = hidden - seen
            stats = {str(STAT_BASE + int(n[2:6])) for n in names if re.fullmatch(r"Kx\d{4}q", n)}
            assert names, "the check needs cards the viewer may not see"
            for where, text in page_blobs(viewer.page).items():
                assert_nothing_secret(f"{viewer.label}'s page ({where})", text, names, stats)
            new = viewer.frames[self.checked[name] :]
            self.checked[name] = len(viewer.frames)
            assert_nothing_secret(f"{viewer.label}'s frames", frames_text(new), names, stats)
            assert not viewer.errors, viewer.errors
        self.checks += 1


def menu_words(viewer: Viewer) -> list[str]:
    """The entries of the open menu, once its legal acts are in, each as the
    whole sentence it says ("Move to alice's graveyard", listed as "alice's
    graveyard" under "Move to"); each is checked to be words."""
    viewer.page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
    entries = viewer.page.evaluate(
        "() => [...document.querySelectorAll('#menu button')]"
        ".map(b => (b.getAttribute('aria-label') || b.textContent).trim())"
    )
    shown = [t.strip() for t in viewer.page.locator("#menu button").all_inner_texts()]
    # Card names are what they are ('Lost Soul "Dread" [Exodus 15:16 - K]').
    cards = viewer.page.locator("#board .card .name").all_inner_texts()
    for entry in entries + shown:
        words = entry
        for name in sorted({c.strip() for c in cards}, key=len, reverse=True):
            words = words.replace(name, "NAME")
        assert not RAW.search(words), f"a menu entry that is not in words: {entry!r}"
    return entries


def menu_actions(viewer: Viewer) -> set[str]:
    """The actions the open menu's entries and forms are of."""
    names = viewer.page.evaluate(
        "() => [...document.querySelectorAll('#menu button[data-action]')]"
        ".map(b => b.dataset.action)"
    )
    return set(names)


def one_click(viewer: Viewer, text: str) -> None:
    """Click the menu's one-click entry whose whole sentence is ``text``."""
    label = json.dumps(text, ensure_ascii=False)
    entry = viewer.page.locator(f"#menu button.legal[aria-label={label}]")
    viewer.reveal(entry)
    entry.click()


def open_card(viewer: Viewer, card: Any) -> list[str]:
    card.click()
    return menu_words(viewer)


def open_actions(viewer: Viewer) -> list[str]:
    viewer.page.click("#actions-btn")
    return menu_words(viewer)


def close_menu(viewer: Viewer) -> None:
    viewer.page.keyboard.press("Escape")
    viewer.page.wait_for_selector("#menu", state="hidden")


def variant(viewer: Viewer, card: Any, action: str, only: str, fields: dict[str, str]) -> None:
    """From a card's menu, the entry of an action for one of the parameters
    it takes exactly one of ("Deal damage…"), its form filled in and sent."""
    card.click()
    viewer.page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
    entry = viewer.page.locator(f'#menu button[data-action="{action}"][data-variant="{only}"]')
    viewer.reveal(entry)
    entry.click()
    form = viewer.page.locator("#form")
    assert form.locator(f'[name="{only}"]').count() == 1
    if only == "remove":  # the card's one counter, chosen already
        counters = form.locator("#f-name-counters option").evaluate_all(
            "os => os.map(o => o.value)"
        )
        assert counters == [form.locator('[name="name"]').input_value()]
    assert form.locator("textarea").count() == 0  # nothing asks for JSON
    viewer.submit(fields)


def life_of(viewer: Viewer, player: str) -> list[str]:
    return viewer.page.locator(f'.mat[data-player="{player}"] .player .life').all_inner_texts()


def say(t: Table, who: str, text: str) -> None:
    """A seat says a line: every board shows it, as text."""
    page = t[who].page
    page.fill("#chat-text", text)
    page.click("#chat-form button[type=submit]")
    for viewer in t.viewers.values():
        viewer.page.wait_for_function(
            "t => [...document.querySelectorAll('#chat .said')].some(e => e.textContent === t)",
            arg=text,
        )
    t.check()


def chat_lines(viewer: Viewer) -> list[str]:
    return [line.strip() for line in viewer.page.locator("#chat li").all_inner_texts()]


def hover_preview(viewer: Viewer, card: Any) -> dict[str, Any]:
    """Hover a card: what its preview shows."""
    card.hover()
    box = viewer.page.locator("#preview")
    box.wait_for()
    return {
        "name": box.locator(".p-name").all_inner_texts(),
        "back": box.locator(".p-back").count(),
        "text": box.inner_text(),
    }


def log_at_newest(viewer: Viewer) -> bool:
    return bool(
        viewer.page.evaluate(
            "() => { const l = document.getElementById('log');"
            " return l.scrollTop + l.clientHeight >= l.scrollHeight - 2; }"
        )
    )


def last_log(viewer: Viewer) -> str:
    return viewer.page.locator("#log li").last.inner_text()


def common_opening(t: Table, hand_zone: str) -> None:
    """The chat, the previews and the menus' words, the same in both games."""
    alice, bob, spectator = t["alice"], t["bob"], t[None]
    say(t, "alice", "good luck, have fun <b>bob</b>")
    assert chat_lines(spectator) == ["alice: good luck, have fun <b>bob</b>"]
    assert spectator.page.locator("#chat b").count() == 0  # text, never markup
    assert spectator.page.locator("#chat-form").is_hidden()  # the spectator only reads
    say(t, "bob", "you too")
    assert chat_lines(alice)[-1] == "bob: you too"
    # A preview: alice sees her own hand card's face, bob and the spectator
    # only its back, whether by hovering or tapping.
    mine = alice.card(hand_zone, 0)
    name = mine.locator(":scope > .name").inner_text()
    seen = hover_preview(alice, mine)
    assert seen["name"] == [name] and not seen["back"]
    assert f"in alice's {hand_zone.split('.')[1]}" in seen["text"]
    t.check()
    seen = hover_preview(bob, bob.card(hand_zone, 0))
    assert seen["back"] == 1 and seen["name"] == []
    assert name not in seen["text"]
    spectator.card(hand_zone, 0).click()
    assert spectator.page.locator("#preview .p-back").count() == 1
    assert spectator.page.locator("#preview").get_attribute("data-pinned") == "yes"
    t.check()
    close_menu(spectator)
    # The judge's acts are in the judge's menu alone: the actions the rule
    # set's table marks as a judge's ("judge": true), and only those.
    ruleset = t.server.game(t.id).ruleset
    served = httpx.get(t.server.url + "/api/rulesets").json()["rulesets"]
    table = next(r for r in served if r["name"] == ruleset.name)["actions"]
    judges = {a["name"] for a in table if a.get("judge")}
    assert judges == {n for n, a in ruleset.actions.items() if a.judge} and "grant" in judges
    actions = open_actions(alice)
    in_actions = menu_actions(alice)
    close_menu(alice)
    open_card(alice, alice.card(hand_zone, 0))
    in_card = menu_actions(alice)
    close_menu(alice)
    alice.page.click("#judge-btn")
    judge = alice.page.locator("#menu button").all_inner_texts()
    assert menu_actions(alice) == judges
    close_menu(alice)
    assert "Grant a keyword…" in judge
    assert not set(judge) & set(actions)
    assert in_actions and in_card and not (in_actions | in_card) & judges
    # the page reads the mark, not a list of names: any rule set's actions
    marks = alice.page.evaluate(
        "() => [{name: 'clear'}, {name: 'knock', judge: true}].map(cardzonesMenus.isJudge)"
    )
    assert marks == [False, True]


def play_fab(t: Table) -> None:
    alice, bob, spectator = t["alice"], t["bob"], t[None]
    common_opening(t, "alice.hand")
    # alice plays a card from her hand: the menu says it in words.
    card = alice.card("alice.hand", 0)
    name = card.locator(":scope > .name").inner_text()
    entries = open_card(alice, card)
    assert {"Play", "Pitch", "Move to alice's graveyard"} <= set(entries)
    assert "Move to the bottom of alice's deck" in entries
    # A card with no life total offers no life, one with no counters none to take off.
    assert "Put counters on it…" in entries
    assert "Deal damage…" not in entries and "Remove counters…" not in entries
    one_click(alice, "Play")
    t.applied()
    assert names_in(spectator, "stack") == [name]
    assert last_log(bob) == f"alice moved {name} from alice's hand to the stack"
    entries = open_actions(alice)
    assert "Resolve the top layer" in entries and "End the turn" in entries
    one_click(alice, "Resolve the top layer")
    t.applied()
    assert last_log(spectator) == f"alice moved {name} from the stack to alice's graveyard"
    assert log_at_newest(spectator)
    # Life: alice deals bob's hero 3 damage (20 life becomes 17), shown by
    # his name on every board and said in the log.
    assert life_of(spectator, "bob") == ["♥ 20"]
    variant(alice, alice.card("bob.hero"), "life", "damage", {"damage": "3"})
    t.applied()
    for viewer in t.viewers.values():
        assert life_of(viewer, "bob") == ["♥ 17"]
    assert "3 damage" in last_log(bob) and "17" in last_log(bob)
    # Counters: a +1 power counter on her weapon, on its face and in its preview.
    variant(alice, alice.card("alice.weapon.1"), "counter", "add", {"name": "+1_power", "add": "1"})
    t.applied()
    weapon = spectator.card("alice.weapon.1")
    assert weapon.locator(".counter").all_inner_texts() == ["1× +1 power"]
    assert weapon.locator('.stat[data-stat="power"] .v').inner_text() == "4"
    seen = hover_preview(bob, bob.card("alice.weapon.1"))
    assert "1 × +1 power" in seen["text"]
    t.check()
    # A drop the rules refuse: the hero onto its own soul (3.0.14).
    alice.drag(alice.card("alice.hero"), "alice.soul")
    t.refused("alice", "3.0.14", alice.card("alice.hero"))
    # The top of her deck to her hand: a card she may not see, named in words.
    entries = open_card(alice, alice.card("alice.deck"))
    assert alice.page.inner_text("#menu .menu-title") == "a card in alice's deck"
    one_click(alice, "Move to alice's hand")
    t.applied()
    assert last_log(bob) == "alice moved a card from alice's deck to alice's hand"
    open_actions(alice)
    one_click(alice, "End the turn")
    t.applied()
    assert "bob's turn" in spectator.page.inner_text("#turn")
    # bob's turn: he draws from the menu of his deck, pitches, and ends it.
    open_card(bob, bob.card("bob.deck"))
    one_click(bob, "Move to bob's hand")
    t.applied()
    pitched = bob.card("bob.hand", 0)
    pitched_name = pitched.locator(":scope > .name").inner_text()
    open_card(bob, pitched)
    one_click(bob, "Pitch")
    t.applied()
    assert names_in(alice, "bob.pitch") == [pitched_name]
    say(t, "bob", "pitching for the next one")
    # The end of turn as the rules have it: the pitched card to the bottom of
    # his deck, his hand drawn up to his hero's intellect (4).
    entries = open_actions(bob)
    assert "End the turn as the rules do" in entries
    one_click(bob, "End the turn as the rules do")
    t.applied()
    assert "alice's turn" in alice.page.inner_text("#turn")
    assert names_in(spectator, "bob.pitch") == []
    assert spectator.page.locator('[data-zone="bob.hand"] .card.back').count() == 4


def play_redemption(t: Table) -> None:
    alice, bob, spectator = t["alice"], t["bob"], t[None]
    common_opening(t, "alice.hand")
    # alice goes through her phases from the Actions menu, in words.
    entries = open_actions(alice)
    assert "Go to the preparation phase" in entries
    one_click(alice, "Go to the preparation phase")
    t.applied()
    assert "preparation" in spectator.page.inner_text("#turn")
    card = alice.card("alice.hand", 0)
    name = card.locator(":scope > .name").inner_text()
    entries = open_card(alice, card)
    assert {"Discard", "Move to alice's territory"} <= set(entries)
    one_click(alice, "Move to alice's territory")
    t.applied()
    assert name in names_in(bob, "alice.territory")
    assert last_log(bob) == f"alice moved {name} from alice's hand to alice's territory"
    # Returning a card that is not set aside: the rules refuse it, beside the card.
    alice.menu(alice.card("alice.territory", 0), "return")
    t.refused("alice", "set-aside/definition", alice.card("alice.territory", 0))
    card = alice.card("alice.hand", 0)
    name = card.locator(":scope > .name").inner_text()
    open_card(alice, card)
    one_click(alice, "Discard")
    t.applied()
    assert names_in(spectator, "alice.discard") == [name]
    assert log_at_newest(alice)
    # A set-aside with an ongoing bonus and a name, through the form: the
    # bonus's card is chosen by name, the bonus field by field; then the
    # named effect is negated from the Actions menu.
    gideon = alice.named("alice.territory", "Gideon A")
    gideon.click()
    alice.page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
    entry = alice.page.locator('#menu button[data-action="set_aside"][data-param="cards"]')
    alice.reveal(entry)
    entry.click()
    form = alice.page.locator("#form")
    assert form.locator("textarea").count() == 0
    alice.submit(
        {
            "ongoing.card": "Goliath A (alice's territory)",
            "ongoing.strength": "+2",
            "as": "exile",
        }
    )
    t.applied()
    assert "Gideon A" in names_in(spectator, "alice.set_aside")
    goliath = spectator.named("alice.territory", "Goliath A")
    assert goliath.locator('.stat[data-stat="strength"] .v').inner_text() == "11"
    # bob may negate it too, but the label is alice's words: his menu names
    # it as another seat's effect.
    entries = open_actions(bob)
    assert [e for e in entries if e.startswith("Negate another seat's effect (")]
    assert not [e for e in entries if "exile" in e]
    close_menu(bob)
    t.check()
    entries = open_actions(alice)
    assert "Negate “exile”" in entries
    one_click(alice, "Negate “exile”")
    t.applied()
    assert "Gideon A" in names_in(bob, "alice.territory")
    goliath = spectator.named("alice.territory", "Goliath A")
    assert goliath.locator('.stat[data-stat="strength"] .v').inner_text() == "9"
    # Counters on a hero in her territory, put on and taken off.
    hero = alice.named("alice.territory", "Gideon A")
    variant(alice, hero, "counter", "add", {"name": "steam", "add": "2"})
    t.applied()
    assert spectator.named("alice.territory", "Gideon A").locator(".counter").all_inner_texts() == [
        "2× steam"
    ]
    # Taking one off: the form offers the counters the card has.
    variant(bob, bob.named("alice.territory", "Gideon A"), "counter", "remove", {"remove": "1"})
    t.applied()
    assert alice.named("alice.territory", "Gideon A").locator(".counter").all_inner_texts() == [
        "1× steam"
    ]
    open_actions(alice)
    one_click(alice, "End the turn")
    t.applied()
    assert "bob's turn" in alice.page.inner_text("#turn")
    # The start of his turn as the rules have it: he draws three.
    open_actions(bob)
    one_click(bob, "Start the turn as the rules do")
    t.applied()
    assert last_log(alice) == "bob's preparation phase"
    assert "bob moved a card from bob's deck to bob's hand" in alice.page.inner_text("#log")
    assert alice.page.locator('[data-zone="bob.hand"] .card.back').count() == 6
    say(t, "bob", "drawing")
    open_actions(bob)
    one_click(bob, "End the turn")
    t.applied()


GAMES = {"fab": play_fab, "redemption": play_redemption}


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_a_match_through_the_board_in_words_leaks_nothing(
    browser: Any,  # noqa: F811 (the fixture)
    server: ThreadServer,  # noqa: F811 (the fixture)
    ruleset: str,
) -> None:
    table = Match(server, browser, board_body(ruleset))
    try:
        GAMES[ruleset](table)
        assert table.checks > table.number
        # The chat is kept: a reload shows it again, and the replay shows
        # each line after the event it followed.
        alice = table["alice"]
        before = chat_lines(alice)
        alice.page.reload()
        alice.connected()
        assert chat_lines(alice) == before
        alice.page.click("#replay-btn")
        alice.page.wait_for_selector("#replay-bar:not([hidden])")
        alice.page.click("#replay-first")
        assert chat_lines(alice) == before[:2]  # said before the first event
        alice.page.click("#replay-last")
        assert chat_lines(alice) == before
        alice.page.click("#replay-close")
        table.check()
        # On a laptop, the menu of a card at the foot of the board opens
        # inside the window (above the card when it does not fit below).
        alice.card("alice.hand", 0).click()
        alice.page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
        box = alice.page.locator("#menu").bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= LAPTOP["width"]
        assert box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"]
        close_menu(alice)
        # On a phone, a card's menu opens inside the window.
        alice.page.set_viewport_size(PHONE)
        alice.card("alice.hand", 0).click()
        alice.page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
        box = alice.page.locator("#menu").bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        alice.page.screenshot(path=SCREENSHOTS / f"{ruleset}-match-menu-phone.png")
        close_menu(alice)
        alice.page.set_viewport_size(LAPTOP)
        table.check()
        # The end of the match: bob proposes to finish, alice agrees; the
        # chat goes on after it, and alice replays the game as bob saw it,
        # his lines and hers among the events.
        bob = table["bob"]
        bob.page.click("#finish-btn")
        bob.page.click("#finish-btn")
        alice.page.wait_for_selector("#finish-accept:not([hidden])")
        alice.page.click("#finish-accept")
        for viewer in table.viewers.values():
            viewer.page.wait_for_function("() => window.cardzonesBoard.finished !== null")
        say(table, "bob", "good game")
        say(table, "alice", "gg, thanks")
        alice.page.click("#replay-btn")
        alice.page.wait_for_selector("#replay-bar:not([hidden])")
        alice.page.select_option("#replay-as", "bob")
        alice.page.wait_for_function(
            "() => window.cardzonesBoard.replay && window.cardzonesBoard.replay.as === 'bob'"
        )
        alice.page.click("#replay-last")
        assert chat_lines(alice)[-2:] == ["bob: good game", "alice: gg, thanks"]
        alice.page.click("#replay-first")
        assert chat_lines(alice) == before[:2]
        alice.page.click("#replay-close")
        table.check()
    finally:
        table.close()


# ----------------------------------------------------------------------
# The README's pictures
# ----------------------------------------------------------------------

#: Where the README's pictures are, written when this variable is set:
#: ``CARDZONES_README_IMAGES=1 pytest tests/test_board_match.py -k readme``.
README_IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
#: A laptop's screen, drawn at three quarters of its size: a small picture.
PICTURE = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 0.75}
PHONE_PICTURE = {"viewport": PHONE, "device_scale_factor": 1}


def picture_folder() -> Path:
    folder = README_IMAGES if os.environ.get("CARDZONES_README_IMAGES") else SCREENSHOTS
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def snapshot_page(t: Table, chromium: Any, seat: str, size: dict[str, Any]) -> Any:
    """A fresh page of ``seat``'s link, for a picture, in its own context."""
    context = chromium.new_context(**size)
    context.set_default_timeout(45_000)  # a busy machine loads a page slowly
    page = context.new_page()
    page.goto(t.server.url + t.created["links"][seat])
    page.wait_for_selector("#conn[data-state=connected]")
    page.wait_for_function("() => window.cardzonesBoard.actions !== null")
    return page


def checked(t: Table, page: Any, seat: str) -> None:
    """The picture's page holds nothing its seat may not see, like the others."""
    names, stats = secrets_of(t.server.game(t.id), seat)
    for where, text in page_blobs(page).items():
        assert_nothing_secret(f"{seat}'s picture ({where})", text, names, stats)


def real_fab(t: Table) -> None:
    alice, bob = t["alice"], t["bob"]
    say(t, "alice", "Good luck! Dorinthea swings first.")
    say(t, "bob", "You too. Azalea has arrows ready.")
    open_card(alice, alice.named("alice.hand", "Sink Below"))
    one_click(alice, "Pitch")
    t.applied()
    open_card(alice, alice.named("alice.hand", "Snatch"))
    one_click(alice, "Play")
    t.applied()
    open_card(alice, alice.named("stack", "Snatch"))
    one_click(alice, "Move to the combat chain")
    t.applied()
    open_card(bob, bob.card("bob.hand", 0))
    one_click(bob, "Move to bob's graveyard")
    t.applied()
    say(t, "bob", "Blocking with that one.")
    variant(alice, alice.card("bob.hero"), "life", "damage", {"damage": "4"})
    t.applied()
    dawnblade = alice.named("alice.weapon.1", "Dawnblade")
    variant(alice, dawnblade, "counter", "add", {"name": "+1_power", "add": "1"})
    t.applied()
    assert life_of(t[None], "bob") == ["♥ 36"]


def real_redemption(t: Table) -> None:
    alice = t["alice"]
    say(t, "alice", "Good luck!")
    say(t, "bob", "And to you. Pharaoh is waiting.")
    open_actions(alice)
    one_click(alice, "Go to the preparation phase")
    t.applied()
    dread = alice.named("alice.land_of_bondage", 'Lost Soul "Dread"')
    alice.menu(dread, "place", {"onto": "Assyria (alice's territory)"}, param="cards")
    t.applied()
    open_card(alice, alice.named("alice.hand", "Hannah [K]"))
    one_click(alice, "Move to alice's territory")
    t.applied()


FIXTURES = Path(__file__).resolve().parent / "fixtures" / "cards"


def fixture_text(game: str, name: str) -> str:
    """A card's rules text as the card fixtures give it."""
    if game == "fab":
        for card in json.loads((FIXTURES / "fab-card.json").read_text(encoding="utf-8")):
            if card["name"] == name:
                return str(card["functional_text_plain"])
    else:
        lines = (FIXTURES / "redemption-carddata.txt").read_text(encoding="utf-8").splitlines()
        header = lines[0].split("\t")
        for line in lines[1:]:
            row = dict(zip(header, line.split("\t"), strict=False))
            if row["Name"] == name:
                return row["SpecialAbility"]
    raise AssertionError(f"no {name} in the {game} fixtures")


def test_the_readme_pictures_a_match_of_real_cards(
    browser: Any,  # noqa: F811 (the fixture)
    server: ThreadServer,  # noqa: F811 (the fixture)
) -> None:
    """Pictures of a few turns of real cards (the repository's card
    fixtures), each page checked like the rest: a fab table with a card's
    preview and the chat, a Redemption table with a card's menu in words, and
    a phone with a menu and a preview."""
    folder = picture_folder()
    fab = Table(server, browser, real_board_body("fab"))
    try:
        real_fab(fab)
        page = snapshot_page(fab, browser, "alice", PICTURE)
        page.locator('[data-zone="alice.weapon.1"] .cards > .card > .name').first.hover()
        page.wait_for_selector("#preview:not([hidden])")
        # The card's rules text, from the card index, and its counter.
        text = page.locator("#preview .p-text").all_inner_texts()
        assert text == [fixture_text("fab", "Dawnblade")]
        assert "1 × +1 power" in page.inner_text("#preview")
        # A real card's pitch shows in its colour, as the rule set's layout colours it.
        pitches = page.locator('[data-zone="alice.hand"] .stat[data-stat="pitch"]')
        colours = pitches.evaluate_all("found => found.map((s) => s.dataset.colour)")
        assert colours and set(colours) <= {"red", "yellow", "blue"}, colours
        checked(fab, page, "alice")
        page.screenshot(path=folder / "board-fab.png")
        page.context.close()
        page = snapshot_page(fab, browser, "alice", PHONE_PICTURE)
        page.locator('[data-zone="alice.hand"] .card').first.click()
        page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
        checked(fab, page, "alice")
        page.screenshot(path=folder / "board-phone.png")
        page.context.close()
    finally:
        fab.close()
    redemption = Table(server, browser, real_board_body("redemption"))
    try:
        real_redemption(redemption)
        page = snapshot_page(redemption, browser, "alice", PICTURE)
        david = page.locator('[data-zone="alice.territory"] .cards > .card > .name')
        david.filter(has_text="David, Giant Slayer").hover()
        david_text = fixture_text("redemption", "David, Giant Slayer [K]")
        assert page.inner_text("#preview .p-text") == david_text
        page.locator('[data-zone="alice.hand"] .card').first.click()
        page.wait_for_selector("#menu .menu-legal[data-ready=yes]")
        checked(redemption, page, "alice")
        page.screenshot(path=folder / "board-redemption.png")
        page.context.close()
    finally:
        redemption.close()
    for name in ("board-fab.png", "board-phone.png", "board-redemption.png"):
        assert (folder / name).stat().st_size < 200_000


# ----------------------------------------------------------------------
# Card pictures
# ----------------------------------------------------------------------

DAWNBLADE = "https://images.example.org/fab/1HP143.webp"


def preview_of(t: Table, seat: str | None, zone: str, name: str) -> Any:
    viewer = t[seat]
    viewer.named(zone, name).locator(":scope > .name").hover()
    box = viewer.page.locator("#preview")
    box.wait_for()
    return box


@pytest.mark.parametrize("images", [False, True])
def test_a_card_picture_only_when_the_server_shows_pictures(
    browser: Any,  # noqa: F811 (the fixture)
    images: bool,
) -> None:
    """Dawnblade's index entry has a picture address. A server started with
    pictures (serve --images) lets the board show it in the preview, loaded
    by the browser from that address (here refused on the way: the test
    reaches no other host); a server without shows none, and its page
    allows no image from elsewhere."""
    asked: list[str] = []
    with thread_server(images=images) as host:
        table = Table(host, browser, real_board_body("fab"))
        try:
            for viewer in table.viewers.values():

                def refuse(route: Any) -> None:
                    asked.append(route.request.url)
                    route.abort()

                viewer.page.route("https://images.example.org/**", refuse)
            policy = httpx.get(host.url + table.created["links"]["alice"].split("#")[0])
            csp = policy.headers["content-security-policy"]
            assert ("img-src 'self' https:;" in csp) is images
            rulesets = httpx.get(host.url + "/api/rulesets").json()
            assert rulesets["images"] is images
            for seat in ("alice", "bob", None):
                box = preview_of(table, seat, "alice.weapon.1", "Dawnblade")
                pictures = box.locator("img.p-image")
                assert pictures.count() == (1 if images else 0)
                if images:
                    assert pictures.get_attribute("src") == DAWNBLADE
                    assert pictures.get_attribute("referrerpolicy") == "no-referrer"
            # A card its viewer may not see: the back, never a picture.
            bob = table["bob"]
            bob.card("alice.hand", 0).hover()
            assert bob.page.locator("#preview .p-back").count() == 1
            assert bob.page.locator("#preview img").count() == 0
            table.check()
        finally:
            table.close()
    assert bool(asked) is images
    assert all(url == DAWNBLADE for url in asked)
