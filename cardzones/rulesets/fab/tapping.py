"""Tapped and untapped permanents (1.3.3b), and the untap of the end of the
turn (4.4.3d).

A permanent is untapped unless a rule or effect taps it (1.3.3b). The state
belongs to the permanent as the object it is: one that leaves the arena is
no longer a permanent (1.3.3a), and one that becomes a new object (3.0.9)
is untapped, as any permanent put into the arena is. The record keeps the
tapped objects; a stale entry (an object that is no more) is never read and
is dropped at the next change.

The ``tap`` and ``untap`` actions are a rule's or an effect's change of the
state; at the end of the turn the turn player untaps every permanent they
control (4.4.3d, in ``finish_turn``). Each change is logged in words, naming
the permanent only to the extent every player may look at it.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> sword = game.ruleset.make_card("Dawnblade", {"types": ("weapon", "sword", "2h"), "power": 3})
>>> blade = game.new_card(sword, game.zone("alice", "weapon"), owner="alice",
...                       controller="alice", public=True)
>>> _ = game.act("tap", card=blade)
>>> is_tapped(game, blade), game.log(None)[-1]["note"]
(True, "alice taps alice's Dawnblade")
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardzones.acts.actions import Action, ActionResult, Param, ParamKind, acting
from cardzones.acts.seats import actable_cards
from cardzones.acts.standard import BY
from cardzones.errors import IllegalAction
from cardzones.kernel.results import MoveResult
from cardzones.kernel.views import name_for

if TYPE_CHECKING:
    from collections.abc import Iterator

    from cardzones.kernel.game import Game

#: The record of the tapped permanents: a frozenset of (card, object).
TAPPED = "tapped"
#: The kind of the log entry of a change of state.
TAPPING = "tapping"

Key = tuple[int, int]


def _record(game: Game) -> frozenset[Key]:
    found: frozenset[Key] = game.records.get(TAPPED, frozenset())
    return found


def _is_key(game: Game, key: Key) -> bool:
    """Whether the entry still names the object it was made for, as a permanent."""
    card, oid = key
    return game.exists(card) and game.obj(card).oid == oid and game.is_permanent(card)


def is_tapped(game: Game, card: int) -> bool:
    """Whether the object is a tapped permanent (1.3.3b)."""
    record = _record(game)
    if not record or not game.exists(card):
        return False
    return (card, game.obj(card).oid) in record and game.is_permanent(card)


def _store(game: Game, keys: frozenset[Key]) -> None:
    """Store the live entries of ``keys``; a record that would not change
    is not written again (a write is a step of the game's history)."""
    live = frozenset(key for key in keys if _is_key(game, key))
    records = game.records
    if live:
        if live != records.get(TAPPED):
            records.put(TAPPED, live)
    elif TAPPED in records:
        records.pop(TAPPED)


def check_permanent(game: Game, card: int, by: str) -> None:
    """Refused unless the card is a permanent: only a permanent has the
    state (1.3.3b)."""
    if not game.is_permanent(card):
        what = name_for(game, by, card)
        raise IllegalAction(
            f"only a permanent is tapped or untapped, and {what} is not one", rule="1.3.3b"
        )


def set_tapped(game: Game, card: int, tapped: bool, by: str) -> MoveResult:
    """Tap or untap a permanent (1.3.3b): ``done``, or ``no_move`` when it is
    in that state already."""
    check_permanent(game, card, by)
    if is_tapped(game, card) == tapped:
        return MoveResult.NO_MOVE
    key = (card, game.obj(card).oid)
    record = _record(game)
    with game.atomic():
        _store(game, record | {key} if tapped else record - {key})
        obj = game.obj(card)
        owner = obj.controller or obj.owner
        name = name_for(game, None, card)
        label = f"{owner}'s {name}" if owner and obj.public else name
        verb = "taps" if tapped else "untaps"
        game.log_event(TAPPING, f"{by} {verb} {label}", by=by)
    return MoveResult.DONE


def untap_all(game: Game, player: str) -> None:
    """4.4.3d: the turn player untaps every permanent they control. With
    nothing tapped, as at the end of most turns, nothing is read or written."""
    record = _record(game)
    if not record:
        return
    mine = frozenset(
        key for key in record if _is_key(game, key) and game.obj(key[0]).controller == player
    )
    if not mine:
        _store(game, record)
        return
    _store(game, record - mine)
    game.log_event(TAPPING, f"{player} untaps the permanents they control", by=player)


def _run(tapped: bool) -> Any:
    def run(game: Game, args: Mapping[str, Any]) -> ActionResult:
        return ActionResult(set_tapped(game, args["card"], tapped, acting(game, args)))

    return run


def _foresee(tapped: bool) -> Any:
    def foresee(game: Game, args: Mapping[str, Any]) -> MoveResult:
        check_permanent(game, args["card"], acting(game, args))
        return MoveResult.NO_MOVE if is_tapped(game, args["card"]) == tapped else MoveResult.DONE

    return foresee


def _candidates(tapped: bool) -> Any:
    def candidates(game: Game, player: str) -> Iterator[dict[str, Any]]:
        """Each permanent the player controls that is not in that state."""
        # is_tapped, with the record read once: a listing asks this of every
        # card the player controls, and most games have no tapped permanent.
        record = _record(game)
        if not tapped and not record:
            return
        for card in actable_cards(game, player):
            if game.is_permanent(card) and ((card, game.obj(card).oid) in record) != tapped:
                yield {"card": card}

    return candidates


def _action(name: str, tapped: bool, doc: str) -> Action:
    return Action(
        name,
        (Param("card", ParamKind.CARD, required=True, doc="the permanent"), BY),
        _run(tapped),
        doc=doc,
        rules=("1.3.3b",),
        candidates=_candidates(tapped),
        foresee=_foresee(tapped),
    )


TAP = _action("tap", True, "Tap a permanent (1.3.3b), as a rule or an effect does.")
UNTAP = _action("untap", False, "Untap a permanent (1.3.3b), as a rule or an effect does.")
