"""The command line: ``cardzones check``, ``run``, ``demo``, ``coverage`` and ``bench``.

Exit codes follow SCENARIOS.md: 0 every expectation holds, 1 an expectation
failed, 2 a file is invalid. No command prints a traceback for bad input.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from cardzones.cli_cards import cards_app
from cardzones.errors import CardzonesError
from cardzones.scenario.runner import INVALID, PASS, Outcome, exit_code, find_scenarios, run_file

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="cardzones: a rules engine for card locations (Flesh and Blood, Redemption).",
)
app.add_typer(cards_app, name="cards")
console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)


def _where(outcome: Outcome) -> str:
    # File names and messages are the user's text, never Rich markup.
    where = f"{outcome.file}:{outcome.line}" if outcome.line is not None else outcome.file
    return escape(where)


def _report(outcome: Outcome, quiet: bool = False) -> None:
    if outcome.status == PASS:
        if not quiet:
            console.print(f"[green]PASS[/green] {escape(outcome.file)} ({outcome.steps} steps)")
        return
    where, message = _where(outcome), escape(outcome.message)
    if outcome.status == INVALID:
        errors.print(f"[red]INVALID[/red] {where}: {message}", soft_wrap=True)
    else:
        errors.print(f"[red]FAIL[/red] {where}: step {outcome.step}: {message}", soft_wrap=True)


@app.command()
def check(
    paths: Annotated[list[Path], typer.Argument(help="scenario files or folders")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="only report problems")] = False,
) -> None:
    """Run every scenario; exit 0 if all hold, 1 if an expectation failed, 2 if a file
    is invalid."""
    outcomes = []
    for path in paths:
        if not path.exists():
            errors.print(f"[red]INVALID[/red] {escape(str(path))}: no such file or folder")
            outcomes.append(Outcome(str(path), INVALID, message="no such file or folder"))
            continue
    files = list(find_scenarios(p for p in paths if p.exists()))
    if not files and not outcomes:
        errors.print("no *.scenario.yaml files found")
        raise typer.Exit(2)
    for file in files:
        outcome = run_file(file)
        outcomes.append(outcome)
        _report(outcome, quiet)
    passed = sum(1 for o in outcomes if o.status == PASS)
    console.print(f"{passed} passed, {len(outcomes) - passed} failed")
    raise typer.Exit(exit_code(outcomes))


@app.command()
def run(
    file: Annotated[Path, typer.Argument(help="one scenario file")],
    as_player: Annotated[str | None, typer.Option("--as", help="show this player's view")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the view as JSON")] = False,
) -> None:
    """Run one scenario and show the final board and the event log.

    Without --as the board is the author's: every card, hidden ones included.
    With --as PLAYER it is exactly what that player may know, and nothing else
    is printed: a failure is reported by its place only, since its message may
    name cards that player may not see.
    """
    from cardzones.board import render
    from cardzones.kernel.views import log_view, omniscient_log, omniscient_view, view

    outcome = run_file(file)
    ctx = outcome.context
    if ctx is None:
        _report_as(outcome, as_player)
        raise typer.Exit(outcome.exit_code)
    game = ctx.game
    if as_player is not None and as_player not in game.players:
        errors.print(
            f"[red]INVALID[/red] --as {as_player}: players are {', '.join(game.players)}",
            soft_wrap=True,
        )
        raise typer.Exit(2)
    if as_player is None:
        board, log = omniscient_view(game), omniscient_log(game)
    else:
        board, log = view(game, as_player), log_view(game, as_player)
    if as_json:
        print(json.dumps({"view": board, "log": log}, indent=2))
    else:
        console.print(render(board, log, title=outcome.name or str(file)))
    _report_as(outcome, as_player, quiet=as_json)
    raise typer.Exit(outcome.exit_code)


def _report_as(outcome: Outcome, player: str | None, quiet: bool = False) -> None:
    """The outcome for the author (``player`` None), or redacted for a player."""
    if player is None or outcome.status == PASS:
        _report(outcome, quiet)
        return
    where = _where(outcome)
    step = f": step {outcome.step}" if outcome.step is not None else ""
    label = "INVALID" if outcome.status == INVALID else "FAIL"
    errors.print(
        f"[red]{label}[/red] {where}{step} (run without --as for the details)", soft_wrap=True
    )


def _examples() -> list[Path]:
    root = resources.files("cardzones") / "examples"
    return sorted(Path(str(p)) for p in root.iterdir() if p.name.endswith(".scenario.yaml"))


@app.command()
def demo() -> None:
    """Run the bundled example scenarios and show their boards."""
    from cardzones.board import render
    from cardzones.kernel.views import log_view, omniscient_log, omniscient_view, view

    outcomes = []
    for file in _examples():
        outcome = run_file(file)
        outcomes.append(outcome)
        ctx = outcome.context
        console.rule(f"[bold]{outcome.name or file.name}")
        if ctx is not None:
            game = ctx.game
            console.print(
                render(
                    omniscient_view(game),
                    omniscient_log(game),
                    title=f"{game.ruleset.name}: the author's board",
                    limit=12,
                )
            )
            other = game.players[-1]
            console.print(
                render(
                    view(game, other), log_view(game, other), title=f"what {other} sees", limit=6
                )
            )
        _report(outcome)
    passed = sum(1 for o in outcomes if o.status == PASS)
    console.print(f"{passed} passed, {len(outcomes) - passed} failed")
    raise typer.Exit(exit_code(outcomes))


@app.command()
def coverage(
    paths: Annotated[list[Path] | None, typer.Argument(help="scenario folders")] = None,
) -> None:
    """Print every rule id the rule sets implement and the scenarios that name it.
    Exit 1 if an id has none."""
    from cardzones.coverage import coverage_table, missing

    table, rows = coverage_table(paths or [Path("scenarios")])
    console.print(table)
    gaps = missing(rows)
    per_ruleset = {r.ruleset: 0 for r in rows}
    for row in rows:
        per_ruleset[row.ruleset] += 1
    counts = ", ".join(f"{n} {name}" for name, n in per_ruleset.items())
    console.print(f"{len(rows)} rule ids ({counts}); {len(rows) - len(gaps)} named by a scenario")
    if gaps:
        errors.print(f"[red]{len(gaps)} rule id(s) without a scenario:[/red] {', '.join(gaps)}")
        raise typer.Exit(1)


@app.command()
def bench(
    quick: Annotated[bool, typer.Option("--quick", help="a short run (under 45 s)")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object")] = False,
) -> None:
    """Measure moves, copies, undo, views and scenarios per second."""
    from cardzones.bench import report, run_bench

    figures = run_bench(quick=quick)
    if as_json:
        print(json.dumps(figures))
    else:
        console.print(report(figures))


def main() -> Any:
    try:
        return app()
    except CardzonesError as exc:  # never a traceback for bad input
        errors.print(f"[red]error[/red]: {exc}")
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
