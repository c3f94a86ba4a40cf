"""Expectations: the ``expect`` step. Each check returns None when it holds, or
a message saying what was expected and what was found."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from cardzones.acts.counters import COUNTERS, LIFE
from cardzones.kernel.events import CEASED, MOVED, Event
from cardzones.kernel.objects import CARD, PLACED, UNDER
from cardzones.kernel.views import view
from cardzones.position.context import Context
from cardzones.position.loader import YList, YMap
from cardzones.position.refs import ZoneRef
from cardzones.rulesets.base import Exposable, ruleset_of
from cardzones.scenario import expect_procedure
from cardzones.scenario.event_zones import zone_matcher
from cardzones.scenario.expect_chain import (
    CHAIN_LINK_KEYS,
    ZONES_KEYS,
    answered,
    check_chain_link,
    check_zones,
    count_problem,
)

#: The keys of a card expectation in every game. A rule set adds the numbers
#: of its cards (``Ruleset.expected_numbers``): ``power: 3`` checks the current
#: object's number, as ``life`` does a life total.
CARD_KEYS = {
    "card",
    "in",
    "under",
    "placed_on",
    "in_arena",
    "public",
    "seen_by",
    "same_object",
    "new_object",
    "exists",
    "keywords",
    "controller",
    "permanent",
    "equipped_to",
    "position",
    "may_play",
    "set_aside",
    "life",
    "counters",
    "tapped",
}
ZONE_KEYS = {"zone", "cards", "count", "empty", "exposed", "exists"}
GAME_KEYS = {"phase", "turn_player", "turn"}


def check(ctx: Context, node: Any) -> str | None:
    """Check one ``expect`` mapping; the subject is chosen by its keys."""
    if not isinstance(node, YMap) or not node:
        raise ctx.fail(node, None, "expect takes a mapping such as {zone: alice.hand, count: 1}")
    if "procedure" in node:
        return expect_procedure.check(ctx, node)
    if "view" in node:
        return _view(ctx, ctx.check_keys(node, {"view", "zone", "shows"}, "expect view"))
    if "layer" in node:
        return _layer(
            ctx, ctx.check_keys(node, {"layer", "card", "kind", "source"}, "expect layer")
        )
    if "chain_link" in node:
        return check_chain_link(ctx, ctx.check_keys(node, CHAIN_LINK_KEYS, "expect chain_link"))
    if "zones" in node:
        return check_zones(ctx, ctx.check_keys(node, ZONES_KEYS, "expect zones"))
    if "events" in node:
        return _events(ctx, ctx.check_keys(node, {"events", "count"}, "expect events"))
    if "effect" in node:
        return _effect(ctx, ctx.check_keys(node, {"effect", "active"}, "expect effect"))
    if "card" in node:
        numbers = ruleset_of(ctx.game).expected_numbers()
        return _card(ctx, ctx.check_keys(node, CARD_KEYS.union(numbers), "expect card"))
    if "zone" in node:
        return _zone(ctx, ctx.check_keys(node, ZONE_KEYS, "expect zone"))
    node = ctx.check_keys(node, GAME_KEYS, "expect")
    return _game(ctx, node)


def _names(ctx: Context, cards: list[int]) -> list[str]:
    return [ctx.game.obj(c).cdef.name for c in cards]


def _name_list(ctx: Context, node: YMap, key: str) -> list[str]:
    value = node[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ctx.fail(node, key, f"{key} must be a list of card names")
    return list(value)


def _same(expected: list[str], found: list[str], ordered: bool) -> bool:
    return expected == found if ordered else Counter(expected) == Counter(found)


def _zone_cards(ctx: Context, node: YMap, ref: ZoneRef) -> tuple[int | None, list[int], bool]:
    """(zone id, top-level cards, ordered) for a zone expectation; for a soul,
    the sub-cards under the hero.

    Only a zone its rule set calls ordered (decks, the stack) is compared in
    order. A pile of cards under or on a card is a collection: the soul is one
    (3.11.5), and sub-cards that join their top-card get no order (3.0.14c)."""
    game = ctx.game
    if ctx.is_pile(ref):
        return None, ctx.pile_cards(ref, node, "zone"), False
    zid = ctx.zone_id(ref, node, "zone")
    if zid is None:
        return None, [], False
    return zid, list(game.contents(zid)), game.zone_info(zid).spec.ordered


def _zone(ctx: Context, node: YMap) -> str | None:
    ref = ctx.zone_ref(node, "zone")
    game = ctx.game
    zid, cards, ordered = _zone_cards(ctx, node, ref)
    if "exists" in node:
        # 3.0.10b, 3.0.10c: a zone may cease to exist; the others of its type
        # are numbered again, so a number that named it names no zone now.
        if ctx.is_pile(ref):
            raise ctx.fail(node, "exists", "exists is for a zone, not the cards on a card")
        want = ctx.boolean(node, "exists")
        if want != (zid is not None):
            return f"zone {ref} should {'' if want else 'not '}exist"
        if not want:
            if len(node) > 2:
                raise ctx.fail(node, "exists", "a zone that does not exist has nothing to check")
            return None
    if zid is None and not ctx.is_pile(ref):
        return f"zone {ref} does not exist"
    if "cards" in node:
        expected = _name_list(ctx, node, "cards")
        found = _names(ctx, cards)
        if not _same(expected, found, ordered):
            order = "top first" if ordered else "in any order"
            return f"{ref} should hold {expected} ({order}), found {found}"
    problem = count_problem(ctx, node, str(ref), cards)
    if problem is not None:
        return problem
    if "empty" in node:
        want = ctx.boolean(node, "empty")
        is_empty = game.is_empty(zid) if zid is not None else not cards
        if want != is_empty:
            return (
                f"{ref} should {'' if want else 'not '}be empty (3.0.1a), but it is "
                f"{'empty' if is_empty else 'not empty'}"
            )
    if "exposed" in node:
        exposable = ruleset_of(game).exposable
        if ref.type not in exposable.types:
            raise ctx.fail(node, "exposed", _not_exposable(ctx, exposable))
        want = ctx.boolean(node, "exposed")
        assert zid is not None
        if want != game.is_empty(zid):
            return f"{ref} should {'' if want else 'not '}be exposed (3.0.1a)"
    return None


def _not_exposable(ctx: Context, exposable: Exposable) -> str:
    """Why a zone cannot be expected to be exposed: it is none of the rule
    set's exposable zones, or the rule set has none."""
    if not exposable.types:
        return f"{ctx.ruleset} has no zones that are exposed: exposed is not for it"
    return f"exposed is only for {exposable.called}: {', '.join(exposable.types)}"


def _players(ctx: Context, node: YMap, key: str) -> list[str]:
    value = node[key]
    if not isinstance(value, list):
        raise ctx.fail(node, key, f"{key} must be a list of players")
    for player in value:
        if player not in ctx.game.players:
            raise ctx.fail(node, key, f"{key}: {ctx.not_a_player(player)}")
    return list(value)


def _zone_list(ctx: Context, node: YMap, key: str) -> list[int | None]:
    value = node[key]
    if not isinstance(value, YList):
        raise ctx.fail(node, key, f"{key} must be a list of zones")
    return [ctx.zone_id(ctx.zone_ref(value, i, v), value, i) for i, v in enumerate(value)]


def _card(ctx: Context, node: YMap) -> str | None:
    game = ctx.game
    card = ctx.card(node, "card")
    text = str(node["card"])
    exists = game.exists(card)
    if "exists" in node:
        want = ctx.boolean(node, "exists")
        if want != exists:
            return (
                f"{text} should {'' if want else 'not '}exist, but it "
                f"{'does' if exists else 'does not'}"
            )
    if not exists:
        others = set(node) - {"card", "exists"}
        if others:
            return f"{text} does not exist, so {', '.join(sorted(others))} cannot hold"
        return None
    obj = game.obj(card)
    for key in node:
        if key in ("card", "exists"):
            continue
        # A key the checks do not name is one of the rule set's numbers.
        problem = CARD_CHECKS.get(key, _check_stat)(ctx, node, key, card, obj)
        if problem is not None:
            return f"{text}: {problem}"
    return None


def _check_in(ctx: Context, node: YMap, key: str, card: int, obj: Any) -> str | None:
    ref = ctx.zone_ref(node, key)
    game = ctx.game
    if ctx.is_pile(ref):
        host = ctx.pile_host(ref, node, key)
        ok = obj.host == host and obj.rel == ctx.game.ruleset.piles[ref.type]
        return None if ok else f"should be in {ref}, found in {_where(ctx, card)}"
    zid = ctx.zone_id(ref, node, key)
    if zid is None:
        return f"should be in {ref}, which does not exist"
    if obj.zone != zid:
        return f"should be in {ref}, found in {_where(ctx, card)}"
    _ = game
    return None


def _where(ctx: Context, card: int) -> str:
    game = ctx.game
    obj = game.obj(card)
    where = game.zone_name(obj.zone)
    if obj.host is not None:
        rel = "under" if obj.rel == UNDER else "on"
        where += f" ({rel} {game.obj(obj.host).cdef.name})"
    return where


def _check_host(rel: int) -> Callable[[Context, YMap, str, int, Any], str | None]:
    word = "under" if rel == UNDER else "placed on"

    def check_host(ctx: Context, node: YMap, key: str, card: int, obj: Any) -> str | None:
        value = node[key]
        if value is None:
            if obj.host is not None and obj.rel == rel:
                return (
                    f"should not be {word} a card, found {word} {ctx.game.obj(obj.host).cdef.name}"
                )
            return None
        host = ctx.card(node, key)
        if obj.host != host or obj.rel != rel:
            return f"should be {word} {value}, found in {_where(ctx, card)}"
        return None

    return check_host


def _flag(
    name: str, getter: Callable[[Context, int], bool], rule: str = ""
) -> Callable[[Context, YMap, str, int, Any], str | None]:
    def check_flag(ctx: Context, node: YMap, key: str, card: int, obj: Any) -> str | None:
        want = ctx.boolean(node, key)
        got = getter(ctx, card)
        if want != got:
            suffix = f" ({rule})" if rule else ""
            return f"{name} should be {str(want).lower()}, found {str(got).lower()}{suffix}"
        return None

    return check_flag


def _check_seen_by(ctx: Context, node: YMap, key: str, card: int, obj: Any) -> str | None:
    want = sorted(_players(ctx, node, key))
    got = sorted(ctx.game.seen_by(card))
    return None if want == got else f"seen_by should be {want}, found {got} (3.0.3a)"


def _check_mark(same: bool) -> Callable[[Context, YMap, str, int, Any], str | None]:
    def check_mark(ctx: Context, node: YMap, key: str, card: int, obj: Any) -> str | None:
        mark = str(node[key])
        if mark not in ctx.marks:
            raise ctx.fail(node, key, f"unknown mark {mark!r}")
        marked_card, marked_oid = ctx.marks[mark]
        is_same = marked_card == card and obj.oid == marked_oid
        if same and not is_same:
            return f"should be the same object as mark {mark}, but it is a new object (3.0.9)"
        if not same and is_same:
            return f"should be a new object since mark {mark}, but it is the same object (3.0.9)"
        return None

    return check_mark


def _check_stat(ctx: Context, node: YMap, key: str, card: int, obj: Any) -> str | None:
    want = node[key]
    if isinstance(want, bool) or not isinstance(want, int | type(None)):
        raise ctx.fail(node, key, f"{key} must be a number")
    got = ctx.game.stat(card, key)
    return None if want == got else f"{key} should be {want}, found {got}"


def _check_counters(ctx: Context, node: YMap, key: str, card: int, obj: Any) -> str | None:
    want = node[key]
    if not isinstance(want, dict) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v > 0
        for k, v in want.items()
    ):
        raise ctx.fail(node, key, "counters maps a counter's name to how many, such as {steam: 2}")
    got = ctx.game.counters(card)
    return None if dict(want) == got else f"counters should be {dict(want)}, found {got}"


def _check_keywords(ctx: Context, node: YMap, key: str, card: int, obj: Any) -> str | None:
    want = sorted(_name_list(ctx, node, key))
    got = sorted(ctx.game.keywords(card))
    return None if want == got else f"keywords should be {want}, found {got}"


def _check_controller(ctx: Context, node: YMap, key: str, card: int, obj: Any) -> str | None:
    want = node[key]
    if want is not None and want not in ctx.game.players:
        raise ctx.fail(node, key, f"{key}: {ctx.not_a_player(want)}")
    return (
        None if want == obj.controller else f"controller should be {want}, found {obj.controller}"
    )


def _check_equipped(ctx: Context, node: YMap, key: str, card: int, obj: Any) -> str | None:
    want = _zone_list(ctx, node, key)
    game = ctx.game
    if sorted(z for z in want if z is not None) != sorted(obj.equipped) or None in want:
        found = [game.zone_name(z) for z in obj.equipped]
        return f"equipped_to should be {list(node[key])}, found {found}"
    return None


def _check_position(ctx: Context, node: YMap, key: str, card: int, obj: Any) -> str | None:
    want = ctx.integer(node, key)
    game = ctx.game
    got = game.position(card)
    if want < 0:
        size = len(game.kids(obj.host)) if obj.host is not None else len(game.contents(obj.zone))
        want += size
    return None if want == got else f"position should be {node[key]}, found {got}"


def _check_may_play(ctx: Context, node: YMap, key: str, card: int, obj: Any) -> str | None:
    want = ctx.boolean(node, key)
    game = ctx.game
    got = game.may_play(card, obj.owner) if obj.owner is not None else False
    if want == got:
        return None
    return f"may_play should be {str(want).lower()}, found {str(got).lower()}"


def _is_set_aside(ctx: Context, card: int) -> bool:
    return ruleset_of(ctx.game).is_set_aside(ctx.game, card)


def _check_tapped(ctx: Context, node: YMap, key: str, card: int, obj: Any) -> str | None:
    want = ctx.boolean(node, key)
    got = ruleset_of(ctx.game).is_tapped(ctx.game, card)
    if got is None:
        raise ctx.fail(
            node, key, f"{ctx.ruleset} permanents are never tapped: tapped is not for it"
        )
    if want == got:
        return None
    return f"tapped should be {str(want).lower()}, found {str(got).lower()}"


CARD_CHECKS: dict[str, Callable[[Context, YMap, str, int, Any], str | None]] = {
    "in": _check_in,
    "under": _check_host(UNDER),
    "placed_on": _check_host(PLACED),
    "in_arena": _flag("in_arena", lambda c, card: c.game.in_arena(card), "3.1.2a"),
    "public": _flag("public", lambda c, card: c.game.is_public(card), "3.0.3"),
    "permanent": _flag("permanent", lambda c, card: c.game.is_permanent(card), "1.3.3"),
    "set_aside": _flag("set_aside", _is_set_aside),
    "seen_by": _check_seen_by,
    "same_object": _check_mark(True),
    "new_object": _check_mark(False),
    "life": _check_stat,
    "counters": _check_counters,
    "keywords": _check_keywords,
    "controller": _check_controller,
    "equipped_to": _check_equipped,
    "position": _check_position,
    "may_play": _check_may_play,
    "tapped": _check_tapped,
}


def _layer_kind(ctx: Context, card: int) -> str:
    kind = ctx.game.obj(card).kind
    return "card" if kind == CARD else kind


def _layer(ctx: Context, node: YMap) -> str | None:
    game = ctx.game
    current = answered(ctx, node, "layer", ruleset_of(game).layers(game), "stack of layers")
    number = ctx.integer(node, "layer")
    if not 1 <= number <= len(current):
        return f"there should be a layer {number}, but the stack has {len(current)} layer(s)"
    card = current[number - 1]
    if "card" in node:
        name = node["card"]
        found = game.obj(card).cdef.name
        kind = _layer_kind(ctx, card)
        if kind != "card" or found != name:
            what = found if kind == "card" else f"a {kind} layer of {found}"
            return f"layer {number} should be the card {name}, found {what}"
    if "kind" in node:
        kind = ctx.choice(node, "kind", ("card", "activated", "triggered", "attack_proxy"), None)
        found_kind = _layer_kind(ctx, card)
        if kind != found_kind:
            return f"layer {number} should be a {kind} layer, found a {found_kind} layer"
    if "source" in node:
        source = ctx.card(node, "source")
        found_source = ruleset_of(game).layer_source(game, card)
        if found_source != source:
            what = _source_of(ctx, found_source, source)
            return f"layer {number} should come from {node['source']}, found {what}"
    return None


def _source_of(ctx: Context, found: int | None, wanted: int) -> str:
    """A layer's source in a message, told apart from the one expected."""
    game = ctx.game
    seen = game.find(found) if found is not None else None
    if seen is None:
        return "a layer with no source"
    other = game.find(wanted)
    same = other is not None and other.cdef.name == seen.cdef.name
    return f"a layer of {'another ' if same else ''}{seen.cdef.name}"


EVENT_FILTER_KEYS = {"type", "card", "from", "to", "this_turn", "min_power"}


def _events(ctx: Context, node: YMap) -> str | None:
    flt = ctx.check_keys(node["events"], EVENT_FILTER_KEYS, "events filter")
    if "count" not in node:
        raise ctx.fail(node, None, "expect events needs count:")
    want = ctx.integer(node, "count")
    kind = ctx.choice(flt, "type", (MOVED, CEASED, LIFE, COUNTERS), MOVED)
    matchers: list[Callable[[Event], bool]] = [lambda e: e.kind == kind]
    game = ctx.game
    if "card" in flt:
        name = flt["card"]
        matchers.append(lambda e: e.public and e.lki is not None and e.lki.obj.cdef.name == name)
    for key, attr in (("from", "src"), ("to", "dst")):
        if key in flt:
            matchers.append(zone_matcher(ctx, flt, key, attr))
    if "this_turn" in flt:
        this_turn = ctx.boolean(flt, "this_turn")
        turn = game.turn
        matchers.append(lambda e: (e.turn == turn) == this_turn)
    if "min_power" in flt:
        least = ctx.integer(flt, "min_power")

        def powerful(e: Event) -> bool:
            if not e.public or e.lki is None:
                return False  # 3.0.7a: a private object has no properties
            power = game.stat(e.lki.obj.card, "power", snapshot=e.lki)
            return power is not None and power >= least

        matchers.append(powerful)
    got = sum(1 for e in game.events() if all(m(e) for m in matchers))
    if got != want:
        return f"{want} event(s) should match {dict(flt)}, found {got}"
    return None


def _effect(ctx: Context, node: YMap) -> str | None:
    label = str(node["effect"])
    if label not in ctx.effects:
        raise ctx.fail(node, "effect", f"unknown effect label {label!r}")
    if "active" not in node:
        raise ctx.fail(node, None, "expect effect needs active: true or false")
    want = ctx.boolean(node, "active")
    got = ctx.game.is_active(ctx.effects[label])
    if got != want:
        return (
            f"effect {label} should be {'active' if want else 'inactive'}, "
            f"found {'active' if got else 'inactive'}"
        )
    return None


def _view(ctx: Context, node: YMap) -> str | None:
    player = node["view"]
    if player not in ctx.game.players and player is not None:
        raise ctx.fail(node, "view", f"view: {ctx.not_a_player(player)}")
    if "zone" not in node or "shows" not in node:
        raise ctx.fail(node, None, "expect view needs zone: and shows:")
    ref = ctx.zone_ref(node, "zone")
    game = ctx.game
    if ctx.is_pile(ref):
        host = ctx.pile_host(ref, node, "zone")
        board = view(game, player)
        zone_name = game.zone_name(game.obj(host).zone)
        zone = next(z for z in board["zones"] if z["zone"] == zone_name)
        pile = "placed" if game.ruleset.piles[ref.type] == PLACED else "under"
        objects = [k for o in zone["objects"] for k in o.get(pile, [])]
        ordered = False  # a pile is a collection (3.11.5, 3.0.14c), as in _zone_cards
    else:
        zid = ctx.zone_id(ref, node, "zone")
        if zid is None:
            return f"zone {ref} does not exist"
        board = view(game, player)
        zone_name = game.zone_name(zid)
        zone = next(z for z in board["zones"] if z["zone"] == zone_name)
        objects = zone["objects"]
        ordered = zone["ordered"]
    shown = ["hidden" if o.get("hidden") else o["name"] for o in objects]
    want = _name_list(ctx, node, "shows")
    if not _same(want, shown, ordered):
        return f"{player} should be shown {want} in {ref}, found {shown}"
    return None


def _game(ctx: Context, node: YMap) -> str | None:
    game = ctx.game
    if not node:
        raise ctx.fail(node, None, "expect needs a subject")
    if "phase" in node and node["phase"] != game.phase:
        return f"phase should be {node['phase']}, found {game.phase}"
    if "turn_player" in node and node["turn_player"] not in game.players:
        raise ctx.fail(node, "turn_player", f"turn_player: {ctx.not_a_player(node['turn_player'])}")
    if "turn_player" in node and node["turn_player"] != game.turn_player:
        return f"turn_player should be {node['turn_player']}, found {game.turn_player}"
    if "turn" in node and ctx.integer(node, "turn") != game.turn:
        return f"turn should be {node['turn']}, found {game.turn}"
    return None
