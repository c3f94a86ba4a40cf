"""Imports point down only: the command line and web, then the table server,
then the scenario layer, then the card index, then the rule set registry, then
the rule sets, then the base class of a rule set, then the action tables
(``cardzones.acts``: binding, the seat policy, standard and legal actions),
then the kernel. A rule set imports only the kernel, the action tables and the
base class (and, for the two shipped ones, what they share); the kernel names
no game and no action, and neither the scenario layer, the table nor the web
names a game: they find rule sets through the registry. A rule set reads its
own card database and deck lists into the records of
``cardzones.rulesets.cardfiles``, and the card index reaches them through the
registry too: no module outside a rule set's package names a game, in code or
in messages (its docstrings aside), and the board's page names none. The table imports
no web code, and only the web, the command line and the table's load
benchmark import the table. Outside the kernel, no module imports a name of
the kernel's that starts with an underscore. The modules of the kernel's
layer outside ``cardzones.kernel`` (the errors, the record codec, the
schemas) are what the kernel builds on: they import nothing of the kernel.

A game's words are its rule set's too: outside a shipped game's package,
no module (its docstrings aside) and no file of the board's page speaks
them. The words are read from the rule sets where they declare them (the
zone types no other game has, the key of their variants) and listed here
where their rules alone have them; the places that still speak them are
listed, each with why.

No module of cardzones holds more than 600 lines, and no script of the
board: one that outgrows that is split into modules named for what they hold.

Every module of cardzones is read with ``ast`` and every import checked,
including those inside functions and under ``TYPE_CHECKING``. The example rule
set of the tests (tests/plugins) is checked as a rule set from outside.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "cardzones"
PLUGIN = ROOT / "tests" / "plugins" / "patience_dist"

KERNEL, ACTS, BASE, RULESET, REGISTRY, CARDS, POSITION, SCENARIO, TABLE, TOP = range(10)
LAYER_NAMES = {
    KERNEL: "the kernel",
    ACTS: "the action tables",
    BASE: "the base class of a rule set",
    RULESET: "a rule set",
    REGISTRY: "the rule set registry",
    CARDS: "the card index",
    POSITION: "the start-position-and-steps language",
    SCENARIO: "the scenario layer",
    TABLE: "the table server",
    TOP: "the command line or the web",
}

#: Each module's layer, by the longest prefix of its dotted name. A module that
#: matches none has no layer, and the test asks for one.
PREFIXES = {
    "cardzones.kernel": KERNEL,
    "cardzones.errors": KERNEL,
    # A foundation module the kernel builds on: records as JSON and back, naming
    # no game and no kernel type (the kernel tells it what a saved game shares).
    "cardzones.codec": KERNEL,
    "cardzones.schema": KERNEL,  # the JSON Schemas of views and logs: data and a loader
    "cardzones.acts": ACTS,
    "cardzones.rulesets.base": BASE,
    "cardzones.rulesets.cardfiles": BASE,  # the records a rule set reads its files into
    "cardzones.rulesets.common": RULESET,
    "cardzones.rulesets.registry": REGISTRY,
    "cardzones.rulesets": REGISTRY,  # the package itself; its sub-packages are rule sets
    "cardzones": SCENARIO,  # the package itself: the public API in one place, scenarios included
    "cardzones.cards": CARDS,
    "cardzones.position": POSITION,
    "cardzones.scenario": SCENARIO,
    "cardzones.table": TABLE,
    "cardzones.cli": TOP,
    "cardzones.cli_cards": TOP,
    "cardzones.cli_options": TOP,
    "cardzones.web": TOP,
    "cardzones.board": TOP,
    "cardzones.bench": TOP,
    "cardzones.coverage": TOP,
}

#: What every rule set may import besides its own package.
RULESET_MAY_IMPORT = (
    "cardzones.kernel",
    "cardzones.errors",
    "cardzones.acts",
    "cardzones.rulesets.base",
    "cardzones.rulesets.cardfiles",
)
#: The modules of ``cardzones.rulesets`` that are not a rule set of their own.
NOT_A_RULESET = ("registry", "common", "base", "cardfiles")
#: What the rule sets that ship with cardzones share.
SHARED = "cardzones.rulesets.common"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def ruleset_package(name: str) -> str | None:
    """``cardzones.rulesets.fab`` for any module of the fab rule set."""
    parts = name.split(".")
    shipped = len(parts) >= 3 and parts[:2] == ["cardzones", "rulesets"]
    if shipped and parts[2] not in NOT_A_RULESET:
        return ".".join(parts[:3])
    return None


def layer_of(name: str) -> int | None:
    if ruleset_package(name) is not None:
        return RULESET
    best = None
    for prefix, layer in PREFIXES.items():
        exact_only = prefix in ("cardzones", "cardzones.rulesets")
        matches = name == prefix or (not exact_only and name.startswith(prefix + "."))
        if matches and (best is None or len(prefix) > len(best[0])):
            best = (prefix, layer)
    return None if best is None else best[1]


def imports(source: str, file: str, name: str) -> list[tuple[int, str, list[str]]]:
    """(line, module, names) for every import in the source, relative ones resolved."""
    tree = ast.parse(source, file)
    package = name if file.endswith("__init__.py") else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out.append((node.lineno, alias.name, []))
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, module] if module else base)
            out.append((node.lineno, module, [a.name for a in node.names]))
    return out


def private(names: list[str]) -> list[str]:
    return [n for n in names if n.startswith("_") and not n.startswith("__")]


def problems_of(source: str, file: str, name: str, layer: int, *, own: str | None) -> list[str]:
    """Every import of one module that points up a layer, sideways into another
    rule set, or at a private name of the kernel."""
    out = []
    for line, module, names in imports(source, file, name):
        if not (module == "cardzones" or module.startswith("cardzones.")):
            continue
        where = f"{file}:{line}"
        in_kernel = layer == KERNEL
        parts = module.split(".")
        if not in_kernel and module.startswith("cardzones.kernel"):
            hidden = private(names) + [p for p in parts if p.startswith("_")]
            if hidden:
                out.append(f"{where}: imports the kernel's own {', '.join(hidden)} from {module}")
        target_layer = layer_of(module)
        if target_layer is None:
            out.append(f"{where}: imports {module}, which has no layer")
            continue
        if target_layer > layer:
            out.append(
                f"{where}: {LAYER_NAMES[layer]} imports {module} "
                f"({LAYER_NAMES[target_layer]}), a layer above it"
            )
            continue
        if layer == RULESET:
            target_ruleset = ruleset_package(module)
            allowed = module.startswith(RULESET_MAY_IMPORT) or (
                own is not None and (module == own or module.startswith(own + "."))
            )
            if (
                not allowed
                and module == SHARED
                and own is not None
                and own.startswith("cardzones.rulesets.")
            ):
                allowed = True
            if not allowed:
                what = "another rule set" if target_ruleset else "something besides the kernel"
                out.append(f"{where}: rule set {own} imports {module}, {what}")
    return out


def package_modules() -> list[tuple[Path, str]]:
    return [(p, module_name(p, ROOT)) for p in sorted(PACKAGE.rglob("*.py"))]


@pytest.mark.parametrize("path,name", package_modules(), ids=lambda v: str(v))
def test_every_module_imports_only_down(path: Path, name: str) -> None:
    layer = layer_of(name)
    assert layer is not None, f"{name} has no layer: give it one in PREFIXES"
    own = ruleset_package(name) if layer == RULESET else None
    if name == SHARED:
        own = SHARED
    source = path.read_text(encoding="utf-8")
    assert problems_of(source, str(path.relative_to(ROOT)), name, layer, own=own) == []


def test_the_example_rule_set_imports_only_the_kernels_public_names() -> None:
    """A rule set from outside, as a third game would be written."""
    files = sorted(PLUGIN.rglob("*.py"))
    assert files, "the example rule set is missing"
    for path in files:
        name = module_name(path, PLUGIN)
        own = name.split(".")[0]
        source = path.read_text(encoding="utf-8")
        assert problems_of(source, str(path.relative_to(ROOT)), name, RULESET, own=own) == []


# ----------------------------------------------------------------------
# The checker itself catches what it is for
# ----------------------------------------------------------------------


def _check_text(source: str, name: str, layer: int, own: str | None) -> list[str]:
    return problems_of(source, "probe.py", name, layer, own=own)


@pytest.mark.parametrize(
    "name,source,expected",
    [
        ("cardzones.kernel.game", "from cardzones.rulesets import get_ruleset\n", "a layer above"),
        ("cardzones.kernel.game", "from cardzones.acts.binding import bind\n", "a layer above"),
        ("cardzones.kernel.ruleset", "from cardzones.acts import Action\n", "a layer above"),
        ("cardzones.acts.legal", "from cardzones.rulesets.base import Ruleset\n", "a layer above"),
        ("cardzones.acts.binding", "from cardzones.position.context import Refs\n", "above"),
        ("cardzones.rulesets.base", "from cardzones.rulesets.fab import table\n", "above"),
        ("cardzones.kernel.serial", "import cardzones.scenario.runner\n", "a layer above"),
        ("cardzones.rulesets.fab.ruleset", "from cardzones.rulesets import new_game\n", "above"),
        (
            "cardzones.rulesets.fab.ruleset",
            "from cardzones.rulesets.redemption import place\n",
            "another rule set",
        ),
        (
            "cardzones.rulesets.fab.ruleset",
            "from cardzones.kernel.pipeline import _move\n",
            "the kernel's own _move",
        ),
        ("cardzones.scenario.runner", "from cardzones.cli import app\n", "a layer above"),
        ("cardzones.scenario.runner", "from cardzones.table.acts import bind_act\n", "above"),
        ("cardzones.table.acts", "from cardzones.web.hub import OpenTables\n", "a layer above"),
        ("cardzones.rulesets.registry", "import cardzones.table.store\n", "a layer above"),
        (
            "cardzones.scenario.runner",
            "from cardzones.kernel.contents import _insert\n",
            "the kernel's own",
        ),
        ("cardzones.rulesets.registry", "from cardzones.scenario import run_file\n", "above"),
        ("cardzones.kernel.views", "from ..rulesets import fab\n", "a layer above"),
        ("cardzones.cards.lookup", "from cardzones.position.loader import YMap\n", "above"),
        ("cardzones.cards.decks", "from cardzones.table.creation import Creation\n", "above"),
        ("cardzones.rulesets.fab.carddata", "from cardzones.cards.index import x\n", "above"),
    ],
)
def test_the_checker_finds_bad_imports(name: str, source: str, expected: str) -> None:
    layer = layer_of(name)
    assert layer is not None
    own = ruleset_package(name) if layer == RULESET else None
    found = _check_text(source, name, layer, own)
    assert found and expected in found[0], found


def test_the_checker_allows_good_imports() -> None:
    assert (
        _check_text(
            "from cardzones.kernel import ZoneSpec\nfrom cardzones.rulesets.common import x\n"
            "from cardzones.acts import move_action\nfrom cardzones.rulesets.base import Ruleset\n"
            "from cardzones.rulesets.fab import layers\nfrom . import cards\n",
            "cardzones.rulesets.fab.ruleset",
            RULESET,
            "cardzones.rulesets.fab",
        )
        == []
    )
    assert (
        _check_text(
            "from cardzones.rulesets.registry import get_ruleset\nfrom cardzones import __all__\n",
            "cardzones.scenario.runner",
            SCENARIO,
            None,
        )
        == []
    )
    # The card index reads the games' databases through the registry.
    assert (
        _check_text(
            "from cardzones.rulesets.cardfiles import CardRecord\n"
            "from cardzones.rulesets import new_game\n",
            "cardzones.cards.importers",
            CARDS,
            None,
        )
        == []
    )
    assert (
        _check_text(
            "from cardzones.cards import CardLookup\n", "cardzones.scenario.x", SCENARIO, None
        )
        == []
    )


# ----------------------------------------------------------------------
# The table and the web
# ----------------------------------------------------------------------

#: What the web layer is built on; the table server uses none of it.
WEB_PACKAGES = ("starlette", "uvicorn", "httpx", "websockets", "cardzones.web")
#: The only modules besides its own that may import the table server: the web,
#: the command line and the table's load benchmark.
TABLE_USERS = ("cardzones.web", "cardzones.cli", "cardzones.bench")
#: The only modules besides its own that may import the web layer: the command
#: line, which is the web's peer and serves it (with the web's guarded HTTP
#: protocol), and the load benchmark, which serves it in a process of its own.
WEB_USERS = ("cardzones.web", "cardzones.cli", "cardzones.bench")


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def import_problems(source: str, file: str, name: str) -> list[str]:
    """The imports of one module that break the rules of the table and web
    layers: web code in the table, the table or the web imported by anything
    but the modules above them, or a rule set named by the scenario layer, the
    table or the web (they find rule sets through the registry)."""
    out = []
    layer = layer_of(name)
    for line, module, _names in imports(source, file, name):
        where = f"{file}:{line}"
        if layer == TABLE and _within(module, WEB_PACKAGES):
            out.append(f"{where}: the table server imports web code ({module})")
        if _within(module, ("cardzones.table",)) and not _within(
            name, ("cardzones.table", *TABLE_USERS)
        ):
            out.append(f"{where}: {name} imports the table server ({module})")
        if _within(module, ("cardzones.web",)) and not _within(name, WEB_USERS):
            out.append(f"{where}: {name} imports the web layer ({module}); only its peers do")
        names_a_game = ruleset_package(module) is not None
        if names_a_game and _within(
            name, ("cardzones.position", "cardzones.scenario", "cardzones.table", "cardzones.web")
        ):
            out.append(f"{where}: {name} imports the rule set {module}: use the registry")
    return out


@pytest.mark.parametrize("path,name", package_modules(), ids=lambda v: str(v))
def test_the_table_and_the_web_keep_to_their_places(path: Path, name: str) -> None:
    source = path.read_text(encoding="utf-8")
    assert import_problems(source, str(path.relative_to(ROOT)), name) == []


def test_the_table_layers_exist() -> None:
    names = {name for _, name in package_modules()}
    assert layer_of("cardzones.table.acts") == TABLE and "cardzones.table.acts" in names
    assert layer_of("cardzones.web.app") == TOP and "cardzones.web.app" in names
    assert layer_of("cardzones.cards.lookup") == CARDS and "cardzones.cards.lookup" in names
    assert layer_of("cardzones.cli_cards") == TOP and "cardzones.cli_cards" in names


@pytest.mark.parametrize(
    "name,source,expected",
    [
        ("cardzones.table.host", "import starlette.websockets\n", "imports web code"),
        ("cardzones.table.acts", "from httpx import get\n", "imports web code"),
        ("cardzones.board", "from cardzones.table.table import Table\n", "imports the table"),
        ("cardzones.board", "from cardzones.web.app import app\n", "imports the web layer"),
        ("cardzones.table.acts", "from cardzones.rulesets.fab import moves\n", "registry"),
        ("cardzones.scenario.runner", "from cardzones.rulesets.redemption import x\n", "registry"),
        (
            "cardzones.position.card_data",
            "from cardzones.rulesets.fab.carddata import x\n",
            "registry",
        ),
        ("cardzones.cards.lookup", "from cardzones.table.store import Store\n", "table server"),
    ],
)
def test_the_table_checker_finds_bad_imports(name: str, source: str, expected: str) -> None:
    found = import_problems(source, "probe.py", name)
    assert found and expected in found[0], found


def test_the_table_checker_allows_good_imports() -> None:
    assert (
        import_problems("from cardzones.table.host import Host\n", "p.py", "cardzones.web.app")
        == []
    )
    assert import_problems("from cardzones.table.export import x\n", "p.py", "cardzones.cli") == []
    good = "from cardzones.rulesets import get_ruleset\nfrom cardzones.scenario import x\n"
    assert import_problems(good, "p.py", "cardzones.table.acts") == []


#: The test runner: scenario files' expectations, for ``check`` and pytest.
RUNNER = ("cardzones.scenario",)
#: The modules of the event store: the store, its database, its actions, its
#: votes to finish and its chat.
STORE = (
    "cardzones.table.store",
    "cardzones.table.database",
    "cardzones.table.action_log",
    "cardzones.table.finish_votes",
    "cardzones.table.chat_lines",
    "cardzones.table.take_back_votes",
)
#: What the event store keeps away from: the start-position language, the
#: test runner, the rule sets and the action tables.
LANGUAGE = ("cardzones.position", "cardzones.scenario", "cardzones.rulesets", "cardzones.acts")


def runner_problems(source: str, file: str, name: str) -> list[str]:
    """Imports of the test runner by the table or the web (they start games
    from the start-position language, :mod:`cardzones.position`), and of the
    rules language by the event store, which keeps records as data."""
    out = []
    for line, module, _names in imports(source, file, name):
        where = f"{file}:{line}"
        if _within(name, ("cardzones.table", "cardzones.web")) and _within(module, RUNNER):
            out.append(f"{where}: {name} imports the test runner ({module})")
        if name in STORE and _within(module, LANGUAGE):
            out.append(f"{where}: the event store imports the rules language ({module})")
    return out


@pytest.mark.parametrize("path,name", package_modules(), ids=lambda v: str(v))
def test_tables_run_without_the_test_runner(path: Path, name: str) -> None:
    source = path.read_text(encoding="utf-8")
    assert runner_problems(source, str(path.relative_to(ROOT)), name) == []


@pytest.mark.parametrize(
    "name,source,expected",
    [
        ("cardzones.table.creation", "from cardzones.scenario.runner import S\n", "test runner"),
        ("cardzones.web.app", "import cardzones.scenario.expect\n", "test runner"),
        ("cardzones.table.store", "from cardzones.position.start import P\n", "rules language"),
        ("cardzones.table.action_log", "from cardzones.acts import Action\n", "rules language"),
    ],
)
def test_the_runner_checker_finds_bad_imports(name: str, source: str, expected: str) -> None:
    found = runner_problems(source, "probe.py", name)
    assert found and expected in found[0], found
    good = "from cardzones.position.start import StartPosition\n"
    assert runner_problems(good, "probe.py", "cardzones.table.creation") == []


# ----------------------------------------------------------------------
# No circle
# ----------------------------------------------------------------------


def runtime_imports(
    source: str, file: str, name: str, known: set[str], *, typing: bool = False
) -> set[str]:
    """The cardzones modules a module imports when it runs: every import but
    those under ``if TYPE_CHECKING:``, which exist for the type checker only
    (with ``typing``, those too). ``from package import module`` counts as
    importing the module."""
    tree = ast.parse(source, file)
    package = name if file.endswith("__init__.py") else name.rpartition(".")[0]
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if (
                not typing
                and isinstance(child, ast.If)
                and ast.unparse(child.test) == "TYPE_CHECKING"
            ):
                for stmt in child.orelse:
                    visit_one(stmt)
                continue
            visit_one(child)

    def visit_one(child: ast.AST) -> None:
        if isinstance(child, ast.Import):
            out.update(a.name for a in child.names)
        elif isinstance(child, ast.ImportFrom):
            module = child.module or ""
            if child.level:
                base = package.split(".")
                base = base[: len(base) - (child.level - 1)]
                module = ".".join([*base, module] if module else base)
            for alias in child.names:
                full = f"{module}.{alias.name}"
                out.add(full if full in known else module)
        visit(child)

    visit(tree)
    return out & known


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_itself_through_others() -> None:
    modules = dict((name, path) for path, name in package_modules())
    known = set(modules)
    graph = {
        name: runtime_imports(path.read_text(encoding="utf-8"), str(path), name, known)
        for name, path in modules.items()
    }
    assert circles(graph) == []


#: The kernel package itself, which imports every module it exports names of.
KERNEL_PACKAGE = "cardzones.kernel"


def kernel_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """Which kernel module imports which, imports for the type checker alone
    included: the kernel's modules are typed against the state
    (:class:`cardzones.kernel.ruleset.GameState`), so none imports the game,
    which imports them all."""
    known = set(sources) - {KERNEL_PACKAGE}
    return {
        name: runtime_imports(source, f"{name}.py", name, known, typing=True)
        for name, source in sources.items()
        if name != KERNEL_PACKAGE
    }


def test_no_kernel_module_imports_itself_even_for_types() -> None:
    sources = {
        name: path.read_text(encoding="utf-8")
        for path, name in package_modules()
        if layer_of(name) == KERNEL and name.startswith(KERNEL_PACKAGE)
    }
    graph = kernel_graph(sources)
    assert "cardzones.kernel.game" in graph and "cardzones.kernel.pipeline" in graph
    assert circles(graph) == []
    assert [n for n, imported in graph.items() if "cardzones.kernel.game" in imported] == []


def test_the_circle_finder_finds_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import x.y\nimport x.z\n"
    assert runtime_imports(source, "m.py", "x.m", {"x.y", "x.z"}) == {"x.z"}
    assert runtime_imports(source, "m.py", "x.m", {"x.y", "x.z"}, typing=True) == {"x.y", "x.z"}
    # A kernel module that imports the game for its types alone closes a circle.
    game = "from cardzones.kernel import pipeline\n"
    typed = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
    typed += "    from cardzones.kernel.game import Game\n"
    sources = {
        KERNEL_PACKAGE: "from cardzones.kernel.game import Game\n",
        "cardzones.kernel.game": game,
        "cardzones.kernel.pipeline": typed,
    }
    assert circles(kernel_graph(sources)) == [
        ["cardzones.kernel.game", "cardzones.kernel.pipeline"]
    ]
    sources["cardzones.kernel.pipeline"] = "from cardzones.kernel.ruleset import GameState\n"
    assert circles(kernel_graph(sources)) == []


# ----------------------------------------------------------------------
# One pipeline
# ----------------------------------------------------------------------

#: What only the kernel's pipeline makes: object records and moved events.
PIPELINE_ONLY = {"Obj", "Origin", "MOVED", "Snapshot"}


def builds_records(source: str, file: str) -> list[str]:
    """Every place a module names an object record, an origin, a moved event or
    a last-known-information snapshot, other than in a type annotation."""
    tree = ast.parse(source, file)
    annotations: set[int] = set()
    for node in ast.walk(tree):
        for ann in _annotations(node):
            annotations.update(id(n) for n in ast.walk(ann))
    out = []
    for node in ast.walk(tree):
        if id(node) in annotations:
            continue
        if isinstance(node, ast.Name) and node.id in PIPELINE_ONLY:
            out.append(f"{file}:{node.lineno}: {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr in PIPELINE_ONLY:
            result = isinstance(node.value, ast.Name) and node.value.id == "MoveResult"
            if not result:  # MoveResult.MOVED is what an action did, not an event
                out.append(f"{file}:{node.lineno}: {node.attr}")
        elif isinstance(node, ast.alias) and node.name in PIPELINE_ONLY and node.name != "Obj":
            out.append(f"{file}:{node.lineno}: imports {node.name}")
    return sorted(out)


def _annotations(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.AnnAssign):
        return [node.annotation]
    if isinstance(node, ast.arg) and node.annotation is not None:
        return [node.annotation]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
        return [node.returns]
    return []


def test_no_rule_set_builds_objects_or_moved_events() -> None:
    """Every change of zone goes through the kernel's one pipeline: a rule set
    reads objects (``Obj`` in type hints) but never makes one, never makes an
    origin or a snapshot, and never logs a moved event itself."""
    files = [p for p, name in package_modules() if layer_of(name) == RULESET] + sorted(
        PLUGIN.rglob("*.py")
    )
    found = []
    for path in files:
        found += builds_records(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert found == []


def test_the_record_finder_finds_a_hand_made_move() -> None:
    source = (
        "from cardzones.kernel.events import MOVED\n"
        "def f(game, obj: Obj) -> Obj:\n"
        "    new = obj._replace(zone=1)\n"
        "    game.log(events.MOVED, Origin('a', 'b', 1, 'rule', None))\n"
        "    return Obj(1, 2) if MoveResult.MOVED else None\n"
    )
    assert builds_records(source, "m.py") == [
        "m.py:1: imports MOVED",
        "m.py:4: MOVED",
        "m.py:4: Origin",
        "m.py:5: Obj",
    ]
    assert builds_records(source.replace("events.MOVED", "1"), "m.py") == [
        "m.py:1: imports MOVED",
        "m.py:4: Origin",
        "m.py:5: Obj",
    ]


# ----------------------------------------------------------------------
# One seat gate, and a kernel of the state alone
# ----------------------------------------------------------------------

#: The wording of the seat policy's refusals: each is written in one place.
SEAT_WORDS = (
    "acts for itself only",
    "a seat may do this only to its own zones",
    "may act only on cards",
    "can be named only in your own zones",
    "is the turn player's, and it is",
    "takes an action on the moved card",
)
#: The one module that says them.
SEAT_POLICY = "cardzones.acts.seats"


def test_the_seat_policy_is_written_once() -> None:
    """One seat policy, with one wording: no module but the policy's own
    words a seat refusal, so the table, legal actions and the scenario layer
    cannot drift apart."""
    found = []
    for path, name in package_modules():
        if name == SEAT_POLICY:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        skipped = docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) in skipped:
                    continue
                for words in SEAT_WORDS:
                    if words in node.value:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {words!r}")
    assert found == []
    policy = (PACKAGE / "acts" / "seats.py").read_text(encoding="utf-8")
    assert all(words in policy for words in SEAT_WORDS)


#: The most lines the kernel may hold: state, the move pipeline, identity,
#: effects and views, and nothing above them: a ceiling against growth (it
#: holds about 4,690; the JSON codec of saved games, which knows no game, is
#: below it in cardzones.codec, and what only the layers above ask of a rule
#: set is in cardzones.rulesets.base).
KERNEL_LINES = 4700


def test_the_kernel_holds_the_state_alone() -> None:
    lines = sum(
        len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted((PACKAGE / "kernel").rglob("*.py"))
    )
    assert lines < KERNEL_LINES, f"the kernel has {lines} lines"
    names = {name for _, name in package_modules()}
    for gone in ("actions", "standard", "seats", "legal"):
        assert f"cardzones.kernel.{gone}" not in names
        assert f"cardzones.acts.{gone}" in names


def foundation_problems(source: str, file: str, name: str) -> list[str]:
    """The imports of the kernel by a module of the kernel's layer outside the
    kernel's package: a module the kernel builds on, which must not know it."""
    if layer_of(name) != KERNEL or _within(name, (KERNEL_PACKAGE,)):
        return []
    return [
        f"{file}:{line}: {name}, which the kernel builds on, imports the kernel ({module})"
        for line, module, _names in imports(source, file, name)
        if _within(module, (KERNEL_PACKAGE,))
    ]


def test_what_the_kernel_builds_on_imports_nothing_of_the_kernel() -> None:
    found = []
    names = set()
    for path, name in package_modules():
        if layer_of(name) == KERNEL and not _within(name, (KERNEL_PACKAGE,)):
            names.add(name)
            source = path.read_text(encoding="utf-8")
            found += foundation_problems(source, str(path.relative_to(ROOT)), name)
    assert {"cardzones.errors", "cardzones.codec"} <= names
    assert found == []


@pytest.mark.parametrize(
    "name,source",
    [
        ("cardzones.codec", "from cardzones.kernel.game import Game\n"),
        ("cardzones.codec", "import cardzones.kernel.events\n"),
        ("cardzones.errors", "from cardzones.kernel import CardDef\n"),
        ("cardzones.codec", "def f():\n    from .kernel.cards import CardDef\n"),
    ],
)
def test_the_foundation_checker_finds_a_kernel_import(name: str, source: str) -> None:
    found = foundation_problems(source, "probe.py", name)
    assert found and "imports the kernel" in found[0], found
    assert foundation_problems(source, "probe.py", "cardzones.kernel.serial") == []


# ----------------------------------------------------------------------
# A rule set is the whole game: nothing else names one
# ----------------------------------------------------------------------

#: The games cardzones knows of, in the words code could name them by: the
#: two shipped rule sets (and their databases' and deck lists' names) and the
#: example third game.
GAME_WORDS = re.compile(r"\b(fab|flesh and blood|redemption|lackey\w*|patience)\b", re.IGNORECASE)
#: The board's page and its styles, which take every game's layout from
#: ``GET /api/rulesets``.
STATIC = PACKAGE / "web" / "static"


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions:
    their words and doctests may name a game."""
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }


def game_names_in(source: str, file: str) -> list[str]:
    """Every text of a module, its docstrings aside, that names a game, and
    every import of a rule set's package."""
    tree = ast.parse(source, file)
    skip = docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            match = GAME_WORDS.search(node.value)
            if match:
                found.append(f"{file}:{node.lineno}: {match[0]!r} in {node.value[:60]!r}")
    for line, module, names in imports(source, file, module_name_of(file)):
        submodules = [f"{module}.{n}" for n in names if is_module(f"{module}.{n}")]
        for target in [module, *submodules]:
            if ruleset_package(target) is not None:
                found.append(f"{file}:{line}: imports the rule set {ruleset_package(target)}")
                break
    return found


def is_module(name: str) -> bool:
    """Whether a dotted name is a module or package of the repository."""
    path = ROOT.joinpath(*name.split("."))
    return path.is_dir() or path.with_suffix(".py").is_file()


def module_name_of(file: str) -> str:
    path = Path(file)
    return module_name(path, ROOT) if path.is_absolute() else file.removesuffix(".py")


def outside_the_rule_sets() -> list[tuple[Path, str]]:
    return [(p, name) for p, name in package_modules() if ruleset_package(name) is None]


@pytest.mark.parametrize("path,name", outside_the_rule_sets(), ids=lambda v: str(v))
def test_no_module_outside_the_rule_sets_names_a_game(path: Path, name: str) -> None:
    """A game is its rule set's package: the kernel, the card index, the
    table, the web, the command line and the benchmarks find games through
    the registry and name none, in code or in messages (docstrings and their
    doctests aside, which show a game being used). The benchmarks play fab,
    whose moves they measure, and take its name from its package."""
    found = game_names_in(path.read_text(encoding="utf-8"), str(path))
    if name.startswith("cardzones.bench"):
        found = [f for f in found if "imports the rule set cardzones.rulesets.fab" not in f]
    assert found == []


def test_the_board_names_no_game() -> None:
    files = sorted(p for p in STATIC.rglob("*") if p.suffix in (".js", ".css", ".html"))
    assert files, "the board's page is missing"
    found = [
        f"{p.relative_to(ROOT)}: {m[0]!r}"
        for p in files
        for m in GAME_WORDS.finditer(p.read_text(encoding="utf-8"))
    ]
    assert found == []


@pytest.mark.parametrize(
    "source,expected",
    [
        ('if deck.ruleset == "fab":\n    pass\n', "'fab' in 'fab'"),
        ("GAMES = ('redemption',)\n", "'redemption'"),
        ('raise E(f"a Redemption deck list is a .dek file, not {x}")\n', "'Redemption'"),
        ('print("cards update fab|redemption")\n', "'fab'"),
        ("FORMATS = {'lackey-dek': 1}\n", "'lackey'"),
        ("from cardzones.rulesets.fab.carddata import COLOUR_OF\n", "imports the rule set"),
        ("from cardzones.rulesets import redemption\n", "imports the rule set"),
    ],
)
def test_the_game_name_finder_finds_one(source: str, expected: str) -> None:
    found = game_names_in(source, "probe.py")
    assert found and expected in found[0], found


def test_the_game_name_finder_leaves_docstrings_and_other_words() -> None:
    source = (
        '"""A module.\n\n>>> new_game("fab")\n"""\n'
        "def f():\n"
        '    """Read a Redemption list."""\n'
        '    return get_ruleset(name).read_deck_list("fabric, prefab")\n'
        "from cardzones.rulesets import get_ruleset\n"
        "from cardzones.rulesets.cardfiles import DeckList\n"
    )
    assert game_names_in(source, "probe.py") == []


# ----------------------------------------------------------------------
# Small modules
# ----------------------------------------------------------------------

#: The most lines a module of cardzones may hold: a module that outgrows it is
#: split into modules named for what they hold.
MODULE_LINES = 600


def long_modules(paths: list[Path], limit: int = MODULE_LINES) -> list[str]:
    """Every module of ``paths`` with more than ``limit`` lines, and its count."""
    out = []
    for path in paths:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            out.append(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {lines}")
    return out


def test_no_module_is_longer_than_the_limit() -> None:
    assert long_modules([path for path, _ in package_modules()]) == []


def test_no_script_of_the_board_is_longer_than_the_limit() -> None:
    """The board's JavaScript keeps to the same limit, split by concern."""
    scripts = sorted(STATIC.rglob("*.js"))
    assert scripts, "the board's scripts are missing"
    assert long_modules(scripts) == []


def test_the_length_checker_finds_a_long_module(tmp_path: Path) -> None:
    at_the_limit = tmp_path / "short.py"
    at_the_limit.write_text("x = 1\n" * MODULE_LINES, encoding="utf-8")
    over = tmp_path / "long.py"
    over.write_text("x = 1\n" * (MODULE_LINES + 1), encoding="utf-8")
    assert long_modules([at_the_limit, over]) == [f"{over}: {MODULE_LINES + 1}"]
    assert long_modules([at_the_limit]) == []


# ----------------------------------------------------------------------
# A game's words are its rule set's
# ----------------------------------------------------------------------

#: The games whose words are checked: the rule sets that ship with cardzones.
SHIPPED = ("fab", "redemption")
#: Words of a game's rules that none of its rule set's declarations lists.
RULES_WORDS = {"fab": ("combat chain",), "redemption": ("lost soul", "lost souls", "brigade")}
#: Zone types that are ordinary words too, which code outside a game uses in
#: their own sense: a stack of layers, a permanent controller, a set's
#: discard() and a slot reserved, the head of a list, a card set aside.
ORDINARY_WORDS = frozenset({"head", "stack", "permanent", "discard", "reserve", "set_aside"})

#: The places outside a game's package that still speak its words, with why:
#: each keeps a stored format's first names, so that what was stored before
#: still loads.
VOCABULARY_ALLOWED: dict[str, str] = {
    # a stored game written before cards had ``extra`` keeps Redemption's
    # fields under their old names (kernel/serial.py reads them)
    "cardzones/kernel/serial.py": "stored format",
    # a stored card index keeps a card's variant number in its column
    # ``pitch``, and an index written before cards had ``extra`` keeps
    # Redemption's fields under their old names
    "cardzones/cards/index.py": "stored format",
}


#: The board's files that still speak a game's words, with why: none. The
#: board takes its menus' words from the rule set's action table and its
#: other words from the rule set's layout (``GET /api/rulesets``).
STATIC_VOCABULARY_ALLOWED: dict[str, str] = {}


def game_vocabulary() -> dict[str, list[str]]:
    """Each shipped game's words, read from its rule set where it declares
    them: the zone types no other game has (ordinary words aside), the key
    and plural of its variants (fab's ``pitch``), and the words of its rules
    in :data:`RULES_WORDS`. A variant's own words (fab's red, yellow, blue)
    are not among them: they are the terminal's colours too."""
    from cardzones.rulesets import get_ruleset

    rulesets = {g: get_ruleset(g) for g in SHIPPED}
    out = {}
    for game, ruleset in rulesets.items():
        others = {z for g, r in rulesets.items() if g != game for z in r.zone_specs}
        words = [z for z in ruleset.zone_specs if z not in others and z not in ORDINARY_WORDS]
        if ruleset.variants:
            words += [ruleset.variants.key, ruleset.variants.plural]
        out[game] = sorted({*words, *RULES_WORDS.get(game, ())})
    return out


def vocabulary_pattern(words: list[str]) -> re.Pattern[str]:
    """A pattern of whole words, where a space and an underscore are alike
    (``combat_chain`` and "combat chain")."""
    spelled = sorted((re.escape(w.replace("_", " ")) for w in words), key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(spelled) + r")\b", re.IGNORECASE)


def texts_of(source: str, file: str) -> Iterator[tuple[int, str]]:
    """Every text of a module that could speak a game's words, its
    docstrings aside (whose doctests show a game being played): its strings,
    its names (of variables, attributes, functions, classes, arguments and
    keywords) and its comments, each with its line."""
    tree = ast.parse(source, file)
    skip = docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in skip:
                yield node.lineno, node.value
        elif isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, ast.arg | ast.keyword) and node.arg:
            yield node.lineno, node.arg
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.lineno, node.name
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string


def game_words_in(source: str, file: str, vocabulary: dict[str, list[str]]) -> list[str]:
    """Every text of a module that speaks a game's words, with the game."""
    patterns = {game: vocabulary_pattern(words) for game, words in vocabulary.items()}
    found = []
    for line, text in texts_of(source, file):
        spoken = text.replace("_", " ")
        for game, pattern in patterns.items():
            match = pattern.search(spoken)
            if match:
                found.append(f"{file}:{line}: {game}'s {match[0]!r} in {text[:60]!r}")
    return found


def outside_the_games() -> list[tuple[Path, str]]:
    """Every module of cardzones outside the shipped games' packages."""
    own = [PACKAGE / "rulesets" / game for game in SHIPPED]
    return [(p, name) for p, name in package_modules() if not any(p.is_relative_to(o) for o in own)]


def held_to_no_game() -> list[tuple[Path, str]]:
    """The modules outside the games' packages that the vocabulary check
    holds, all but the allowed places (which
    :func:`test_every_allowed_place_still_speaks_a_game` checks instead)."""
    return [
        (p, name)
        for p, name in outside_the_games()
        if str(p.relative_to(ROOT)) not in VOCABULARY_ALLOWED
    ]


@pytest.mark.parametrize("path,name", held_to_no_game(), ids=lambda v: str(v))
def test_no_module_outside_a_game_speaks_its_words(path: Path, name: str) -> None:
    """A game's words are its rule set's: its zone types, its variants (fab's
    pitch) and what its rules call things. Code outside its package takes
    them from the rule set (``zone_specs``, ``variants``) and speaks of zones
    and variants in general."""
    relative = str(path.relative_to(ROOT))
    source = path.read_text(encoding="utf-8")
    assert game_words_in(source, relative, game_vocabulary()) == []


def board_words_in(text: str, file: str, vocabulary: dict[str, list[str]]) -> list[str]:
    """Every game's word in a file of the board's page, with the game."""
    patterns = {game: vocabulary_pattern(words) for game, words in vocabulary.items()}
    spoken = text.replace("_", " ")
    return [
        f"{file}: {game}'s {m[0]!r}"
        for game, pattern in patterns.items()
        for m in pattern.finditer(spoken)
    ]


def test_the_board_speaks_no_game() -> None:
    """The board's page takes a game's words from its rule set, as it takes
    its layout."""
    vocabulary = game_vocabulary()
    files = sorted(p for p in STATIC.rglob("*") if p.suffix in (".js", ".css", ".html"))
    assert files, "the board's page is missing"
    found = [
        word
        for p in files
        if str(p.relative_to(ROOT)) not in STATIC_VOCABULARY_ALLOWED
        for word in board_words_in(p.read_text(encoding="utf-8"), p.name, vocabulary)
    ]
    assert found == []


def test_every_allowed_place_still_speaks_a_game() -> None:
    """An allowance that is no longer needed is taken out."""
    vocabulary = game_vocabulary()
    for relative in VOCABULARY_ALLOWED:
        source = (ROOT / relative).read_text(encoding="utf-8")
        assert game_words_in(source, relative, vocabulary), f"{relative} needs no allowance"
    for relative in STATIC_VOCABULARY_ALLOWED:
        text = (ROOT / relative).read_text(encoding="utf-8")
        assert board_words_in(text, relative, vocabulary), f"{relative} needs no allowance"


def test_the_vocabulary_is_read_from_the_rule_sets() -> None:
    vocabulary = game_vocabulary()
    assert {"pitch", "pitches", "arsenal", "combat_chain"} <= set(vocabulary["fab"])
    assert {"land_of_bondage", "field_of_battle", "lost soul", "brigade"} <= set(
        vocabulary["redemption"]
    )
    assert not {"hand", "deck"} & {*vocabulary["fab"], *vocabulary["redemption"]}


#: Texts that speak a game's words, and the word found first.
WORD_PROBES = (
    ('CARD = {"pitch": 1}\n', "fab's 'pitch'"),
    ("def f(card):\n    return card.pitch\n", "fab's 'pitch'"),
    ("x = 1  # to the arsenal\n", "fab's 'arsenal'"),
    ('Dest("combat_chain")\n', "fab's 'combat chain'"),
    ("def pitch_words():\n    pass\n", "fab's 'pitch'"),
    ('raise E("a Lost Soul is rescued")\n', "redemption's 'Lost Soul'"),
    ("land_of_bondage = 3\n", "redemption's 'land of bondage'"),
)


def test_the_game_word_finder_finds_them_outside_docstrings() -> None:
    vocabulary = game_vocabulary()
    for source, expected in WORD_PROBES:
        found = game_words_in(source, "probe.py", vocabulary)
        assert found and expected in found[0], (source, found)
    left_alone = (
        '"""A module.\n\n>>> game.zone("alice", "pitch")\n"""\n'
        "def f(variants):\n"
        '    """Find a fab card by its pitch."""\n'
        "    return variants.key, stack.head, pitched, 'hand', 'deck'\n"
    )
    assert game_words_in(left_alone, "probe.py", vocabulary) == []
