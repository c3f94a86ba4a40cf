"""The scenario layer's context for a table's game (:class:`TableContext`):
its cards, the token cards a seat may name, and the labels that ``as:``
gives; and the resolver of stored acts (:class:`StoredRefs`), which names a
card only as a physical card, ``#N``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any, TypeVar

from cardzones.acts.actions import ArgumentError
from cardzones.errors import ScenarioError
from cardzones.kernel.cards import CardDef
from cardzones.kernel.game import Game
from cardzones.position.context import Context, Refs
from cardzones.position.loader import YMap
from cardzones.table.refusals import Unplaced

#: The type of a token card (fab 8.1.8a).
TOKEN = "token"

#: A physical card in a stored act: ``#17``.
_PHYSICAL = re.compile(r"^#(\d+)$")
_T = TypeVar("_T")


class TableRefs(Refs):
    """The scenario layer's references, with errors that a refusal prefixes
    with the argument they are about (``to: unknown zone type ...``): each of
    :data:`PLACED` asks :class:`Refs` and makes its ArgumentError an
    :class:`Unplaced`."""


#: The references of :class:`TableRefs` whose errors are placed.
PLACED = ("zone", "dest", "zone_name", "player", "card_def", "effect")


def _placed(ask: Callable[[Any], _T], value: Any) -> _T:
    try:
        return ask(value)
    except Unplaced:
        raise
    except ArgumentError as exc:
        raise Unplaced(exc.message) from None


def _placing(name: str) -> Callable[[TableRefs, Any], Any]:
    """:class:`Refs`'s reference ``name``, its errors placed."""

    def reference(self: TableRefs, value: Any) -> Any:
        return _placed(getattr(super(TableRefs, self), name), value)

    reference.__name__ = reference.__qualname__ = name
    return reference


for _name in PLACED:
    setattr(TableRefs, _name, _placing(_name))


class StoredRefs(TableRefs):
    """References in stored acts. Once the table is set up, a card is named
    only as ``#N``, a physical card, which only
    :func:`~cardzones.table.acts.bind_act` writes; zones, players, card names
    and effect labels are read as in a scenario file."""

    def __init__(self, ctx: TableContext) -> None:
        super().__init__(ctx)
        self.table = ctx

    def effect(self, label: Any) -> Any:
        # A stored act names an effect as its seat did: a label, or the
        # name another seat's labelled effect has for it (effect_name).
        return super().effect(self.table.label_of(str(label)))

    def card(self, value: Any) -> int:
        if isinstance(value, str):
            found = _PHYSICAL.match(value)
            if found is not None:
                card = int(found.group(1))
                if not self.game.exists(card):
                    raise Unplaced(f"{value}: no such card")
                return card
        if not self.table.seated:
            return super().card(value)  # set-up: the scenario's own references
        raise Unplaced(f"{value!r} names no card here")


#: the effect labels and the seat that gave each effect label.
LabelState = tuple[dict[str, int], dict[str, Any], dict[str, str]]


def effect_name(game: Game, handle: Any) -> str:
    """The name of a labelled effect for a seat that did not label it: a
    digest of the effect keyed by the game's secret handle key, so it tells
    nothing of the label (the other seat's words) nor of the effect's number.

    >>> from cardzones import new_game
    >>> game = new_game("fab", ["alice", "bob"], handle_key="k")
    >>> effect_name(game, ("place", 1)) == effect_name(game, ("place", 1))
    True
    >>> effect_name(game, ("place", 1)).startswith("effect-")
    True
    """
    digest = hashlib.blake2b(
        repr(handle).encode(), key=game.handle_key.encode()[:64], digest_size=6
    ).hexdigest()
    return f"effect-{digest}"


class TableContext(Context):
    """The scenario layer's context for a table's game: its set-up runs as a
    scenario's, and then (``seated``) a card is named only as ``#N``. The
    labels that ``as:`` gives effects are kept here, for ``negate``.

    A seat names a card only to create a token, and only one of the table's
    token cards (:attr:`tokens`): the cards of the start position are where
    the hidden cards are, so what a seat is told about a name never depends
    on them.

    A table never reads the card index: a start position made from card data
    has every card written down under ``cards`` (``variants``: a card's
    colours) when the table is created, the game's token cards included. Such
    a table is ``closed``: a name that is not among its cards is refused
    rather than made a vanilla card."""

    def __init__(
        self,
        game: Game,
        ruleset: str,
        file: str,
        cards: dict[str, CardDef],
        variants: dict[str, dict[int, CardDef]] | None = None,
        *,
        closed: bool = False,
    ) -> None:
        super().__init__(game, ruleset, file, cards, None, {} if variants is None else variants)
        self.seated = False
        self.closed = closed
        #: The seat whose act gave each effect label: a label is its seat's
        #: words, and another seat names that effect by :func:`effect_name`.
        self.effect_seats: dict[str, str] = {}
        #: The names a seat may give (``create_token``): the cards whose every
        #: definition is a token card.
        defs = [(n, [c]) for n, c in cards.items()]
        defs += [(n, list(v.values())) for n, v in self.variants.items()]
        self.tokens = frozenset(n for n, cs in defs if all(TOKEN in c.types for c in cs))

    @property
    def refs(self) -> StoredRefs:
        """The references of stored acts, made on each reading (see
        :attr:`Context.refs`)."""
        return StoredRefs(self)

    def with_game(self, game: Game) -> TableContext:
        """A context with the same cards for another game of this table (one
        restored from a snapshot), seated."""
        ctx = TableContext(
            game,
            self.ruleset,
            self.file,
            dict(self.cards),
            {name: dict(colours) for name, colours in self.variants.items()},
            closed=self.closed,
        )
        ctx.seated = True
        return ctx

    def card_def(self, name: str, entry: YMap | None = None) -> CardDef:
        if self.closed and name not in self.cards and name not in self.variants:
            raise ScenarioError(f"{name!r} is not one of this table's cards", file=self.file)
        return super().card_def(name, entry)

    def state(self) -> LabelState:
        """The labels and effect labels, to restore after a refused act."""
        return dict(self.labels), dict(self.effects), dict(self.effect_seats)

    def restore(self, state: LabelState) -> None:
        self.labels, self.effects = dict(state[0]), dict(state[1])
        self.effect_seats = dict(state[2])

    def label_of(self, name: str) -> str:
        """The label of the effect a seat named ``name`` (its label, or
        another seat's effect by :func:`effect_name`); ``name`` itself when
        it names none."""
        if name in self.effects:
            return name
        for label, handle in self.effects.items():
            if effect_name(self.game, handle) == name:
                return label
        return name

    def effect_names(self, seat: str) -> dict[str, Any]:
        """The names ``seat`` gives the labelled effects: its own labels, and
        for an effect another seat labelled, :func:`effect_name`, which
        tells nothing of that seat's words."""
        out: dict[str, Any] = {}
        for label, handle in self.effects.items():
            mine = self.effect_seats.get(label) == seat
            out[label if mine else effect_name(self.game, handle)] = handle
        return out
