"""Hidden information, class: records follow objects.

A Redemption effect remembers cards: a place ability the cards it placed
and where, a set-aside ability its cards and its enhancement, a negatable
move the card it took away, an ongoing bonus the card it is on. Each of
these names an object, not a physical card (3.0.9: a new object is a new
thing with no relation to its previous existence), and an object only as
long as it is public (3.0.9a, 3.0.9b: an effect references the new object
"as long as the object remains a public object"). A card that went where no
one could follow it and came back is not the card an effect was about, so
no later view, log, answer or legal action depends on which hidden card it
was.

Each test plays two games that differ only in which of two hidden cards
(look-alikes, as alice sees them) bob uses, and asks that alice is shown and
offered exactly the same in both; the table test asks it of the frames,
``/view`` and ``/legal`` of two real tables.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from starlette.testclient import TestClient
from tablekit import HANDLE_KEY, Seat, act, create, seated

from cardzones import new_game
from cardzones.errors import CardzonesError
from cardzones.kernel.cards import CardDef, Dest, Move
from cardzones.kernel.game import Game
from cardzones.rulesets.redemption.moves import relocate
from cardzones.rulesets.redemption.negate import negate
from cardzones.rulesets.redemption.place import place
from cardzones.rulesets.redemption.records import Ongoing
from cardzones.rulesets.redemption.set_aside import return_cards, set_aside
from cardzones.rulesets.redemption.turns import advance_to
from cardzones.web.app import create_app


def _card(name: str, **fields: Any) -> CardDef:
    """A Redemption card, made as the rule set makes card data."""
    return new_game("redemption").ruleset.make_card(name, fields)


GIDEON = _card("Gideon", type=("hero",), brigade=("red",), strength=5, toughness=5)
TRUMPET = _card("Trumpet", type=("artifact",))
CAVE = _card("Cave", type=("enhancement",), brigade=("red",))
HERO = _card("Moses", type=("hero",), brigade=("red",), strength=5, toughness=5)


def _new() -> tuple[Game, dict[str, int]]:
    game = new_game("redemption", ("alice", "bob"), seed=1, handle_key="k")
    zones = {
        name: game.zone(player, ztype)
        for name, player, ztype in (
            ("territory", "bob", "territory"),
            ("hand", "bob", "hand"),
            ("lob", "bob", "land_of_bondage"),
            ("set_aside", "bob", "set_aside"),
        )
    }
    out: dict[str, int] = {}
    for name, zid in zones.items():
        assert zid is not None
        out[name] = zid
    return game, out


def _said(game: Game, player: str) -> list[Any]:
    """The player's legal actions, in their own words."""
    out = []
    for action in game.legal_actions(player):
        try:
            out.append((action.to_json(game), action.result))
        except CardzonesError:  # an effect, which only a label names
            out.append((action.name, repr(action.args.get("effect")), action.result))
    return out


def _shown(game: Game, player: str = "alice") -> tuple[str, str, list[Any]]:
    return (
        json.dumps(game.view(player), sort_keys=True),
        json.dumps(game.log(player), sort_keys=True),
        _said(game, player),
    )


def _both(play: Callable[[Game, dict[str, int], int, int], None]) -> list[Any]:
    """Alice's view, log and legal actions after ``play(game, zones, used,
    other)``, where bob uses the card the records are about (``used``) in
    one game and its look-alike in the other."""
    shown = []
    for which in (0, 1):
        game, zones = _new()
        shown.append(_run(game, zones, play, which))
    return shown


def _run(
    game: Game,
    zones: dict[str, int],
    play: Callable[[Game, dict[str, int], int, int], None],
    which: int,
) -> Any:
    play(game, zones, which, 1 - which)
    return _shown(game)


def test_records_follow_objects_place_record_and_a_card_played_back_face_down() -> None:
    """Issue class 6. Bob places a Trumpet in his territory with an ongoing
    bonus for Gideon, takes it to his hand and plays a hand card face down.
    The place ability's condition is about the object it placed ("while the
    placed card remains in the placed location", place/implied-condition);
    the card that comes back from the hand is a new object, not placed there
    again (place/relocated-no-auto-return). Whether it is the Trumpet must
    not show in Gideon's strength, the effect's activity or a negate offered
    to alice."""
    strengths = set()

    def play(game: Game, zones: dict[str, int], which: int, _: int) -> None:
        gideon = game.new_card(GIDEON, zones["territory"], owner="bob")
        trumpet = game.new_card(TRUMPET, zones["lob"], owner="bob")
        other = game.new_card(TRUMPET, zones["hand"], owner="bob")
        game.forget_history()
        _, handle = place(
            game,
            [trumpet],
            by="bob",
            into=zones["territory"],
            ongoing=Ongoing(gideon, (("strength", 2),)),
        )
        assert game.stat(gideon, "strength") == 7
        game.move(trumpet, zones["hand"], by="bob")
        game.move((trumpet, other)[which], zones["territory"], face="down", by="bob")
        strengths.add((game.stat(gideon, "strength"), game.is_active(handle)))

    first, second = _both(play)
    assert strengths == {(5, False)}
    assert first == second


def test_records_follow_objects_ongoing_bonus_and_its_target_played_back() -> None:
    """Issue class 7. Two identical Gideons, one with the +2 of a place
    ability that lasts (its source stays placed, place/colon-reading), both go
    to bob's hand and one comes back face up. The bonus was on the object it
    was given to; the Gideon played back is a new object without it, whichever
    Gideon it is."""

    def play(game: Game, zones: dict[str, int], which: int, _: int) -> None:
        g1 = game.new_card(GIDEON, zones["territory"], owner="bob")
        g2 = game.new_card(GIDEON, zones["territory"], owner="bob")
        ark = game.new_card(TRUMPET, zones["hand"], owner="bob")
        game.forget_history()
        _, handle = place(
            game,
            [ark],
            by="bob",
            into=zones["lob"],
            source=ark,
            colon=True,
            ongoing=Ongoing(g1, (("strength", 2),)),
        )
        game.move(g1, zones["hand"], by="bob")
        game.move(g2, zones["hand"], by="bob")
        back = (g1, g2)[which]
        game.move(back, zones["territory"], by="bob")
        assert game.is_active(handle)
        assert game.stat(back, "strength") == 5

    first, second = _both(play)
    assert first == second


def test_records_follow_objects_negated_move_into_a_hand() -> None:
    """Class: records follow objects. A negatable move takes a placed card
    into bob's hand, where it is private; bob plays a hand card face down.
    The move references the object it made only while that is public
    (3.0.9b), so negating it returns nothing, whichever card bob played
    (place/return-conditions)."""
    where = set()

    def play(game: Game, zones: dict[str, int], which: int, _: int) -> None:
        gideon = game.new_card(GIDEON, zones["territory"], owner="bob")
        trumpet = game.new_card(TRUMPET, zones["territory"], owner="bob")
        other = game.new_card(TRUMPET, zones["hand"], owner="bob")
        game.forget_history()
        place(game, [trumpet], by="bob", onto=gideon)
        with game.atomic():
            _, handle = relocate(game, Move(trumpet, zones["hand"], by="alice"), remember=True)
        game.move((trumpet, other)[which], zones["territory"], face="down", by="bob")
        negate(game, handle, by="alice")
        where.add((game.zone_name(game.location(trumpet)), game.host(trumpet)))

    first, second = _both(play)
    assert first == second
    assert len(where) == 2  # the Trumpet is in the hand in one game, in play in the other


def test_records_follow_objects_set_aside_enhancement_that_left_and_came_back() -> None:
    """Class: records follow objects. A set-aside enhancement joins its cards
    (set-aside/enhancement-joins-cards) and is discarded once none of them is
    left (the reading of "When all of the cards"). Taken to bob's hand, it is
    a new object there: a hand card bob moves face down into the set-aside
    area is not the enhancement, whichever card it is, and is not discarded."""

    def play(game: Game, zones: dict[str, int], which: int, _: int) -> None:
        hero = game.new_card(HERO, zones["territory"], owner="bob")
        cave = game.new_card(CAVE, zones["hand"], owner="bob")
        other = game.new_card(CAVE, zones["hand"], owner="bob")
        game.forget_history()
        end_turn_to(game, "bob", "preparation")
        set_aside(game, [hero], by="bob", source=cave)
        game.move(cave, zones["hand"], by="bob")
        game.move((cave, other)[which], zones["set_aside"], face="down", by="bob")
        return_cards(game, [hero], by="bob")

    first, second = _both(play)
    assert first == second


def test_records_follow_objects_placed_card_put_again_on_a_face_down_card() -> None:
    """Class: records follow objects. The Trumpet is placed on one of bob's
    two face-down look-alikes, leaves it, and bob moves one of them; then the
    Trumpet is placed on the one that moved. Whether it is where the first
    place ability put it would tell alice which face-down card moved, so a
    card placed on a private card is where it was placed only while it has
    not left it (place/implied-condition)."""

    def play(game: Game, zones: dict[str, int], which: int, _: int) -> None:
        gideon = game.new_card(GIDEON, zones["territory"], owner="bob")
        hosts = [game.new_card(HERO, zones["territory"], owner="bob") for _ in range(2)]
        trumpet = game.new_card(TRUMPET, zones["territory"], owner="bob")
        for host in hosts:
            game.flip(host, "down", by="bob")
        game.forget_history()
        _, handle = place(
            game, [trumpet], by="bob", onto=hosts[0], ongoing=Ongoing(gideon, (("strength", 2),))
        )
        assert game.is_active(handle)
        game.move(trumpet, Dest("field_of_battle"), by="bob")
        game.move(hosts[which], zones["lob"], face="down", by="bob")
        place(game, [trumpet], by="bob", onto=hosts[which])

    first, second = _both(play)
    assert first == second


def test_records_follow_objects_negated_place_returns_no_card_to_a_face_down_card() -> None:
    """Class: records follow objects. The Trumpet is placed on one of two
    face-down look-alikes, then placed on Gideon by a second place ability;
    bob moves one face-down card. Negating the second ability returns the
    Trumpet where it was placed (place/return-conditions) only to a card the
    rules can still follow, a public one: never to a face-down card that
    alice could not follow."""

    def play(game: Game, zones: dict[str, int], which: int, _: int) -> None:
        gideon = game.new_card(GIDEON, zones["territory"], owner="bob")
        hosts = [game.new_card(HERO, zones["territory"], owner="bob") for _ in range(2)]
        trumpet = game.new_card(TRUMPET, zones["territory"], owner="bob")
        for host in hosts:
            game.flip(host, "down", by="bob")
        game.forget_history()
        place(game, [trumpet], by="bob", onto=hosts[0])
        _, second = place(game, [trumpet], by="bob", onto=gideon)
        game.move(hosts[which], zones["lob"], face="down", by="bob")
        negate(game, second, by="alice")

    first, second = _both(play)
    assert first == second


def end_turn_to(game: Game, player: str, phase: str) -> None:
    while game.turn_player != player:
        game.end_turn()
    advance_to(game, phase)


# ----------------------------------------------------------------------
# At the table
# ----------------------------------------------------------------------


def _table_body() -> dict[str, Any]:
    cards = {
        "Gideon": {"type": "hero", "brigade": "red", "strength": 5, "toughness": 5},
        "Trumpet": {"type": "artifact"},
        "Horn": {"type": "artifact"},
        "Samson": {"type": "hero", "brigade": "blue", "strength": 8, "toughness": 6},
    }
    return {
        "ruleset": "redemption",
        "players": ["alice", "bob"],
        "seed": 3,
        "handle_key": HANDLE_KEY,
        "cards": cards,
        "setup": {
            "bob.territory": ["Gideon"],
            "bob.land_of_bondage": ["Trumpet"],
            "bob.hand": ["Horn"],
            "alice.territory": ["Samson"],
        },
    }


def _id_of(view: dict[str, Any], zone: str, name: str | None = None) -> str:
    objects = next(z for z in view["zones"] if z["zone"] == zone)["objects"]
    return str(next(o["id"] for o in objects if name is None or o.get("name") == name))


def _get(client: TestClient, table: str, token: str, what: str) -> Any:
    answer = client.get(f"/api/tables/{table}/{what}", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_records_follow_objects_at_the_table() -> None:
    """Issue class 6 at the table, where views, frames, ``/view`` and
    ``/legal`` come from the same engine: bob places the Trumpet with a bonus
    for Gideon, takes it to his hand and plays a hand card face down, the
    Trumpet at one table and the Horn at the other. Alice's frames, her
    ``/view`` and her ``/legal`` are the same at both, and Gideon shows no
    bonus."""
    seen: list[Any] = []
    with TestClient(create_app("sqlite://")) as client:
        for played in ("Trumpet", "Horn"):
            created = create(client, _table_body())
            with seated(client, created) as seats:
                frames = list(_bob_plays(seats, played))
                alice = created["seats"]["alice"]
                view = _get(client, created["table"], alice, "view")["view"]
                legal = _get(client, created["table"], alice, "legal")["legal"]
                territory = next(z for z in view["zones"] if z["zone"] == "bob.territory")
                gideon = next(o for o in territory["objects"] if o.get("name") == "Gideon")
                assert gideon["strength"] == 5
                seen.append((frames, view, legal))
    assert seen[0] == seen[1]


def _bob_plays(seats: dict[str | None, Seat], played: str) -> Iterator[Any]:
    bob = seats["bob"]
    steps: list[dict[str, Any]] = [
        {
            "place": {
                "cards": [_id_of(bob.view, "bob.land_of_bondage", "Trumpet")],
                "in": "bob.territory",
                "by": "bob",
                "ongoing": {"card": _id_of(bob.view, "bob.territory", "Gideon"), "strength": 2},
                "as": "p",
            }
        },
        {"move": {"card": "Trumpet", "to": "bob.hand", "by": "bob"}},
        {"move": {"card": played, "to": "bob.territory", "face": "down", "by": "bob"}},
    ]
    for step in steps:
        name, args = next(iter(step.items()))
        if name == "move":
            zone = "bob.territory" if args["to"] == "bob.hand" else "bob.hand"
            args["card"] = _id_of(bob.view, zone, args["card"])
        count = len(seats["alice"].frames)
        answer = act(seats, "bob", step)
        assert "ack" in answer, answer
        yield seats["alice"].frames[count:]
