"""Handles: the opaque names views and logs give objects, keyed by the game's
secret handle key, and how a viewer is shown them so that a handle links
nothing the viewer did not watch (:mod:`cardzones.kernel.views`,
:mod:`cardzones.kernel.logview`).

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
>>> game.handle(card) == object_handle(game.handle_key, game.obj(card).oid)
True
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any, NamedTuple

from cardzones.kernel.events import CREATED, Event, iter_log
from cardzones.kernel.objects import Obj
from cardzones.kernel.ruleset import GameState


def object_handle(key: str, oid: int, context: str = "") -> str:
    """A keyed hash of an object id (and of a context, when given): stable for
    one object, unrelated across resets, and telling nothing about the order
    objects were made in.

    ``key`` is the game's handle key (:attr:`Game.handle_key`), a random
    secret of its own: never the seed, so that a known or guessed seed tells
    nothing about handles, and a handle tells nothing about the seed (and so
    about future shuffles).

    >>> handle = object_handle("k", 1)
    >>> handle == object_handle("k", 1), handle in (object_handle("k", 2), object_handle("j", 1))
    (True, False)
    """
    hasher = _keyed(key).copy()
    hasher.update(oid.to_bytes(8, "little") + context.encode())
    return f"o{hasher.hexdigest()}"


@functools.lru_cache(maxsize=1 << 10)
def _keyed(key: str) -> Any:
    # A game's keyed hash, made once (the secret's own hash and the keyed start
    # were most of a handle's cost) and copied for each handle: the same digests.
    secret = hashlib.blake2b(f"cardzones:{key}".encode(), digest_size=16).digest()
    return hashlib.blake2b(key=secret, digest_size=6)


# ----------------------------------------------------------------------
# Handles as a viewer is shown them
# ----------------------------------------------------------------------
#
# A handle must link nothing the viewer did not watch. An object can leave a
# viewer's sight and come back while staying the same object: a private card
# of bob's leaves alice's zone for the permanent zone and comes back; a card bob
# played is taken back by an undo and played again; in a rule set without
# resets, a card goes into its owner's deck, where even the owner may not look
# (3.7.4), and comes out again. So a viewer is shown a handle made from the
# event where their sight of the object began, which they saw, and not from
# the object id:
# - a public object: the newest event at which it was private before (it was
#   turned face up, moved face up, or created) or became a new object (3.0.9),
#   or its id if it has been the same public object since the setup;
# - a private object, to its owner: the newest event at which it left a zone
#   where its owner may not look at it, was created, or became a new object,
#   or its id if its owner has seen it since the setup;
# - a private object seen only because it is in a zone the viewer owns
#   (3.0.3a): the newest event about it, which brought it there.


class _Summary(NamedTuple):
    """What handles need from a log: per card, the newest event about it, and
    the handles a public object and a private one (to its owner) show, made
    from the events where those sights began."""

    key: str
    last: dict[int, str]
    public: dict[int, str]
    own: dict[int, str]


def _add(summary: _Summary, event: Event, zinfo: dict[int, Any]) -> None:
    card = event.card
    if card is None:
        return
    # Unique within one log, and a function of what every viewer saw happen.
    text = f"{event.seq}:{event.kind}:{event.src}:{event.dst}"
    summary.last[card] = text
    lki = event.lki
    # Handles are made once per event, not once per view of the object.
    new = event.kind == CREATED or (
        lki is not None and event.new_oid is not None and event.new_oid != lki.obj.oid
    )
    if new or (lki is not None and not lki.obj.public):
        summary.public[card] = _context_handle(summary.key, "public:" + text)
        # Its owner's sight begins too where they may not look at it (3.7.4).
        info = zinfo.get(event.src) if event.src is not None else None
        if new or info is None or not info.spec.owner_may_look:
            summary.own[card] = _context_handle(summary.key, "own:" + text)


#: Summaries of recent logs by the identity of the log's newest node, for every
#: game (a summary is a function of the log, a persistent list, the handle key
#: and the zones the log names, which never change) and every thread of a server:
#: the older half is evicted at once, each key by the first thread to reach it.
_SUMMARIES: dict[int, tuple[Any, _Summary]] = {}
_SUMMARY_LIMIT = 2048
_SUMMARY_REACH = 256


def _summary(game: GameState) -> _Summary:
    """The summary of the game's whole log."""
    return _summary_at(game, game._vars["log"])


def _summary_at(game: GameState, log: Any) -> _Summary:
    """The summary of the log up to the node ``log`` (a log of this game)."""
    key = game.handle_key
    hit = _SUMMARIES.get(id(log))
    if hit is not None and hit[0] is log and hit[1].key == key:
        return hit[1]
    newer: list[Event] = []
    node = log
    base: _Summary | None = None
    while len(newer) <= _SUMMARY_REACH:
        known = _SUMMARIES.get(id(node))
        if known is not None and known[0] is node and known[1].key == key:
            base = known[1]
            break
        if node is None:
            break
        newer.append(node[0])
        node = node[1]
    if base is None and node is not None:
        newer = list(iter_log(log))[::-1]  # too far back: summarise it all
    if base is None:
        summary = _Summary(key, {}, {}, {})
    else:
        summary = _Summary(key, dict(base.last), dict(base.public), dict(base.own))
    zinfo = game._zinfo
    for event in reversed(newer):
        _add(summary, event, zinfo)
    if len(_SUMMARIES) >= _SUMMARY_LIMIT:
        for stale in tuple(_SUMMARIES)[: _SUMMARY_LIMIT // 2]:
            _SUMMARIES.pop(stale, None)
    _SUMMARIES[id(log)] = (log, summary)
    return summary


def _handle_for(
    game: GameState, player: str | None, card: int, obj: Obj, summary: _Summary | None = None
) -> str | None:
    """The handle ``player`` is shown for the object, when it is not the
    object's own handle (:meth:`Game.handle`); None when it is."""
    if obj.public:
        return (summary or _summary(game)).public.get(card)
    if player is not None and player == obj.owner:
        return (summary or _summary(game)).own.get(card)
    last = (summary or _summary(game)).last.get(card)
    context = "zone:" + (last if last is not None else f"setup:{obj.oid}")
    return _context_handle(game.handle_key, context)


@functools.lru_cache(maxsize=1 << 16)
def _context_handle(key: str, context: str) -> str:
    # A pure function of its arguments, and views ask for the same ones often.
    return object_handle(key, 0, context)
