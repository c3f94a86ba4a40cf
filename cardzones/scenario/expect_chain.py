"""Expectations on a rule set's chain of attacks (fab's combat chain) and on
all of a player's zones of one type as a whole.

``chain_link: N`` checks chain link N as the rule set reports it
(:meth:`~cardzones.rulesets.base.Ruleset.chain_links`): its attack, by name
or by reference, and the cards defending on it. ``zones: PLAYER.TYPE``
checks every zone of that type the player has at once, as the rules speak
of "a player's arsenal" (all of their arsenal zones, 3.3.3).

:func:`answered` and :func:`count_problem` serve the other expectations too:
a question only some rule sets answer, and the number of cards a place holds.
"""

from __future__ import annotations

from collections import Counter
from typing import TypeVar

from cardzones.position.context import Context
from cardzones.position.loader import YMap
from cardzones.rulesets.base import ChainLink, ruleset_of

_T = TypeVar("_T")

CHAIN_LINK_KEYS = {"chain_link", "attack", "defending", "exists"}
ZONES_KEYS = {"zones", "cards", "count", "empty"}


def _names(ctx: Context, node: YMap, key: str) -> list[str]:
    value = node[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ctx.fail(node, key, f"{key} must be a list of card names")
    return list(value)


def _links(ctx: Context, node: YMap) -> tuple[ChainLink, ...]:
    game = ctx.game
    return answered(ctx, node, "chain_link", ruleset_of(game).chain_links(game), "chain of attacks")


def check_chain_link(ctx: Context, node: YMap) -> str | None:
    """``expect: {chain_link: N, attack: NAME or REF, defending: [NAME...],
    exists: true/false}``."""
    links = _links(ctx, node)
    number = ctx.integer(node, "chain_link")
    if number < 1:
        raise ctx.fail(node, "chain_link", "chain links are numbered from 1")
    has = f"the chain of attacks has {len(links)} chain link(s)"
    absent = "exists" in node and not ctx.boolean(node, "exists")
    if absent and len(node) > 2:
        raise ctx.fail(node, "exists", "a chain link that does not exist has nothing to check")
    if number > len(links):
        return None if absent else f"there should be a chain link {number}, but {has}"
    if absent:
        return f"chain link {number} should not exist, but {has}"
    link = links[number - 1]
    if "attack" in node:
        problem = _check_attack(ctx, node, link)
        if problem is not None:
            return problem
    if "defending" in node:
        names = _names(ctx, node, "defending")
        got = [ctx.game.obj(card).cdef.name for card in link.defending]
        if Counter(names) != Counter(got):
            return f"chain link {number} should be defended by {names} (in any order), found {got}"
    return None


def _check_attack(ctx: Context, node: YMap, link: ChainLink) -> str | None:
    value = node["attack"]
    if not isinstance(value, str):
        raise ctx.fail(node, "attack", "attack is a card name or a card reference")
    if value.startswith("$") or "@" in value or "[" in value:
        if ctx.card(node, "attack") == link.attack:
            return None
        return f"the attack of chain link {link.number} should be {value}, found {link.name}"
    if value != link.name:
        return f"the attack of chain link {link.number} should be {value}, found {link.name}"
    return None


def check_zones(ctx: Context, node: YMap) -> str | None:
    """``expect: {zones: PLAYER.TYPE, cards: [...], count: N, empty: bool}``:
    every zone of that type the player has, as a whole."""
    ref = ctx.zone_ref(node, "zones")
    game = ctx.game
    if ref.owner is None or ref.number is not None or ctx.is_pile(ref):
        raise ctx.fail(node, "zones", "zones names a player's zones of one type, as PLAYER.TYPE")
    zids = game.zones_of(ref.owner, ref.type)
    cards = [card for zid in zids for card in game.contents(zid)]
    if "cards" in node:
        want = _names(ctx, node, "cards")
        got = [game.obj(card).cdef.name for card in cards]
        if Counter(want) != Counter(got):
            return f"{ref.owner}'s {ref.type} zones should hold {want} (in any order), found {got}"
    problem = count_problem(ctx, node, f"{ref.owner}'s {ref.type} zones", cards)
    if problem is not None:
        return problem
    if "empty" in node:
        want_empty = ctx.boolean(node, "empty")
        full = [game.zone_name(z) for z in zids if not game.is_empty(z)]
        if want_empty != (not full):
            found = f"{', '.join(full)} not empty" if full else "every one empty"
            return (
                f"{ref.owner}'s {ref.type} zones should {'' if want_empty else 'not '}be "
                f"empty (all of them empty), found {found}"
            )
    return None


def answered(ctx: Context, node: YMap, key: str, answer: _T | None, what: str) -> _T:
    """The rule set's ``answer`` for the expectation ``key`` (its chain, its
    layers): a rule set that answers None has no ``what``, and the
    expectation is refused as not for it."""
    if answer is None:
        raise ctx.fail(node, key, f"{ctx.ruleset} has no {what}: {key} expectations are not for it")
    return answer


def count_problem(ctx: Context, node: YMap, where: str, cards: list[int]) -> str | None:
    """What is wrong with an expectation's ``count:``, the number of cards
    ``where`` holds (a zone, a pile, all of a player's zones of a type):
    None when it is right or not asked."""
    if "count" not in node:
        return None
    count = ctx.integer(node, "count")
    if count != len(cards):
        return f"{where} should hold {count} card(s), found {len(cards)}"
    return None
