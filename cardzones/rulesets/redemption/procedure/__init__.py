"""Redemption's game procedure, a layer over the Place and Set-aside rules:
the opening of the game, the turn and its phases, battles and rescues, and
the end of the game (docs/redemption-procedure.md).

- :mod:`.state`: the procedure's state in the game's records;
- :mod:`.turn`: the opening, the draws, the phases and the hand limit;
- :mod:`.battle`: the rescue attempt, the block, initiative and resolution;
- :mod:`.targets`: what a card may be played on, by type and brigade;
- :mod:`.rescue`: a rescue and the winner;
- :mod:`.dominant`: dominants that discard or rescue;
- :mod:`.acts`: the players' acts, each a plan and its apply;
- :mod:`.view`: the procedure as every seat's view shows it;
- :mod:`.playout`: a whole game played by legal actions alone.
"""
