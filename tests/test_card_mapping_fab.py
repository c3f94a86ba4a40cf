"""The fab database's types in the engine's words, card by card: every kind of
card the zone rules treat differently, read from the repository's fixture of
real cards (``tests/fixtures/cards``) and put through the rule that kind matters
for. Each test names the card and the rule id."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardzones import new_game
from cardzones.cards.importers import read_cards
from cardzones.cards.index import CardRecord
from cardzones.errors import IllegalAction
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.game import Game, MoveResult
from cardzones.rulesets.fab import carddata
from cardzones.rulesets.fab.actions import try_create_token
from cardzones.rulesets.fab.cards import (
    DECK_TYPES,
    EQUIP_SUBTYPES,
    PERMANENT_SUBTYPES,
    becomes_permanent,
    category,
)

FIXTURES = Path(__file__).parent / "fixtures" / "cards"
SLOT_RULES = {"arms": "3.2.2a", "chest": "3.5.2a", "head": "3.10.2a", "legs": "3.12.2a"}


def _cards(name: str) -> dict[tuple[str, int | None], CardRecord]:
    result = read_cards(FIXTURES / name)
    assert not result.problems, result.problems
    return {(r.name, r.number): r for r in result.records}


JSON_CARDS = _cards("fab-card.json")
CSV_CARDS = _cards("fab-card.csv")


def card(name: str, pitch: int | None = None) -> CardDef:
    return JSON_CARDS[(name, pitch)].cdef


def game() -> Game:
    return new_game("fab", ["alice", "bob"])


def equip(g: Game, cdef: CardDef, ztype: str, number: int = 1) -> int:
    zid = g.zone("alice", ztype, number)
    assert zid is not None
    return g.new_card(cdef, zid, owner="alice", public=True)


def test_every_word_the_zone_rules_test_has_a_database_spelling() -> None:
    """If a rule set starts testing a new type word, the mapping must say how the
    database spells it (1.3.2c, 1.3.3, 8.5.41b, 3.16.2a, 8.2.15a, 8.1.8a)."""
    tested = DECK_TYPES | PERMANENT_SUBTYPES | EQUIP_SUBTYPES
    tested |= {"hero", "token", "weapon", "bow", "attack"}
    assert tested <= set(carddata.TYPE_WORDS.values())


def test_json_and_csv_give_the_same_cards() -> None:
    assert set(JSON_CARDS) == set(CSV_CARDS)
    for key, record in JSON_CARDS.items():
        assert CSV_CARDS[key].cdef == record.cdef, key


# -- weapons and equipment ----------------------------------------------------------


def test_edge_of_autumn_is_a_two_handed_sword_taking_both_weapon_zones_8_2_2() -> None:
    edge = card("Edge of Autumn")
    assert {"weapon", "sword", "2h", "ninja"} <= edge.types
    assert edge.stat("power") == 1
    g = game()
    cid = equip(g, edge, "weapon")
    w1, w2 = g.zones_of("alice", "weapon")
    assert g.obj(cid).equipped == (w1, w2)  # 8.2.2b, 8.2.2c


def test_dawnblade_two_hander_needs_two_empty_weapon_zones_8_2_2b() -> None:
    g = game()
    equip(g, card("Harmonized Kodachi"), "weapon", 2)
    with pytest.raises(IllegalAction, match=r"8\.2\.2b"):
        equip(g, card("Dawnblade"), "weapon", 1)


def test_harmonized_kodachi_is_a_one_hander_in_one_weapon_zone_3_16_2a() -> None:
    kodachi = card("Harmonized Kodachi")
    assert {"weapon", "1h"} <= kodachi.types and "2h" not in kodachi.types
    g = game()
    cid = equip(g, kodachi, "weapon", 1)
    assert g.obj(cid).equipped == (g.zone("alice", "weapon", 1),)
    assert equip(g, card("Harmonized Kodachi"), "weapon", 2)  # the other zone is free


def test_arcane_lantern_is_an_off_hand_and_a_second_is_refused_8_2_10() -> None:
    lantern, bastion = card("Arcane Lantern"), card("Bastion of Duty")
    assert {"equipment", "off-hand"} <= lantern.types and "weapon" not in lantern.types
    assert bastion.stat("defense") == 2
    g = game()
    equip(g, lantern, "weapon", 1)  # 8.2.10a
    with pytest.raises(IllegalAction, match=r"8\.2\.10b"):
        equip(g, bastion, "weapon", 2)


def test_quiver_of_rustling_leaves_joins_death_dealer_a_two_handed_bow_8_2_15() -> None:
    bow, quiver, nest = card("Death Dealer"), card("Quiver of Rustling Leaves"), card("Crow's Nest")
    assert {"weapon", "bow", "2h"} <= bow.types
    assert {"equipment", "quiver"} <= quiver.types and "quiver" in nest.types
    g = game()
    equip(g, bow, "weapon", 1)
    cid = equip(g, quiver, "weapon", 2)  # 8.2.15a: the bow's free zone
    assert g.obj(cid).equipped == (g.zone("alice", "weapon", 2),)


def test_crows_nest_cannot_join_edge_of_autumn_a_two_hander_that_is_no_bow_8_2_15a() -> None:
    g = game()
    equip(g, card("Edge of Autumn"), "weapon", 1)
    with pytest.raises(IllegalAction, match="not empty"):
        equip(g, card("Crow's Nest"), "weapon", 2)


@pytest.mark.parametrize(
    ("name", "slot", "rule"),
    [
        ("Crown of Seeds", "head", "3.10.2a"),
        ("Ironrot Helm", "head", "3.10.2a"),
        ("Fyendal's Spring Tunic", "chest", "3.5.2a"),
        ("Courage of Bladehold", "chest", "3.5.2a"),
        ("Braveforge Bracers", "arms", "3.2.2a"),
        ("Ironrot Gauntlet", "arms", "3.2.2a"),
        ("Ironrot Legs", "legs", "3.12.2a"),
        ("Nullrune Boots", "legs", "3.12.2a"),
    ],
)
def test_equipment_goes_to_its_own_slot_only(name: str, slot: str, rule: str) -> None:
    """Crown of Seeds is Earth Equipment - Head, Fyendal's Spring Tunic a chest,
    Braveforge Bracers arms, Ironrot Legs legs: each fits its zone only."""
    cdef = card(name)
    assert {"equipment", slot} <= cdef.types
    assert category(cdef) == "arena"  # 1.3.2d
    g = game()
    cid = equip(g, cdef, slot)
    assert g.obj(cid).equipped == (g.zone("alice", slot),)
    assert SLOT_RULES[slot] == rule
    for other in SLOT_RULES:
        if other != slot:
            # Each other slot refuses it, citing its own rule.
            with pytest.raises(IllegalAction, match=re.escape(SLOT_RULES[other])):
                equip(g, cdef, other)


# -- tokens ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "subtype"),
    [
        ("Embodiment of Lightning", "aura"),
        ("Runechant", "aura"),
        ("Copper", "item"),
        ("Aether Ashwing", "ally"),
    ],
)
def test_token_cards_are_permanents_that_cease_outside_the_arena_8_1_8a(
    name: str, subtype: str
) -> None:
    """Embodiment of Lightning is Elemental Token - Aura: a token-card (1.3.2b)
    that ceases to exist when it leaves the arena (8.1.8a)."""
    cdef = card(name)
    assert {"token", subtype} <= cdef.types
    assert category(cdef) == "token"
    g = game()
    result, cid = try_create_token(g, cdef, Dest("arena"), "alice")
    assert result is MoveResult.DONE and cid is not None
    assert g.is_permanent(cid)
    assert g.move(cid, Dest("graveyard", "alice")) is MoveResult.CEASED


def test_graphene_chelicera_is_a_token_weapon_created_equipped_8_5_41d() -> None:
    cdef = card("Graphene Chelicera")
    assert {"token", "weapon", "1h", "dagger"} <= cdef.types
    g = game()
    w2 = g.zone("alice", "weapon", 2)
    result, cid = try_create_token(g, cdef, Dest("weapon", "alice"), "alice", choose_zone=w2)
    assert result is MoveResult.DONE and cid is not None
    assert g.obj(cid).equipped == (w2,)


# -- permanents among deck-cards (1.3.3, 3.13.2) ---------------------------------------------


@pytest.mark.parametrize(
    ("name", "pitch", "subtypes"),
    [
        ("Frost Hex", 3, {"aura", "affliction"}),
        ("Merciful Retribution", 2, {"aura", "instant"}),
        ("Energy Potion", 3, {"item"}),
        ("Anka, Drag Under", 2, {"ally"}),
        ("Great Library of Solana", None, {"landmark"}),
    ],
)
def test_auras_items_allies_and_landmarks_become_permanents_in_the_arena_1_3_3(
    name: str, pitch: int | None, subtypes: set[str]
) -> None:
    """Frost Hex (Action - Affliction Aura), Energy Potion (Action - Item), Anka
    (Action - Ally), Great Library of Solana (Action - Landmark): deck-cards that
    are permanents in the permanent zone (1.3.3, 3.13.2), but not on the combat chain."""
    cdef = card(name, pitch)
    assert subtypes <= cdef.types
    assert category(cdef) == "deck"
    assert becomes_permanent(cdef, "permanent") and not becomes_permanent(cdef, "combat_chain")
    g = game()
    cid = g.new_card(cdef, g.zone("alice", "hand"), owner="alice")
    assert g.move(cid, Dest("arena")) is MoveResult.MOVED
    assert g.zone_info(g.obj(cid).zone).type == "permanent" and g.is_permanent(cid)


@pytest.mark.parametrize(
    ("name", "pitch", "word"),
    [
        ("Sigil of Solace", 1, "instant"),
        ("Boast", 3, "block"),
        ("Pummel", 1, "attack_reaction"),
        ("Sink Below", 1, "defense_reaction"),
        ("Hala Goldenhelm", None, "mentor"),
        ("Cracked Bauble", 2, "resource"),
        ("Snatch", 1, "action"),
    ],
)
def test_instants_blocks_and_reactions_are_deck_cards_that_are_not_permanents_1_3_2c(
    name: str, pitch: int | None, word: str
) -> None:
    """Sigil of Solace (Instant), Boast (Block), Pummel (Attack Reaction), Sink
    Below (Defense Reaction): deck-cards (1.3.2c) that the permanent zone refuses (3.13.2)."""
    cdef = card(name, pitch)
    assert word in cdef.types and category(cdef) == "deck"
    g = game()
    cid = g.new_card(cdef, g.zone("alice", "deck"), owner="alice")
    assert g.move(cid, Dest("hand", "alice")) is MoveResult.MOVED  # 3.9.2
    assert g.move(cid, Dest("permanent")) is MoveResult.FAILED  # 3.13.2


# -- heroes ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "life", "young"),
    [
        ("Dorinthea Ironsong", 40, False),
        ("Dorinthea", 20, True),
        ("Levia, Shadowborn Abomination", 40, False),
        ("Azalea, Ace in the Hole", 40, False),
    ],
)
def test_heroes_and_young_heroes_go_to_the_hero_zone_1_3_2a(
    name: str, life: int, young: bool
) -> None:
    """Dorinthea Ironsong (Warrior Hero) and Dorinthea (Warrior Hero - Young) are
    hero-cards (1.3.2a) that the hero zone takes (3.11.2), and no deck zone does."""
    cdef = card(name)
    assert "hero" in cdef.types and ("young" in cdef.types) == young
    assert cdef.stat("life") == life and cdef.stat("intellect") == 4
    g = game()
    g.new_card(cdef, g.zone("alice", "hero"), owner="alice")
    with pytest.raises(IllegalAction, match=r"3\.7\.2"):
        g.new_card(cdef, g.zone("alice", "deck"), owner="alice")


def test_arakni_black_widow_is_a_demi_hero_an_arena_card_not_a_hero_1_3_2d() -> None:
    cdef = card("Arakni, Black Widow")
    assert "demi-hero" in cdef.types and "hero" not in cdef.types
    assert "agent_of_chaos" in cdef.types  # a trait, in the same list
    assert category(cdef) == "arena"
    g = game()
    with pytest.raises(IllegalAction, match=r"3\.11\.2"):
        g.new_card(cdef, g.zone("alice", "hero"), owner="alice")


# -- pitch, stats and names -----------------------------------------------------------------


def test_snatch_has_three_colours_that_are_distinct_cards_1_3_4() -> None:
    powers = {p: card("Snatch", p).stat("power") for p in (1, 2, 3)}
    assert powers == {1: 4, 2: 3, 3: 2}
    assert {card("Snatch", p).stat("pitch") for p in (1, 2, 3)} == {1, 2, 3}


def test_stats_take_the_engine_names_and_varying_stats_are_kept_as_printed() -> None:
    hero = card("Dorinthea Ironsong")
    assert dict(hero.stats) == {"life": 40, "intellect": 4}  # health, intelligence
    assert card("Fyendal's Spring Tunic").keywords == frozenset({"blade_break"})
    widow = JSON_CARDS[("Arakni, Black Widow", None)]
    assert widow.source["printed"] == {"health": "*"}
    assert widow.cdef.stat("life") is None


def test_a_split_card_is_found_by_either_half() -> None:
    record = JSON_CARDS[("Arcane Seeds // Life", 1)]
    assert record.aliases == ("Arcane Seeds", "Life")
    assert {"action", "instant"} <= record.cdef.types


def test_the_type_line_is_read_when_a_record_has_no_list_of_types() -> None:
    cdef = carddata.card_def({"name": "Edge of Autumn", "type_text": "Ninja Weapon - Sword (2H)"})
    assert cdef.types == card("Edge of Autumn").types
    cdef = carddata.card_def({"name": "X", "type_text": "Guardian Equipment - Off-hand"})
    assert "off-hand" in cdef.types
