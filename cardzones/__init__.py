"""cardzones: a rules engine for card locations.

Zones, visibility, object identity, cards under and on other cards, placement
and set-aside areas, with two rule sets: Flesh and Blood and Redemption, and
any other rule set installed beside them.

This module is the public API in one place (docs/api.md is the guide):

- the game and what a rule set is made of: the kernel's public surface
  (:mod:`cardzones.kernel`), with :class:`Game` and its methods (moves,
  ``act`` for the rule set's actions, copies, undo, saved games,
  ``legal_actions``); action tables, the one pass that binds an act, the
  seat policy and legal actions (:mod:`cardzones.acts`); and
  :class:`Ruleset`, the class a game subclasses
  (:mod:`cardzones.rulesets.base`);
- the rule set registry: :func:`new_game`, :func:`load_game`,
  :func:`get_ruleset` and the rest;
- player views and logs (:func:`view`, :func:`log_view`, ...);
- scenario files from Python (:func:`run_file`, :func:`run_text`,
  :class:`Scenario`, :class:`Outcome`);
- the errors, all rooted in :class:`CardzonesError`.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> game.zone_name(game.zone("alice", "hand"))
'alice.hand'
"""

from __future__ import annotations

from cardzones.acts import *  # noqa: F403 - action tables and the seat gate, listed in its __all__
from cardzones.acts import __all__ as _acts_names
from cardzones.errors import ScenarioError
from cardzones.kernel import *  # noqa: F403 - the kernel's public surface, listed in its __all__
from cardzones.kernel import __all__ as _kernel_names
from cardzones.kernel.logview import log_view, omniscient_log
from cardzones.kernel.views import card_for_handle, handle_for, name_for, omniscient_view, view
from cardzones.rulesets.base import Ruleset as Ruleset  # type: ignore[assignment]  # a game's
from cardzones.rulesets.registry import (
    RulesetError,
    get_ruleset,
    load_game,
    new_game,
    register_ruleset,
    ruleset_names,
    unregister_ruleset,
)
from cardzones.scenario.runner import Outcome, Scenario, find_scenarios, run_file, run_text

__all__ = [
    *_kernel_names,
    *(name for name in _acts_names if name not in _kernel_names),
    "Outcome",
    "RulesetError",
    "Scenario",
    "ScenarioError",
    "card_for_handle",
    "find_scenarios",
    "get_ruleset",
    "handle_for",
    "load_game",
    "log_view",
    "name_for",
    "new_game",
    "omniscient_log",
    "omniscient_view",
    "register_ruleset",
    "ruleset_names",
    "run_file",
    "run_text",
    "unregister_ruleset",
    "view",
]
__version__ = "0.1.0"
