"""The command line's table-server commands: ``serve``, ``export`` and
``replay`` (registered on the command line's app in :mod:`cardzones.cli`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from cardzones.cli.output import console, errors
from cardzones.cli_options import Db, PrintJson, TableId
from cardzones.errors import CardzonesError
from cardzones.table.finish import MAX_FINISH_AFTER


def table_extra() -> None:
    try:
        import sqlalchemy  # noqa: F401
    except ImportError:
        errors.print("the table needs its extra: pip install 'cardzones[table]'")
        raise typer.Exit(2) from None


def open_store(db: str) -> Any:
    from cardzones.table.database import StoreError
    from cardzones.table.store import Store

    try:
        store = Store(db)
        store.migrate()
    except StoreError as exc:
        errors.print(f"[red]error[/red]: {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(2) from None
    return store


def open_existing_store(db: str) -> Any:
    """The store of ``export`` and ``replay``, which read tables: a SQLite file
    that is not there is an error, not a new empty store left behind."""
    if "://" not in db and db != ":memory:" and not Path(db).is_file():
        errors.print(
            f"[red]error[/red]: no table store at {escape(db)}: give the server's --db"
            " (a SQLite file or a postgresql:// URL)",
            soft_wrap=True,
        )
        raise typer.Exit(2)
    return open_store(db)


def port_taken(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (another process
    listens there, say), or None when it can."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        return f"{host} is not an address to listen on ({exc.strerror or exc})"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None


def _default_db() -> str:
    from cardzones.table.database import DEFAULT_DB

    return DEFAULT_DB


def serve(
    db: Db = None,
    host: Annotated[str, typer.Option("--host", help="the address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="the port to listen on")] = 8000,
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="server processes (several need Postgres)")
    ] = 1,
    origin: Annotated[
        list[str] | None,
        typer.Option("--origin", help="another web origin whose pages may open the WebSocket"),
    ] = None,
    log_level: Annotated[str, typer.Option("--log-level", help="uvicorn's log level")] = "info",
    max_body_bytes: Annotated[
        int | None, typer.Option("--max-body-bytes", min=1, help="bytes of a new table's body")
    ] = None,
    max_players: Annotated[
        int | None, typer.Option("--max-players", min=1, help="players of a table")
    ] = None,
    max_name_chars: Annotated[
        int | None, typer.Option("--max-name-chars", min=1, help="characters of a player's name")
    ] = None,
    max_zones: Annotated[
        int | None, typer.Option("--max-zones", min=1, help="zones a start position fills")
    ] = None,
    max_zone_cards: Annotated[
        int | None, typer.Option("--max-zone-cards", min=1, help="cards of one zone at the start")
    ] = None,
    max_cards: Annotated[
        int | None, typer.Option("--max-cards", min=1, help="cards of a start position")
    ] = None,
    max_card_defs: Annotated[
        int | None, typer.Option("--max-card-defs", min=1, help="card definitions of a table")
    ] = None,
    max_json_depth: Annotated[
        int | None, typer.Option("--max-json-depth", min=2, help="nesting of a body or frame")
    ] = None,
    max_creates_per_minute: Annotated[
        int | None,
        typer.Option("--max-creates-per-minute", min=1, help="new tables a minute per address"),
    ] = None,
    max_seat_sockets: Annotated[
        int | None, typer.Option("--max-seat-sockets", min=1, help="WebSockets open on one seat")
    ] = None,
    max_sockets: Annotated[
        int | None, typer.Option("--max-sockets", min=1, help="WebSockets open on a process")
    ] = None,
    max_sockets_per_minute: Annotated[
        int | None,
        typer.Option("--max-sockets-per-minute", min=1, help="WebSockets a minute per address"),
    ] = None,
    max_seat_frames: Annotated[
        int | None, typer.Option("--max-seat-frames", min=1, help="frames a second per seat")
    ] = None,
    max_request_seconds: Annotated[
        float | None,
        typer.Option("--max-request-seconds", min=0.1, help="time to send a request's headers"),
    ] = None,
    min_finish_after: Annotated[
        int | None,
        typer.Option(
            "--min-finish-after",
            min=0,
            max=MAX_FINISH_AFTER // 60,
            help="minutes a proposal to finish waits at least (10; a table may ask for more)",
        ),
    ] = None,
    max_table_bytes: Annotated[
        int | None, typer.Option("--max-table-bytes", min=1, help="bytes of a table's acts")
    ] = None,
    max_address_connections: Annotated[
        int | None,
        typer.Option("--max-address-connections", min=1, help="connections open per address"),
    ] = None,
    max_address_sockets: Annotated[
        int | None,
        typer.Option("--max-address-sockets", min=1, help="WebSockets open per address"),
    ] = None,
    max_votes_per_minute: Annotated[
        int | None,
        typer.Option(
            "--max-votes-per-minute",
            min=1,
            help="votes (to finish, to take back) a minute per seat",
        ),
    ] = None,
    max_address_frames: Annotated[
        int | None,
        typer.Option("--max-address-frames", min=1, help="frames a second per address"),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help="the reverse proxies (addresses, comma-separated) whose X-Forwarded-For "
            "and X-Forwarded-Proto are believed; without it, no client's are",
        ),
    ] = None,
    images: Annotated[
        bool,
        typer.Option(
            "--images",
            help="show card pictures on the board where the card index has their "
            "address (each player's browser loads them; the server fetches none)",
        ),
    ] = False,
) -> None:
    """Start the table server: the HTTP API and WebSocket of docs/protocol.md.

    The --max-* options set its limits (docs/table.md, Limits)."""
    table_extra()
    import os

    import uvicorn

    from cardzones.table.limits import Limits

    given: dict[str, Any] = {
        "body_bytes": max_body_bytes,
        "players": max_players,
        "name_chars": max_name_chars,
        "zones": max_zones,
        "zone_cards": max_zone_cards,
        "cards": max_cards,
        "card_defs": max_card_defs,
        "json_depth": max_json_depth,
        "creates_per_minute": max_creates_per_minute,
        "seat_sockets": max_seat_sockets,
        "sockets": max_sockets,
        "sockets_per_minute": max_sockets_per_minute,
        "seat_frames": max_seat_frames,
        "request_seconds": max_request_seconds,
        "min_finish_after": min_finish_after,
        "table_bytes": max_table_bytes,
        "address_connections": max_address_connections,
        "address_sockets": max_address_sockets,
        "votes_per_minute": max_votes_per_minute,
        "address_frames": max_address_frames,
    }
    limits = Limits(**{k: v for k, v in given.items() if v is not None})

    db = db or _default_db()
    store = open_store(db)
    if workers > 1 and not store.postgres:
        errors.print(
            "[red]error[/red]: --workers above 1 needs Postgres (--db postgresql://...): "
            "with SQLite, one process serves every table, since processes sharing a "
            "file could not tell each other about new events",
            soft_wrap=True,
        )
        raise typer.Exit(2)
    where = store.describe()
    store.close()
    taken = port_taken(host, port)
    if taken is not None:
        errors.print(
            f"[red]error[/red]: {escape(taken)} (another server may be running there;"
            " choose another with --port)",
            soft_wrap=True,
        )
        raise typer.Exit(1)
    os.environ["CARDZONES_DB"] = db
    os.environ["CARDZONES_ORIGINS"] = " ".join(origin or ())
    from cardzones.web.slow import own_origins, raise_open_files

    # The origins of the server's own pages, from where it listens: a page
    # is judged by them and --origin, never by the Host it sends.
    own = own_origins(host, port)
    os.environ["CARDZONES_OWN_ORIGINS"] = " ".join(own)
    os.environ["CARDZONES_PROXIES"] = forwarded_allow_ips or ""
    os.environ["CARDZONES_IMAGES"] = "1" if images else "0"
    os.environ["CARDZONES_LIMITS"] = limits.to_env()
    console.print(
        f"cardzones table server on http://{host}:{port} "
        f"({escape(where)}, {workers} worker{'s' if workers > 1 else ''})"
    )
    console.print(f"pages allowed from {escape(', '.join([*own, *(origin or ())]))}")
    console.print(escape(raise_open_files()))
    if forwarded_allow_ips:
        console.print(f"X-Forwarded-For believed from {escape(forwarded_allow_ips)} only")
    from cardzones.web.slow import DeadlineProtocol, DenyingWebSockets

    uvicorn.run(
        "cardzones.web.app:app_from_env",
        factory=True,
        http=DeadlineProtocol,
        ws=DenyingWebSockets,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        # uvicorn believes X-Forwarded-For from 127.0.0.1 unless told not
        # to: a client on the same machine could then pass for any address.
        proxy_headers=bool(forwarded_allow_ips),
        forwarded_allow_ips=forwarded_allow_ips or "",
    )


def export(
    table: TableId,
    db: Db = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="write here instead of printing")
    ] = None,
) -> None:
    """Write a table's game as a scenario file that `cardzones check` runs.

    The file holds the seed and every hidden card: it is for after the game."""
    table_extra()
    from cardzones.table.export import ExportError, export_scenario

    store = open_existing_store(db or _default_db())
    try:
        text = export_scenario(store, table)
    except (ExportError, CardzonesError) as exc:
        errors.print(f"[red]error[/red]: {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(2) from None
    finally:
        store.close()
    if output is None:
        print(text, end="")
    else:
        output.write_text(text, encoding="utf-8")
        console.print(f"wrote {escape(str(output))}")


def replay(
    table: TableId,
    as_seat: Annotated[
        str, typer.Option("--as", help="the seat whose game to show, or 'spectator'")
    ],
    db: Db = None,
    upto: Annotated[int | None, typer.Option("--upto", help="stop after this event")] = None,
    as_json: PrintJson = False,
) -> None:
    """Print a table's game as one seat saw it: each event's log, then its board."""
    table_extra()
    from cardzones.board import render
    from cardzones.table.export import ExportError, seat_history

    store = open_existing_store(db or _default_db())
    viewer = None if as_seat == "spectator" else as_seat
    try:
        history = seat_history(store, table, viewer, upto)
    except (ExportError, CardzonesError) as exc:
        errors.print(f"[red]error[/red]: {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(2) from None
    finally:
        store.close()
    if as_json:
        print(
            json.dumps(
                {
                    "seat": history.viewer,
                    "number": history.number,
                    "events": history.events,
                    "view": history.view,
                },
                indent=2,
            )
        )
        return
    for event in history.events:
        console.print(f"[bold]event {event['event']}[/bold] ({escape(event['seat'])})")
        for entry in event["log"]:
            console.print("  " + escape(_entry_text(entry)))
    title = f"table {table} after event {history.number}, as {as_seat} saw it"
    console.print(render(history.view, history.log, title=title))


def _entry_text(entry: dict[str, Any]) -> str:
    card = entry.get("card", {}).get("name") if isinstance(entry.get("card"), dict) else None
    if entry.get("event") in ("moved", "ceased", "flipped", "created"):
        what = card or "a card"
        where = " -> ".join(str(entry[k]) for k in ("from", "to") if entry.get(k))
        return f"{entry['event']}: {what} {where}"
    if entry.get("event") == "shuffled":
        return f"shuffled {entry.get('zone')}"
    return f"{entry.get('event')}: {entry.get('note', '')}"
