"""Deck lists read into start positions: the hero and equipment in their zones,
the rest as the deck in list order; the result runs as a scenario."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from cardzones import new_game
from cardzones.cards.decks import read_deck, scenario_data, start_position
from cardzones.cards.errors import DeckListError
from cardzones.rulesets.fab.decklist import read_fab_deck
from cardzones.rulesets.redemption.decklist import read_lackey_deck
from cardzones.scenario.runner import PASS, run_text

DECKS = Path(__file__).parent / "fixtures" / "decks"
DORINTHEA = {
    "alice.hero": ["Dorinthea Ironsong"],
    "alice.weapon.1": ["Dawnblade"],
    "alice.arms": ["Braveforge Bracers"],
    "alice.chest": ["Fyendal's Spring Tunic"],
    "alice.head": ["Ironrot Helm"],
    "alice.legs": ["Ironrot Legs"],
}
DORINTHEA_DECK = Counter(
    {
        ("Driving Blade", 1): 3,
        ("Ironsong Response", 2): 3,
        ("Sink Below", 3): 2,
        ("Steelblade Supremacy", 1): 1,
        ("Warrior's Valor", 1): 3,
        ("Warrior's Valor", 3): 3,
    }
)


def zones(setup: dict[str, list[dict[str, object]]]) -> dict[str, list[object]]:
    return {z: [e["card"] for e in entries] for z, entries in setup.items() if z != "alice.deck"}


def deck_cards(setup: dict[str, list[dict[str, object]]]) -> Counter[tuple[object, object]]:
    return Counter((e["card"], e.get("pitch")) for e in setup["alice.deck"])


@pytest.mark.parametrize("file", ["dorinthea.fabrary.txt", "dorinthea.fabdb.txt"])
def test_fabrary_and_fabdb_exports_give_the_same_start_position(file: str) -> None:
    position = start_position(read_deck(DECKS / file), "alice")
    setup = position.setup()
    # FaBrary lists every arena card of the pool, here two chests: only the
    # first can start equipped (4.1.4a), the other is inventory (4.1.6).
    chest, spare = "Fyendal's Spring Tunic", "Courage of Bladehold"
    if "fabrary" in file:
        chest, spare = spare, chest
    assert zones(setup) == {**DORINTHEA, "alice.chest": [chest]}
    assert deck_cards(setup) == DORINTHEA_DECK
    assert [p.name for p in position.inventory] == ([spare] if "fabrary" in file else [])


def test_a_plain_list_places_a_two_handed_bow_and_its_quiver_8_2_15a() -> None:
    position = start_position(read_deck(DECKS / "azalea.txt"), "alice")
    setup = position.setup()
    assert zones(setup) == {
        "alice.hero": ["Azalea, Ace in the Hole"],
        "alice.weapon.1": ["Death Dealer"],
        "alice.weapon.2": ["Crow's Nest"],
        "alice.legs": ["Nullrune Boots"],
    }
    assert deck_cards(setup) == Counter(
        {
            ("Endless Arrow", 1): 3,
            ("Sink Below", 1): 2,
            ("Snatch", 2): 2,
            ("Mark of the Beast", 2): 1,
        }
    )
    # A second quiver cannot be equipped (8.2.15b); the sideboard stays out.
    assert Counter(p.name for p in position.inventory) == Counter(
        {"Quiver of Rustling Leaves": 1, "Sink Below": 2}
    )


def test_a_start_position_lists_the_deck_in_list_order_and_no_seed() -> None:
    """A printed start position is no secret (whoever reads it knows the
    order), so it shuffles nothing and names no seed: a table made from it
    shuffles the decks with a secret seed of its own."""
    deck = read_deck(DECKS / "azalea.txt")
    position = start_position(deck)
    listed = [e.name for e in deck.entries for _ in range(e.count) if e.section == "main"]
    in_deck = [e["card"] for e in position.setup()["alice.deck"]]
    assert in_deck == [n for n in listed if n in in_deck]
    assert "seed" not in scenario_data([position])


def test_the_start_position_runs_as_a_scenario() -> None:
    alice = start_position(read_deck(DECKS / "dorinthea.fabrary.txt"), "alice")
    bob = start_position(read_deck(DECKS / "azalea.txt"), "bob")
    data = scenario_data([alice, bob], name="Dorinthea against Azalea")
    data["steps"] = [
        {
            "expect": {
                "card": "Dawnblade@alice.weapon.1",
                "equipped_to": ["alice.weapon.1", "alice.weapon.2"],
            }
        },
        {"expect": {"card": "Crow's Nest@bob.weapon.2", "equipped_to": ["bob.weapon.2"]}},
        {"expect": {"zone": "alice.deck", "count": 15}},
        {"expect": {"zone": "bob.deck", "count": 8}},
        {"expect": {"view": "bob", "zone": "alice.deck", "shows": ["hidden"] * 15}},
    ]
    outcome = run_text(yaml.safe_dump(data, sort_keys=False))
    assert outcome.status == PASS, outcome.describe()


def test_place_puts_the_same_cards_into_a_game() -> None:
    position = start_position(read_deck(DECKS / "dorinthea.fabrary.txt"), "alice")
    game = new_game("fab", ["alice", "bob"], seed=2)
    placed = position.place(game)
    deck = [game.obj(c).cdef.name for c in game.contents(game.zone("alice", "deck"))]
    assert deck == [e["card"] for e in position.setup()["alice.deck"]]
    (dawnblade,) = placed["alice.weapon.1"]
    assert game.obj(dawnblade).equipped == tuple(game.zones_of("alice", "weapon"))


def test_a_redemption_dek_file_gives_a_deck_and_a_reserve() -> None:
    position = start_position(read_deck(DECKS / "k-starter-part.dek"), "bob")
    setup = position.setup()
    assert [e["card"] for e in setup["bob.reserve"]] == [
        "Covenant with David [K]",
        "Pharaoh's Curse",
    ]
    assert len(setup["bob.deck"]) == 14
    assert [p.name for p in position.inventory] == ["Proselyte Token"]
    data = scenario_data([position])
    data["steps"] = [{"expect": {"zone": "bob.deck", "count": 14}}]
    assert run_text(yaml.safe_dump(data, sort_keys=False)).status == PASS


@pytest.mark.parametrize(
    ("line", "name", "count", "pitch"),
    [
        ("3 Snatch (red)", "Snatch", 3, 1),
        ("3x Snatch (Red)", "Snatch", 3, 1),
        ("3 x Snatch (1)", "Snatch", 3, 1),
        ("(2) Snatch (yellow)", "Snatch", 2, 2),
        ("x2 Snatch (blue)", "Snatch", 2, 3),
        ("Snatch (blue) x3", "Snatch", 3, 3),
        ("Dawnblade", "Dawnblade", 1, None),
        ("1 Levia, Shadowborn Abomination", "Levia, Shadowborn Abomination", 1, None),
    ],
)
def test_card_lines(line: str, name: str, count: int, pitch: int | None) -> None:
    (entry,) = read_fab_deck(line).entries
    assert (entry.name, entry.count, entry.number) == (name, count, pitch)


def test_problems_are_listed_with_their_lines() -> None:
    deck = read_fab_deck(
        "Hero: Dorinthea Ironsong\n3 Snatch\n2 Snach (red)\n1 Dawnblade (red)\n"
        "2 Endless Arrow (blue)\n",
        "d.txt",
    )
    with pytest.raises(DeckListError) as failed:
        start_position(deck)
    assert str(failed.value).split("\n") == [
        "d.txt:2: Snatch comes in red, yellow and blue: write the colour, as in 3 Snatch (red)",
        "d.txt:3: no fab card called 'Snach' in the card index; closest: 'Snatch'",
        "d.txt:4: Dawnblade has no colour; write it without (red)",
        "d.txt:5: Endless Arrow comes in red, not blue",
    ]


def test_a_fab_list_needs_exactly_one_hero() -> None:
    with pytest.raises(DeckListError, match=r"exactly one hero \(3.11.4\); found none"):
        start_position(read_fab_deck("3 Snatch (red)\n"))
    two = read_fab_deck("Dorinthea Ironsong\nDorinthea\n3 Snatch (red)\n")
    with pytest.raises(DeckListError, match="found Dorinthea Ironsong, Dorinthea"):
        start_position(two)


def test_bad_files() -> None:
    with pytest.raises(DeckListError, match="no card found"):
        read_fab_deck("Name: nothing\n\n")
    with pytest.raises(DeckListError, match=r"not a LackeyCCG \.dek file"):
        read_lackey_deck("<deck><superzone>", "x.dek")
    with pytest.raises(DeckListError, match="starts with <deck>"):
        read_lackey_deck("<html></html>", "x.dek")
    with pytest.raises(DeckListError, match="is not a count"):
        read_fab_deck("0 Snatch (red)")


def test_definitions_give_each_card_once_and_each_pitch_apart() -> None:
    deck = read_fab_deck("Hero: Dorinthea Ironsong\n2 Snatch (red)\n1 Snatch (blue)\nDawnblade\n")
    definitions = start_position(deck).definitions()
    assert definitions["Snatch (pitch 1)"]["power"] == 4
    assert definitions["Snatch (pitch 3)"]["power"] == 2
    assert definitions["Dawnblade"]["types"] == ["2h", "sword", "warrior", "weapon"]
    assert set(definitions) == {
        "Dorinthea Ironsong",
        "Snatch (pitch 1)",
        "Snatch (pitch 3)",
        "Dawnblade",
    }
