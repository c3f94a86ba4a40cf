"""Records as plain JSON and back: named tuples, dataclasses and enums, in
tuples, lists, dicts and sets.

The encoding is plain JSON: a tuple is a list; any other container or record
is an object with one ``$`` key naming its kind. Records (named tuples and
dataclasses) are named by module and class, and only classes of the trusted
packages are ever loaded, so data cannot make the loader import anything else.

The codec knows nothing of what it writes. Its caller tells it which record
classes are written once and then referred to (records many values share),
which linked list is written flat, and what to do with a record as it is
loaded (share an equal one the caller has already, upgrade the fields of an
older version).

>>> data = Encoder().encode({"a": (1, frozenset({"x"}))})
>>> data
{'$': 'dict', 'items': [['a', [1, {'$': 'frozenset', 'items': ['x']}]]]}
>>> Decoder([]).decode(data)
{'a': (1, frozenset({'x'}))}
>>> Decoder([]).decode({"$": "record", "class": "os:sep", "fields": {}})
Traceback (most recent call last):
...
cardzones.errors.SerialError: refusing to load 'os:sep': not a cardzones class
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from typing import Any, NamedTuple

from cardzones.errors import SerialError


class Chain(NamedTuple):
    """A linked list of ``(item, rest)`` pairs, the last ``rest`` None and the
    newest item first, as a log that grows at its head is kept. It is written
    flat, oldest first, as ``{"$": kind, key: [items]}``, so that a long one
    does not nest thousands deep; a pair whose first value is an ``item`` is
    taken to be one."""

    kind: str
    key: str
    item: type


class Encoder:
    """Writes values as JSON-ready data; :attr:`shared` holds the records of
    the ``shared`` classes, each written once and referred to by its index."""

    def __init__(self, shared: tuple[type, ...] = (), chain: Chain | None = None) -> None:
        self.shared: list[Any] = []
        self._classes = shared
        self._chain = chain
        self._index: dict[int, int] = {}
        self._keep: list[Any] = []  # keeps id() keys alive and unique

    def ref(self, value: Any) -> dict[str, Any]:
        # By identity: a shared record need not be hashable (a dict field),
        # and one instance shared by many values is what is worth writing once.
        i = self._index.get(id(value))
        if i is None:
            i = len(self.shared)
            self._index[id(value)] = i
            self._keep.append(value)
            self.shared.append(None)  # reserve the slot before encoding inside it
            self.shared[i] = self.record(value)
        return {"$": "ref", "i": i}

    def record(self, value: Any) -> dict[str, Any]:
        cls = type(value)
        if dataclasses.is_dataclass(value):
            names = [f.name for f in dataclasses.fields(value) if f.init]
        else:
            names = list(cls._fields)
        return {
            "$": "record",
            "class": f"{cls.__module__}:{cls.__qualname__}",
            "fields": {n: self.encode(getattr(value, n)) for n in names},
        }

    def encode(self, value: Any) -> Any:
        if value is None or isinstance(value, bool | int | str):
            if isinstance(value, Enum):
                return self.enum(value)
            return value
        if isinstance(value, float):
            return value
        cls = type(value)
        if cls is tuple:
            chain = self._chain
            if chain is not None and len(value) == 2 and isinstance(value[0], chain.item):
                return {"$": chain.kind, chain.key: [self.encode(v) for v in _unlink(value)]}
            return [self.encode(v) for v in value]
        if cls is list:
            return {"$": "list", "items": [self.encode(v) for v in value]}
        if cls is dict:
            return {
                "$": "dict",
                "items": [[self.encode(k), self.encode(v)] for k, v in value.items()],
            }
        if cls is frozenset or cls is set:
            # Sorted, so that the same value always gives the same data, in any
            # process (set order depends on string hashing).
            items = sorted((self.encode(v) for v in value), key=canonical)
            return {"$": cls.__name__, "items": items}
        if isinstance(value, Enum):
            return self.enum(value)
        if isinstance(value, self._classes):
            return self.ref(value)
        if dataclasses.is_dataclass(value) or (
            isinstance(value, tuple) and hasattr(cls, "_fields")
        ):
            return self.record(value)
        raise SerialError(f"cannot save a {cls.__module__}.{cls.__qualname__} value")

    def enum(self, value: Enum) -> dict[str, Any]:
        cls = type(value)
        return {
            "$": "enum",
            "class": f"{cls.__module__}:{cls.__qualname__}",
            "value": self.encode(value.value),
        }


def _unlink(chain: tuple[Any, Any]) -> list[Any]:
    """The items of a linked list, oldest first."""
    items: list[Any] = []
    rest: Any = chain
    while rest is not None:
        items.append(rest[0])
        rest = rest[1]
    return items[::-1]


def canonical(value: Any) -> str:
    """The one JSON text of JSON-ready data: keys sorted, no spaces. Equal
    data gives the same text in any process, so it orders values that have
    no order of their own.

    >>> canonical({"b": [1, 2], "a": None})
    '{"a":null,"b":[1,2]}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def load_class(path: Any, packages: Iterable[str] = ("cardzones",)) -> type:
    """The class ``module:qualname`` names, which must be in one of ``packages``
    (imported already: data must not choose what gets imported)."""
    if not isinstance(path, str) or ":" not in path:
        raise SerialError(f"bad class name {path!r}")
    module_name, qualname = path.split(":", 1)
    if not any(module_name == p or module_name.startswith(p + ".") for p in packages):
        raise SerialError(f"refusing to load {path!r}: not a cardzones class")
    try:
        obj: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        raise SerialError(f"unknown class {path!r}") from None
    if not isinstance(obj, type):
        raise SerialError(f"{path!r} is not a class")
    return obj


#: Makes the fields of a record of an older version into this version's.
Upgrade = Callable[[dict[str, Any]], dict[str, Any]]


class Decoder:
    """Reads back what an :class:`Encoder` wrote, ``shared`` being its
    :attr:`~Encoder.shared`. Records load only from ``packages``; ``on_shared``
    is given each shared record as it is loaded and returns the one to share
    (an equal one its caller has already, say); ``upgrade`` makes the fields
    of a record class saved by an older version into this version's."""

    def __init__(
        self,
        shared: list[Any],
        *,
        packages: Iterable[str] = ("cardzones",),
        chain: Chain | None = None,
        on_shared: Callable[[Any], Any] | None = None,
        upgrade: Mapping[type, Upgrade] | None = None,
    ) -> None:
        self.raw = shared
        self.shared: list[Any] = [_PENDING] * len(shared)
        self._packages = tuple(packages)
        self._chain = chain
        self._on_shared = on_shared
        self._upgrade = upgrade or {}

    def ref(self, i: Any) -> Any:
        if not isinstance(i, int) or not 0 <= i < len(self.raw):
            raise SerialError(f"bad shared record index {i!r}")
        value = self.shared[i]
        if value is _PENDING:
            value = self.decode(self.raw[i])
            if self._on_shared is not None:
                value = self._on_shared(value)
            self.shared[i] = value
        return value

    def decode(self, data: Any) -> Any:
        if data is None or isinstance(data, bool | int | float | str):
            return data
        if isinstance(data, list):
            return tuple(self.decode(v) for v in data)
        if not isinstance(data, dict):
            raise SerialError(f"unexpected {type(data).__name__} in saved data")
        kind = data.get("$")
        if kind == "ref":
            return self.ref(data.get("i"))
        if kind == "record":
            return self.record(data)
        if kind == "enum":
            cls = load_class(data.get("class"), self._packages)
            if not issubclass(cls, Enum):
                raise SerialError(f"{data.get('class')!r} is not an enum")
            return cls(self.decode(data.get("value")))
        chain = self._chain
        if chain is not None and kind == chain.kind:
            linked: Any = None
            for item in data.get(chain.key, []):
                value = self.decode(item)
                if not isinstance(value, chain.item):
                    raise SerialError(f"the {kind} holds something other than {chain.key}")
                linked = (value, linked)
            return linked
        if kind == "list":
            return [self.decode(v) for v in data.get("items", [])]
        if kind == "dict":
            return {self.decode(k): self.decode(v) for k, v in data.get("items", [])}
        if kind == "frozenset":
            return frozenset(self.decode(v) for v in data.get("items", []))
        if kind == "set":
            return {self.decode(v) for v in data.get("items", [])}
        raise SerialError(f"unknown kind {kind!r} in saved data")

    def record(self, data: dict[str, Any]) -> Any:
        cls = load_class(data.get("class"), self._packages)
        fields = {k: self.decode(v) for k, v in dict(data.get("fields", {})).items()}
        upgrade = self._upgrade.get(cls)
        if upgrade is not None:
            fields = upgrade(fields)
        if not (
            dataclasses.is_dataclass(cls) or (issubclass(cls, tuple) and hasattr(cls, "_fields"))
        ):
            raise SerialError(f"{data.get('class')!r} is not a record class")
        try:
            return cls(**fields)
        except TypeError as exc:
            raise SerialError(f"cannot make {data.get('class')}: {exc}") from None


_PENDING: Any = object()
