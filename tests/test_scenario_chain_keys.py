"""The expectations a ruling writer uses for chain links, a player's zones of
one type as a whole, a layer's source, a soul in an event filter and the
tapped state: what they say when they do not hold, and the clear refusal of a
file that uses them wrongly."""

from __future__ import annotations

import pytest

from cardzones import run_text
from cardzones.scenario.runner import FAIL, INVALID

FAB = """name: probe
ruleset: fab
cards:
  Dawnblade: {types: [warrior, weapon, sword, 2h], power: 3}
  Boltyn: {types: [light, warrior, hero]}
setup:
  alice.weapon: [{card: Dawnblade, as: blade}]
  alice.hero: [{card: Boltyn, as: hero}]
  bob.hand: [{card: Sink Below, as: sink}]
steps:
  - attack: {card: $blade, as: swing}
  - resolve: {}
  - move: {card: $sink, to: combat_chain}
"""


@pytest.mark.parametrize(
    ("step", "message"),
    [
        ("{chain_link: 1, attack: Snatch}", "the attack of chain link 1 should be Snatch, found"),
        ("{chain_link: 1, attack: $blade}", "should be $blade, found Dawnblade"),
        ("{chain_link: 1, defending: []}", "by [] (in any order), found ['Sink Below']"),
        (
            "{chain_link: 2, attack: Dawnblade}",
            "there should be a chain link 2, but the chain of attacks",
        ),
        ("{chain_link: 1, exists: false}", "chain link 1 should not exist"),
        ("{zones: alice.arsenal, empty: false}", "alice's arsenal zones should not be empty"),
        (
            "{zones: bob.hand, cards: [Sink Below]}",
            "should hold ['Sink Below'] (in any order), found []",
        ),
        ("{layer: 1, source: $hero}", "no layer 1"),
        ("{card: $blade, tapped: true}", "tapped should be true, found false"),
        ("{events: {to: alice.soul}, count: 1}", "1 event(s) should match"),
    ],
)
def test_a_new_expectation_that_does_not_hold_says_what_it_found(step: str, message: str) -> None:
    outcome = run_text(FAB + f"  - expect: {step}\n")
    if message == "no layer 1":
        assert outcome.status == FAIL and "there should be a layer 1" in outcome.message
        return
    assert outcome.status == FAIL, outcome.describe()
    assert message in outcome.message, outcome.message


@pytest.mark.parametrize(
    ("step", "message"),
    [
        ("{chain_link: 0}", "chain links are numbered from 1"),
        ("{chain_link: 2, exists: false, attack: X}", "does not exist has nothing to check"),
        ("{chain_link: 1, attack: 3}", "attack is a card name or a card reference"),
        ("{chain_link: 1, defending: Sink Below}", "defending must be a list of card names"),
        ("{chain_link: 1, colour: red}", "allowed"),
        ("{zones: alice.arsenal.2, empty: true}", "zones names a player's zones of one type"),
        ("{zones: stack, count: 0}", "zones names a player's zones of one type"),
        ("{zones: alice.soul, count: 0}", "zones names a player's zones of one type"),
        ("{card: $blade, tapped: maybe}", "tapped"),
    ],
)
def test_a_new_expectation_used_wrongly_makes_the_file_invalid(step: str, message: str) -> None:
    outcome = run_text(FAB + f"  - expect: {step}\n")
    assert outcome.status == INVALID, outcome.describe()
    assert message in outcome.message, outcome.message
    assert outcome.line is not None


def test_a_layers_source_names_a_card_and_tells_copies_apart() -> None:
    again = FAB + "  - attack: {card: $blade}\n"
    unknown = run_text(again + "  - expect: {layer: 1, source: $nobody}\n")
    assert unknown.status == INVALID and "$nobody" in unknown.message
    other = run_text(again + "  - expect: {layer: 1, source: $hero}\n")
    assert other.status == FAIL and "should come from $hero, found a layer of Dawnblade" in (
        other.message
    )
    assert run_text(again + "  - expect: {layer: 1, source: $blade}\n").status == "pass"


def test_redemption_has_no_chain_links_and_no_tapped_state() -> None:
    base = "name: r\nruleset: redemption\nsetup: {alice.territory: [{card: S, as: s}]}\nsteps:\n"
    chain = run_text(base + "  - expect: {chain_link: 1, exists: false}\n")
    assert chain.status == INVALID and "has no chain of attacks" in chain.message
    tapped = run_text(base + "  - expect: {card: $s, tapped: false}\n")
    assert tapped.status == INVALID and "never tapped" in tapped.message
