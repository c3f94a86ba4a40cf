"""The procedure as a view shows it: the same to every seat, since all of it
is public (the battle is fought in the Field of Battle, the Lost Soul it
names lies in a Land of Bondage, the count of rescues and the winner are
known to all). A card is shown by the handle the viewer's view gives it,
and only while the viewer may look at it; otherwise it is left out.

>>> from cardzones import new_game
>>> from cardzones.rulesets.redemption.procedure.state import begin
>>> game = new_game("redemption", ["alice", "bob"])
>>> with game.atomic():
...     _ = begin(game)
>>> procedure_view(game, "bob")["rescued"]
{'alice': 0, 'bob': 0}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardzones.kernel.objects import ObjRef
from cardzones.kernel.views import handle_for
from cardzones.rulesets.redemption.procedure.battle import initiative, live, standing
from cardzones.rulesets.redemption.procedure.state import Battle, current

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def procedure_view(game: Game, player: str | None) -> dict[str, Any] | None:
    """The procedure's state as ``player`` (None: a spectator) sees it, or
    None for a game without it."""
    state = current(game)
    if state is None:
        return None
    return {
        "opened": state.opened,
        "drawn": state.drawn,
        "rescue_attempts": state.attempts,
        "souls_to_win": state.souls_to_win,
        "hand_limit": state.hand_limit,
        "rescued": dict(state.rescued),
        "winner": state.winner,
        "battle": None if state.battle is None else _battle(game, player, state.battle),
    }


def _card(game: Game, player: str | None, card: int) -> dict[str, Any] | None:
    """The card by the handle ``player``'s view gives it, with its name; None
    when they may not look at it."""
    handle = handle_for(game, player, card)
    return None if handle is None else {"id": handle, "name": game.obj(card).cdef.name}


def _cards(game: Game, player: str | None, refs: tuple[ObjRef, ...]) -> list[dict[str, Any]]:
    shown = (_card(game, player, c) for c in live(game, refs))
    return [c for c in shown if c is not None]


def _battle(game: Game, player: str | None, battle: Battle) -> dict[str, Any]:
    now = standing(game, battle)
    soul = game.referent(battle.soul)
    enhancements = []
    for played in battle.enhancements:
        cards = live(game, (played.card,))
        shown = _card(game, player, cards[0]) if cards else None
        on = live(game, (played.on,))
        if shown is not None:
            target = _card(game, player, on[0]) if on else None
            enhancements.append({**shown, "by": played.by, "on": target and target["id"]})
    return {
        "rescuer": battle.rescuer,
        "defender": battle.defender,
        "soul": None if soul is None else _card(game, player, soul.card),
        "heroes": _cards(game, player, battle.heroes),
        "blockers": _cards(game, player, battle.blockers),
        "enhancements": enhancements,
        "stage": battle.stage,
        "initiative": initiative(game, battle),
        "good": {"strength": now.good.strength, "toughness": now.good.toughness},
        "evil": {"strength": now.evil.strength, "toughness": now.evil.toughness},
        "outcome": now.outcome,
    }
