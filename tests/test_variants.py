"""A rule set's variants in its own words: a third game that tells apart its
cards of one name by a shade gets the card index, scenarios and deck starts
that fab gets for its pitch, in its words, with nothing of fab's."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from cardzones import Ruleset, ZoneSpec, register_ruleset, unregister_ruleset
from cardzones.acts.actions import Param, ParamKind
from cardzones.cards.errors import AmbiguousCard, CardDataError
from cardzones.cards.importers import import_file
from cardzones.cards.index import HOME_VARIABLE
from cardzones.cards.lookup import CardLookup
from cardzones.kernel.cards import Ability, CardDef
from cardzones.rulesets.cardfiles import CardFormat, CardRecord, Progress, Variants
from cardzones.scenario.runner import run_text

SHADE = Variants("shade", "shades", "tint", MappingProxyType({1: "light", 2: "dark"}))


def _read(text: str, file: str, progress: Progress) -> Iterator[tuple[int, CardRecord | str]]:
    """``name<TAB>shade<TAB>power``, one card a line under a header."""
    for number, line in enumerate(text.splitlines()[1:], start=2):
        name, shade, power = line.split("\t")
        stats = {"power": int(power), **({"shade": int(shade)} if shade else {})}
        number_of = int(shade) if shade else None
        yield number, CardRecord("shades", CardDef(name, stats=stats), number_of, shade)


class Shades(Ruleset):
    """A game whose cards of one name differ by their shade."""

    name = "shades"
    zone_specs = MappingProxyType({"hand": ZoneSpec("hand", public=True)})
    card_params = (Param("shade", ParamKind.INT), Param("power", ParamKind.INT))
    variants = SHADE
    card_formats = (
        CardFormat(
            "shades-tsv", "a shades pack", lambda head: head.startswith("name\tshade"), _read
        ),
    )

    def make_card(
        self, name: str, fields: Mapping[str, Any], abilities: Sequence[Ability] = ()
    ) -> CardDef:
        stats = {k: fields[k] for k in ("shade", "power") if fields.get(k) is not None}
        return CardDef(name, stats=stats, abilities=tuple(abilities))

    def card_fields(self, cdef: CardDef) -> dict[str, Any]:
        return dict(cdef.stats)


@pytest.fixture
def shades(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path))
    register_ruleset(Shades)
    pack = tmp_path / "pack.tsv"
    pack.write_text("name\tshade\tpower\nDusk\t1\t3\nDusk\t2\t5\nNoon\t\t4\n", encoding="utf-8")
    try:
        import_file(pack)
        yield
    finally:
        unregister_ruleset("shades")


def _scenario(entry: str, ruleset: str = "shades") -> str:
    data = f"card_data: {ruleset}\n" if ruleset == "shades" else ""
    return (
        f"name: shades\nruleset: {ruleset}\n{data}"
        f"setup: {{alice.hand: [{entry}]}}\n"
        "steps: [{expect: {card: Dusk@alice.hand, power: 5}}]\n"
    )


def test_the_index_finds_a_variant_and_asks_for_one_in_the_games_words(shades: None) -> None:
    with CardLookup("shades") as cards:
        assert cards.find("dusk", 2).cdef.stats["power"] == 5
        assert cards.numbers("Dusk") == [1, 2]
        with pytest.raises(
            AmbiguousCard, match=r"^Dusk has 2 shades: give shade: 1 \(light\) or 2 \(dark\)$"
        ):
            cards.find("Dusk")
        with pytest.raises(CardDataError, match=r"^Noon has no shade; leave shade out$"):
            cards.find("Noon", 1)


def test_a_scenario_picks_a_variant_by_the_games_key(shades: None) -> None:
    assert run_text(_scenario("{card: Dusk, shade: 2}")).status == "pass"
    outcome = run_text(_scenario("{card: Dusk, shade: 3}"))
    assert outcome.status == "invalid"
    assert outcome.message == "Dusk has no shade 3; give 1 (light) or 2 (dark)"
    outcome = run_text(_scenario("{card: Dusk, shade: dark}"))
    assert outcome.message == "shade: is a number, 1 (light) or 2 (dark), not 'dark'"


def test_another_games_key_is_refused_in_that_games_words(shades: None) -> None:
    outcome = run_text(_scenario("{card: Dusk, shade: 2}", ruleset="fab"))
    assert outcome.status == "invalid" and outcome.line == 3
    assert outcome.message == "shade: picks the tint of a shades card, not a fab one"
    outcome = run_text(_scenario("{card: Dusk, pitch: 2}"))
    assert outcome.message == "pitch: picks the colour of a fab card, not a shades one"
