"""Hidden information, class by class: each test names the class of leak it
guards against, and shows it with cards that differ only where the player may
not look. (Random games cover the same classes in test_noninterference.py.)

- messages: a refusal or a choice names a card only through
  :func:`~cardzones.kernel.naming.name_for`;
- properties: a private object has no properties to the rules that act on it
  (3.0.7a), so no result, refusal or later state depends on which card it is;
- resets: every public-to-private change makes a new object (3.0.9);
- last known information: a private object's has no effects (3.0.7a);
"""

from __future__ import annotations

import ast
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_noninterference import FAB, REDEMPTION, Harness, handles, run_action

from cardzones import new_game
from cardzones.acts.binding import RESOLVED, bind
from cardzones.acts.seats import SeatPolicy, SeatRefusal
from cardzones.errors import CardzonesError, IllegalAction, NeedsChoice
from cardzones.kernel.cards import CardDef, Dest, PlayFrom, Replacement, Trigger
from cardzones.kernel.game import Game
from cardzones.kernel.objects import PLACED
from cardzones.kernel.views import card_for_handle
from cardzones.rulesets.fab import actions as fab
from cardzones.rulesets.fab import pitch
from cardzones.rulesets.redemption.cards import own_fields
from cardzones.rulesets.redemption.place import place
from cardzones.rulesets.redemption.set_aside import return_cards, set_aside
from cardzones.rulesets.redemption.turns import advance_to

ROOT = Path(__file__).resolve().parent.parent


def _outcome(action: Any) -> tuple[str, str]:
    """What an action did, as its player is told: the result, or the refusal."""
    try:
        result = action()
    except CardzonesError as exc:
        return type(exc).__name__, str(exc)
    value = result[0] if isinstance(result, tuple) else result
    return "result", str(value.value)


# ----------------------------------------------------------------------
# Messages name cards through name_for only
# ----------------------------------------------------------------------

#: Engine modules: everything that can refuse an action or ask for a choice.
_ENGINE = ("cardzones/kernel", "cardzones/acts", "cardzones/rulesets")
#: Calls whose arguments are a message to a player.
_MESSAGES = {"IllegalAction", "NeedsChoice", "UnknownReference", "Admission", "CardzonesError"}


def _names_a_card(node: ast.AST) -> ast.Attribute | None:
    """An attribute in ``node`` that reads a card's name or its printed card
    (``obj.name``, ``game.obj(c).name``, ``x.cdef``), other than a rule set's
    or a zone's own name."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr in ("name", "cdef"):
            base = sub.value
            if isinstance(base, ast.Name) and base.id in ("self", "ruleset", "info", "spec"):
                continue
            if isinstance(base, ast.Attribute) and base.attr in ("ruleset", "spec"):
                continue
            return sub
    return None


def test_messages_name_cards_only_through_name_for() -> None:
    """Class: messages. No message of the engine (a refusal, a choice, an
    admission reason) reads a card's name or printed card itself: every one
    goes through the one naming function, which names only what its reader
    may look at."""
    found = []
    for folder in _ENGINE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name == "naming.py":
                continue
            tree = ast.parse(path.read_text(), str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if called not in _MESSAGES:
                    continue
                for arg in (*node.args, *(k.value for k in node.keywords)):
                    hit = _names_a_card(arg)
                    if hit is not None:
                        found.append(f"{path.relative_to(ROOT)}:{hit.lineno}")
    assert not found, f"messages that name a card without name_for: {found}"


def test_messages_return_of_a_private_set_aside_card_by_another_player() -> None:
    """Class: messages. Alice may not return bob's face-down set-aside card; the
    refusal must not name it."""
    messages = set()
    for name in ("Moses", "Goliath"):
        game = new_game("redemption", handle_key="k")
        territory = game.zone("bob", "territory")
        assert territory is not None
        card = game.new_card(CardDef(name, frozenset({"hero"})), territory, owner="bob")
        set_aside(game, [card], by="bob")
        game.flip(card, "down", by="bob")
        advance_to(game, "preparation")
        kind, message = _outcome(lambda c=card, g=game: return_cards(g, [c], by="alice"))
        assert kind == "IllegalAction" and name not in message
        messages.add(message)
    assert len(messages) == 1, messages


def test_messages_order_choice_for_several_private_cards() -> None:
    """Class: messages. Placing two of bob's face-down cards in a deck needs an
    order; the choice alice is asked must not list their names."""
    shown = set()
    for names in (("Moses", "Aaron"), ("Goliath", "Pharaoh")):
        game = new_game("redemption", handle_key="k")
        territory = game.zone("bob", "territory")
        assert territory is not None
        cards = [
            game.new_card(CardDef(n, frozenset({"hero"})), territory, owner="bob") for n in names
        ]
        for card in cards:
            game.flip(card, "down", by="bob")
        with pytest.raises(NeedsChoice) as asked:
            place(game, cards, by="alice", into=Dest("deck", "bob"))
        assert not any(n in str(asked.value) for n in names)
        shown.add(str(asked.value))
    assert len(shown) == 1, shown


# ----------------------------------------------------------------------
# A private object has no properties to the rules (3.0.7a)
# ----------------------------------------------------------------------


def _fab_game() -> Game:
    return new_game("fab", ("alice", "bob"), seed=1, handle_key="k")


def test_properties_card_put_under_a_face_down_card() -> None:
    """Class: properties. Whether a card may be put under a face-down card in
    the arena depends on its category alone (1.3.2): a face-down deck-card has
    no permanent subtype, so no sub-card goes under it, aura or not."""
    outcomes = set()
    for types in ({"action", "aura"}, {"action", "ally"}, {"action", "item"}):
        game = _fab_game()
        permanent = game.zone(None, "permanent")
        graveyard = game.zone("alice", "graveyard")
        assert permanent is not None and graveyard is not None
        top = game.new_card(CardDef("Top", frozenset(types)), permanent, owner="alice")
        game.flip(top, "down")
        card = game.new_card(CardDef("Under", frozenset({"action"})), graveyard)
        outcomes.add(_outcome(lambda g=game, c=card, t=top: fab.put_under(g, c, t, "alice")))
    assert len(outcomes) == 1, outcomes
    assert next(iter(outcomes))[0] == "IllegalAction"


def test_properties_face_down_card_into_a_weapon_zone() -> None:
    """Class: properties. Bob moves alice's face-down card into her weapon
    zones. The rules cannot see which card it is (3.0.7a): a one-hander, a
    two-hander and an off-hand need no choice of zone alike (3.0.10a), and kept
    face down none can be equipped (8.5.41b), with the same result and view.
    Moved face up, it is public as it moves (3.0.8): every player sees what it
    is, and it is equipped as it may be."""
    outcomes, views, revealed = set(), set(), set()
    for types in ({"weapon", "1h"}, {"weapon", "2h"}, {"equipment", "off-hand"}):
        game = _fab_game()
        banished = game.zone("alice", "banished")
        second = game.zone("alice", "weapon", 2)
        assert banished is not None and second is not None
        card = game.new_card(CardDef("Arm", frozenset(types)), banished, public=False)
        weapon = Dest("weapon", "owner")
        outcomes.add(_outcome(lambda g=game, c=card, w=weapon: g.move(c, w, by="bob", face="down")))
        outcomes.add(
            _outcome(
                lambda g=game, c=card, w=weapon, z=second: g.move(
                    c, w, by="bob", face="down", choose_zone=z
                )
            )
        )
        views.add(json.dumps(game.view("bob"), sort_keys=True))
        revealed.add(_outcome(lambda g=game, c=card, w=weapon: g.move(c, w, by="bob")))
    assert outcomes == {("result", "failed")}
    assert len(views) == 1
    assert revealed == {("result", "moved")}


def test_properties_face_down_weapon_revealed_by_the_move_is_equipped() -> None:
    """The rule the class above keeps: the owner's choice made, a face-down
    two-hander moved face up is public as it moves (3.0.8) and fills both
    weapon zones (8.2.2b)."""
    game = _fab_game()
    banished, first = game.zone("alice", "banished"), game.zone("alice", "weapon", 1)
    assert banished is not None and first is not None
    card = game.new_card(CardDef("Arm", frozenset({"weapon", "2h"})), banished, public=False)
    assert game.move(card, Dest("weapon", "owner"), by="alice", choose_zone=first).value == "moved"
    assert len(game.obj(card).equipped) == 2


def test_properties_face_down_card_played_from_the_deck() -> None:
    """Class: properties. A card in one's own deck may not be looked at (3.7.4):
    whether it says it may be played from the deck face down or not, playing it
    is refused in the same words."""
    outcomes = set()
    for abilities in ((), (PlayFrom("deck", face_down=True),), (PlayFrom("deck"),)):
        game = _fab_game()
        deck = game.zone("alice", "deck")
        assert deck is not None
        card = game.new_card(CardDef("Secret", frozenset({"action"}), abilities=abilities), deck)
        outcomes.add(_outcome(lambda g=game, c=card: fab.play(g, c, "alice")))
    assert len(outcomes) == 1, outcomes
    assert next(iter(outcomes))[0] == "IllegalAction"


#: 3.0.8a: a card that would go to a graveyard goes to its owner's banished
#: zone, or to the bottom of their deck, instead.
_TO_BANISHED = Replacement("graveyard", None, Dest("banished", "owner"), "top", "up")
_TO_DECK = Replacement("graveyard", None, Dest("deck", "owner"), "bottom", None)


@pytest.mark.parametrize("zone", ["banished", "deck"])
def test_properties_replacement_of_a_face_down_deck_card_decides_nothing_3_0_10a(
    zone: str,
) -> None:
    """Class: properties. alice has two banished zones and two decks, and may
    not look at the top card of her deck (3.7.4). Whether that card has a
    replacement effect that would send it to one of those (3.0.8a), whether
    it may be played from the deck, or neither, changes nothing she is
    offered for it (legal actions, one card or all) nor the answer to moving
    it to her graveyard (never refused): a choice of zone its replacement would need is not
    asked of her, since asking would tell her what the card is (3.0.10a read
    with 3.0.7a). Her first zone of the type takes it, unless she gave a
    choice for her cards."""
    offered: set[str] = set()
    answers, places = set(), set()
    for abilities in ((), (_TO_BANISHED,), (_TO_DECK,), (PlayFrom("deck", face_down=True),)):
        game = _fab_game()
        deck = game.zone("alice", "deck")
        assert deck is not None
        game.new_card(CardDef("Below", frozenset({"action"})), deck)
        top = game.new_card(
            CardDef("Secret", frozenset({"action"}), abilities=abilities), deck, position="top"
        )
        game.create_zone("alice", zone)
        for listed in (game.legal_actions("alice", card=top), game.legal_actions("alice")):
            offered.add(json.dumps([a.to_json(game) for a in listed], sort_keys=True))
        to_graveyard = Dest("graveyard", "alice")
        answers.add(_outcome(lambda g=game, c=top, d=to_graveyard: g.act("move", card=c, to=d)))
        places.add(game.zone_name(game.location(top)).rsplit(".", 1)[-1])
        if abilities and abilities[0] is _TO_BANISHED:
            # A choice given in advance, for her cards, is hers to give.
            trial = _fab_game()
            deck = trial.zone("alice", "deck")
            assert deck is not None
            card = trial.new_card(CardDef("S", frozenset({"action"}), abilities=abilities), deck)
            chosen = trial.create_zone("alice", "banished")
            trial.act("move", card=card, to=to_graveyard, choose_zone={"alice": chosen})
            assert trial.location(card) == chosen
    assert len(offered) == 2, offered
    # Never refused, nor asked for a choice: where the card ends up is what the
    # move shows every player once it is made (3.0.8a).
    assert {kind for kind, _ in answers} == {"result"}, answers
    assert "2" not in places  # never the second zone, which no one chose


def test_properties_set_aside_enhancement_played_on_a_face_down_card() -> None:
    """Class: properties. An enhancement played outside battle on bob's
    face-down card is refused for the same reason whatever the card is: a
    character of its brigade, of another brigade, or no character at all."""
    outcomes = set()
    for types, brigades in (({"hero"}, {"blue"}), ({"hero"}, {"red"}), ({"site"}, set())):
        game = new_game("redemption", handle_key="k")
        mine, theirs = game.zone("alice", "territory"), game.zone("bob", "territory")
        hand = game.zone("alice", "hand")
        assert mine is not None and theirs is not None and hand is not None
        target = game.new_card(
            CardDef("Target", frozenset(types), extra=own_fields(brigades)), theirs, owner="bob"
        )
        game.flip(target, "down", by="bob")
        enhancement = game.new_card(
            CardDef("Cave", frozenset({"enhancement"}), extra=own_fields({"blue"})), hand
        )
        advance_to(game, "preparation")
        outcomes.add(
            _outcome(
                lambda g=game, t=target, e=enhancement: set_aside(
                    g, [t], by="alice", source=e, played_on=t
                )
            )
        )
    assert len(outcomes) == 1, outcomes


def test_properties_placed_lost_soul_on_a_face_down_host() -> None:
    """Class: properties. A Lost Soul placed on a face-down card follows it when
    it is relocated, whether that card is a site or not: the exception for
    sites needs a site the rules can see (3.0.7a)."""
    places = set()
    for host_type in ("site", "city", "hero"):
        game = new_game("redemption", handle_key="k")
        territory = game.zone("alice", "territory")
        assert territory is not None
        host = game.new_card(CardDef("Host", frozenset({host_type})), territory)
        soul = game.new_card(CardDef("Soul", frozenset({"lost_soul"})), territory)
        place(game, [soul], by="alice", onto=host)
        game.flip(host, "down")
        game.move(host, Dest("field_of_battle"), face="down", by="alice")
        obj = game.obj(soul)
        places.add((game.zone_name(obj.zone), obj.host == host, obj.rel == PLACED))
        places.add(json.dumps(game.view("bob"), sort_keys=True))
    assert len(places) == 2, places  # one place, one view


def test_properties_face_up_site_still_sends_its_lost_soul_home() -> None:
    """The rule the class above keeps: a public site's Lost Soul goes to the
    Land of Bondage when the site is relocated."""
    game = new_game("redemption", handle_key="k")
    territory = game.zone("alice", "territory")
    assert territory is not None
    host = game.new_card(CardDef("Host", frozenset({"site"})), territory)
    soul = game.new_card(CardDef("Soul", frozenset({"lost_soul"})), territory)
    place(game, [soul], by="alice", onto=host)
    game.move(host, Dest("field_of_battle"), by="alice")
    assert game.zone_name(game.obj(soul).zone) == "alice.land_of_bondage"


def test_properties_private_card_keeps_only_its_category() -> None:
    """Class: properties. The rules know a private card by its category alone:
    a face-down hero-card is a permanent in the arena, a face-down deck-card is
    not, and a face-down deck-card of any kind may go into its owner's hand."""
    game = _fab_game()
    hero_zone, permanent = game.zone("alice", "hero"), game.zone(None, "permanent")
    assert hero_zone is not None and permanent is not None
    hero = game.new_card(CardDef("Hero", frozenset({"hero"})), hero_zone)
    aura = game.new_card(CardDef("Aura", frozenset({"action", "aura"})), permanent, owner="alice")
    game.flip(hero, "down")
    game.flip(aura, "down")
    assert game.is_permanent(hero) and not game.is_permanent(aura)
    assert game.characteristics(aura).name == ""
    assert game.characteristics(aura, by="alice").name == "Aura"  # she may look at it
    assert game.characteristics(aura, by="bob").name == ""
    assert game.move(aura, Dest("hand", "owner"), by="alice").value == "moved"


# ----------------------------------------------------------------------
# Every public-to-private change is a reset (3.0.9)
# ----------------------------------------------------------------------


def test_resets_sub_cards_that_join_a_face_down_top_card() -> None:
    """Class: resets. A public ally with a sub-card is put under a face-down
    permanent: the ally becomes a sub-card (3.0.14b) and its sub-card joins
    the new top-card (3.0.14c), private now (3.0.14d), so a new object, and
    the handle its owner had for it never comes back."""
    game = _fab_game()
    permanent = game.zone(None, "permanent")
    assert permanent is not None
    top = game.new_card(CardDef("Relic", frozenset({"landmark"})), permanent, owner="alice")
    ally = game.new_card(CardDef("Hound", frozenset({"action", "ally"})), permanent, owner="alice")
    sub = game.new_card(CardDef("Gear", frozenset({"action"})), permanent, host=ally, rel=1)
    game.flip(top, "down")
    before_oid = game.obj(sub).oid
    handle = next(
        h for h in handles(game.view("alice")) if card_for_handle(game, "alice", h) == sub
    )
    fab.put_under(game, ally, top, "alice")
    assert game.obj(sub).host == top and not game.obj(sub).public
    assert game.obj(sub).oid != before_oid
    assert handle not in set(handles(game.view("alice")))


def _public_to_private_resets(harness: Harness, data: st.DataObject) -> None:
    game = harness.build(data.draw(harness.setup, label="setup"))
    for action in data.draw(st.lists(harness.action, max_size=30), label="actions"):
        objs = {c: game.obj(c) for c in game.cards()}
        game, _ = run_action(harness, game, action)
        if action[0] == "undo":
            continue
        for card, was in objs.items():
            now = game.find(card)
            if now is not None and was.public and not now.public:
                assert now.oid != was.oid, f"{action}: {was.name} went private as the same object"


@given(data=st.data())
def test_resets_every_public_to_private_change_in_random_fab_games(data: st.DataObject) -> None:
    """Class: resets. In random games, any object that was public before an
    action and private after it is a new object (3.0.9)."""
    _public_to_private_resets(FAB, data)


@given(data=st.data())
def test_resets_every_public_to_private_change_in_random_redemption_games(
    data: st.DataObject,
) -> None:
    """Class: resets, as above, with placed cards following their hosts."""
    _public_to_private_resets(REDEMPTION, data)


# ----------------------------------------------------------------------
# Last known information of a private object
# ----------------------------------------------------------------------


def test_last_known_information_of_a_hand_card_has_no_effects() -> None:
    """Class: last known information. A hand card with +2 power is discarded:
    the opponent's log shows the card as printed, since the effect on a private
    object is nothing anyone else could know (3.0.7a)."""
    logs = set()
    for boost in (0, 2):
        game = _fab_game()
        hand = game.zone("alice", "hand")
        assert hand is not None
        card = game.new_card(CardDef("Maw", frozenset({"action"}), {"power": 4}), hand)
        if boost:
            game.add_effect(card, "modify", mods=[("power", boost)])
        game.forget_history()
        game.move(card, Dest("graveyard", "owner"), by="alice")
        entry = game.log("bob")[-1]
        assert entry["card"]["power"] == 4
        logs.add(json.dumps(game.log("bob"), sort_keys=True))
    assert len(logs) == 1


def test_last_known_information_of_a_face_down_card_turned_face_up() -> None:
    """Class: last known information. A face-down banished card with an effect
    on it is turned face up: the flip shows the card as printed."""
    game = _fab_game()
    banished = game.zone("alice", "banished")
    assert banished is not None
    card = game.new_card(
        CardDef("Maw", frozenset({"action"}), {"power": 4}), banished, public=False
    )
    game.add_effect(card, "modify", mods=[("power", 3)])
    game.flip(card, "up")
    flipped = game.events()[-1]
    assert flipped.lki is not None and flipped.lki.effects == ()
    assert game.log("bob")[-1]["card"]["power"] == 4


def test_properties_refusals_leave_the_state_as_it_was() -> None:
    """A refused move of a private card changes nothing (the pipeline's rule)."""
    game = _fab_game()
    banished = game.zone("alice", "banished")
    assert banished is not None
    card = game.new_card(CardDef("Arm", frozenset({"weapon", "2h"})), banished, public=False)
    before = game.copy()
    with pytest.raises(IllegalAction):
        fab.put_under(game, card, card, "alice")
    assert before.same_state(game)


# ----------------------------------------------------------------------
# Handles are keyed by a secret of their own, never by the seed
# ----------------------------------------------------------------------


def test_handle_key_a_game_without_a_seed_gets_a_secret_one() -> None:
    """Class: handle keys. A game made without a seed draws one from
    :mod:`secrets` (never 0), and its handle key too."""
    games = [new_game("fab") for _ in range(3)]
    assert len({g.seed for g in games}) == 3
    assert len({g.handle_key for g in games}) == 3


def test_handle_key_is_not_the_seed() -> None:
    """Class: handle keys. Two games with the same (known) seed give unrelated
    handles: a handle tells nothing that lets a player check seed guesses, and
    a seed tells nothing about handles."""
    handles_of = []
    for _ in range(2):
        game = new_game("fab", seed=0)
        graveyard = game.zone("alice", "graveyard")
        assert graveyard is not None
        game.new_card(CardDef("Public", frozenset({"action"})), graveyard)
        handles_of.append(set(handles(game.view("bob"))))
    assert handles_of[0] and not handles_of[0] & handles_of[1]
    same = [new_game("fab", seed=s, handle_key="one") for s in (1, 2)]
    for game in same:
        game.new_card(CardDef("P", frozenset({"action"})), game.zone("alice", "graveyard") or 0)
    assert set(handles(same[0].view("bob"))) == set(handles(same[1].view("bob")))


def test_handle_key_is_saved_with_the_game() -> None:
    """Class: handle keys. The key is part of the saved game, so a game loaded
    again gives every viewer the handles it gave before."""
    from cardzones import load_game

    game = new_game("redemption")
    territory = game.zone("alice", "territory")
    assert territory is not None
    game.new_card(CardDef("Moses", frozenset({"hero"})), territory)
    data = json.loads(json.dumps(game.to_json()))
    assert data["handle_key"] == game.handle_key and str(game.seed) not in data["handle_key"]
    again = load_game(data)
    for viewer in (None, "alice", "bob"):
        assert again.view(viewer) == game.view(viewer)
        assert again.log(viewer) == game.log(viewer)


def test_handle_key_a_rebuilt_table_gives_the_same_handles() -> None:
    """Class: handle keys. A table keeps its handle key in its creation record
    (server side, never sent): built again from the record and its stored acts,
    as after a restart, it gives the same handles."""
    from cardzones.table.creation import Creation, creation_from_request
    from cardzones.table.table import Table, rebuild

    record = creation_from_request({"ruleset": "fab", "setup": {"alice.deck": ["A", "B"]}})
    assert record.handle_key and Creation.from_json(record.to_json()) == record
    table = Table.start("t", record)
    pending = table.try_act("alice", {"move": {"card": "alice.deck[0]", "to": "alice.graveyard"}})
    table.commit(pending)
    again = rebuild("t", Creation.from_json(json.loads(json.dumps(record.to_json()))), [])
    again.replay(json.loads(json.dumps(pending.applied.stored)))
    for viewer in (None, "alice", "bob"):
        assert again.view(viewer) == table.view(viewer)
    snap = Table.from_snapshot("t", record, json.loads(json.dumps(table.snapshot())))
    assert snap.view("bob") == table.view("bob")
    other = creation_from_request({"ruleset": "fab", "setup": {"alice.deck": ["A", "B"]}})
    assert other.handle_key != record.handle_key


# -- Class: order. What happens together is ordered by what all can see -------


def test_order_triggers_that_fire_together_follow_public_objects_not_card_numbers() -> None:
    """Two triggers of one move go on the stack in an order that does not depend
    on hidden history: a face-down look-alike's card number (given when it was
    made, unseen) must not decide whether its trigger goes before another's
    (3.0.9: a card that becomes public is a new object; only what bob saw of it
    since then may order it)."""
    aura = CardDef(
        "Aura",
        frozenset({"action", "aura"}),
        abilities=(Trigger(to="graveyard", from_="arena", do=Dest("soul", "you")),),
    )
    other = CardDef("Other", frozenset({"action", "aura"}), abilities=aura.abilities)
    seen = []
    for top_is_newer in (False, True):
        game = _fab_game()
        deck, permanent = game.zone("alice", "deck"), game.zone(None, "permanent")
        graveyard = game.zone("alice", "graveyard")
        assert deck is not None and permanent is not None and graveyard is not None
        game.new_card(aura, deck, owner="alice")
        game.new_card(other, permanent, owner="alice", public=True)
        # The same deck to every eye; only the unseen card numbers differ.
        game.new_card(aura, deck, owner="alice", position="top" if top_is_newer else "bottom")
        fodder = game.new_card(CardDef("Fodder", frozenset({"action", "aura"})), permanent)
        game.move(game.contents(deck)[0], permanent, by="alice", face="up")
        game.move(fodder, graveyard, by="alice")
        seen.append((json.dumps(game.view("bob"), sort_keys=True), json.dumps(game.log("bob"))))
    assert seen[0] == seen[1]


def test_order_triggers_of_look_alikes_that_arrived_unseen_follow_what_all_saw() -> None:
    """Two face-down look-alikes enter an unordered zone (the combat chain,
    3.6.1) in an order nobody but alice saw; once both are public, a move sets
    off a trigger of each. The order of those triggers on the stack must not
    follow the order the cards arrived in, which would tell bob which of the
    two unseen moves (one from the deck, one from the hand) brought which
    card: only what every player saw may order them."""
    aura = CardDef(
        "Aura One",
        frozenset({"action", "aura"}),
        abilities=(Trigger(to="graveyard", from_="arena", do=Dest("soul", "you")),),
    )
    other = CardDef("Aura Two", aura.types, abilities=aura.abilities)
    seen = []
    for one_first in (True, False):
        game = _fab_game()
        hand, deck = game.zone("alice", "hand"), game.zone("alice", "deck")
        chain, permanent = game.zone(None, "combat_chain"), game.zone(None, "permanent")
        assert hand is not None and deck is not None and chain is not None
        assert permanent is not None
        one = game.new_card(aura, hand if one_first else deck, owner="alice")
        two = game.new_card(other, deck if one_first else hand, owner="alice")
        fodder = game.new_card(CardDef("Fodder", frozenset({"action", "aura"})), permanent)
        # The deck's card, then the hand's, each face down: bob sees the same.
        game.move(game.contents(deck)[0], chain, by="alice", face="down")
        game.move(game.contents(hand)[0], chain, by="alice", face="down")
        game.flip(one, "up", by="alice")
        game.flip(two, "up", by="alice")
        game.move(fodder, Dest("graveyard", "owner"), by="alice")
        assert len(fab.layers.layers(game)) == 2
        seen.append((json.dumps(game.view("bob"), sort_keys=True), json.dumps(game.log("bob"))))
    assert seen[0] == seen[1]


def test_order_sub_cards_that_arrived_unseen_are_revealed_in_no_arrival_order() -> None:
    """The same class in a pile: two cards go under a face-down ally (3.0.14),
    one from the deck and one from the hand, as private sub-cards (3.0.14d),
    so bob sees two private moves. Turning the ally face up reveals both; the
    order its pile is listed in, and the order the reveals are logged in, must
    not be the order they arrived (a soul is a collection, 3.11.5)."""
    ally = CardDef("Ally", frozenset({"generic", "ally", "token"}))
    seen = []
    for x_first in (True, False):
        game = _fab_game()
        hand, deck = game.zone("alice", "hand"), game.zone("alice", "deck")
        permanent = game.zone(None, "permanent")
        assert hand is not None and deck is not None and permanent is not None
        top = game.new_card(ally, permanent, owner="alice", public=False)
        game.new_card(CardDef("X", frozenset({"action"})), hand if x_first else deck)
        game.new_card(CardDef("Y", frozenset({"action"})), deck if x_first else hand)
        fab.put_under(game, game.contents(deck)[0], top, "alice")
        fab.put_under(game, game.contents(hand)[0], top, "alice")
        game.flip(top, "up", by="alice")
        game.move(top, Dest("combat_chain"), by="alice")
        seen.append((json.dumps(game.view("bob"), sort_keys=True), json.dumps(game.log("bob"))))
    assert seen[0] == seen[1]


def test_order_a_hidden_sub_card_has_no_place_among_the_ones_a_player_sees() -> None:
    """Under a face-down ally, alice may look at her own sub-card but not at
    bob's (3.0.3a, 3.0.14d): where bob's hidden card is listed among the pile
    in her view must not depend on which card it is."""
    ally = CardDef("Ally", frozenset({"generic", "ally", "token"}))
    seen = []
    for name in ("Aardvark", "Zebra"):
        game = _fab_game()
        permanent = game.zone(None, "permanent")
        hand, other = game.zone("alice", "hand"), game.zone("bob", "hand")
        assert permanent is not None and hand is not None and other is not None
        top = game.new_card(ally, permanent, owner="alice", public=False)
        mine = game.new_card(CardDef("Middle", frozenset({"action"})), hand)
        theirs = game.new_card(CardDef(name, frozenset({"action"})), other, owner="bob")
        fab.put_under(game, theirs, top, "bob")
        fab.put_under(game, mine, top, "alice")
        seen.append(json.dumps(game.view("alice"), sort_keys=True))
        legal = [a.to_json(game) for a in game.legal_actions("alice")]
        seen.append(json.dumps(legal, sort_keys=True))
    assert seen[0] == seen[2] and seen[1] == seen[3]


# ----------------------------------------------------------------------
# Class: the order pitched cards go to the bottom of the deck (4.4.3c)
# ----------------------------------------------------------------------


def _pitched_game(order: tuple[int, ...], how: str) -> tuple[Game, list[int]]:
    """alice pitches three cards and bob two; alice's order is given on the
    end of turn or chosen beforehand; the end of turn puts them back."""
    game = new_game("fab", ["alice", "bob"], seed=5, handle_key="pitch order")
    pitched: dict[str, list[int]] = {}
    for player, names in (("alice", ("P1", "P2", "P3")), ("bob", ("Q1", "Q2"))):
        deck, hand = game.zone(player, "deck"), game.zone(player, "hand")
        assert deck is not None and hand is not None
        game.new_card(game.card_def("Deck card"), deck)
        cards = [game.new_card(CardDef(n, frozenset({"action", "attack"})), hand) for n in names]
        for card in cards:
            game.act("pitch", card=card, by=player)
        pitched[player] = cards
    chosen = tuple(pitched["alice"][i] for i in order)
    if how == "end_turn":
        game.act("end_turn", order=list(chosen))
    else:
        game.act("pitch_order", order=list(chosen), by="alice")
        game.act("pitch_order", order=list(reversed(pitched["bob"])), by="bob")
        game.act("end_turn")
    return game, pitched["alice"]


@pytest.mark.parametrize("how", ["end_turn", "pitch_order"])
def test_order_of_pitched_cards_going_to_the_deck_is_hidden_4_4_3c(how: str) -> None:
    """4.4.3c: the order a player chooses for their pitched cards going to the
    bottom of their deck is hidden information. Whatever alice chooses, her
    deck lies as she chose, and bob's and a spectator's log and view are the
    same: no event order or handle ties a pitched card to a deck position."""
    seen: dict[str | None, set[str]] = {"bob": set(), None: set()}
    for order in itertools.permutations(range(3)):
        game, cards = _pitched_game(order, how)
        deck = game.contents(game.zone("alice", "deck"))  # type: ignore[arg-type]
        assert list(deck[1:]) == [cards[i] for i in order]
        for viewer in seen:
            seen[viewer].add(json.dumps([game.log(viewer), game.view(viewer)], sort_keys=True))
    assert all(len(texts) == 1 for texts in seen.values())


def test_order_of_pitched_cards_is_each_players_own_choice_at_a_table_4_4_3c() -> None:
    """4.4.3c: each player orders their own pitch, and no one else's."""
    game, _ = _pitched_game((0, 1, 2), "pitch_order")
    bob_deck = game.contents(game.zone("bob", "deck"))  # type: ignore[arg-type]
    assert [game.obj(c).cdef.name for c in bob_deck] == ["Deck card", "Q2", "Q1"]
    game2 = new_game("fab", ["alice", "bob"], seed=5)
    pitch = game2.zone("alice", "pitch")
    assert pitch is not None
    card = game2.new_card(CardDef("P", frozenset({"action"})), pitch, owner="alice")
    with pytest.raises(SeatRefusal):
        bind(
            game2.ruleset.actions["pitch_order"],
            {"order": [card]},
            RESOLVED,
            seat=SeatPolicy(game2, "bob"),
        )


def _unordered_pitch(seed: int) -> tuple[Game, list[int]]:
    """alice pitches four cards, one after the other, and orders none."""
    game = new_game("fab", ["alice", "bob"], seed=seed, handle_key="secret pitch")
    deck, hand = game.zone("alice", "deck"), game.zone("alice", "hand")
    assert deck is not None and hand is not None
    game.new_card(game.card_def("Deck card"), deck)
    cards = [game.new_card(CardDef(n, frozenset({"action"})), hand) for n in "ABCD"]
    for card in cards:
        game.act("pitch", card=card, by="alice")
    return game, cards


def test_order_of_unordered_pitched_cards_is_secret_4_4_3c() -> None:
    """4.4.3c: the order the pitch goes to the bottom of the deck in is hidden
    information. A player who orders none of their pitch does not get the
    order every player saw them pitched in (which would tell the others the
    bottom of their deck), but one drawn from the game's secret seed, as a
    shuffle is: the same for the same game, and unknown to whoever does not
    know the seed. The board's hook, ``pitch.unordered``, lists what is yet to
    order."""
    orders = set()
    for seed in range(12):
        game, cards = _unordered_pitch(seed)
        assert pitch.unordered(game, "alice") == cards
        expected = pitch.final_order(game, "alice", ())
        game.act("end_turn")
        deck = game.contents(game.zone("alice", "deck"))  # type: ignore[arg-type]
        assert list(deck[1:]) == expected and sorted(expected) == sorted(cards)
        again, _ = _unordered_pitch(seed)
        again.act("end_turn")
        assert again.contents(again.zone("alice", "deck")) == deck  # type: ignore[arg-type]
        orders.add(tuple(cards.index(c) for c in expected))
    assert len(orders) > 6  # not the seen order (0, 1, 2, 3), nor any one order
    # Ordering some: those first, as chosen; the rest below them, secretly.
    game, cards = _unordered_pitch(3)
    game.act("pitch_order", order=[cards[2]], by="alice")
    assert pitch.unordered(game, "alice") == [cards[0], cards[1], cards[3]]
    game.act("pitch_order", order=[cards[2], cards[0], cards[3]], by="alice")
    assert pitch.unordered(game, "alice") == []  # one card left: no order to choose
    game.act("pitch_order", order=[cards[2]], by="alice")
    game.act("end_turn")
    deck = game.contents(game.zone("alice", "deck"))  # type: ignore[arg-type]
    assert deck[1] == cards[2] and sorted(deck[2:]) == sorted(cards[:2] + cards[3:])


def test_a_player_is_offered_orders_of_their_own_pitch_alone_4_4_3c() -> None:
    """4.4.3c: legal actions offer each player ways to order their own pitch
    (each card put first, which reaches every order), and never another's."""
    game = new_game("fab", ["alice", "bob"], seed=5)
    pitch = game.zone("alice", "pitch")
    assert pitch is not None
    cards = [
        game.new_card(CardDef(n, frozenset({"action"})), pitch, owner="alice")
        for n in ("P1", "P2", "P3")
    ]
    offered = [a.bound["order"] for a in game.legal_actions("alice") if a.name == "pitch_order"]
    assert len(offered) == 2 and all(sorted(o) == sorted(cards) for o in offered)
    assert {o[0] for o in offered} == set(cards[1:])
    assert not [a for a in game.legal_actions("bob") if a.name == "pitch_order"]
    game.act("pitch_order", order=offered[-1], by="alice")
    again = [a.bound["order"] for a in game.legal_actions("alice") if a.name == "pitch_order"]
    assert offered[-1] not in again and len(again) == 2


# ----------------------------------------------------------------------
# Class: legal actions name cards only as the player's own view does (3.0.9)
# ----------------------------------------------------------------------


def _shuffled_back(snatch_first: bool) -> tuple[Game, list[str]]:
    """alice's Snatch and Sink Below, public in her graveyard, go into her
    deck one after the other (standing in for a shuffle's outcome: either
    may end on top); what alice is offered then is listed."""
    game = new_game("fab", ["alice", "bob"], seed=3)
    graveyard = game.zone("alice", "graveyard")
    assert graveyard is not None
    kinds = frozenset({"action", "attack"})
    snatch = game.new_card(CardDef("Snatch", kinds), graveyard)
    other = game.new_card(CardDef("Sink Below", kinds), graveyard)
    seen_before = json.dumps(
        [a.args for a in game.legal_actions("alice", card=snatch)], default=str
    )
    assert game.handle(snatch) in seen_before
    for card in (snatch, other) if snatch_first else (other, snatch):
        game.act("move", card=card, to=Dest("deck", "alice"), by="alice")
    listed = [json.dumps(a.args, sort_keys=True, default=str) for a in game.legal_actions("alice")]
    return game, listed


def test_legal_actions_never_name_a_card_by_its_physical_number_3_0_9() -> None:
    """3.0.9: a card that goes into a hidden zone is a new object there. A
    legal action names a card as the player's view does, so whether Snatch
    lies on top or second of alice's deck after it went back is not told by
    the arguments she is offered, and no argument is the engine's number of
    a physical card, which outlives objects."""
    game_a, listed_a = _shuffled_back(True)
    game_b, listed_b = _shuffled_back(False)
    assert listed_a == listed_b
    for game in (game_a, game_b):
        for action in game.legal_actions("alice"):
            for param in action.action.params:
                value = action.args.get(param.name)
                if param.kind.name == "CARD" and value is not None:
                    assert isinstance(value, str)
                if param.kind.name == "CARDS" and value is not None:
                    assert all(isinstance(c, str) for c in value)
