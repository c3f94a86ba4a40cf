"""What an attack-proxy takes from its attack-source, and when a second
attack of one source ends the first.

An attack-proxy is not a copy of its source (1.4.3a): it inherits the
source's properties as they are now, besides any of its own. Effects that
apply to the source do not apply to the proxy, but the properties they
modify are inherited (1.4.3d), so a weapon given +1 power, by an effect or
a ``+1_power`` counter, before or after it attacked, attacks for that much
more. Effects that apply to the proxy stay the proxy's (1.4.3e).

The proxy is made with its source's printed card, and what the effects on
the source change is mirrored on the proxy as one effect of the kind
:data:`INHERITED`, brought up to date at the end of every action (the
engine's unit of time). So every view shows the inherited values, to every
player (a source is public while its proxy exists: turned face down, it
would be a new object, and its proxy would cease, 1.4.3c), and the proxy's
last known information holds what the source last gave it.

When a weapon attacks again on the same combat chain, its earlier
attack-proxy ceases (1.4.3c): see :mod:`cardzones.rulesets.fab.chain`.

>>> from cardzones import new_game
>>> from cardzones.rulesets.fab.turn import attack
>>> game = new_game("fab", ["alice", "bob"])
>>> sword = game.ruleset.make_card("Dawnblade", {"types": ("weapon", "sword", "2h"), "power": 3})
>>> blade = game.new_card(sword, game.zone("alice", "weapon"), owner="alice",
...                       controller="alice", public=True)
>>> proxy = attack(game, blade, "alice")
>>> _ = game.act("modify", card=blade, power=1)
>>> game.stat(blade, "power"), game.stat(proxy, "power")
(4, 4)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardzones.kernel.effects import Effect
from cardzones.rulesets.fab.layers import ATTACK_PROXY, PROXIES, LayerData
from cardzones.rulesets.fab.quiet_points import QuietPoint

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The kind of the effect that mirrors on an attack-proxy what the effects
#: on its attack-source modify (1.4.3d). No action ends or counts it as its
#: own (a ``counter`` or ``life`` change reads effects of its own kind).
INHERITED = "inherited"

Mods = tuple[tuple[str, int], ...]


def source_of(game: Game, proxy: int) -> int | None:
    """The attack-source of an attack-proxy (1.4.3b) while it is still the
    public object it was; None otherwise (1.4.3c ends the proxy then)."""
    obj = game.obj(proxy)
    data = obj.data
    if obj.kind != ATTACK_PROXY or not isinstance(data, LayerData) or data.ref_card is None:
        return None
    found = game.find(data.ref_card)
    if found is None or found.oid != data.ref_oid or not found.public:
        return None
    return data.ref_card


def modified(game: Game, source: int) -> tuple[Mods, tuple[str, ...]]:
    """What the effects on ``source`` change of its properties (1.4.3d): the
    sum of their changes to each number, and the keywords they grant. A
    counter that changes a number (``+1_power``) is such an effect."""
    effects = game.effects_on(source)
    if not effects:
        return (), ()  # most sources, most of the time
    mods: dict[str, int] = {}
    keywords: set[str] = set()
    for effect in effects:
        for key, delta in effect.mods:
            mods[key] = mods.get(key, 0) + delta
        keywords.update(effect.keywords)
    return tuple(sorted(mods.items())), tuple(sorted(keywords))


def follow_sources(game: Game) -> None:
    """1.4.3a, 1.4.3d: bring each attack-proxy's inherited properties up to
    date with its attack-source. Nothing changes where they already are, so
    an action that touches no source writes nothing."""
    made = game.record(PROXIES)
    if made is None:
        return
    point = game.point
    if _FOLLOWED.still(point):
        return  # up to date here, or before priority was handed on to here
    # Run after every action while an attack-proxy exists: no frame more
    # than the reading of the two objects' effects needs.
    exists, effects_on = game.exists, game.effects_on
    for proxy in made:
        if not exists(proxy):
            continue
        source = source_of(game, proxy)
        mods, keywords = modified(game, source) if source is not None else ((), ())
        have: tuple[Effect, ...] = ()
        for effect in effects_on(proxy):
            if effect.kind == INHERITED:
                have += (effect,)
        if len(have) == 1 and have[0].mods == mods and have[0].keywords == keywords:
            continue
        if not have and not mods and not keywords:
            continue
        for effect in have:
            game.end_effect(effect.eid)
        if mods or keywords:
            game.add_effect(proxy, INHERITED, mods=mods, keywords=keywords)
    if game.point is point:
        _FOLLOWED.found_nothing(point)


#: Where :func:`follow_sources` last found every attack-proxy up to date with
#: its source, writing nothing (quiet_points).
_FOLLOWED = QuietPoint("attack-proxies following their sources")
