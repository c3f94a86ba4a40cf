"""Rules, class by class: each test names a class of rulings the engine must
make the same way wherever it arises, and cites the rules text it follows.
Scenario files (scenarios/) show single cases; these go over every place the
class can arise.
"""

from __future__ import annotations

from cardzones import new_game
from cardzones.errors import NeedsChoice
from cardzones.kernel.cards import CardDef, Dest, Trigger
from cardzones.kernel.game import Game
from cardzones.kernel.objects import TRIGGERED
from cardzones.kernel.results import MoveResult
from cardzones.rulesets.fab import layers

# ----------------------------------------------------------------------
# Class: a triggered layer keeps a card that moved on (3.0.9a)
# ----------------------------------------------------------------------

#: 3.0.9a: "If the non-token Light card moves to another zone or becomes
#: private before the layer resolves, the triggered-layer loses that reference."
_WATCHER = CardDef(
    "Watcher",
    frozenset({"light", "action", "aura"}),
    abilities=(Trigger(to="combat_chain", from_="hand", do=Dest("soul", "you")),),
)
_SIGIL = CardDef("Sigil", frozenset({"light", "action", "aura"}))


def _triggered(game: Game) -> int:
    """A game where moving a sigil from alice's hand to the combat chain has
    put a triggered layer on the stack that references it; the sigil."""
    hero = game.zone("alice", "hero")
    permanent = game.zone(None, "permanent")
    hand = game.zone("alice", "hand")
    assert hero is not None and permanent is not None and hand is not None
    game.new_card(CardDef("Boltyn", frozenset({"light", "warrior", "hero"})), hero)
    game.new_card(_WATCHER, permanent, owner="alice")
    sigil = game.new_card(_SIGIL, hand)
    game.move(sigil, Dest("combat_chain"), by="alice", face="up")
    assert len(layers.layers(game)) == 1
    return sigil


def _resolve_the_trigger(game: Game) -> None:
    """What resolving the triggered layer does, wherever it lies on the stack
    (a sigil moved onto the stack lies above it)."""
    (layer,) = [c for c in layers.layers(game) if game.obj(c).kind == TRIGGERED]
    with game.atomic():
        layers.resolve_layer(game, layer, "alice")


def test_trigger_reference_is_lost_when_the_card_moves_to_any_other_zone_3_0_9a() -> None:
    """Class: a triggered layer references the object its move produced only
    until that object moves to another zone (3.0.9a), whatever zone: one in
    the arena keeps the object (3.0.9), and the layer must lose it all the
    same. For every zone the referenced card can go to, the layer then does
    nothing when it resolves."""
    game = new_game("fab", ["alice", "bob"], seed=1)
    sigil = _triggered(game)
    here = game.location(sigil)
    tried = []
    for zid in game.all_zones():
        if zid == here:
            continue
        trial = game.copy()
        moved = trial.move(sigil, zid, face="up", by="alice")
        if moved is not MoveResult.MOVED or not trial.is_public(sigil):
            continue
        tried.append(trial.zone_name(zid))
        where = trial.location(sigil)
        _resolve_the_trigger(trial)
        assert trial.location(sigil) == where, trial.zone_name(zid)
        assert trial.host(sigil) is None, trial.zone_name(zid)
    # The arena zones that keep the object are among them (3.0.9).
    assert {"permanent", "stack"} <= set(tried), tried


def test_trigger_reference_holds_while_the_card_stays_where_its_move_left_it_3_0_9a() -> None:
    """Class: the same layer, with the card left where the move put it, acts
    on it (3.0.9a: it "still references the new object")."""
    game = new_game("fab", ["alice", "bob"], seed=1)
    sigil = _triggered(game)
    layers.resolve_top(game, "alice")
    assert game.host(sigil) is not None
    assert game.zone_info(game.location(sigil)).type == "hero"


# ----------------------------------------------------------------------
# Class: a card that goes to "its owner's graveyard" takes the owner's
# choice of graveyard (3.0.10a, 3.0.10c, 3.0.12)
# ----------------------------------------------------------------------

#: 3.0.10a: "If a rule or effect moves an object into a specified type of
#: zone, and there are two or more zones that match the specified type, the
#: player that owns the object chooses which zone that object is moved to."
#: 3.0.12: "To clear an object, move it from its current zone to its owner's
#: graveyard." 3.0.10c: "any cards in that zone are cleared and the zone
#: ceases to exist."


def _two_graveyards() -> tuple[Game, int, int]:
    game = new_game("fab", ["alice", "bob"], seed=1)
    second = game.create_zone("alice", "graveyard")
    first = game.zone("alice", "graveyard")
    assert first is not None
    return game, first, second


def _snatch(game: Game, zone: str) -> int:
    zid = game.zone("alice", zone) if zone != "stack" else game.zone(None, "stack")
    assert zid is not None
    return game.new_card(CardDef("Snatch", frozenset({"action", "attack"})), zid, owner="alice")


def test_every_way_to_the_owners_graveyard_takes_the_owners_choice_3_0_10a_3_0_12() -> None:
    """Class: clear, a resolving card-layer and a zone that ceases each send a
    card to its owner's graveyard; with two, each is refused without the
    owner's choice and lists the options, and each takes the choice given."""
    ways = {
        "clear": ("hand", lambda card, choose: ("clear", {"card": card, "choose_zone": choose})),
        "resolve": ("stack", lambda card, choose: ("resolve", {"choose_zone": choose})),
        "remove_zone": (
            "arsenal",
            lambda card, choose: (
                "remove_zone",
                {"zone": Dest("arsenal", "alice"), "choose_zone": choose},
            ),
        ),
    }
    for name, (zone, act) in ways.items():
        for pick in (0, 1):
            game, first, second = _two_graveyards()
            card = _snatch(game, zone)
            action, args = act(card, None)
            try:
                game.act(action, **args)
            except NeedsChoice as needed:
                assert needed.options == ("alice.graveyard.1", "alice.graveyard.2"), name
            else:
                raise AssertionError(f"{name} took a graveyard nobody chose")
            assert game.zone_name(game.location(card)) != "alice.graveyard.1", name
            chosen = (first, second)[pick]
            action, args = act(card, chosen)
            game.act(action, **args)
            assert game.location(card) == chosen, name
            # Legal actions offer the choice, once per graveyard.
            game, first, second = _two_graveyards()
            card = _snatch(game, zone)
            offered = [
                a.to_json(game)[action].get("choose_zone")
                for a in game.legal_actions("alice", actions=[action])
                if action != "clear" or a.bound["card"] == card
            ]
            assert sorted(o for o in offered if o is not None) == [
                "alice.graveyard.1",
                "alice.graveyard.2",
            ], (name, offered)


def test_a_graveyard_that_ceases_is_never_its_own_cards_destination_3_0_10c() -> None:
    """Class: the cards of a graveyard that ceases go to another of its
    owner's graveyards; the one ceasing is never offered, in the refusal, a
    choice or legal actions."""
    game, first, second = _two_graveyards()
    third = game.create_zone("alice", "graveyard")
    cards = [
        game.new_card(CardDef(f"C{i}", frozenset({"action"})), z, owner="alice")
        for i, z in enumerate((first, second, third))
    ]
    try:
        game.act("remove_zone", zone=Dest("graveyard", "alice", 1))
    except NeedsChoice as needed:
        assert needed.options == ("alice.graveyard.2", "alice.graveyard.3")
    else:
        raise AssertionError("the cleared card went to a graveyard nobody chose")
    removals = [
        a.to_json(game)["remove_zone"] for a in game.legal_actions("alice", ["remove_zone"])
    ]
    graveyards = [r for r in removals if str(r["zone"]).startswith("alice.graveyard")]
    # Each of three graveyards may cease, its cards going to either other one.
    assert len(graveyards) == 6, graveyards
    for removal in graveyards:
        assert removal["zone"] != removal["choose_zone"], removal
    game.act("remove_zone", zone=Dest("graveyard", "alice", 1), choose_zone=third)
    assert not game.zone_exists(first)
    assert game.location(cards[0]) == third
    # Two left, neither empty: the one that ceases sends its cards to the other.
    game.act("remove_zone", zone=Dest("graveyard", "alice"), choose_zone=third)
    assert game.zones_of("alice", "graveyard") == (second,)
    assert [game.location(c) for c in cards] == [second] * 3


# ----------------------------------------------------------------------
# Class: placed on a card is a location, also within one zone
# (Redemption, place/movement-exception-sites)
# ----------------------------------------------------------------------

#: Place: "If a card is placed on another card and the underlying card is
#: relocated, the placed card is generally relocated to the same location
#: ... Lost Souls that are placed in sites are always returned to the general
#: Land of Bondage and do not follow the underlying sites when the sites are
#: relocated."


def test_a_site_relocated_within_its_territory_sends_its_lost_soul_home() -> None:
    """Class: a site placed onto a card in its own territory is relocated,
    whichever way: placed onto a hero itself, placed onto another card, or
    carried by the card it is on when that card is placed onto a hero. Each
    time the Lost Soul placed in it returns to its Land of Bondage and the
    other cards on it follow it."""
    from cardzones.rulesets.redemption.place import place

    hero = CardDef("Gideon", frozenset({"hero"}))
    site = CardDef("Hebron", frozenset({"site"}))
    soul = CardDef("Lost Soul", frozenset({"lost_soul"}))
    artifact = CardDef("Ark", frozenset({"artifact"}))
    trumpet = CardDef("Trumpet", frozenset({"artifact"}))
    for how in ("onto a hero", "onto an artifact", "carried onto a hero"):
        game = new_game("redemption", ["alice", "bob"], seed=1)
        territory = game.zone("alice", "territory")
        bondage = game.zone("alice", "land_of_bondage")
        assert territory is not None and bondage is not None
        g, ark, s, t = (game.new_card(c, territory) for c in (hero, artifact, site, trumpet))
        ls = game.new_card(soul, bondage)
        if how == "carried onto a hero":
            place(game, [s], by="alice", onto=ark)
        place(game, [ls], by="alice", onto=s)
        place(game, [t], by="alice", onto=s)
        assert game.host(ls) == s and game.location(ls) == territory
        if how == "onto a hero":
            place(game, [s], by="alice", onto=g)
        elif how == "onto an artifact":
            place(game, [s], by="alice", onto=ark)
        else:
            place(game, [ark], by="alice", onto=g)
        assert game.location(s) == territory, how
        assert game.location(ls) == bondage and game.host(ls) is None, how
        assert game.host(t) == s and game.location(t) == territory, how
