"""What the rule sets that ship with cardzones share: the actions of both
tables (move, draw, shuffle, flip, modify, grant, end_turn), built from the
kernel's standard actions.

``modify`` takes the numeric properties of both games, so that one scenario
vocabulary serves both: ``power``, ``defense``, ``pitch`` and ``cost`` (fab) and
``strength`` and ``toughness`` (redemption).

>>> from cardzones.kernel.standard import move_action
>>> sorted(action.name for action in shared_actions(move_action()))
['draw', 'end_turn', 'flip', 'grant', 'modify', 'move', 'shuffle']
"""

from __future__ import annotations

from cardzones.kernel.actions import Action
from cardzones.kernel.standard import END_TURN, FLIP, GRANT, SHUFFLE, draw_action, modify_action

#: The numeric properties ``modify`` may change.
MODIFY_STATS = ("power", "defense", "strength", "toughness", "pitch", "cost")


def shared_actions(move: Action) -> tuple[Action, ...]:
    """The actions both shipped rule sets have, with the rule set's own ``move``."""
    return (
        move,
        draw_action(move),
        SHUFFLE,
        FLIP,
        modify_action(MODIFY_STATS),
        GRANT,
        END_TURN,
    )
