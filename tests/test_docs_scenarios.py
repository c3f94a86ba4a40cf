"""The examples of docs/scenarios.md are real: every complete scenario in it
runs, and the reference shows every key the scenario language accepts.

A ```yaml block that holds ``name:`` and ``steps:`` is a complete scenario and
must pass. A block whose first line is ``# expect: fail`` or
``# expect: invalid`` (optionally followed by ``"text"`` that the message must
contain) must give that status instead. Every other ```yaml block is a
fragment and must at least be valid YAML.

The keys each action, expectation, card definition and setup entry accepts
are asked of the scenario runner itself (through the message it gives for an
unknown key), so a key added to the language without an example in the
reference fails here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cardzones.position.loader import load_text
from cardzones.rulesets import get_ruleset, ruleset_names
from cardzones.scenario.runner import FAIL, INVALID, PASS, run_text

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "scenarios.md"
RULESETS = ruleset_names()

FENCE = re.compile(r"^```(?P<lang>[\w-]*)\n(?P<body>.*?)^```", re.M | re.S)
MARKER = re.compile(r'^# expect: (?P<status>pass|fail|invalid)(?: "(?P<text>[^"]*)")?\s*$')
COMMON = {"result", "error", "as"}


@dataclass(frozen=True)
class Example:
    line: int
    text: str
    status: str | None  # None: a fragment, not a complete scenario
    message: str | None = None


def _examples(page: Path = DOC) -> list[Example]:
    source = page.read_text(encoding="utf-8")
    out = []
    for match in FENCE.finditer(source):
        if match.group("lang") != "yaml":
            continue
        body = match.group("body")
        line = source.count("\n", 0, match.start("body")) + 1
        marker = MARKER.match(body.split("\n", 1)[0])
        if marker is not None:
            out.append(Example(line, body, marker.group("status"), marker.group("text")))
            continue
        doc = load_text(body, f"{page.name}:{line}")
        complete = isinstance(doc, dict) and "name" in doc and "steps" in doc
        out.append(Example(line, body, PASS if complete else None))
    return out


EXAMPLES = _examples()
SCENARIOS = [e for e in EXAMPLES if e.status is not None]
PASSING = [e for e in SCENARIOS if e.status == PASS]
FRAGMENTS = [e for e in EXAMPLES if e.status is None]


def test_the_reference_has_examples_of_every_kind() -> None:
    assert len(PASSING) >= 30
    assert {e.status for e in SCENARIOS} == {PASS, FAIL, INVALID}
    assert FRAGMENTS


@pytest.mark.parametrize("example", SCENARIOS, ids=lambda e: f"line{e.line}")
def test_complete_example_gives_its_status(example: Example) -> None:
    outcome = run_text(example.text, f"scenarios.md:{example.line}")
    assert outcome.status == example.status, outcome.describe()
    if example.message is not None:
        assert example.message in outcome.message, outcome.describe()
    if example.status == PASS:
        assert outcome.steps > 0


def test_the_readme_scenario_holds() -> None:
    (example,) = [e for e in _examples(ROOT / "README.md") if e.status is not None]
    outcome = run_text(example.text, f"README.md:{example.line}")
    assert outcome.status == PASS, outcome.describe()


@pytest.mark.parametrize("example", FRAGMENTS, ids=lambda e: f"line{e.line}")
def test_fragment_is_valid_yaml(example: Example) -> None:
    load_text(example.text, f"scenarios.md:{example.line}")


def test_rule_ids_of_the_examples_are_rule_ids_the_rule_sets_implement() -> None:
    from cardzones.coverage import implemented_rules

    for example in PASSING:
        doc = load_text(example.text)
        unknown = set(doc.get("rules") or []) - set(implemented_rules(doc["ruleset"]))
        assert not unknown, f"line {example.line}: {sorted(unknown)}"


def _blocks(lang: str) -> list[tuple[int, str]]:
    source = DOC.read_text(encoding="utf-8")
    return [
        (source.count("\n", 0, m.start("body")) + 1, m.group("body"))
        for m in FENCE.finditer(source)
        if m.group("lang") == lang
    ]


def test_python_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = _blocks("python")
    assert blocks
    monkeypatch.chdir(ROOT)  # the examples name files of the repository
    for line, code in blocks:
        namespace: dict[str, Any] = {}
        exec(compile(code, f"scenarios.md:{line}", "exec"), namespace)
        if "outcome" in namespace:
            assert namespace["outcome"].status == PASS


def test_the_coverage_json_example_has_the_real_keys() -> None:
    import json

    from cardzones.coverage import coverage_json, coverage_rows

    (_, text), *_ = _blocks("json")
    shown = json.loads(text)
    real = coverage_json(coverage_rows([ROOT / "scenarios"]))
    assert set(shown) == set(real)
    fab_shown, fab_real = shown["rulesets"]["fab"], real["rulesets"]["fab"]
    assert set(fab_shown) == set(fab_real)
    rule = next(iter(fab_shown["rules"]))
    assert set(fab_shown["rules"][rule]) == set(fab_real["rules"][rule])
    assert set(fab_shown["rules"][rule]["scenarios"][0]) == {"name", "file"}
    assert shown["format"] == real["format"]


# -- every key of the language has a passing example ---------------------


def _allowed(ruleset: str, body: str) -> set[str]:
    """The keys the runner accepts at the place where ``body`` puts ``zzz``."""
    outcome = run_text(f"name: probe\nruleset: {ruleset}\n{body}")
    assert outcome.status == INVALID, outcome.describe()
    match = re.search(r"(?:allowed:|keys are) ([\w, ]+)$", outcome.message)
    assert match is not None, outcome.message
    return {k.strip() for k in match.group(1).split(",")} - {"zzz"}


def _steps(text: str) -> str:
    return "steps:\n" + "".join(f"  - {s}\n" for s in text.split("\n"))


SETUP = "setup: {alice.territory: [{card: X, as: x}]}\n"


def _actions(ruleset: str) -> dict[str, set[str]]:
    """Every action of a rule set, with the keys it accepts."""
    return {
        name: _allowed(ruleset, _steps(f"{name}: {{zzz: 1}}"))
        for name in get_ruleset(ruleset).actions
    }


def _used(ruleset: str | None = None) -> Iterator[tuple[str, ...]]:
    """(kind, ..., key) for every key a passing example uses."""
    for example in PASSING:
        doc = load_text(example.text)
        if ruleset is not None and doc["ruleset"] != ruleset:
            continue
        for key in doc:
            yield ("top", key)
        for body in (doc.get("cards") or {}).values():
            # A card of several colours has a list of definitions.
            for one in body if isinstance(body, list) else [body]:
                yield from _card_keys(doc["ruleset"], one or {})
        for entries in (doc.get("setup") or {}).values():
            for entry in entries or []:
                if isinstance(entry, dict):
                    for key in entry:
                        yield ("setup", key)
        for step in doc["steps"]:
            yield from _step_keys(step)


def _card_keys(ruleset: str, body: dict[str, Any]) -> Iterator[tuple[str, ...]]:
    for key in body:
        yield ("card", ruleset, key)
    for ability in body.get("abilities", []):
        for kind, spec in ability.items():
            yield ("ability", kind)
            for key, value in spec.items():
                yield ("ability", kind, key)
                if isinstance(value, dict):
                    for sub in value:
                        yield ("ability", kind, key, sub)


def _step_keys(step: dict[str, Any]) -> Iterator[tuple[str, ...]]:
    action = next(k for k in step if k not in COMMON)
    body = step[action]
    for key in set(step) & COMMON:
        yield ("action", action, key)
        yield ("common", key)
    if action == "expect":
        yield from _expect_keys(body)
        return
    if action == "mark":
        for key in body:
            yield ("mark", key)
        return
    yield ("action", action)
    if not isinstance(body, dict):
        yield ("action", action, action)  # the bare form, as in `phase: upkeep`
        return
    for key, value in body.items():
        yield ("action", action, key)
        if key in COMMON:
            yield ("common", key)
        if key == "result":
            yield ("result", str(value))
        if key == "then":
            yield from _step_keys(value)
        if key == "ongoing":
            for sub in value:
                yield ("effect", sub)
    if "result" in step:
        yield ("result", str(step["result"]))


def _expect_keys(body: dict[str, Any]) -> Iterator[tuple[str, ...]]:
    subject = next(
        (
            k
            for k in ("view", "layer", "chain_link", "zones", "events", "effect", "card", "zone")
            if k in body
        ),
        "game",
    )
    for key in body:
        yield ("expect", subject, key)
    if subject == "events":
        for key in body["events"]:
            yield ("events", key)


@pytest.fixture(scope="module")
def used() -> set[tuple[str, ...]]:
    return set(_used())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_action_and_each_of_its_keys_has_an_example(
    ruleset: str, used: set[tuple[str, ...]]
) -> None:
    mine = set(_used(ruleset))
    missing = []
    for action, keys in _actions(ruleset).items():
        if ("action", action) not in mine:
            missing.append(action)
        for key in keys - COMMON:
            # An action of both rule sets needs each key shown once, in either.
            if ("action", action, key) not in used:
                missing.append(f"{action}.{key}")
    assert missing == [], f"no passing example in docs/scenarios.md shows {missing}"


def test_every_common_key_and_result_has_an_example(used: set[tuple[str, ...]]) -> None:
    from cardzones.kernel.game import MoveResult

    missing = [k for k in sorted(COMMON) if ("common", k) not in used]
    missing += [f"result: {r.value}" for r in MoveResult if ("result", r.value) not in used]
    assert missing == []


EXPECT_PROBES = {
    "card": ("fab", 'expect: {card: "$x", zzz: 1}'),
    "zone": ("fab", "expect: {zone: alice.hand, zzz: 1}"),
    "view": ("fab", "expect: {view: alice, zzz: 1}"),
    "layer": ("fab", "expect: {layer: 1, zzz: 1}"),
    "chain_link": ("fab", "expect: {chain_link: 1, zzz: 1}"),
    "zones": ("fab", "expect: {zones: alice.arsenal, zzz: 1}"),
    "events": ("fab", "expect: {events: {}, zzz: 1}"),
    "effect": ("fab", "expect: {effect: e, zzz: 1}"),
    "game": ("redemption", "expect: {zzz: 1}"),
}


@pytest.mark.parametrize("subject", EXPECT_PROBES)
def test_every_expectation_key_has_an_example(subject: str, used: set[tuple[str, ...]]) -> None:
    ruleset, probe = EXPECT_PROBES[subject]
    keys = _allowed(ruleset, _steps(probe))
    missing = sorted(k for k in keys if ("expect", subject, k) not in used)
    assert missing == [], f"no passing example shows expect {subject} with {missing}"


def test_every_event_filter_key_and_mark_key_has_an_example(used: set[tuple[str, ...]]) -> None:
    keys = _allowed("fab", _steps("expect: {events: {zzz: 1}, count: 0}"))
    missing = [f"events.{k}" for k in sorted(keys) if ("events", k) not in used]
    keys = _allowed("fab", _steps("mark: {zzz: 1}"))
    missing += [f"mark.{k}" for k in sorted(keys) if ("mark", k) not in used]
    keys = _allowed(
        "redemption", SETUP + _steps("place: {cards: [$x], in: alice.discard, ongoing: {zzz: 1}}")
    )
    missing += [f"ongoing.{k}" for k in sorted(keys) if ("effect", k) not in used]
    assert missing == []


def test_every_top_level_and_setup_key_has_an_example(used: set[tuple[str, ...]]) -> None:
    keys = _allowed("fab", "zzz: 1\n" + _steps("expect: {turn: 1}"))
    missing = [k for k in sorted(keys) if ("top", k) not in used]
    keys = _allowed(
        "fab", "setup: {alice.hand: [{card: A, zzz: 1}]}\n" + _steps("expect: {turn: 1}")
    )
    missing += [f"setup.{k}" for k in sorted(keys) if ("setup", k) not in used]
    assert missing == []


ABILITY_PROBES = {
    ("ability",): "{zzz: 1}",
    ("ability", "replace"): "{replace: {zzz: 1}}",
    ("ability", "replace", "instead"): "{replace: {moved_to: graveyard, instead: {zzz: 1}}}",
    ("ability", "play_from"): "{play_from: {zzz: 1}}",
    ("ability", "play_from", "if"): "{play_from: {zone: banished, if: {zzz: 1}}}",
    ("ability", "trigger"): "{trigger: {zzz: 1}}",
    ("ability", "trigger", "when"): "{trigger: {when: {zzz: 1}}}",
    ("ability", "trigger", "do"): "{trigger: {when: {}, do: {zzz: 1}}}",
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_card_key_has_an_example(ruleset: str, used: set[tuple[str, ...]]) -> None:
    keys = _allowed(ruleset, "cards: {X: {zzz: 1}}\n" + _steps("expect: {turn: 1}"))
    missing = [k for k in sorted(keys) if ("card", ruleset, k) not in used]
    assert missing == [], f"no passing {ruleset} example defines a card with {missing}"


@pytest.mark.parametrize("where", ABILITY_PROBES, ids=".".join)
def test_every_ability_key_has_an_example(
    where: tuple[str, ...], used: set[tuple[str, ...]]
) -> None:
    probe = ABILITY_PROBES[where]
    keys = _allowed(
        "fab", f"cards: {{X: {{abilities: [{probe}]}}}}\n" + _steps("expect: {turn: 1}")
    )
    missing = [k for k in sorted(keys) if (*where, k) not in used]
    assert missing == []


# -- the reference points only at files inside the repository ------------

LINK = re.compile(r"\]\((?P<target>[^)#\s]*)(?:#(?P<anchor>[^)\s]*))?\)")


def _anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, made as GitHub makes them."""
    out = set()
    for heading in re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        out.add(slug)
    return out


@pytest.mark.parametrize(
    "page", [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))], ids=lambda p: p.name
)
def test_pages_point_only_inside_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for outside in ("../shared", "/work/", "SCENARIOS.md", "DESIGN.md", "beside this repository"):
        assert outside not in text, f"{page.name} points outside the repository: {outside}"
    for match in LINK.finditer(text):
        target = match.group("target")
        if re.match(r"^[a-z]+:", target):
            continue  # a web address
        linked = (page.parent / target).resolve() if target else page
        assert linked.exists(), f"{page.name}: broken link {target}"
        anchor = match.group("anchor")
        if anchor:
            assert anchor in _anchors(linked), f"{page.name}: no heading for #{anchor} in {target}"
