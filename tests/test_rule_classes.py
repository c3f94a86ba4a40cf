"""Rules, class by class: each test names a class of rulings the engine must
make the same way wherever it arises, and cites the rules text it follows.
Scenario files (scenarios/) show single cases; these go over every place the
class can arise.
"""

from __future__ import annotations

from cardzones import new_game
from cardzones.kernel.cards import CardDef, Dest, Trigger
from cardzones.kernel.game import Game
from cardzones.kernel.objects import TRIGGERED
from cardzones.kernel.results import MoveResult
from cardzones.rulesets.fab import actions as fab
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
    fab.move(game, sigil, Dest("combat_chain"), "alice", face="up")
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
