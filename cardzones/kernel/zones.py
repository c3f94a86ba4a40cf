"""Zone types as data, and the zones of one game.

A rule set describes each zone type once with a :class:`ZoneSpec`; the game
creates one :class:`ZoneInfo` per zone. Zones are identified inside a game by
an integer that never changes, even when zones of the same type are numbered
again after one ceases to exist (3.0.10).

>>> hand = ZoneSpec("hand", public=False)
>>> hand.public, hand.ordered
(False, False)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ZoneSpec:
    """One zone type of a rule set.

    - ``public``: the default visibility of objects in it (3.0.4).
    - ``ordered``: the order of its objects is part of the state (the deck, 3.7.5).
    - ``shared``: one zone for all players, without an owner (3.0.2, 3.0.13).
    - ``per_player``: how many zones of this type each player starts with.
    - ``capacity``: the most top-level objects it may hold, or None.
    - ``in_arena``: part of the fab arena (3.0.5); ``in_play``: Redemption's "in play".
    - ``resets``: an object entering it becomes a new object (3.0.9).
    - ``owner_may_look``: the zone owner and object owner may look at private
      objects in it (3.0.3a); False for decks (3.7.4).
    - ``controlled``: objects in it have a controller (1.2.1b).
    """

    type: str
    public: bool
    ordered: bool = False
    shared: bool = False
    per_player: int = 1
    capacity: int | None = None
    in_arena: bool = False
    in_play: bool = False
    resets: bool = True
    owner_may_look: bool = True
    controlled: bool = False
    equipment: bool = False


@dataclass(frozen=True, slots=True)
class ZoneInfo:
    """One zone of a game: its stable id, its type and its owner (None if shared)."""

    zid: int
    spec: ZoneSpec
    owner: str | None

    @property
    def type(self) -> str:
        return self.spec.type
