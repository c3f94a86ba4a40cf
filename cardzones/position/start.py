"""The start position of a game: its rule set, players, seed, cards and
set-up, as a scenario file writes them (docs/scenarios.md), read and put in
place. The table, export and replay start their games here; the test runner
(:mod:`cardzones.scenario.runner`) adds the steps and their expectations.

>>> from cardzones.position.loader import load_text
>>> doc = load_text("{ruleset: fab, setup: {alice.hand: [{card: Snatch, as: s}]}}", "<p>")
>>> start = StartPosition.from_doc(doc, "<p>")
>>> ctx = start.new_context()
>>> start.setup(ctx)
>>> ctx.game.zone_name(ctx.game.location(ctx.labels["s"]))
'alice.hand'
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from cardzones.cards.lookup import CardLookup
from cardzones.errors import CardzonesError, IllegalAction, ScenarioError, UnknownReference
from cardzones.kernel.cards import CardDef
from cardzones.kernel.game import Game
from cardzones.kernel.objects import TOP
from cardzones.position.card_data import read_card_data, variant_keys
from cardzones.position.cards import parse_card
from cardzones.position.context import Context
from cardzones.position.loader import YList, YMap
from cardzones.rulesets.base import Ruleset, ruleset_of
from cardzones.rulesets.registry import get_ruleset, ruleset_names

#: The keys of what a game starts with: its cards, and how it is played.
START_KEYS = ("cards", "card_data", "setup", "shuffle", "procedure")
TOP_KEYS = {"name", "rules", "ruleset", "players", "seed", *START_KEYS, "steps"}
#: The keys of a set-up entry in any rule set; ``under``, ``onto`` and
#: ``permanent_controller`` only where the rule set has them (its
#: ``attach_keys`` and ``permanent_control``). The key of each rule set's
#: variants is one too (:func:`~cardzones.position.card_data.variant_keys`).
ENTRY_KEYS = {
    "card",
    "as",
    "face",
    "owner",
    "controller",
    "permanent_controller",
    "under",
    "onto",
}


@dataclass
class StartPosition:
    """A start position, read and checked, ready to set up."""

    file: str
    doc: YMap
    name: str
    ruleset: str
    players: tuple[str, ...]
    seed: int
    rules: list[str]
    cards: dict[str, CardDef]
    card_data: CardLookup | None = None
    #: names with several definitions under ``cards:``, by their variant
    variants: dict[str, dict[int, CardDef]] = field(default_factory=dict)
    #: ``procedure:``: None to play without the game procedure, or the
    #: player given to take the first turn ("" for the game's choice)
    procedure: str | None = None

    #: The keys a document must have: a start position needs its rule set
    #: alone; a scenario file (:class:`~cardzones.scenario.runner.Scenario`)
    #: needs its name and steps too.
    REQUIRED: ClassVar[tuple[str, ...]] = ("ruleset",)
    NOT_A_MAPPING: ClassVar[str] = "a start position is a YAML mapping with ruleset:"

    @classmethod
    def from_doc(cls, doc: Any, file: str) -> Self:
        """The start position a document (a :class:`YMap`) gives, checked;
        :class:`ScenarioError` at the line of the first problem."""
        name, found, players, seed = check_header(doc, file, cls.REQUIRED, cls.NOT_A_MAPPING)
        fail = _fail_in(file)
        ruleset = str(doc["ruleset"])
        rules = doc.get("rules", [])
        if not isinstance(rules, list) or not all(isinstance(r, str | int | float) for r in rules):
            raise fail(doc, "rules", "rules: must be a list of rule ids")
        rules = [str(r) for r in rules]
        _check_rule_ids(doc, rules, found, fail)
        if not isinstance(doc.get("steps", []), list):
            raise fail(doc, "steps", "steps: must be a list")
        cards_node = doc.get("cards", {})
        if cards_node is None:
            cards_node = {}
        if not isinstance(cards_node, dict):
            raise fail(doc, "cards", "cards: must map card names to definitions")
        cards: dict[str, CardDef] = {}
        variants: dict[str, dict[int, CardDef]] = {}
        for card_name, body in cards_node.items():
            # A value that is not a mapping has no line of its own: use the card's.
            line = cards_node.line_of(card_name) if isinstance(cards_node, YMap) else 1
            if isinstance(body, list):
                variants[card_name] = _variants(card_name, body, found, file, line)
                continue
            if body is None:
                body = YMap()
                body.key_lines = {}
                body.line = line
            try:
                cards[card_name] = parse_card(card_name, body, found)
            except ScenarioError as exc:
                if exc.line is not None:
                    raise
                raise ScenarioError(exc.message, file=file, line=line) from None
        card_data = read_card_data(doc, ruleset, file)
        procedure = _procedure(doc, players, fail)
        return cls(
            file,
            doc,
            name,
            ruleset,
            players,
            seed,
            rules,
            cards,
            card_data,
            variants,
            procedure,
        )

    # ------------------------------------------------------------------

    def new_context(self, handle_key: str | None = None) -> Context:
        """The game at the start, before set-up. The scenario's seed decides
        its shuffles (0 when it gives none, so that a scenario is reproducible);
        its handles are keyed by ``handle_key``, a new secret when not given."""
        game = Game(get_ruleset(self.ruleset), self.players, self.seed, handle_key)
        ctx = Context(game, self.ruleset, self.file, self.cards, self.card_data, self.variants)
        ctx.players_hint = self.players_hint()
        return ctx

    def players_hint(self) -> str:
        """Where this file's players come from, for messages about a name that
        is not one."""
        if "players" in self.doc:
            return f"(listed by players: at line {self.doc.line_of('players')})"
        return "(the default, as the file has no players: list)"

    def setup(self, ctx: Context) -> None:
        """Put the starting cards in place, shuffle the zones ``shuffle:``
        names, then start the game procedure when ``procedure:`` asks for it.
        Setup obeys each zone's limits and logs no events."""
        self._place_all(ctx)
        self._shuffle(ctx)
        if self.procedure is not None:
            # The game procedure starts from the position set up (4.1).
            try:
                ruleset_of(ctx.game).start_procedure(ctx.game, self.procedure or None)
            except IllegalAction as exc:
                raise ctx.fail(self.doc, "procedure", f"procedure: {exc}") from None
            ctx.game.forget_history()

    def _shuffle(self, ctx: Context) -> None:
        """Shuffle each zone ``shuffle:`` lists, in its order, by the zone's
        owner, with the seed, as the last part of setting up. A written setup
        keeps its order; this is how a start position says that an order it
        writes (a deck list's, say) is not the game's."""
        node = self.doc.get("shuffle")
        if node is None:
            return
        if not isinstance(node, YList) or not all(isinstance(z, str) for z in node):
            raise ctx.fail(self.doc, "shuffle", "shuffle: must be a list of zones")
        game = ctx.game
        done: set[int] = set()
        for i, text in enumerate(node):
            zid = ctx.existing_zone(node, i, text)
            if not game.zone_info(zid).spec.ordered:
                raise ctx.fail(node, i, f"shuffle: {text} is not an ordered zone")
            if zid in done:
                raise ctx.fail(node, i, f"shuffle: {text} is listed twice")
            done.add(zid)
            game.shuffle(zid, by=game.zone_info(zid).owner, logged=False)
        game.forget_history()

    def _place_all(self, ctx: Context) -> None:
        setup = self.doc.get("setup")
        if setup is None:
            return
        if not isinstance(setup, YMap):
            raise ctx.fail(self.doc, "setup", "setup: must map zones to lists of cards")
        later: list[tuple[YList, Any, Any, Any]] = []
        entry_keys = ENTRY_KEYS | set(variant_keys())
        for zone_text, entries in setup.items():
            ref = ctx.zone_ref(setup, zone_text, zone_text)
            if entries is None:
                continue
            if not isinstance(entries, YList):
                raise ctx.fail(setup, zone_text, f"{zone_text}: must be a list of cards")
            for i, entry in enumerate(entries):
                if isinstance(entry, YMap):
                    entry = ctx.check_keys(entry, entry_keys, "a setup entry")
                    if "under" in entry or "onto" in entry:
                        later.append((entries, i, ref, entry))
                        continue
                if ctx.is_pile(ref):
                    later.append((entries, i, ref, entry))
                    continue
                self._place(ctx, entries, i, ref, entry)
                # Setup is not an action: nothing in it is undone. The journal
                # would keep every earlier contents of the zone, which grows
                # with the square of its cards.
                ctx.game.forget_history()
        for entries, i, ref, entry in later:
            self._place(ctx, entries, i, ref, entry)
            ctx.game.forget_history()

    def _place(self, ctx: Context, entries: YList, i: int, ref: Any, entry: Any) -> None:
        game = ctx.game
        node: Any = entries
        key: Any = i
        if isinstance(entry, str):
            name, opts = entry, YMap()
            opts.key_lines = {}
            opts.line = entries.line_of(i)
        elif isinstance(entry, YMap):
            if "card" not in entry or not isinstance(entry["card"], str):
                raise ctx.fail(entry, None, "a setup entry needs card: NAME")
            name, opts, node, key = entry["card"], entry, entry, "card"
        else:
            raise ctx.fail(entries, i, f"a setup entry is a card name or a mapping, not {entry!r}")
        cdef = ctx.card_def(name, opts)
        owner = opts.get("owner")
        controller = opts.get("controller")
        pcontrol = opts.get("permanent_controller")
        for k, v in (
            ("owner", owner),
            ("controller", controller),
            ("permanent_controller", pcontrol),
        ):
            if v is not None and v not in game.players:
                raise ctx.fail(opts, k, f"{k}: {ctx.not_a_player(v)}")
        ruleset = ruleset_of(game)
        if pcontrol is not None and not ruleset.permanent_control:
            raise ctx.fail(
                opts,
                "permanent_controller",
                f"permanent_controller: {self.ruleset} cards have no permanent controller",
            )
        face = ctx.choice(opts, "face", ("up", "down"), None)
        host = None
        rel = TOP
        if ctx.is_pile(ref):
            host, rel = ctx.pile_host(ref, entries, i), ruleset.piles[ref.type]
        for word in ("under", "onto"):
            if word not in opts:
                continue
            if word not in ruleset.attach_keys:
                others = ", ".join(f"{k}:" for k in ruleset.attach_keys)
                instead = f"; use {others}" if others else ""
                raise ctx.fail(opts, word, f"{word}: is not a {self.ruleset} set-up key{instead}")
            host, rel = ctx.card(opts, word), ruleset.attach_keys[word]
        if host is not None:
            zid = game.obj(host).zone
            if not ctx.is_pile(ref) and ctx.zone_id(ref, entries, i) != zid:
                raise ctx.fail(node, key, f"{name} is under or on a card that is not in {ref}")
        else:
            zid = self._setup_zone(ctx, ref, cdef, owner, controller, entries, i)
        public = None if face is None else face == "up"
        try:
            card = game.new_card(
                cdef,
                zid,
                owner=owner,
                controller=controller,
                public=public,
                host=host,
                rel=rel,
                pcontrol=pcontrol,
                position="bottom",
            )
        except IllegalAction as exc:
            raise ctx.fail(node, key, f"setup: {exc}") from None
        label = ctx.label(opts) if isinstance(opts, YMap) else None
        if label is not None:
            if label in ctx.labels:
                raise ctx.fail(opts, "as", f"label ${label} is used twice")
            ctx.labels[label] = card

    def _setup_zone(
        self,
        ctx: Context,
        ref: Any,
        cdef: CardDef,
        owner: Any,
        controller: Any,
        entries: YList,
        i: int,
    ) -> int:
        game = ctx.game
        if ref.number is not None or ref.owner is None:
            zid = ctx.zone_id(ref, entries, i)
            if zid is None:
                raise ctx.fail(entries, i, f"zone {ref} does not exist")
            return zid
        zids = game.zones_of(ref.owner, ref.type)
        if len(zids) == 1:
            return zids[0]
        # Several zones of the type: the first that can take the card.
        probe = game.probe(
            cdef, zids[0], owner=owner or ref.owner, controller=controller or owner or ref.owner
        )
        for zid in zids:
            if game.ruleset.admit(game, probe, zid, ref.owner).ok:
                return zid
        return zids[0]


def check_header(
    doc: Any,
    file: str,
    required: tuple[str, ...] = StartPosition.REQUIRED,
    not_a_mapping: str = StartPosition.NOT_A_MAPPING,
) -> tuple[str, Ruleset, tuple[str, ...], int]:
    """The name, rule set, players and seed of a start position's document,
    checked before anything else in it is read: a :class:`ScenarioError`
    names the first that is wrong."""

    def fail(node: Any, key: str | None, message: str) -> ScenarioError:
        line = node.line_of(key) if isinstance(node, YMap) and key else getattr(node, "line", 1)
        return ScenarioError(message, file=file, line=line)

    if not isinstance(doc, YMap):
        raise ScenarioError(
            not_a_mapping,
            file=file,
            line=getattr(doc, "line", 1),
        )
    for key in doc:
        if key not in TOP_KEYS:
            raise fail(
                doc,
                key,
                f"unknown key {key!r}; top-level keys are {', '.join(sorted(TOP_KEYS))}",
            )
    for key in required:
        if key not in doc:
            raise fail(doc, None, f"missing required key {key}:")
    name = doc.get("name", "start position")
    if not isinstance(name, str) or not name.strip():
        raise fail(doc, "name", "name: must be a non-empty text")
    ruleset = doc["ruleset"]
    try:
        if not isinstance(ruleset, str):
            raise UnknownReference(f"not {ruleset!r}")
        found = get_ruleset(ruleset)
    except UnknownReference:
        raise fail(
            doc,
            "ruleset",
            f"ruleset must be one of {', '.join(ruleset_names())}, not {ruleset!r}",
        ) from None
    except CardzonesError as exc:
        raise fail(doc, "ruleset", str(exc)) from None
    players = doc.get("players", ["alice", "bob"])
    if (
        not isinstance(players, list)
        or not players
        or not all(isinstance(p, str) and p and "." not in p and " " not in p for p in players)
        or len(set(players)) != len(players)
    ):
        raise fail(doc, "players", "players: must be a list of distinct single-word names")
    for reserved in ("owner", "you"):
        if reserved in players:
            raise fail(doc, "players", f"{reserved!r} cannot be a player name")
    seed = doc.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise fail(doc, "seed", "seed: must be a whole number")
    return name.strip(), found, tuple(players), seed


def procedure_of(value: Any) -> str | None:
    """What a ``procedure:`` value asks for: None for no game procedure
    (false, or left out), "" for the game's choice of the first player
    (true), or the first player's name (``{first: PLAYER}``). A value of
    another shape raises ValueError."""
    if value is None or value is False:
        return None
    if value is True:
        return ""
    if isinstance(value, dict) and set(value) <= {"first"}:
        first = value.get("first")
        if first is None:
            return ""
        if isinstance(first, str) and first:
            return first
    raise ValueError("procedure: is true, false or {first: PLAYER}")


def _procedure(doc: YMap, players: tuple[str, ...], fail: Any) -> str | None:
    """The document's ``procedure:`` (:func:`procedure_of`), its first player
    one of ``players``."""
    try:
        found = procedure_of(doc.get("procedure"))
    except ValueError as exc:
        raise fail(doc, "procedure", str(exc)) from None
    if found and found not in players:
        raise fail(doc, "procedure", f"first: names a player, one of {', '.join(players)}")
    return found


def _fail_in(file: str) -> Any:
    def fail(node: Any, key: str | None, message: str) -> ScenarioError:
        line = node.line_of(key) if isinstance(node, YMap) and key else getattr(node, "line", 1)
        return ScenarioError(message, file=file, line=line)

    return fail


def _check_rule_ids(doc: YMap, rules: list[str], ruleset: Any, fail: Any) -> None:
    """Every entry under ``rules:`` written as a rule id of the rule set is one
    of the ids of its rules texts. Other entries cite a rule in words
    (``"place: movement of placed cards"``) and are taken as they are: a rules
    text without numbered ids is cited that way. A rule set that gives no id
    form is not checked."""
    pattern = ruleset.rule_id_pattern
    known = ruleset.text_ids
    if pattern is None or not known:
        return
    node = doc.get("rules")
    for i, rule in enumerate(rules):
        if rule in known or not re.fullmatch(pattern, rule):
            continue
        close = difflib.get_close_matches(rule, sorted(known), n=3, cutoff=0.6)
        hint = f"; the closest are {', '.join(close)}" if close else ""
        if isinstance(node, YList) and isinstance(node[i], float):
            hint += "; quote rule ids, since YAML reads 3.10 as the number 3.1"
        message = (
            f"rules: {rule!r} is not a rule id of {ruleset.name}{hint} "
            f"(cardzones coverage -r {ruleset.name} lists the implemented ones)"
        )
        if isinstance(node, YList):
            raise ScenarioError(message, file=doc.file, line=node.line_of(i))
        raise fail(doc, "rules", message)


def _variants(
    name: str, items: list[Any], ruleset: Ruleset, file: str, line: int | None
) -> dict[int, CardDef]:
    """The definitions of a card with several variants, one per number (the
    colours of a fab card, as the card index has them); a set-up entry picks
    one by the rule set's key (``pitch:``)."""
    v = ruleset.variants
    if not v:
        keys = " or ".join(variant_keys()) or "a variant"
        raise ScenarioError(
            f"card {name!r}: a list of definitions is for cards that differ by {keys}, "
            f"and {ruleset.name} cards have none",
            file=file,
            line=line,
        )
    if not items:
        raise ScenarioError(
            f"card {name!r}: the list of its definitions is empty", file=file, line=line
        )
    out: dict[int, CardDef] = {}
    for i, body in enumerate(items):
        where = items.line_of(i) if isinstance(items, YList) else line
        if not isinstance(body, dict):
            raise ScenarioError(
                f"card {name!r} must be a mapping, got {body!r}", file=file, line=where
            )
        try:
            cdef = parse_card(name, body, ruleset)
        except ScenarioError as exc:
            raise ScenarioError(exc.message, file=file, line=exc.line or where) from None
        number = v.of(cdef)
        if number is None:
            raise ScenarioError(
                f"card {name!r}: each of its definitions gives its own {v.key}:",
                file=file,
                line=where,
            )
        if number in out:
            raise ScenarioError(
                f"card {name!r}: two definitions have {v.key} {number}", file=file, line=where
            )
        out[number] = cdef
    return out
