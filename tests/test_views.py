"""Views against the slow reference of tests/test_noninterference.py, in the
corners that random games seldom reach: a view kept per zone layout must follow
a renumbering (3.0.10c); a zone shown whole as hidden must still show a
viewer the cards they own in it (3.0.3a); and a card under another one is
shown to whoever a rule or effect lets look at its zone (3.7.4)."""

from __future__ import annotations

from reference import reference_view

from cardzones import new_game
from cardzones.kernel.cards import CardDef
from cardzones.kernel.objects import UNDER
from cardzones.rulesets.fab import actions as fab

SWORD = CardDef("Sword", types=frozenset({"weapon", "1h"}))
CARD = CardDef("Card", types=frozenset({"action"}))


def test_view_names_equipped_zones_as_renumbered_3_0_10c() -> None:
    game = new_game("fab", ["alice", "bob"])
    _, second = game.zones_of("alice", "weapon")
    sword = game.new_card(SWORD, second)
    assert game.obj(sword).equipped == (second,)
    before = game.view("alice")
    assert ("alice.weapon.2",) in [
        o.get("equipped_to") for z in before["zones"] for o in z["objects"]
    ]
    # 3.0.10c: of two weapon zones, the empty one ceases to exist, and the
    # other is now the first.
    fab.remove_zone(game, "alice", "weapon", None)
    assert game.zones_of("alice", "weapon") == (second,)
    for viewer in ("alice", "bob", None):
        view = game.view(viewer)
        assert view["zones"] == reference_view(game, viewer)
        shown = [o for z in view["zones"] for o in z["objects"] if o.get("equipped_to")]
        assert [o["equipped_to"] for o in shown] == [("alice.weapon.1",)]
    # Undo brings the old layout, and its names, back.
    game.undo()
    assert game.view("alice")["zones"] == reference_view(game, "alice")
    assert game.view("alice") == before


def test_view_shows_own_card_in_a_large_zone_of_hidden_cards_3_0_3a() -> None:
    game = new_game("fab", ["alice", "bob"])
    hand = game.zone("bob", "hand")
    for _ in range(12):
        game.new_card(CARD, hand)
    mine = game.new_card(CARD, hand, owner="alice", check=False)
    assert not game.obj(mine).public
    for viewer in ("alice", "bob", None):
        view = game.view(viewer)
        assert view["zones"] == reference_view(game, viewer)
    zone = next(z for z in game.view("alice")["zones"] if z["zone"] == "bob.hand")
    assert sum(1 for o in zone["objects"] if not o.get("hidden")) == 1
    zone = next(z for z in game.view(None)["zones"] if z["zone"] == "bob.hand")
    assert all(o == {"hidden": True} for o in zone["objects"])


def test_view_shows_a_pile_in_a_zone_a_player_is_let_look_at_3_7_4() -> None:
    game = new_game("fab", ["alice", "bob"])
    deck = game.zone("alice", "deck")
    top = game.new_card(CARD, deck)
    under = game.new_card(CARD, deck, host=top, rel=UNDER, check=False)
    with game.atomic():
        game.allow_look("alice", deck)
    assert game.seen_by(under) == ("alice",)
    for viewer in ("alice", "bob", None):
        assert game.view(viewer)["zones"] == reference_view(game, viewer)
    zone = next(z for z in game.view("alice")["zones"] if z["zone"] == "alice.deck")
    assert not zone["objects"][0].get("hidden")
    assert not zone["objects"][0]["under"][0].get("hidden")
