"""A player allowed to look at their own deck (3.7.4).

No player may look at the objects of their own deck unless a rule or effect
says so (3.7.4). ``allow_look`` is such an effect: until the end of the turn,
or until it is ended (``allowed: false``), the deck's owner may look at its
objects, and their view, ``seen_by`` and the legal actions they are offered
say so; no other player learns anything but that the look is allowed. The
deck's cards stay private objects throughout: nothing about them changes.

At a table a player may not give themselves the look: it is a judge's act,
for the effect that allows it.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> deck = game.zone("alice", "deck")
>>> card = game.new_card(game.card_def("Snatch"), deck)
>>> game.seen_by(card)
()
>>> _ = game.act("allow_look", zone=deck, by="alice")
>>> game.seen_by(card)
('alice',)
>>> _ = game.act("end_turn")
>>> game.seen_by(card)
()
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from cardzones.acts.actions import Action, ActionResult, Param, ParamKind, Role, acting
from cardzones.acts.standard import BY
from cardzones.errors import IllegalAction
from cardzones.kernel.results import MoveResult

if TYPE_CHECKING:
    from collections.abc import Iterator

    from cardzones.kernel.game import Game

#: The kind of the log entry of a look allowed or ended.
LOOKING = "looking"
#: The record of the looks allowed now: (player, zone) pairs, as the kernel
#: keeps them (:meth:`Game.allow_look`).
LOOKS = "looks"


class LookRef(NamedTuple):
    """Names an allowed look, for ``as:`` labels: active while it lasts."""

    player: str
    zone: int


def looking(game: Game, player: str, zone: int) -> bool:
    """Whether ``player`` may look at the objects of ``zone`` by a rule or
    effect now (3.7.4)."""
    return (player, zone) in game.records.get(LOOKS, ())


def check_look(game: Game, zone: int, player: str) -> None:
    """Refused unless ``zone`` is ``player``'s own deck (3.7.4)."""
    info = game.zone_info(zone)
    if info.type != "deck" or info.owner != player:
        raise IllegalAction(
            f"an effect lets a player look at their own deck; {game.zone_name(zone)} "
            f"is not {player}'s",
            rule="3.7.4",
        )


def set_look(game: Game, zone: int, player: str, allowed: bool) -> MoveResult:
    """Allow ``player`` to look at their deck ``zone``, or end it: ``done``,
    or ``no_move`` when that is so already."""
    check_look(game, zone, player)
    if looking(game, player, zone) == allowed:
        return MoveResult.NO_MOVE
    with game.atomic():
        _allow(game, player, zone, allowed)
        what = "may look at" if allowed else "no longer looks at"
        game.log_event(LOOKING, f"{player} {what} {game.zone_name(zone)}", by=player)
    return MoveResult.DONE


def _allow(game: Game, player: str, zone: int, allowed: bool) -> None:
    game.allow_look(player, zone, allowed)
    rest = tuple(k for k in game.records.get(LOOKS, ()) if k != (player, zone))
    now = (*rest, (player, zone)) if allowed else rest
    if now:
        game.records.put(LOOKS, now)
    elif LOOKS in game.records:
        game.records.pop(LOOKS)


def end_looks(game: Game) -> None:
    """At the end of the turn, every look an effect allowed ends."""
    for player, zone in game.records.get(LOOKS, ()):
        _allow(game, player, zone, False)


def _run(game: Game, args: Mapping[str, Any]) -> ActionResult:
    player = acting(game, args)
    allowed = args["allowed"] is not False
    result = set_look(game, args["zone"], player, allowed)
    return ActionResult(result, effect=LookRef(player, args["zone"]))


def _foresee(game: Game, args: Mapping[str, Any]) -> MoveResult:
    player = acting(game, args)
    check_look(game, args["zone"], player)
    allowed = args["allowed"] is not False
    return MoveResult.NO_MOVE if looking(game, player, args["zone"]) == allowed else MoveResult.DONE


def _candidates(game: Game, player: str) -> Iterator[dict[str, Any]]:
    """Each of the player's decks: the look allowed, or ended where it is."""
    for zone in game.zones_of(player, "deck"):
        yield (
            {"zone": zone} if not looking(game, player, zone) else {"zone": zone, "allowed": False}
        )


ALLOW_LOOK = Action(
    "allow_look",
    (
        Param(
            "zone", ParamKind.ZONE, required=True, role=Role.OWN_ZONE, doc="the player's own deck"
        ),
        Param("allowed", ParamKind.BOOL, doc="false ends the look (default: true)"),
        BY,
    ),
    _run,
    doc="An effect lets the player look at their own deck until the end of the turn "
    "(3.7.4), or ends that; as: names the look.",
    rules=("3.7.4",),
    foresee=_foresee,
    candidates=_candidates,
    # A player may look at their deck only when an effect says so: at a
    # table, the judge gives the look for the effect.
    judge=True,
)
