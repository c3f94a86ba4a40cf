"""An accepted take-back (:mod:`cardzones.table.take_back`) applied to a
table: the game returns to the position after an earlier event, and the log
keeps what each viewer saw.

The position is the table as it stood after that event (:attr:`Table.rewind
<cardzones.table.table.Table.rewind>`: from the store's snapshots and acts,
or from the acts of a replay), so it is exactly the position every seat had
then. Three things go on from the later game rather than back:

- the log entries of the events taken back, which the game no longer holds:
  each viewer's are kept as that viewer got them (:attr:`Table.archive
  <cardzones.table.table.Table.archive>`), so a log read later is the log that
  was sent, and gives nobody more than they had;
- the game's counters (:meth:`Game.resume
  <cardzones.kernel.game.Game.resume>`): the take-back's own log entry is
  numbered after the last one, and no handle, object id or shuffle is given
  twice. A shuffle taken back and made again comes out anew: a seat cannot
  take back a shuffle to learn the order it would give;
- the seats' knowledge, which no table can take back: a card a seat saw
  stays seen (docs/hidden-information.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from cardzones.kernel.game import Game
from cardzones.kernel.logview import log_view
from cardzones.table.context import TableContext
from cardzones.table.take_back import TAKEN_BACK, Lineage, words


class Rewound(Protocol):
    """What a take-back reads and changes of a table
    (:class:`~cardzones.table.table.Table`)."""

    ctx: TableContext
    number: int
    marks: list[int]
    lineage: Lineage
    archive: dict[str | None, list[dict[str, Any]]]
    reshuffled: bool

    @property
    def game(self) -> Game: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    def earlier(self, number: int) -> Rewound:
        """The table after event ``number``."""
        ...


def take_back(table: Rewound, by: str, to: int) -> Callable[[], None]:
    """Return the table's game to its position after event ``to``, taking back
    ``by``'s acts since (every act after ``to`` must be ``by``'s); returns
    what undoes it. Raises ValueError when the take-back does not fit."""
    lineage = table.lineage
    numbers = [n for n, _ in lineage]
    if to > table.number or (to and to not in numbers):
        raise ValueError(f"no position of event {to} to return to")
    taken = [seat for n, seat in lineage if n > to]
    if not taken or any(seat != by for seat in taken):
        raise ValueError(f"{by} may take back only their own acts since the others acted")
    earlier = table.earlier(to)
    since = table.marks[to]
    archive = {}
    for viewer in (*table.players, None):
        kept = table.archive.get(viewer, [])
        seen = log_view(table.game, viewer, since=since)
        archive[viewer] = sorted([*kept, *seen], key=lambda e: int(e["seq"]))
    before = (table.ctx, table.lineage, table.archive, table.reshuffled)
    shuffled = earlier.game.resume(table.game, TAKEN_BACK, words(by, len(taken)), by)
    table.ctx = earlier.ctx
    table.lineage = list(earlier.lineage)
    table.archive = archive
    table.reshuffled = table.reshuffled or shuffled

    def undo() -> None:
        table.ctx, table.lineage, table.archive, table.reshuffled = before

    return undo
