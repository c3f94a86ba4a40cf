"""Read scenario YAML with PyYAML's safe loader, keeping the line of every
mapping, sequence and key so that errors can say ``file:line``.

>>> doc = load_text("name: x\\nsteps:\\n  - expect: {turn: 1}\\n", "s.yaml")
>>> doc["steps"][0].line
3
"""

from __future__ import annotations

import re
import reprlib
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


#: A bounded repr, for values that may be huge once their aliases are expanded.
_SHORT = reprlib.Repr()
_SHORT.repr_YList = _SHORT.repr_list  # type: ignore[attr-defined]
_SHORT.repr_YMap = _SHORT.repr_dict  # type: ignore[attr-defined]


#: Inside a flow collection (``{...}``, ``[...]``), a card reference ``ZONE[i]``
#: directly after a plain scalar: ``alice.deck[0]``, ``alice.deck[-1]``.
_INDEX = re.compile(r"\[-?\d+\]")
_BREAKS = "\0 \t\r\n\x85\u2028\u2029"


class _Loader(yaml.SafeLoader):
    file = "<scenario>"

    def scan_plain(self) -> yaml.ScalarToken:
        """PyYAML's plain scalar scanner, which also reads ``ZONE[i]`` whole
        inside a flow collection: ``{card: alice.deck[0], to: alice.hand}``.

        YAML ends a plain scalar at ``[`` there, so the text would be an error
        otherwise; a ``[`` straight after the scalar's last character and
        followed by an index and ``]`` is taken as part of it instead. This is
        the method of ``yaml.scanner.Scanner`` (PyYAML 6) with that one change.
        """
        chunks: list[str] = []
        start_mark = self.get_mark()
        end_mark = start_mark
        indent = self.indent + 1
        spaces: Any = []
        while True:
            length = 0
            if self.peek() == "#":
                break
            while True:
                ch = self.peek(length)
                if self.flow_level and ch == "[" and length:
                    found = _INDEX.match(self.prefix(length + 24), length)
                    if found is not None:
                        length = found.end()
                        continue
                if (
                    ch in _BREAKS
                    or (
                        ch == ":"
                        and self.peek(length + 1) in _BREAKS + (",[]{}" if self.flow_level else "")
                    )
                    or (self.flow_level and ch in ",?[]{}")
                ):
                    break
                length += 1
            if length == 0:
                break
            self.allow_simple_key = False
            chunks.extend(spaces)
            chunks.append(self.prefix(length))
            self.forward(length)
            end_mark = self.get_mark()
            spaces = self.scan_plain_spaces(indent, start_mark)
            if not spaces or self.peek() == "#" or (not self.flow_level and self.column < indent):
                break
        return yaml.ScalarToken("".join(chunks), True, start_mark, end_mark)


def _construct_value(loader: _Loader, node: yaml.Node) -> Any:
    """A value, with the line of its node when it cannot be read (a number with
    too many digits, a bad timestamp or base64)."""
    try:
        return loader.construct_object(node, deep=True)
    except ScenarioError:
        raise
    except (ValueError, TypeError, OverflowError) as exc:
        raise ScenarioError(
            f"invalid YAML value: {exc}", file=loader.file, line=node.start_mark.line + 1
        ) from None


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
                f"key {_SHORT.repr(key)} is not a string (quote it; YAML 1.1 reads "
                "on/off/yes/no as booleans)",
                file=loader.file,
                line=line,
            )
        if key in out:
            raise ScenarioError(f"duplicate key {key!r}", file=loader.file, line=line)
        out[key] = _construct_value(loader, value_node)
        out.key_lines[key] = line
    return out


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> YList:
    out = YList(_construct_value(loader, child) for child in node.value)
    out.line = node.start_mark.line + 1
    out.file = loader.file
    out.item_lines = [child.start_mark.line + 1 for child in node.value]
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def _reader_problem(exc: yaml.reader.ReaderError) -> str:
    char = exc.character
    code = char if isinstance(char, int) else ord(char[:1] or "\0")
    return f"unacceptable character U+{code:04X}: {exc.reason}"


#: The most values a scenario may hold once its YAML aliases are expanded. An
#: alias is a reference, so a few lines can name billions of values ("billion
#: laughs"); every message that shows such a value would never finish.
MAX_VALUES = 100_000


def _check_size(doc: Any, file: str) -> None:
    """Refuse a document that is too large once its aliases are expanded, or
    that contains itself through an alias."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()

    def size(node: Any) -> int:
        if not isinstance(node, list | dict):
            return 1
        key = id(node)
        if key in sizes:
            return sizes[key]
        line = getattr(node, "line", 1) or 1
        if key in open_nodes:
            raise ScenarioError(
                "a YAML alias refers to a value that contains it", file=file, line=line
            )
        open_nodes.add(key)
        total = 1
        for child in node.values() if isinstance(node, dict) else node:
            total += size(child)
            if total > MAX_VALUES:
                raise ScenarioError(
                    f"the file holds more than {MAX_VALUES} values once its YAML aliases "
                    "are expanded",
                    file=file,
                    line=line,
                )
        open_nodes.discard(key)
        sizes[key] = total
        return total

    size(doc)


#: The largest scenario file, in bytes. The biggest real ruling is a few
#: kilobytes; a larger file is refused before it is read or parsed.
MAX_BYTES = 1_000_000


def _too_big(size: int, file: str) -> ScenarioError:
    return ScenarioError(
        f"the file is {size:,} bytes, over the limit of {MAX_BYTES:,} bytes (1 MB) "
        "for a scenario file",
        file=file,
        line=1,
    )


def load_text(text: str, file: str = "<scenario>") -> Any:
    """Parse YAML text; a syntax error becomes a :class:`ScenarioError` with its line.

    A text over :data:`MAX_BYTES` (in UTF-8) is refused before it is parsed.
    """
    if len(text) * 4 > MAX_BYTES:  # cheap first: at most four bytes a character
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > MAX_BYTES:
            raise _too_big(size, file)
    try:
        # The reader checks the characters as soon as it is made.
        loader = _Loader(text)
    except yaml.reader.ReaderError as exc:
        line = text[: max(0, exc.position)].count("\n") + 1
        raise ScenarioError(f"invalid YAML: {_reader_problem(exc)}", file=file, line=line) from None
    loader.file = file
    try:
        doc = loader.get_single_data()
        _check_size(doc, file)
        return doc
    except ScenarioError:
        raise
    except yaml.reader.ReaderError as exc:
        line = text[: max(0, exc.position)].count("\n") + 1
        raise ScenarioError(f"invalid YAML: {_reader_problem(exc)}", file=file, line=line) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = exc.problem or exc.context or "invalid YAML"
        if "got '['" in problem:
            # Real card names carry brackets (LackeyCCG's "Abandoned [K]"); a
            # space before the '[' makes it a list inside [...] or {...}.
            problem += (
                '; inside [...] or {...} a name holding brackets is quoted, as in ["Abandoned [K]"]'
            )
        raise ScenarioError(f"invalid YAML: {problem}", file=file, line=line) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"invalid YAML: {exc}", file=file, line=1) from None
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        raise ScenarioError(f"invalid YAML value: {exc}", file=file, line=1) from None
    finally:
        loader.dispose()


def from_data(value: Any, file: str = "<data>") -> Any:
    """Plain data (as JSON gives it) as the nodes a loaded file has, so that the
    scenario layer reads it as it reads a file. The nodes have no lines.

    >>> node = from_data({"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
    >>> isinstance(node["move"], YMap), node["move"].line_of("to")
    (True, 0)
    """
    if isinstance(value, dict):
        out = YMap()
        out.file = file
        out.key_lines = {}
        for key, item in value.items():
            out[key] = from_data(item, file)
        return out
    if isinstance(value, list):
        seq = YList(from_data(item, file) for item in value)
        seq.file = file
        seq.item_lines = []
        return seq
    return value


def load_file(path: str | Path) -> Any:
    """Read and parse a scenario file. A file over :data:`MAX_BYTES` is refused
    at once, before it is read."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise _too_big(size, str(path))
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ScenarioError("the file is not UTF-8 text", file=str(path), line=1) from None
    except OSError as exc:
        raise ScenarioError(f"cannot read the file: {exc.strerror}", file=str(path)) from None
    return load_text(text, str(path))
