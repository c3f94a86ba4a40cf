"""The state of Flesh and Blood's game procedure, kept in the game's records.

Everything the procedure knows and the zones do not lies in one immutable
record (:class:`Procedure`) under :data:`PROCEDURE` in
:attr:`Game.records <cardzones.kernel.game.Game.records>`: the phase of the
turn (4.0.3a) and the step of combat (7.0.1), who has priority (1.11) and how
many players passed in succession (1.11.4a), each player's action and
resource points (1.13), the chain links of the combat chain (7.0.3) and the
result (4.5). So a copy, undo, a saved game and a view all have it as they
have the cards: every write is one journaled record. The chain links are the
combat chain's record (:mod:`cardzones.rulesets.fab.chain`): the procedure
reads them with its own record and writes them back with it.

A game without the record is not under the procedure: every action then
keeps the meaning it has without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, cast

from cardzones.errors import IllegalAction
from cardzones.rulesets.fab import chain as chain_record

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The key of the procedure's record in the game's records.
PROCEDURE = "fab.procedure"

#: The phases of a turn (4.0.3a).
START, ACTION, END = "start", "action", "end"
#: The steps of combat while the combat chain is open (7.0.1); the close step
#: (7.7) runs as one game process and is never a state the game waits in.
LAYER, ATTACK, DEFEND, REACTION, DAMAGE, RESOLUTION = (
    "layer",
    "attack",
    "defend",
    "reaction",
    "damage",
    "resolution",
)
STEPS = (LAYER, ATTACK, DEFEND, REACTION, DAMAGE, RESOLUTION)


class SavedLink(NamedTuple):
    """A chain link as the procedure's record held it in a game saved before
    the links were kept in the combat chain's record alone; such a save is
    read as :func:`_from_saved` says, and nothing writes one any more."""

    attack: int
    source: int | None
    attacker: str
    defender: str
    defending: tuple[int, ...] = ()
    homes: tuple[int, ...] = ()
    damage: int | None = None
    hit: bool = False
    resolved: bool = False


#: The name an older save gives :class:`SavedLink`.
Link = SavedLink


class Procedure(NamedTuple):
    """The procedure's record (see the module's documentation). Points are
    given per player, in the order of ``game.players``. ``declared`` says
    whether the defending cards of the defend step were declared (7.3.2);
    ``attacked`` holds the weapons that attacked this turn (an attack
    ability is once per turn). ``losers`` lists the players who lost, in
    order; ``winner`` and ``reason`` are set when the game ended (4.5);
    ``chain`` is the combat chain's zone. ``links`` are the chain links the
    procedure plays on: read from the combat chain's record, and stored
    there (:func:`store`), never in this one."""

    first: str
    phase: str = START
    step: str | None = None
    priority: str | None = None
    passes: int = 0
    action_points: tuple[int, ...] = ()
    resource_points: tuple[int, ...] = ()
    links: tuple[chain_record.Link, ...] = ()
    declared: bool = False
    attacked: tuple[int, ...] = ()
    losers: tuple[str, ...] = ()
    winner: str | None = None
    reason: str | None = None
    #: the combat chain's zone, which the game keeps from its start (3.6)
    chain: int = -1
    #: the turn the record is of (``game.turn``)
    turn: int = 0
    #: each attack on the stack with the player whose hero it targets
    #: (1.4.5, 5.1.4b), until it becomes a chain link
    targets: tuple[tuple[int, str], ...] = ()

    @property
    def over(self) -> bool:
        """Whether the game has ended (4.5.1)."""
        return self.reason is not None


#: Where the holder of priority and the count of passes, and the chain
#: links, lie in the record.
_PRIORITY = Procedure._fields.index("priority")
assert Procedure._fields[_PRIORITY + 1] == "passes"
_LINKS = Procedure._fields.index("links")
_new_record = tuple.__new__


def with_priority(proc: Procedure, player: str | None, passes: int = 0) -> Procedure:
    """The record with ``player`` holding priority after ``passes`` players
    passed in succession (1.11.3, 1.11.4a): ``proc._replace(priority=player,
    passes=passes)``, made at the speed of a tuple, as every pass makes one."""
    return _new_record(Procedure, (*proc[:_PRIORITY], player, passes, *proc[_PRIORITY + 2 :]))


def current(game: Game) -> Procedure | None:
    """The procedure's record, or None for a game not under the procedure.

    A judge may have moved an attack off the combat chain by hand (a
    ``move``, ``close_chain``): its chain link is then gone, and with no
    link left the combat chain is closed (7.7.2c)."""
    # A player's program, their listing and their act each ask for the record
    # at one point of the game's history (every candidate of the listing too):
    # it is read once there. A checkpoint names that point, and the state at
    # it (every write makes a new one, a rollback or an undo returns to an
    # earlier one, a copy shares the history it was copied at), so the record
    # read at a checkpoint is the record there. A game with no history yet
    # (``forget_history``) has no point to name, and is read every time.
    global _LAST
    point = game.point
    last = _LAST  # one tuple, replaced whole: games on other threads read it too
    if point is last[0] and point is not None:
        return last[1]
    proc = _read(game)
    if point is not None:
        _LAST = (point, proc)
    return proc


#: The last point of a game's history the record was read at, and the record
#: there. Holding the point keeps it from being reused for another.
_LAST: tuple[Any, Procedure | None] = (None, None)


def _read(game: Game) -> Procedure | None:
    """The record as :func:`current` gives it, read from the game, with the
    chain links the procedure plays on: those whose attacks are on the
    combat chain (a judge may have moved one off it by hand)."""
    found = game.record(PROCEDURE)
    if not isinstance(found, Procedure):
        return None
    if found.turn != game.turn and not found.over:
        # The turn ended (finish_turn, or a judge's end_turn): a new one begins.
        return new_turn(game, found)
    if found.step is None:
        return found  # the combat chain is closed: no link to play on (7.0.2)
    if found.links:
        links = _from_saved(game, found)
    else:  # chain_record.recorded(game), read directly: every act reads it
        chained: chain_record.Chain | None = game.record(chain_record.LINKS)
        links = () if chained is None else chained.links
    if not links:
        if found.step == LAYER:
            return found
        return _without_lost_links(game, found, ())  # a judge closed the combat chain
    # Read three times an act (the player's program, the listing, the act):
    # one pass over the links, each card's object found once.
    find, zone = game.find, found.chain
    named = on_chain = True
    for link in links:
        if link.defender is None or link.attacker is None:
            named = False
        held = find(link.attack[0])  # the link's card (Link.card)
        if held is None or held.zone != zone:
            on_chain = False
    if not named:
        links = tuple(_named(game, found, x) for x in links)
    proc = _new_record(Procedure, (*found[:_LINKS], links, *found[_LINKS + 1 :]))
    if not on_chain:
        kept = tuple(x for x in links if _on_chain(game, x, zone))
        return _without_lost_links(game, proc, kept)
    return proc


def _on_chain(game: Game, link: chain_record.Link, zone: int) -> bool:
    held = game.find(link.card)
    return held is not None and held.zone == zone


def _named(game: Game, proc: Procedure, link: chain_record.Link) -> chain_record.Link:
    """A link made by a move by hand, with the players the procedure names:
    the attack's controller, else the turn player, attacks (7.2.4a) the next
    player's hero (7.2.4b), as an attack a judge put on the stack does."""
    if link.attacker is not None and link.defender is not None:
        return link
    attacker = link.attacker or game.turn_player
    defender = link.defender or next_player(game, attacker, proc.losers)
    return link._replace(attacker=attacker, defender=defender)


def players(link: chain_record.Link) -> tuple[str, str]:
    """The attacking and the defending player of a link the procedure plays
    on, which names both (:func:`current`)."""
    return link.attacker or "", link.defender or ""


def _from_saved(game: Game, found: Procedure) -> tuple[chain_record.Link, ...]:
    """The chain links of a game saved when the procedure's record held its
    own (:class:`SavedLink`): each the combat chain's recorded link of the
    same attack, with what the procedure knew of it."""
    recorded_links = chain_record.recorded(game)
    keys = {key[0]: key for link in recorded_links for key in (link.attack, *link.defending)}

    def key(card: int) -> tuple[int, int]:
        known = keys.get(card)
        if known is not None:
            return known
        return card, game.obj(card).oid if game.exists(card) else -1

    out = []
    for saved in cast(tuple[SavedLink, ...], found.links):
        same = next((x for x in recorded_links if x.card == saved.attack), None)
        if same is None:
            name = game.obj(saved.attack).cdef.name if game.exists(saved.attack) else ""
            source = None if saved.source is None else key(saved.source)
            same = chain_record.Link(key(saved.attack), name, saved.attacker, source)
        out.append(
            same._replace(
                attacker=saved.attacker,
                defender=saved.defender,
                defending=tuple(key(card) for card in saved.defending),
                homes=saved.homes,
                damage=saved.damage,
                hit=saved.hit,
                resolved=saved.resolved,
            )
        )
    return tuple(out)


def new_turn(game: Game, proc: Procedure) -> Procedure:
    """The record as the turn player's turn begins: every player lost their
    action and resource points at the end of the last turn (4.4.3e); the
    start phase passes without priority (4.2.1); in the action phase the turn
    player has 1 action point (4.3.2) and gains priority (4.3.3)."""
    zero = tuple(0 for _ in game.players)
    player = game.turn_player
    return proc._replace(
        turn=game.turn,
        phase=ACTION,
        step=None,
        links=(),
        targets=(),
        attacked=(),
        declared=False,
        action_points=with_points(game, zero, player, 1),
        resource_points=zero,
        priority=player,
        passes=0,
    )


def _without_lost_links(
    game: Game, proc: Procedure, kept: tuple[chain_record.Link, ...]
) -> Procedure:
    """The record with only the links whose attacks are on the combat chain:
    without the active one, combat goes on from the resolution step, and
    without any, the combat chain is closed (7.7.2c); the turn player then
    has priority if no one had it (a defend step without its link)."""
    active_gone = bool(proc.links) and not proc.links[-1].resolved and proc.links[-1] not in kept
    if proc.step == LAYER or not (active_gone or not kept):
        return proc._replace(links=kept)
    if proc.step == RESOLUTION and kept:
        # The links stay recorded (7.0.3c): combat went on from the
        # resolution step as the active one was lost, and goes on there.
        return proc._replace(links=kept)
    priority = proc.priority
    if priority is None and proc.phase == ACTION and not proc.over:
        priority = game.turn_player
    step = RESOLUTION if kept else None
    return proc._replace(links=kept, step=step, priority=priority, passes=0, declared=True)


def active(game: Game) -> bool:
    """Whether the game is under the procedure (read without the records'
    view: every candidate of a listing asks it)."""
    return isinstance(game.record(PROCEDURE), Procedure)


def require(game: Game) -> Procedure:
    """The procedure's record; refused for a game not under it, or one that
    has ended (4.5.1: nothing happens after the end)."""
    proc = current(game)
    if proc is None:
        raise IllegalAction("the game is not under the game procedure")
    if proc.reason is not None:  # proc.over, read without the property: every act asks
        raise IllegalAction(f"the game is over: {describe_result(proc)}", rule="4.5.1")
    return proc


def store(game: Game, proc: Procedure) -> None:
    """Write the record, its chain links into the combat chain's record
    (7.0.3): one journaled write each, the links' only when they changed."""
    # With no links, the recorded ones all stay (put_links writes nothing):
    # most records stored, a pass's among them, have none.
    if proc.links:
        chain_record.put_links(game, proc.links, proc.chain)
        # proc._replace(links=()), at the speed of a tuple: most acts in combat store
        proc = _new_record(Procedure, (*proc[:_LINKS], (), *proc[_LINKS + 1 :]))
    game.records.put(PROCEDURE, proc)


def points(game: Game, values: tuple[int, ...], player: str) -> int:
    """``player``'s entry of a tuple of points kept per player."""
    return values[game.players.index(player)]


def with_points(game: Game, values: tuple[int, ...], player: str, value: int) -> tuple[int, ...]:
    """The tuple of points with ``player``'s entry set to ``value``."""
    out = list(values)
    out[game.players.index(player)] = value
    return tuple(out)


def next_player(game: Game, player: str, out: tuple[str, ...] = ()) -> str:
    """The next player in clockwise order (1.1.6), the players' order,
    passing over the players in ``out``, who left the game (4.5.1a)."""
    players = game.players
    start = players.index(player)
    for step in range(1, len(players) + 1):
        found = players[(start + step) % len(players)]
        if found not in out:
            return found
    return player


def next_turn_player(game: Game) -> str:
    """Who takes the turn after the turn player's (4.4.4): the next player
    in clockwise order, passing over those who left the game (4.5.1a)."""
    found = game.record(PROCEDURE)
    out = found.losers if isinstance(found, Procedure) else ()
    return next_player(game, game.turn_player, out)


def remaining(game: Game, proc: Procedure) -> tuple[str, ...]:
    """The players still in the game, in clockwise order (4.5.1a)."""
    return tuple(p for p in game.players if p not in proc.losers)


def opponents(game: Game, proc: Procedure, player: str) -> tuple[str, ...]:
    """``player``'s opponents still in the game (1.1.5: every other player,
    as each player is a party of their own), clockwise from the next."""
    players = game.players
    start = players.index(player)
    ordered = players[start + 1 :] + players[:start]
    losers = proc.losers
    return tuple(p for p in ordered if p not in losers) if losers else ordered


def attack_target(proc: Procedure, attack: int) -> str | None:
    """The player whose hero the attack on the stack targets, if declared."""
    return dict(proc.targets).get(attack)


def active_link(proc: Procedure) -> chain_record.Link | None:
    """The active chain link (7.0.3b): the newest link while it has not
    resolved; None in the layer step, once it resolved, or with the combat
    chain closed."""
    if proc.links and not proc.links[-1].resolved:
        return proc.links[-1]
    return None


def describe_result(proc: Procedure) -> str:
    """The result in words, as a log line and an error say it."""
    if proc.winner is not None:
        return f"{proc.winner} wins ({proc.reason})"
    return f"the game is a draw ({proc.reason})"
