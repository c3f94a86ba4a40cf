"""Steps in a player's own names: how a legal action is written as a step
(:meth:`LegalAction.to_json <cardzones.acts.legal_action.LegalAction.to_json>`), with
each card named by the handle the player's view gives it, or by ``ZONE[i]``.

>>> from cardzones.kernel.cards import Dest
>>> dest_name(Dest("weapon", "alice", 2)), dest_name(Dest("arena"))
('alice.weapon.2', 'arena')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardzones.acts.actions import Action, BoundAction, Param, ParamKind
from cardzones.acts.zone_choices import ZoneChoices
from cardzones.errors import CardzonesError
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.views import handle_for, shown_cards

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


def card_name(game: Game, player: str, card: int) -> str:
    """How ``player`` names a card in a step: the handle their view gives it,
    or ``ZONE[i]`` for one they may not look at in a zone of theirs."""
    handle = handle_for(game, player, card)
    if handle is not None:
        return handle
    zid = game.location(card)
    if game.zone_info(zid).owner != player or game.obj(card).host is not None:
        raise CardzonesError("a card the player may not look at has no name for them here")
    return f"{game.zone_name(zid)}[{shown_cards(game, player, zid).index(card)}]"


def dest_name(dest: Dest) -> str:
    """A destination as a step names it: ``alice.weapon.2``, ``stack``, ``arena``."""
    text = dest.type if dest.owner is None else f"{dest.owner}.{dest.type}"
    return text if dest.index is None else f"{text}.{dest.index}"


class Named:
    """Writes a legal action as a step, naming things as the player does
    (:meth:`LegalAction.to_json`): parameters at their default are left out,
    the actor is written out."""

    def __init__(self, game: Game, player: str, labels: Mapping[str, Any]) -> None:
        self.game = game
        self.player = player
        self.labels = labels
        #: the cards named so far: one writer writes the actions of one
        #: position (a listing), in which a card's name stays the same
        self._names: dict[int, str] = {}

    def card(self, card: int) -> str:
        """:func:`card_name` of ``card``, found once for this writer."""
        name = self._names.get(card)
        if name is None:
            name = self._names[card] = card_name(self.game, self.player, card)
        return name

    def plain(self, action: Action, bound: Mapping[str, Any]) -> dict[str, Any] | None:
        """The step of an action whose every parameter given is a plain value
        (no mapping, nested action or mapping of zone choices), written straight
        from its resolved arguments as :meth:`action` writes them after the
        binder's pass over them; None for any other action, which takes that
        pass."""
        written: dict[str, Any] = {}
        actor = action.actor
        for param in action.params:
            value = bound.get(param.name)
            if value is None or (param.name != actor and value == param.default):
                continue
            kind = param.kind
            if (
                kind is ParamKind.MAPPING
                or kind is ParamKind.ACTION
                or (kind is ParamKind.ZONE_CHOICE and isinstance(value, Mapping))
            ):
                return None
            written[param.name] = self.value(param, value, value, None)
        return written

    def action(
        self, action: Action, raw: Mapping[str, Any], args: Mapping[str, Any], out: dict[str, Any]
    ) -> dict[str, Any]:
        written: dict[str, Any] = {}
        for param in action.params:
            value = args.get(param.name)
            if param.name != action.actor and value == param.default:
                continue
            if value is None:
                continue
            written[param.name] = out[param.name]
        return written

    def value(self, param: Param, raw: Any, bound: Any, written: Any) -> Any:
        if bound is None:
            return None
        kind = param.kind
        game = self.game
        if kind is ParamKind.CARD:
            return self.card(bound)
        if kind is ParamKind.CARDS:
            return [self.card(c) for c in bound]
        if kind is ParamKind.ZONE or (isinstance(bound, int) and kind is ParamKind.ZONE_CHOICE):
            return game.zone_name(bound)
        if isinstance(bound, ZoneChoices):
            return {
                (self.card(key) if isinstance(key, int) else key): (
                    game.zone_name(zones[0])
                    if len(zones) == 1
                    else list(map(game.zone_name, zones))
                )
                for key, zones in bound.pairs
            }
        if kind in (ParamKind.DEST, ParamKind.ZONE_NAME):
            return dest_name(bound)
        if kind is ParamKind.NAME:
            assert isinstance(bound, CardDef)
            return bound.name
        if kind is ParamKind.DELTA:
            return f"{bound:+d}"
        if kind is ParamKind.EFFECT:
            for label, handle in self.labels.items():
                if handle == bound:
                    return label
            raise CardzonesError("an effect without a label has no name in a step")
        if kind is ParamKind.MAPPING:
            return {k: v for k, v in written.items() if v is not None}
        if kind is ParamKind.ACTION:
            assert isinstance(bound, BoundAction)
            raise CardzonesError("a nested action is not a legal action's argument")
        if isinstance(bound, tuple):
            return list(bound)
        return bound
