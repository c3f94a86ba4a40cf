"""Triggers (3.0.9a): the moves that match a trigger of a card in play are
noted as the move happens, and the rule set puts them on its stack when the
action is over (:func:`take_pending_triggers`).

A trigger keeps the object id the move produced and the move's event, so its
effect can tell whether "it" is still the same object, where the move left it,
when it resolves (:meth:`Game.moved_since`).
"""

from __future__ import annotations

from cardzones.kernel.events import CREATED, Event
from cardzones.kernel.objects import UNDER, Obj
from cardzones.kernel.state import VARS, State
from cardzones.kernel.zones import ZoneInfo

#: A noted trigger: (source card, ability index, moved card, the object id the
#: move produced, controller of the source, the sequence number of the move's
#: event).
Pending = tuple[int, int, int, int, str, int]


def _note_triggers(game: State, event: Event) -> None:
    """Remember every trigger the move matched; the rule set puts them on the
    stack when the action is over (see :func:`take_pending_triggers`)."""
    if not event.public or event.lki is None:
        return  # 3.0.7a: a private move has no properties to match
    moved = event.lki.obj
    assert event.src is not None and event.dst is not None
    src_info: ZoneInfo = game._zinfo[event.src]
    dst_info: ZoneInfo = game._zinfo[event.dst]
    objs = game._objs
    matched: list[tuple[Obj, int]] = []
    for watcher in game._vars["watchers"]:
        source: Obj | None = objs.get(watcher)
        if source is None or not source.public or source.rel == UNDER:
            continue  # 3.0.4e: a private source does not apply
        if not game._zinfo[source.zone].spec.in_arena:
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
            matched.append((source, i))
    if not matched:
        return
    if len(matched) > 1:
        # Stable: a source's own triggers keep the order of its abilities.
        matched.sort(key=lambda m: _place(game, m[0]))
    new = tuple((s.card, i, event.card, event.new_oid, s.controller, event.seq) for s, i in matched)
    game._put(VARS, "pending", (*game._vars["pending"], *new))


def _place(game: State, obj: Obj) -> tuple[int, ...]:
    """Where a source lies, as every player sees it: its zone in the order of
    the zones, then its place in that zone, and its place under or on its host.

    Triggers that one move sets off are noted in this order (their players
    would choose one; the engine's must not depend on what some cannot see).
    Card numbers and object ids will not do: a card number is given when the
    card is made and an object id when it enters a zone, both possibly out of
    sight, and an object keeps its id when it comes into the arena (3.0.9), so
    either would tell which of two hidden look-alikes a public source is. Nor
    will the order an unordered zone keeps its cards in: it is the order they
    arrived, and a card may arrive face down. Its place there is when it
    became the public object it is (:func:`public_since`), which every player
    watched; the place in an ordered zone, and in a pile, is public."""
    if obj.host is None:
        layout: tuple[int, ...] = game._vars["layout"]
        zone = layout.index(obj.zone)
        if game._zinfo[obj.zone].spec.ordered:
            return (zone, game._contents[obj.zone].index(obj.card))
        return (zone, public_since(game, obj.card))
    host = game._objs[obj.host]
    return (*_place(game, host), game._kids[host.card].index(obj.card))


def public_since(game: State, card: int) -> int:
    """The sequence number of the event at which the card's object became the
    public object it is now (it was turned or moved face up, or created, or it
    became a new object while public), which every player saw; -1 when it has
    been public since the setup. Only for a public object.

    Among public objects, an order by this number depends only on what every
    player saw, unlike the order an unordered zone keeps its cards in.

    >>> from cardzones import new_game
    >>> game = new_game("fab", ["alice", "bob"])
    >>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    >>> public_since(game, game.new_card(game.card_def("Snatch"), game.zone("alice", "pitch")))
    -1
    >>> _ = game.move(card, game.zone("alice", "pitch"))
    >>> public_since(game, card) == game.events()[-1].seq
    True
    """
    node = game._vars["log"]
    while node is not None:
        event: Event = node[0]
        node = node[1]
        if event.card != card:
            continue
        if event.kind == CREATED:
            return int(event.seq)
        lki = event.lki
        if lki is None or event.new_oid is None:
            continue
        if not lki.obj.public or event.new_oid != lki.obj.oid:
            return int(event.seq)
    return -1


def take_pending_triggers(game: State) -> tuple[Pending, ...]:
    """The triggers noted since the last call: (source, ability index, card,
    object id it produced, controller of the source, sequence number of the
    move's event)."""
    pending: tuple[Pending, ...] = game._vars["pending"]
    if pending:
        game._put(VARS, "pending", ())
    return pending
