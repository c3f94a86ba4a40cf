"""What players and scripts do with a game: action tables, and the one pass
that turns an act into a call of the rules.

- :mod:`cardzones.acts.actions`: action tables as data (:class:`Action`,
  :class:`Param` and their kinds and roles);
- :mod:`cardzones.acts.binding`: the one pass that resolves an act's
  references, checks the seat policy and writes the act back
  (:func:`bind`);
- :mod:`cardzones.acts.seats`: the seat policy, what a player acting for
  themselves may do;
- :mod:`cardzones.acts.standard`: the actions every rule set may put in its
  table (move, draw, shuffle, flip, modify, grant, end_turn);
- :mod:`cardzones.acts.counters`: life totals and counters (``life``,
  ``counter``), for any rule set's table;
- :mod:`cardzones.acts.legal`: legal actions, what a player may do now
  (:class:`LegalAction` in :mod:`cardzones.acts.legal_action`, the filter by
  zone in :mod:`cardzones.acts.zone_filter`, and how candidates are read
  quickly in :mod:`cardzones.acts.candidate_shapes`).

The package sits on the kernel and never below it: the kernel keeps the
state, the move pipeline, identity, effects and views, and names no action.
A rule set builds its action table from this package
(:class:`cardzones.rulesets.base.Ruleset`).
"""

from cardzones.acts.actions import (
    NO_ACTIONS,
    NO_CARD,
    Action,
    ActionTable,
    ArgumentError,
    BoundAction,
    Foresee,
    Offer,
    OneOf,
    Param,
    ParamKind,
    Role,
    acting,
    action_table,
    table_of,
)
from cardzones.acts.binding import (
    RESOLVED,
    Resolver,
    Writer,
    bind,
    bind_fields,
    bind_written,
    complete,
    seat_refusal,
)
from cardzones.acts.counters import counter_action, life_action
from cardzones.acts.legal import legal_actions, tried_legal_actions
from cardzones.acts.legal_action import LegalAction
from cardzones.acts.listing import candidate_actions
from cardzones.acts.menu_words import MenuWords, with_menu_words
from cardzones.acts.seats import (
    SeatPolicy,
    SeatRefusal,
    actable_cards,
    acts_on,
    may_name,
    nameable_cards,
    owns_zone,
)
from cardzones.acts.standard import (
    BY,
    END_TURN,
    FLIP,
    GRANT,
    SHUFFLE,
    UNTIL,
    Alike,
    Foreseer,
    Mover,
    draw_action,
    foresee_kernel_move,
    kernel_move,
    modify_action,
    move_action,
    move_fields,
    move_of,
)
from cardzones.acts.zone_filter import concerns
from cardzones.kernel.results import ActionResult

__all__ = [
    "BY",
    "END_TURN",
    "FLIP",
    "GRANT",
    "NO_ACTIONS",
    "NO_CARD",
    "RESOLVED",
    "SHUFFLE",
    "UNTIL",
    "Action",
    "ActionResult",
    "ActionTable",
    "Alike",
    "ArgumentError",
    "BoundAction",
    "Foresee",
    "Foreseer",
    "LegalAction",
    "MenuWords",
    "Mover",
    "Offer",
    "OneOf",
    "Param",
    "ParamKind",
    "Resolver",
    "Role",
    "SeatPolicy",
    "SeatRefusal",
    "Writer",
    "actable_cards",
    "acting",
    "action_table",
    "acts_on",
    "bind",
    "bind_fields",
    "bind_written",
    "candidate_actions",
    "complete",
    "concerns",
    "counter_action",
    "draw_action",
    "foresee_kernel_move",
    "kernel_move",
    "legal_actions",
    "life_action",
    "may_name",
    "modify_action",
    "move_action",
    "move_fields",
    "move_of",
    "nameable_cards",
    "owns_zone",
    "seat_refusal",
    "table_of",
    "tried_legal_actions",
    "with_menu_words",
]
