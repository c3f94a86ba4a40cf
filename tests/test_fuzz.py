"""Fuzzing the scenario language: random and mutated YAML never crashes
``cardzones check``.

The property (SCENARIOS.md): whatever the file holds, the outcome is pass
(exit 0), an expectation that failed (exit 1) or an invalid file (exit 2). An
invalid file always says ``file:line: message``. No traceback is ever printed,
and the runner's catch-all for engine bugs (``internal error``) never fires.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cardzones.cli import app
from cardzones.position.card_data import variant_keys
from cardzones.position.start import ENTRY_KEYS, TOP_KEYS
from cardzones.rulesets import get_ruleset
from cardzones.scenario.expect import CARD_KEYS, EVENT_FILTER_KEYS, GAME_KEYS, ZONE_KEYS
from cardzones.scenario.runner import (
    COMMON,
    FAIL,
    INTERNAL,
    INVALID,
    PASS,
    Outcome,
    run_file,
    run_text,
)

ROOT = Path(__file__).resolve().parent.parent
FILE = "fuzz.scenario.yaml"

SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _seeds() -> list[str]:
    paths = [
        *sorted((ROOT / "scenarios").rglob("*.scenario.yaml")),
        *sorted((ROOT / "cardzones" / "examples").glob("*.scenario.yaml")),
    ]
    return [path.read_text(encoding="utf-8") for path in paths]


SEEDS = _seeds()
assert SEEDS, "the scenario corpus is missing"


def check_outcome(outcome: Outcome, file: str = FILE) -> None:
    """The property every run of a scenario file must have."""
    assert outcome.status in (PASS, FAIL, INVALID)
    assert INTERNAL not in outcome.message, outcome.message
    assert "Traceback" not in outcome.message, outcome.message
    if outcome.status == INVALID:
        assert outcome.file == file
        assert isinstance(outcome.line, int) and outcome.line >= 1, (
            f"an invalid file without a line: {outcome.message}"
        )
        assert outcome.message.strip()
    if outcome.status == FAIL:
        assert isinstance(outcome.line, int) and outcome.step is not None


def check_text(text: str) -> Outcome:
    outcome = run_text(text, FILE)
    check_outcome(outcome)
    return outcome


# ----------------------------------------------------------------------
# Mutations of the real scenario files
# ----------------------------------------------------------------------

#: Values of other types and odd spellings, to put where a value was.
ODD_VALUES = [
    "null",
    "~",
    "true",
    "no",
    "on",
    "0",
    "-1",
    "-0",
    "1.5",
    ".inf",
    "-.inf",
    ".nan",
    "99999999999999999999999999999",
    "-99999999999999999999",
    "1e400",
    "0x1F",
    "0o17",
    "2001-12-14",
    "[]",
    "{}",
    "[1, [2, [3]]]",
    "{a: {b: {c: 1}}}",
    "''",
    '""',
    '"ünïcødé ✓ 🂡"',
    '"\\u0000"',
    '"\\t"',
    "!!binary aGVsbG8=",
    "!!set {a, b}",
    "!!omap [{a: 1}, {b: 2}]",
    "!!pairs [{a: 1}]",
    "!!str 5",
    "!!int '7'",
    "!!float 1",
    "&anchor x",
    "*undefined_alias",
    "$",
    "$ghost",
    "@",
    "@alice.hand",
    "X@",
    "alice.hand[",
    "alice.hand[999999999999999999999]",
    "alice.hand[-1]",
    "alice.weapon.0",
    "alice.weapon.99",
    "zed.hand",
    "alice.nowhere",
    "owner.deck",
    "you.soul",
    "arena",
    "alice.soul",
    "stack",
    "permanent",
    "combat_chain",
    "alice.arena",
    "stack.2",
    "field_of_battle",
    "bob.land_of_bondage",
    "up",
    "down",
    "top",
    "bottom",
    "rule",
    "effect",
    "moved",
    "failed",
    "done",
    "end_of_turn",
    "+2",
    "-3",
    "'+x'",
    '"[/red]"',
    '"[bold]x"',
    "'%s %d {0}'",
    "'\\\\'",
    '"a\\nb"',
    "|",
    ">",
    "- a",
    "? x",
    "!!python/name:os.system",
    "[" * 60 + "]" * 60,
    "{a: " * 40 + "1" + "}" * 40,
]

TABLES = [get_ruleset("fab").actions, get_ruleset("redemption").actions]
#: The numbers of both rule sets' cards, which card expectations name.
NUMBERS = {n for g in ("fab", "redemption") for n in get_ruleset(g).numbers.modified}
#: Every action a step may name, in either rule set.
ACTIONS = list(dict.fromkeys([*TABLES[0], *TABLES[1], "expect", "mark"]))
#: The keys of the general move, from its action table entry.
MOVE_KEYS = {p.name for p in TABLES[0]["move"].params}
#: The keys of actions and expectations: those the scenario layer keeps in
#: sets, and the parameters of the actions of both tables.
ARG_KEYS = list(
    dict.fromkeys(
        [
            *sorted(MOVE_KEYS | COMMON),
            *sorted(CARD_KEYS | ZONE_KEYS | GAME_KEYS | EVENT_FILTER_KEYS | NUMBERS),
            "top",
            "kind",
            "source",
            "layer",
            "order",
            "keyword",
            "until",
            "view",
            "shows",
            "events",
            "effect",
            "active",
            "onto",
            "duration",
            "area",
            "ongoing",
            "colon",
            "target",
            "played_on",
            "in_battle",
            *(p.name for table in TABLES for action in table.values() for p in action.params),
        ]
    )
)
#: Keys to add: every key the format knows, wherever it belongs, and some it
#: does not.
ODD_KEYS = list(
    dict.fromkeys(
        [
            *sorted(TOP_KEYS),
            *sorted(ENTRY_KEYS),
            *sorted(variant_keys()),
            *ARG_KEYS,
            *ACTIONS,
            "types",
            "abilities",
            "replace",
            "trigger",
            "play_from",
            "bogus",
            "on",
            "yes",
            "<<",
            "'1'",
            "'ü'",
            '""',
        ]
    )
)


_VALUE = re.compile(r"(:\s+|-\s+|\[|,\s*)([^\s,\[\]{}:#][^,\[\]{}:#]*?)(?=\s*[,\]}]|\s*$)")


def _lines(text: str) -> list[str]:
    return text.split("\n")


@st.composite
def mutation(draw: st.DrawFn, text: str) -> str:
    """One small change to a scenario file."""
    lines = _lines(text)
    n = len(lines)
    kind = draw(
        st.sampled_from(
            [
                "delete",
                "duplicate",
                "swap",
                "truncate",
                "value",
                "value",
                "value",
                "key",
                "bad_ref",
                "insert_text",
                "indent",
                "anchor",
                "nest",
                "replace_char",
                "laughs",
            ]
        )
    )
    i = draw(st.integers(0, max(0, n - 1)))
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    elif kind == "swap":
        j = draw(st.integers(0, max(0, n - 1)))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "truncate":
        return text[: draw(st.integers(0, len(text)))]
    elif kind == "value":
        matches = list(_VALUE.finditer(lines[i]))
        if matches:
            m = draw(st.sampled_from(matches))
            new = draw(st.sampled_from(ODD_VALUES))
            lines[i] = lines[i][: m.start(2)] + new + lines[i][m.end(2) :]
    elif kind == "key":
        indent = re.match(r"\s*(- )?", lines[i])
        pad = " " * len(indent.group(0)) if indent else ""
        key = draw(st.sampled_from(ODD_KEYS))
        value = draw(st.sampled_from(ODD_VALUES[:30]))
        lines.insert(i + draw(st.integers(0, 1)), f"{pad}{key}: {value}")
    elif kind == "bad_ref":
        swaps = [
            ("$", "$zz"),
            ("alice.", "zed."),
            ("alice.", "bob."),
            ("bob.", "alice."),
            ("@", "@alice.nowhere#"),
            ("[0]", "[42]"),
            ("[-1]", "[-99]"),
            (".1", ".7"),
            ("fab", "redemption"),
            ("redemption", "fab"),
            ("up", "sideways"),
            ("top", "-5"),
            ("hand", "hands"),
            ("deck", "stack"),
            ("weapon", "weapon.3"),
        ]
        old, new = draw(st.sampled_from(swaps))
        lines[i] = lines[i].replace(old, new, 1)
    elif kind == "insert_text":
        junk = draw(st.text(min_size=1, max_size=12))
        at = draw(st.integers(0, len(lines[i])))
        lines[i] = lines[i][:at] + junk + lines[i][at:]
    elif kind == "indent":
        lines[i] = draw(st.sampled_from(["", " ", "    ", "\t"])) + lines[i].lstrip()
    elif kind == "anchor":
        # Give a line's value an anchor and reuse it as an alias elsewhere.
        m = re.match(r"^(\s*(?:- )?[\w$.]+:\s+)(\S.*)$", lines[i])
        if m:
            lines[i] = f"{m.group(1)}&a1 {m.group(2)}"
            j = draw(st.integers(0, max(0, n - 1)))
            mj = re.match(r"^(\s*(?:- )?[\w$.]+:\s+)(\S.*)$", lines[j])
            if mj and j != i:
                lines[j] = f"{mj.group(1)}*a1"
    elif kind == "nest":
        depth = draw(st.integers(1, 400))
        m = re.match(r"^(\s*(?:- )?[\w$.]+:\s+)(\S.*)$", lines[i])
        if m:
            lines[i] = m.group(1) + "[" * depth + m.group(2) + "]" * depth
    elif kind == "laughs":
        # Aliases of aliases: 3**depth copies of the value, in a few characters.
        m = re.match(r"^(\s*(?:- )?[\w$.]+:\s+)(\S.*)$", lines[i])
        if m:
            depth = draw(st.integers(1, 14))
            parts = [f"&b0 [{m.group(2)}, {m.group(2)}, {m.group(2)}]"]
            parts += [f"&b{k} [*b{k - 1}, *b{k - 1}, *b{k - 1}]" for k in range(1, depth)]
            lines[i] = f"{m.group(1)}[{', '.join(parts)}]"
    elif kind == "replace_char" and lines[i]:
        at = draw(st.integers(0, len(lines[i]) - 1))
        ch = draw(st.sampled_from(list(":-[]{},'\"#&*!|>%@` \t\x00\x85\u2028\ufeff")))
        lines[i] = lines[i][:at] + ch + lines[i][at + 1 :]
    return "\n".join(lines)


@st.composite
def mutated_scenario(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 3))):
        text = draw(mutation(text))
    return text


@settings(SETTINGS, max_examples=150)
@given(text=mutated_scenario())
def test_mutated_scenarios_never_crash(text: str) -> None:
    """A mutated scenario passes, fails an expectation, or is invalid with
    ``file:line``; it never hits the internal-error catch-all."""
    check_text(text)


# ----------------------------------------------------------------------
# Random documents in the scenario's own vocabulary
# ----------------------------------------------------------------------

WORDS = [
    "alice",
    "bob",
    "alice.hand",
    "alice.deck",
    "bob.graveyard",
    "alice.weapon",
    "alice.weapon.2",
    "alice.arsenal",
    "alice.arsenal.2",
    "alice.soul",
    "alice.hero",
    "alice.arms",
    "stack",
    "permanent",
    "combat_chain",
    "arena",
    "owner.deck",
    "owner.graveyard",
    "you.soul",
    "graveyard",
    "$a",
    "$b",
    "$c",
    "$z",
    "A@alice.hand",
    "B@alice.deck",
    "alice.deck[0]",
    "alice.deck[-1]",
    "stack[0]",
    "A",
    "B",
    "Sword",
    "up",
    "down",
    "top",
    "bottom",
    "effect",
    "rule",
    "activated",
    "triggered",
    "card",
    "moved",
    "ceased",
    "failed",
    "done",
    "no_move",
    "cleared",
    "end_of_turn",
    "go_again",
    "m1",
    "draw",
    "upkeep",
    "preparation",
    "battle",
    "discard",
    "+1",
    "-2",
    "hidden",
    "bob.territory",
    "field_of_battle",
    "alice.land_of_bondage",
    "alice.set_aside",
]
SCALARS = st.one_of(
    st.sampled_from(WORDS),
    st.integers(-3, 5),
    st.sampled_from([10**30, -(10**30), 2**63, 1.5, float("inf")]),
    st.booleans(),
    st.none(),
    st.text(max_size=6),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(ARG_KEYS), inner, max_size=3),
    ),
    max_leaves=8,
)
STEP = st.one_of(
    st.dictionaries(
        st.sampled_from(ACTIONS),
        st.dictionaries(st.sampled_from(ARG_KEYS), VALUES, max_size=4),
        min_size=1,
        max_size=2,
    ),
    VALUES,
)
FAB_CARD = st.fixed_dictionaries(
    {},
    optional={
        "types": st.lists(
            st.sampled_from(
                [
                    "action",
                    "attack",
                    "aura",
                    "weapon",
                    "2h",
                    "1h",
                    "bow",
                    "quiver",
                    "off-hand",
                    "hero",
                    "token",
                    "equipment",
                    "arms",
                    "chest",
                    "ally",
                    "instant",
                    "item",
                ]
            ),
            max_size=4,
        ),
        "power": st.integers(-2, 9),
        "abilities": VALUES,
    },
)
SETUP = st.dictionaries(
    st.sampled_from(
        [
            "alice.hand",
            "alice.deck",
            "alice.weapon",
            "alice.hero",
            "permanent",
            "stack",
            "alice.soul",
            "bob.graveyard",
            "alice.arsenal",
            "alice.arms",
            "alice.territory",
            "bob.land_of_bondage",
            "nowhere",
            "alice.weapon.2",
        ]
    ),
    st.one_of(
        st.lists(
            st.one_of(
                st.sampled_from(["A", "B", "Sword", "Hero", "Aura"]),
                st.fixed_dictionaries(
                    {"card": st.sampled_from(["A", "B", "Sword", "Hero", "Aura"])},
                    optional={
                        "as": st.sampled_from(["a", "b", "c"]),
                        "face": st.sampled_from(["up", "down", "left"]),
                        "under": st.sampled_from(["$a", "$b", "$z"]),
                        "onto": st.sampled_from(["$a", "$b"]),
                        "owner": st.sampled_from(["alice", "bob", "zed"]),
                    },
                ),
            ),
            max_size=3,
        ),
        VALUES,
    ),
    max_size=4,
)
DOCUMENT = st.fixed_dictionaries(
    {
        "name": st.one_of(st.just("fuzz"), SCALARS),
        "ruleset": st.sampled_from(["fab", "fab", "redemption", "chess", None]),
        "steps": st.lists(STEP, max_size=8),
    },
    optional={
        "setup": SETUP,
        "cards": st.dictionaries(
            st.sampled_from(["A", "B", "Sword", "Hero", "Aura"]), FAB_CARD, max_size=3
        ),
        "players": st.one_of(st.just(["alice", "bob"]), VALUES),
        "seed": SCALARS,
        "rules": VALUES,
        "extra": VALUES,
    },
)


# ----------------------------------------------------------------------
# Mutations of the parsed documents
# ----------------------------------------------------------------------


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(_paths(value, (*path, key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(_paths(value, (*path, i)))
    return out


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        node = node[key]
    return node


@st.composite
def tree_mutation(draw: st.DrawFn, doc: Any) -> Any:
    """One change to a parsed scenario: a value replaced, moved, deleted or
    duplicated, or a key added."""
    paths = _paths(doc)
    path = draw(st.sampled_from(paths))
    kind = draw(st.sampled_from(["replace", "replace", "swap", "delete", "duplicate", "add"]))
    if not path:
        return draw(VALUES) if kind == "replace" else doc
    parent = _get(doc, path[:-1])
    key = path[-1]
    if kind == "replace":
        parent[key] = draw(VALUES)
    elif kind == "swap":
        other = draw(st.sampled_from(paths))
        if other and other[: len(path)] != path and path[: len(other)] != other:
            value = _get(doc, other)
            parent[key] = value
    elif kind == "delete":
        del parent[key]
    elif kind == "duplicate" and isinstance(parent, list):
        parent.insert(key, parent[key])
    elif isinstance(parent, dict):
        parent[draw(st.sampled_from(ODD_KEYS))] = draw(VALUES)
    return doc


SEED_DOCS = [d for d in (yaml.safe_load(t) for t in SEEDS) if isinstance(d, dict)]


@st.composite
def mutated_document(draw: st.DrawFn) -> str:
    doc = yaml.safe_load(yaml.safe_dump(draw(st.sampled_from(SEED_DOCS))))
    for _ in range(draw(st.integers(1, 3))):
        doc = draw(tree_mutation(doc))
    return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)


@settings(SETTINGS, max_examples=150)
@given(text=mutated_document())
def test_mutated_documents_never_crash(text: str) -> None:
    """Values of real scenarios replaced, moved between keys, deleted or
    duplicated: bad references, wrong types, missing and unknown keys."""
    check_text(text)


@settings(SETTINGS, max_examples=150)
@given(doc=DOCUMENT)
def test_random_documents_never_crash(doc: dict[str, Any]) -> None:
    """Random scenarios built from the format's own keys and references."""
    check_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False))


@settings(SETTINGS, max_examples=100)
@given(text=st.text(max_size=200))
@example(text="")
@example(text="[]")
@example(text="- a\n- b")
@example(text="name: x")
@example(text="{name: x, ruleset: fab, steps: [{}]}")
@example(text="name: x\nruleset: fab\nsteps:\n  - [move]\n")
@example(text="a: &a [*a]")
@example(text="a: &a {b: *a}\nname: x\nruleset: fab\nsteps: *a")
@example(text="name: &n x\nruleset: fab\nsteps: [{expect: {turn: 1}}]\nrules: [*n, *n]")
@example(text="%YAML 1.1\n---\nname: x\n---\nname: y\n")
@example(text="\ufeffname: x\nruleset: fab\nsteps: []")
@example(text="name: x\nruleset: fab\nsteps:\n" + "  - expect: {turn: 1}\n" * 3 + "\x00")
def test_random_text_never_crashes(text: str) -> None:
    """Arbitrary text, including YAML directives, anchors and recursive aliases."""
    check_text(text)


@settings(SETTINGS, max_examples=40)
@given(data=st.binary(max_size=120))
def test_random_bytes_file_never_crashes(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    """A file that is not UTF-8 text, or any bytes at all, is invalid with a line."""
    path = tmp_path_factory.mktemp("bytes") / FILE
    path.write_bytes(data)
    outcome = run_file(path)
    check_outcome(outcome, str(path))


# ----------------------------------------------------------------------
# The command line on a sample
# ----------------------------------------------------------------------

_WHERE = re.compile(r"^INVALID (?P<file>.+?):(?P<line>\d+): \S", re.MULTILINE)


def check_cli(path: Path) -> int:
    """``cardzones check FILE``: exit 0, 1 or 2, no traceback, and an invalid
    file is reported as ``file:line: message``."""
    result = CliRunner().invoke(app, ["check", str(path)])
    output = result.output
    assert result.exit_code in (0, 1, 2), output
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{type(result.exception).__name__}: {result.exception}"
    )
    assert "Traceback" not in output
    assert INTERNAL not in output, output
    if result.exit_code == 2:
        m = _WHERE.search(output)
        assert m is not None, f"exit 2 without file:line: {output!r}"
        assert m.group("file") == str(path)
    return result.exit_code


@settings(SETTINGS, max_examples=30)
@given(text=mutated_scenario())
def test_cli_check_on_mutated_files(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    """The same property through ``cardzones check`` itself."""
    path = tmp_path_factory.mktemp("cli") / FILE
    path.write_text(text, encoding="utf-8")
    check_cli(path)


NASTY = {
    "markup_in_a_label": (
        "name: x\nruleset: fab\nsteps:\n  - move: {card: '$[/red]', to: alice.hand}\n"
    ),
    "markup_in_a_name": (
        "name: x\nruleset: fab\nsteps:\n  - move: {card: 'A[/b]@alice.hand', to: alice.hand}\n"
    ),
    "not_utf8": b"name: \xff\xfe\n",
    "empty": "",
    "a_list": "- 1\n",
    "recursive_alias": "a: &a [*a]\nname: x\nruleset: fab\nsteps: *a\n",
    "huge_position": "name: x\nruleset: fab\nsetup: {alice.deck: [A]}\nsteps:\n"
    "  - move: {card: $nope, to: alice.hand, position: 99999999999999999999999}\n",
}


@pytest.mark.parametrize("name", sorted(NASTY))
def test_cli_check_on_nasty_files(tmp_path: Path, name: str) -> None:
    """Hand-picked files: rich markup in messages, bad bytes, aliases, huge numbers."""
    path = tmp_path / f"{name}.scenario.yaml"
    content = NASTY[name]
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    assert check_cli(path) == 2


def test_every_seed_scenario_runs_cleanly() -> None:
    """The unmutated corpus itself never hits the catch-all."""
    for text in SEEDS:
        check_text(text)


# ----------------------------------------------------------------------
# Minimal reproductions of what the fuzzing found
# ----------------------------------------------------------------------

REGRESSIONS = {
    # The YAML reader refused a control character before the parse was guarded.
    "control_character": ("\x1fname: x\nruleset: fab\nsteps: []\n", 1),
    "nul_on_line_3": ("name: x\nruleset: fab\nsteps: [\x00]\n", 3),
    # A step without its card reference was a KeyError.
    "move_without_card": ("name: x\nruleset: fab\nsteps:\n  - move: {}\n", 4),
    "flip_without_card": ("name: x\nruleset: fab\nsteps:\n  - flip: {face: up}\n", 4),
    "create_zone_without_zone": ("name: x\nruleset: fab\nsteps:\n  - create_zone: {}\n", 4),
    # A value that is not a mapping has no line of its own.
    "ability_not_a_mapping": (
        "name: x\nruleset: fab\ncards:\n  A: {abilities: [alice]}\nsteps: []\n",
        4,
    ),
    "card_not_a_mapping": ("name: x\nruleset: fab\ncards:\n  A: 5\nsteps: []\n", 4),
    # A few lines of aliases expand to 9**9 values, and the message that showed
    # one never finished.
    "billion_laughs": (
        "name: x\nruleset: fab\nsteps:\n  - move: {card: ["
        + ", ".join(
            ['&a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
            + [f"&a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
        )
        + "], to: alice.hand}\n",
        4,
    ),
    "billion_laughs_key": (
        "x: ["
        + ", ".join(
            ['&a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
            + [f"&a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
        )
        + "]\n? *a8\n: 1\nname: x\n",
        1,
    ),
    "huge_number": ("name: x\nruleset: fab\nseed: " + "9" * 5000 + "\nsteps: []\n", 3),
    "bad_timestamp": ("name: x\nruleset: fab\nsteps:\n  - expect: {turn: 2001-13-45}\n", 4),
    "expect_not_a_mapping": (
        "name: x\nruleset: fab\nsteps:\n  - expect: {turn: 1}\n  - expect: 5\n",
        5,
    ),
}


@pytest.mark.parametrize("name", sorted(REGRESSIONS))
def test_invalid_files_found_by_fuzzing_say_file_and_line(name: str) -> None:
    text, line = REGRESSIONS[name]
    outcome = check_text(text)
    assert outcome.status == INVALID
    assert outcome.line == line, outcome.message
