"""What a rule set gives the kernel: zone types as data, and a few hooks where
data cannot say enough. The kernel never imports a rule set; a rule set
subclasses :class:`Ruleset` and overrides what its game needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.effects import Effect
from cardzones.kernel.objects import Obj
from cardzones.kernel.zones import ZoneSpec

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


class Admission:
    """Whether a zone can contain an object: ``reason`` is None when it can, and
    ``equip`` lists the zones the object becomes equipped to (8.5.41)."""

    __slots__ = ("equip", "reason", "rule")

    def __init__(
        self, reason: str | None = None, rule: str | None = None, equip: tuple[int, ...] = ()
    ) -> None:
        self.reason = reason
        self.rule = rule
        self.equip = equip

    @property
    def ok(self) -> bool:
        return self.reason is None


ADMITTED = Admission()


class Ruleset:
    """Base rule set: every zone admits every object, nothing is special."""

    name = "base"
    zone_specs: Mapping[str, ZoneSpec] = {}
    #: phases of a turn, in order; empty when the rule set has none
    phases: tuple[str, ...] = ()
    #: the zone type a cleared object goes to, owned by the object's owner (3.0.12)
    clear_to = "graveyard"

    def default_card(self, name: str) -> CardDef:
        """The card a scenario names without defining it."""
        return CardDef(name)

    def setup_game(self, game: Game) -> None:
        """Called once after the zones exist."""

    def resolve_pseudo(self, game: Game, obj: Obj, dest: Dest, by: str) -> Dest | None:
        """Map a destination that is not a zone type (fab's ``arena``) to one that is.
        Returns None when ``dest.type`` is not a pseudo destination."""
        return None

    def admit(self, game: Game, obj: Obj, zid: int, by: str | None) -> Admission:
        """Whether zone ``zid`` can contain ``obj`` (3.0.11)."""
        return ADMITTED

    def ceases_on_move(self, game: Game, obj: Obj, dest_zid: int | None) -> bool:
        """Whether the object ceases to exist instead of moving (8.1.8a)."""
        return False

    def resets_on_enter(self, game: Game, obj: Obj, zid: int) -> bool:
        """Whether entering ``zid`` makes the object new (3.0.9)."""
        return bool(game._zinfo[zid].spec.resets)

    def new_controller(
        self, game: Game, obj: Obj, zid: int, by: str | None, played: bool
    ) -> str | None:
        """The controller of ``obj`` once it is in ``zid`` (1.2.1b, 1.3.1b)."""
        spec = game._zinfo[zid].spec
        if not spec.controlled:
            return None
        if played:
            return by
        if obj.controller is not None and game._zinfo[obj.zone].spec.controlled:
            return obj.controller
        return obj.owner

    def moved_public(self, game: Game, obj: Obj, public: bool) -> bool:
        """Whether the move event of ``obj`` shows its properties. ``public`` is its
        visibility at the destination; by default the object takes that
        visibility before it moves (3.0.8), so the move is public exactly then."""
        return public

    def move_children(self, game: Game, before: Obj, after: Obj, reset: bool) -> None:
        """Carry the cards under or on a moved card (3.0.14c, place)."""
        game._carry_children(before.card, after)

    def is_permanent(self, game: Game, obj: Obj) -> bool:
        return False

    def effect_active(self, game: Game, effect: Effect) -> bool:
        """Whether a continuous effect applies now. Bound effects apply while
        their object exists; conditional ones are the rule set's to judge."""
        return True

    def may_play(self, game: Game, card: int, player: str) -> bool:
        return False

    def after_action(self, game: Game) -> None:
        """Called at the end of every top-level action (triggers, state checks)."""

    def end_turn(self, game: Game, order: tuple[int, ...]) -> None:
        """The end-of-turn procedure, before the next turn begins."""

    def begin_turn(self, game: Game) -> None:
        """The start of a new turn, after the turn player changed."""
