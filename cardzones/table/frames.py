"""The zones of a table's event frames, kept from one event to the next.

After every event each viewer connected to a table is sent a frame with its
whole view (:meth:`Table.event_frame <cardzones.table.table.Table.event_frame>`).
An act changes few zones: a card drawn changes the deck and the hand, and
every other zone looks as it did. Making every zone of every view again, and
writing each as JSON, was most of a frame's cost. So a table keeps, for each
viewer, the JSON text of each zone of the last view it made for that viewer,
and makes again only the zones an event may have changed; the frame is one
write of the new zones and the kept texts (``orjson.Fragment``).

What an event may have changed is read from the game's journal
(:mod:`cardzones.kernel.state`), which holds every write to the game since
the last event:

- a zone whose contents were written;
- the zones a written object (or the pile of one) was in before and is in
  now; every event that names a card writes its object or its zone's
  contents, so these are also the zones whose handles may change
  (:mod:`cardzones.kernel.handles`);
- every zone, after a write to the zones themselves, their layout, the
  effects, the looks a rule allows, any game variable not known to be
  unshown, an object under, on or equipped to another, or anything else
  this module does not know.

A zone is kept only while nothing in it can change without a write naming it:
a zone holding a card with effects on it (its figures may follow anything
in the game) or a card with cards under or on it is made anew every time.
Nothing is kept while the game holds writes not yet made an event (an act
being tried), for another game (a take-back replaces the game), or after a
change to the log no event was noted for.

A viewer's texts are made from that viewer's view and only ever sent to that
viewer: keeping them shows nobody anything its own fresh view would not. The
one exception is a zone whose every card is public (or that is empty), with
no effects and no piles: every viewer's view of it is the same (the same
cards, described alike, by the handles every viewer is shown, in the same
order), so its text is made once per event and given to each viewer whose
view has that zone.
tests/test_table_frames.py checks that a frame's text is the text of a fresh
frame after every act of random games of each rule set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import orjson

from cardzones.kernel.game import Game
from cardzones.kernel.logview import log_size
from cardzones.kernel.objects import Obj
from cardzones.kernel.state import CONTENTS, KIDS, OBJS, RULES, VARS
from cardzones.table.json_text import fragment

#: Makes the zones of the rows it is given (:func:`cardzones.kernel.views.view`).
Make = Callable[[Sequence[Any]], list[dict[str, Any]]]

#: The game's variables no zone of a view shows: a write to any other (the
#: layout, the looks a rule allows, one added later) makes every zone again.
UNSHOWN = frozenset(
    {
        "pending",
        "phase",
        "turn",
        "turn_player",
        "watchers",
        "next_card",
        "next_eid",
        "next_oid",
        "next_zid",
        "shuffles",
    }
)


def written_zones(game: Game) -> set[int] | None:
    """The zones the game's journal says may look different since the game
    last forgot its history (an event), or None: any zone may.

    Every event that names a card comes with a write of that card's object
    or of its zone's contents (a move, a flip, a card made or gone), so the
    zones those writes name are the zones whose handles may change too."""
    zones: set[int] = set()
    cards: set[int] = set()
    j = game.checkpoint().journal
    while j is not None:
        m, key, old, j = j
        if m == CONTENTS:
            zones.add(key)
        elif m in (OBJS, KIDS):
            # an object, or the pile under or on one (KIDS is keyed by its host)
            cards.add(key)
            was = getattr(old, "value", old)  # a removed key keeps its value
            if isinstance(was, Obj):
                if was.host is not None or was.equipped:
                    return None
                zones.add(was.zone)
        elif m == VARS:
            if key != "log" and key not in UNSHOWN:
                return None
        elif m != RULES:  # the rule set's own records are in no zone
            return None
    for card in cards:
        if not game.exists(card):
            continue  # gone: its zone's contents were written
        obj = game.obj(card)
        if obj.host is not None or obj.equipped:
            return None
        zones.add(obj.zone)
    return zones


class ZoneParts:
    """One table's kept zone texts, per viewer, and what each event changed.

    Every part is stamped with the count of events noted when it was made;
    a zone is stamped with the count at which an event last changed it."""

    def __init__(self) -> None:
        self._game: Game | None = None
        #: the size of the game's log when the last event was noted
        self._log = -1
        #: events noted (:meth:`note`)
        self._noted = 0
        #: the count at which every zone last changed
        self._everything = 0
        #: per zone, the count at which an event last changed it
        self._changed: dict[int, int] = {}
        #: per viewer, per zone: the count it was made at, and its text
        self._parts: dict[str | None, dict[int, tuple[int, orjson.Fragment]]] = {}
        #: per zone every viewer sees alike: the count it was made at, and its text
        self._shared: dict[int, tuple[int, orjson.Fragment]] = {}

    def _forget(self, game: Game) -> None:
        self._game = game
        self._log = log_size(game)
        self._changed.clear()
        self._parts.clear()
        self._shared.clear()

    def note(self, game: Game) -> None:
        """An event: read from the game's journal which zones it may have
        changed, before the game forgets its history."""
        self._noted += 1
        if game is not self._game:
            self._forget(game)
            return
        zones = written_zones(game)
        if zones is None:
            self._everything = self._noted
        else:
            for zid in zones:
                self._changed[zid] = self._noted
        self._log = log_size(game)

    def zones(self, game: Game, player: str | None) -> Callable[[Sequence[Any], Make], list[Any]]:
        """What makes ``player``'s zones for the kernel's view: the kept text
        of each zone no event changed since it was made, and the others made
        anew (``make``) and kept where they may be."""

        def zones(rows: Sequence[Any], make: Make) -> list[Any]:
            if game.checkpoint().journal is not None:
                # Writes not yet an event (an act being tried): nothing to trust.
                return make(rows)
            if game is not self._game or log_size(game) != self._log:
                self._forget(game)
            return self._kept(game, self._parts.setdefault(player, {}), rows, make)

        return zones

    def _kept(
        self,
        game: Game,
        parts: dict[int, tuple[int, orjson.Fragment]],
        rows: Sequence[Any],
        make: Make,
    ) -> list[Any]:
        floor, changed, shared = self._everything, self._changed, self._shared
        out: list[Any] = []
        stale: list[Any] = []
        at: list[int] = []
        for row in rows:
            zid = row.zid
            kept = parts.get(zid)
            if kept is None or kept[0] < floor or kept[0] < changed.get(zid, 0):
                # Another viewer may have made it since, for every viewer.
                kept = shared.get(zid)
                if kept is None or kept[0] < floor or kept[0] < changed.get(zid, 0):
                    at.append(len(out))
                    out.append(None)
                    stale.append(row)
                    continue
                parts[zid] = kept
            out.append(kept[1])
        if not stale:
            return out
        # Any effect on a card, even one not active now, puts its figures in
        # the hands of the rules (the view describes it afresh each time); a
        # pile's cards are not the zone's. Read as the maps they are, in bulk.
        fx, kids = game._fx_by_card.keys(), game._kids.keys()  # noqa: SLF001
        objs = game._objs  # noqa: SLF001
        for i, row, zone in zip(at, stale, make(stale), strict=True):
            out[i] = zone
            cards = game.contents(row.zid)
            if not (fx.isdisjoint(cards) and kids.isdisjoint(cards)):
                continue  # may change with no write naming the zone
            text = fragment(zone)
            if text is not None:
                part = parts[row.zid] = (self._noted, text)
                out[i] = text
                if all(objs[card].public for card in cards):
                    shared[row.zid] = part  # every viewer's view of it is this one
        return out
