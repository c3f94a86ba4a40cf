"""Life totals and counters: the ``life`` and ``counter`` actions of every
rule set's table, what views and logs show of them, their bounds, and the
seat policy at a table (scenarios/*/counters_*, hero_life_*)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from schemas import check_log, check_view
from tablekit import fab_body, redemption_body

from cardzones import new_game
from cardzones.acts.actions import ArgumentError
from cardzones.acts.counters import MAX_AMOUNT, MAX_NAMES
from cardzones.errors import IllegalAction
from cardzones.kernel.views import view
from cardzones.table.acts import apply_act
from cardzones.table.creation import creation_from_request


def _shown(game: Any, viewer: str | None, zone: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = next(z for z in view(game, viewer)["zones"] if z["zone"] == zone)[
        "objects"
    ]
    return found


def _dorinthea() -> tuple[Any, int]:
    game = new_game("fab", ["alice", "bob"])
    cdef = game.ruleset.make_card(
        "Dorinthea Ironsong", {"types": ("hero", "warrior"), "life": 40, "intellect": 4}
    )
    return game, game.new_card(cdef, game.zone("alice", "hero"))


def test_forty_life_dorinthea_loses_three_and_every_viewer_sees_37() -> None:
    game, hero = _dorinthea()
    game.act("life", card=hero, damage=3, by="bob")
    for viewer in ("alice", "bob", None):
        (shown,) = _shown(game, viewer, "alice.hero")
        assert shown["life"] == 37
        check_view(json.loads(json.dumps(view(game, viewer))))
        entry = game.log(viewer)[-1]
        assert entry["event"] == "life" and entry["by"] == "bob"
        assert entry["note"] == "alice's Dorinthea Ironsong is dealt 3 damage: 40 life becomes 37"
        check_log(game.log(viewer), viewer)


def test_life_and_counter_amounts_are_bounded_and_a_refusal_changes_nothing() -> None:
    game, hero = _dorinthea()
    before = game.copy()
    for args in ({"damage": 0}, {"gain": MAX_AMOUNT + 1}, {"lose": -2}):
        with pytest.raises(ArgumentError):
            game.act("life", card=hero, **args)
    with pytest.raises(ArgumentError, match="a counter's name"):
        game.act("counter", card=hero, name="x" * 40, add=1)
    with pytest.raises(ArgumentError, match="a counter's name"):
        game.act("counter", card=hero, name="no/slash", add=1)
    with pytest.raises(IllegalAction, match="has 0 steam"):
        game.act("counter", card=hero, name="steam", remove=1)
    for n in range(MAX_NAMES):
        game.act("counter", card=hero, name=f"c{n}", add=1)
    with pytest.raises(IllegalAction, match="at most 16 names"):
        game.act("counter", card=hero, name="one_more", add=1)
    game.undo()
    assert game.counters(hero) == {f"c{n}": 1 for n in range(MAX_NAMES - 1)}
    assert before.counters(hero) == {}


def test_a_card_without_a_life_total_has_none_to_change() -> None:
    game = new_game("fab", ["alice", "bob"])
    card = game.new_card(game.card_def("Snatch"), game.zone("alice", "graveyard"))
    with pytest.raises(IllegalAction, match="has no life total"):
        game.act("life", card=card, damage=1)
    assert game.log(None) == []


def test_counters_are_shown_on_the_card_to_every_viewer_and_logged() -> None:
    game = new_game("redemption")
    samson = game.ruleset.make_card(
        "Samson", {"type": "hero", "brigade": "blue", "strength": 8, "toughness": 6}
    )
    card = game.new_card(samson, game.zone("alice", "territory"))
    game.act("counter", card=card, name="+1 strength", add=2, by="bob")
    for viewer in ("alice", "bob", None):
        (shown,) = _shown(game, viewer, "alice.territory")
        assert shown["counters"] == {"+1_strength": 2} and shown["strength"] == 10
        check_view(json.loads(json.dumps(view(game, viewer))))
    assert game.log("alice")[-1]["note"] == (
        "bob puts 2 +1_strength counters on alice's Samson: 2 now"
    )


def test_the_life_and_counters_a_table_seat_sends_act_on_any_public_card() -> None:
    ctx = creation_from_request(fab_body()).build()
    game = ctx.game
    hero = next(iter(_shown(game, "bob", "alice.hero")))["id"]
    done = apply_act(ctx, "bob", {"counter": {"card": hero, "name": "steam", "add": 1}})
    assert done.result.value == "done"
    assert _shown(game, "alice", "alice.hero")[0]["counters"] == {"steam": 1}
    ctx = creation_from_request(redemption_body()).build()
    game = ctx.game
    theirs = _shown(ctx.game, "alice", "bob.territory")[0]["id"]
    assert apply_act(ctx, "alice", {"counter": {"card": theirs, "name": "rest", "add": 1}})
    assert _shown(game, "bob", "bob.territory")[0]["counters"] == {"rest": 1}


def test_legal_actions_offer_one_damage_one_life_and_existing_counters() -> None:
    game, hero = _dorinthea()
    game.act("counter", card=hero, name="steam", add=1)
    legal = game.legal_actions("bob", ["life", "counter"])
    got = sorted((a.name, tuple(sorted(k for k in a.args if a.args[k] is not None))) for a in legal)
    assert got == [
        ("counter", ("add", "by", "card", "name")),
        ("counter", ("by", "card", "name", "remove")),
        ("life", ("by", "card", "damage")),
        ("life", ("by", "card", "gain")),
    ]
