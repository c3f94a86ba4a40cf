"""Flesh and Blood's game procedure: the start of the game, turns and
priority, playing cards and paying their costs, resolving layers by type,
combat step by step and the end of the game (1.11, 1.13, 1.14, chapters 4, 5
and 7), kept in the game's records (:mod:`.state`).

- :mod:`.state`: the procedure's record (phase, step, priority, points,
  result), read and stored with the combat chain's links
  (:mod:`cardzones.rulesets.fab.chain`);
- :mod:`.costs`: costs and pitching (1.13, 1.14, 5.1.6);
- :mod:`.flow`: the start, the turns, priority, layers resolving and the end;
- :mod:`.combat`: chain links, defending, damage, the close (chapter 7);
- :mod:`.leaving`: a player who loses while others play on (4.5.1a);
- :mod:`.timing`: when a card may be played or a weapon attack, by its
  timing alone (8.1), and the acts the player with priority may take;
- :mod:`.plans`: each act as a plan and the apply of that plan;
- :mod:`.acts`: the acts as actions of fab's table;
- :mod:`.view`: what every player sees of it;
- :mod:`.playout`: whole games played at random by legal actions alone.
"""

from cardzones.rulesets.fab.procedure.acts import ACTS
from cardzones.rulesets.fab.procedure.flow import check_end, start_game, who_acts
from cardzones.rulesets.fab.procedure.state import (
    PROCEDURE,
    Procedure,
    active,
    current,
    next_turn_player,
)
from cardzones.rulesets.fab.procedure.view import procedure_view

__all__ = [
    "ACTS",
    "PROCEDURE",
    "Procedure",
    "active",
    "check_end",
    "current",
    "next_turn_player",
    "procedure_view",
    "start_game",
    "who_acts",
]
