"""The Redemption rule set: zones, phases, place and set-aside abilities, as
hooks on the kernel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardzones.kernel.cards import CardDef
from cardzones.kernel.effects import Effect
from cardzones.kernel.objects import Obj
from cardzones.kernel.ruleset import Ruleset
from cardzones.rulesets.redemption.cards import default_card
from cardzones.rulesets.redemption.negate import label_active
from cardzones.rulesets.redemption.place import carry_placed
from cardzones.rulesets.redemption.records import EffectHandle
from cardzones.rulesets.redemption.set_aside import is_set_aside, settle
from cardzones.rulesets.redemption.turns import PHASES, finish_turn
from cardzones.rulesets.redemption.zones import DISCARD, ZONE_SPECS

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


class RedemptionRuleset(Ruleset):
    """Redemption: the Place and Set-aside abilities and the zones they use."""

    name = "redemption"
    zone_specs = ZONE_SPECS
    phases = PHASES
    clear_to = DISCARD

    def default_card(self, name: str) -> CardDef:
        return default_card(name)

    def new_controller(
        self, game: Game, obj: Obj, zid: int, by: str | None, played: bool
    ) -> str | None:
        """A card in a player's zone out of play is that player's: control taken
        for a while ends when the card leaves play, so a set-aside card is
        controlled by the player whose set-aside area it is in. In play, a card
        keeps its controller (placing does not change control)."""
        info = game.zone_info(zid)
        if not info.spec.in_play and info.owner is not None:
            return info.owner
        return super().new_controller(game, obj, zid, by, played)

    def moved_public(self, game: Game, obj: Obj, public: bool) -> bool:
        """A move shows the card as it left its zone: a card leaving territory for
        a hand was seen leaving, and a card leaving a hand was not."""
        return obj.public

    def move_children(self, game: Game, before: Obj, after: Obj, reset: bool) -> None:
        carry_placed(game, before, after, reset)

    def effect_active(self, game: Game, effect: Effect) -> bool:
        """An ongoing ability paired with a place or set-aside ability is active
        exactly while its condition holds."""
        if isinstance(effect.data, EffectHandle):
            return label_active(game, effect.data)
        return True

    def after_action(self, game: Game) -> None:
        settle(game)

    def end_turn(self, game: Game, order: tuple[int, ...]) -> None:
        finish_turn(game)

    # -- what the scenario layer asks of a rule set -------------------------

    def is_set_aside(self, game: Game, card: int) -> bool:
        return is_set_aside(game, card)

    def effect_label_active(self, game: Game, handle: Any) -> bool:
        if isinstance(handle, EffectHandle):
            return label_active(game, handle)
        return False
