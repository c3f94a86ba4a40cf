"""Printed cards and the abilities the kernel understands.

A :class:`CardDef` is what is printed on a card. It never changes during a
game, so every object of that card shares one instance.

>>> drone = CardDef("Drone of Brutality", types=frozenset({"action", "attack"}),
...                 stats={"power": 6})
>>> drone.stat("power"), "attack" in drone.types
(6, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

Position = Literal["top", "bottom"] | int
Face = Literal["up", "down"]
#: A choice of zone given to an action (:meth:`Game.choosing`): a zone for any
#: card it fits, or (card id or owner, zone) for that card or that player's cards.
Chosen = int | tuple[int | str, int]


@dataclass(frozen=True, slots=True)
class Dest:
    """A destination as a rule or effect names it, before it is resolved.

    ``owner`` is a player name, ``"owner"`` (the moved card's owner), ``"you"``
    (the controller of the effect) or ``None`` (no owner named: 3.0.13 makes it
    the controller of the effect). ``type`` is a zone type or a pseudo
    destination of the rule set (``arena`` in fab, 3.0.5a; ``soul``).
    ``index`` is 1-based when one zone of several is named.
    """

    type: str
    owner: str | None = None
    index: int | None = None

    def __str__(self) -> str:
        parts = [p for p in (self.owner, self.type) if p]
        text = ".".join(parts)
        return f"{text}.{self.index}" if self.index is not None else text


class Move(NamedTuple):
    """One move as a value: the card, where it goes, and how. :meth:`Game.move
    <cardzones.kernel.game.Game.move>` takes one, or the same fields as
    arguments, and the ``move`` action makes its move from one, so the two
    agree on every destination, the rule set's own included (fab's ``soul``).

    >>> Move(7, Dest("soul", "owner"))
    Move(card=7, to=Dest(type='soul', owner='owner', index=None), position='top', \
face=None, cause='effect', by=None, choose_zone=None, played=False)
    """

    card: int
    to: Dest | int
    position: Position = "top"
    face: str | None = None
    cause: str = "effect"
    by: str | None = None
    choose_zone: int | None = None
    played: bool = False


#: A :class:`Move`, or a plain tuple of its fields in its order: what a move's
#: plan reads, and what :meth:`Game.move` makes of its arguments.
MoveFields = tuple[int, Dest | int, Position, str | None, str, str | None, int | None, bool]


@dataclass(frozen=True, slots=True)
class Replacement:
    """ "If this would be put into a ``moved_to`` zone from ``from_``, instead ..." (3.0.8a)."""

    moved_to: str
    from_: str | None
    to: Dest
    position: Position = "top"
    face: Face | None = None


@dataclass(frozen=True, slots=True)
class HistoryCondition:
    """A condition on how the object became new (3.0.9c)."""

    moved_from: str | None = None
    to: str | None = None
    this_turn: bool = False


@dataclass(frozen=True, slots=True)
class PlayFrom:
    """ "You may play this from your ``zone`` zone" (3.0.4e, 3.0.9c)."""

    zone: str
    face_down: bool = False
    condition: HistoryCondition | None = None


@dataclass(frozen=True, slots=True)
class Trigger:
    """ "Whenever an object moves from ``from_`` to ``to`` ..., put it into ``do``" (3.0.9a)."""

    to: str | None = None
    from_: str | None = None
    types_any: frozenset[str] = frozenset()
    controlled_by_you: bool = False
    do: Dest | None = None


Ability = Replacement | PlayFrom | Trigger


@dataclass(frozen=True, slots=True)
class CardDef:
    """A printed card. Immutable and shared by every object of the card."""

    name: str
    types: frozenset[str] = frozenset()
    stats: Mapping[str, int] = field(default_factory=dict)
    keywords: frozenset[str] = frozenset()
    abilities: tuple[Ability, ...] = ()
    #: the rule set's own fields, each a text or a frozenset of texts; views
    #: show them as they are named here, in this order. Never changed, as stats.
    extra: Mapping[str, str | frozenset[str]] = field(default_factory=dict)
    #: the rules text as printed, for people to read: no rule reads it
    text: str = ""
    #: the address of a picture of the card, when its card data gives one
    image: str = ""

    def stat(self, name: str) -> int | None:
        """The printed value of a numeric property, or None if the card has none."""
        return self.stats.get(name)

    @property
    def replacements(self) -> tuple[Replacement, ...]:
        return tuple(a for a in self.abilities if isinstance(a, Replacement))

    @property
    def triggers(self) -> tuple[Trigger, ...]:
        return tuple(a for a in self.abilities if isinstance(a, Trigger))

    @property
    def play_from(self) -> tuple[PlayFrom, ...]:
        return tuple(a for a in self.abilities if isinstance(a, PlayFrom))

    def to_json(self) -> dict[str, object]:
        """The public description of the card, as views show it."""
        out: dict[str, object] = {"name": self.name, "types": sorted(self.types)}
        out.update(sorted(self.stats.items()))
        if self.keywords:
            out["keywords"] = sorted(self.keywords)
        out.update((k, v if isinstance(v, str) else sorted(v)) for k, v in self.extra.items() if v)
        if self.text:
            out["text"] = self.text
        if self.image:
            out["image"] = self.image
        return out
