"""The state of Redemption's game procedure, kept in the game's records.

The procedure is a layer over the Place and Set-aside rules: a game runs it
only once :func:`begin` has stored a :class:`Procedure` under :data:`KEY` in
the game's journaled records, so copies, undo, saving and loading keep it as
they keep every other record, and a game without it plays exactly as before.

The turn player and the phase are the game's own (``game.turn_player``,
``game.phase``); the record holds what the procedure adds: whether the game
has opened, whether the turn player has drawn for the turn, the rescue
attempts of the turn, the battle, the Lost Souls each player rescued, and the
winner.

>>> from cardzones import new_game
>>> game = new_game("redemption", ["alice", "bob"])
>>> current(game) is None
True
>>> with game.atomic():
...     _ = begin(game)
>>> current(game).rescued, current(game).winner
((('alice', 0), ('bob', 0)), None)
>>> game.undo()
>>> current(game) is None
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from cardzones.errors import IllegalAction
from cardzones.kernel.objects import ObjRef

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The records key of the procedure.
KEY = "procedure"

#: Redeemed Souls a player needs to win a Type I game (the Rescue page:
#: "5 in Type I games and 7 in Type II games").
SOULS_TO_WIN = 5
#: Cards in hand at most at the end of the Discard Phase (the Discard Phase page).
HAND_LIMIT = 8
#: Cards a hand holds at most at any time (the REG's Hand entry, as the
#: message board quotes it: "At no time may a hand exceed 16 cards").
HAND_CAP = 16
#: Cards of the opening hand (the Your Turn Games news page: "draw their 8 cards").
OPENING_HAND = 8
#: Cards drawn in the Draw Phase (the Draw Phase page).
DRAW_PHASE_CARDS = 3
#: Rescue attempts a player may make in a turn (the Rescue Attempt page).
ATTEMPTS_PER_TURN = 1

#: The stages of a battle: the defender may block, then enhancements are
#: played by initiative.
BLOCK, ENHANCE = "block", "enhance"


class Played(NamedTuple):
    """An enhancement played in the battle: the card as the object it is in
    the Field of Battle, who played it, and the character it was played on."""

    card: ObjRef
    by: str
    on: ObjRef


class Battle(NamedTuple):
    """The rescue attempt under way.

    ``heroes`` are the rescuer's characters in it and ``blockers`` the
    defender's; ``soul`` is the Lost Soul the attempt names. ``last`` is the
    player who played the last card (the Initiative page decides on it in a
    stalemate or mutual destruction), and ``passed`` the player who passed
    initiative since then, if any."""

    rescuer: str
    defender: str
    soul: ObjRef
    heroes: tuple[ObjRef, ...]
    blockers: tuple[ObjRef, ...] = ()
    enhancements: tuple[Played, ...] = ()
    stage: str = BLOCK
    last: str | None = None
    passed: str | None = None


class Procedure(NamedTuple):
    """What the game procedure adds to the game's state (see the module)."""

    opened: bool = False
    drawn: bool = False
    attempts: int = 0
    battle: Battle | None = None
    rescued: tuple[tuple[str, int], ...] = ()
    winner: str | None = None
    souls_to_win: int = SOULS_TO_WIN
    hand_limit: int = HAND_LIMIT

    def rescued_by(self, player: str) -> int:
        """How many Lost Souls ``player`` rescued in battle or by a dominant."""
        return dict(self.rescued).get(player, 0)


def current(game: Game) -> Procedure | None:
    """The procedure's state, or None for a game that does not run it."""
    found: Procedure | None = game.records.get(KEY)
    return found


def running(game: Game) -> Procedure:
    """The procedure's state; refused for a game that does not run it, or
    one that is over (the Rescue page: the game ends at once)."""
    state = current(game)
    if state is None:
        raise IllegalAction(
            "this game does not run the game procedure (a scenario asks for it with "
            "procedure: true)"
        )
    if state.winner is not None:
        raise IllegalAction(f"the game is over: {state.winner} won", rule="rescue/winning-number")
    return state


def put(game: Game, state: Procedure) -> None:
    """Store the procedure's state, as one journaled write."""
    game.records.put(KEY, state)


def begin(game: Game) -> Procedure:
    """Start the procedure on a game, at its position now: not yet opened,
    no battle, no Lost Soul rescued. One step of the caller's action."""
    if current(game) is not None:
        raise IllegalAction("the game procedure has begun already")
    state = Procedure(rescued=tuple((p, 0) for p in game.players))
    put(game, state)
    return state
