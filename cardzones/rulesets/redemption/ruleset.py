"""The Redemption rule set: zones, phases, place and set-aside abilities, as
hooks on the kernel."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from cardzones.acts.actions import ArgumentError, Param, ParamKind
from cardzones.acts.menu_words import with_menu_words
from cardzones.kernel.cards import Ability, CardDef
from cardzones.kernel.effects import Effect
from cardzones.kernel.objects import PLACED, Obj
from cardzones.rulesets.base import Board, Ruleset
from cardzones.rulesets.cardfiles import DeckList
from cardzones.rulesets.common import TEXT_PARAMS, printed, text_fields
from cardzones.rulesets.redemption import cardfiles, decklist
from cardzones.rulesets.redemption.cards import (
    ALIGNMENTS,
    ALL_TYPES,
    NUMBERS,
    alignment,
    brigades,
    classes,
    default_card,
    own_fields,
)
from cardzones.rulesets.redemption.held import is_set_aside
from cardzones.rulesets.redemption.menu_words import MENU_WORDS
from cardzones.rulesets.redemption.negate import label_active
from cardzones.rulesets.redemption.place import carry_placed, foresee_carried
from cardzones.rulesets.redemption.procedure.acts import PROCEDURE_ORDER
from cardzones.rulesets.redemption.procedure.state import begin, current
from cardzones.rulesets.redemption.procedure.turn import begin_turn
from cardzones.rulesets.redemption.procedure.view import procedure_view
from cardzones.rulesets.redemption.records import EffectHandle
from cardzones.rulesets.redemption.rule_ids import RULES
from cardzones.rulesets.redemption.set_aside import settle
from cardzones.rulesets.redemption.table import ACTIONS
from cardzones.rulesets.redemption.turns import PHASES, finish_turn
from cardzones.rulesets.redemption.zones import DISCARD, ZONE_SPECS

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


_STATS = ("strength", "toughness")

#: The fields of Redemption card data.
CARD_PARAMS = (
    Param(
        "type",
        ParamKind.WORDS,
        default=("hero",),
        options=ALL_TYPES,
        doc="the card type, or a list of them for a card of several (Hero/Evil Character)",
    ),
    Param("brigade", ParamKind.WORDS, default=(), doc="its brigades"),
    Param("class", ParamKind.WORDS, default=(), doc="its classes, such as territory"),
    Param("strength", ParamKind.INT, doc="the printed strength"),
    Param("toughness", ParamKind.INT, doc="the printed toughness"),
    Param(
        "alignment",
        ParamKind.CHOICE,
        options=ALIGNMENTS,
        doc="good, evil, or neutral for a card of both (GE/EE)",
    ),
    *TEXT_PARAMS,
)


class RedemptionRuleset(Ruleset):
    """Redemption: the Place and Set-aside abilities and the zones they use."""

    name = "redemption"
    zone_specs = ZONE_SPECS
    phases = PHASES
    clear_to = DISCARD
    numbers = NUMBERS
    actions = with_menu_words(ACTIONS, MENU_WORDS)
    card_params = CARD_PARAMS
    attach_keys = MappingProxyType({"onto": PLACED})
    permanent_control = True
    rules = RULES
    text_ids = frozenset(RULES)
    rule_id_pattern = r"[a-z-]+/[a-z0-9-]+"
    board = Board(
        areas={
            "territory": "territory",
            "land_of_bondage": "bondage",
            "land_of_redemption": "redemption",
            "set_aside": "setaside",
            **{t: t for t in ("deck", "discard", "reserve", "banish")},
        },
        rows=(
            "territory  territory   territory setaside deck",
            "bondage    redemption  reserve   banish   discard",
        ),
        order=(
            *("territory", "setaside", "bondage", "redemption"),
            *("deck", "discard", "reserve", "banish"),
        ),
        wide=("territory",),
        labels={"set_aside": "set-aside area"},
        stacked=("discard", "banish", "land_of_redemption"),
        battle={"good": "heroes", "evil": "blockers", "prize": "a Lost Soul"},
    )
    has_procedure = True
    deck_list_help = "A LackeyCCG deck file (.dek): its Deck is the deck, its Reserve the reserve."
    deck_list_example = (
        '<deck version="2.0">\n  <superzone name="Deck">\n'
        "    <card><name>Son of God [K]</name></card> ..."
    )

    card_formats = cardfiles.FORMATS
    card_source = cardfiles.SOURCE
    #: A name printed in sets that differ is written with its set.
    named_printings = True
    #: what its card database printed that the engine reads otherwise
    printed_fields = ("type", "brigade", "strength", "toughness", "class")

    def read_deck_list(self, text: str, file: str = "<deck>") -> DeckList:
        return decklist.read_deck_list(text, file)

    def takes_deck_list(self, file: str, text: str) -> bool:
        return decklist.takes(file, text)

    def default_card(self, name: str) -> CardDef:
        return default_card(name)

    def make_card(
        self, name: str, fields: Mapping[str, Any], abilities: Sequence[Ability] = ()
    ) -> CardDef:
        stats, text, image = printed(fields, _STATS)
        types = fields.get("type", ("hero",))
        if not types:
            raise ArgumentError("type: give the card's type", ("type",))
        return CardDef(
            name,
            frozenset(types),
            stats,
            extra=own_fields(
                fields.get("brigade", ()), fields.get("class", ()), fields.get("alignment")
            ),
            abilities=tuple(abilities),
            text=text,
            image=image,
        )

    def card_fields(self, cdef: CardDef) -> dict[str, Any]:
        types = sorted(cdef.types)
        out: dict[str, Any] = {"type": types[0] if len(types) == 1 else types}
        if brigades(cdef):
            out["brigade"] = sorted(brigades(cdef))
        if classes(cdef):
            out["class"] = sorted(classes(cdef))
        out.update((stat, cdef.stats[stat]) for stat in _STATS if stat in cdef.stats)
        if alignment(cdef) is not None:
            out["alignment"] = alignment(cdef)
        out.update(text_fields(cdef))
        return out

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

    def foresee_children(self, game: Game, before: Obj, zid: int, reset: bool) -> bool | None:
        return foresee_carried(game, before)

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

    def begin_turn(self, game: Game) -> None:
        begin_turn(game)

    def is_set_aside(self, game: Game, card: int) -> bool:
        return is_set_aside(game, card)

    def start_procedure(self, game: Game, first: str | None = None) -> None:
        """The start of a game under the procedure: ``first`` (or the turn
        player the position has) takes the first turn, and the opening is
        the procedure's first act (:mod:`.procedure`)."""
        if first is not None:
            game.set_turn_player(first)
        begin(game)

    def procedure_view(self, game: Game, player: str | None) -> dict[str, Any] | None:
        return procedure_view(game, player)

    def procedure_acts(self, game: Game) -> tuple[str, ...] | None:
        """While the game procedure runs, a player is offered its acts alone:
        every other action is a judge's then, listed as a judge's action is,
        when asked for by name or with ``judge``."""
        return PROCEDURE_ORDER if current(game) is not None else None

    def handle_active(self, game: Game, handle: object) -> bool:
        """A place, set-aside or remembered move is active as its record says."""
        if isinstance(handle, EffectHandle):
            return label_active(game, handle)
        return False
