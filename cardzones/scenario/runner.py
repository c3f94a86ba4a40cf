"""Load, validate and run scenario files (docs/scenarios.md, version 1).

>>> from cardzones.scenario.runner import run_text
>>> outcome = run_text('''
... name: a draw
... ruleset: fab
... setup: {alice.deck: [A, B]}
... steps:
...   - move: {card: "alice.deck[0]", to: alice.hand}
...   - expect: {zone: alice.deck, cards: [B]}
... ''')
>>> outcome.status, outcome.steps
('pass', 2)
"""

from __future__ import annotations

import contextlib
import difflib
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardzones.acts.actions import Action, ActionResult, ArgumentError, table_of
from cardzones.acts.binding import bind
from cardzones.cards.lookup import CardLookup
from cardzones.errors import (
    CardzonesError,
    IllegalAction,
    NeedsChoice,
    ScenarioError,
    UnknownReference,
)
from cardzones.kernel.cards import CardDef
from cardzones.kernel.game import Game
from cardzones.kernel.objects import TOP
from cardzones.kernel.results import MoveResult
from cardzones.rulesets.base import Ruleset
from cardzones.rulesets.registry import get_ruleset, ruleset_names
from cardzones.scenario import expect
from cardzones.scenario.card_data import read_card_data
from cardzones.scenario.cards import parse_card
from cardzones.scenario.context import Context
from cardzones.scenario.loader import YList, YMap, load_file, load_text

TOP_KEYS = {"name", "rules", "ruleset", "players", "seed", "cards", "card_data", "setup", "steps"}
#: The keys of a set-up entry in any rule set; ``under``, ``onto`` and
#: ``permanent_controller`` only where the rule set has them (its
#: ``attach_keys`` and ``permanent_control``); ``pitch`` picks a colour of a
#: card from the card index (``card_data:``).
ENTRY_KEYS = {
    "card",
    "as",
    "face",
    "owner",
    "controller",
    "permanent_controller",
    "under",
    "onto",
    "pitch",
}
#: Keys any action may carry (docs/scenarios.md, Results, errors and labels):
#: the runner's, not the action's.
COMMON = frozenset({"result", "error", "as"})
RESULTS = tuple(r.value for r in MoveResult)

PASS, FAIL, INVALID = "pass", "fail", "invalid"
EXIT_CODES = {PASS: 0, FAIL: 1, INVALID: 2}


@dataclass
class Outcome:
    """The result of running one scenario file."""

    file: str
    status: str
    name: str = ""
    message: str = ""
    line: int | None = None
    step: int | None = None
    steps: int = 0
    rules: list[str] = field(default_factory=list)
    context: Context | None = None

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.status]

    def describe(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        if self.status == PASS:
            return f"PASS {self.file} ({self.steps} steps)"
        if self.status == FAIL:
            return f"FAIL {where}: step {self.step}: {self.message}"
        return f"INVALID {where}: {self.message}"


class _Failed(Exception):
    def __init__(self, message: str, line: int | None, step: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.step = step


@dataclass
class Scenario:
    """A parsed scenario, ready to run."""

    file: str
    doc: YMap
    name: str
    ruleset: str
    players: tuple[str, ...]
    seed: int
    rules: list[str]
    cards: dict[str, CardDef]
    card_data: CardLookup | None = None
    #: names with several definitions under ``cards:``, by pitch
    variants: dict[str, dict[int, CardDef]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | Path) -> Scenario:
        return cls.from_doc(load_file(path), str(path))

    @classmethod
    def from_text(cls, text: str, file: str = "<scenario>") -> Scenario:
        return cls.from_doc(load_text(text, file), file)

    @classmethod
    def from_doc(cls, doc: Any, file: str) -> Scenario:
        def fail(node: Any, key: str | None, message: str) -> ScenarioError:
            line = node.line_of(key) if isinstance(node, YMap) and key else getattr(node, "line", 1)
            return ScenarioError(message, file=file, line=line)

        if not isinstance(doc, YMap):
            raise ScenarioError(
                "a scenario is a YAML mapping with name:, ruleset: and steps:",
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
        for key in ("name", "ruleset", "steps"):
            if key not in doc:
                raise fail(doc, None, f"missing required key {key}:")
        name = doc["name"]
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
        rules = doc.get("rules", [])
        if not isinstance(rules, list) or not all(isinstance(r, str | int | float) for r in rules):
            raise fail(doc, "rules", "rules: must be a list of rule ids")
        rules = [str(r) for r in rules]
        _check_rule_ids(doc, rules, found, fail)
        if not isinstance(doc["steps"], list):
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
        return cls(
            file,
            doc,
            name.strip(),
            ruleset,
            tuple(players),
            seed,
            rules,
            cards,
            card_data,
            variants,
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
        """Put the starting cards in place. Setup obeys each zone's limits and
        logs no events."""
        setup = self.doc.get("setup")
        if setup is None:
            return
        if not isinstance(setup, YMap):
            raise ctx.fail(self.doc, "setup", "setup: must map zones to lists of cards")
        later: list[tuple[YList, Any, Any, Any]] = []
        for zone_text, entries in setup.items():
            ref = ctx.zone_ref(setup, zone_text, zone_text)
            if entries is None:
                continue
            if not isinstance(entries, YList):
                raise ctx.fail(setup, zone_text, f"{zone_text}: must be a list of cards")
            for i, entry in enumerate(entries):
                if isinstance(entry, YMap):
                    entry = ctx.check_keys(entry, ENTRY_KEYS, "a setup entry")
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
        ruleset = game.ruleset
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

    # ------------------------------------------------------------------

    def run(self, handle_key: str | None = None, *, check: bool = True) -> Outcome:
        """Run the scenario: set it up, then every step in order.

        With ``check=False`` the scenario is only played, to show a player's
        view of it (``cardzones run --as``): expectations are not evaluated,
        and a step that cannot be applied (refused, or naming what is not
        there) is passed over, changing nothing. So nothing about the run
        depends on whether an author's expectation about a hidden card holds.
        Only a file that cannot be loaded or set up is invalid then."""
        ctx = self.new_context(handle_key)
        outcome = Outcome(self.file, PASS, self.name, rules=self.rules, context=ctx)
        # The line of the part being run, for an error that has none of its own.
        line: int = self.doc.line_of("setup") if "setup" in self.doc else self.doc.line or 1
        try:
            self.setup(ctx)
            table = table_of(ctx.game)
            steps = self.doc["steps"]
            if not steps:
                raise ctx.fail(
                    self.doc,
                    "steps",
                    "steps: is empty: a scenario needs at least one step, an action or an "
                    "expect: (see docs/scenarios.md)",
                )
            for number, step in enumerate(steps, 1):
                line = steps.line_of(number - 1) or line
                if check:
                    self._step(ctx, table, steps, number, step)
                else:
                    self._play(ctx, table, steps, number, step)
                outcome.steps = number
        except _Failed as failure:
            outcome.status = FAIL
            outcome.message = failure.message
            outcome.line = failure.line
            outcome.step = failure.step
        except ScenarioError as exc:
            outcome.status = INVALID
            outcome.message = exc.message
            outcome.line = exc.line if exc.line is not None else line
        except CardzonesError as exc:
            outcome.status = INVALID
            outcome.message = str(exc)
            outcome.line = line
        return outcome

    def _play(
        self, ctx: Context, table: Mapping[str, Action], steps: YList, number: int, step: Any
    ) -> None:
        """One step of an unchecked run: an action is applied if it can be;
        everything else is passed over."""
        if isinstance(step, YMap) and "expect" in step:
            return
        # A refused action changed nothing; a failed check is not looked at.
        with contextlib.suppress(_Failed, CardzonesError):
            self._step(ctx, table, steps, number, step)

    def _step(
        self, ctx: Context, table: Mapping[str, Action], steps: YList, number: int, step: Any
    ) -> None:
        line = steps.line_of(number - 1)
        if not isinstance(step, YMap) or not step:
            raise ScenarioError(
                "a step is a mapping with one action, expect: or mark:", file=self.file, line=line
            )
        keys = [k for k in step if k not in COMMON]
        if len(keys) != 1:
            raise ScenarioError(
                f"a step has exactly one action key, found {keys or 'none'}",
                file=self.file,
                line=line,
            )
        key = keys[0]
        args = step[key]
        if key == "expect":
            for extra in set(step) - {"expect"}:
                raise ctx.fail(step, extra, f"expect does not take {extra}:")
            problem = expect.check(ctx, args)
            if problem is not None:
                raise _Failed(problem, line, number)
            return
        if key == "mark":
            args = ctx.check_keys(args, {"card", "as"}, "mark")
            card = ctx.card(args, "card")
            label = ctx.label(args)
            if label is None:
                raise ctx.fail(args, None, "mark needs as: NAME")
            obj = ctx.game.obj(card)
            ctx.marks[label] = (card, obj.oid)
            return
        action = table.get(key)
        if action is None:
            raise ctx.fail(
                step,
                key,
                f"unknown action {key!r} for {self.ruleset}; actions are "
                f"{', '.join(sorted(table))}, expect, mark",
            )
        if args is None:
            args = YMap()
            args.key_lines = {}
            args.line = line
            args.file = self.file
        if isinstance(args, str | int) and not isinstance(args, bool):
            if action.bare is None:
                raise ctx.fail(step, key, f"{key} takes a mapping of its arguments, not {args!r}")
            # A bare value, as in `phase: upkeep`, is the action's one argument.
            scalar = YMap({action.bare: args})
            scalar.line, scalar.file = line, self.file
            scalar.key_lines = {action.bare: step.line_of(key)}
            args = scalar
        if not isinstance(args, YMap):
            raise ctx.fail(step, key, f"{key} takes a mapping of its arguments")
        # result/error/as may be written inside the action or beside it.
        options = {k: step[k] for k in COMMON if k in step}
        for k in COMMON:
            if k in args:
                if k in options:
                    raise ctx.fail(args, k, f"{k}: is given twice")
                options[k] = args[k]
        label = ctx.label(step if "as" in step else args)
        want_result = options.get("result")
        if want_result is not None and want_result not in RESULTS:
            raise ctx.fail(
                step if "result" in step else args,
                "result",
                f"result is one of {', '.join(RESULTS)}, not {want_result!r}",
            )
        want_error = options.get("error")
        if want_error is not None and not isinstance(want_error, str):
            raise ctx.fail(step if "error" in step else args, "error", "error: is a text")
        game = ctx.game
        before = game.copy() if want_error is not None else None
        try:
            done = self._run(ctx, action, args, table, line)
        except UnknownReference as exc:
            raise ScenarioError(f"step {number}: {key}: {exc}", file=self.file, line=line) from None
        except IllegalAction as exc:
            if want_error is None:
                kind = "needs a choice" if isinstance(exc, NeedsChoice) else "refused"
                raise ScenarioError(
                    f"step {number}: {key} {kind}: {exc}", file=self.file, line=line
                ) from None
            if want_error not in str(exc):
                raise _Failed(
                    f"{key} should be refused with an error containing "
                    f"{want_error!r}, found: {exc}",
                    line,
                    number,
                ) from None
            assert before is not None
            if not before.same_state(game):
                raise _Failed(f"{key} was refused but changed the state", line, number) from None
            return
        result = done.result
        if label is not None:
            # as: names what the action made: a card (a token, a layer), an effect, or both.
            if done.card is not None:
                ctx.labels[label] = done.card
            if done.effect is not None:
                ctx.effects[label] = done.effect
        if want_error is not None:
            raise _Failed(
                f"{key} should be refused with an error containing {want_error!r}, "
                f"but it was allowed (result {result.value})",
                line,
                number,
            )
        if (
            want_result is not None
            and result.value != want_result
            and not (key == "clear" and want_result == "moved" and result is MoveResult.CLEARED)
        ):
            raise _Failed(
                f"{key} should give result {want_result}, found {result.value}", line, number
            )

    def _run(
        self, ctx: Context, action: Action, args: YMap, table: Mapping[str, Action], line: int
    ) -> ActionResult:
        """Bind the step's arguments with the scenario's references and run the
        action; a bad argument is an invalid file, at its own line."""
        try:
            bound = bind(action, args, ctx.refs, table=table, reserved=COMMON)
            return action.run(ctx.game, bound)
        except ArgumentError as exc:
            raise ctx.fail_at(args, exc, line) from None


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
    """The definitions of a card with several colours, one per pitch (the
    colours of a fab card, as the card index has them); a set-up entry picks
    one with ``pitch:``."""
    if not any(p.name == "pitch" for p in ruleset.card_params):
        raise ScenarioError(
            f"card {name!r}: a list of definitions is for cards that differ by pitch, "
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
        pitch = cdef.stat("pitch")
        if pitch is None:
            raise ScenarioError(
                f"card {name!r}: each of its definitions gives its own pitch:",
                file=file,
                line=where,
            )
        if pitch in out:
            raise ScenarioError(
                f"card {name!r}: two definitions have pitch {pitch}", file=file, line=where
            )
        out[pitch] = cdef
    return out


def same_state(a: Game, b: Game) -> bool:
    """Whether two games hold exactly the same state (:meth:`Game.same_state`)."""
    return a.same_state(b)


INTERNAL = "internal error"


def run_file(path: str | Path, *, handle_key: str | None = None, check: bool = True) -> Outcome:
    """Run one scenario file; never raises for a bad file. ``handle_key`` fixes
    the handles its views give (a new secret by default); ``check=False`` only
    plays it (:meth:`Scenario.run`)."""
    return _guarded(str(path), lambda: Scenario.load(path), handle_key, check)


def run_text(
    text: str, file: str = "<scenario>", *, handle_key: str | None = None, check: bool = True
) -> Outcome:
    """Run a scenario given as text."""
    return _guarded(file, lambda: Scenario.from_text(text, file), handle_key, check)


def _guarded(file: str, load: Any, handle_key: str | None = None, check: bool = True) -> Outcome:
    try:
        scenario = load()
    except ScenarioError as exc:
        return Outcome(
            file, INVALID, message=exc.message, line=exc.line if exc.line is not None else 1
        )
    except CardzonesError as exc:
        return Outcome(file, INVALID, message=str(exc), line=1)
    except Exception as exc:  # an engine bug must still not print a traceback
        return Outcome(file, INVALID, message=f"{INTERNAL}: {type(exc).__name__}: {exc}", line=1)
    try:
        return scenario.run(handle_key, check=check)  # type: ignore[no-any-return]
    except Exception as exc:
        return Outcome(file, INVALID, message=f"{INTERNAL}: {type(exc).__name__}: {exc}", line=1)


def find_scenarios(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Every ``*.scenario.yaml`` under the given files and folders, sorted."""
    for path in paths:
        path = Path(path)
        if path.is_dir():
            yield from sorted(path.rglob("*.scenario.yaml"))
        else:
            yield path


def exit_code(outcomes: Iterable[Outcome]) -> int:
    return max((o.exit_code for o in outcomes), default=0)
