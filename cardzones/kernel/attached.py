"""Cards under and on other cards: sub-cards (3.0.14) and placed cards.

A card under or on another one (its *host*) is in its host's zone and is not
listed in the zone's contents; :meth:`Game.kids` lists the pile. Two
operations change a pile, and both are part of the one move pipeline, with a
``moved`` event each:

- :func:`attach` makes a card a sub-card of a host (``UNDER``) or places it on
  one (``PLACED``);
- :func:`carry` takes a card along when its host moves and stays the same
  object (3.0.14c); the rule set decides in
  :meth:`~cardzones.kernel.ruleset.Ruleset.move_children` which cards follow
  and which go elsewhere.

A card leaves a pile by an ordinary move (:meth:`Game.move`).

>>> from cardzones import new_game
>>> from cardzones.kernel.objects import PLACED
>>> game = new_game("redemption")
>>> territory = game.zone("alice", "territory")
>>> gideon = game.new_card(game.card_def("Gideon"), territory)
>>> trumpet = game.new_card(game.card_def("Trumpet"), territory)
>>> game.attach(trumpet, gideon, PLACED).value, game.kids(gideon) == (trumpet,)
('moved', True)
>>> game.events()[-1].note
'placed'
"""

from __future__ import annotations

from cardzones.kernel.cards import Position
from cardzones.kernel.contents import _attach_record, _detach
from cardzones.kernel.effects import _end_bound_effects
from cardzones.kernel.events import MOVED
from cardzones.kernel.identity import renew, renews
from cardzones.kernel.log import _log, _snapshot
from cardzones.kernel.objects import TOP, UNDER, Obj
from cardzones.kernel.results import MoveResult
from cardzones.kernel.ruleset import GameState
from cardzones.kernel.state import OBJS


def attach(
    game: GameState,
    card: int,
    host: int,
    rel: int,
    *,
    position: Position = "top",
    by: str | None = None,
    cause: str = "effect",
    public: bool | None = None,
    reset: bool | None = None,
) -> MoveResult:
    """Make ``card`` a sub-card of ``host`` (``rel=UNDER``, 3.0.14) or place it
    on ``host`` (``rel=PLACED``), at ``position`` in the pile, top first.

    The card takes on its host's zone. A sub-card has its top-card's
    visibility (3.0.14d) and becomes a new object (3.0.14b); its own sub-cards
    become sub-cards of the new top-card (3.0.14c). A placed card is face up
    unless ``public`` says otherwise, and becomes a new object when it enters a
    zone that makes one (3.0.9); the cards on it follow it as the rule set's
    :meth:`~cardzones.kernel.ruleset.Ruleset.move_children` says. ``reset``
    overrides whether it becomes a new object. A card already in that place
    does not move (``NO_MOVE``). One action, or one step of the action it is
    part of: the rule set checks first whether the rules allow it.
    """
    obj = game.obj(card)
    top = game.obj(host)
    if obj.host == host and obj.rel == rel:
        return MoveResult.NO_MOVE
    if public is None:
        public = top.public if rel == UNDER else True
    if reset is None:
        reset = rel == UNDER or (
            obj.zone != top.zone and game.ruleset.resets_on_enter(game, obj, top.zone)
        )
    # Whatever the caller asks, a public object that becomes private is new (3.0.9).
    reset = renews(obj.public, public, reset)
    if by is None:
        by = game.turn_player
    with game.atomic():  # an action, or one step of the enclosing one
        _attach(game, obj, top, rel, position, by, cause, public, reset)
    return MoveResult.MOVED


def _attach(
    game: GameState,
    obj: Obj,
    top: Obj,
    rel: int,
    position: Position,
    by: str,
    cause: str,
    public: bool,
    reset: bool,
) -> None:
    card = obj.card
    host = top.card
    lki = _snapshot(game, obj)
    src = obj.zone
    _detach(game, obj)
    oid, origin, reset = renew(
        game, obj, public, reset, game._zinfo[src].type, game._zinfo[top.zone].type, cause, by
    )
    # 1.2.1b, 3.0.14b: a sub-card is not in the arena, so it has no controller.
    zid = top.zone
    controller = None if rel == UNDER else game.ruleset.new_controller(game, obj, zid, by, False)
    kept = (obj.kind, obj.pcontrol, obj.data)
    new = Obj(card, oid, obj.cdef, obj.owner, controller, zid, public, None, TOP, origin, (), *kept)
    game._put(OBJS, card, new)
    _attach_record(game, card, host, rel, position)
    if reset and card in game._fx_by_card:
        _end_bound_effects(game, card, obj.oid)
    note = "under" if rel == UNDER else "placed"
    _log(game, MOVED, card, public and obj.public, lki, src, top.zone, oid, by, cause, note, public)
    if rel == UNDER:
        for kid in game._kids.get(card, ()):
            _reattach_kid(game, kid, host)
    # Placed on a card is a place of its own: a card placed on another one is
    # relocated even within its zone, and the rule set says where the cards on
    # it go (a sub-card's own sub-cards joined the new top-card above).
    elif card in game._kids:
        game.ruleset.move_children(game, obj, game._objs[card], reset)


def _reattach_kid(game: GameState, kid: int, host: int) -> None:
    """3.0.14c: a sub-card of a card that became a sub-card goes under the new
    top, with the new top's visibility (3.0.14d): a new object if that makes it
    private (3.0.9)."""
    obj: Obj = game._objs[kid]
    lki = _snapshot(game, obj)
    _detach(game, obj)
    top: Obj = game._objs[host]
    src, dst, public = obj.zone, top.zone, top.public
    ztype = game._zinfo[dst].type
    oid, origin, reset = renew(game, obj, public, False, game._zinfo[src].type, ztype, "rule", None)
    new = obj._replace(zone=dst, public=public, host=None, controller=None, oid=oid, origin=origin)
    game._put(OBJS, kid, new)
    _attach_record(game, kid, host, UNDER, "bottom")
    if reset and kid in game._fx_by_card:
        _end_bound_effects(game, kid, obj.oid)
    if src != dst or reset:
        shown = obj.public and public
        _log(game, MOVED, kid, shown, lki, src, dst, oid, None, "rule", "under", public)


def carry(game: GameState, kid: int, host: Obj, *, reset: bool = False) -> Obj:
    """Take ``kid``, which is under or on a card that just moved and is now
    ``host``, to the host's zone as part of the host's move (3.0.14c, and a
    placed card following the card it lies on). It has its host's visibility
    there (3.0.14d), and becomes a new object when ``reset`` says so or when it
    turns private (3.0.9). The move is logged with the note ``with host``; the
    cards under or on ``kid`` follow it as the rule set's
    :meth:`~cardzones.kernel.ruleset.Ruleset.move_children` says.

    A step of the host's move: the rule set calls it from ``move_children``.
    Returns the kid's new object.
    """
    obj: Obj = game._objs[kid]
    public = host.public
    lki = _snapshot(game, obj)  # 1.2.3: as it left
    zinfo = game._zinfo
    oid, origin, renewed = renew(
        game, obj, public, reset, zinfo[obj.zone].type, zinfo[host.zone].type, "rule", None
    )
    ruleset = game.ruleset
    controller = (
        None if obj.rel == UNDER else ruleset.new_controller(game, obj, host.zone, None, False)
    )
    new = obj._replace(zone=host.zone, public=public, oid=oid, origin=origin, controller=controller)
    game._put(OBJS, kid, new)
    if renewed and kid in game._fx_by_card:
        _end_bound_effects(game, kid, obj.oid)
    shown = public if game._plain_shown else ruleset.moved_public(game, obj, public)
    _log(game, MOVED, kid, shown, lki, obj.zone, host.zone, oid, None, "rule", "with host", public)
    if kid in game._kids:
        ruleset.move_children(game, obj, new, renewed)
    return new
