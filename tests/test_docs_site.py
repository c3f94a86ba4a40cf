"""The documentation site: every public module has a page of the API
reference, and ``mkdocs build --strict`` builds the guides and the reference
without a warning (a broken link, an anchor that is not there, a docstring
mkdocstrings cannot read)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import cardzones

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference"


def _defining_modules() -> set[str]:
    """The modules where the names ``cardzones`` exports are defined."""
    out = {"cardzones"}
    for name in cardzones.__all__:
        module = getattr(getattr(cardzones, name), "__module__", None)
        if isinstance(module, str) and module.startswith("cardzones"):
            out.add(module)
    return out


def test_every_module_of_the_public_api_has_a_reference_page() -> None:
    pages = {p.stem for p in REFERENCE.glob("*.md")} - {"index"}
    missing = sorted(_defining_modules() - pages)
    assert missing == []
    for page in REFERENCE.glob("cardzones*.md"):
        assert f"::: {page.stem}" in page.read_text(encoding="utf-8"), page.name


def test_the_site_lists_every_page() -> None:
    class _Loader(yaml.SafeLoader):
        pass

    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)

    def pages(nav: object) -> set[str]:
        if isinstance(nav, str):
            return {nav}
        if isinstance(nav, dict):
            return set().union(*(pages(v) for v in nav.values()))
        if isinstance(nav, list):
            return set().union(*(pages(v) for v in nav))
        return set()

    listed = pages(config["nav"])
    docs = ROOT / "docs"
    on_disk = {p.relative_to(docs).as_posix() for p in docs.rglob("*.md")}
    assert on_disk == listed


def test_docstrings_become_markdown_for_the_reference() -> None:
    spec = importlib.util.spec_from_file_location(
        "griffe_docstrings", ROOT / "tools" / "griffe_docstrings.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = "See :class:`~cardzones.kernel.game.Game` and :meth:`act <Game.act>`.\n\n"
    text += ">>> sorted(x)[:2]\n['a', 'b']\n\nAfter."
    assert module.markdown(text).split("\n") == [
        "See `Game` and `act`.",
        "",
        "```pycon",
        ">>> sorted(x)[:2]",
        "['a', 'b']",
        "```",
        "",
        "After.",
    ]


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    if importlib.util.find_spec("mkdocstrings") is None:
        pytest.skip("needs the docs extra: pip install -e '.[docs]'")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert (tmp_path / "api" / "index.html").exists()
    assert (tmp_path / "reference" / "cardzones.acts.legal" / "index.html").exists()
