"""Read scenario YAML with PyYAML's safe loader, keeping the line of every
mapping, sequence and key so that errors can say ``file:line``.

>>> doc = load_text("name: x\\nsteps:\\n  - expect: {turn: 1}\\n", "s.yaml")
>>> doc["steps"][0].line
3
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from cardzones.errors import ScenarioError


class YMap(dict[str, Any]):
    """A YAML mapping that remembers its line and the line of each key."""

    line: int = 0
    file: str = "<scenario>"
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class YList(list[Any]):
    """A YAML sequence that remembers its line and the line of each item."""

    line: int = 0
    file: str = "<scenario>"
    item_lines: list[int]

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if 0 <= index < len(self.item_lines) else self.line


class _Loader(yaml.SafeLoader):
    file = "<scenario>"


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> YMap:
    loader.flatten_mapping(node)
    out = YMap()
    out.line = node.start_mark.line + 1
    out.file = loader.file
    out.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if not isinstance(key, str):
            # YAML 1.1 reads a bare on/off/yes/no as a boolean.
            raise ScenarioError(
                f"key {key!r} is not a string (quote it; YAML 1.1 reads on/off/yes/no as booleans)",
                file=loader.file,
                line=line,
            )
        if key in out:
            raise ScenarioError(f"duplicate key {key!r}", file=loader.file, line=line)
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[key] = line
    return out


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> YList:
    out = YList(loader.construct_object(child, deep=True) for child in node.value)
    out.line = node.start_mark.line + 1
    out.file = loader.file
    out.item_lines = [child.start_mark.line + 1 for child in node.value]
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def load_text(text: str, file: str = "<scenario>") -> Any:
    """Parse YAML text; a syntax error becomes a :class:`ScenarioError` with its line."""
    loader = _Loader(text)
    loader.file = file
    try:
        return loader.get_single_data()
    except ScenarioError:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise ScenarioError(f"invalid YAML: {problem}", file=file, line=line) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"invalid YAML: {exc}", file=file, line=1) from None
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        raise ScenarioError(f"invalid YAML value: {exc}", file=file, line=1) from None
    finally:
        loader.dispose()


def load_file(path: str | Path) -> Any:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ScenarioError("the file is not UTF-8 text", file=str(path), line=1) from None
    except OSError as exc:
        raise ScenarioError(f"cannot read the file: {exc.strerror}", file=str(path)) from None
    return load_text(text, str(path))
