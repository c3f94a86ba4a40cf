"""A quiet move (``Ruleset.quiet_moves``) is one after which the rule set's
``after_action`` has nothing to do, so the kernel does not call it: fab's hook
reads the combat chain's contents (its chain links, 7.0.3a, 7.0.5a), the
records besides the links' (attack-proxies, 1.4.3a, 1.4.3c; the procedure,
4.5.3a) and the triggers noted (3.0.9a). Skipping it must change nothing: a
game that calls the hook after every action ends every action in the same
state, and the moves that touch what the hook reads still call it."""

from __future__ import annotations

import pytest

from cardzones import new_game
from cardzones.bench.floors import make_workload
from cardzones.bench.position import apply_action, build_position
from cardzones.kernel.cards import CardDef, Dest, Trigger
from cardzones.kernel.game import Game
from cardzones.kernel.objects import PLACED, TRIGGERED
from cardzones.rulesets.fab import layers
from cardzones.rulesets.fab.chain import LINKS
from cardzones.rulesets.fab.ruleset import FabRuleset


def _hooked(game: Game) -> tuple[Game, list[int]]:
    """A copy of ``game`` whose rule set calls ``after_action`` after every
    action, and the count of its calls."""
    calls: list[int] = []

    class Hooked(FabRuleset):
        quiet_moves = None

        def after_action(self, game: Game) -> None:
            calls.append(1)
            super().after_action(game)

    other = game.copy()
    other.ruleset = Hooked()
    return other, calls


def test_fab_declares_what_its_hook_reads() -> None:
    assert FabRuleset.quiet_moves == (frozenset({"combat_chain"}), frozenset({LINKS}))


def test_skipping_the_hook_after_quiet_moves_changes_nothing() -> None:
    game = build_position()
    workload = make_workload(game, 600, segment=200)
    hooked, calls = _hooked(game)
    start, hooked_start = game.checkpoint(), hooked.checkpoint()
    links = 0
    for segment in workload.segments:  # each from the position, as the benchmark plays them
        for action in segment:
            apply_action(game, action)
            apply_action(hooked, action)
            assert game.same_state(hooked), action
            links += LINKS in game.records
        game.rollback(start)
        hooked.rollback(hooked_start)
    # Moves onto and off the combat chain are among them, each action hooked once.
    assert links
    assert len(calls) == workload.actions


def _fab() -> tuple[Game, int, int]:
    game = new_game("fab", ["alice", "bob"])
    hand = game.zone("alice", "hand")
    card = game.new_card(game.card_def("Snatch"), hand, public=True)
    return game, card, hand


def _counted(game: Game) -> list[int]:
    calls: list[int] = []
    hook = game.ruleset.after_action

    class Counted(FabRuleset):
        def after_action(self, game: Game) -> None:
            calls.append(1)
            hook(game)

    game.ruleset = Counted()
    return calls


def test_a_move_between_other_zones_is_quiet() -> None:
    game, card, _ = _fab()
    calls = _counted(game)
    game.move(card, Dest("graveyard", "alice"))
    assert calls == []


@pytest.mark.parametrize("to", ["combat_chain", "graveyard"])
def test_a_move_onto_or_off_the_combat_chain_calls_the_hook(to: str) -> None:
    game, card, _ = _fab()
    if to == "graveyard":
        game.move(card, Dest("combat_chain"))
    calls = _counted(game)
    game.move(card, Dest(to, "alice"))
    assert calls == [1]


def test_a_record_besides_the_links_calls_the_hook() -> None:
    game, card, _ = _fab()
    with game.atomic():
        game.records.put("other", 1)
    calls = _counted(game)
    game.move(card, Dest("graveyard", "alice"))
    assert calls == [1]


def test_a_card_with_cards_under_it_calls_the_hook() -> None:
    game, card, hand = _fab()
    game.attach(game.new_card(game.card_def("Sink Below"), hand), card, PLACED)
    calls = _counted(game)
    game.move(card, Dest("graveyard", "alice"))
    assert calls == [1]


def test_a_move_that_notes_a_trigger_calls_the_hook_3_0_9a() -> None:
    """A move off and onto other zones that notes a trigger is not quiet: the
    hook puts the triggered layer on the stack."""
    game, card, _ = _fab()
    watcher = CardDef(
        "Watcher",
        frozenset({"light", "action", "aura"}),
        abilities=(Trigger(to="graveyard", from_="hand", do=Dest("soul", "you")),),
    )
    game.new_card(watcher, game.zone(None, "permanent"), owner="alice")
    calls = _counted(game)
    game.move(card, Dest("graveyard", "alice"))
    assert calls == [1]
    assert [game.obj(c).kind for c in layers.layers(game)] == [TRIGGERED]


def test_a_card_taken_from_under_a_card_on_the_combat_chain_calls_the_hook() -> None:
    """A sub-card is in its host's zone (3.0.14): taken from under an attack
    on the combat chain, it leaves the chain, and the game ends the move as one
    whose hook runs after every action does."""
    game, card, hand = _fab()
    game.move(card, Dest("combat_chain"))
    under = game.new_card(game.card_def("Sink Below"), hand)
    game.attach(under, card, PLACED)
    hooked, hooked_calls = _hooked(game)
    calls = _counted(game)
    game.move(under, Dest("graveyard", "alice"))
    hooked.move(under, Dest("graveyard", "alice"))
    assert calls == [1] and hooked_calls == [1]
    assert game.same_state(hooked)


def test_without_quiet_moves_every_move_calls_the_hook() -> None:
    game, card, _ = _fab()
    hooked, calls = _hooked(game)
    hooked.move(card, Dest("graveyard", "alice"))
    assert calls == [1]
