"""Redemption deck files as LackeyCCG writes them: each card's id (its
printing's picture file) and set pick the printing, a set written with a
space in its brackets (``Cornelius ( C)``) is found, and ``cards deck``
prints a scenario that ``check`` passes, printings that share a name
included."""

from __future__ import annotations

from pathlib import Path

import yaml
from typer.testing import CliRunner

from cardzones.cards.decks import read_deck, scenario_data, start_position
from cardzones.cards.index import CardIndex, CardRecord, ImportInfo
from cardzones.cards.lookup import CardLookup
from cardzones.cli import app
from cardzones.kernel.cards import CardDef
from cardzones.rulesets.redemption import cards as own
from cardzones.rulesets.redemption.decklist import read_lackey_deck
from cardzones.scenario.runner import PASS, run_text

DEK = Path(__file__).parent / "fixtures" / "decks" / "second-edition-part.dek"


def test_a_dek_file_gives_each_cards_id_and_set() -> None:
    entries = read_deck(DEK).entries
    assert [(e.name, e.set, e.id) for e in entries[:3]] == [
        ("Cornelius ( C)", "2E", "Cornelius_(CU)"),
        ("Stormy Seas", "3E", "Stormy_Seas_(E)"),
        ("Stormy Seas", "TPC", "Stormy_Seas_(PC)"),
    ]
    assert entries[4].id is None and entries[4].set == "2E"


def test_the_id_and_the_set_pick_one_printing_and_a_bracketed_set_resolves() -> None:
    with CardLookup("redemption") as cards:
        by_id = cards.find("Stormy Seas", card_set="3E", card_id="Stormy_Seas_(E)")
        by_set = cards.find("Stormy Seas", card_set="3E")
        other = cards.find("Stormy Seas", card_set="TPC", card_id="Stormy_Seas_(PC)")
        assert own.brigades(by_id.cdef) == own.brigades(by_set.cdef) == {"crimson"}
        assert own.brigades(other.cdef) == {"gold", "gray"}
        assert cards.find("Cornelius ( C)").cdef.stats == {"strength": 7, "toughness": 6}
        assert cards.find("Cornelius ( C)", card_set="2E").name == "Cornelius (C)"
        # An id the index does not know falls back on the name and set.
        assert cards.find("Stormy Seas", card_set="3E", card_id="nowhere").variant == "3E"


def test_printings_that_share_a_name_get_names_that_find_them_alone() -> None:
    position = start_position(read_deck(DEK), "alice")
    names = sorted(p.name for p in position.cards)
    assert names == [
        "Cornelius (C)",
        "Cornelius (C)",
        "Hannah [K]",
        "Stormy Seas (set 3E)",
        "Stormy Seas (set 3E)",
        "Stormy Seas (set TPC)",
        "Stormy Seas (set TPC)",
    ]
    brigades = {p.name: own.brigades(p.cdef) for p in position.cards}
    assert brigades["Stormy Seas (set 3E)"] == {"crimson"}
    assert brigades["Stormy Seas (set TPC)"] == {"gold", "gray"}
    data = scenario_data([position])
    assert run_text(yaml.safe_dump(data, sort_keys=False)).status == PASS


def test_cards_deck_output_passes_check(tmp_path: Path) -> None:
    runner = CliRunner()
    for dek in (DEK, DEK.with_name("k-starter-part.dek")):
        result = runner.invoke(app, ["cards", "deck", str(dek), "--player", "bob"])
        assert result.exit_code == 0, result.output
        scenario = tmp_path / f"{dek.stem}.scenario.yaml"
        scenario.write_text(result.output, encoding="utf-8")
        checked = runner.invoke(app, ["check", str(scenario)])
        assert checked.exit_code == 0, checked.output
        assert "1 passed, 0 failed" in checked.output


def test_a_printing_no_name_finds_alone_is_written_out_under_cards(tmp_path: Path) -> None:
    """A printing without a set, beside one with a set that differs for the
    engine: no name finds the first alone, so the scenario defines it."""

    def seas(variant: str, brigade: str, image: str) -> CardRecord:
        cdef = CardDef("Stormy Seas", frozenset({"enhancement"}), extra=own.own_fields({brigade}))
        return CardRecord("redemption", cdef, None, variant, source={"image": image})

    with CardIndex.create(tmp_path) as index:
        records = [seas("", "crimson", "Seas_(A)"), seas("3E", "gold", "Seas_(E)")]
        index.replace("redemption", records, ImportInfo("redemption-lackey", "x"))
    text = (
        '<deck><superzone name="Deck">'
        '<card><name id="Seas_(A)">Stormy Seas</name><set></set></card>'
        '<card><name id="Seas_(E)">Stormy Seas</name><set>3E</set></card>'
        "</superzone></deck>"
    )
    position = start_position(read_lackey_deck(text), "alice", home=tmp_path)
    assert sorted((p.name, p.define) for p in position.cards) == [
        ("Stormy Seas (Seas_(A))", True),
        ("Stormy Seas (set 3E)", False),
    ]
    data = scenario_data([position])
    assert data["cards"] == {
        "Stormy Seas (Seas_(A))": {"type": "enhancement", "brigade": ["crimson"]}
    }
