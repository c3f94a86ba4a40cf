"""Writing the event log: every change of zone, every object that ceases,
flips, shuffles, and the events of turns and phases (see events.py for the
records and views.py for what a player is shown of them).

>>> from cardzones import new_game
>>> game = new_game("redemption")
>>> event = game.log_event("phase", "alice's upkeep phase")
>>> game.events()[-1] == event, event.note
(True, "alice's upkeep phase")
"""

from __future__ import annotations

from cardzones.kernel.events import CEASED, MOVED, Event, Snapshot, iter_log
from cardzones.kernel.objects import Obj
from cardzones.kernel.queries import effects_on
from cardzones.kernel.ruleset import GameState
from cardzones.kernel.state import VARS

#: Builds a record from a tuple of all its fields, skipping the keyword handling
#: of the generated ``__new__``: events are made on every move.
_new_record = tuple.__new__


def _log(
    game: GameState,
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
    after: bool | None = None,
) -> Event:
    v = game._vars
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
            after,
        ),
    )
    game._journal = (VARS, "log", log, game._journal)  # an inlined _put
    v["log"] = (event, log)
    return event


def log_event(game: GameState, kind: str, note: str = "", by: str | None = None) -> Event:
    """Log an event that concerns no object (a phase, a turn), and return it."""
    return _log(game, kind, None, True, None, None, None, None, by, "rule", note)


def resume(game: GameState, later: GameState, kind: str, note: str, by: str | None) -> bool:
    """Log an event in ``game``, a position that ``later`` (a later state of
    the same game) held before, numbered after ``later``'s last event, and
    keep ``later``'s counters: no sequence number, and so no handle, no
    object id and no shuffle's randomness is given twice. Returns whether
    ``later`` had shuffled since (a replay of ``game``'s acts alone would
    shuffle differently from here on)."""
    v, w = game._vars, later._vars
    shuffled = bool(w["shuffles"] > v["shuffles"])
    for counter in ("next_card", "next_oid", "next_eid", "shuffles"):
        game._put(VARS, counter, max(v[counter], w[counter]))
    seq = 0 if w["log"] is None else w["log"][0].seq + 1
    event = Event(seq, kind, v["turn"], public=True, by=by, cause="rule", note=note)
    game._put(VARS, "log", (event, v["log"]))
    return shuffled


def events(game: GameState) -> list[Event]:
    """The whole log, oldest first. Secret-bearing: see views.py for a player's log."""
    return list(iter_log(game._vars["log"]))


def moved_since(game: GameState, card: int, seq: int) -> bool:
    """Whether the card has changed zone (or ceased to exist) since the event
    numbered ``seq``: a later ``moved`` or ``ceased`` event is about it.

    An object keeps its id when it enters an arena zone or the stack (3.0.9),
    so the id alone cannot tell that it moved; an ability that references the
    object a move produced loses it when the object "moves to another zone"
    (3.0.9a), whichever zone that is.

    >>> from cardzones import new_game
    >>> game = new_game("fab", ["alice", "bob"])
    >>> card = game.new_card(game.card_def("Snatch"), game.zone(None, "combat_chain"), public=True)
    >>> seen = game.log_event("phase", "now").seq
    >>> oid = game.obj(card).oid
    >>> game.moved_since(card, seen)
    False
    >>> _ = game.move(card, game.zone(None, "stack"))
    >>> game.moved_since(card, seen), game.obj(card).oid == oid
    (True, True)
    """
    node = game._vars["log"]
    while node is not None:
        event: Event = node[0]
        if event.seq <= seq:
            return False
        if event.card == card and (event.kind == MOVED or event.kind == CEASED):
            return True
        node = node[1]
    return False


def _snapshot(game: GameState, obj: Obj) -> Snapshot:
    """1.2.3: the object and the effects on it, immutable.

    A private object has no properties for rules and effects (3.0.7a), so its
    last known information holds no effects: whatever applied to it while it
    was hidden is not something the event can tell anyone, even when the move
    makes the card public (a hand card with +2 power that is discarded shows
    its printed power)."""
    if obj.public and obj.card in game._fx_by_card:
        return Snapshot(obj, effects_on(game, obj.card))
    snapshot: Snapshot = _new_record(Snapshot, (obj, ()))
    return snapshot
