"""The redacted log: each event as a viewer may know it, with the handles
their views give (:mod:`cardzones.kernel.handles`), and nothing of a card
they may not look at.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "deck"))
>>> _ = game.move(card, game.zone("alice", "hand"))
>>> log_view(game, "bob")[-1]
{'seq': 0, 'event': 'moved', 'turn': 1, 'from': 'alice.deck', 'to': 'alice.hand', 'by': 'alice'}
"""

from __future__ import annotations

from typing import Any

from cardzones.kernel import queries
from cardzones.kernel.cards import CardDef
from cardzones.kernel.events import CEASED, CREATED, FLIPPED, MOVED, SHUFFLED, Event, iter_log
from cardzones.kernel.handles import _add, _context_handle, _Summary, _summary_at, object_handle
from cardzones.kernel.ruleset import GameState
from cardzones.kernel.zones import ZoneInfo

#: The version of the log's form (cardzones/schema/log.schema.json).
LOG_FORMAT = "cardzones-log/1"

# ----------------------------------------------------------------------
# The log
# ----------------------------------------------------------------------

#: The physical card -> (owner, printed card), which never change in a game.
Identities = dict[int, tuple[str | None, CardDef]]


def _identities(game: GameState, events: list[Event] | None = None) -> Identities:
    """Owner and printed card of every card the log names (with ``events``,
    of every card those events name), including cards that no longer exist
    (their last known information is in the log).

    Only a card that is gone, and that none of ``events`` shows as it was,
    needs the log before them: the entries since the last event of a long
    game are made without walking the whole log."""
    out: Identities = {}
    for event in iter_log(game._vars["log"]) if events is None else events:
        if event.lki is not None and event.card is not None:
            out.setdefault(event.card, (event.lki.obj.owner, event.lki.obj.cdef))
    objs = game._objs
    if events is None:
        out.update((c, (o.owner, o.cdef)) for c, o in objs.items() if c not in out)
        return out
    for event in events:
        card = event.card
        if card is not None and card not in out:
            obj = objs.get(card)
            if obj is None:
                return _identities(game)  # a card gone before them: the whole log
            out[card] = (obj.owner, obj.cdef)
    return out


def _zone_label(game: GameState, zid: int | None) -> str | None:
    return None if zid is None else queries.zone_name(game, zid)


#: Events about one object, which show its zones and, when allowed, its card.
_OBJECT_EVENTS = frozenset({MOVED, CEASED, FLIPPED, CREATED})


def event_view(
    game: GameState, player: str | None, event: Event, identities: Identities | None = None
) -> dict[str, Any]:
    """One log entry as ``player`` may know it.

    A move shows the card when the object was public as it moved (3.0.7a), or
    when the player could look at the object it became, where it arrived (a
    player sees their own draw). Otherwise it shows the zones and nothing about
    the card. This is judged as the event happened, never from the state now:
    a later flip or move must not reveal which hidden card an old event moved.
    """
    out: dict[str, Any] = {"seq": event.seq, "event": event.kind, "turn": event.turn}
    if event.kind in _OBJECT_EVENTS:
        out["from"] = _zone_label(game, event.src)
        out["to"] = _zone_label(game, event.dst)
        if event.note:
            out["note"] = event.note
        if identities is None:
            identities = _identities(game)
        if _event_visible_to(game, player, event, identities):
            card = _event_card(game, event, identities)
            if card is not None:
                out["card"] = card
    elif event.kind == SHUFFLED:
        out["zone"] = _zone_label(game, event.src)
    else:
        out["note"] = event.note
    if event.by is not None:
        out["by"] = event.by
    return out


def _event_visible_to(
    game: GameState, player: str | None, event: Event, identities: Identities
) -> bool:
    if event.public:
        return True
    # 3.0.3a: the object the move left is public, so everyone could look at it
    # where it arrived, even where the rule set says the move itself was not
    # seen (a card that leaves a hand face up for a zone all may look at).
    if event.kind == MOVED and event.after:
        return True
    if player is None or event.card is None:
        return False
    # 3.0.3a as it stood once the event was over: the object's owner, or the
    # owner of the zone it went to (it ceased: the zone it left), unless a deck.
    zid = event.dst if event.dst is not None else event.src
    if zid is None:
        return False
    info = game._zinfo[zid]
    if not info.spec.owner_may_look:
        return False
    if event.lki is not None:
        owner = event.lki.obj.owner
    else:
        owner = identities.get(event.card, (None, None))[0]
    return player == owner or player == info.owner


def _event_card(game: GameState, event: Event, identities: Identities) -> dict[str, Any] | None:
    if event.lki is not None:
        obj = event.lki.obj
        out: dict[str, Any] = {"name": obj.cdef.name}
        for name in obj.cdef.stats:
            out[name] = queries.stat(game, obj.card, name, snapshot=event.lki)
        return out
    # A created object has no last known information: it is the card as printed.
    known = identities.get(event.card) if event.card is not None else None
    return None if known is None else {"name": known[1].name}


def _seen_handle(
    game: GameState,
    summary: _Summary,
    player: str | None,
    card: int,
    oid: int,
    public: bool,
    owner: str | None,
    zid: int | None,
) -> str | None:
    """The handle ``player``'s view gave (or would give) an object with these
    facts when the log stood at ``summary``; None when they could not look at
    it (3.0.3a). It is :func:`_handle_for` for an object that may be gone."""
    if public:
        return summary.public.get(card) or object_handle(game.handle_key, oid)
    info: ZoneInfo | None = game._zinfo.get(zid) if zid is not None else None
    if player is None or info is None or not info.spec.owner_may_look:
        return None
    if player == owner:
        return summary.own.get(card) or object_handle(game.handle_key, oid)
    if player == info.owner:
        last = summary.last.get(card)
        return _context_handle(game.handle_key, "zone:" + (last or f"setup:{oid}"))
    return None


def _entries(
    game: GameState, player: str | None, since: int, omniscient: bool = False
) -> list[dict[str, Any]]:
    """The log entries from ``since`` on, each with the handles of the object
    it is about as the viewer knew them: ``was``, the object's handle in the
    viewer's view just before the event, and ``id``, the handle of the object
    the event left, as the view just after it gives it. Each is there only
    when the viewer could look at that object then, and each is made from the
    log up to that event alone, so an entry never changes once written."""
    head = game._vars["log"]
    newer: list[Event] = []
    node = head
    while node is not None and node[0].seq >= since:
        newer.append(node[0])
        node = node[1]
    summary = _summary_at(game, node)
    summary = _Summary(summary.key, dict(summary.last), dict(summary.public), dict(summary.own))
    identities = _identities(game, newer)
    zinfo = game._zinfo
    out = []
    for event in reversed(newer):
        entry = event_view(game, player, event, identities)
        card = event.card
        lki = event.lki
        owner = lki.obj.owner if lki is not None else identities.get(card or 0, (None, None))[0]
        who = player
        if lki is not None and card is not None and event.kind != CREATED:
            before = lki.obj
            if omniscient:
                who = None if before.public else before.owner
            was = _seen_handle(
                game, summary, who, card, before.oid, before.public, owner, before.zone
            )
            if was is not None:
                entry["was"] = was
        _add(summary, event, zinfo)
        if card is not None and event.after is not None and event.new_oid is not None:
            if omniscient:
                who = None if event.after else owner
            now = _seen_handle(
                game, summary, who, card, event.new_oid, event.after, owner, event.dst
            )
            if now is not None:
                entry["id"] = now
        if omniscient and card is not None and "card" not in entry:
            known = identities.get(card)
            if lki is not None:
                entry["card"] = {"name": lki.obj.cdef.name}
            elif known is not None:
                entry["card"] = {"name": known[1].name}
            entry["private"] = True
        out.append(entry)
    return out


def log_view(game: GameState, player: str | None, since: int = 0) -> list[dict[str, Any]]:
    """The event log as ``player`` (None: a spectator) may know it, oldest first;
    with ``since``, only the entries from that sequence number (``seq``) on.

    An entry never changes once written (except that a zone is named as it is
    numbered now), so a player's log only grows, and the entries since a number
    are exactly what was added to it after that number. An entry about an
    object carries its handles as this player knew them (``was`` and ``id``).
    """
    if player is not None:
        game.check_player(player)
    return _entries(game, player, max(0, since))


def log_document(game: GameState, player: str | None, since: int = 0) -> dict[str, Any]:
    """The log of :func:`log_view` with its form's version and its viewer:
    ``{"format": ..., "viewer": ..., "entries": [...]}`` (docs/json.md)."""
    return {"format": LOG_FORMAT, "viewer": player, "entries": log_view(game, player, since)}


def log_size(game: GameState) -> int:
    """How many entries the log holds: the ``seq`` the next event will get."""
    head = game._vars["log"]
    return 0 if head is None else int(head[0].seq) + 1


def omniscient_log(game: GameState) -> list[dict[str, Any]]:
    """The full log for a scenario's author: every card named, each object by
    the handle the author's view gives it. Secret-bearing."""
    return _entries(game, None, 0, omniscient=True)
