"""Life totals and counters, as actions any rule set may put in its table.

``life`` deals damage to a card with a life total, or makes it lose or gain
life; ``counter`` puts counters of a name on a card or removes them. Both
change the card's current object only (they are continuous effects bound to
it), so they end when it becomes a new object (3.0.9); both are logged in
words, and views show the result: the life total as the card's ``life``,
the counters as its ``counters``.

A counter whose name is a signed number and a property, such as
``+1_power`` ("+1{p} counter"), also changes that property by its number
for each counter.

>>> from cardzones import new_game
>>> game = new_game("fab", ["alice", "bob"])
>>> hero = game.new_card(
...     game.ruleset.make_card("Dorinthea", {"types": ("hero",), "life": 40}),
...     game.zone("alice", "hero"),
... )
>>> game.act("life", card=hero, damage=3).result.value
'done'
>>> game.stat(hero, "life"), game.log(None)[-1]["note"]
(37, "alice's Dorinthea is dealt 3 damage: 40 life becomes 37")
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardzones.acts.actions import (
    Action,
    ActionResult,
    ArgumentError,
    OneOf,
    Param,
    Role,
    acting,
)
from cardzones.acts.seats import nameable_naming
from cardzones.acts.standard import BY, K
from cardzones.errors import IllegalAction
from cardzones.kernel.effects import COUNTER, Counters
from cardzones.kernel.results import MoveResult

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The most one action may change a life total or a pile of counters by.
MAX_AMOUNT = 999
#: The largest life total, and the most counters of one name on an object.
MAX_TOTAL = 9999
#: The most names of counters one object may have.
MAX_NAMES = 16
#: The longest name of a counter.
MAX_NAME = 32
#: The kind of the effects that change a life total, and of their log events.
LIFE = "life"
#: The kind of the log events of counters put on or removed.
COUNTERS = "counters"

_NAME = re.compile(r"[a-z0-9+\-][a-z0-9_+\-]*")
_STAT_COUNTER = re.compile(r"([+-]\d{1,3})_([a-z]+)")

#: Says how long a change to a card's life total lasts: None for as long as
#: the object exists, or a duration such as ``end_of_turn``.
LifeUntil = Callable[["Game", int], str | None]


def _amount(args: Mapping[str, Any], name: str) -> int:
    value: int = args[name]
    if not 1 <= value <= MAX_AMOUNT:
        raise ArgumentError(f"{name} must be 1 to {MAX_AMOUNT}, not {value}", (name,))
    return value


def _public_card(game: Game, card: int, what: str) -> str:
    """The card's name, for a change that everyone sees: refused for an object
    that is not public, whose name the log may not tell (3.0.7a)."""
    obj = game.obj(card)
    if not obj.public:
        raise IllegalAction(f"{what} only a public object; that card is private", rule="3.0.7a")
    owner = obj.controller or obj.owner
    return f"{owner}'s {obj.cdef.name}" if owner else obj.cdef.name


def counter_name(value: str) -> str:
    """A counter's name as it is kept: lower case, spaces as underscores.

    >>> counter_name("+1 Power"), counter_name("steam")
    ('+1_power', 'steam')
    """
    name = "_".join(value.strip().lower().split())
    if len(name) > MAX_NAME or not _NAME.fullmatch(name):
        raise ArgumentError(
            f"a counter's name is up to {MAX_NAME} letters, digits, _, + and -, "
            f"such as steam or +1_power, not {value!r}",
            ("name",),
        )
    return name


def stat_of_counter(name: str, stats: Sequence[str]) -> tuple[str, int] | None:
    """The property a counter called ``name`` changes, and by how much per
    counter: ``+1_power`` is +1 power; None for a counter that changes none.

    >>> stat_of_counter("+1_power", ("power",)), stat_of_counter("steam", ("power",))
    (('power', 1), None)
    """
    found = _STAT_COUNTER.fullmatch(name)
    if found is None or found[2] not in stats:
        return None
    return found[2], int(found[1])


def counter_action(
    stats: Sequence[str], *, rules: tuple[str, ...] = (), candidates: Any = None
) -> Action:
    """``counter``: put ``add`` counters called ``name`` on a public card, or
    remove ``remove`` of them. A counter named for one of ``stats`` with a
    signed number (``+1_power``) changes that property. The counters belong
    to the card's current object (3.0.9)."""
    stats = tuple(stats)

    def run(game: Game, args: Mapping[str, Any]) -> ActionResult:
        card = args["card"]
        player = acting(game, args)
        name = counter_name(args["name"])
        adding = args["add"] is not None
        amount = _amount(args, "add" if adding else "remove")
        label = _public_card(game, card, "counters go on")
        now = game.counters(card)
        had = now.get(name, 0)
        total = had + amount if adding else had - amount
        if total < 0:
            raise IllegalAction(f"{label} has {had} {name} counter(s): {amount} cannot be removed")
        if total > MAX_TOTAL:
            raise IllegalAction(f"an object holds at most {MAX_TOTAL} counters of one name")
        if name not in now and len(now) >= MAX_NAMES:
            raise IllegalAction(f"an object holds counters of at most {MAX_NAMES} names")
        changes = stat_of_counter(name, stats)
        with game.atomic():
            for effect in game.effects_on(card):
                data = effect.data
                if effect.kind == COUNTER and isinstance(data, Counters) and data.name == name:
                    game.end_effect(effect.eid)
            if total:
                mods = [(changes[0], changes[1] * total)] if changes else []
                game.add_effect(card, COUNTER, mods=mods, data=Counters(name, total))
            verb = "puts" if adding else "removes"
            where = "on" if adding else "from"
            plural = "" if amount == 1 else "s"
            game.log_event(
                COUNTERS,
                f"{player} {verb} {amount} {name} counter{plural} {where} {label}: {total} now",
                by=player,
            )
        return ActionResult(MoveResult.DONE)

    return Action(
        "counter",
        (
            Param("card", K.CARD, required=True, role=Role.TARGET, doc="the public card"),
            Param("name", K.WORD, required=True, doc="the counter, such as steam or +1_power"),
            Param(
                "add",
                K.INT,
                bounds=(1, MAX_AMOUNT),
                doc=f"how many to put on it (1 to {MAX_AMOUNT})",
            ),
            Param(
                "remove",
                K.INT,
                bounds=(1, MAX_AMOUNT),
                doc=f"how many to take off it (1 to {MAX_AMOUNT})",
            ),
            BY,
        ),
        run,
        doc="Put counters on a public card or remove them; a counter such as +1_power "
        "changes that property. They belong to its current object.",
        rules=rules,
        one_of=(OneOf(("add", "remove"), exactly=True),),
        candidates=candidates,
    )


def life_action(
    until: LifeUntil | None = None,
    *,
    stat: str = LIFE,
    rules: tuple[str, ...] = (),
    candidates: Any = None,
) -> Action:
    """``life``: deal ``damage`` to a public card with a life total (the
    property ``stat``), or make it ``lose`` or ``gain`` life. ``until(game,
    card)`` says how long the change lasts (by default, as long as the
    object)."""

    def checked(game: Game, args: Mapping[str, Any]) -> tuple[str, int, str, int, int]:
        """The change, refused where the rules refuse it: its kind, amount,
        the card as the log names it, the total before and the change."""
        kind = next(k for k in ("damage", "lose", "gain") if args[k] is not None)
        amount = _amount(args, kind)
        label = _public_card(game, args["card"], "a life total changes on")
        before = game.stat(args["card"], stat)
        if before is None:
            raise IllegalAction(f"{label} has no life total")
        delta = amount if kind == "gain" else -amount
        if abs(before + delta) > MAX_TOTAL:
            raise IllegalAction(f"a life total is at most {MAX_TOTAL}")
        return kind, amount, label, before, delta

    def foresee(game: Game, args: Mapping[str, Any]) -> MoveResult:
        """Refused as the change is; otherwise it is made."""
        checked(game, args)
        if until is not None:
            until(game, args["card"])
        return MoveResult.DONE

    def run(game: Game, args: Mapping[str, Any]) -> ActionResult:
        card = args["card"]
        player = acting(game, args)
        kind, amount, label, before, delta = checked(game, args)
        lasts = until(game, card) if until is not None else None
        with game.atomic():
            # One effect holds every change of a duration, so that a long
            # game does not pile them up.
            for effect in game.effects_on(card):
                if effect.kind == LIFE and effect.until == lasts:
                    delta += sum(d for k, d in effect.mods if k == stat)
                    game.end_effect(effect.eid)
            if delta:
                game.add_effect(card, LIFE, mods=[(stat, delta)], until=lasts)
            after = game.stat(card, stat)
            said = {
                "damage": f"is dealt {amount} damage",
                "lose": f"loses {amount} life",
                "gain": f"gains {amount} life",
            }[kind]
            game.log_event(LIFE, f"{label} {said}: {before} life becomes {after}", by=player)
        return ActionResult(MoveResult.DONE)

    return Action(
        "life",
        (
            Param(
                "card",
                K.CARD,
                required=True,
                role=Role.TARGET,
                doc="the card (one with a life total)",
            ),
            Param(
                "damage",
                K.INT,
                bounds=(1, MAX_AMOUNT),
                doc=f"damage dealt to it (1 to {MAX_AMOUNT})",
            ),
            Param("lose", K.INT, bounds=(1, MAX_AMOUNT), doc=f"life it loses (1 to {MAX_AMOUNT})"),
            Param("gain", K.INT, bounds=(1, MAX_AMOUNT), doc=f"life it gains (1 to {MAX_AMOUNT})"),
            BY,
        ),
        run,
        doc="Change the life total of a public card that has one: damage, life loss or life gain.",
        rules=rules,
        one_of=(OneOf(("damage", "lose", "gain"), exactly=True),),
        candidates=candidates,
        foresee=foresee,
    )


def life_candidates(game: Game, player: str) -> Iterator[dict[str, Any]]:
    """1 damage to, and 1 life for, each public card with a life total that
    the player may name."""
    for card in nameable_naming(game, player):  # "card" is life's one card
        if game.is_public(card) and game.stat(card, LIFE) is not None:
            yield {"card": card, "damage": 1}
            yield {"card": card, "gain": 1}


def counter_candidates(game: Game, player: str) -> Iterator[dict[str, Any]]:
    """One more and one fewer of each counter on each public card the
    player may name (a new name needs the player to say it)."""
    for card in nameable_naming(game, player):  # "card" is a counter's one card
        if not game.is_public(card):
            continue
        for name in game.counters(card):
            yield {"card": card, "name": name, "add": 1}
            yield {"card": card, "name": name, "remove": 1}


__all__ = [
    "COUNTERS",
    "LIFE",
    "MAX_AMOUNT",
    "MAX_NAMES",
    "MAX_TOTAL",
    "counter_action",
    "counter_candidates",
    "counter_name",
    "life_action",
    "life_candidates",
    "stat_of_counter",
]
