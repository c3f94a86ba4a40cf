"""The Redemption database's types in the engine's words, card by card: every
kind of card the place and set-aside rules treat differently, read from the
repository's fixture of real cards (``tests/fixtures/cards``) and put through
the rule that kind matters for. Each test names the card and the rule id."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardzones import new_game
from cardzones.cards.importers import read_cards
from cardzones.cards.index import CardRecord
from cardzones.errors import IllegalAction
from cardzones.kernel.cards import CardDef
from cardzones.kernel.game import Game, MoveResult
from cardzones.rulesets.redemption import (
    advance_to,
    carddata,
    discard,
    is_set_aside,
    place,
    play_dominant,
    set_aside,
)
from cardzones.rulesets.redemption import cards as own
from cardzones.rulesets.redemption.cards import (
    CARD_TYPES,
    is_character,
    is_enhancement,
    is_site,
    is_territory_class,
)

FIXTURES = Path(__file__).parent / "fixtures" / "cards"


def _cards() -> dict[tuple[str, str], CardRecord]:
    result = read_cards(FIXTURES / "redemption-carddata.txt")
    assert not result.problems, result.problems
    return {(r.name, r.variant): r for r in result.records}


CARDS = _cards()


def record(name: str) -> CardRecord:
    found = [r for (n, _), r in CARDS.items() if n == name]
    assert len(found) == 1, name
    return found[0]


def card(name: str) -> CardDef:
    return record(name).cdef


def game() -> Game:
    g = new_game("redemption", ["alice", "bob"])
    return g


def put(g: Game, name: str, ztype: str, player: str = "alice") -> int:
    zid = g.zone(player, ztype)
    assert zid is not None
    return g.new_card(card(name), zid, owner=player)


def test_every_engine_type_comes_from_a_database_type() -> None:
    """Each type a scenario may give (and the rules test) is what some database
    type becomes, so an imported card can be any of them."""
    produced = {t for types in carddata.TYPES.values() for t in types}
    assert set(CARD_TYPES) <= produced


# -- characters, enhancements and brigades (set-aside/enhancement-outside-battle) --------------


def test_hero_and_evil_character_are_characters_with_brigades_and_stats() -> None:
    david = card("David, Giant Slayer [K]")
    assert david.types == {"hero"} and own.alignment(david) == "good"
    assert own.brigades(david) == {"green", "purple"} and own.classes(david) == {"warrior"}
    assert dict(david.stats) == {"strength": 12, "toughness": 10}
    pharaoh = card("Pharaoh, Ramses II [K]")
    assert pharaoh.types == {"evil_character"} and own.alignment(pharaoh) == "evil"
    assert own.brigades(pharaoh) == {"pale_green"}
    assert is_character(david) and is_character(pharaoh)


def test_given_to_israel_a_purple_good_enhancement_needs_a_purple_character() -> None:
    """set-aside/enhancement-outside-battle: Given to Israel [K] is GE, Purple; it may
    be played on Jonathan (Purple), and not on Hannah (Green)."""
    given = card("Given to Israel [K]")
    assert given.types == {"enhancement"} and own.alignment(given) == "good"
    assert own.brigades(given) == {"purple"}
    g = game()
    jonathan = put(g, "Jonathan, the Devoted [K]", "territory")
    hannah = put(g, "Hannah [K]", "territory")
    enhancement = put(g, "Given to Israel [K]", "hand")
    advance_to(g, "preparation")
    with pytest.raises(IllegalAction, match="brigade") as refused:
        set_aside(g, [hannah], by="alice", source=enhancement)
    assert refused.value.rule == "set-aside/enhancement-outside-battle"
    result, _ = set_aside(g, [jonathan], by="alice", source=enhancement)
    assert result is MoveResult.MOVED and is_set_aside(g, jonathan)


def test_egyptian_spear_is_an_evil_enhancement_of_its_brigade_and_class() -> None:
    spear = card("Egyptian Spear [K]")
    assert spear.types == {"enhancement"} and own.alignment(spear) == "evil"
    assert own.brigades(spear) == {"pale_green"} and own.classes(spear) == {"weapon"}
    g = game()
    archer = put(g, "Egyptian Archer [K]", "territory")
    source = put(g, "Egyptian Spear [K]", "hand")
    advance_to(g, "preparation")
    assert set_aside(g, [archer], by="alice", source=source)[0] is MoveResult.MOVED


def test_abandoned_a_ge_ee_card_is_an_enhancement_of_both_alignments_and_faces() -> None:
    """GE/EE: good and evil enhancement (neutral), 4 (0) / 0 (4): the good face's
    strength first, the other kept."""
    rec = record("Abandoned [K]")
    assert rec.cdef.types == {"enhancement"} and own.alignment(rec.cdef) == "neutral"
    assert own.brigades(rec.cdef) == {"green", "purple", "pale_green"}
    assert dict(rec.cdef.stats) == {"strength": 4, "toughness": 0}
    assert rec.source["other_face"] == {"strength": 0, "toughness": 4}
    assert is_enhancement(rec.cdef)


def test_bravery_of_david_a_territory_class_enhancement_may_target_an_opponents_card() -> None:
    """set-aside/enhancement-no-opponent-targets: a territory class enhancement
    (Bravery of David [K]) may set aside an opponent's card outside battle; one
    without the class (Given to Israel [K]) may not."""
    bravery = card("Bravery of David [K]")
    assert own.classes(bravery) == {"territory"} and is_territory_class(bravery)
    assert not is_territory_class(card("Given to Israel [K]"))
    g = game()
    jonathan = put(g, "Jonathan, the Devoted [K]", "territory")
    pharaoh = put(g, "Pharaoh, Ramses II [K]", "territory", "bob")
    plain = put(g, "Given to Israel [K]", "hand")
    territory = put(g, "Bravery of David [K]", "hand")
    advance_to(g, "preparation")
    with pytest.raises(IllegalAction) as refused:
        set_aside(g, [jonathan, pharaoh], by="alice", source=plain)
    assert refused.value.rule == "set-aside/enhancement-no-opponent-targets"
    area = g.zone("alice", "set_aside")
    result, _ = set_aside(g, [jonathan, pharaoh], by="alice", source=territory, area=area)
    assert result is MoveResult.MOVED


@pytest.mark.parametrize(
    ("name", "kind", "alignment", "brigades"),
    [
        ("Pharaoh's Curse", "curse", "evil", {"pale_green"}),
        ("Besieged", "curse", "evil", {"crimson"}),
        ("Covenant with David [K]", "covenant", "good", {"green", "purple"}),
    ],
)
def test_curses_and_covenants_are_enhancements_or_artifacts(
    name: str, kind: str, alignment: str, brigades: set[str]
) -> None:
    """A Curse is played as an evil enhancement or an artifact, a Covenant as a
    good one or an artifact: each has all three types, and as an enhancement it
    needs a character of its brigade (set-aside/enhancement-outside-battle)."""
    cdef = card(name)
    assert cdef.types == {kind, "enhancement", "artifact"}
    assert own.alignment(cdef) == alignment and own.brigades(cdef) == brigades
    g = game()
    character = "Egyptian Archer [K]" if kind == "curse" else "David, Giant Slayer [K]"
    target = put(g, character, "territory")
    source = put(g, name, "hand")
    advance_to(g, "preparation")
    if brigades & own.brigades(g.obj(target).cdef):
        assert set_aside(g, [target], by="alice", source=source)[0] is MoveResult.MOVED
    else:
        with pytest.raises(IllegalAction, match="brigade"):
            set_aside(g, [target], by="alice", source=source)


# -- dominants (set-aside/dominant-discards) ----------------------------------------------------


@pytest.mark.parametrize("name", ["Son of God [K]", "Murderous Command [K]", "Lord of Armies [K]"])
def test_dominants_discard_a_set_aside_card(name: str) -> None:
    cdef = card(name)
    assert cdef.types == {"dominant"}
    g = game()
    david = put(g, "David, Giant Slayer [K]", "territory")
    dominant = put(g, name, "hand")
    set_aside(g, [david], by="alice")
    assert play_dominant(g, dominant, david, by="alice") is MoveResult.MOVED
    assert g.zone_info(g.obj(david).zone).type == "discard"


def test_an_artifact_is_not_a_dominant() -> None:
    harp = card("David's Harp [K]")
    assert harp.types == {"artifact"} and own.alignment(harp) == "neutral"
    g = game()
    david = put(g, "David, Giant Slayer [K]", "territory")
    not_dominant = put(g, "David's Harp [K]", "hand")
    set_aside(g, [david], by="alice")
    with pytest.raises(IllegalAction, match="not a dominant"):
        play_dominant(g, not_dominant, david, by="alice")


# -- Lost Souls, sites, cities and fortresses (place/movement-exception-*) -----------------------


@pytest.mark.parametrize("site", ["Assyria", "Babylon", "Hebron", "Ashkelon"])
def test_a_lost_soul_placed_in_a_site_or_city_returns_to_the_land_of_bondage(site: str) -> None:
    """place/movement-exception-sites: Lost Soul "Dread" placed in Assyria (a Site)
    or Hebron (a City, a kind of site) goes back to the Land of Bondage when the
    site is discarded."""
    soul_card, site_card = card('Lost Soul "Dread" [Exodus 15:16 - K]'), card(site)
    assert soul_card.types == {"lost_soul"} and own.alignment(soul_card) == "neutral"
    assert is_site(site_card) and site_card.types <= {"site", "city"}
    g = game()
    soul = put(g, 'Lost Soul "Dread" [Exodus 15:16 - K]', "land_of_bondage")
    where = put(g, site, "territory")
    place(g, [soul], by="alice", onto=where)
    discard(g, where)
    assert g.zone_info(g.obj(soul).zone).type == "land_of_bondage"
    assert g.host(soul) is None


def test_a_lost_soul_placed_on_a_fortress_follows_it_as_any_placed_card() -> None:
    """place/movement-follows-underlying: David's Tent [K] is a Fortress, not a
    site, so the exception for sites does not apply."""
    tent = card("David's Tent [K]")
    assert tent.types == {"fortress"} and not is_site(tent)
    g = game()
    soul = put(g, "Lost Soul [Exodus 10:10 - K]", "land_of_bondage")
    fortress = put(g, "David's Tent [K]", "territory")
    place(g, [soul], by="alice", onto=fortress)
    discard(g, fortress)
    assert g.zone_info(g.obj(soul).zone).type == "discard"
    assert g.host(soul) == fortress


def test_a_card_placed_on_a_lost_soul_is_discarded_when_the_soul_leaves_its_land() -> None:
    """place/movement-exception-lost-soul, with Lost Soul "Awake" and David's Harp [K]."""
    g = game()
    soul = put(g, 'Lost Soul "Awake" [Ephesians 5:14 - TPC]', "land_of_bondage")
    harp = put(g, "David's Harp [K]", "territory")
    place(g, [harp], by="alice", onto=soul)
    g.move(soul, g.zone("bob", "land_of_bondage"))
    assert g.zone_info(g.obj(harp).zone).type == "discard"


# -- cards of two types, split cards and tokens ------------------------------------------------


def test_blood_avenger_is_a_hero_and_an_evil_character_with_a_split_strength() -> None:
    rec = record("Blood Avenger")
    assert rec.cdef.types == {"hero", "evil_character"} and own.alignment(rec.cdef) == "neutral"
    assert own.brigades(rec.cdef) == {"white", "brown"}
    assert dict(rec.cdef.stats) == {"strength": 3, "toughness": 5}  # "3 (2)", "5 (4)"
    assert rec.source["other_face"] == {"strength": 2, "toughness": 4}


def test_abihud_an_a_slash_b_card_is_found_by_either_face_with_strength_3_10() -> None:
    rec = record("Abihud, the Progeny / Abihud, the Exilarch (LoC)")
    assert dict(rec.cdef.stats) == {"strength": 3, "toughness": 2}  # "3(10)", "2(10)"
    assert rec.source["other_face"] == {"strength": 10, "toughness": 10}
    assert own.brigades(rec.cdef) == {"gold", "red"}  # "Gold (Gold/Red)"
    assert own.classes(rec.cdef) == {"star"}
    assert {"Abihud, the Progeny", "Abihud, the Exilarch"} <= set(rec.aliases)


def test_abram_abraham_a_slash_split_strength() -> None:
    rec = record("Abram/Abraham")
    assert dict(rec.cdef.stats) == {"strength": 5, "toughness": 6}  # "5/10", "6/11"
    assert rec.source["other_face"] == {"strength": 10, "toughness": 11}


def test_assyrian_camp_loc_is_an_evil_character_and_a_fortress() -> None:
    cdef = card("Assyrian Camp (LoC)")
    assert cdef.types == {"evil_character", "fortress"} and is_character(cdef)
    assert card("Assyrian Camp").types == {"fortress"}


def test_proselyte_token_is_an_evil_character_token() -> None:
    cdef = card("Proselyte Token")
    assert cdef.types == {"evil_character", "token"} and own.brigades(cdef) == {"gray"}


@pytest.mark.parametrize(
    ("text", "value", "other"),
    [
        ("3", 3, None),
        ("-3", -3, None),
        ("X", None, None),
        ("*", None, None),
        ("", None, None),
        ("3(10)", 3, 10),
        ("4 (0)", 4, 0),
        ("-(5)", None, 5),
        ("X (6)", None, 6),
        ("5/10", 5, 10),
    ],
)
def test_strength_and_toughness_texts(text: str, value: int | None, other: int | None) -> None:
    split = carddata.split_stat("strength", text)
    assert (split.value, split.other) == (value, other)


@pytest.mark.parametrize("text", ["(X)4", "three", "3((1))"])
def test_unreadable_strengths_are_problems(text: str) -> None:
    with pytest.raises(carddata.CardDataProblem, match="not a number"):
        carddata.split_stat("toughness", text)


def test_brigade_spellings() -> None:
    assert carddata.brigades("Good Gold") == {"gold"}
    assert carddata.brigades("Black/Crimson+Gold") == {"black", "crimson", "gold"}
    assert carddata.brigades("Green/White and Brown/Crimson") == {
        "green",
        "white",
        "brown",
        "crimson",
    }
    with pytest.raises(carddata.CardDataProblem, match="PurpleTeal"):
        carddata.brigades("Blue/PurpleTeal")


def test_the_databases_odd_rows_are_read_not_skipped() -> None:
    """Rows of the real database that were skipped: a row with empty cells
    past the header's last column, two brigades run together
    ("Blue/PurpleTeal"), and a two-faced toughness written other face first
    ("(X)4" beside a "4(X)" strength). The reader puts the database's slips
    right (cardfiles.repaired); read alone, such a text is still a problem
    (the tests above)."""
    from cardzones.rulesets.redemption.cardfiles import read_lackey

    header = (
        "Name\tSet\tImageFile\tOfficialSet\tType\tBrigade\tStrength\tToughness\tClass\t"
        "Identifier\tSpecialAbility\tRarity\tReference\tSound\tAlignment\tLegality"
    )
    rows = [
        "Benaiah, Lion Slayer [2025 - 1st Place]\tPmo-P3\tBenaiah\tPromo\tHero\tPurple\t10\t12\t"
        "Warrior\t\tWhile alone, negate Enhancements.\tRare\tII Samuel 23:20\t\tGood\tRotation"
        + "\t"
        * 14,
        "Melchizedek (CoW AB)\tCoW (AB)\tMelchizedek\tCloud of Witnesses\tHero\tBlue/PurpleTeal\t"
        "4\t4\tTerritory\tKing of Salem, Priest\tProtect your good Kings.\tRare\tGenesis 14:18\t\t"
        "Good\tRotation",
        "Mene, Mene, Tekel, Upharsin\tPoC\tMene\tProphecies of Christ\tGE/EE\t"
        "Silver/White/Crimson\t4(X)\t(X)4\t\tX = # of Babylonians in play\t"
        "Reveal 4 (or X) cards.\tRare\tDaniel 5:24\t\tNeutral\tRotation",
    ]
    read = list(read_lackey("\n".join([header, *rows]), "carddata.txt", lambda done, total: None))
    records = [found for _, found in read]
    assert all(isinstance(r, CardRecord) for r in records), records
    benaiah, melchizedek, mene = records
    assert benaiah.cdef.stats == {"strength": 10, "toughness": 12}
    assert sorted(melchizedek.cdef.extra["brigade"]) == ["blue", "purple", "teal"]
    assert mene.cdef.stats == {"strength": 4, "toughness": 4}
