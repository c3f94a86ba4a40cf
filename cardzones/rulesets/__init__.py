"""The rule sets that ship with cardzones, by name."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cardzones.errors import UnknownReference
from cardzones.kernel.game import Game
from cardzones.kernel.ruleset import Ruleset


def _fab() -> Ruleset:
    from cardzones.rulesets.fab import FabRuleset

    return FabRuleset()


def _redemption() -> Ruleset:
    from cardzones.rulesets.redemption import RedemptionRuleset

    ruleset: Ruleset = RedemptionRuleset()
    return ruleset


_FACTORIES: dict[str, Callable[[], Ruleset]] = {"fab": _fab, "redemption": _redemption}
_CACHE: dict[str, Ruleset] = {}

RULESETS = tuple(_FACTORIES)


def get_ruleset(name: str) -> Ruleset:
    """The rule set called ``name`` (``fab`` or ``redemption``)."""
    if name not in _FACTORIES:
        raise UnknownReference(f"unknown ruleset {name!r}; use one of {', '.join(RULESETS)}")
    if name not in _CACHE:
        _CACHE[name] = _FACTORIES[name]()
    return _CACHE[name]


def new_game(ruleset: str, players: Sequence[str] = ("alice", "bob"), seed: int = 0) -> Game:
    """A new game of the named rule set with empty zones."""
    return Game(get_ruleset(ruleset), players, seed)
