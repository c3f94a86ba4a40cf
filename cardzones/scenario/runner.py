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
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from cardzones.acts.actions import Action, ActionResult, ArgumentError, table_of
from cardzones.acts.binding import bind
from cardzones.errors import (
    CardzonesError,
    IllegalAction,
    NeedsChoice,
    ScenarioError,
    UnknownReference,
)
from cardzones.kernel.game import Game
from cardzones.kernel.results import MoveResult
from cardzones.position.context import Context
from cardzones.position.loader import YList, YMap, load_file, load_text
from cardzones.position.start import StartPosition
from cardzones.scenario import expect

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
class Scenario(StartPosition):
    """A parsed scenario, ready to run: a start position
    (:class:`~cardzones.position.start.StartPosition`) and its steps."""

    REQUIRED: ClassVar[tuple[str, ...]] = ("name", "ruleset", "steps")
    NOT_A_MAPPING: ClassVar[str] = "a scenario is a YAML mapping with name:, ruleset: and steps:"

    @classmethod
    def load(cls, path: str | Path) -> Scenario:
        return cls.from_doc(load_file(path), str(path))

    @classmethod
    def from_text(cls, text: str, file: str = "<scenario>") -> Scenario:
        return cls.from_doc(load_text(text, file), file)

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
