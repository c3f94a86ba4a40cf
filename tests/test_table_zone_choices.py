"""At a table each owner gives their own choices of zone (3.0.10a: the player
that owns an object chooses which of their zones of a type it goes to).

Three seats: alice, the turn player, closes a combat chain that holds her
card, two of bob's and one of carol's, and bob and carol each have two
graveyards. Alice's act may carry only her own choices; bob's and carol's
come from their own standing ``zone_choice``, and until both stand her act
is refused as needing the next one, naming whose it is, and her legal
actions do not offer it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tablekit import HANDLE_KEY, migrated_store, store_url

from cardzones.acts.binding import seat_refusal
from cardzones.acts.legal import tried_legal_actions
from cardzones.kernel.game import Game
from cardzones.kernel.views import view
from cardzones.scenario.runner import same_state
from cardzones.table.acts import apply_act, apply_stored
from cardzones.table.context import TableContext
from cardzones.table.creation import creation_from_request
from cardzones.table.host import Host
from cardzones.table.refusals import Refusal
from cardzones.table.store import Store

PLAYERS = ("alice", "bob", "carol")
HEROES = {"alice": "Hero A", "bob": "Hero B", "carol": "Hero C"}


def _body() -> dict[str, Any]:
    """A fab table of three seats, each with a hero and two attacks in hand."""
    cards: dict[str, Any] = {hero: {"types": ["hero"]} for hero in HEROES.values()}
    setup: dict[str, Any] = {}
    for player in PLAYERS:
        setup[f"{player}.hero"] = [HEROES[player]]
        names = [f"{player.title()} Strike {n}" for n in (1, 2)]
        for name in names:
            cards[name] = {"types": ["action", "attack"], "power": 3, "defense": 2}
        setup[f"{player}.hand"] = names
    return {
        "ruleset": "fab",
        "players": list(PLAYERS),
        "seed": 5,
        "handle_key": HANDLE_KEY,
        "cards": cards,
        "setup": setup,
    }


def _ids(game: Game, viewer: str, zone: str, owner: str | None = None) -> list[str]:
    """The handles of the zone's objects in ``viewer``'s view (those of
    ``owner``, if given)."""
    found = next(z for z in view(game, viewer)["zones"] if z["zone"] == zone)
    return [o["id"] for o in found["objects"] if owner in (None, o["owner"])]


def _refused(ctx: TableContext, seat: str, act: dict[str, Any]) -> str:
    """The refusal of ``act``, which changed nothing."""
    before, labels = ctx.game.copy(), ctx.state()
    with pytest.raises(Refusal) as caught:
        apply_act(ctx, seat, act)
    assert same_state(before, ctx.game)
    assert ctx.state() == labels
    return caught.value.message


def _closes(ctx: TableContext, seat: str) -> list[dict[str, Any]]:
    """The seat's legal close_chain acts, as it would send them; judged as
    trying every candidate judges them."""
    game = ctx.game
    listed = game.legal_actions(seat, ["close_chain"])
    tried = tried_legal_actions(game, seat, ["close_chain"])
    steps = [a.to_json(game) for a in listed]
    assert steps == [a.to_json(game) for a in tried]
    return steps


def _table() -> tuple[TableContext, TableContext, list[dict[str, Any]]]:
    """The table with the chain built (alice's card, bob's two, carol's one),
    bob and carol with two graveyards each; a second table from the same
    creation, for replay; and the stored acts so far."""
    record = creation_from_request(_body())
    ctx, again = record.build(), record.build()
    steps: list[tuple[str, dict[str, Any]]] = [
        ("bob", {"create_zone": {"zone": "bob.graveyard"}}),
        ("carol", {"create_zone": {"zone": "carol.graveyard"}}),
        ("alice", {"move": {"card": "alice.hand[0]", "to": "combat_chain"}}),
        ("bob", {"move": {"card": "bob.hand[0]", "to": "combat_chain"}}),
        ("bob", {"move": {"card": "bob.hand[0]", "to": "combat_chain"}}),
        ("carol", {"move": {"card": "carol.hand[0]", "to": "combat_chain"}}),
    ]
    stored = [apply_act(ctx, seat, act).stored for seat, act in steps]
    return ctx, again, stored


def test_one_act_needs_two_other_owners_choices_each_from_its_owner_3_0_10a() -> None:
    ctx, again, stored = _table()
    close: dict[str, Any] = {"close_chain": {}}
    # Neither choice stands: refused as needing bob's, with his options.
    assert _refused(ctx, "alice", close) == (
        "needs a choice for the graveyard zone (bob chooses): give choose_zone: one of "
        "bob.graveyard.1, bob.graveyard.2 (3.0.10a)"
    )
    assert _closes(ctx, "alice") == []
    stored.append(apply_act(ctx, "bob", {"zone_choice": {"zone": "bob.graveyard.2"}}).stored)
    # Bob's stands; carol's is next, and hers alone.
    assert "(carol chooses)" in _refused(ctx, "alice", close)
    assert "carol.graveyard.1, carol.graveyard.2" in _refused(ctx, "alice", close)
    assert _closes(ctx, "alice") == []
    stored.append(apply_act(ctx, "carol", {"zone_choice": {"zone": "carol.graveyard.1"}}).stored)
    # Both stand: offered, with no choice of alice's to make (she has one graveyard).
    assert _closes(ctx, "alice") == [{"close_chain": {}}]
    stored.append(apply_act(ctx, "alice", close).stored)
    counts = {
        zone: len(_ids(ctx.game, "alice", zone))
        for zone in (
            "alice.graveyard",
            "bob.graveyard.1",
            "bob.graveyard.2",
            "carol.graveyard.1",
            "carol.graveyard.2",
        )
    }
    assert counts == {
        "alice.graveyard": 1,
        "bob.graveyard.1": 0,
        "bob.graveyard.2": 2,
        "carol.graveyard.1": 1,
        "carol.graveyard.2": 0,
    }
    for act in stored:
        apply_stored(again, act)
    assert ctx.game.to_json() == again.game.to_json()


def test_a_seat_may_not_give_another_owners_choice_in_its_act_3_0_10a() -> None:
    """By player, by card or as one zone of theirs, another owner's choice in
    alice's act is refused, and nothing changes; even where the rest of the
    act needs that very choice."""
    ctx, _, _ = _table()
    (carols_card,) = _ids(ctx.game, "alice", "combat_chain", "carol")
    both = {"bob": "bob.graveyard.1", "carol": "carol.graveyard.2"}
    assert _refused(ctx, "alice", {"close_chain": {"choose_zone": both}}) == (
        "choose_zone.bob: a seat gives only its own choices, and bob chooses for bob's cards "
        "(3.0.10a)"
    )
    by_card = {"close_chain": {"choose_zone": {carols_card: "carol.graveyard.2"}}}
    assert _refused(ctx, "alice", by_card) == (
        f"choose_zone.{carols_card}: a seat gives only its own choices, and carol chooses "
        "for carol's cards (3.0.10a)"
    )
    one_zone = {"close_chain": {"choose_zone": "bob.graveyard.1"}}
    assert _refused(ctx, "alice", one_zone) == (
        "choose_zone: 'bob.graveyard.1' is bob's zone: a seat gives only its own choices, "
        "and bob chooses for bob's cards (3.0.10a)"
    )


def test_a_seat_gives_its_own_choice_by_player_or_card_3_0_10a() -> None:
    """Bob's own choices, by player and by his own card, are his to give in
    his own act (a clear of his cards on the chain); the seat policy, as the
    API asks it, allows alice hers and refuses her bob's."""
    ctx, _, _ = _table()
    game = ctx.game
    first, second = _ids(ctx.game, "bob", "combat_chain", "bob")
    by_player = {"clear": {"card": first, "choose_zone": {"bob": "bob.graveyard.2"}}}
    assert apply_act(ctx, "bob", by_player).result.value == "cleared"
    by_card = {"clear": {"card": second, "choose_zone": {second: "bob.graveyard.1"}}}
    assert apply_act(ctx, "bob", by_card).result.value == "cleared"
    assert (
        len(_ids(ctx.game, "bob", "bob.graveyard.1")),
        len(_ids(ctx.game, "bob", "bob.graveyard.2")),
    ) == (
        1,
        1,
    )
    close = game.ruleset.actions["close_chain"]
    alices = {"choose_zone": {"alice": game.zone("alice", "graveyard")}}
    bobs = {"choose_zone": {"bob": game.zone("bob", "graveyard", 1)}}
    assert seat_refusal(game, "alice", close, alices) is None
    assert seat_refusal(game, "alice", close, bobs) == (
        "choose_zone.bob: a seat gives only its own choices, and bob chooses for bob's cards "
        "(3.0.10a)"
    )


@pytest.mark.parametrize("url", ["sqlite", "postgres"], indirect=True)
def test_the_standing_choices_are_stored_and_hold_after_a_reload_3_0_10a(url: str) -> None:
    """Through the host and its store (SQLite, Postgres): alice's act is
    refused until bob and carol have chosen; their choices are stored acts,
    so a host that loads the table afresh has them, and alice's act takes
    them."""
    with migrated_store(url) as store:
        _stand_and_reload(store, url)


def _stand_and_reload(store: Store, url: str) -> None:
    host = Host(store)
    table_id = host.create(creation_from_request(_body())).table_id
    table = host.load(table_id)
    assert table is not None
    for seat, act in (
        ("alice", {"create_zone": {"zone": "alice.graveyard"}}),
        ("bob", {"create_zone": {"zone": "bob.graveyard"}}),
        ("carol", {"create_zone": {"zone": "carol.graveyard"}}),
        ("alice", {"move": {"card": "alice.hand[0]", "to": "combat_chain"}}),
        ("bob", {"move": {"card": "bob.hand[0]", "to": "combat_chain"}}),
        ("carol", {"move": {"card": "carol.hand[0]", "to": "combat_chain"}}),
    ):
        host.act(table, seat, act)
    mine = {"close_chain": {"choose_zone": "alice.graveyard.2"}}
    with pytest.raises(Refusal, match=r"\(bob chooses\)"):
        host.act(table, "alice", mine)
    with pytest.raises(Refusal, match=r"carol chooses for carol's cards \(3\.0\.10a\)") as no:
        host.act(table, "alice", {"close_chain": {"choose_zone": {"carol": "carol.graveyard.2"}}})
    assert no.value.rule == "3.0.10a"
    host.act(table, "bob", {"zone_choice": {"zone": "bob.graveyard.1"}})
    host.act(table, "carol", {"zone_choice": {"zone": "carol.graveyard.2"}})
    store = Store(url)  # another host, with its own connection to the store
    fresh = Host(store).load(table_id)
    assert fresh is not None
    assert [a.to_json(fresh.game) for a in fresh.game.legal_actions("alice", ["close_chain"])] == [
        {"close_chain": {"choose_zone": f"alice.graveyard.{n}"}} for n in (1, 2)
    ]
    Host(store).act(fresh, "alice", mine)
    counts = {
        zone: len(_ids(fresh.game, "alice", zone))
        for zone in ("alice.graveyard.2", "bob.graveyard.1", "carol.graveyard.2", "combat_chain")
    }
    assert counts == {
        "alice.graveyard.2": 1,
        "bob.graveyard.1": 1,
        "carol.graveyard.2": 1,
        "combat_chain": 0,
    }
    store.close()


@pytest.fixture
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new SQLite file, or the test cluster's Postgres database."""
    return store_url(request, tmp_path)
