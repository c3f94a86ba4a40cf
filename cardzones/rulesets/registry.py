"""The rule sets a program can use, by name.

Rule sets are found through the entry-point group ``cardzones.rulesets``: an
installed package names its rule set in its metadata, and cardzones finds it
without any change to cardzones itself. The two rule sets that ship with
cardzones are found the same way (see ``pyproject.toml``)::

    [project.entry-points."cardzones.rulesets"]
    fab = "cardzones.rulesets.fab:FabRuleset"

An entry point names a :class:`~cardzones.rulesets.base.Ruleset` subclass,
an instance, or a function that returns one; its name must be the rule set's
``name``. A program may also register a rule set itself with
:func:`register_ruleset`, which takes precedence over an entry point of the
same name.

Everything that finds a rule set by name goes through here: :func:`new_game`,
:func:`load_game` for saved games, and the scenario runner.

>>> "fab" in ruleset_names(), get_ruleset("fab").name
(True, 'fab')
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from cardzones.errors import CardzonesError, UnknownReference
from cardzones.kernel.game import Game
from cardzones.kernel.serial import check_format
from cardzones.rulesets.base import Ruleset

#: The entry-point group rule sets are found in.
GROUP = "cardzones.rulesets"

#: What a rule set is registered as: a rule set, its class, or a function making one.
RulesetSource = Ruleset | type[Ruleset] | Callable[[], Ruleset]


class RulesetError(CardzonesError):
    """A rule set could not be loaded or registered."""


#: Rule sets registered by the program, by name.
_REGISTERED: dict[str, RulesetSource] = {}
#: Rule sets made so far, by name: each is made once and shared by its games.
_CACHE: dict[str, Ruleset] = {}


def _make(source: Any, where: str) -> Ruleset:
    """The rule set an entry point or a registration gives."""
    try:
        if isinstance(source, Ruleset):
            made: Any = source
        elif (isinstance(source, type) and issubclass(source, Ruleset)) or callable(source):
            made = source()
        else:
            made = source
    except CardzonesError:
        raise
    except Exception as exc:  # a broken plugin must not crash the program
        raise RulesetError(f"{where} could not make its rule set: {exc}") from exc
    if not isinstance(made, Ruleset):
        raise RulesetError(f"{where} gives {made!r}, which is not a cardzones Ruleset")
    return made


def _entry_points() -> dict[str, EntryPoint]:
    """The group's entry points by name, the first of each name: read once
    for each import path (a distribution put on the path is found then), as
    reading them costs milliseconds and a start position asks for every card."""
    return _entry_points_on(tuple(sys.path))


@functools.lru_cache(maxsize=8)
def _entry_points_on(path: tuple[str, ...]) -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=GROUP):
        found.setdefault(ep.name, ep)
    return found


def register_ruleset(source: RulesetSource, *, replace: bool = False) -> Ruleset:
    """Make a rule set available by its name, for this program, and return it.

    ``source`` is a :class:`Ruleset`, a subclass of it, or a function that
    returns one. A name registered already is refused unless ``replace``; a
    registered rule set shadows an entry point of the same name.

    >>> from cardzones.rulesets.base import Ruleset
    >>> class Blank(Ruleset):
    ...     name = "blank"
    >>> register_ruleset(Blank).name, "blank" in ruleset_names()
    ('blank', True)
    >>> unregister_ruleset("blank")
    """
    ruleset = _make(source, "the registered rule set")
    name = ruleset.name
    if not isinstance(name, str) or not name or name == Ruleset.name:
        raise RulesetError(f"a rule set needs a name of its own, not {name!r}")
    if name in _REGISTERED and not replace:
        raise RulesetError(f"a rule set called {name!r} is registered already")
    _REGISTERED[name] = ruleset
    _CACHE[name] = ruleset
    return ruleset


def unregister_ruleset(name: str) -> None:
    """Forget a rule set :func:`register_ruleset` registered; an entry point of
    the same name is found again."""
    _REGISTERED.pop(name, None)
    _CACHE.pop(name, None)


def ruleset_names() -> tuple[str, ...]:
    """The names of every rule set that can be used now, sorted."""
    return tuple(sorted({*_REGISTERED, *_entry_points()}))


def ruleset_origin(name: str) -> str:
    """Where a rule set comes from: its entry point, or the program."""
    if name in _REGISTERED:
        return "registered"
    ep = _entry_points().get(name)
    if ep is None:
        raise UnknownReference(f"unknown ruleset {name!r}; use one of {', '.join(ruleset_names())}")
    dist = ep.dist.name if ep.dist is not None else "?"
    return f"{ep.value} ({dist})"


def get_ruleset(name: str) -> Ruleset:
    """The rule set called ``name``; an unknown name is refused with the names
    there are."""
    if not isinstance(name, str):
        raise UnknownReference(f"a rule set is named by a text, not {name!r}")
    found = _CACHE.get(name)
    if found is not None:
        return found
    ep = _entry_points().get(name)
    if ep is None:
        names = ", ".join(ruleset_names()) or "none (is cardzones installed?)"
        raise UnknownReference(f"unknown ruleset {name!r}; use one of {names}")
    try:
        source = ep.load()
    except Exception as exc:  # a broken plugin must not crash the program
        raise RulesetError(
            f"the rule set {name!r} ({ep.value}) could not be loaded: {type(exc).__name__}: {exc}"
        ) from exc
    ruleset = _make(source, f"the entry point {name} ({ep.value})")
    if ruleset.name != name:
        raise RulesetError(
            f"the entry point {name} ({ep.value}) gives a rule set called {ruleset.name!r}"
        )
    _CACHE[name] = ruleset
    return ruleset


def new_game(
    ruleset: str | Ruleset,
    players: Sequence[str] = ("alice", "bob"),
    seed: int | None = None,
    handle_key: str | None = None,
) -> Game:
    """A new game of the rule set (or the rule set called ``ruleset``), with
    empty zones. Without ``seed`` or ``handle_key``, each is a new secret
    (see :class:`~cardzones.kernel.game.Game`).

    >>> new_game("redemption").phase
    'draw'
    """
    found = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    return Game(found, players, seed, handle_key)


def load_game(data: dict[str, Any]) -> Game:
    """The game :meth:`Game.to_json` saved, as a game of the rule set the data
    names, with no undo history.

    >>> game = new_game("fab", seed=3)
    >>> load_game(game.to_json()).same_state(game)
    True
    """
    return Game.from_json(data, get_ruleset(check_format(data)))
