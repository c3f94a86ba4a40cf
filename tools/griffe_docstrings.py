"""A griffe extension for the API reference (mkdocs.yml): the docstrings of
cardzones are written for ``help()`` and doctest, in reStructuredText habits,
and this turns them into the Markdown mkdocstrings renders.

- A doctest block (``>>>`` lines and their output, up to a blank line)
  becomes a fenced ``pycon`` block, so that its brackets are code and not
  Markdown links.
- A Sphinx role (``:class:`~cardzones.kernel.game.Game```, ``:func:`bind```,
  ``:meth:`text <target>```) becomes a code span of the name it shows.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj):`(?P<body>[^`]+)`")


def _shown(match: re.Match[str]) -> str:
    body = match.group("body").strip()
    text = re.sub(r"\s*<[^>]+>$", "", body) if body.endswith(">") else body
    if text.startswith("~"):
        text = text[1:].rsplit(".", 1)[-1]
    return f"`{text}`"


def markdown(docstring: str) -> str:
    """The docstring with its doctest blocks fenced and its roles as code
    (tests/test_docs_site.py shows it on an example)."""
    out: list[str] = []
    in_block = False
    fenced = False
    for line in docstring.split("\n"):
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        if not fenced and not in_block and stripped.startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            in_block = True
        elif in_block and not stripped:
            out.append(f"{indent}```")
            in_block = False
        out.append(line if in_block or fenced else _ROLE.sub(_shown, line))
    if in_block:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Rewrites every docstring with :func:`markdown` as griffe loads it."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
