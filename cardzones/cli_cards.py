"""``cardzones cards``: the local card index of real cards.

    cardzones cards import PATH [--format fab-json|fab-csv|redemption-lackey]
    cardzones cards update fab|redemption [--url URL]
    cardzones cards search TEXT [--ruleset fab|redemption] [--json]
    cardzones cards show NAME [--variant N] [--ruleset fab|redemption] [--json]
    cardzones cards status [--json]
    cardzones cards deck FILE [--player NAME] [--json]

``--variant N`` picks a card's variant by its number, and goes by each rule
set's word for its variants too (fab's ``--pitch N``).

Bad input exits 2 with a message and no traceback.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
import yaml
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cardzones.cards.errors import CardDataError, NoCardIndex
from cardzones.cards.importers import ImportReport, format_names
from cardzones.cards.index import CardIndex, CardRecord, card_games, card_to_json, index_path
from cardzones.cli_options import CardGame, PrintJson
from cardzones.rulesets import get_ruleset

if TYPE_CHECKING:
    from rich.progress import TaskID

cards_app = typer.Typer(
    no_args_is_help=True,
    help="The local card index: import, download, search and show real cards.",
)
console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)

#: Files at least this big get a progress bar while they are read.
BIG_FILE = 512 * 1024
#: How many skipped rows an import lists one by one.
SHOWN_PROBLEMS = 20


def _fail(message: str) -> typer.Exit:
    errors.print(f"[red]error[/red]: {escape(message)}", soft_wrap=True)
    return typer.Exit(2)


@contextmanager
def _progress(*labels: str, show: bool = True) -> Iterator[list[Callable[[int, int], None] | None]]:
    """One Rich progress display on a terminal, with a bar for each label that
    appears when its (done, total) callback is first called."""
    if not show or not errors.is_terminal:
        yield [None for _ in labels]
        return
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
        console=errors,
        transient=True,
    ) as bar:

        def callback(label: str) -> Callable[[int, int], None]:
            task: list[TaskID] = []

            def update(done: int, total: int) -> None:
                if not task:
                    task.append(bar.add_task(label, total=total or None))
                bar.update(task[0], completed=done, total=total or None)

            return update

        yield [callback(label) for label in labels]


def _print_report(report: ImportReport, origin: str | None = None) -> None:
    console.print(
        f"imported {report.imported} {report.ruleset} cards from {escape(origin or report.file)} "
        f"({report.format}): read {report.read}, skipped {report.skipped}, "
        f"in {report.seconds:.2f} s",
        soft_wrap=True,
    )
    for problem in report.problems[:SHOWN_PROBLEMS]:
        errors.print(
            f"{escape(report.file)}:{problem.line}: {escape(problem.message)}; skipped",
            soft_wrap=True,
        )
    if report.skipped > SHOWN_PROBLEMS:
        errors.print(f"... and {report.skipped - SHOWN_PROBLEMS} more skipped rows")
    # A path is printed whole, never folded, so that it can be copied.
    console.print(f"card index: {escape(str(report.index))}", soft_wrap=True)


@cards_app.command("import")
def import_(
    path: Annotated[Path, typer.Argument(help="card.json, card.csv or carddata.txt")],
    fmt: Annotated[
        str | None,
        typer.Option("--format", help="the file's format (detected if left out)"),
    ] = None,
) -> None:
    """Import a card database file into the card index, replacing that game's cards."""
    from cardzones.cards.importers import import_file

    formats = format_names()
    if fmt is not None and fmt not in formats:
        raise _fail(f"unknown format {fmt!r}; formats are {', '.join(formats)}")
    if not path.is_file():
        raise _fail(f"{path}: no such file")
    big = path.stat().st_size >= BIG_FILE
    try:
        with _progress(f"reading {path.name}", show=big) as (progress,):
            report = import_file(path, fmt, progress=progress)
    except CardDataError as exc:
        raise _fail(str(exc)) from None
    _print_report(report)


@cards_app.command()
def update(
    game: Annotated[str, typer.Argument(help="the game: a rule set with card data")],
    url: Annotated[
        str | None, typer.Option("--url", help="download from this address instead")
    ] = None,
) -> None:
    """Download the newest card database of a game and import it.

    The address is the game's GitHub repository on raw.githubusercontent.com;
    CARDZONES_DOWNLOAD_BASE replaces that host, and --url the whole address.
    """
    from cardzones.cards.download import update as do_update

    games = card_games()
    if game not in games:
        raise _fail(f"unknown game {game!r}; games are {', '.join(games)}")
    try:
        with _progress(f"downloading {game}", "importing") as (fetched, read):
            report = do_update(game, url=url, download_progress=fetched, import_progress=read)
    except CardDataError as exc:
        raise _fail(str(exc)) from None
    _print_report(report)


def _open_index() -> CardIndex:
    try:
        return CardIndex.open()
    except NoCardIndex:
        raise _fail(
            f"there is no card index yet (looked in {index_path()}); import cards with "
            f"`cardzones cards update {'|'.join(card_games())}` or `cardzones cards import FILE`"
        ) from None
    except CardDataError as exc:
        raise _fail(str(exc)) from None


def _games(index: CardIndex, ruleset: str | None) -> list[str]:
    every = card_games()
    if ruleset is not None and ruleset not in every:
        raise _fail(f"unknown ruleset {ruleset!r}; use one of {', '.join(every)}")
    games = [ruleset] if ruleset else [g for g in every if index.count(g)]
    if not games or not any(index.count(g) for g in games):
        which = ruleset or " or ".join(every)
        raise _fail(
            f"the card index has no {which} cards; import them with "
            f"`cardzones cards update {ruleset or 'GAME'}` or `cardzones cards import FILE`"
        )
    return games


def _summary(record: CardRecord) -> str:
    """The card's stats but the one its variants are told apart by, which
    its own column shows."""
    key = get_ruleset(record.ruleset).variants.key
    return " ".join(f"{k} {v}" for k, v in sorted(record.cdef.stats.items()) if k != key)


def _record_json(record: CardRecord) -> dict[str, Any]:
    out: dict[str, Any] = {"ruleset": record.ruleset, "name": record.name}
    variants = get_ruleset(record.ruleset).variants
    if record.number is not None and variants:
        out[variants.key] = record.number
    if get_ruleset(record.ruleset).named_printings and record.variant:
        out["set"] = record.variant
    out["card"] = card_to_json(record.cdef)
    source = {k: v for k, v in record.source.items() if k != "aliases"}
    if record.aliases:
        out["other_names"] = list(record.aliases)
    out["source"] = source
    return out


#: The command line's words for a variant's number besides ``--variant``:
#: each rule set's own key for its variants (``Variants.key``).
VARIANT_OPTIONS = tuple(
    dict.fromkeys(
        f"--{v.key}" for v in (get_ruleset(g).variants for g in card_games()) if v.key != "variant"
    )
)


def _variant_word(games: list[str]) -> str:
    """What the games call a variant's number (fab's pitch), or ``variant``."""
    keys = {get_ruleset(g).variants.key for g in games} - {""}
    return keys.pop() if len(keys) == 1 else "variant"


def _variant_header(games: list[str]) -> str:
    """The heading of the column that tells apart cards of one name: each
    game's word for its variants and ``set`` where cards go by printing."""
    rulesets = [get_ruleset(g) for g in games]
    words = [r.variants.key for r in rulesets if r.variants]
    words += ["set"] if any(r.named_printings for r in rulesets) else []
    return " / ".join(dict.fromkeys(words)) or "variant"


@cards_app.command()
def search(
    text: Annotated[str, typer.Argument(help="words of a name, a type or the rules text")],
    ruleset: CardGame = None,
    limit: Annotated[int, typer.Option("--limit", help="at most this many cards")] = 20,
    as_json: PrintJson = False,
) -> None:
    """Search the card index: names first, then types and rules text."""
    with _open_index() as index:
        games = _games(index, ruleset)
        try:
            found = index.search(text, ruleset if ruleset else None, max(1, limit))
        except CardDataError as exc:
            raise _fail(str(exc)) from None
        found = [r for r in found if r.ruleset in games]
    if as_json:
        print(json.dumps([_record_json(r) for r in found], indent=2))
        return
    if not found:
        console.print(f"no card matches {escape(text)!r}")
        near = _closest(text, games)
        if near:
            console.print(f"closest names: {escape(', '.join(map(repr, near)))}")
        raise typer.Exit(1)
    table = Table("game", "name", _variant_header(games), "types", "stats", box=None)
    for record in found:
        table.add_row(
            record.ruleset,
            escape(record.name),
            escape(record.key),
            escape(" ".join(sorted(record.cdef.types))),
            escape(_summary(record)),
        )
    console.print(table)


@cards_app.command()
def show(
    name: Annotated[str, typer.Argument(help="the card's name")],
    number: Annotated[
        int | None,
        typer.Option(
            "--variant",
            *VARIANT_OPTIONS,
            help="the number of a variant, in a game whose cards of one name have several",
        ),
    ] = None,
    ruleset: CardGame = None,
    as_json: PrintJson = False,
) -> None:
    """Show a card as the engine sees it, and where it came from.

    Types, subtypes and stats are in the engine's words. A name with several
    variants or printings shows each; an unknown name lists the closest names.
    """
    with _open_index() as index:
        games = _games(index, ruleset)
        found: list[CardRecord] = []
        for game in games:
            records = index.lookup(game, name)
            if number is not None:
                records = [r for r in records if r.number == number]
            found += records
        imports = {game: index.info(game) for game in games}
    if not found:
        near = _closest(name, games)
        what = (
            f"{name!r} with {_variant_word(games)} {number}" if number is not None else repr(name)
        )
        hint = f"; closest: {', '.join(map(repr, near))}" if near else ""
        raise _fail(f"no card called {what} in the card index{hint}")
    if as_json:
        print(json.dumps([_record_json(r) for r in found], indent=2))
        return
    for record in found:
        info = imports.get(record.ruleset)
        _show_record(record, f"{info.file} ({info.imported_at})" if info else "?")


def _closest(name: str, games: list[str]) -> list[str]:
    """The names nearest ``name``, all of one game: the game whose nearest
    name is nearest (a fab name's misspelling gets no Redemption names)."""
    from difflib import SequenceMatcher

    from cardzones.cards.lookup import CardLookup

    best: tuple[float, list[str]] = (-1.0, [])
    for game in games:
        with CardLookup(game) as lookup:
            near = lookup.closest(name)
        if not near:
            continue
        score = max(SequenceMatcher(None, name.lower(), n.lower()).ratio() for n in near)
        if score > best[0]:
            best = (score, near)
    return best[1]


def _show_record(record: CardRecord, imported: str) -> None:
    cdef = record.cdef
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column(style="bold")
    table.add_column(overflow="fold")  # addresses are shown whole
    title = record.name
    variants = get_ruleset(record.ruleset).variants
    if record.number is not None and variants:
        title += f"  ({variants.key} {variants.describe(record.number)})"
    table.add_row("game", record.ruleset)
    table.add_row("types", " ".join(sorted(cdef.types)))
    if cdef.text:
        table.add_row("text", escape(cdef.text))
    for stat, value in sorted(cdef.stats.items()):
        table.add_row(stat, str(value))
    if cdef.keywords:
        table.add_row("keywords", " ".join(sorted(cdef.keywords)))
    for key, own in cdef.extra.items():
        if own:
            table.add_row(key, own if isinstance(own, str) else " ".join(sorted(own)))
    source = record.source
    other = source.get("other_face")
    if isinstance(other, dict) and other:
        table.add_row("other face", " ".join(f"{k} {v}" for k, v in other.items()))
    if record.aliases:
        table.add_row("also found as", "; ".join(record.aliases))
    for key in get_ruleset(record.ruleset).printed_fields:
        if key in source:
            raw = source[key]
            if isinstance(raw, dict):
                raw = ", ".join(f"{k} {v}" for k, v in raw.items())
            label = "printed stats" if key == "printed" else f"printed {key.replace('_', ' ')}"
            table.add_row(label, escape(str(raw)))
    database, fmt = source.get("database", "?"), source.get("format", "?")
    table.add_row("source", escape(f"{database} ({fmt}), line {source.get('line', '?')}"))
    table.add_row("imported from", escape(imported))
    if cdef.image:
        table.add_row("image address", escape(cdef.image))
    for key in ("id", "set", "official_set", "printings", "image", "reference"):
        if key in source:
            value = source[key]
            text = ", ".join(value[:12]) if isinstance(value, list) else str(value)
            table.add_row(key, escape(text))
    console.rule(f"[bold]{escape(title)}")
    console.print(table)


@cards_app.command()
def status(as_json: PrintJson = False) -> None:
    """Which games the card index has, how many cards, and from which file."""
    path = index_path()
    rows: list[dict[str, Any]] = []
    try:
        with CardIndex.open() as index:
            for game in card_games():
                info = index.info(game)
                if info is not None:
                    rows.append({"ruleset": game, **info.__dict__})
    except NoCardIndex:
        pass
    except CardDataError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        print(json.dumps({"index": str(path), "games": rows}, indent=2))
        return
    console.print(f"card index: {escape(str(path))}", soft_wrap=True)
    if not rows:
        console.print(
            f"no cards yet: `cardzones cards update {'|'.join(card_games())}` "
            "or `cardzones cards import FILE`"
        )
        return
    for row in rows:
        console.print(
            f"{row['ruleset']}: {row['cards']} cards from {escape(row['file'])} ({row['format']}, "
            f"read {row['read']}, skipped {row['skipped']}), imported {row['imported_at']}",
            soft_wrap=True,
        )


@cards_app.command()
def deck(
    file: Annotated[Path, typer.Argument(help="a deck list file, in its game's form")],
    player: Annotated[str, typer.Option("--player", help="whose deck it is")] = "alice",
    ruleset: Annotated[
        str | None,
        typer.Option("--ruleset", help="its game (told from the file if left out)"),
    ] = None,
    as_json: PrintJson = False,
) -> None:
    """Read a deck list into a start position, printed as a scenario.

    The hero and equipment go to their zones and the rest is the deck, in
    list order, and its shuffle: shuffles every deck first (in a scenario run
    and at a table made from it); the output uses card_data: and runs as it is.
    """
    from cardzones.cards.decks import read_deck, scenario_data, start_position

    try:
        position = start_position(read_deck(file, ruleset), player)
    except CardDataError as exc:
        raise _fail(str(exc)) from None
    data = scenario_data([position], name=f"start position of {file.name}")
    variants = get_ruleset(position.ruleset).variants
    data["inventory"] = [p.entry(variants) for p in position.inventory]
    if as_json:
        print(json.dumps(data, indent=2))
        return
    inventory = data.pop("inventory")
    print(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100), end="")
    if inventory:
        names = ", ".join(e["card"] for e in inventory)
        print(f"# {get_ruleset(position.ruleset).out_of_game}: {names}")
