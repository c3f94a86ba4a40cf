"""The game: one type that holds the whole state and every operation on it.

:class:`Game` is built from the kernel's modules, each holding one part, and
has each of their operations as a method:

- ``state.py``: the journaled maps, checkpoints and undo;
- ``queries.py``: reading zones, objects, visibility and characteristics;
- ``foresee.py``: the plan of a move, and what a move, clear or flip would give;
- ``pipeline.py``: the one move pipeline, clearing, ceasing, flipping, shuffling;
- ``attached.py``: sub-cards and placed cards;
- ``create.py``: new cards and zones, and removing zones;
- ``effects.py`` and ``triggers.py``: continuous effects and triggers;
- ``log.py``: the event log;
- ``records.py``: the rule set's own journaled records.

This module holds what concerns the game as a whole: making one, copies,
actions as atomic units, turns and phases, and the doors to views and saved
games. Beside it, the kernel has the records (cards.py, objects.py, zones.py,
events.py), what a rule set gives (ruleset.py), player views (views.py) and
saved games (serial.py). Action tables are above the kernel
(:mod:`cardzones.acts`); :meth:`Game.act` and :meth:`Game.legal_actions`
reach them through the rule set.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "deck"))
>>> game.move(card, game.zone("alice", "hand")).value
'moved'
>>> game.seen_by(card)
('alice',)
>>> game.undo()
>>> game.zone_name(game.location(card))
'alice.deck'
"""

from __future__ import annotations

import secrets
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from cardzones.errors import CardzonesError, IllegalAction, UnknownReference
from cardzones.kernel import attached, create, effects, foresee, log, pipeline, queries, triggers
from cardzones.kernel.cards import Chosen
from cardzones.kernel.effects import EffectRef
from cardzones.kernel.events import TURN
from cardzones.kernel.objects import PLACED, TOP, UNDER, Obj
from cardzones.kernel.records import Records
from cardzones.kernel.results import ActionResult, MoveResult
from cardzones.kernel.ruleset import GameState, Ruleset
from cardzones.kernel.state import VARS
from cardzones.kernel.zones import ZoneInfo


class Game(GameState):
    """One game of a rule set: the whole state, and every action on it.

    The full state is secret-bearing: it knows every hidden card. Anything
    shown to a player must go through :func:`cardzones.kernel.views.view`.
    """

    __slots__ = ("__weakref__", "_handles")

    def __init__(
        self,
        ruleset: Ruleset[Game],
        players: Sequence[str] = ("alice", "bob"),
        seed: int | None = None,
        handle_key: str | None = None,
    ):
        """A new game with empty zones. ``seed`` decides every shuffle and
        ``handle_key`` keys the handles of views (:meth:`handle`); each is a
        new secret from :mod:`secrets` when not given. The two are independent:
        knowing the seed (a test's, a scenario's) tells nothing about handles.
        Both are saved with the game (:meth:`to_json`) and are secret-bearing.
        """
        super().__init__()
        if len(players) < 1 or len(set(players)) != len(players):
            raise IllegalAction(f"players must be distinct names, got {list(players)}")
        self.ruleset = ruleset
        # Hooks the rule set keeps as the base class has them only repeat what the
        # zone data says; the move pipeline reads the data instead of calling them.
        self._plain_resets = _keeps(ruleset, "resets_on_enter")
        self._plain_shown = _keeps(ruleset, "moved_public")
        self.players = tuple(players)
        self.seed = secrets.randbits(63) if seed is None else int(seed)
        self.handle_key = new_handle_key() if handle_key is None else str(handle_key)
        if not self.handle_key:
            raise IllegalAction("a handle key is a non-empty text")
        self._depth = 0
        # The zones the acting player chose for the action under way, and the
        # zone that is ceasing to exist in it (see :meth:`choosing`).
        self._chosen: tuple[Chosen, ...] = ()
        self._ceasing: int | None = None
        self._handles: dict[int, str] = {}
        # A pure cache for views: card -> (the record it was made from, the
        # properties a viewer who may look sees, the keys that hold lists).
        # Valid while the record is.
        self._shown: dict[int, tuple[Obj, Any, dict[str, Any]]] = {}
        self._zone_names: dict[int, tuple[ZoneInfo, tuple[int, ...], str]] = {}
        v = self._vars
        v.update(
            turn=1,
            turn_player=self.players[0],
            phase=ruleset.phases[0] if ruleset.phases else None,
            next_card=1,
            next_oid=1,
            next_eid=1,
            next_zid=1,
            shuffles=0,
            log=None,
            watchers=(),
            pending=(),
            layout=(),
        )
        for spec in ruleset.zone_specs.values():
            if spec.shared:
                create._new_zone(self, None, spec)
            else:
                for player in self.players:
                    for _ in range(spec.per_player):
                        create._new_zone(self, player, spec)
        ruleset.setup_game(self)
        # Setting up is not an action: it cannot be undone.
        self.forget_history()

    # ------------------------------------------------------------------
    # Copies and actions
    # ------------------------------------------------------------------

    def copy(self) -> Game:
        """An independent game in the same state, sharing immutable records.

        Changing the copy never changes this game, and the reverse holds too.
        The copy keeps the undo history.
        """
        other = Game.__new__(Game)
        # The state's maps (state.py), in one function, as copies are made in
        # bulk by searches: zones, effects and records are shared, and from now
        # on each of the two games copies such a map before its first write to
        # it (State._own); the others are copied now. ``_w`` lists the maps in
        # the order of State._maps, with None for a shared one.
        objs, contents, kids, vars_ = self._objs, self._contents, self._kids, self._vars
        if not self._lent:
            self._w = (objs, contents, None, None, kids, None, None, vars_, None)
            self._lent = True
        other._objs = objs = objs.copy()
        other._contents = contents = contents.copy()
        other._kids = kids = kids.copy()
        other._vars = vars_ = vars_.copy()
        other._w = (objs, contents, None, None, kids, None, None, vars_, None)
        other._lent = True
        other._zones = self._zones
        other._zinfo = self._zinfo
        other._effects = self._effects
        other._fx_by_card = self._fx_by_card
        other._rules = self._rules
        other._journal = self._journal
        other._marks = self._marks
        other.ruleset = self.ruleset
        other.players = self.players
        other.seed = self.seed
        other.handle_key = self.handle_key
        other._depth = 0
        other._chosen = ()
        other._ceasing = None
        other._handles = self._handles  # a pure cache of (secret, oid) -> handle
        other._plain_resets = self._plain_resets
        other._plain_shown = self._plain_shown
        other._shown = self._shown  # a pure cache keyed by the immutable record
        other._zone_names = self._zone_names  # the same
        return other

    def __copy__(self) -> Game:
        return self.copy()

    def atomic(self) -> Atomic:
        """Run several steps as one action: all of it happens, or none of it.

        A refused step rolls the whole action back, and :meth:`undo` undoes
        it as one. When the action is over, the rule set's
        :meth:`~cardzones.kernel.ruleset.Ruleset.after_action` runs as part of
        it. Inside another atomic block (or a rule set hook) it is part of that
        action: a refused step rolls back to where this block began, and the
        enclosing action goes on or is refused as a whole.
        """
        return Atomic(self)

    def choosing(self, chosen: Sequence[Chosen] = (), ceasing: int | None = None) -> Choosing:
        """Within it, every move of the action that needs its owner's choice
        of zone (3.0.10a) takes the first of ``chosen`` among the options, and
        ``ceasing``, a zone that ceases to exist as part of the action, is no
        destination (3.0.10b, 3.0.10c). A clear, a resolved layer or a removed
        zone may send several cards to "its owner's graveyard" (3.0.12): the
        choice the player gave the action applies to each of them. An entry
        ``(card, zone)`` or ``(owner, zone)`` is the choice for that card, or
        for the cards that player owns (3.0.10a), so that one action carries
        several owners' choices.

        >>> from cardzones import new_game
        >>> game = new_game("fab", ["alice", "bob"])
        >>> second = game.create_zone("alice", "graveyard")
        >>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
        >>> with game.choosing([second]):
        ...     game.clear(card).value
        'cleared'
        >>> game.zone_name(game.location(card))
        'alice.graveyard.2'
        """
        return Choosing(self, tuple(chosen), ceasing)

    def same_state(self, other: Game) -> bool:
        """Whether two games hold exactly the same state (every map, the log
        included); their histories may differ."""
        for mine, theirs in zip(self._maps, other._maps, strict=True):
            if mine is self._vars:
                # The log is a chain of (event, rest) pairs as long as the game:
                # == on it would recurse once per event. Compared event by event.
                if mine.keys() != theirs.keys():
                    return False
                if any(v != theirs[k] for k, v in mine.items() if k != "log"):
                    return False
                ours, others = mine["log"], theirs["log"]
                while ours is not others:
                    if ours is None or others is None or ours[0] != others[0]:
                        return False
                    ours, others = ours[1], others[1]
            elif mine != theirs:
                return False
        return True

    # ------------------------------------------------------------------
    # Players, turns and phases
    # ------------------------------------------------------------------

    @property
    def turn(self) -> int:
        return int(self._vars["turn"])

    @property
    def turn_player(self) -> str:
        return str(self._vars["turn_player"])

    @property
    def phase(self) -> str | None:
        phase: str | None = self._vars["phase"]
        return phase

    def opponents(self, player: str) -> tuple[str, ...]:
        return tuple(p for p in self.players if p != player)

    def check_player(self, player: str) -> str:
        """``player`` if it names a player of this game; anything else is refused."""
        if player not in self.players:
            raise UnknownReference(f"unknown player {player!r}; players are {list(self.players)}")
        return player

    def set_phase(self, phase: str) -> None:
        """The turn is now in ``phase``, one of the rule set's phases. A step of
        an action: the rule set logs the phase and does what happens in it."""
        if phase not in self.ruleset.phases:
            raise IllegalAction(
                f"there is no {phase!r} phase; the phases are {', '.join(self.ruleset.phases)}"
            )
        self._put(VARS, "phase", phase)

    def allow_look(self, player: str, zone: int, allowed: bool = True) -> None:
        """Let ``player`` look at the private objects of ``zone``, which its
        type hides even from its owner, as a rule or effect may (3.7.4), or
        end that (``allowed`` false). A step of an action, journaled."""
        looks = tuple(k for k in self._vars.get("looks", ()) if k != (player, zone))
        self._put(VARS, "looks", (*looks, (player, zone)) if allowed else looks)

    def set_turn_player(self, player: str) -> None:
        """``player`` has the turn now, as a game's procedure chooses who
        begins; the turn's number stays. A step of an action."""
        self._put(VARS, "turn_player", self.check_player(player))

    def end_turn(self, order: Sequence[int] = ()) -> MoveResult:
        """End the turn: the rule set's end-of-turn procedure, "this turn" effects
        end, and the next player's turn begins."""
        with self.atomic():
            self.ruleset.end_turn(self, tuple(order))
            self.end_effects_until("end_of_turn")
            nxt = self.ruleset.next_turn_player(self)
            self._put(VARS, "turn", self.turn + 1)
            self._put(VARS, "turn_player", nxt)
            if self.ruleset.phases:
                self._put(VARS, "phase", self.ruleset.phases[0])
            self.log_event(TURN, f"turn {self.turn}: {nxt}")
            self.ruleset.begin_turn(self)
        return MoveResult.DONE

    # ------------------------------------------------------------------
    # Queries (queries.py)
    # ------------------------------------------------------------------

    spec = queries.spec
    zones_of = queries.zones_of
    zone = queries.zone
    zone_info = queries.zone_info
    zone_exists = queries.zone_exists
    zone_name = queries.zone_name
    all_zones = queries.all_zones
    contents = queries.contents
    is_empty = queries.is_empty
    equipped_in = queries.equipped_in
    card_def = queries.card_def
    find = queries.find
    exists = queries.exists
    ref = queries.ref
    referent = queries.referent
    cards = queries.cards
    location = queries.location
    kids = queries.kids
    host = queries.host
    position = queries.position
    in_arena = queries.in_arena
    in_play = queries.in_play
    is_public = queries.is_public
    is_permanent = queries.is_permanent
    may_look = queries.may_look
    seen_by = queries.seen_by
    may_play = queries.may_play
    characteristics = queries.characteristics
    effects_on = queries.effects_on
    stat = queries.stat
    keywords = queries.keywords
    counters = queries.counters
    effect = queries.effect

    # ------------------------------------------------------------------
    # The move pipeline, sub-cards and placed cards (pipeline.py, attached.py)
    # ------------------------------------------------------------------

    move = pipeline.move
    foresee_move = foresee.foresee_move
    resolve_destination = foresee.resolve_destination
    clear = pipeline.clear
    foresee_clear = foresee.foresee_clear
    cease = pipeline.cease
    flip = pipeline.flip
    foresee_flip = foresee.foresee_flip
    shuffle = pipeline.shuffle
    attach = attached.attach
    carry = attached.carry

    # ------------------------------------------------------------------
    # New cards and zones (create.py)
    # ------------------------------------------------------------------

    new_card = create.new_card
    probe = create.probe
    create_zone = create.create_zone
    remove_zone = create.remove_zone

    # ------------------------------------------------------------------
    # Effects, triggers, the log and the rule set's records
    # ------------------------------------------------------------------

    add_effect = effects.add_effect
    end_effect = effects.end_effect
    end_effects_until = effects.end_effects_until
    take_pending_triggers = triggers.take_pending_triggers
    log_event = log.log_event
    resume = log.resume
    events = log.events
    moved_since = log.moved_since

    @property
    def records(self) -> Records:
        """The rule set's own journaled records (see records.py): a view made
        on each reading, so that a game holds nothing that points back to it
        and is freed by reference counts alone once dropped."""
        return Records(self)

    def record(self, key: Hashable, default: Any = None) -> Any:
        """``records.get(key, default)`` without the view: listings read it per judgement."""
        return self._rules.get(key, default)

    def is_active(self, handle: object) -> bool:
        """Whether the effect an action created is active now. ``handle`` is what
        the action returned as its effect: a kernel effect (:class:`EffectRef`)
        is active while it applies to its card's current object; any other
        handle is the rule set's to judge
        (:meth:`~cardzones.kernel.ruleset.Ruleset.handle_active`)."""
        if isinstance(handle, EffectRef):
            found = self.effect(handle.eid)
            return (
                found is not None
                and self.exists(found.card)
                and found in self.effects_on(found.card)
            )
        return self.ruleset.handle_active(self, handle)

    # ------------------------------------------------------------------
    # Actions of the rule set's table
    # ------------------------------------------------------------------

    def act(self, name: str, /, **args: Any) -> ActionResult:
        """Take the action ``name`` of the rule set's table, one action: its
        arguments are given as the action's ``run`` takes them (card ids, zone
        ids, :class:`~cardzones.kernel.cards.Dest`, card definitions), and a
        left-out one is at its default (``by``: the turn player). As in a
        scenario, it acts for whoever ``by`` names and the rules alone decide;
        a refusal raises :class:`~cardzones.errors.IllegalAction` and changes
        nothing. A parameter named like a Python keyword is given as
        ``**{"in": zone}``.

        >>> from cardzones import new_game
        >>> game = new_game("fab", ["alice", "bob"])
        >>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
        >>> game.act("play", card=card, by="alice").result.value
        'moved'
        """
        return self.ruleset.act(self, name, args)

    def legal_actions(
        self,
        player: str,
        actions: Iterable[str] | None = None,
        *,
        card: int | None = None,
        zone: int | None = None,
        judge: bool = False,
    ) -> list[Any]:
        """The actions of the rule set's table that ``player``, acting for
        themselves, may take now, each ready to apply and with a step form
        (:class:`cardzones.acts.legal_action.LegalAction`); ``actions`` limits it to
        those names, ``card`` to those that name that card, ``zone`` to those
        on or into that zone (what a menu on a card or a zone offers). A
        judge's actions (making a zone, clearing an object by hand) are
        listed only when ``actions`` names them or with ``judge``. The game
        is as it was when this returns."""
        return list(
            self.ruleset.legal_actions(self, player, actions, card=card, zone=zone, judge=judge)
        )

    # ------------------------------------------------------------------
    # Identity for views
    # ------------------------------------------------------------------

    def handle(self, card: int) -> str:
        """An opaque name for the card's current object, for views and logs.

        It is a hash of the object id keyed by the game's secret
        :attr:`handle_key`, so it reveals nothing about when the object was
        made, and a new object gets an unrelated handle.
        """
        oid: int = self._objs[card].oid
        cached = self._handles.get(oid)
        if cached is None:
            from cardzones.kernel.handles import object_handle

            cached = self._handles[oid] = object_handle(self.handle_key, oid)
        return cached

    def view(self, player: str | None) -> dict[str, Any]:
        """What ``player`` may know of the game now (None: a spectator), as
        JSON-ready data. See :func:`cardzones.kernel.views.view`."""
        from cardzones.kernel.views import view

        return view(self, player)

    def log(self, player: str | None) -> list[dict[str, Any]]:
        """The event log as ``player`` may know it (None: a spectator), oldest
        first. See :func:`cardzones.kernel.logview.log_view`."""
        from cardzones.kernel.logview import log_view

        return log_view(self, player)

    # ------------------------------------------------------------------
    # Serialisation (secret-bearing: see serial.py)
    # ------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The full state as JSON-ready data, hidden cards included. Never send it
        to a player; send :meth:`view`. See :mod:`cardzones.kernel.serial`."""
        from cardzones.kernel.serial import game_to_json

        return game_to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any], ruleset: Ruleset[Game] | None = None) -> Game:
        """The game :meth:`to_json` wrote, without its undo history, as a game
        of ``ruleset``, the rule set the data names. To find the rule set by
        that name, use :func:`cardzones.load_game`."""
        from cardzones.kernel.serial import check_ruleset, restore

        found = check_ruleset(data, ruleset)
        # A normal construction first, so the game is complete however it is
        # made; then every map is replaced in place by the saved one.
        # A save made before handle keys existed gets a new one: its handles
        # change once, and the seed never keys them.
        game = cls(found, tuple(data["players"]), int(data["seed"]), data.get("handle_key"))
        restore(game, data)
        return game

    def __repr__(self) -> str:
        return (
            f"<Game {self.ruleset.name} turn {self.turn} ({self.turn_player}) "
            f"{len(self._objs)} objects>"
        )


class Atomic:
    """The context of :meth:`Game.atomic`. A class rather than a generator, as
    every flip, clear and rule set action opens one."""

    __slots__ = ("_game", "_head")

    def __init__(self, game: Game) -> None:
        self._game = game

    def __enter__(self) -> None:
        game = self._game
        self._head = game._journal
        game._depth += 1

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: Any
    ) -> None:
        game, head = self._game, self._head
        if game._depth > 1:  # a step of an enclosing action
            game._depth -= 1
        elif kind is None:  # the rule set's hook last, then one action for undo
            try:
                game.ruleset.after_action(game)
            except CardzonesError:
                game._abort(head)  # refused there, none of it happened
                raise
            finally:
                game._depth = 0
            game._commit(head)
            return
        else:
            game._depth = 0
        if kind is not None and issubclass(kind, CardzonesError):
            game._abort(head)


class Choosing:
    """The context of :meth:`Game.choosing`; an inner one adds to the outer."""

    __slots__ = ("_before", "_ceasing", "_chosen", "_game")

    def __init__(self, game: Game, chosen: tuple[Chosen, ...], ceasing: int | None) -> None:
        self._game, self._chosen, self._ceasing = game, chosen, ceasing

    def __enter__(self) -> None:
        game = self._game
        self._before = (game._chosen, game._ceasing)
        game._chosen = self._chosen + game._chosen
        if self._ceasing is not None:
            game._ceasing = self._ceasing

    def __exit__(self, *exc: object) -> None:
        self._game._chosen, self._game._ceasing = self._before


def new_handle_key() -> str:
    """A new secret key for a game's handles: 128 random bits, as hex."""
    return secrets.token_hex(16)


def _keeps(ruleset: Ruleset[Game], hook: str) -> bool:
    """Whether the rule set keeps the base class's version of a hook."""
    return getattr(type(ruleset), hook) is getattr(Ruleset, hook)


__all__ = ["PLACED", "TOP", "UNDER", "Game", "MoveResult"]
