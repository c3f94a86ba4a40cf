"""A table's creation record: the rule set, the players, the seed, the handle
key and the start position, everything needed to build its game before the
first act. The record is data: the store keeps it as JSON, and building its
game is the start-position language's work (:mod:`cardzones.table.creation`).

>>> record = Record("fab", ("alice", "bob"), 7, {}, {"alice.deck": ["A"]}, handle_key="k")
>>> Record.from_json(record.to_json()) == record
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Self

from cardzones.kernel.game import new_handle_key
from cardzones.position.start import procedure_of

if TYPE_CHECKING:
    from cardzones.table.context import TableContext


@dataclass(frozen=True)
class Record:
    """What a table starts from."""

    ruleset: str
    players: tuple[str, ...]
    seed: int
    cards: dict[str, Any]
    setup: dict[str, Any]
    card_data: str | None = None
    #: keys the handles of the table's views; a new secret by default
    handle_key: str = field(default_factory=new_handle_key)
    #: the game this record built when it was checked, kept for the table
    #: that starts from it, so that a new table builds its game once
    built: list[TableContext] = field(default_factory=list, compare=False, repr=False)
    #: how long a proposal to finish waits for the other seats, in seconds
    #: (None: the default, :data:`cardzones.table.finish.DEFAULT_FINISH_AFTER`)
    finish_after: int | None = None
    #: the zones shuffled when the game is set up, after its setup, in order
    #: (a start position's ``shuffle``); None: every deck, each player's
    #: face-down ordered zone of two cards or more (a table made from deck
    #: lists, and every table made before a written order was kept)
    shuffle: tuple[str, ...] | None = None
    #: the game procedure the table plays under: None for none, "" for the
    #: game's choice of the first player, or the first player's name
    procedure: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data. Secret-bearing: it holds the seed and
        the handle key."""
        out = {
            "ruleset": self.ruleset,
            "players": list(self.players),
            "seed": self.seed,
            "handle_key": self.handle_key,
            "cards": self.cards,
            "setup": self.setup,
        }
        if self.card_data:
            out["card_data"] = self.card_data
        if self.finish_after is not None:
            out["finish_after"] = self.finish_after
        if self.shuffle is not None:
            out["shuffle"] = list(self.shuffle)
        if self.procedure is not None:
            out["procedure"] = procedure_value(self.procedure)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        # A record stored before handle keys existed has none: it gets a new
        # one each time it is read, so its handles change once per rebuild.
        key = data.get("handle_key")
        return cls(
            str(data["ruleset"]),
            tuple(data["players"]),
            int(data["seed"]),
            dict(data.get("cards") or {}),
            dict(data.get("setup") or {}),
            data.get("card_data"),
            str(key) if key else new_handle_key(),
            finish_after=None if data.get("finish_after") is None else int(data["finish_after"]),
            shuffle=None if data.get("shuffle") is None else tuple(data["shuffle"]),
            procedure=procedure_of(data.get("procedure")),
        )

    def scenario(self, name: str = "table", steps: list[Any] | None = None) -> dict[str, Any]:
        """The record as a scenario document (plain data). It has no
        ``card_data``: its ``cards`` hold every card, so it runs without the
        card index. Its ``shuffle`` is the record's; a record that shuffles
        every deck (``shuffle`` None) names none here, and whoever sets it up
        shuffles the decks (:func:`cardzones.table.creation.build`; an
        export names them)."""
        doc: dict[str, Any] = {"name": name, "ruleset": self.ruleset}
        doc["players"] = list(self.players)
        doc["seed"] = self.seed
        if self.cards:
            doc["cards"] = self.cards
        if self.setup:
            doc["setup"] = self.setup
        if self.shuffle:
            doc["shuffle"] = list(self.shuffle)
        if self.procedure is not None:
            doc["procedure"] = procedure_value(self.procedure)
        doc["steps"] = steps or []
        return doc


def procedure_value(procedure: str) -> Any:
    """A record's procedure as a start position writes it: ``true``, or
    ``{first: PLAYER}``."""
    return True if procedure == "" else {"first": procedure}
