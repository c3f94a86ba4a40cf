"""The game: state, queries, and the one move pipeline.

Every change of zone goes through :meth:`Game._move`, in the stages DESIGN.md
lists; each stage is a small method named after the rule it implements.

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

import random
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from enum import StrEnum
from typing import Any

from cardzones.errors import CardzonesError, IllegalAction, NeedsChoice, UnknownReference
from cardzones.kernel.cards import CardDef, Dest, Position
from cardzones.kernel.effects import Effect
from cardzones.kernel.events import (
    CEASED,
    CREATED,
    FLIPPED,
    MOVED,
    SHUFFLED,
    Event,
    Snapshot,
    iter_log,
)
from cardzones.kernel.objects import CARD, PLACED, TOP, UNDER, Obj, Origin
from cardzones.kernel.ruleset import Ruleset
from cardzones.kernel.state import (
    CONTENTS,
    EFFECTS,
    FX_BY_CARD,
    KIDS,
    OBJS,
    VARS,
    ZINFO,
    ZONES,
    State,
)
from cardzones.kernel.zones import ZoneInfo, ZoneSpec

#: Builds a record from a tuple of all its fields, skipping the keyword handling
#: of the generated ``__new__``: records are made on every move.
_new_record = tuple.__new__


class MoveResult(StrEnum):
    """What an action did (the scenario key ``result``)."""

    MOVED = "moved"
    NO_MOVE = "no_move"
    FAILED = "failed"
    CLEARED = "cleared"
    CEASED = "ceased"
    DONE = "done"


class Game(State):
    """One game of a rule set: the whole state, and every action on it.

    The full state is secret-bearing: it knows every hidden card. Anything
    shown to a player must go through :func:`cardzones.kernel.views.view`.
    """

    __slots__ = (
        "_handles",
        "_plain_resets",
        "_plain_shown",
        "_shown",
        "_zone_names",
        "players",
        "ruleset",
        "seed",
    )

    def __init__(self, ruleset: Ruleset, players: Sequence[str] = ("alice", "bob"), seed: int = 0):
        super().__init__()
        if len(players) < 1 or len(set(players)) != len(players):
            raise IllegalAction(f"players must be distinct names, got {list(players)}")
        self.ruleset = ruleset
        # Hooks the rule set keeps as the base class has them only repeat what the
        # zone data says; the move pipeline reads the data instead of calling them.
        self._plain_resets = _keeps(ruleset, "resets_on_enter")
        self._plain_shown = _keeps(ruleset, "moved_public")
        self.players = tuple(players)
        self.seed = seed
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
                self._new_zone(None, spec)
            else:
                for player in self.players:
                    for _ in range(spec.per_player):
                        self._new_zone(player, spec)
        ruleset.setup_game(self)
        # Setting up is not an action: it cannot be undone.
        self._journal = None
        self._marks = None

    # ------------------------------------------------------------------
    # Copies
    # ------------------------------------------------------------------

    def copy(self) -> Game:
        """An independent game in the same state, sharing immutable records.

        Changing the copy never changes this game, and the reverse holds too.
        The copy keeps the undo history.
        """
        other = Game.__new__(Game)
        self._copy_into(other)
        other.ruleset = self.ruleset
        other.players = self.players
        other.seed = self.seed
        other._handles = self._handles  # a pure cache of (secret, oid) -> handle
        other._plain_resets = self._plain_resets
        other._plain_shown = self._plain_shown
        other._shown = self._shown  # a pure cache keyed by the immutable record
        other._zone_names = self._zone_names  # the same
        return other

    def __copy__(self) -> Game:
        return self.copy()

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """Run several steps as one action: all of it happens, or none of it.

        A refused step rolls the whole action back, and :meth:`undo` undoes
        it as one.
        """
        head = self._journal
        try:
            yield
            self.ruleset.after_action(self)
        except CardzonesError:
            self._abort(head)
            raise
        self._commit(head)

    # ------------------------------------------------------------------
    # Turn
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
        if player not in self.players:
            raise UnknownReference(f"unknown player {player!r}; players are {list(self.players)}")
        return player

    # ------------------------------------------------------------------
    # Zones
    # ------------------------------------------------------------------

    def spec(self, ztype: str) -> ZoneSpec:
        spec = self.ruleset.zone_specs.get(ztype)
        if spec is None:
            raise UnknownReference(
                f"unknown zone type {ztype!r} for {self.ruleset.name}; "
                f"types are {' '.join(sorted(self.ruleset.zone_specs))}"
            )
        return spec

    def zones_of(self, owner: str | None, ztype: str) -> tuple[int, ...]:
        """The zones of a type a player owns (or the shared ones), in number order."""
        spec = self.spec(ztype)
        return self._zones.get((None if spec.shared else owner, ztype), ())

    def zone(self, owner: str | None, ztype: str, index: int = 1) -> int | None:
        """The zone id of ``owner``'s ``index``-th zone of ``ztype``, or None if
        it does not exist."""
        zids = self.zones_of(owner, ztype)
        return zids[index - 1] if 1 <= index <= len(zids) else None

    def zone_info(self, zid: int) -> ZoneInfo:
        return self._zinfo[zid]  # type: ignore[no-any-return]

    def zone_exists(self, zid: int) -> bool:
        info = self._zinfo.get(zid)
        return info is not None and zid in self._zones.get((info.owner, info.spec.type), ())

    def zone_name(self, zid: int) -> str:
        """The scenario name of a zone: ``alice.hand``, ``alice.weapon.2``, ``stack``."""
        info: ZoneInfo = self._zinfo[zid]
        siblings = self._zones.get((info.owner, info.spec.type), ())
        # Views name every zone every time; the name only changes with the zone's
        # record or with its siblings (3.0.10), both immutable values.
        cached = self._zone_names.get(zid)
        if cached is not None and cached[0] is info and cached[1] is siblings:
            return cached[2]
        base = info.type if info.owner is None else f"{info.owner}.{info.type}"
        if zid not in siblings:
            name = f"{base} (removed)"
        elif info.spec.per_player > 1 or len(siblings) > 1:
            name = f"{base}.{siblings.index(zid) + 1}"
        else:
            name = base
        self._zone_names[zid] = (info, siblings, name)
        return name

    def all_zones(self) -> list[int]:
        """Every existing zone: shared ones first, then each player's, in spec order."""
        return list(self._vars["layout"])

    def _layout(self) -> tuple[int, ...]:
        # Zones are made and removed rarely (3.0.10) and listed on every view, so
        # the list is kept in the state, where undo restores it with the rest.
        out: list[int] = []
        specs = self.ruleset.zone_specs.values()
        for spec in specs:
            if spec.shared:
                out.extend(self._zones.get((None, spec.type), ()))
        for player in self.players:
            for spec in specs:
                if not spec.shared:
                    out.extend(self._zones.get((player, spec.type), ()))
        return tuple(out)

    def contents(self, zid: int) -> tuple[int, ...]:
        """The top-level cards of a zone, top first. Cards under or on them are not
        listed; see :meth:`kids`."""
        return self._contents.get(zid, ())

    def is_empty(self, zid: int) -> bool:
        """3.0.1a: no objects (sub-cards included) and no permanent equipped to it."""
        if self._contents.get(zid):
            return False
        return not self.equipped_in(zid)

    def equipped_in(self, zid: int) -> tuple[int, ...]:
        """Cards equipped to ``zid``, including a two-hander that does not occupy it."""
        info: ZoneInfo = self._zinfo[zid]
        if not info.spec.equipment:
            return ()
        out = []
        for other in self._zones.get((info.owner, info.type), ()):
            for card in self._contents.get(other, ()):
                if zid in self._objs[card].equipped:
                    out.append(card)
        return tuple(out)

    def _new_zone(self, owner: str | None, spec: ZoneSpec) -> int:
        zid = self._next("next_zid")
        self._put(ZINFO, zid, ZoneInfo(zid, spec, owner))
        self._put(CONTENTS, zid, ())
        key = (owner, spec.type)
        self._put(ZONES, key, (*self._zones.get(key, ()), zid))
        self._put(VARS, "layout", self._layout())
        return zid

    def _drop_zone(self, zid: int) -> None:
        info: ZoneInfo = self._zinfo[zid]
        key = (info.owner, info.type)
        self._put(ZONES, key, tuple(z for z in self._zones[key] if z != zid))
        self._put(VARS, "layout", self._layout())

    # ------------------------------------------------------------------
    # Objects
    # ------------------------------------------------------------------

    def card_def(self, name: str) -> CardDef:
        """The rule set's default card of that name (a vanilla card)."""
        return self.ruleset.default_card(name)

    def obj(self, card: int) -> Obj:
        try:
            return self._objs[card]  # type: ignore[no-any-return]
        except KeyError:
            raise UnknownReference(f"card {card} does not exist") from None

    def exists(self, card: int) -> bool:
        return card in self._objs

    def cards(self) -> Iterable[int]:
        """Every existing object's card id."""
        return self._objs.keys()

    def location(self, card: int) -> int:
        """The zone of a card; a sub-card or placed card is in its host's zone."""
        return self.obj(card).zone

    def kids(self, card: int) -> tuple[int, ...]:
        """Cards under (sub-cards) or placed on ``card``, top first."""
        return self._kids.get(card, ())

    def host(self, card: int) -> int | None:
        return self.obj(card).host

    def position(self, card: int) -> int:
        """Index from the top of the card in its zone, or in its host's pile."""
        obj = self.obj(card)
        if obj.host is not None:
            return self._kids[obj.host].index(card)
        return self._contents[obj.zone].index(card)

    def in_arena(self, card: int) -> bool:
        """3.1.2a: in an arena zone and not a sub-card."""
        obj = self.obj(card)
        return obj.rel != UNDER and self._zinfo[obj.zone].spec.in_arena

    def in_play(self, card: int) -> bool:
        obj = self.obj(card)
        return bool(self._zinfo[obj.zone].spec.in_play)

    def is_public(self, card: int) -> bool:
        return bool(self.obj(card).public)

    def is_permanent(self, card: int) -> bool:
        return self.ruleset.is_permanent(self, self.obj(card))

    def may_look(self, player: str | None, card: int) -> bool:
        """3.0.3a: everyone may look at a public object; a player may look at a
        private object they own, or in a zone they own, unless it is in a deck."""
        obj: Obj | None = self._objs.get(card)
        if obj is None:
            raise UnknownReference(f"card {card} does not exist")
        if obj.public:
            return True
        if player is None:
            return False
        info: ZoneInfo = self._zinfo[obj.zone]
        if not info.spec.owner_may_look:
            return False
        return player == obj.owner or player == info.owner

    def seen_by(self, card: int) -> tuple[str, ...]:
        """Exactly the players who may look at the card (3.0.3a)."""
        return tuple(p for p in self.players if self.may_look(p, card))

    def may_play(self, card: int, player: str) -> bool:
        return self.ruleset.may_play(self, card, player)

    def new_card(
        self,
        cdef: CardDef,
        zid: int,
        *,
        owner: str | None = None,
        controller: str | None = None,
        public: bool | None = None,
        position: Position = "bottom",
        host: int | None = None,
        rel: int = TOP,
        kind: str = CARD,
        pcontrol: str | None = None,
        data: object = None,
        check: bool = True,
        log: bool = False,
        by: str | None = None,
    ) -> int:
        """Put a new card into the game, as at setup or when a token is created.

        With ``check``, a zone that cannot contain it is refused (3.0.11). The
        new card is logged only with ``log``.
        """
        info: ZoneInfo = self._zinfo[zid]
        if owner is None:
            owner = info.owner if info.owner is not None else self.players[0]
        if public is None:
            public = info.spec.public if host is None else self.obj(host).public
        card = self._next("next_card")
        oid = self._next("next_oid")
        if rel == UNDER or not info.spec.controlled:
            controller = None  # 1.2.1b: no controller outside the arena and the stack
        elif controller is None:
            controller = owner
        origin = Origin(None, info.type, self.turn, "setup", by)
        obj = Obj(
            card,
            oid,
            cdef,
            owner,
            controller,
            zid,
            public,
            None,
            TOP,
            origin,
            (),
            kind,
            pcontrol or owner,
            data,
        )
        equip: tuple[int, ...] = ()
        if check and host is None:
            adm = self.ruleset.admit(self, obj, zid, controller or owner)
            if not adm.ok:
                raise IllegalAction(
                    f"{self.zone_name(zid)} cannot contain {cdef.name}: {adm.reason}",
                    rule=adm.rule,
                )
            equip = adm.equip
        if equip:
            obj = obj._replace(equipped=equip)
        self._put(OBJS, card, obj)
        if host is None:
            self._insert(zid, card, position)
        else:
            self._put(OBJS, card, obj._replace(zone=self.obj(host).zone))
            self._attach_record(card, host, rel, position)
        if cdef.triggers:
            self._put(VARS, "watchers", (*self._vars["watchers"], card))
        if log:
            self._log(CREATED, card, bool(public), Snapshot(obj, ()), None, zid, oid, by, "create")
        return card

    # ------------------------------------------------------------------
    # Characteristics and effects
    # ------------------------------------------------------------------

    def effects_on(self, card: int) -> tuple[Effect, ...]:
        """The continuous effects that apply to the card's current object now."""
        eids = self._fx_by_card.get(card)
        if not eids:
            return ()
        obj = self._objs.get(card)
        if obj is None:
            return ()
        out = []
        for eid in eids:
            effect: Effect = self._effects[eid]
            if effect.oid is not None and effect.oid != obj.oid:
                continue
            if self.ruleset.effect_active(self, effect):
                out.append(effect)
        return tuple(out)

    def stat(self, card: int, name: str, snapshot: Snapshot | None = None) -> int | None:
        """A numeric property with the effects on it, or None if it has none.

        With ``snapshot``, the value as last known information records it (1.2.3b).
        """
        if snapshot is not None:
            cdef, effects = snapshot.obj.cdef, snapshot.effects
        else:
            cdef, effects = self.obj(card).cdef, self.effects_on(card)
        base = cdef.stat(name)
        total = 0
        touched = False
        for effect in effects:
            for key, delta in effect.mods:
                if key == name:
                    total += delta
                    touched = True
        if base is None and not touched:
            return None
        return (base or 0) + total

    def keywords(self, card: int) -> frozenset[str]:
        obj = self.obj(card)
        extra = [k for e in self.effects_on(card) for k in e.keywords]
        return obj.cdef.keywords.union(extra) if extra else obj.cdef.keywords

    def add_effect(
        self,
        card: int,
        kind: str,
        *,
        mods: Iterable[tuple[str, int]] = (),
        keywords: Iterable[str] = (),
        until: str | None = None,
        label: str | None = None,
        bound: bool = True,
        data: object = None,
    ) -> int:
        """Create a continuous effect on a card. A ``bound`` effect applies to the
        current object only and ends when it becomes a new object (3.0.9)."""
        obj = self.obj(card)
        eid = self._next("next_eid")
        effect = Effect(
            eid,
            kind,
            card,
            obj.oid if bound else None,
            tuple(mods),
            tuple(keywords),
            until,
            label,
            data,
        )
        self._put(EFFECTS, eid, effect)
        self._put(FX_BY_CARD, card, (*self._fx_by_card.get(card, ()), eid))
        return eid

    def effect(self, eid: int) -> Effect | None:
        effect: Effect | None = self._effects.get(eid)
        return effect

    def end_effect(self, eid: int) -> None:
        effect: Effect | None = self._effects.get(eid)
        if effect is None:
            return
        self._pop(EFFECTS, eid)
        rest = tuple(e for e in self._fx_by_card.get(effect.card, ()) if e != eid)
        if rest:
            self._put(FX_BY_CARD, effect.card, rest)
        else:
            self._pop(FX_BY_CARD, effect.card)

    def end_effects_until(self, until: str) -> None:
        """End every effect with that duration ("until end of turn")."""
        for eid, effect in list(self._effects.items()):
            if effect.until == until:
                self.end_effect(eid)

    def _end_bound_effects(self, card: int, old_oid: int) -> None:
        """3.0.9: effects bound to the previous object end with it."""
        for eid in self._fx_by_card.get(card, ()):
            if self._effects[eid].oid == old_oid:
                self.end_effect(eid)

    # ------------------------------------------------------------------
    # The event log
    # ------------------------------------------------------------------

    def _log(
        self,
        kind: str,
        card: int | None,
        public: bool,
        lki: Snapshot | None,
        src: int | None,
        dst: int | None,
        new_oid: int | None,
        by: str | None,
        cause: str,
        note: str = "",
    ) -> Event:
        v = self._vars
        log = v["log"]
        # The sequence number follows the head of the log, so logging is one write.
        event: Event = _new_record(
            Event,
            (
                0 if log is None else log[0].seq + 1,
                kind,
                v["turn"],
                card,
                public,
                lki,
                src,
                dst,
                new_oid,
                by,
                cause,
                note,
            ),
        )
        self._journal = (VARS, "log", log, self._journal)
        v["log"] = (event, log)
        return event

    def log_event(self, kind: str, note: str = "", by: str | None = None) -> Event:
        """Log an event that concerns no object (a phase, a turn)."""
        return self._log(kind, None, True, None, None, None, None, by, "rule", note)

    def events(self) -> list[Event]:
        """The whole log, oldest first. Secret-bearing: see views.py for a player's log."""
        return list(iter_log(self._vars["log"]))

    def _snapshot(self, obj: Obj) -> Snapshot:
        """1.2.3: the object and the effects on it, immutable."""
        if obj.card in self._fx_by_card:
            return Snapshot(obj, self.effects_on(obj.card))
        snapshot: Snapshot = _new_record(Snapshot, (obj, ()))
        return snapshot

    # ------------------------------------------------------------------
    # The move pipeline
    # ------------------------------------------------------------------

    def move(
        self,
        card: int,
        dest: Dest | int,
        *,
        position: Position = "top",
        face: str | None = None,
        cause: str = "effect",
        by: str | None = None,
        choose_zone: int | None = None,
    ) -> MoveResult:
        """Move a card: the one way anything changes zone.

        ``dest`` is a zone id or a :class:`Dest` to resolve. ``face`` is ``up`` or
        ``down`` (default: the destination's default visibility). ``cause`` is
        ``effect`` (a move that cannot be made fails, 3.0.11) or ``rule`` (it
        clears the object instead). A refused move raises and changes nothing;
        a failed one returns ``MoveResult.FAILED`` and changes nothing.
        """
        head = self._journal
        try:
            result = self._move(
                card,
                dest,
                position,
                face,
                cause,
                by if by is not None else self._vars["turn_player"],
                choose_zone,
            )
            self.ruleset.after_action(self)
        except CardzonesError:
            self._abort(head)
            raise
        if self._journal is not head:  # an inlined _commit
            self._marks = (head, self._marks)
        return result

    def _move(
        self,
        card: int,
        dest: Dest | int,
        position: Position,
        face: str | None,
        cause: str,
        by: str,
        choose_zone: int | None = None,
        played: bool = False,
    ) -> MoveResult:
        obj: Obj | None = self._objs.get(card)
        if obj is None:
            raise UnknownReference(f"card {card} does not exist")
        zid = (
            dest if isinstance(dest, int) else self._resolve_destination(obj, dest, by, choose_zone)
        )
        public = self._visibility_at(obj, zid, face)
        if obj.cdef.abilities and (obj.public or public):
            zid, position, public = self._replace_destination(obj, zid, position, public, by)
        if zid == obj.zone and obj.rel == TOP:
            self._change_face(obj, public, by, cause)
            return _NO_MOVE
        ruleset = self.ruleset
        if ruleset.ceases_on_move(self, obj, zid):
            self._cease(obj, by, cause)
            return _CEASED
        if zid is None or not self.zone_exists(zid):
            return self._cannot_contain(obj, by, cause)
        adm = ruleset.admit(self, obj, zid, by)
        if adm.reason is not None:
            return self._cannot_contain(obj, by, cause)
        self._transfer(obj, zid, position, public, cause, by, adm.equip, played)
        return _MOVED

    def _resolve_destination(
        self, obj: Obj, dest: Dest | int, by: str, choose_zone: int | None
    ) -> int | None:
        """Stage 1: the zone a destination names (3.0.5a, 3.0.10a, 3.0.13, 3.3.3b).
        None when that zone does not exist."""
        if isinstance(dest, int):
            return dest
        spec = self.ruleset.zone_specs.get(dest.type)
        if spec is None:
            pseudo = self.ruleset.resolve_pseudo(self, obj, dest, by)
            if pseudo is None:
                self.spec(dest.type)  # raises: unknown zone type
                return None
            dest = pseudo
            spec = self.spec(dest.type)
        if spec.shared:
            owner = None
        elif dest.owner == "owner":
            owner = obj.owner
        elif dest.owner is None or dest.owner == "you":
            owner = by  # 3.0.13: the zones of the controller of the effect
        else:
            owner = self.check_player(dest.owner)
        zids = self._zones.get((owner, dest.type), ())
        if dest.index is not None:
            return zids[dest.index - 1] if 1 <= dest.index <= len(zids) else None
        if len(zids) <= 1:
            if choose_zone is not None and choose_zone not in zids:
                raise IllegalAction(
                    f"choose_zone {self.zone_name(choose_zone)} is not a {dest} zone",
                    rule="3.0.10a",
                )
            return zids[0] if zids else None
        options = [z for z in zids if self.ruleset.admit(self, obj, z, by).ok]
        if choose_zone is not None:
            if choose_zone not in options:
                names = ", ".join(self.zone_name(z) for z in options) or "none"
                raise IllegalAction(
                    f"choose_zone {self.zone_name(choose_zone)} cannot take the card; "
                    f"the options are {names}",
                    rule="3.0.10a",
                )
            return choose_zone
        if len(options) == 1:
            return options[0]
        if not options:
            return zids[0]  # none can take it: admission decides what happens
        raise NeedsChoice(
            "choose_zone",
            [self.zone_name(z) for z in options],
            what=f"the {dest.type} zone ({obj.owner} chooses)",
            rule="3.0.10a",
        )

    def _visibility_at(self, obj: Obj, zid: int | None, face: str | None) -> bool:
        """Stage 2: the visibility the object will have at the destination (3.0.8)."""
        if face is not None:
            return face == "up"
        if zid is None:
            return obj.public
        info: ZoneInfo | None = self._zinfo.get(zid)
        return obj.public if info is None else info.spec.public

    def _replace_destination(
        self, obj: Obj, zid: int | None, position: Position, public: bool, by: str
    ) -> tuple[int | None, Position, bool]:
        """Stage 3: replacement effects on the destination, each at most once,
        deciding the visibility again after each (3.0.8a). A private object has
        no properties (3.0.7a), so only a public one's replacements apply."""
        replacements = obj.cdef.replacements
        if not replacements:
            return zid, position, public
        origin_type = self._zinfo[obj.zone].type
        applied: list[int] = []
        progress = True
        while progress:
            progress = False
            dest_type = self._zinfo[zid].type if zid is not None else None
            for i, rep in enumerate(replacements):
                if i in applied or rep.moved_to != dest_type:
                    continue
                if rep.from_ is not None and rep.from_ != origin_type:
                    continue
                applied.append(i)
                controller = obj.controller or obj.owner or by
                zid = self._resolve_destination(obj, rep.to, controller, None)
                position = rep.position
                public = self._visibility_at(obj, zid, rep.face)
                progress = True
                break
        return zid, position, public

    def _change_face(self, obj: Obj, public: bool, by: str | None, cause: str) -> bool:
        """3.0.7b: no move, the object only becomes public or private where it is.
        Going from public to private resets it (3.0.9). Returns whether it changed."""
        if obj.public == public:
            return False
        reset = obj.public and not public
        oid = self._next("next_oid") if reset else obj.oid
        ztype = self._zinfo[obj.zone].type
        origin = Origin(ztype, ztype, self._vars["turn"], "flip", by) if reset else obj.origin
        lki = self._snapshot(obj)
        new = obj._replace(public=public, oid=oid, origin=origin)
        self._put(OBJS, obj.card, new)
        if reset:
            self._end_bound_effects(obj.card, obj.oid)
        self._log(
            FLIPPED,
            obj.card,
            True,
            lki,
            obj.zone,
            obj.zone,
            oid,
            by,
            cause,
            "up" if public else "down",
        )
        for kid in self._kids.get(obj.card, ()):
            kid_obj: Obj = self._objs[kid]
            if kid_obj.rel == UNDER:
                self._change_face(kid_obj, public, by, cause)  # 3.0.14d
        return True

    def _cannot_contain(self, obj: Obj, by: str, cause: str) -> MoveResult:
        """Stage 5, when the zone does not exist or cannot contain the object
        (3.0.11): a rule clears it instead; an effect fails and changes nothing."""
        if cause == "rule":
            cleared = self._clear(obj, by)
            return MoveResult.FAILED if cleared is MoveResult.FAILED else MoveResult.CLEARED
        if cause == "clear":
            # The clear itself was replaced to where the object cannot go: its
            # replacements have applied once (3.0.8a), so it goes to the graveyard.
            graveyard = self.zone(obj.owner, self.ruleset.clear_to)
            if graveyard is not None and self.ruleset.admit(self, obj, graveyard, by).ok:
                self._transfer(
                    obj, graveyard, "top", self._zinfo[graveyard].spec.public, "rule", by, (), False
                )
                return MoveResult.MOVED
        return MoveResult.FAILED

    def _transfer(
        self,
        obj: Obj,
        zid: int,
        position: Position,
        public: bool,
        cause: str,
        by: str | None,
        equip: tuple[int, ...],
        played: bool,
    ) -> Obj:
        """Stages 6 to 9: take last known information, move the object with its
        sub-cards and placed cards at once, reset it, and log the move."""
        card = obj.card
        src = obj.zone
        lki = self._snapshot(obj)  # 1.2.3, 3.0.7a
        self._detach(obj)  # 3.0.7: leaving and entering are one step
        ruleset = self.ruleset
        zinfo = self._zinfo
        reset = (
            zinfo[zid].spec.resets
            if self._plain_resets
            else ruleset.resets_on_enter(self, obj, zid)
        ) or (obj.public and not public)
        origin: Origin | None
        if reset:
            oid = self._next("next_oid")
            origin = _new_record(
                Origin, (zinfo[src].spec.type, zinfo[zid].spec.type, self._vars["turn"], cause, by)
            )
        else:
            oid = obj.oid
            origin = obj.origin
        controller = ruleset.new_controller(self, obj, zid, by, played)
        new: Obj = _new_record(
            Obj,
            (
                card,
                oid,
                obj.cdef,
                obj.owner,
                controller,
                zid,
                public,
                None,
                TOP,
                origin,
                equip,
                obj.kind,
                obj.pcontrol,
                obj.data,
            ),
        )
        objs = self._objs
        self._journal = (OBJS, card, objs[card], self._journal)  # an inlined _put
        objs[card] = new
        self._insert(zid, card, position)
        if reset and card in self._fx_by_card:
            self._end_bound_effects(card, obj.oid)  # 3.0.9
        shown = public if self._plain_shown else ruleset.moved_public(self, obj, public)
        event = self._log(MOVED, card, shown, lki, src, zid, oid, by, cause)
        if card in self._kids:
            self.ruleset.move_children(self, obj, new, reset)  # 3.0.14c
        if self._vars["watchers"]:
            self._note_triggers(event)
        return new

    def _insert(self, zid: int, card: int, position: Position) -> None:
        contents = self._contents
        current = contents[zid]
        # Tuple concatenation is about twice as fast as unpacking, hence the noqa.
        if position == "top":
            # Only an ordered zone has a top; elsewhere the order is arrival order.
            ordered = self._zinfo[zid].spec.ordered
            new = (card,) + current if ordered else current + (card,)  # noqa: RUF005
        elif position == "bottom":
            new = current + (card,)  # noqa: RUF005
        else:
            i = max(0, min(int(position), len(current)))
            new = current[:i] + (card,) + current[i:]  # noqa: RUF005
        self._journal = (CONTENTS, zid, current, self._journal)  # an inlined _put
        contents[zid] = new

    def _detach(self, obj: Obj) -> None:
        """Take an object out of its zone, or off the card it is under or on."""
        card = obj.card
        if obj.host is None:
            contents = self._contents
            zid = obj.zone
            current = contents[zid]
            i = current.index(card)
            self._journal = (CONTENTS, zid, current, self._journal)  # an inlined _put
            contents[zid] = current[1:] if i == 0 else current[:i] + current[i + 1 :]
        else:
            rest = tuple(k for k in self._kids[obj.host] if k != card)
            if rest:
                self._put(KIDS, obj.host, rest)
            else:
                self._pop(KIDS, obj.host)

    def _attach_record(self, card: int, host: int, rel: int, position: Position) -> None:
        obj: Obj = self._objs[card]
        self._put(OBJS, card, obj._replace(host=host, rel=rel))
        pile = self._kids.get(host, ())
        if position == "bottom":
            pile = (*pile, card)
        elif position == "top":
            pile = (card, *pile)
        else:
            i = max(0, min(int(position), len(pile)))
            pile = (*pile[:i], card, *pile[i:])
        self._put(KIDS, host, pile)

    def _attach(
        self,
        card: int,
        host: int,
        rel: int,
        *,
        position: Position = "top",
        by: str | None = None,
        cause: str = "effect",
        public: bool | None = None,
        reset: bool = True,
    ) -> Obj:
        """Make ``card`` a sub-card of ``host`` (3.0.14) or place it on ``host``.

        A card that becomes a sub-card becomes a new object (3.0.14b), and takes
        on its top-card's visibility (3.0.14d); its own sub-cards become sub-cards
        of the new top-card (3.0.14c).
        """
        obj = self.obj(card)
        top = self.obj(host)
        lki = self._snapshot(obj)
        src = obj.zone
        self._detach(obj)
        if public is None:
            public = top.public if rel == UNDER else True
        oid = self._next("next_oid") if reset else obj.oid
        origin = (
            Origin(self._zinfo[src].type, self._zinfo[top.zone].type, self._vars["turn"], cause, by)
            if reset
            else obj.origin
        )
        # 1.2.1b, 3.0.14b: a sub-card is not in the arena, so it has no controller.
        new = Obj(
            card,
            oid,
            obj.cdef,
            obj.owner,
            None if rel == UNDER else self.ruleset.new_controller(self, obj, top.zone, by, False),
            top.zone,
            public,
            None,
            TOP,
            origin,
            (),
            obj.kind,
            obj.pcontrol,
            obj.data,
        )
        self._put(OBJS, card, new)
        self._attach_record(card, host, rel, position)
        if reset and card in self._fx_by_card:
            self._end_bound_effects(card, obj.oid)
        self._log(
            MOVED,
            card,
            public and obj.public,
            lki,
            src,
            top.zone,
            oid,
            by,
            cause,
            "under" if rel == UNDER else "placed",
        )
        if rel == UNDER:
            for kid in self._kids.get(card, ()):
                self._reattach_kid(kid, host)
        result: Obj = self._objs[card]
        return result

    def _reattach_kid(self, kid: int, host: int) -> None:
        """3.0.14c: a sub-card of a card that became a sub-card goes under the new top."""
        obj: Obj = self._objs[kid]
        self._detach(obj)
        top: Obj = self._objs[host]
        src = obj.zone
        self._put(
            OBJS, kid, obj._replace(zone=top.zone, public=top.public, host=None, controller=None)
        )
        self._attach_record(kid, host, UNDER, "bottom")
        if src != top.zone:
            self._log(
                MOVED,
                kid,
                obj.public,
                self._snapshot(obj),
                src,
                top.zone,
                obj.oid,
                None,
                "rule",
                "under",
            )

    def _carry_children(self, host: int, host_new: Obj, keep: Iterable[int] | None = None) -> None:
        """3.0.14c: the host moved and stayed the same object; the cards under or on
        it go to the same zone as part of the same event."""
        for kid in self._kids.get(host, ()) if keep is None else keep:
            obj: Obj = self._objs[kid]
            public = host_new.public if obj.rel == UNDER else obj.public
            reset = obj.public and not public
            oid = self._next("next_oid") if reset else obj.oid
            new = obj._replace(
                zone=host_new.zone,
                public=public,
                oid=oid,
                controller=None if obj.rel == UNDER else obj.controller,
            )
            self._put(OBJS, kid, new)
            if reset:
                self._end_bound_effects(kid, obj.oid)
            self._log(
                MOVED,
                kid,
                public,
                self._snapshot(obj),
                obj.zone,
                host_new.zone,
                oid,
                None,
                "rule",
                "with host",
            )
            if kid in self._kids:
                self._carry_children(kid, new)

    # ------------------------------------------------------------------
    # Clearing and ceasing
    # ------------------------------------------------------------------

    def _clear(self, obj: Obj, by: str | None) -> MoveResult:
        """3.0.12: move it to its owner's graveyard; a token, macro or non-card
        layer simply ceases to exist (3.0.12a)."""
        if obj.kind != CARD or obj.is_token:
            self._cease(obj, by, "rule")
            return MoveResult.CEASED
        graveyard = self.zone(obj.owner, self.ruleset.clear_to)
        if graveyard == obj.zone and obj.rel == TOP:
            return MoveResult.NO_MOVE
        # The clear is the rule move of 3.0.11 itself: it is never cleared again.
        return self._move(
            obj.card,
            Dest(self.ruleset.clear_to, "owner"),
            "top",
            None,
            "clear",
            by or obj.owner or self.turn_player,
        )

    def clear(self, card: int, by: str | None = None) -> MoveResult:
        """Clear an object (3.0.12)."""
        with self.atomic():
            result = self._clear(self.obj(card), by)
        return MoveResult.CLEARED if result is MoveResult.MOVED else result

    def _cease(self, obj: Obj, by: str | None, cause: str) -> None:
        """The object ceases to exist (3.0.12a, 8.1.8a). Its sub-cards are cleared
        as part of the same event (3.0.14e), and it is no longer equipped (8.5.41f)."""
        card = obj.card
        lki = self._snapshot(obj)
        self._detach(obj)
        self._pop(OBJS, card)
        for eid in self._fx_by_card.get(card, ()):
            self.end_effect(eid)
        if card in self._vars["watchers"]:
            self._put(VARS, "watchers", tuple(w for w in self._vars["watchers"] if w != card))
        self._log(CEASED, card, obj.public, lki, obj.zone, None, None, by, cause)
        kids = self._kids.get(card, ())
        for kid in kids:
            self._clear_kid(kid, by)
        self._pop(KIDS, card)

    def _clear_kid(self, kid: int, by: str | None) -> None:
        """Clear a card that was under or on a card that is gone (3.0.14e)."""
        self._clear(self._objs[kid], by)

    def cease(self, card: int, by: str | None = None) -> MoveResult:
        with self.atomic():
            self._cease(self.obj(card), by, "effect")
        return MoveResult.CEASED

    # ------------------------------------------------------------------
    # Visibility and order
    # ------------------------------------------------------------------

    def flip(self, card: int, face: str, by: str | None = None) -> MoveResult:
        """Make an object public (``up``) or private (``down``) where it is. Going
        from public to private resets it (3.0.9). A sub-card has the visibility of
        its top-card (3.0.14d) and cannot be turned on its own."""
        obj = self.obj(card)
        if obj.rel == UNDER:
            raise IllegalAction(
                "a sub-card is public exactly when its top-card is; flip the top-card",
                rule="3.0.14d",
            )
        with self.atomic():
            changed = self._change_face(obj, face == "up", by or self.turn_player, "effect")
        return MoveResult.DONE if changed else MoveResult.NO_MOVE

    def shuffle(self, zid: int, by: str | None = None) -> MoveResult:
        """Shuffle a zone with the game's seeded randomness. Private objects in it
        become new objects, so nothing links them to what they were before."""
        with self.atomic():
            n = self._next("shuffles")
            rng = random.Random(f"{self.seed}:{n}")
            cards = list(self._contents[zid])
            rng.shuffle(cards)
            self._put(CONTENTS, zid, tuple(cards))
            ztype = self._zinfo[zid].type
            for card in cards:
                obj: Obj = self._objs[card]
                if not obj.public:
                    origin = Origin(ztype, ztype, self._vars["turn"], "shuffle", by)
                    self._put(OBJS, card, obj._replace(oid=self._next("next_oid"), origin=origin))
                    if card in self._fx_by_card:
                        self._end_bound_effects(card, obj.oid)
            self._log(SHUFFLED, None, True, None, zid, zid, None, by, "effect")
        return MoveResult.DONE

    # ------------------------------------------------------------------
    # Triggers (3.0.9a)
    # ------------------------------------------------------------------

    def _note_triggers(self, event: Event) -> None:
        """Remember every trigger the move matched; the rule set puts them on the
        stack when the action is over (see :meth:`take_pending_triggers`)."""
        if not event.public or event.lki is None:
            return  # 3.0.7a: a private move has no properties to match
        moved = event.lki.obj
        assert event.src is not None and event.dst is not None
        src_info: ZoneInfo = self._zinfo[event.src]
        dst_info: ZoneInfo = self._zinfo[event.dst]
        for watcher in self._vars["watchers"]:
            source: Obj | None = self._objs.get(watcher)
            if source is None or not source.public or source.rel == UNDER:
                continue  # 3.0.4e: a private source does not apply
            if not self._zinfo[source.zone].spec.in_arena:
                continue
            for i, trig in enumerate(source.cdef.triggers):
                if trig.to is not None and trig.to != dst_info.type:
                    continue
                if trig.from_ is not None:
                    if trig.from_ == "arena":
                        if not src_info.spec.in_arena or moved.rel == UNDER:
                            continue
                    elif trig.from_ != src_info.type:
                        continue
                if trig.types_any and not (trig.types_any & moved.cdef.types):
                    continue
                if trig.controlled_by_you and moved.controller != source.controller:
                    continue
                pending = (watcher, i, event.card, event.new_oid, source.controller)
                self._put(VARS, "pending", (*self._vars["pending"], pending))

    def take_pending_triggers(self) -> tuple[tuple[int, int, int, int, str], ...]:
        """The triggers noted since the last call: (source, ability index, card,
        object id it produced, controller of the source)."""
        pending: tuple[tuple[int, int, int, int, str], ...] = self._vars["pending"]
        if pending:
            self._put(VARS, "pending", ())
        return pending

    # ------------------------------------------------------------------
    # Turns
    # ------------------------------------------------------------------

    def end_turn(self, order: Sequence[int] = ()) -> MoveResult:
        """End the turn: the rule set's end-of-turn procedure, "this turn" effects
        end, and the next player's turn begins."""
        with self.atomic():
            self.ruleset.end_turn(self, tuple(order))
            self.end_effects_until("end_of_turn")
            players = self.players
            nxt = players[(players.index(self.turn_player) + 1) % len(players)]
            self._put(VARS, "turn", self.turn + 1)
            self._put(VARS, "turn_player", nxt)
            if self.ruleset.phases:
                self._put(VARS, "phase", self.ruleset.phases[0])
            self.log_event("turn", f"turn {self.turn}: {nxt}")
            self.ruleset.begin_turn(self)
        return MoveResult.DONE

    # ------------------------------------------------------------------
    # Identity for views
    # ------------------------------------------------------------------

    def handle(self, card: int) -> str:
        """An opaque name for the card's current object, for views and logs.

        It is a keyed hash of the object id, so it reveals nothing about when
        the object was made, and a new object gets an unrelated handle.
        """
        oid: int = self._objs[card].oid
        cached = self._handles.get(oid)
        if cached is None:
            from cardzones.kernel.views import object_handle

            cached = self._handles[oid] = object_handle(self.seed, oid)
        return cached

    def view(self, player: str | None) -> dict[str, Any]:
        """What ``player`` may know of the game now (None: a spectator), as
        JSON-ready data. See :func:`cardzones.kernel.views.view`."""
        from cardzones.kernel.views import view

        return view(self, player)

    def log(self, player: str | None) -> list[dict[str, Any]]:
        """The event log as ``player`` may know it (None: a spectator), oldest
        first. See :func:`cardzones.kernel.views.log_view`."""
        from cardzones.kernel.views import log_view

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
    def from_json(cls, data: dict[str, Any], ruleset: Ruleset | None = None) -> Game:
        """The game :meth:`to_json` wrote, without its undo history."""
        from cardzones.kernel.serial import game_from_json

        return game_from_json(data, ruleset)

    def __repr__(self) -> str:
        return (
            f"<Game {self.ruleset.name} turn {self.turn} ({self.turn_player}) "
            f"{len(self._objs)} objects>"
        )


def _keeps(ruleset: Ruleset, hook: str) -> bool:
    """Whether the rule set keeps the base class's version of a hook."""
    return getattr(type(ruleset), hook) is getattr(Ruleset, hook)


# Enum members looked up once: the move pipeline returns one on every call.
_MOVED, _NO_MOVE, _CEASED = MoveResult.MOVED, MoveResult.NO_MOVE, MoveResult.CEASED


__all__ = ["PLACED", "TOP", "UNDER", "Game", "MoveResult"]
