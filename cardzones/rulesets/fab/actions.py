"""The fab actions beyond the kernel's move, as Python functions: play,
sub-cards, tokens, creating and removing zones. Each is one atomic action:
refused, it changes nothing. The action table (table.py) runs them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from cardzones.errors import IllegalAction, NeedsChoice
from cardzones.kernel.cards import CardDef, Chosen, Dest
from cardzones.kernel.results import MoveResult
from cardzones.rulesets.fab import layers
from cardzones.rulesets.fab.moves import hero_of, make_sub_card

__all__ = [
    "create_zone",
    "hero_of",
    "play",
    "put_under",
    "remove_zone",
    "try_create_token",
]

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def play(game: Game, card: int, by: str) -> MoveResult:
    """Play a card: it goes on the stack as a card-layer (1.6.2a), controlled by
    the player who played it (1.3.1b). Refused unless the card may be played
    (3.3.4, 3.0.4e, 3.0.9c)."""
    obj = game.obj(card)
    if not game.may_play(card, by):
        zone = game.zone_name(obj.zone)
        if not game.may_look(by, card):
            # The reason must not depend on a card the player may not look at
            # (its abilities, its owner): the message would reveal them.
            why, rule = f"it is a private card in {zone} that you may not look at", "3.0.3a"
        elif obj.owner != by:
            why, rule = f"only its owner may play a card from {zone}", "3.3.4"
        elif not obj.public and any(
            a.zone == game.zone_info(obj.zone).type
            for a in game.characteristics(obj, by=by).play_from
        ):
            why, rule = (
                f"a private object in {zone} has no ability to play it from there",
                "3.0.4e",
            )
        elif game.characteristics(obj, by=by).play_from:
            why, rule = f"the card cannot be played from {zone} now", "3.0.9c"
        else:
            why, rule = f"cards in {zone} cannot be played", "3.3.4"
        raise IllegalAction(f"cannot play that card: {why}", rule=rule)
    with game.atomic():
        game.move(card, layers.stack(game), face="up", by=by, played=True)
    return MoveResult.MOVED


def put_under(game: Game, card: int, top: int, by: str) -> MoveResult:
    """Make ``card`` a sub-card of ``top`` (3.0.14): a new object (3.0.14b) with
    its top-card's visibility (3.0.14d), bringing its own sub-cards (3.0.14c)."""
    with game.atomic():
        return make_sub_card(game, card, top, by)


def _token_zone(
    game: Game, cdef: CardDef, dest: Dest | int, controller: str, choose_zone: int | None
) -> tuple[CardDef, int]:
    """The token as it would be and the zone it would be created in, judged
    before it exists; raises :class:`_Fail` where it fails."""
    if "token" not in cdef.types:
        cdef = replace(cdef, types=cdef.types | {"token"})
    probe = game.probe(
        cdef, game.zone(controller, "hand") or 0, owner=controller, controller=controller
    )
    zid = game.resolve_destination(probe, dest, controller, choose_zone)
    if zid is None or not game.zone_exists(zid) or not game.zone_info(zid).spec.in_arena:
        raise _Fail()  # 8.1.8a: a token exists only in the arena
    if not game.ruleset.admit(game, probe, zid, controller).ok:
        raise _Fail()  # 8.5.41d, 8.5.41e
    return cdef, zid


def foresee_token(
    game: Game, cdef: CardDef, dest: Dest | int, controller: str, *, choose_zone: int | None = None
) -> MoveResult:
    """What :func:`try_create_token` gives, without making the token: judged
    as it judges it (8.1.8a, 8.5.41d), refused as it would be."""
    try:
        _token_zone(game, cdef, dest, controller, choose_zone)
    except _Fail:
        return MoveResult.FAILED
    return MoveResult.DONE


class _Fail(IllegalAction):
    """Internal: the action fails (3.0.11, 8.5.41d) and must leave no trace."""

    def __init__(self) -> None:
        super().__init__("the effect fails")


def try_create_token(
    game: Game, cdef: CardDef, dest: Dest | int, controller: str, *, choose_zone: int | None = None
) -> tuple[MoveResult, int | None]:
    """Create a token (8.1.8a) in an arena zone, controlled and owned by
    ``controller``; into an equipment or weapon zone it is equipped (8.5.41d).
    A token that cannot be made or equipped there fails (``FAILED``, and no
    card): no token exists."""
    try:
        cdef, zid = _token_zone(game, cdef, dest, controller, choose_zone)
    except _Fail:
        return MoveResult.FAILED, None
    with game.atomic():
        card = layers.new_public(game, cdef, zid, controller, controller)
    return MoveResult.DONE, card


def create_zone(game: Game, owner: str, ztype: str) -> int:
    """3.0.10: a new zone of that type; it is like any other zone of the type."""
    spec = game.spec(ztype)
    if spec.shared:
        raise IllegalAction(f"there is only one {ztype} zone, shared by all players", rule="3.0.10")
    return game.create_zone(game.check_player(owner), ztype)


def remove_zone(
    game: Game,
    owner: str,
    ztype: str,
    choose_zone: int | None,
    *,
    chosen: Sequence[Chosen] = (),
) -> MoveResult:
    """A zone of a player ceases to exist. With one zone of the type, its cards
    are cleared (3.0.10b); with several, an empty one goes, or else the player
    chooses one and its cards are cleared (3.0.10c). Only a player's zone
    ceases to exist: a shared zone is no player's.

    ``choose_zone`` is the zone that ceases, when there is a choice of it.
    ``chosen`` are the zones the player chose where the cleared cards go, when
    they own several graveyards (3.0.10a, 3.0.12); the zone that ceases is
    never one of the options (a graveyard's cards go to another one)."""
    if game.spec(ztype).shared:
        raise IllegalAction(
            f"the {ztype} zone is shared by all players, not {owner}'s: only a player's "
            "zone ceases to exist",
            rule="3.0.10b",
        )
    zids = game.zones_of(game.check_player(owner), ztype)
    if not zids:
        raise IllegalAction(f"{owner} has no {ztype} zone", rule="3.0.10b")
    if len(zids) == 1:
        if ztype == game.ruleset.clear_to:
            raise IllegalAction(
                f"{owner}'s only {ztype} cannot cease to exist: cleared cards go there",
                rule="3.0.12",
            )
        victim = zids[0]
    else:
        empty = [z for z in zids if game.is_empty(z)]
        options = empty if empty else list(zids)
        if choose_zone is not None and choose_zone in options:
            victim = choose_zone
        elif choose_zone is not None:
            names = ", ".join(game.zone_name(z) for z in options)
            raise IllegalAction(f"choose_zone must be one of {names}", rule="3.0.10c")
        elif empty:
            victim = empty[-1]
        elif len(options) > 1:
            raise NeedsChoice(
                "choose_zone",
                [game.zone_name(z) for z in options],
                what=f"the {ztype} zone that ceases to exist",
                rule="3.0.10c",
            )
        else:
            victim = options[0]
    with game.atomic(), game.choosing(chosen, ceasing=victim):
        # A two-hander equipped to the zone without occupying it is cleared too:
        # it could no longer be equipped to two weapon zones (8.2.2b).
        for card in dict.fromkeys((*game.contents(victim), *game.equipped_in(victim))):
            game.clear(card, owner)
        if game.contents(victim) or game.equipped_in(victim):
            raise IllegalAction(
                f"the cards in {game.zone_name(victim)} cannot be cleared", rule="3.0.10b"
            )
        game.remove_zone(victim)
    return MoveResult.DONE
