"""Objects: the state of one physical card (or non-card object) in a game.

There are two identities (see DESIGN.md). ``card`` is the physical card and is
stable for the whole game; only the engine and those allowed to see the card
know it. ``oid`` is the object as the rules see it; it changes on every reset
(3.0.9). Records are immutable tuples, so copies of a game share them and an
undo restores them by reference.
"""

from __future__ import annotations

from typing import NamedTuple

from cardzones.kernel.cards import CardDef

# How an object relates to the card it is with.
TOP = 0  #: an ordinary object of its zone
UNDER = 1  #: a sub-card under a top-card (3.0.14)
PLACED = 2  #: a card placed on another card (Redemption place)

# Kinds of object.
CARD = "card"
ACTIVATED = "activated"
TRIGGERED = "triggered"
MACRO = "macro"


class Origin(NamedTuple):
    """How an object became the object it is: its history (3.0.9c)."""

    from_type: str | None
    to_type: str | None
    turn: int
    cause: str
    by: str | None


class Obj(NamedTuple):
    """The current state of one card or non-card object."""

    card: int
    oid: int
    cdef: CardDef
    owner: str | None
    controller: str | None
    zone: int
    public: bool
    host: int | None = None
    rel: int = TOP
    origin: Origin | None = None
    equipped: tuple[int, ...] = ()
    kind: str = CARD
    pcontrol: str | None = None
    data: object = None

    @property
    def name(self) -> str:
        return self.cdef.name

    @property
    def is_token(self) -> bool:
        return "token" in self.cdef.types


class ObjRef(NamedTuple):
    """One object, as an effect or a rule set's record names it: a physical
    card as the object it was when it was named.

    An effect that moves an object references the new object only "as long
    as the object remains a public object" (3.0.9a, 3.0.9b), and a new object
    has no relation to its previous existence (3.0.9). So a record names an
    object, never a card: once the card is a new object, or the object is
    private, the reference names nothing (:meth:`Game.referent`). A private
    object is named with ``oid`` None, which names nothing at all: the rules
    cannot follow it, since no other player can either. Keep the card's
    number for where the card is now, never for what the record is about.
    """

    card: int
    oid: int | None
