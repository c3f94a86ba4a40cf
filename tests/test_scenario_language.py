"""The scenario language's shorthands and conveniences: ``draw`` and
``pitch`` log exactly the events of the moves they stand for, ``ZONE[i]``
reads unquoted inside a flow mapping, and ``rules:`` ids are checked."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cardzones.kernel.logview import log_view, omniscient_log
from cardzones.kernel.views import view
from cardzones.position.loader import load_text
from cardzones.scenario.runner import FAIL, INVALID, PASS, run_text


def _game_after(ruleset: str, setup: str, steps: list[str]) -> object:
    text = f"name: x\nruleset: {ruleset}\nseed: 3\nsetup: {setup}\nsteps:\n" + "".join(
        f"  - {step}\n" for step in steps
    )
    # One handle key for every game here, so that their views can be compared.
    outcome = run_text(text, handle_key="same key")
    assert outcome.status == PASS, outcome.describe()
    assert outcome.context is not None
    return outcome.context.game


def _same_everywhere(a: object, b: object) -> None:
    """The same state, the same log for the author and every player, the same views."""
    assert a.same_state(b)  # type: ignore[attr-defined]
    assert omniscient_log(a) == omniscient_log(b)  # type: ignore[arg-type]
    for player in ("alice", "bob", None):
        assert log_view(a, player) == log_view(b, player)  # type: ignore[arg-type]
        assert view(a, player) == view(b, player)  # type: ignore[arg-type]


@given(
    ruleset=st.sampled_from(["fab", "redemption"]),
    deck=st.integers(1, 6),
    data=st.data(),
)
def test_draw_logs_the_events_of_the_moves_it_stands_for(
    ruleset: str, deck: int, data: st.DataObject
) -> None:
    count = data.draw(st.integers(1, deck))
    player = data.draw(st.sampled_from(["alice", "bob"]))
    cards = ", ".join(f"C{i}" for i in range(deck))
    setup = f"{{{player}.deck: [{cards}], {player}.hand: [H]}}"
    drawn = _game_after(ruleset, setup, [f"draw: {{player: {player}, count: {count}}}"])
    moved = _game_after(
        ruleset,
        setup,
        [f"move: {{card: {player}.deck[0], to: {player}.hand, by: {player}}}"] * count,
    )
    _same_everywhere(drawn, moved)


def test_draw_is_one_action_undone_as_one() -> None:
    game = _game_after("fab", "{alice.deck: [A, B, C]}", ["draw: {count: 3}"])
    game.undo()  # type: ignore[attr-defined]
    fresh = _game_after("fab", "{alice.deck: [A, B, C]}", ["expect: {turn: 1}"])
    assert game.same_state(fresh)  # type: ignore[attr-defined]


def test_a_refused_draw_changes_nothing() -> None:
    outcome = run_text(
        "name: x\nruleset: fab\nsetup: {alice.deck: [A]}\nsteps:\n"
        '  - draw: {count: 2, error: "alice\'s deck has 1 card(s): alice cannot draw 2"}\n'
        "  - draw: {count: 0, error: x}\n"
    )
    assert outcome.status == INVALID
    assert outcome.message == "count must be 1 or more"


@given(card=st.sampled_from(["Snatch", "Sink Below"]), by=st.booleans())
def test_pitch_logs_the_events_of_the_move_it_stands_for(card: str, by: bool) -> None:
    setup = "{alice.hand: [{card: Snatch, as: a}, {card: Sink Below, as: b}], bob.hand: [X]}"
    label = {"Snatch": "$a", "Sink Below": "$b"}[card]
    who = ", by: alice" if by else ""
    pitched = _game_after("fab", setup, [f"pitch: {{card: {label}{who}}}"])
    moved = _game_after("fab", setup, [f"move: {{card: {label}, to: alice.pitch, by: alice}}"])
    _same_everywhere(pitched, moved)


def test_pitch_is_fab_only() -> None:
    outcome = run_text(
        "name: x\nruleset: redemption\nsetup: {alice.hand: [{card: A, as: a}]}\n"
        "steps:\n  - pitch: {card: $a}\n"
    )
    assert outcome.status == INVALID
    assert "unknown action 'pitch' for redemption" in outcome.message


# -- ZONE[i] in a flow mapping --------------------------------------------


def test_an_unquoted_zone_index_reads_inside_flow_collections() -> None:
    doc = load_text(
        "a: {card: alice.deck[0], to: alice.hand}\n"
        "b: {card: alice.deck[-1]}\n"
        "c: [alice.deck[2], bob.hand[10], $x]\n"
        "d: {card: Soul@alice.hero[1]}\n"
        "e: [1, [2, 3], {f: [g]}]\n"
        "h: alice.deck[0]\n"
    )
    assert doc == {
        "a": {"card": "alice.deck[0]", "to": "alice.hand"},
        "b": {"card": "alice.deck[-1]"},
        "c": ["alice.deck[2]", "bob.hand[10]", "$x"],
        "d": {"card": "Soul@alice.hero[1]"},
        "e": [1, [2, 3], {"f": ["g"]}],
        "h": "alice.deck[0]",
    }


def test_an_unquoted_zone_index_in_a_step_names_the_card() -> None:
    outcome = run_text(
        "name: x\nruleset: fab\nsetup: {alice.deck: [A, B, C]}\nsteps:\n"
        "  - move: {card: alice.deck[1], to: alice.hand}\n"
        "  - move: {card: alice.deck[-1], to: alice.graveyard}\n"
        "  - expect: {zone: alice.hand, cards: [B]}\n"
        "  - expect: {zone: alice.graveyard, cards: [C]}\n"
    )
    assert outcome.status == PASS, outcome.describe()


def test_a_name_with_brackets_unquoted_in_a_flow_list_says_to_quote_it() -> None:
    text = (
        "name: x\nruleset: redemption\ncards:\n  'Abandoned [K]': {type: hero}\n"
        "setup: {alice.hand: [Abandoned [K]]}\nsteps:\n  - expect: {turn: 1}\n"
    )
    outcome = run_text(text)
    assert outcome.status == INVALID
    assert outcome.line == 5
    assert 'a name holding brackets is quoted, as in ["Abandoned [K]"]' in outcome.message
    quoted = run_text(text.replace("[Abandoned [K]]", "['Abandoned [K]']"))
    assert quoted.status == PASS, quoted.describe()


# -- rules: ----------------------------------------------------------------


def test_an_unknown_rule_id_is_invalid_and_names_the_closest() -> None:
    outcome = run_text(
        'name: x\nruleset: fab\nrules:\n  - "3.0.9"\n  - "3.0.99"\nsteps: [{expect: {turn: 1}}]\n'
    )
    assert outcome.status == INVALID
    assert outcome.line == 5
    assert outcome.message.startswith(
        "rules: '3.0.99' is not a rule id of fab; the closest are 3.0.9"
    )


def test_an_unquoted_rule_id_read_as_a_number_says_to_quote_it() -> None:
    # YAML reads 1.10 as 1.1, which no text has.
    outcome = run_text("name: x\nruleset: fab\nrules: [1.10]\nsteps: [{expect: {turn: 1}}]\n")
    assert outcome.status == INVALID
    assert "quote rule ids" in outcome.message


def test_rules_cited_in_words_or_by_a_section_heading_are_taken_as_they_are() -> None:
    # A rules text without numbered ids (Redemption's) is cited in words, as in
    # the bundled example; a fab section heading ("3.7 Deck") names a whole zone;
    # rules of the texts that the engine does not list as implemented (1.2.3b)
    # are still rules.
    for ruleset, rules in (
        ("redemption", '["place: movement of placed cards"]'),
        ("fab", '["3.7", "1.2.3b", "3.0.9 (a new object)"]'),
    ):
        outcome = run_text(
            f"name: x\nruleset: {ruleset}\nrules: {rules}\nsteps: [{{expect: {{turn: 1}}}}]\n"
        )
        assert outcome.status == PASS, outcome.describe()


def test_an_unknown_redemption_rule_id_names_the_closest() -> None:
    outcome = run_text(
        "name: x\nruleset: redemption\nrules: [place/defintion]\nsteps: [{expect: {turn: 1}}]\n"
    )
    assert outcome.status == INVALID
    assert "the closest are place/definition" in outcome.message


def test_rule_ids_the_rule_set_leaves_out_are_known() -> None:
    outcome = run_text(
        'name: x\nruleset: fab\nrules: ["3.0.6", "3.0.9"]\nsteps: [{expect: {turn: 1}}]\n'
    )
    assert outcome.status == PASS, outcome.describe()


# ----------------------------------------------------------------------
# Class: the scenario language says what docs/scenarios.md says of it
# ----------------------------------------------------------------------


def test_every_action_of_every_rule_set_takes_by() -> None:
    """Class: "In every action, `by: PLAYER` is the player doing it"
    (docs/scenarios.md). Every action of each rule set's table takes it, and a
    name that is no player makes the file invalid, in every action alike."""
    from cardzones import get_ruleset

    for ruleset in ("fab", "redemption"):
        for name, action in get_ruleset(ruleset).actions.items():
            assert any(p.name == "by" for p in action.params), (ruleset, name)
    steps = [
        "modify: {card: $a, power: +1, by: carol}",
        "grant: {card: $a, keyword: go_again, by: carol}",
        "end_turn: {by: carol}",
        "create_zone: {zone: alice.arsenal, by: carol}",
    ]
    for step in steps:
        text = (
            "name: x\nruleset: fab\nsetup:\n  alice.hand: [{card: A, as: a}]\n"
            f"steps:\n  - {step}\n"
        )
        outcome = run_text(text)
        assert outcome.status == INVALID, (step, outcome.describe())
        assert "carol" in outcome.message and outcome.line == 6, outcome.describe()


def test_a_zone_that_ceased_to_exist_is_expected_not_to_exist_3_0_10() -> None:
    """Class: an expectation can say a zone no longer exists (`exists: false`),
    and `exists: true` fails for one that ceased (3.0.10c: the others are
    numbered again)."""
    head = (
        "name: x\nruleset: fab\nsetup:\n  alice.hand: [A]\nsteps:\n"
        "  - create_zone: {zone: alice.arsenal}\n  - remove_zone: {zone: alice.arsenal}\n"
    )
    assert run_text(head + "  - expect: {zone: alice.arsenal.2, exists: false}\n").status == PASS
    assert run_text(head + "  - expect: {zone: alice.arsenal.1, exists: true}\n").status == PASS
    failed = run_text(head + "  - expect: {zone: alice.arsenal.2, exists: true}\n")
    assert failed.status == FAIL and "should exist" in failed.message, failed.describe()
    failed = run_text(head + "  - expect: {zone: alice.arsenal.1, exists: false}\n")
    assert failed.status == FAIL and "should not exist" in failed.message, failed.describe()


def test_an_event_filter_on_a_zone_that_does_not_exist_is_an_invalid_file() -> None:
    """Class: an event filter naming a numbered zone that names no zone now
    (after renumbering, 3.0.10) is an invalid file with its line, not a filter
    that silently matches nothing, for `from:` and `to:` alike."""
    for key in ("from", "to"):
        text = (
            "name: x\nruleset: fab\nsetup:\n  alice.hand: [{card: A, as: a}]\nsteps:\n"
            "  - create_zone: {zone: alice.arsenal}\n"
            "  - move: {card: $a, to: alice.arsenal.2}\n"
            "  - remove_zone: {zone: alice.arsenal.1}\n"
            f"  - expect: {{events: {{{key}: alice.arsenal.2}}, count: 0}}\n"
        )
        outcome = run_text(text, "f.scenario.yaml")
        assert outcome.status == INVALID, outcome.describe()
        assert outcome.line == 9 and "names no zone now" in outcome.message, outcome.describe()
