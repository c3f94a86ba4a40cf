"""Saving and loading a whole game as JSON-ready data.

**The full state is the secret-bearing form.** It holds every hidden card: the
order of every deck, every hand, every face-down card, the seed that decides
future shuffles and the key of the object handles of views. Store it where only the
engine can read it, and never send it to a player; a player gets
:meth:`Game.view <cardzones.kernel.game.Game.view>` and
:meth:`Game.log <cardzones.kernel.game.Game.log>`.

The data holds the rule set's name, the players, the seed, the handle key and every map of the
state, card definitions (with their abilities) included, and the event log.
The undo history is not saved: a loaded game starts with nothing to undo, as
a game does after its setup. Loading and saving again gives the same data.

>>> from cardzones import Game, new_game
>>> game = new_game("fab", ["alice", "bob"], seed=7)
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "deck"))
>>> _ = game.move(card, game.zone("alice", "hand"))
>>> again = Game.from_json(game.to_json(), game.ruleset)
>>> again.view("alice") == game.view("alice"), again.log("bob") == game.log("bob")
(True, True)
>>> again.to_json() == game.to_json()
True

The kernel loads a game of a rule set it is given; ``cardzones.load_game``
finds the rule set by the name the data holds.

The encoding is plain JSON: a tuple is a list; any other container or record
is an object with one ``$`` key naming its kind. Records (named tuples and
dataclasses) are named by module and class, and only classes of cardzones
itself or of the rule set's own package are ever loaded, so data cannot make
the loader import anything else.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from enum import Enum
from typing import Any

from cardzones.errors import CardzonesError
from cardzones.kernel.cards import CardDef
from cardzones.kernel.contents import _layout
from cardzones.kernel.events import Event, iter_log
from cardzones.kernel.ruleset import GameState, Ruleset
from cardzones.kernel.zones import ZoneSpec

FORMAT = "cardzones-state/1"

#: The journaled maps of a State, in the order of ``State._maps``.
MAPS = ("objs", "contents", "zones", "zinfo", "kids", "effects", "fx_by_card", "vars", "rules")

#: Immutable records shared by many objects: written once, then referred to.
_SHARED = (CardDef, ZoneSpec)
#: The fields a CardDef had before ``extra``, and their names in it.
_OLD_CARD = {"brigades": "brigade", "classes": "class", "alignment": "alignment"}


class SerialError(CardzonesError):
    """The data is not a saved game this version can load."""


# ----------------------------------------------------------------------
# Encoding
# ----------------------------------------------------------------------


class _Encoder:
    def __init__(self) -> None:
        self.shared: list[Any] = []
        self._index: dict[int, int] = {}
        self._keep: list[Any] = []  # keeps id() keys alive and unique

    def ref(self, value: Any) -> dict[str, Any]:
        # By identity: a CardDef is not hashable (its stats are a dict), and
        # one instance per printed card is what the game shares anyway.
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
            if len(value) == 2 and isinstance(value[0], Event):
                # The event log is a linked list; written flat, oldest first,
                # so a long game does not nest thousands deep.
                return {"$": "log", "events": [self.encode(e) for e in iter_log(value)]}
            return [self.encode(v) for v in value]
        if cls is list:
            return {"$": "list", "items": [self.encode(v) for v in value]}
        if cls is dict:
            return {
                "$": "dict",
                "items": [[self.encode(k), self.encode(v)] for k, v in value.items()],
            }
        if cls is frozenset or cls is set:
            # Sorted, so that the same state always gives the same data, in any
            # process (set order depends on string hashing).
            items = sorted((self.encode(v) for v in value), key=_canonical)
            return {"$": cls.__name__, "items": items}
        if isinstance(value, Enum):
            return self.enum(value)
        if isinstance(value, _SHARED):
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


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def game_to_json(game: GameState) -> dict[str, Any]:
    """The full state of ``game`` as JSON-ready data. Secret-bearing."""
    if len(game._maps) != len(MAPS):
        raise SerialError(f"the state has {len(game._maps)} maps; this format knows {len(MAPS)}")
    enc = _Encoder()
    state = {name: enc.encode(m) for name, m in zip(MAPS, game._maps, strict=True)}
    return {
        "format": FORMAT,
        "ruleset": game.ruleset.name,
        "players": list(game.players),
        "seed": game.seed,
        "handle_key": game.handle_key,
        "shared": enc.shared,
        "state": state,
    }


# ----------------------------------------------------------------------
# Decoding
# ----------------------------------------------------------------------


def _load_class(path: Any, package: str = "cardzones") -> type:
    if not isinstance(path, str) or ":" not in path:
        raise SerialError(f"bad class name {path!r}")
    module_name, qualname = path.split(":", 1)
    # Only the records of cardzones and of the rule set's own package, which is
    # imported already: data must not choose what gets imported.
    trusted = {"cardzones", package}
    if not any(module_name == p or module_name.startswith(p + ".") for p in trusted):
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


class _Decoder:
    def __init__(self, shared: list[Any], ruleset: Ruleset[Any]) -> None:
        self.ruleset = ruleset
        self.package = type(ruleset).__module__.split(".")[0]
        self.raw = shared
        self.shared: list[Any] = [_PENDING] * len(shared)

    def ref(self, i: Any) -> Any:
        if not isinstance(i, int) or not 0 <= i < len(self.raw):
            raise SerialError(f"bad shared record index {i!r}")
        value = self.shared[i]
        if value is _PENDING:
            value = self.decode(self.raw[i])
            if isinstance(value, ZoneSpec):
                # The rule set's own spec when it is the same: games share them.
                own = self.ruleset.zone_specs.get(value.type)
                if own == value:
                    value = own
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
            cls = _load_class(data.get("class"), self.package)
            fields = {k: self.decode(v) for k, v in dict(data.get("fields", {})).items()}
            if cls is CardDef and "extra" not in fields:  # saved before it had one
                old = {_OLD_CARD[k]: fields.pop(k) for k in _OLD_CARD if k in fields}
                fields["extra"] = {k: v for k, v in old.items() if v}
            if not (
                dataclasses.is_dataclass(cls)
                or (issubclass(cls, tuple) and hasattr(cls, "_fields"))
            ):
                raise SerialError(f"{data.get('class')!r} is not a record class")
            try:
                return cls(**fields)
            except TypeError as exc:
                raise SerialError(f"cannot make {data.get('class')}: {exc}") from None
        if kind == "enum":
            cls = _load_class(data.get("class"), self.package)
            if not issubclass(cls, Enum):
                raise SerialError(f"{data.get('class')!r} is not an enum")
            return cls(self.decode(data.get("value")))
        if kind == "log":
            log: Any = None
            for item in data.get("events", []):
                event = self.decode(item)
                if not isinstance(event, Event):
                    raise SerialError("the log holds something other than events")
                log = (event, log)
            return log
        if kind == "list":
            return [self.decode(v) for v in data.get("items", [])]
        if kind == "dict":
            return {self.decode(k): self.decode(v) for k, v in data.get("items", [])}
        if kind == "frozenset":
            return frozenset(self.decode(v) for v in data.get("items", []))
        if kind == "set":
            return {self.decode(v) for v in data.get("items", [])}
        raise SerialError(f"unknown kind {kind!r} in saved data")


_PENDING: Any = object()


def check_format(data: Any) -> str:
    """The name of the rule set a saved game names; anything that is not a
    saved game of this format is refused."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SerialError(f"not a saved cardzones game (format {FORMAT})")
    name = data.get("ruleset")
    if not isinstance(name, str):
        raise SerialError("the saved game names no rule set")
    return name


def check_ruleset(data: dict[str, Any], ruleset: Ruleset[Any] | None) -> Ruleset[Any]:
    """The rule set to load ``data`` as: it must be given, and be the one the
    data names. The kernel knows no rule set by name; ``cardzones.load_game``
    finds it."""
    name = check_format(data)
    if ruleset is None:
        raise SerialError(
            f"loading a saved game needs its rule set ({name}): pass it, "
            "or use cardzones.load_game(data), which finds it by name"
        )
    if ruleset.name != name:
        raise SerialError(f"the data is a {name} game, not {ruleset.name}")
    return ruleset


def restore(game: GameState, data: dict[str, Any]) -> None:
    """Replace every map of ``game``, a new game of the data's rule set,
    players and seed, by the saved one, and forget its history."""
    decoder = _Decoder(list(data["shared"]), game.ruleset)
    state = data["state"]
    game._own_all()  # the maps are filled in place below
    for name, target in zip(MAPS, game._maps, strict=True):
        if not isinstance(target, dict):
            raise SerialError(f"the game's {name} map is not a dict")
        loaded = decoder.decode(state[name])
        if not isinstance(loaded, dict):
            raise SerialError(f"the {name} map is not a mapping")
        target.clear()
        target.update(loaded)
    # The zone list is derived from the zones, so it is made again rather than
    # trusted (and saves from before it was kept still load).
    game._vars["layout"] = _layout(game)
    game._journal = None
    game._marks = None


def value_to_json(value: Any) -> dict[str, Any]:
    """Any value a game may hold (records, tuples, dicts of them) as JSON-ready
    data, for state kept beside a game, such as the handles of its effects.

    >>> from cardzones.kernel.ruleset import Ruleset
    >>> value_from_json(value_to_json({"e1": ("kernel", 3)}), Ruleset())
    {'e1': ('kernel', 3)}
    """
    enc = _Encoder()
    data = enc.encode(value)
    return {"format": FORMAT, "shared": enc.shared, "value": data}


def value_from_json(data: dict[str, Any], ruleset: Ruleset[Any]) -> Any:
    """The value :func:`value_to_json` wrote, with the zone specs and the
    record classes of ``ruleset``, the rule set of the game it was kept beside
    (as :meth:`Game.from_json <cardzones.kernel.game.Game.from_json>` loads a
    game)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SerialError(f"not a saved cardzones value (format {FORMAT})")
    return _Decoder(list(data.get("shared", [])), ruleset).decode(data.get("value"))
