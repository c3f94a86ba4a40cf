"""What a rule set gives the kernel: zone types as data, and a few hooks
where data cannot say enough; and the game as the kernel's modules and those
hooks are typed against (:class:`GameState`). The kernel never imports a rule set. A game
subclasses :class:`cardzones.rulesets.base.Ruleset`, which adds what the rest
of cardzones reads (its action table, its card fields), and overrides what
its game needs (see docs/writing-a-ruleset.md).

>>> rules = Ruleset()
>>> rules.name, rules.phases
('base', ())
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from cardzones.errors import IllegalAction, UnknownReference
from cardzones.kernel.cards import CardDef, Chosen, Dest, Move, Position
from cardzones.kernel.effects import Effect
from cardzones.kernel.events import Snapshot
from cardzones.kernel.objects import Obj
from cardzones.kernel.results import ActionResult, MoveResult
from cardzones.kernel.state import State
from cardzones.kernel.zones import ZoneInfo, ZoneSpec


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

#: A card with no properties: what a private object is to the rules (3.0.7a).
BLANK_CARD = CardDef("")


class GameState(State):
    """A game as the kernel's modules and a rule set's hooks see it: the
    journaled state, what a game holds beside it, and the operations of other
    modules they call. :class:`~cardzones.kernel.game.Game` is the one kind,
    and only it names every module, so none of them needs to import it."""

    __slots__ = (
        "_ceasing",
        "_chosen",
        "_depth",
        "_plain_resets",
        "_plain_shown",
        "_shown",
        "_zone_names",
        "handle_key",
        "players",
        "ruleset",
        "seed",
    )
    ruleset: Ruleset[Any]
    players: tuple[str, ...]
    seed: int
    handle_key: str
    _depth: int
    _chosen: tuple[Chosen, ...]
    _ceasing: int | None
    _plain_resets: bool
    _plain_shown: bool
    _shown: dict[int, tuple[Obj, Any, dict[str, Any]]]
    _zone_names: dict[int, tuple[ZoneInfo, tuple[int, ...], str]]

    if TYPE_CHECKING:  # Game has each, from the module that defines it

        @property
        def turn(self) -> int: ...
        @property
        def turn_player(self) -> str: ...
        @property
        def phase(self) -> str | None: ...
        def atomic(self) -> AbstractContextManager[None]: ...
        def check_player(self, player: str) -> str: ...
        def handle(self, card: int) -> str: ...
        def stat(self, card: int, name: str, snapshot: Snapshot | None = None) -> int | None: ...
        def carry(self, kid: int, host: Obj, *, reset: bool = False) -> Obj: ...
        def attach(
            self,
            card: int,
            host: int,
            rel: int,
            *,
            position: Position = "top",
            by: str | None = None,
        ) -> MoveResult: ...


#: The game a rule set's hooks are given: :class:`~cardzones.kernel.game.Game`
#: for every rule set (:class:`cardzones.rulesets.base.Ruleset`).
G = TypeVar("G", bound=GameState)


class Ruleset(Generic[G]):
    """Base rule set: every zone admits every object, nothing is special.

    Data a rule set sets as class attributes:

    - ``name``: the name games, saved games and scenarios know it by;
    - ``zone_specs``: its zone types (:class:`~cardzones.kernel.zones.ZoneSpec`);
    - ``phases``: the phases of a turn, in order, or none;
    - ``clear_to``: the zone type a cleared object goes to (3.0.12);
    - ``destinations``: destinations that are not zones (fab's ``arena``),
      with the rule that names each, resolved by :meth:`resolve_pseudo`;
    - ``piles``: names for the cards under or on one card (fab's ``soul``,
      the cards under a player's hero), with their relation, found by
      :meth:`pile_host`.
    """

    name = "base"
    zone_specs: Mapping[str, ZoneSpec] = {}
    phases: tuple[str, ...] = ()
    clear_to = "discard"
    destinations: Mapping[str, str] = {}
    piles: Mapping[str, int] = {}
    #: The moves after which the kernel skips :meth:`after_action` (docs/writing-a-ruleset.md).
    quiet_moves: tuple[frozenset[str], frozenset[Any]] | None = None

    # -- cards -------------------------------------------------------------

    def default_card(self, name: str) -> CardDef:
        """The card a scenario names without defining it."""
        return CardDef(name)

    # -- the game ----------------------------------------------------------

    def setup_game(self, game: G) -> None:
        """Called once after the zones exist."""

    def resolve_pseudo(self, game: G, obj: Obj, dest: Dest, by: str) -> Dest | None:
        """Map a destination that is not a zone type (fab's ``arena``) to one that is.
        Returns None when ``dest.type`` is not a pseudo destination."""
        return None

    def pile_host(self, game: G, owner: str, pile: str) -> int:
        """The card whose pile one of :attr:`piles` names for ``owner``; refused
        when there is none."""
        raise IllegalAction(f"{self.name} has no {pile}")

    def move_to_pile(
        self, game: G, move: Move, host: int, rel: int, *, foresee: bool = False
    ) -> MoveResult:
        """A move into one of :attr:`piles`: the card goes under or on
        ``host`` (``rel``), as a step of the move; with ``foresee``, what it
        would give, changing nothing. By default it is attached
        (:meth:`Game.attach`) where :meth:`admit_on` allows it."""
        obj = game.obj(move.card)
        admission = self.admit_on(game, obj, host, rel)
        if admission.reason is not None:
            raise IllegalAction(admission.reason, rule=admission.rule)
        if foresee:
            return MoveResult.NO_MOVE if (obj.host, obj.rel) == (host, rel) else MoveResult.MOVED
        return game.attach(move.card, host, rel, position=move.position, by=move.by)

    def admit(self, game: G, obj: Obj, zid: int, by: str | None) -> Admission:
        """Whether zone ``zid`` can contain ``obj`` (3.0.11)."""
        return ADMITTED

    def admit_on(self, game: G, obj: Obj, host: int, rel: int) -> Admission:
        """Whether ``obj`` may be under (``UNDER``) or on (``PLACED``) ``host``,
        for a card put there as it enters the game (set-up)."""
        return ADMITTED

    def ceases_on_move(self, game: G, obj: Obj, dest_zid: int | None) -> bool:
        """Whether the object ceases to exist instead of moving (8.1.8a)."""
        return False

    def resets_on_enter(self, game: G, obj: Obj, zid: int) -> bool:
        """Whether entering ``zid`` makes the object new (3.0.9)."""
        return bool(game._zinfo[zid].spec.resets)

    def new_controller(
        self, game: G, obj: Obj, zid: int, by: str | None, played: bool
    ) -> str | None:
        """The controller of ``obj`` once it is in ``zid`` (1.2.1b, 1.3.1b)."""
        zinfo = game._zinfo  # asked on every move: the records, not zone_info
        if not zinfo[zid].spec.controlled:
            return None
        if played:
            return by
        if obj.controller is not None and zinfo[obj.zone].spec.controlled:
            return obj.controller
        return obj.owner

    def moved_public(self, game: G, obj: Obj, public: bool) -> bool:
        """Whether the move event of ``obj`` shows its properties. ``public`` is its
        visibility at the destination; by default the object takes that
        visibility before it moves (3.0.8), so the move is public exactly then."""
        return public

    def move_children(self, game: G, before: Obj, after: Obj, reset: bool) -> None:
        """Carry the cards under or on a moved card (3.0.14c, place): ``before``
        and ``after`` are the card's object as it left and as it arrived, and
        ``reset`` says whether it became a new object. By default each one goes
        along (:meth:`Game.carry`)."""
        for kid in game._kids.get(before.card, ()):
            game.carry(kid, after)

    def foresee_children(self, game: G, before: Obj, zid: int, reset: bool) -> bool | None:
        """Whether :meth:`move_children` would take the cards under or on
        ``before``, moved to zone ``zid``, along or clear them (3.0.14c,
        3.0.14e) without a choice or a refusal: True when it would, else None,
        as by default: only the move tells. Legal actions judge a move this way."""
        return None

    def is_permanent(self, game: G, obj: Obj) -> bool:
        return False

    def private_card(self, cdef: CardDef) -> CardDef:
        """What the rules may know of a private object of the card ``cdef``
        (:meth:`Game.characteristics`): by default nothing at all, a card with
        no name, types, numbers or abilities (3.0.7a). A rule set whose cards
        differ from the back in a way every player knows (fab's card
        categories) keeps that, and only that; two cards with the same
        private card must be the same to every rule."""
        return BLANK_CARD

    def effect_active(self, game: G, effect: Effect) -> bool:
        """Whether a continuous effect applies now. Bound effects apply while
        their object exists; conditional ones are the rule set's to judge."""
        return True

    def handle_active(self, game: G, handle: object) -> bool:
        """Whether the effect of a handle one of the rule set's actions returned
        is active now (:meth:`Game.is_active`)."""
        return False

    def procedure_view(self, game: G, player: str | None) -> dict[str, Any] | None:
        """The state of the rule set's game procedure as ``player`` (None: a
        spectator) may know it, JSON-ready, for the view's ``procedure``; None
        for a game that runs none. It must show only what the viewer may see."""
        return None

    def may_play(self, game: G, card: int, player: str) -> bool:
        return False

    def after_action(self, game: G) -> None:
        """Called at the end of every top-level action (triggers, state checks)."""

    def end_turn(self, game: G, order: tuple[int, ...]) -> None:
        """The end-of-turn procedure, before the next turn begins."""

    def begin_turn(self, game: G) -> None:
        """The start of a new turn, after the turn player changed."""

    def next_turn_player(self, game: G) -> str:
        """Who takes the next turn: the next player in the players' order
        (clockwise, 1.1.6); a procedure skips a player who left the game."""
        players = game.players
        return players[(players.index(game.turn_player) + 1) % len(players)]

    # -- actions -----------------------------------------------------------

    def act(self, game: G, name: str, args: Mapping[str, Any]) -> ActionResult:
        """Take the action ``name`` with ``args`` as its ``run`` takes them, one
        action (:meth:`Game.act`). The kernel has no actions: a rule set's
        action table is the business of :mod:`cardzones.acts`, which
        :class:`cardzones.rulesets.base.Ruleset` answers this with."""
        raise UnknownReference(f"unknown action {name!r}: {self.name} has no actions")

    def legal_actions(
        self,
        game: G,
        player: str,
        actions: Iterable[str] | None,
        *,
        card: int | None = None,
        zone: int | None = None,
        judge: bool = False,
    ) -> Sequence[Any]:
        """The actions ``player``, acting for themselves, may take now
        (:meth:`Game.legal_actions`), of those names, on that card or zone,
        a judge's actions with ``judge``; none without an action table."""
        return ()
