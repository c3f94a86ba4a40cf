"""Continuous effects.

An effect is bound to one object (its ``oid``) unless it is an ongoing ability
whose life is governed by a condition, in which case ``oid`` is None and the
rule set decides when it is active. A bound effect ends when its object
becomes a new object (3.0.9): the kernel drops it at the reset.
"""

from __future__ import annotations

from typing import NamedTuple

END_OF_TURN = "end_of_turn"


class Effect(NamedTuple):
    eid: int
    kind: str  # "modify" | "grant" | "ongoing"
    card: int
    oid: int | None
    mods: tuple[tuple[str, int], ...] = ()
    keywords: tuple[str, ...] = ()
    until: str | None = None
    label: str | None = None
    data: object = None
