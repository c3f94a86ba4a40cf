"""The forms of card text the procedure carries out, read into clauses, and
every other sentence kept as unknown (docs/card-text.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardzones.rulesets.fab.procedure import card_text as ct

FIXTURE = Path(__file__).parent / "fixtures" / "cards" / "fab-card.json"


@pytest.mark.parametrize(
    ("text", "clause"),
    [
        (
            "Target attack action card gets +3{p}.",
            ct.Clause(ct.POWER, ct.TARGET_ATTACK, amount=3, target=ct.Target((), True)),
        ),
        (
            "Target sword attack gains +2{p} until end of turn.",
            ct.Clause(ct.POWER, ct.TARGET_ATTACK, amount=2, target=ct.Target(("sword",))),
        ),
        (
            "Target weapon attack gains go again this turn.",
            ct.Clause(ct.GO_AGAIN, ct.TARGET_ATTACK, target=ct.Target(("weapon",))),
        ),
        ("This gets +2{d}.", ct.Clause(ct.DEFENSE, ct.SELF, amount=2)),
        ("Draw a card.", ct.Clause(ct.DRAW, ct.YOU, amount=1)),
        ("You gain 3{h}.", ct.Clause(ct.GAIN_LIFE, ct.YOU, amount=3)),
        (
            "The next attack action card you play this turn gains +1{p}.",
            ct.Clause(ct.POWER, ct.NEXT_ATTACK, amount=1),
        ),
        ("If Snatch hits, draw a card.", ct.Clause(ct.DRAW, ct.YOU, ct.HITS, 1)),
        ("When this hits a hero, gain 1{h}.", ct.Clause(ct.GAIN_LIFE, ct.YOU, ct.HITS, 1)),
        ("**Dominate**", ct.Clause(ct.DOMINATE, ct.SELF, ct.STATIC)),
        (
            "This can\u2019t be defended by more than one card from hand.",
            ct.Clause(ct.DOMINATE, ct.SELF, ct.STATIC),
        ),
    ],
)
def test_each_form_is_read_into_its_clause(text: str, clause: ct.Clause) -> None:
    reading = ct.read(text, "Snatch")
    assert reading == ct.Reading((clause,), ())


@pytest.mark.parametrize(
    "text",
    [
        "Choose 1; Target attack action card gets +2{p}.",
        "Reprise - If the defending hero has defended with a card from their hand, "
        "target sword attack gains +2{p}.",
        "Target your attack gets +2{p}.",
        "Deal 2 arcane damage to target hero.",
        "When this hits, target attack gets +1{p}.",
        "A text written for the tests: a sword that grows when it hits.",
    ],
)
def test_a_text_of_no_known_form_does_nothing(text: str) -> None:
    reading = ct.read(text)
    assert reading.clauses == ()
    assert reading.unknown


def test_go_again_in_the_text_is_the_keyword_and_several_sentences_read_in_order() -> None:
    reading = ct.read("**Go again**\nDraw a card. Gain 2{h}. Then something else.")
    assert [c.kind for c in reading.clauses] == [ct.DRAW, ct.GAIN_LIFE]
    assert reading.unknown == ("then something else",)


def test_no_text_reads_as_nothing() -> None:
    assert ct.read(None) == ct.Reading((), ())
    assert ct.read("") == ct.Reading((), ())


def test_the_fixture_cards_texts_carry_out_nothing_they_do_not_say() -> None:
    import json

    for record in json.loads(FIXTURE.read_text()):
        reading = ct.read(record.get("functional_text_plain") or "", record["name"])
        assert reading.clauses == (), record["name"]
