"""The command line: ``cardzones check``, ``run``, ``demo``, ``rulesets``, ``actions``,
``coverage``, ``bench``, and the online table's ``serve``, ``export`` and ``replay``.

Exit codes follow docs/scenarios.md: 0 every expectation holds, 1 an expectation
failed, 2 a file is invalid. No command prints a traceback for bad input.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from cardzones.cli.output import console, errors
from cardzones.cli.table import export, open_store, replay, serve, table_extra
from cardzones.cli_cards import cards_app
from cardzones.cli_options import DB_HELP, OneJson
from cardzones.errors import CardzonesError
from cardzones.scenario.runner import INVALID, PASS, Outcome, exit_code, find_scenarios, run_file

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="cardzones: a rules engine for card locations, for every rule set installed "
    "(`cardzones rulesets` lists them).",
)
app.add_typer(cards_app, name="cards")


def _version() -> str:
    """The installed version of cardzones (the package's own when not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cardzones")
    except PackageNotFoundError:
        from cardzones import __version__

        return __version__


def _print_version(value: bool) -> None:
    if value:
        console.print(f"cardzones {_version()}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="print the version of cardzones and exit",
        ),
    ] = False,
) -> None:
    """cardzones: a rules engine for card locations (Flesh and Blood, Redemption, and
    any rule set installed beside it: see `cardzones rulesets`)."""


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
    as_player: Annotated[
        str | None,
        typer.Option("--as", help="show only what this player may know (checks nothing)"),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the view as JSON")] = False,
    legal: Annotated[
        bool, typer.Option("--legal", help="with --as: also the actions that player may take now")
    ] = False,
    judge: Annotated[
        bool, typer.Option("--judge", help="with --legal: a judge's actions too (making a zone...)")
    ] = False,
) -> None:
    """Run one scenario and show the final board and the event log.

    Without --as it is the author's run: the board shows every card, hidden
    ones included, and a failed expectation stops the run and is reported
    (exit 1; exit 2 for an invalid file).

    With --as PLAYER it shows exactly what that player may know, and nothing
    that depends on what they may not see: the steps are played without
    checking any expectation (a step that cannot be applied changes nothing),
    so the board, the output and the exit code (0) are the same whether an
    expectation about a hidden card holds or not. To check a file, use
    `cardzones check FILE`; to show a player's view of it, `run --as`. With
    --legal, the actions that player may take in the final position follow,
    each as a step naming cards as the player's view does; with --judge, the
    judge's actions of the rule set's table too.
    """
    from cardzones.board import render
    from cardzones.kernel.logview import log_document, omniscient_log
    from cardzones.kernel.views import omniscient_view, view

    outcome = run_file(file, check=as_player is None)
    ctx = outcome.context
    if ctx is None or (as_player is not None and outcome.status != PASS):
        _report_as(outcome, as_player)
        raise typer.Exit(outcome.exit_code)
    game = ctx.game
    if as_player is not None and as_player not in game.players:
        errors.print(
            f"[red]INVALID[/red] --as {as_player}: players are {', '.join(game.players)}",
            soft_wrap=True,
        )
        raise typer.Exit(2)
    if legal and as_player is None:
        errors.print("[red]INVALID[/red] --legal needs --as PLAYER: legal actions are a player's")
        raise typer.Exit(2)
    if judge and not legal:
        errors.print("[red]INVALID[/red] --judge goes with --legal: it adds a judge's actions")
        raise typer.Exit(2)
    if as_player is None:
        board, log = omniscient_view(game), omniscient_log(game)
    else:
        board, log = view(game, as_player), log_document(game, as_player)["entries"]
    acts = _legal_acts(ctx, as_player, judge) if legal and as_player is not None else None
    if as_json:
        out: dict[str, Any] = {"format": RUN_FORMAT, "view": board, "log": log}
        if acts is not None:
            out["legal"] = acts
        print(json.dumps(out, indent=2))
    else:
        console.print(render(board, log, title=outcome.name or str(file)))
        if acts is not None:
            console.print(_legal_table(acts, as_player or ""))
    if as_player is None:
        _report(outcome, quiet=as_json)
        raise typer.Exit(outcome.exit_code)
    if not as_json:
        errors.print(
            f"[dim]{escape(as_player)}'s view: not checked (run `cardzones check` to check "
            "the file)[/dim]",
            soft_wrap=True,
        )
    raise typer.Exit(0)


#: The form of ``cardzones run --json``: the view and log of docs/json.md.
RUN_FORMAT = "cardzones-run/1"


def _legal_acts(ctx: Any, player: str, judge: bool = False) -> list[dict[str, Any]]:
    """The legal actions of ``player`` in the context's game, as steps (a
    judge's actions too with ``judge``)."""
    out: list[dict[str, Any]] = []
    for action in ctx.game.legal_actions(player, judge=judge):
        try:
            act = action.to_json(ctx.game, ctx.effects)
        except CardzonesError:
            continue  # an effect without a label: no step can name it
        out.append({"act": act, "result": None if action.result is None else action.result.value})
    return out


def _legal_table(acts: list[dict[str, Any]], player: str) -> Any:
    from rich.table import Table

    table = Table(title=f"what {player} may do now: {len(acts)} actions", title_justify="left")
    table.add_column("action", style="bold")
    table.add_column("arguments", overflow="fold")
    table.add_column("result")
    for entry in acts:
        ((name, args),) = entry["act"].items()
        shown = ", ".join(f"{k}: {json.dumps(v)}" for k, v in args.items())
        table.add_row(escape(name), escape(shown), entry["result"] or "[dim]-[/dim]")
    return table


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
    from cardzones.kernel.logview import log_view, omniscient_log
    from cardzones.kernel.views import omniscient_view, view

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
def rulesets(
    as_json: OneJson = False,
) -> None:
    """List the rule sets that can be used: those that ship with cardzones and
    those other packages install (entry-point group cardzones.rulesets)."""
    from rich.table import Table

    from cardzones.rulesets.registry import get_ruleset, ruleset_names, ruleset_origin

    rows: list[dict[str, Any]] = []
    for name in ruleset_names():
        try:
            ruleset = get_ruleset(name)
        except CardzonesError as exc:
            rows.append({"name": name, "error": str(exc)})
            continue
        doc = (type(ruleset).__doc__ or "").strip().splitlines()
        rows.append(
            {
                "name": name,
                "from": ruleset_origin(name),
                "about": doc[0] if doc else "",
                "zones": sorted(ruleset.zone_specs),
                "actions": sorted(ruleset.actions),
            }
        )
    if as_json:
        print(json.dumps({"rulesets": rows}))
        return
    table = Table(title="rule sets")
    for column in ("ruleset", "from", "zone types", "actions"):
        table.add_column(column, overflow="fold")
    for row in rows:
        if "error" in row:
            table.add_row(
                escape(row["name"]), "[red]cannot be loaded[/red]", escape(row["error"]), ""
            )
            continue
        table.add_row(
            escape(row["name"]) + (f"\n[dim]{escape(row['about'])}[/dim]" if row["about"] else ""),
            escape(row["from"]),
            escape(" ".join(row["zones"])),
            escape(" ".join(row["actions"])),
        )
    console.print(table)


@app.command()
def actions(
    ruleset: Annotated[str | None, typer.Argument(help="one rule set (default: all)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="the tables as JSON")] = False,
) -> None:
    """Show the action tables: each action, its parameters and what they take.
    The scenario runner and a table server read exactly these tables."""
    from rich.table import Table

    from cardzones.rulesets.registry import get_ruleset, ruleset_names

    names = [ruleset] if ruleset is not None else list(ruleset_names())
    tables = {name: get_ruleset(name).actions for name in names}
    if as_json:
        data = {name: [a.to_json() for a in table.values()] for name, table in tables.items()}
        print(json.dumps({"actions": data}))
        return
    for name, table in tables.items():
        out = Table(title=f"{name} actions", show_lines=True)
        out.add_column("action")
        out.add_column("parameters", overflow="fold")
        out.add_column("what it does", overflow="fold")
        for action in table.values():
            params = "\n".join(_param_line(p.to_json()) for p in action.params) or "-"
            groups = [
                f"{'exactly' if g.exactly else 'at least'} one of {', '.join(g.names)}"
                for g in action.one_of
            ]
            about = action.doc + "".join(f"\n[dim]{escape(g)}[/dim]" for g in groups)
            if action.turn_player:
                about += "\n[dim]only the turn player takes it at a table[/dim]"
            if action.judge:
                about += "\n[dim]a judge's correction: listed as legal only when asked for[/dim]"
            if action.rules:
                about += f"\n[dim]rules: {escape(' '.join(action.rules))}[/dim]"
            out.add_row(escape(action.name), params, about)
        console.print(out)


def _param_line(param: dict[str, Any]) -> str:
    """One parameter as a line: ``name: kind``, what it takes, and its doc."""
    text = f"[bold]{escape(param['name'])}[/bold]: {param['kind']}"
    if param.get("options"):
        text += f" ({escape(' | '.join(map(str, param['options'])))})"
    if param.get("required"):
        text += " [red]required[/red]"
    elif "default" in param:
        text += f" = {escape(str(param['default']))}"
    if param.get("role"):
        text += " " + escape(f"[{param['role'].replace('_', ' ')}]")
    if param.get("fields"):
        text += " {" + ", ".join(escape(f["name"]) for f in param["fields"]) + "}"
    if param.get("doc"):
        text += f"\n  [dim]{escape(param['doc'])}[/dim]"
    return text


@app.command()
def coverage(
    paths: Annotated[list[Path] | None, typer.Argument(help="scenario folders")] = None,
    ruleset: Annotated[
        list[str] | None, typer.Option("--ruleset", "-r", help="only this rule set (repeatable)")
    ] = None,
    as_json: OneJson = False,
) -> None:
    """Print every rule id the rule sets implement and the scenarios that name it.
    Exit 1 if an id has none."""
    from cardzones.coverage import coverage_json, coverage_report, coverage_rows, missing

    rows = coverage_rows(paths or [Path("scenarios")], ruleset or None)
    gaps = missing(rows)
    if as_json:
        print(json.dumps(coverage_json(rows), indent=2))
    else:
        for part in coverage_report(rows, console.width):
            console.print(part)
        per_ruleset = {r.ruleset: 0 for r in rows}
        for row in rows:
            per_ruleset[row.ruleset] += 1
        counts = ", ".join(f"{n} {name}" for name, n in per_ruleset.items())
        console.print(
            f"{len(rows)} rule ids ({counts}); {len(rows) - len(gaps)} named by a scenario"
        )
    if gaps:
        errors.print(f"[red]{len(gaps)} rule id(s) without a scenario:[/red] {', '.join(gaps)}")
        raise typer.Exit(1)


# ----------------------------------------------------------------------
# The online table
# ----------------------------------------------------------------------


def _bench_table(
    db: str | None,
    tables: int | None,
    seconds: float | None,
    quick: bool,
    as_json: bool,
    abuse: bool = False,
    idle: int | None = None,
) -> None:
    """Run the table server's load benchmark (cardzones/bench/program.py) as its
    own program, as ``serve`` runs the app: nothing imports the web layer."""
    table_extra()
    import subprocess
    import sys

    from rich.table import Table as RichTable

    if db is not None:
        open_store(db).close()  # a bad URL is a clear error before any server starts
    command = [sys.executable, "-m", "cardzones.bench.program"]
    for flag, value in (("--db", db), ("--tables", tables), ("--seconds", seconds)):
        if value is not None:
            command += [flag, str(value)]
    if quick:
        command.append("--quick")
    if abuse:
        command.append("--abuse")
        if idle is not None:
            command += ["--idle", str(idle)]
    status = "other tables alone, then under abuse" if abuse else "the table, then the floors"
    with console.status(f"cardzones bench --table: {status}"):
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        reason = done.stderr.strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        errors.print(f"[red]error[/red]: {escape(reason[0])}", soft_wrap=True)
        raise typer.Exit(2)
    figures = json.loads(done.stdout)
    if as_json:
        print(json.dumps(figures))
        return
    if abuse:
        _abuse_report(figures)
        return
    ratios = figures["ratios"]
    out = RichTable(
        title=(
            f"cardzones bench --table ({figures['store']}, {figures['tables']} tables, "
            f"{figures['connections']} seats, {figures['seconds']:g} s a phase)"
        ),
        caption=(
            f"acts/s: {ratios['acts_per_echo_frame']:.3f} of the echo's frames/s, "
            f"{ratios['acts_per_commit']:.3f} of the store's commits/s; "
            f"p50 {ratios['p50_vs_echo']:.1f}x the echo's, {ratios['p50_vs_commit']:.1f}x a "
            f"commit's; {figures['table']['refused']} refused. Capacity (open loop, a seat "
            f"acting every {figures['capacity']['every_s']:g} s, its board asking for the legal "
            f"acts on the card first): {figures['capacity']['tables']} tables at act-to-ack "
            f"p99 <= {figures['capacity']['target_p99_ms']:g} ms. An act after "
            f"{figures['act_growth']['late']['events'][0] - 1:,} events: p50 "
            f"{figures['act_growth']['ratios']['p50_fresh']:.2f}x a new table's at the same "
            f"time, {figures['act_growth']['ratios']['p50']:.2f}x the same table's first acts. "
            f"Server CPU: an act {figures['cpu']['act_cpu_us']} us "
            f"({ratios['act_cpu_per_echo_frame']} echo frames), a menu "
            f"{figures['cpu']['menu_cpu_us']} us ({ratios['menu_cpu_per_echo_frame']}) on its "
            f"socket, {figures['cpu']['http_menu_cpu_us']} us "
            f"({ratios['http_menu_cpu_per_echo_frame']}) over HTTP"
        ),
    )
    for column in ("", "per second", "p50 ms", "p99 ms"):
        out.add_column(column, justify="right" if column else "left")
    for key, label, unit in (
        ("table", "acts (table)", "acts_per_s"),
        ("echo", "echo floor", "frames_per_s"),
        ("insert_commit", "insert+commit floor", "commits_per_s"),
    ):
        part = figures[key]
        out.add_row(label, f"{part[unit]:,.0f}", f"{part['p50_ms']:.2f}", f"{part['p99_ms']:.2f}")
    console.print(out)


def _abuse_report(figures: dict[str, Any]) -> None:
    from rich.table import Table as RichTable

    ratios = figures["ratios"]
    out = RichTable(
        title=(
            f"cardzones bench --table --abuse ({figures['store']}, {figures['tables']} other "
            f"tables, {figures['idle_sockets']} idle sockets, {figures['seconds']:g} s a phase)"
        ),
        caption=(
            f"under abuse: p50 {ratios['p50']:.2f}x, p99 {ratios['p99']:.2f}x the same tables "
            f"alone (the aim: 2x or less); the abuser's answers: "
            + ", ".join(f"{k} {v}" for k, v in figures["abuser"].items())
        ),
    )
    for column in ("", "acts per second", "p50 ms", "p99 ms"):
        out.add_column(column, justify="right" if column else "left")
    for key, label in (("alone", "other tables alone"), ("abused", "under abuse")):
        part = figures[key]
        out.add_row(
            label, f"{part['acts_per_s']:,.0f}", f"{part['p50_ms']:.2f}", f"{part['p99_ms']:.2f}"
        )
    console.print(out)


@app.command()
def bench(
    quick: Annotated[bool, typer.Option("--quick", help="a short run (under 45 s)")] = False,
    as_json: OneJson = False,
    objects: Annotated[
        str, typer.Option("--objects", help="sizes of position, e.g. 126,500,2000 for growth")
    ] = "126",
    table: Annotated[
        bool,
        typer.Option("--table", help="the table server under load, against echo and store floors"),
    ] = False,
    db: Annotated[
        str | None, typer.Option("--db", help="with --table: " + DB_HELP + " (a new file)")
    ] = None,
    tables: Annotated[
        int | None, typer.Option("--tables", min=1, help="with --table: tables at once")
    ] = None,
    seconds: Annotated[
        float | None, typer.Option("--seconds", min=0.1, help="with --table: each phase's time")
    ] = None,
    abuse: Annotated[
        bool,
        typer.Option(
            "--abuse", help="with --table: other tables' latency alone and beside an abuser"
        ),
    ] = False,
    idle: Annotated[
        int | None, typer.Option("--idle", min=0, help="with --abuse: the abuser's idle sockets")
    ] = None,
) -> None:
    """Measure moves, undo, copies and views against floors measured in the same run.

    With --table: many tables at once over loopback, acts per second and
    act-to-ack latency, against a bare WebSocket echo and a bare
    insert-and-commit on the same store. With --abuse: a few tables' act-to-ack
    latency alone, then while one abusive client does all it may at once, as a
    ratio (docs/performance.md)."""
    if abuse and not table:
        raise typer.BadParameter("--abuse goes with --table", param_hint="--abuse")
    if table:
        _bench_table(db, tables, seconds, quick, as_json, abuse, idle)
        return
    from cardzones.bench import parse_sizes, report, run_bench

    try:
        sizes = parse_sizes(objects)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--objects") from None
    figures = run_bench(quick=quick, objects=sizes, progress=True)
    if as_json:
        print(json.dumps(figures))
    else:
        console.print(report(figures))


for _command in (serve, export, replay):
    app.command()(_command)


def main() -> Any:
    try:
        return app()
    except CardzonesError as exc:  # never a traceback for bad input
        errors.print(f"[red]error[/red]: {exc}")
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
