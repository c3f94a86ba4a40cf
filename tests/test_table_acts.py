"""A seat's act, from what its view shows to an engine call: handles that name
a card for one viewer only, ``ZONE[i]`` in the order the view lists, the seat
policy, refusals that change nothing and reveal nothing, the stored form; and
the game written out as a scenario (``cardzones export``) and as a seat saw
it (``cardzones replay``)."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import patience_ruleset
from tablekit import BODIES, fab_body, random_act, redemption_body
from typer.testing import CliRunner

from cardzones import get_ruleset, register_ruleset, unregister_ruleset
from cardzones.acts.actions import Action, Param, Role
from cardzones.cli import app
from cardzones.errors import UnknownReference
from cardzones.kernel.views import card_for_handle, shown_cards, view
from cardzones.scenario.runner import PASS, run_file, same_state
from cardzones.table.acts import apply_act, bind_act
from cardzones.table.context import TableContext
from cardzones.table.creation import creation_from_request
from cardzones.table.host import Host
from cardzones.table.refusals import Refusal
from cardzones.table.store import Store


def table_ctx(body: dict[str, Any]) -> TableContext:
    return creation_from_request(body).build()


def objects(game: Any, viewer: str | None, zone: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = next(z for z in view(game, viewer)["zones"] if z["zone"] == zone)[
        "objects"
    ]
    return found


# ----------------------------------------------------------------------
# Handles and positions, for one viewer
# ----------------------------------------------------------------------


def test_a_handle_names_a_card_only_for_a_viewer_whose_view_gives_it() -> None:
    ctx = table_ctx(fab_body())
    game = ctx.game
    for entry in objects(game, "alice", "alice.hand"):
        card = card_for_handle(game, "alice", entry["id"])
        assert game.obj(card).cdef.name == entry["name"]
        for other in ("bob", None):
            with pytest.raises(UnknownReference, match=r"^no such card$"):
                card_for_handle(game, other, entry["id"])
    # a public card: everyone's view gives the same handle
    hero = objects(game, None, "alice.hero")[0]["id"]
    assert {card_for_handle(game, v, hero) for v in ("alice", "bob", None)} == {
        card_for_handle(game, None, hero)
    }


def test_an_old_handle_names_nothing() -> None:
    ctx = table_ctx(fab_body())
    handle = objects(ctx.game, "alice", "alice.hand")[0]["id"]
    apply_act(ctx, "alice", {"move": {"card": handle, "to": "alice.deck"}})
    apply_act(ctx, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
    # the same card is back in alice's hand, as a card she saw come from her deck
    with pytest.raises(UnknownReference):
        card_for_handle(ctx.game, "alice", handle)


def test_zone_positions_follow_the_order_the_view_lists() -> None:
    ctx = table_ctx(fab_body())
    game = ctx.game
    for viewer in ("alice", "bob", None):
        for zone in view(game, viewer)["zones"]:
            zid = game.all_zones()[
                [z["zone"] for z in view(game, viewer)["zones"]].index(zone["zone"])
            ]
            cards = shown_cards(game, viewer, zid)
            assert len(cards) == zone["count"]
            for card, entry in zip(cards, zone["objects"], strict=True):
                if "id" in entry:
                    assert card_for_handle(game, viewer, entry["id"]) == card
    hand = objects(game, "alice", "alice.hand")
    applied = apply_act(ctx, "alice", {"move": {"card": "alice.hand[1]", "to": "alice.graveyard"}})
    assert applied.result.value == "moved"
    assert objects(game, "alice", "alice.graveyard")[0]["name"] == hand[1]["name"]


# ----------------------------------------------------------------------
# The seat policy and refusals
# ----------------------------------------------------------------------


def refused(ctx: TableContext, seat: str | None, step: Any) -> Refusal:
    before = ctx.game.copy()
    labels = ctx.state()
    with pytest.raises(Refusal) as caught:
        apply_act(ctx, seat, step)
    assert same_state(before, ctx.game)
    assert ctx.state() == labels
    return caught.value


def test_acts_on_anothers_cards_are_refused() -> None:
    ctx = table_ctx(fab_body())
    hero = objects(ctx.game, "alice", "bob.hero")[0]["id"]
    banished = objects(ctx.game, "alice", "bob.banished")
    assert (
        "may act only on cards alice controls"
        in refused(ctx, "alice", {"flip": {"card": hero, "face": "down"}}).message
    )
    assert (
        "may act only on cards"
        in refused(ctx, "alice", {"modify": {"card": hero, "power": 1}}).message
    )
    assert (
        "acts for itself only"
        in refused(ctx, "alice", {"play": {"card": "alice.hand[0]", "by": "bob"}}).message
    )
    assert (
        "only to its own zones" in refused(ctx, "alice", {"shuffle": {"zone": "bob.deck"}}).message
    )
    assert "a spectator cannot act" in refused(ctx, None, {"end_turn": {}}).message
    assert banished  # a public card of bob's: named, but not alice's to move
    assert (
        "may act only on cards"
        in refused(ctx, "alice", {"move": {"card": "bob.banished[0]", "to": "bob.hand"}}).message
    )


def test_a_refusal_about_a_hidden_card_is_the_same_whatever_the_card() -> None:
    # bob's hand differs between the two games; alice's refusals do not
    names = [f"Kx{n:04d}q" for n in range(1, 200)]
    one, two = fab_body(names=names), fab_body(names=names)
    two["setup"]["bob.hand"] = list(reversed(two["setup"]["bob.hand"]))
    for step in (
        {"move": {"card": "bob.hand[0]", "to": "alice.hand"}},
        {"flip": {"card": "bob.hand[2]", "face": "up"}},
        {"play": {"card": "bob.deck[0]"}},
        {"move": {"card": "bob.hand[5]", "to": "alice.hand"}},
    ):
        messages = {refused(table_ctx(body), "alice", step).message for body in (one, two)}
        assert len(messages) == 1, messages
        assert "Kx" not in messages.pop()


def test_a_refusal_names_cards_as_the_seat_named_them() -> None:
    ctx = table_ctx(redemption_body())
    handle = objects(ctx.game, "alice", "alice.hand")[0]["id"]
    message = refused(ctx, "alice", {"set_aside": {"cards": [handle]}}).message
    assert "#" not in message
    refusal = refused(ctx, "alice", {"return": {"cards": ["alice.territory[0]"]}})
    assert refusal.rule == "set-aside/definition" and "#" not in refusal.message


def test_the_stored_act_replays_to_the_same_game() -> None:
    for ruleset in ("fab", "redemption"):
        # Built twice from one creation record, as a restart does: the record
        # keeps the seed and the handle key.
        record = creation_from_request(BODIES[ruleset]())
        live, again = record.build(), record.build()
        rng = random.Random(5)
        for _ in range(60):
            seat = live.game.turn_player if rng.random() < 0.7 else rng.choice(["alice", "bob"])
            step = random_act(view(live.game, seat), seat, rng.randrange)
            try:
                bound = bind_act(live, seat, step)
                apply_act(live, seat, step)
            except Refusal:
                continue
            from cardzones.table.acts import apply_stored

            apply_stored(again, bound.stored)
        assert live.game.to_json() == again.game.to_json()


# ----------------------------------------------------------------------
# The seat policy is the action tables' data
# ----------------------------------------------------------------------


def policy_of(action: Action) -> dict[str, Any]:
    """What the table reads of one action: the cards it acts on, the cards it
    targets, the zones that must be the seat's, its actor and whether it is
    the turn player's."""
    out: dict[str, Any] = {"acts_on": set(), "targets": set(), "own_zones": set()}

    def walk(params: tuple[Param, ...], prefix: str) -> None:
        for param in params:
            name = prefix + param.name
            if param.role is Role.ACTS_ON:
                out["acts_on"].add(name)
            elif param.role is Role.TARGET:
                out["targets"].add(name)
            elif param.role is Role.OWN_ZONE:
                out["own_zones"].add(name)
            walk(param.fields, name + ".")

    walk(action.params, "")
    if action.actor is not None:
        free = action.param(action.actor).role is Role.ANY_PLAYER
        out["actor"] = f"{action.actor} (any player)" if free else action.actor
    else:
        out["actor"] = None
    out["turn"] = action.turn_player
    return out


def _policy(
    acts_on: str = "",
    targets: str = "",
    own_zones: str = "",
    actor: str | None = "by",
    turn: bool = False,
) -> dict[str, Any]:
    return {
        "acts_on": set(acts_on.split()),
        "targets": set(targets.split()),
        "own_zones": set(own_zones.split()),
        "actor": actor,
        "turn": turn,
    }


#: The seat policy of the shipped rule sets, action by action (docs/protocol.md,
#: Who may do what).
SHARED_POLICY = {
    "move": _policy("card"),
    "draw": _policy(actor="player"),
    "shuffle": _policy(own_zones="zone"),
    "flip": _policy("card"),
    "modify": _policy("card"),
    "grant": _policy("card"),
    "end_turn": _policy("order", actor=None, turn=True),
    "counter": _policy(targets="card"),
}
POLICY = {
    "fab": {
        **SHARED_POLICY,
        "life": _policy(targets="card"),
        "attack": _policy("card pitch"),
        "finish_turn": _policy("arsenal order", actor=None, turn=True),
        "close_chain": _policy(actor=None, turn=True),
        "clear": _policy("card"),
        "put_under": _policy("card top"),
        "play": _policy("card pitch"),
        "pitch": _policy("card"),
        "pitch_order": _policy("order"),
        "zone_choice": _policy(own_zones="zone"),
        "add_layer": _policy("source"),
        "remove_layer": _policy(turn=True),
        "resolve": _policy(turn=True),
        "pass": _policy(),
        "defend": _policy("cards"),
        "concede": _policy(),
        "create_token": _policy(actor="controller (any player)"),
        "create_zone": _policy(own_zones="zone", actor=None),
        "remove_zone": _policy(own_zones="zone", actor=None),
        "tap": _policy("card"),
        "untap": _policy("card"),
        "allow_look": _policy(own_zones="zone"),
    },
    "redemption": {
        **SHARED_POLICY,
        "place": _policy("cards source order", "onto ongoing.card"),
        "set_aside": _policy("source", "cards played_on ongoing.card"),
        "return": _policy("cards"),
        "negate": _policy(),
        "dominant": _policy("card", "target"),
        "discard": _policy("card"),
        "phase": _policy(actor=None, turn=True),
        "end_battle": _policy(actor=None, turn=True),
        "start_turn": _policy(actor=None, turn=True),
        "open_game": _policy(turn=True),
        "proceed": _policy(turn=True),
        "to_territory": _policy("card", turn=True),
        "rescue": _policy("hero", "soul", turn=True),
        "block": _policy("card"),
        "enhance": _policy("card character"),
        "pass": _policy(),
        "discard_down": _policy("card", turn=True),
        "play_dominant": _policy("card", "target"),
    },
}


@pytest.mark.parametrize("ruleset", sorted(POLICY))
def test_the_seat_policy_of_each_action_is_in_its_rule_sets_table(ruleset: str) -> None:
    table = get_ruleset(ruleset).actions
    assert {name: policy_of(action) for name, action in table.items()} == POLICY[ruleset]


def test_a_token_may_be_made_for_another_player_and_is_the_seats_by_default() -> None:
    ctx = table_ctx(fab_body())
    mine = bind_act(ctx, "alice", {"create_token": {"card": "Ward", "to": "permanent"}})
    assert mine.stored["create_token"]["controller"] == "alice"
    theirs = apply_act(
        ctx, "alice", {"create_token": {"card": "Ward", "to": "permanent", "controller": "bob"}}
    )
    assert theirs.result.value == "done"
    tokens = objects(ctx.game, "bob", "permanent")
    assert [t["controller"] for t in tokens] == ["bob"]


def test_a_seat_chooses_the_graveyard_of_its_own_cleared_card_3_0_10a() -> None:
    """3.0.10a, 3.0.12: at a table, clear and remove_zone take the owner's
    choice of graveyard as the scenario step does, and refuse without it."""
    ctx = table_ctx(fab_body())
    apply_act(ctx, "alice", {"create_zone": {"zone": "alice.graveyard"}})
    with pytest.raises(Refusal, match="needs a choice"):
        apply_act(ctx, "alice", {"clear": {"card": "alice.hand[0]"}})
    done = apply_act(
        ctx, "alice", {"clear": {"card": "alice.hand[0]", "choose_zone": "alice.graveyard.2"}}
    )
    assert done.result.value == "cleared"
    assert len(objects(ctx.game, "alice", "alice.graveyard.2")) == 1
    apply_act(
        ctx, "alice", {"clear": {"card": "alice.hand[0]", "choose_zone": "alice.graveyard.1"}}
    )
    # The graveyard that ceases sends its card to the other one (3.0.10c).
    apply_act(ctx, "alice", {"remove_zone": {"zone": "alice.graveyard.2"}})
    assert len(objects(ctx.game, "alice", "alice.graveyard")) == 2


def test_an_act_carries_the_seats_own_choices_of_zone_and_replays_3_0_10a() -> None:
    """3.0.10a: closing the combat chain sends alice's and bob's cards to
    their owners' graveyards; each has two. Alice's act carries her own
    choices, by player and by card (the card as the seat names it, stored as
    its physical card); bob's choice is his, given ahead with his own act,
    and refused in hers. The stored acts replay to the same game."""
    record = creation_from_request(fab_body())
    ctx, again = record.build(), record.build()
    steps: list[tuple[str, dict[str, Any]]] = []
    for seat in ("alice", "bob"):
        steps.append((seat, {"create_zone": {"zone": f"{seat}.graveyard"}}))
        for _ in range(2):
            steps.append((seat, {"move": {"card": f"{seat}.hand[0]", "to": "combat_chain"}}))
    stored = [apply_act(ctx, seat, step).stored for seat, step in steps]
    chain = objects(ctx.game, "alice", "combat_chain")
    with pytest.raises(Refusal, match=r"needs a choice .*\(bob chooses\)"):
        apply_act(ctx, "alice", {"close_chain": {"choose_zone": {"alice": "alice.graveyard.2"}}})
    choice = {"alice": "alice.graveyard.2", chain[1]["id"]: "alice.graveyard.1"}
    bobs = {"close_chain": {"choose_zone": {**choice, "bob": "bob.graveyard.1"}}}
    assert refused(ctx, "alice", bobs).message == (
        "choose_zone.bob: a seat gives only its own choices, and bob chooses for bob's cards "
        "(3.0.10a)"
    )
    stored.append(apply_act(ctx, "bob", {"zone_choice": {"zone": "bob.graveyard.1"}}).stored)
    card = card_for_handle(ctx.game, "alice", chain[1]["id"])
    done = apply_act(ctx, "alice", {"close_chain": {"choose_zone": choice}})
    assert done.stored["close_chain"]["choose_zone"] == {
        "alice": "alice.graveyard.2",
        f"#{card}": "alice.graveyard.1",
    }
    counts = {
        z: len(objects(ctx.game, "alice", z))
        for z in ("alice.graveyard.1", "alice.graveyard.2", "bob.graveyard.1", "bob.graveyard.2")
    }
    assert counts == {
        "alice.graveyard.1": 1,
        "alice.graveyard.2": 1,
        "bob.graveyard.1": 2,
        "bob.graveyard.2": 0,
    }
    from cardzones.table.acts import apply_stored

    for act in (*stored, done.stored):
        apply_stored(again, act)
    assert ctx.game.to_json() == again.game.to_json()


def test_a_seat_chooses_ahead_for_its_own_cards_another_seat_moves_3_0_10a() -> None:
    """3.0.10a: the owner chooses. When alice closes the chain, bob's card
    goes to the graveyard bob chose ahead with his own act; he may choose
    only among his own zones, and alice's act needs no choice of his."""
    ctx = table_ctx(fab_body())
    apply_act(ctx, "bob", {"create_zone": {"zone": "bob.graveyard"}})
    apply_act(ctx, "bob", {"move": {"card": "bob.hand[0]", "to": "combat_chain"}})
    with pytest.raises(Refusal, match=r"\(bob chooses\)"):
        apply_act(ctx, "alice", {"close_chain": {}})
    with pytest.raises(Refusal, match="its own zones"):
        apply_act(ctx, "alice", {"zone_choice": {"zone": "bob.graveyard.2"}})
    apply_act(ctx, "bob", {"zone_choice": {"zone": "bob.graveyard.2"}})
    assert [a.name for a in ctx.game.legal_actions("alice", ["close_chain"])] == ["close_chain"]
    apply_act(ctx, "alice", {"close_chain": {}})
    assert len(objects(ctx.game, "alice", "bob.graveyard.2")) == 1


def test_a_nested_action_keeps_the_seat_policy() -> None:
    ctx = table_ctx(fab_body())
    then = {"flip": {"face": "up"}}
    step = {"move": {"card": "alice.hand[0]", "to": "alice.graveyard", "then": then}}
    bound = bind_act(ctx, "alice", step)
    # the nested action's actor is written out, like the move's
    assert bound.stored["move"]["then"] == {"flip": {"face": "up", "by": "alice"}}
    assert bound.stored["move"]["card"].startswith("#")
    with_bob = {"move": {**step["move"], "then": {"flip": {"face": "up", "by": "bob"}}}}
    assert (
        "then.flip.by: 'bob': a seat acts for itself only"
        in refused(ctx, "alice", with_bob).message
    )
    # one action on the moved card: moving it on is an act of its own
    again = {"move": {**step["move"], "then": {"move": {"to": "alice.hand"}}}}
    assert refused(ctx, "alice", again).message == (
        "then: takes an action on the moved card, not move"
    )


def test_an_effect_label_names_the_effect_for_a_later_negate() -> None:
    ctx = table_ctx(redemption_body())
    game = ctx.game
    _, evil = (o["id"] for o in objects(game, "alice", "alice.territory"))
    step = {"set_aside": {"cards": [evil], "duration": 1}, "as": "lift"}
    assert apply_act(ctx, "alice", step).result.value == "moved"
    assert game.ruleset.handle_active(game, ctx.effects["lift"])
    refusal = refused(ctx, "alice", {"negate": {"effect": "drop"}})
    assert refusal.message.startswith("effect: unknown effect label 'drop'")
    assert "lift" not in refusal.message  # another seat's labels are its own
    negated = apply_act(ctx, "alice", {"negate": {"effect": "lift"}})
    assert negated.stored == {"negate": {"effect": "lift", "by": "alice"}}
    assert negated.result.value == "done"
    assert not game.ruleset.handle_active(game, ctx.effects["lift"])


@pytest.fixture
def patience() -> Iterator[None]:
    """The example third rule set of docs/writing-a-ruleset.md, registered."""
    register_ruleset(patience_ruleset(), replace=True)
    yield
    unregister_ruleset("patience")


def test_a_third_rule_sets_actions_get_the_seat_policy_from_its_table(patience: None) -> None:
    cards = {
        "Ace of Hearts": {"suit": "hearts", "rank": 1},
        "Two of Hearts": {"suit": "hearts", "rank": 2},
        "Ace of Spades": {"suit": "spades", "rank": 1},
    }
    ctx = table_ctx(
        {
            "ruleset": "patience",
            "players": ["alice", "bob"],
            "seed": 3,
            "cards": cards,
            "setup": {
                # One card a stock: a table shuffles each face-down pile when it is made.
                "alice.stock": ["Ace of Hearts"],
                "bob.stock": ["Ace of Spades"],
            },
        }
    )
    # its own action, with by: the seat's, and the seat's only
    assert apply_act(ctx, "alice", {"turn": {}}).stored == {"turn": {"by": "alice"}}
    assert "acts for itself only" in refused(ctx, "alice", {"turn": {"by": "bob"}}).message
    # a card it may not look at: only in its own zones
    assert (
        "only in your own zones"
        in refused(ctx, "alice", {"move": {"card": "bob.stock[0]", "to": "alice.waste"}}).message
    )
    # the shared actions keep their policy: its own cards, its own zones, the turn player's
    assert apply_act(ctx, "bob", {"turn": {}}).result.value == "moved"
    assert (
        "may act only on cards alice controls"
        in refused(
            ctx, "alice", {"move": {"card": "bob.waste[0]", "to": "alice.foundation"}}
        ).message
    )
    assert (
        "only to its own zones" in refused(ctx, "alice", {"shuffle": {"zone": "bob.stock"}}).message
    )
    assert "turn player" in refused(ctx, "bob", {"end_turn": {}}).message
    moved = apply_act(ctx, "alice", {"move": {"card": "alice.waste[0]", "to": "alice.foundation"}})
    assert moved.result.value == "moved"


# ----------------------------------------------------------------------
# Export and replay
# ----------------------------------------------------------------------


def played(tmp_path: Path, ruleset: str, count: int = 60) -> tuple[str, str]:
    db = str(tmp_path / "t.sqlite3")
    store = Store(db)
    store.migrate()
    host = Host(store)
    created = host.create(creation_from_request(BODIES[ruleset](seed=9)))
    table = host.load(created.table_id)
    assert table is not None
    rng = random.Random(8)
    for _ in range(count):
        seat = table.game.turn_player if rng.random() < 0.7 else rng.choice(["alice", "bob"])
        with contextlib.suppress(Refusal):
            host.act(table, seat, random_act(table.view(seat), seat, rng.randrange))
    store.close()
    return db, created.table_id


@pytest.mark.parametrize("ruleset", ["fab", "redemption"])
def test_export_writes_a_scenario_that_check_passes(tmp_path: Path, ruleset: str) -> None:
    db, table = played(tmp_path, ruleset)
    out = tmp_path / "game.scenario.yaml"
    result = CliRunner().invoke(app, ["export", table, "--db", db, "-o", str(out)])
    assert result.exit_code == 0, result.output
    doc = yaml.safe_load(out.read_text())
    assert all("as" in entry for entries in doc["setup"].values() for entry in entries)
    assert any("expect" in step for step in doc["steps"])
    assert not any("#" in json.dumps(step) for step in doc["steps"])
    outcome = run_file(out)
    assert outcome.status == PASS, outcome.describe()
    check = CliRunner().invoke(app, ["check", str(out)])
    assert check.exit_code == 0


def test_an_exported_expectation_fails_when_the_game_differs(tmp_path: Path) -> None:
    db, table = played(tmp_path, "fab", 30)
    text = CliRunner().invoke(app, ["export", table, "--db", db]).output
    doc = yaml.safe_load(text)
    # without its moves, the game ends elsewhere: the final board must say so
    doc["steps"] = [s for s in doc["steps"] if "move" not in s]
    out = tmp_path / "broken.scenario.yaml"
    out.write_text(yaml.safe_dump(doc))
    assert run_file(out).status != PASS


def test_replay_shows_the_game_as_one_seat_saw_it(tmp_path: Path) -> None:
    db, table = played(tmp_path, "fab", 40)
    runner = CliRunner()
    alice = json.loads(
        runner.invoke(app, ["replay", table, "--db", db, "--as", "alice", "--json"]).output
    )
    bob = json.loads(
        runner.invoke(app, ["replay", table, "--db", db, "--as", "bob", "--json"]).output
    )
    store = Store(db)
    live = Host(store).load(table)
    assert live is not None
    assert alice["view"] == json.loads(json.dumps(live.view("alice")))
    assert bob["view"] == json.loads(json.dumps(live.view("bob")))
    game = live.game
    hidden = {game.obj(c).cdef.name for c in game.cards() if not game.may_look("bob", c)}
    assert hidden
    assert not any(name in json.dumps(bob["view"]) for name in hidden)
    assert [e["event"] for e in alice["events"]] == list(range(1, live.number + 1))
    early = json.loads(
        runner.invoke(
            app, ["replay", table, "--db", db, "--as", "spectator", "--upto", "3", "--json"]
        ).output
    )
    assert early["number"] == 3 and early["seat"] is None
    text = runner.invoke(app, ["replay", table, "--db", db, "--as", "bob"])
    assert text.exit_code == 0 and "event 1" in text.output
    wrong = runner.invoke(app, ["replay", table, "--db", db, "--as", "carol"])
    assert wrong.exit_code == 2 and "not a seat" in wrong.output
    store.close()


# ----------------------------------------------------------------------
# Layers
# ----------------------------------------------------------------------


def _imports(path: Path) -> set[str]:
    import ast

    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def test_layers_point_down_only() -> None:
    root = Path(__file__).parent.parent / "cardzones"
    web = ("starlette", "uvicorn", "httpx", "websockets", "cardzones.web")
    for path in (root / "table").rglob("*.py"):
        bad = {m for m in _imports(path) if m.startswith(web)}
        assert not bad, f"{path} imports web code: {bad}"
    for layer in ("kernel", "rulesets", "scenario"):
        for path in (root / layer).rglob("*.py"):
            bad = {m for m in _imports(path) if m.startswith(("cardzones.table", "cardzones.web"))}
            assert not bad, f"{path} imports a layer above it: {bad}"


def test_a_table_shuffles_the_decks_its_body_names_with_its_secret_seed() -> None:
    """A start position gives each deck in the order it was written, which
    its writer knows (``cardzones cards deck`` prints it so, with
    ``shuffle:``): a table shuffles each deck its ``shuffle`` names when it is
    made, with its seed, drawn at random unless the request gives one, so the
    draws are not the written order."""
    body = {**fab_body(), "shuffle": ["alice.deck"]}
    written = tuple(body["setup"]["alice.deck"])
    seeds = set()
    orders = {}
    for seed in (None, None, 1, 2):
        made = {k: v for k, v in body.items() if k != "seed"}
        if seed is not None:
            made["seed"] = seed
        record = creation_from_request(made)
        seeds.add(record.seed)
        game = record.build().game
        names = tuple(game.obj(c).cdef.name for c in game.contents(game.zone("alice", "deck")))
        assert sorted(names) == sorted(written)
        if seed is not None:
            orders[seed] = names
        # The same record builds the same table: replay and export hold.
        again = record.build().game
        deck = again.contents(again.zone("alice", "deck"))
        assert tuple(again.obj(c).cdef.name for c in deck) == names
    assert len(seeds) == 4  # two drawn at random, two given
    assert written not in orders.values() and orders[1] != orders[2]


def test_a_seats_effect_labels_never_show_in_another_seats_legal_actions() -> None:
    """A seat's as: label is its own words: another seat's legal actions name
    that effect by a name that tells nothing of them, the act taken with that
    name negates the effect, and the stored acts replay and export."""
    from cardzones.table.table import Table

    creation = creation_from_request(redemption_body())
    table = Table.start("t", creation)
    game = table.game
    stored = []

    def take(seat: str, act: dict[str, Any]) -> None:
        pending = table.try_act(seat, act)
        stored.append(pending.applied.stored)
        table.commit(pending)

    _, evil = (o["id"] for o in objects(game, "alice", "alice.territory"))
    take("alice", {"set_aside": {"cards": [evil], "duration": 1}, "as": "alices secret plan"})
    mine = [e["act"] for e in table.legal("alice", ["negate"])]
    assert {"negate": {"effect": "alices secret plan", "by": "alice"}} in mine
    theirs = [e["act"] for e in table.legal("bob", ["negate"])]
    assert "secret plan" not in json.dumps(theirs)
    (named,) = [a["negate"]["effect"] for a in theirs]
    assert named.startswith("effect-")
    # bob cannot use alice's words, and names the effect as his legal actions do
    refusal = refused(table.ctx, "bob", {"negate": {"effect": "alices secret plan"}})
    assert refusal.message == "effect: unknown effect label 'alices secret plan'"
    take("bob", {"negate": {"effect": named}})
    assert not game.ruleset.handle_active(game, table.ctx.effects["alices secret plan"])
    again = Table.start("t", creation)
    for act in stored:
        again.replay(act)
    assert again.game.same_state(game)
