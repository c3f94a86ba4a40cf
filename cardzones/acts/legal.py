"""Legal actions: what a player may do now, each ready to apply.

:func:`legal_actions` (and :meth:`Game.legal_actions
<cardzones.kernel.game.Game.legal_actions>`) asks each action of the rule set's
table for its candidates (``Action.candidates(game, player)``: the arguments
the player could give now, as the rule set lists them), keeps those the seat
policy allows the player (:mod:`cardzones.acts.seats`: the player acts for
themselves, on their own cards, and names a card they may not look at only
by its place in their own zone), checked by the one pass that binds every act
(:func:`~cardzones.acts.binding.bind`), and tries each on the game, rolling it back
at once: a refused one (:class:`~cardzones.errors.IllegalAction`) is left out,
and one that needs a choice of zone (:class:`~cardzones.errors.NeedsChoice`)
is listed once per option. So every listed action succeeds when applied to
the game as it is, and every candidate left out is refused. A choice that is
another player's (3.0.10a: the owner of a card the action moves chooses where
it goes) is not the player's to give: a candidate that needs it is left out
until that player gives it ahead, as the act would be refused. Two kinds of
candidate are left out before any of this: those the rule set does not offer
(``Action.offer``: what its timing makes senseless, though the rules of the
zones accept it), and a judge's actions (``Action.judge``: a correction of
the table, such as making a zone), unless asked for by name or with
``judge=True``.

An action may succeed and still do nothing the player wants: a move whose
effect fails (3.0.11) is legal and gives ``result`` ``failed``. ``result`` is
what the try gave, or None when the action names a card the player may not
look at (what it would give could tell what the card is).

The candidates, the checks and the order of the list depend only on what the
player may know, so the list tells them nothing their view does not
(tests/test_legal.py holds this as a property).

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
>>> legal = game.legal_actions("alice", actions=["play", "pitch"])
>>> [(a.name, a.result.value) for a in legal]
[('play', 'moved'), ('pitch', 'moved')]
>>> legal[0].to_json(game)["play"]["by"]
'alice'
>>> legal[0].apply(game).result.value
'moved'
>>> game.zone_name(game.location(card))
'stack'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from itertools import chain
from typing import TYPE_CHECKING, Any

from cardzones.acts.actions import (
    Action,
    Foresee,
    ParamKind,
    table_of,
)
from cardzones.acts.binding import RESOLVED, bind
from cardzones.acts.candidate_shapes import (
    ACTOR,
    CARD,
    CARDS,
    OWN_ZONE,
    naming,
    prepared,
    shape_and_groups,
)
from cardzones.acts.legal_action import LegalAction
from cardzones.acts.listing import SeatCandidate, candidate_key
from cardzones.acts.listing import frozen as _frozen
from cardzones.acts.listing import selected as listed_actions
from cardzones.acts.seats import (
    REMEMBERED,
    SeatPolicy,
    SeatRefusal,
    acts_on,
    may_name,
    owns_zone,
)
from cardzones.acts.zone_choices import adding
from cardzones.acts.zone_filter import concerns
from cardzones.errors import CardzonesError, NeedsChoice
from cardzones.kernel.results import MoveResult

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: How many choices deep a candidate is expanded (a choice of zone, then
#: another: a clear of cards of several owners, each with several graveyards).
_CHOICE_DEPTH = 4

#: The kinds of parameter that take a choice of zone.
_ZONE_KINDS = frozenset({ParamKind.ZONE, ParamKind.ZONE_CHOICE})


def legal_actions(
    game: Game,
    player: str,
    actions: Iterable[str] | None = None,
    *,
    card: int | None = None,
    zone: int | None = None,
    judge: bool = False,
) -> list[LegalAction]:
    """Every action of the rule set's table that ``player`` may take now, each
    ready to apply (see the module's documentation); ``actions`` limits it to
    those names, ``card`` to those that name that card (as any of their card
    parameters) and ``zone`` to those on or into that zone
    (:func:`~cardzones.acts.zone_filter.concerns`).
    Actions without candidates (``Action.candidates`` None) are never
    listed, nor a candidate the rule set does not offer (``Action.offer``).
    A judge's action (``Action.judge``) is listed only when ``actions``
    names it or with ``judge``. The game is as it was when this returns.

    Each candidate is judged from the rules (``Action.foresee``); only one
    they cannot judge is tried. :func:`tried_legal_actions` tries every one
    and gives the same list."""
    return _listing(game, player, actions, card, zone, True, judge)[0]


def tried_legal_actions(
    game: Game,
    player: str,
    actions: Iterable[str] | None = None,
    *,
    card: int | None = None,
    zone: int | None = None,
    judge: bool = False,
) -> list[LegalAction]:
    """:func:`legal_actions` by trying every candidate on the game and taking
    it back: slower, and the reference the judged list is tested against."""
    return _listing(game, player, actions, card, zone, False, judge)[0]


def legal_counts(game: Game, player: str) -> tuple[int, int, int]:
    """How many candidates :func:`legal_actions` of ``player`` considers
    (after the seat policy), how many of them it tries on the game (the rules
    judge the others) and how many it lists (for the benchmark)."""
    listed, ask = _listing(game, player, None, None, None, True)
    return ask.candidates, ask.tries, len(listed)


def _listing(
    game: Game,
    player: str,
    actions: Iterable[str] | None,
    card: int | None,
    zone: int | None,
    foresee: bool,
    judges: bool = False,
) -> tuple[list[LegalAction], _Asked]:
    game.check_player(player)
    out: list[LegalAction] = []
    selected = listed_actions(table_of(game), actions, judges)
    ask = _Asked(game, player, card, zone)
    # Whose turn it is, read once: a player's program lists at every act.
    turn = None
    memo = JUDGING.set((game, {}) if foresee else None)
    # Only a judged listing on one card makes the candidates of that card
    # alone: trying every candidate makes them all, the reference.
    known = REMEMBERED.set((game, player, [None, None], card if foresee else None))
    try:
        for action in selected:
            if action.turn_player:
                if turn is None:
                    turn = game.turn_player
                if turn != player:
                    continue  # the turn player's action (Seat.turn), without a refusal
            judge = action.foresee
            if foresee and judge is not None:
                ask.judge_all(action, judge, out)
            else:
                # Trying every candidate binds each with the binder itself, so
                # that the tests hold the quick binding to it as well.
                ask.try_all(action, foresee, out)
    finally:
        REMEMBERED.reset(known)
        JUDGING.reset(memo)
    return out, ask


#: The game whose legal actions are being judged, and what its judges found
#: (read through :func:`judging`, or straight where it is read per candidate).
JUDGING: ContextVar[tuple[Game, dict[Any, Any]] | None] = ContextVar(
    "cardzones_judging", default=None
)


def judging(game: Game) -> dict[Any, Any] | None:
    """While the legal actions of ``game`` are judged, a dict in which an
    action's ``foresee`` may keep what it found of the position, under keys
    of its own, to find it once per listing rather than once per candidate:
    the game stays as it is meanwhile. None at any other time, and while a
    candidate is tried (it changes the game)."""
    held = JUDGING.get()
    return held[1] if held is not None and held[0] is game else None


_FAILED = MoveResult.FAILED
#: What an action's candidates give once they are all given.
_NO_MORE: Any = object()
#: Builds a legal action from a tuple of its fields (they are made by the thousand).
_new_legal = tuple.__new__

#: What :func:`naming` gives where no card is asked for.
_NOT_ASKED: tuple[None, tuple[str, ...], tuple[str, ...]] = (None, (), ())

#: What a listing knows of a card, found once per card (:meth:`_Asked._card`).
_NAMED, _OURS, _LOOKED = 1, 2, 4


class _Asked:
    """One listing of legal actions: the seat policy, remembered card by card,
    the filters, and the judging or trying of each candidate. Made at every
    listing, most of which list an act or two: what only some need (the
    seat policy's object for the binder, the texts of unhashable values, the
    zones by name) is made when first needed."""

    __slots__ = (
        "_cards",
        "_seat",
        "_texts",
        "_zones",
        "candidates",
        "card",
        "game",
        "player",
        "tries",
        "zone",
    )

    def __init__(self, game: Game, player: str, card: int | None, zone: int | None) -> None:
        self.game = game
        self.player = player
        self.card = card
        self.zone = zone
        self._seat: SeatPolicy | None = None
        self._cards: dict[int, int] = {}
        self._texts: dict[int, tuple[Any, str]] | None = None
        self._zones: dict[str, int] | None = None
        self.candidates = 0
        self.tries = 0

    # -- the seat policy -------------------------------------------------

    def _card(self, card: int) -> int:
        """What the player may do with the card: name it (:func:`may_name`),
        act on it (:func:`acts_on`), look at it; found once per listing, as
        the game stays as it is."""
        game, player = self.game, self.player
        flags = _NAMED | _LOOKED if game.may_look(player, card) else 0
        if not flags and may_name(game, player, card):
            flags = _NAMED
        if acts_on(game, player, card):
            flags |= _OURS
        self._cards[card] = flags
        return flags

    def _all_cards(self, cards: Iterable[int], ours: bool) -> int:
        """What the player may do with every card of a list, as :meth:`_card`
        says of one: named (and acted on, with ``ours``) only when each is,
        looked at only when each is."""
        known = self._cards
        out = _NAMED | _LOOKED
        for card in cards:
            flags = known.get(card)
            if flags is None:
                flags = self._card(card)
            if not flags & _NAMED or (ours and not flags & _OURS):
                return 0
            if not flags & _LOOKED:
                out = _NAMED
        return out

    def bound_by_binder(self, action: Action, given: Mapping[str, Any]) -> dict[str, Any] | None:
        seat = self._seat
        if seat is None:
            seat = self._seat = SeatPolicy(self.game, self.player)
        try:
            return bind(action, given, RESOLVED, seat=seat)
        except SeatRefusal:
            return None

    def _seen(self, action: Action, args: Mapping[str, Any]) -> bool:
        """Whether the player may look at every card the arguments name."""
        cards = self._cards
        for param in action.params:
            kind = param.kind
            if kind is not ParamKind.CARD and kind is not ParamKind.CARDS:
                continue
            value = args.get(param.name)
            if value is None:
                continue
            for card in value if kind is ParamKind.CARDS else (value,):
                flags = cards.get(card)
                if flags is None:
                    flags = self._card(card)
                if not flags & _LOOKED:
                    return False
        return True

    # -- the filters -----------------------------------------------------

    def wants(self, action: Action, args: Mapping[str, Any], chosen: bool = False) -> bool:
        """Whether the candidate names the card and is on or into the zone
        asked for (with ``chosen``, after a choice of zone was made)."""
        card = self.card
        if card is not None and not chosen:
            named = False
            for param in action.params:
                value = args.get(param.name)
                if param.kind is ParamKind.CARD:
                    named = named or value == card
                elif param.kind is ParamKind.CARDS and value is not None:
                    named = named or card in value
            if not named:
                return False
        zone = self.zone
        return zone is None or concerns(self.game, action, args, zone)

    def _add(self, action: Action, listed: list[LegalAction], out: list[LegalAction]) -> None:
        if self.zone is None:
            out.extend(listed)
        else:
            out.extend(a for a in listed if self.wants(action, a.bound, chosen=True))

    # -- judging and trying ----------------------------------------------

    def judge_all(self, action: Action, judge: Foresee, out: list[LegalAction]) -> None:
        """Each candidate of ``action``, bound the quick way and judged by the
        rules (``judge``), into ``out``: the one loop every candidate goes
        through, so it calls no more than it must. Binding checks the seat
        policy value by value as :func:`bind` with the seat does; a candidate
        the quick way cannot read goes through :func:`bind` itself, which says
        what is wrong. A :class:`~cardzones.acts.listing.SeatCandidate` is
        within the seat policy as made: it is only completed and judged."""
        game, player = self.game, self.player
        # Most actions of a listing have no candidate now: they end here.
        candidates = iter(action.candidates(game, player))  # type: ignore[misc]
        first = next(candidates, _NO_MORE)
        if first is _NO_MORE:
            return
        defaults, one_of, shapes, listy = prepared(action)
        actor = action.actor
        cards = self._cards
        filtered = self.card is not None or self.zone is not None
        offer = action.offer
        # Candidates the rule set gives once each (Action.distinct) are not
        # hashed to find repeats: with a destination among them, hashing one
        # runs Python.
        distinct = action.distinct
        seen: set[Any] = set()
        add = seen.add
        count = 0
        named_, ours_, looked_ = _NAMED, _OURS, _LOOKED
        seat_made = SeatCandidate
        asked, card_keys, list_keys = _NOT_ASKED if self.card is None else naming(action, self.card)
        for given in chain((first,), candidates):
            if asked is not None:
                # A menu on one card: a candidate that does not name it is
                # left out before anything else is read of it (it would be
                # by :meth:`wants`, after the binding).
                for k in card_keys:
                    if given.get(k) == asked:
                        break
                else:
                    for k in list_keys:
                        value = given.get(k)
                        if value is not None and asked in value:
                            break
                    else:
                        continue
            args: dict[str, Any] | None
            if given.__class__ is seat_made:
                # Made within the seat policy (SeatCandidate): only the rules judge it.
                args = defaults.copy()
                args.update(given)
                looked = True
            else:
                keys = tuple(given)
                try:
                    shape, groups = shapes[keys]
                except KeyError:
                    shape, groups = shapes[keys] = shape_and_groups(action, keys, one_of)
                looked = True
                if shape is not None:
                    # Each group of one_of, read on the keys given (the others are None).
                    for group, exactly in groups:
                        n = 0
                        for k in group:
                            if given[k] is not None:
                                n += 1
                        if n == 0 or (exactly and n != 1):
                            shape = None
                            break
                    refused = False
                    if shape is not None:
                        for key, check, ours in shape:
                            value = given[key]
                            if value is None:
                                continue
                            if check is CARD:
                                # One card, read in place: most candidates name one.
                                flags = cards.get(value)
                                if flags is None:
                                    flags = self._card(value)
                                if not flags & named_ or (ours and not flags & ours_):
                                    refused = True
                                    break
                                if not flags & looked_:
                                    looked = False
                            elif check is CARDS:
                                flags = self._all_cards(value, ours)
                                if not flags & named_:
                                    refused = True
                                    break
                                if not flags & looked_:
                                    looked = False
                            elif check is ACTOR:
                                if value != player:
                                    refused = True
                                    break
                            elif check is OWN_ZONE:
                                if not owns_zone(game, player, value):
                                    refused = True
                                    break
                            else:  # a nested value: the binder's own pass
                                shape = None
                                break
                    if refused:
                        continue
                if shape is None:
                    args = self.bound_by_binder(action, given)
                    if args is None:
                        continue
                    looked = self._seen(action, args)
                else:
                    args = defaults.copy()
                    args.update(given)
                    if actor is not None and args[actor] is None:
                        args[actor] = player
            if filtered and not self.wants(action, args):
                continue
            if offer is not None and not offer(game, args):
                continue
            if not distinct:
                # Added and counted, so that each candidate is hashed once.
                values: tuple[Any, ...] = tuple(args.values())
                if listy and list in map(type, values):
                    # A list of cards as the tuple of them, as frozen has it; the
                    # test above makes no Python frame, the comprehension one.
                    values = tuple([v if v.__class__ is not list else tuple(v) for v in values])
                try:
                    add(values)
                except TypeError:  # a mapping or a card definition among them
                    texts = self._texts
                    if texts is None:
                        texts = self._texts = {}
                    add(_frozen(args, texts))
                if len(seen) == count:
                    continue
            count += 1
            try:
                result = judge(game, args)
            except NeedsChoice as choice:
                self._add(action, self._choices(action, args, choice, _CHOICE_DEPTH, judge), out)
                continue
            except CardzonesError:  # refused, as the action would be
                continue
            if result is None:
                self._add(action, self._tried(action, args, _CHOICE_DEPTH), out)
            elif not looked:
                out.append(_new_legal(LegalAction, (action, args, player, None, game)))
            elif result is not _FAILED:
                out.append(_new_legal(LegalAction, (action, args, player, result, game)))
        self.candidates += count

    def try_all(self, action: Action, quick: bool, out: list[LegalAction]) -> None:
        """Each candidate of ``action`` tried on the game, into ``out``;
        bound by :func:`bind` itself unless ``quick``."""
        if quick:  # no foresee: each bound the quick way, then tried
            self.judge_all(action, _untold, out)
            return
        seen: set[Any] = set()
        for given in action.candidates(self.game, self.player):  # type: ignore[misc]
            args = self.bound_by_binder(action, given)
            if args is None or not self.wants(action, args):
                continue
            if action.offer is not None and not action.offer(self.game, args):
                continue
            key = candidate_key(args)
            if key in seen:
                continue
            seen.add(key)
            self.candidates += 1
            self._add(action, self._tried(action, args, _CHOICE_DEPTH), out)

    def judged(
        self, action: Action, args: dict[str, Any], judge: Foresee | None, depth: int
    ) -> list[LegalAction]:
        """The candidate, listed as the rules judge it (``judge``), or tried
        where they cannot; once per option where it needs a choice of zone.
        A result of ``failed`` is left out where the player may see what was
        tried: the rules refuse it anyway (3.0.11)."""
        if judge is None:
            return self._tried(action, args, depth)
        try:
            result = judge(self.game, args)
        except NeedsChoice as choice:
            return self._choices(action, args, choice, depth, judge)
        except CardzonesError:  # refused, as the action would be
            return []
        if result is None:
            return self._tried(action, args, depth)
        return self._listed(action, args, result)

    def _listed(
        self, action: Action, args: dict[str, Any], result: MoveResult
    ) -> list[LegalAction]:
        if not self._seen(action, args):
            return [_new_legal(LegalAction, (action, args, self.player, None, self.game))]
        if result is _FAILED:
            return []
        return [_new_legal(LegalAction, (action, args, self.player, result, self.game))]

    def _tried(self, action: Action, args: dict[str, Any], depth: int) -> list[LegalAction]:
        game = self.game
        self.tries += 1
        checkpoint = game.checkpoint()
        memo = JUDGING.set(None)
        try:
            done = action.run(game, args)
        except NeedsChoice as choice:
            game.rollback(checkpoint)
            return self._choices(action, args, choice, depth, None)
        except CardzonesError:  # refused (IllegalAction), or an argument the rules refuse
            game.rollback(checkpoint)
            return []
        except BaseException:
            game.rollback(checkpoint)
            raise
        finally:
            JUDGING.reset(memo)
        game.rollback(checkpoint)
        return self._listed(action, args, done.result)

    def _choices(
        self,
        action: Action,
        args: dict[str, Any],
        choice: NeedsChoice,
        depth: int,
        judge: Foresee | None,
    ) -> list[LegalAction]:
        """A candidate that needs a choice of zone, once per option, when the
        choice is the player's own (3.0.10a: the moved card's owner chooses).
        Where the parameter takes several choices and one is given, the new
        one is added to it, the given zone becoming its owner's."""
        names = {p.name: p for p in action.params}
        param = names.get(choice.key)
        if depth <= 0 or param is None or param.kind not in _ZONE_KINDS:
            return []
        if choice.chooser is not None and choice.chooser != self.player:
            # 3.0.10a: another owner's choice is theirs to give (ahead), not
            # the player's: the act is refused until they give it.
            return []
        given = args.get(choice.key)
        if given is not None and param.kind is not ParamKind.ZONE_CHOICE:
            return []
        game = self.game
        zones = self._zones
        if zones is None:
            zones = self._zones = {game.zone_name(z): z for z in game.all_zones()}
        out: list[LegalAction] = []
        for option in choice.options:
            zid = zones.get(option)
            value = None if zid is None else adding(given, game, choice.chooser, zid)
            if value is not None:
                out.extend(self.judged(action, {**args, choice.key: value}, judge, depth - 1))
        return out


def _untold(game: Game, args: Mapping[str, Any]) -> None:
    """A judge that cannot tell: every candidate is tried."""
    return None
