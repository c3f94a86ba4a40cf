"""The examples in docstrings, and in the guides of docs/, are tests too.

A page of docs/ runs its ```python blocks that hold ``>>>`` examples in order,
as one doctest session, so a guide may build on its earlier examples."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import cardzones

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(cardzones.__path__, "cardzones.")
    if not m.name.endswith(("cli", "bench", "plugin"))
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


DOCS = Path(__file__).resolve().parent.parent / "docs"
_PYTHON = re.compile(r"^```python\n(?P<body>.*?)^```", re.M | re.S)


def _pages() -> list[Path]:
    return sorted(p for p in DOCS.glob("*.md") if ">>> " in p.read_text(encoding="utf-8"))


def _session(page: Path) -> doctest.DocTest:
    """The page's examples as one doctest, each block at its own line."""
    source = page.read_text(encoding="utf-8")
    text = ""
    for match in _PYTHON.finditer(source):
        body = match.group("body")
        if ">>> " not in body:
            continue
        line = source.count("\n", 0, match.start("body"))
        # Blank lines keep each example at its line of the page in reports.
        text += "\n" * max(0, line - text.count("\n")) + body + "\n"
    return doctest.DocTestParser().get_doctest(text, {}, page.name, str(page), 0)


def test_the_api_guide_has_examples() -> None:
    assert DOCS / "api.md" in _pages()
    assert len(_session(DOCS / "api.md").examples) > 60


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.name)
def test_doc_page_examples(page: Path) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(_session(page))
    assert runner.failures == 0, f"{runner.failures} example(s) of docs/{page.name} failed"
