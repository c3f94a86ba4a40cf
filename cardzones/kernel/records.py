"""The rule set's own records, kept in the game's journaled state.

A rule set that must remember something the kernel does not know (which
cards a place ability placed, how many turns a set-aside has counted) keeps
it in :attr:`Game.records`. Every key and value must be immutable (a number,
a string, a tuple, a named tuple of such), so that copies of a game share
them and undo restores them by reference; every write is journaled, so undo,
rollback and copies restore the records with the rest of the state. A saved
game (serial.py) holds them too: a record class must be importable from
cardzones or from the rule set's own package.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> with game.atomic():
...     game.records.put(("counter", "alice"), 3)
>>> game.records.get(("counter", "alice")), ("counter", "bob") in game.records
(3, False)
>>> game.undo()
>>> game.records.get(("counter", "alice"), 0)
0
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any

from cardzones.kernel.state import RULES, State


class Records:
    """A view of one game's journaled records, made on each :attr:`Game.records`."""

    __slots__ = ("_game",)

    def __init__(self, game: State) -> None:
        self._game = game

    def get(self, key: Hashable, default: Any = None) -> Any:
        """The record under ``key``, or ``default``."""
        return self._game._rules.get(key, default)

    def put(self, key: Hashable, value: Any) -> None:
        """Store ``value`` under ``key``, as one journaled write."""
        self._game._put(RULES, key, value)

    def pop(self, key: Hashable) -> None:
        """Remove the record under ``key``, if there is one."""
        self._game._pop(RULES, key)

    def __contains__(self, key: object) -> bool:
        return key in self._game._rules

    def __iter__(self) -> Iterator[Any]:
        return iter(tuple(self._game._rules))

    def __len__(self) -> int:
        return len(self._game._rules)

    def items(self) -> list[tuple[Any, Any]]:
        """Every key and record, in the order they were first stored."""
        return list(self._game._rules.items())
