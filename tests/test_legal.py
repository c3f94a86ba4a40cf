"""Legal actions agree with the rules, over random games of both rule sets:

- every listed action succeeds when applied, with the result it was listed with;
- every candidate of the rule set's actions that is not listed is refused
  (``IllegalAction``), or is an effect that would fail (3.0.11) and names
  only what the player may look at; either leaves the game as it was;
- asking changes nothing;
- the list tells a player nothing their view does not: two games that differ
  only in cards the player may not see give the same list, in the same words;
- at a table, every listed act is accepted for the seat and every other
  candidate is refused or fails, and ``GET /api/tables/ID/legal`` answers the seat's.

The random games are those of the non-interference properties
(tests/test_noninterference.py): random set-ups, then random actions of
every kind, undo, copies and saved games included.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from tablekit import BODIES, fab_body, random_act
from test_noninterference import HARNESSES, hidden_pairs, pick, run_action, trade_places
from typer.testing import CliRunner

from cardzones import IllegalAction, LegalAction, ParamKind, candidate_actions, new_game
from cardzones.acts.legal import _frozen as frozen
from cardzones.acts.listing import _all_visible as all_seen
from cardzones.cli import app
from cardzones.errors import CardzonesError
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.game import Game
from cardzones.kernel.results import MoveResult
from cardzones.table.acts import apply_act
from cardzones.table.creation import creation_from_request
from cardzones.table.refusals import Refusal
from cardzones.web.app import create_app
from cardzones.web.server import NOT_OPENED

HARNESS_NAMES = sorted(HARNESSES)
PLAYERS = ("alice", "bob")


def _key(name: str, args: Any) -> Any:
    return (name, frozen(dict(args)))


def random_game(data: st.DataObject, ruleset: str) -> Game:
    harness = HARNESSES[ruleset]
    game = harness.build(data.draw(harness.setup, label="setup"))
    for action in data.draw(st.lists(harness.action, max_size=25), label="actions"):
        game, outcome = run_action(harness, game, action)
        note(f"{action}: {outcome}")
    return game


def _sample(items: list[Any], data: st.DataObject, size: int) -> list[Any]:
    if len(items) <= size:
        return items
    seed = data.draw(st.integers(0, 2**16), label="sample")
    return random.Random(seed).sample(items, size)


@pytest.mark.parametrize("ruleset", HARNESS_NAMES)
@settings(max_examples=60)
@given(data=st.data())
def test_every_listed_action_succeeds_and_asking_changes_nothing(
    ruleset: str, data: st.DataObject
) -> None:
    game = random_game(data, ruleset)
    player = data.draw(st.sampled_from(PLAYERS), label="player")
    before = game.copy()
    legal = game.legal_actions(player)
    assert game.same_state(before), "asking for legal actions changed the game"
    assert game.can_undo() == before.can_undo()
    keys = [_key(a.name, a.bound) for a in legal]
    assert len(set(keys)) == len(keys), "an action is listed twice"
    for action in _sample(legal, data, 40):
        trial = game.copy()
        note(f"applying {action}")
        done = action.apply(trial)
        if action.result is not None:
            assert done.result is action.result
        # its step form (an effect is named only by a label, which a game has not)
        if all(p.kind is not ParamKind.EFFECT for p in action.action.params):
            assert set(action.to_json(game)) == {action.name}


@pytest.mark.parametrize("ruleset", HARNESS_NAMES)
@settings(max_examples=60)
@given(data=st.data())
def test_every_candidate_that_is_not_listed_is_refused(ruleset: str, data: st.DataObject) -> None:
    game = random_game(data, ruleset)
    player = data.draw(st.sampled_from(PLAYERS), label="player")
    # every candidate, a judge's actions included (they are listed when asked for)
    listed = {_key(a.name, a.bound) for a in game.legal_actions(player, judge=True)}
    unlisted = [
        (action, args)
        for action, args in candidate_actions(game, player)
        if _key(action.name, args) not in listed
    ]
    for action, args in _sample(unlisted, data, 40):
        trial = game.copy()
        note(f"applying {action.name} {args}")
        # refused, or (3.0.11) an effect that fails where the player sees all it names
        try:
            done = LegalAction(action, args, player, None, trial).apply(trial)
        except IllegalAction:
            assert trial.same_state(game), f"a refused {action.name} changed the game"
            continue
        assert done.result is MoveResult.FAILED, f"{action.name} {args} gave {done.result}"
        assert all_seen(game, player, action, args), "a hidden card's failure was left out"
        assert trial.same_state(game), f"a failed {action.name} changed the game"


@pytest.mark.parametrize("ruleset", HARNESS_NAMES)
@settings(max_examples=60)
@given(data=st.data())
def test_legal_actions_tell_a_player_nothing_their_view_does_not(
    ruleset: str, data: st.DataObject
) -> None:
    """Two hidden look-alike cards trade places: the player's list is the same,
    in the same order and the same words."""
    game = random_game(data, ruleset)
    player = data.draw(st.sampled_from(PLAYERS), label="player")
    pairs = hidden_pairs(game, player)
    if not pairs:
        return
    c1, c2 = pick(pairs, data.draw(st.integers(0, 1000), label="pair"))
    other = game.copy()
    trade_places(other, c1, c2)
    assert other.view(player) == game.view(player)

    def said(g: Game) -> list[Any]:
        out = []
        for action in g.legal_actions(player):
            try:
                out.append((action.to_json(g), action.result))
            except CardzonesError:  # an effect, which only a label names
                out.append((action.name, dict(action.bound), action.result))
        return out

    assert said(game) == said(other)


# ----------------------------------------------------------------------
# Fixed examples
# ----------------------------------------------------------------------


def _fab_game() -> tuple[Game, dict[str, int]]:
    game = new_game("fab", ["alice", "bob"])
    cards: dict[str, int] = {}
    hero = CardDef("Hero", frozenset({"hero"}))
    attack = CardDef("Snatch", frozenset({"action", "attack"}), {"power": 4})
    cards["hero"] = game.new_card(hero, game.zone("alice", "hero"))
    cards["snatch"] = game.new_card(attack, game.zone("alice", "hand"))
    cards["top"] = game.new_card(attack, game.zone("alice", "deck"))
    cards["bobs"] = game.new_card(attack, game.zone("bob", "hand"))
    return game, cards


def test_a_player_is_offered_their_own_cards_and_an_opponents_hidden_card_never() -> None:
    game, cards = _fab_game()
    named = {c for a in game.legal_actions("alice") for c in a.bound.values() if isinstance(c, int)}
    assert cards["snatch"] in named and cards["top"] in named
    assert cards["bobs"] not in named
    bob = game.legal_actions("bob")
    assert all(cards["snatch"] not in a.bound.values() for a in bob)
    # bob's steps never show anything of alice's hand
    assert all("o" not in json.dumps(a.to_json(game)).split("alice.hand")[0][-2:] for a in bob)


def test_a_hidden_card_is_named_by_its_place_in_the_players_own_zone_3_7_4() -> None:
    game, cards = _fab_game()
    draws = [
        a
        for a in game.legal_actions("alice", actions=["move"])
        if a.bound["card"] == cards["top"] and a.bound["to"] == Dest("hand", "alice")
    ]
    (draw,) = draws
    assert draw.to_json(game) == {
        "move": {"card": "alice.deck[0]", "to": "alice.hand", "by": "alice"}
    }
    assert draw.result is None  # what it gives could tell what the card is
    (play,) = game.legal_actions("alice", actions=["play"])
    assert (
        play.to_json(game)["play"]["card"]
        == game.view("alice")["zones"][
            [z["zone"] for z in game.view("alice")["zones"]].index("alice.hand")
        ]["objects"][0]["id"]
    )


def test_a_needed_choice_of_zone_is_listed_once_per_option_3_0_10a() -> None:
    game = new_game("fab", ["alice", "bob"])
    game.create_zone("alice", "arsenal")
    card = game.new_card(
        CardDef("Snatch", frozenset({"action", "attack"})), game.zone("alice", "hand")
    )
    moves = [
        a.to_json(game)["move"]
        for a in game.legal_actions("alice", actions=["move"])
        if a.bound["card"] == card and a.bound["to"] == Dest("arsenal", "alice")
    ]
    chosen = sorted(m["choose_zone"] for m in moves)
    assert chosen == ["alice.arsenal.1", "alice.arsenal.2"]


def test_turn_actions_are_the_turn_players() -> None:
    game, _ = _fab_game()
    assert any(a.name == "end_turn" for a in game.legal_actions("alice"))
    assert not any(a.name == "end_turn" for a in game.legal_actions("bob"))


def test_a_listed_action_applied_later_is_checked_again() -> None:
    game, cards = _fab_game()
    (play,) = game.legal_actions("alice", actions=["play"])
    game.move(cards["snatch"], Dest("graveyard", "alice"))
    with pytest.raises(IllegalAction):
        play.apply(game)


def test_an_effect_is_named_by_its_label() -> None:
    from cardzones.scenario.runner import run_text

    outcome = run_text(
        "name: x\nruleset: redemption\n"
        "cards: {Samson: {type: hero, strength: 8, toughness: 6}}\n"
        "setup: {alice.territory: [{card: Samson, as: s}], alice.discard: [{card: T, as: t}]}\n"
        "steps:\n  - modify: {card: $s, strength: +2, as: boost}\n"
    )
    assert outcome.context is not None
    game, labels = outcome.context.game, outcome.context.effects
    negates = [a for a in game.legal_actions("alice", actions=["negate"])]
    assert [a.to_json(game, labels) for a in negates] == [
        {"negate": {"effect": "boost", "by": "alice"}}
    ]


# ----------------------------------------------------------------------
# The command line
# ----------------------------------------------------------------------


def test_run_as_a_player_prints_their_legal_actions(tmp_path: Any) -> None:
    path = tmp_path / "x.scenario.yaml"
    path.write_text(
        "name: x\nruleset: fab\nsetup: {alice.hand: [Snatch], alice.deck: [A, B]}\n"
        "steps: [{expect: {turn: 1}}]\n"
    )
    result = CliRunner().invoke(app, ["run", str(path), "--as", "alice", "--legal", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    acts = [entry["act"] for entry in data["legal"]]
    assert {"draw": {"player": "alice"}} in acts
    assert {"move": {"card": "alice.deck[0]", "to": "alice.hand", "by": "alice"}} in acts
    assert "Snatch" not in json.dumps(acts)
    shown = CliRunner().invoke(app, ["run", str(path), "--as", "alice", "--legal"])
    assert shown.exit_code == 0
    assert "what alice may do now" in shown.output
    refused = CliRunner().invoke(app, ["run", str(path), "--legal"])
    assert refused.exit_code == 2
    assert "--legal needs --as PLAYER" in refused.output
    # a judge's actions only with --judge
    names = {next(iter(a)) for a in acts}
    assert not names & {"clear", "create_zone", "remove_zone"}
    judged = CliRunner().invoke(
        app, ["run", str(path), "--as", "alice", "--legal", "--judge", "--json"]
    )
    assert judged.exit_code == 0, judged.output
    more = {next(iter(e["act"])) for e in json.loads(judged.output)["legal"]}
    assert {"clear", "create_zone", "remove_zone"} <= more and more - names <= {
        "allow_look",
        "clear",
        "put_under",
        "grant",
        "create_zone",
        "remove_zone",
    }
    alone = CliRunner().invoke(app, ["run", str(path), "--as", "alice", "--judge"])
    assert alone.exit_code == 2
    assert "--judge goes with --legal" in alone.output


# ----------------------------------------------------------------------
# The table
# ----------------------------------------------------------------------


@contextlib.contextmanager
def _tried(ctx: Any) -> Iterator[None]:
    checkpoint, labels = ctx.game.checkpoint(), ctx.state()
    try:
        yield
    finally:
        ctx.game.rollback(checkpoint)
        ctx.restore(labels)


@pytest.mark.parametrize("ruleset", sorted(BODIES))
@settings(max_examples=15)
@given(seed=st.integers(0, 2**16), acts=st.integers(0, 40))
def test_at_a_table_every_legal_act_is_accepted_and_every_other_candidate_refused(
    ruleset: str, seed: int, acts: int
) -> None:
    from cardzones.table.table import Table

    creation = creation_from_request(BODIES[ruleset](seed=seed % 50))
    table = Table.start("t", creation)
    rng = random.Random(seed)
    for _ in range(acts):
        seat = table.game.turn_player if rng.random() < 0.7 else rng.choice(PLAYERS)
        with contextlib.suppress(Refusal):
            table.commit(table.try_act(seat, random_act(table.view(seat), seat, rng.randrange)))
    ctx, game = table.ctx, table.game
    for seat in PLAYERS:
        # a judge's actions included: every other candidate is refused
        legal = table.legal(seat, judge=True)
        assert legal, "a seat may always do something"
        offered = table.legal(seat)
        assert offered == [e for e in legal if not _judges(game, e["act"])]
        for entry in rng.sample(legal, min(len(legal), 25)):
            with _tried(ctx):
                applied = apply_act(ctx, seat, entry["act"])
            if entry["result"] is not None:
                assert applied.result.value == entry["result"]
        listed = {_key(*next(iter(e["act"].items()))) for e in legal}
        others = []
        for action, args in candidate_actions(game, seat):
            try:
                step = LegalAction(action, args, seat, None, game).to_json(game, ctx.effects)
            except Exception:
                continue
            if _key(*next(iter(step.items()))) not in listed:
                others.append(step)
        for step in rng.sample(others, min(len(others), 25)):
            before = game.copy()
            # refused, or an effect that fails (3.0.11), which changes nothing either
            try:
                with _tried(ctx):
                    failed = apply_act(ctx, seat, step).result
            except Refusal:
                failed = MoveResult.FAILED
            assert failed is MoveResult.FAILED, f"{step} gave {failed}"
            assert game.same_state(before)
        assert table.legal(None) == []


def _judges(game: Any, act: dict[str, Any]) -> bool:
    """Whether the act is of a judge's action of the game's table."""
    return game.ruleset.actions[next(iter(act))].judge


def test_the_legal_endpoint_answers_the_seats_acts_with_the_view_rules() -> None:
    with TestClient(create_app("sqlite://")) as client:
        created = client.post("/api/tables", json=fab_body()).json()
        table = created["table"]

        def get(token: str, where: str = table) -> Any:
            return client.get(
                f"/api/tables/{where}/legal", headers={"Authorization": f"Bearer {token}"}
            )

        alice = get(created["seats"]["alice"])
        assert alice.status_code == 200
        body = alice.json()
        assert body["number"] == 0
        acts = [entry["act"] for entry in body["legal"]]
        assert {"end_turn": {}} in acts
        assert {"draw": {"player": "alice"}} in acts
        view = client.get(
            f"/api/tables/{table}/view",
            headers={"Authorization": f"Bearer {created['seats']['alice']}"},
        ).json()["view"]
        hand = next(z for z in view["zones"] if z["zone"] == "alice.hand")
        assert {"play": {"card": hand["objects"][0]["id"], "by": "alice"}} in acts
        bob = get(created["seats"]["bob"]).json()
        assert not any("end_turn" in entry["act"] for entry in bob["legal"])
        assert get(created["spectator"]).json() == {"number": 0, "legal": []}
        only = client.get(
            f"/api/tables/{table}/legal?actions=play,draw",
            headers={"Authorization": f"Bearer {created['seats']['alice']}"},
        ).json()["legal"]
        assert {name for entry in only for name in entry["act"]} == {"play", "draw"}
        assert client.get(f"/api/tables/{table}/legal").status_code == 401
        for answer in (get("x" * 32), get(created["seats"]["alice"], "nosuchtable")):
            assert answer.status_code == 404
            assert answer.json() == {"error": NOT_OPENED}
        # every act it lists is accepted over the WebSocket
        with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
            ws.send_json({"hello": created["seats"]["alice"], "after": 0})
            assert "welcome" in ws.receive_json()
            ws.send_json({"act": acts[0], "id": "a", "after": 0})
            assert ws.receive_json()["ack"] == "a"


def test_the_legal_endpoint_answers_for_one_card_or_one_zone() -> None:
    """What a menu on a card or a zone asks: ``?card=`` (a handle of the seat's
    view, or ZONE[i]) and ``?zone=``; a name the seat cannot use is a 400
    that says no more than a refused act would."""
    with TestClient(create_app("sqlite://")) as client:
        created = client.post("/api/tables", json=fab_body()).json()
        table, token = created["table"], created["seats"]["alice"]
        auth = {"Authorization": f"Bearer {token}"}

        def legal(query: str) -> Any:
            return client.get(f"/api/tables/{table}/legal?{query}", headers=auth)

        everything = legal("").json()["legal"]
        view = client.get(f"/api/tables/{table}/view", headers=auth).json()["view"]
        hand = next(z for z in view["zones"] if z["zone"] == "alice.hand")
        card = hand["objects"][0]["id"]
        on_card = legal(f"card={card}").json()["legal"]
        assert on_card and all(card in json.dumps(e["act"]) for e in on_card)
        assert on_card == [e for e in everything if card in json.dumps(e["act"])]
        top = legal("card=alice.deck[0]").json()["legal"]
        assert top and all("alice.deck[0]" in json.dumps(e["act"]) for e in top)
        into = legal("zone=alice.graveyard").json()["legal"]
        assert into and all("alice.graveyard" in json.dumps(e["act"]) for e in into)
        assert {"move": {"card": card, "to": "alice.graveyard", "by": "alice"}} in [
            e["act"] for e in into
        ]
        only = legal(f"card={card}&actions=play").json()["legal"]
        assert [e["act"] for e in only] == [{"play": {"card": card, "by": "alice"}}]
        bobs = next(z for z in view["zones"] if z["zone"] == "bob.hand")
        assert bobs["objects"], "bob's hand is shown to alice only as backs"
        assert legal("card=bob.hand[0]").json()["legal"] == []  # not hers to name
        for query, said in (
            ("card=nosuchcard", "card: nosuchcard: no such card"),
            ("zone=nowhere", "zone: "),
            ("card=" + "x" * 500, "card is longer than 400 characters"),
        ):
            answer = legal(query)
            assert answer.status_code == 400, query
            assert answer.json()["error"].startswith(said), answer.json()


def test_the_legal_endpoint_lists_a_judges_actions_only_when_asked() -> None:
    """``?judge=1`` adds the actions the table marks ``"judge": true`` (what
    ``GET /api/rulesets`` serves); without it they are listed only when
    ``?actions=`` names them. Any other value of ``judge`` is a 400."""
    with TestClient(create_app("sqlite://")) as client:
        created = client.post("/api/tables", json=fab_body()).json()
        table, token = created["table"], created["seats"]["alice"]
        auth = {"Authorization": f"Bearer {token}"}
        served = client.get("/api/rulesets").json()["rulesets"]
        fab = next(r for r in served if r["name"] == "fab")
        judges = {a["name"] for a in fab["actions"] if a.get("judge")}
        assert judges == {"allow_look", "clear", "put_under", "grant", "create_zone", "remove_zone"}
        assert all(a.get("judge") in (None, True) for a in fab["actions"])

        def names(query: str) -> set[str]:
            answer = client.get(f"/api/tables/{table}/legal?{query}", headers=auth)
            assert answer.status_code == 200, answer.json()
            return {name for entry in answer.json()["legal"] for name in entry["act"]}

        offered = names("")
        assert offered and not offered & judges
        assert names("judge=0") == names("judge=false") == offered
        everything = names("judge=1")
        assert names("judge=true") == everything
        # alice's own cards and zones: clearing, making and removing a zone
        assert {"clear", "create_zone", "remove_zone"} <= everything
        assert everything - judges == offered
        assert names("actions=clear,draw") == {"clear", "draw"}
        assert names("zone=alice.graveyard") == {"move"}
        assert "create_zone" in names("zone=alice.graveyard&judge=1")
        for bad in ("judge=yes", "judge=" + "1" * 500):
            answer = client.get(f"/api/tables/{table}/legal?{bad}", headers=auth)
            assert answer.status_code == 400
            assert answer.json() == {"error": "judge: 1 or true, 0 or false"}
