"""``cardzones bench --table`` as a program of its own: the closed loop and the
floors of :mod:`cardzones.bench.table`, the open-loop capacity ladder of
:mod:`cardzones.bench.capacity`, or the abuse of :mod:`cardzones.bench.abuse`,
their figures as one JSON object on stdout. The command line runs it in a
process of its own (``python -m cardzones.bench.program``), as ``serve`` runs
the app, so that the servers it starts are never the command line's own."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

from cardzones.bench.capacity import run_capacity
from cardzones.bench.cpu import ratio
from cardzones.bench.growth import run_growth
from cardzones.bench.table import (
    QUICK_SECONDS,
    QUICK_TABLES,
    SECONDS,
    TABLES,
    Sample,
    _echo_phase,
    _grouped_phase,
    _ratio,
    _server,
    _store_phase,
    _tables_phase,
)


def run_table_bench(
    db: str | None = None,
    tables: int | None = None,
    seconds: float | None = None,
    quick: bool = False,
    seed: int = 1,
) -> dict[str, Any]:
    """Measure the table (a closed loop, then the open-loop capacity of
    :mod:`cardzones.bench.capacity`), the echo floor and the store floor,
    and an act early and late in a game (:mod:`cardzones.bench.growth`);
    ``db`` is a ``postgresql://`` URL or a SQLite file (a new one in a
    temporary folder when None)."""
    tables = tables or (QUICK_TABLES if quick else TABLES)
    seconds = seconds or (QUICK_SECONDS if quick else SECONDS)
    with tempfile.TemporaryDirectory(prefix="cardzones-bench-") as folder:
        store_db = db or str(Path(folder) / "bench.sqlite3")
        from cardzones.table.store import Store

        kind = "postgres" if Store(store_db).postgres else "sqlite"
        with _server("table", store_db) as url:
            table = asyncio.run(_tables_phase(url, tables, seconds, seed))
            menus = asyncio.run(_tables_phase(url, tables, seconds, seed + 1, menus="socket"))
            http = asyncio.run(_tables_phase(url, tables, seconds, seed + 1, menus="http"))
        scale_out = None
        if kind == "postgres":
            with _server("table", store_db) as url, _server("table", store_db) as other:
                two = (other,)
                spread = asyncio.run(_tables_phase(url, tables, seconds, seed + 2, more=two))
                split = asyncio.run(
                    _tables_phase(url, tables, seconds, seed + 3, more=two, by_table=True)
                )
            scale_out = _scale_out(table, spread, split, seconds)
        with _server("table", store_db) as url, _server("echo") as echo_url:
            capacity = run_capacity(url, quick=quick, seed=seed, echo_url=echo_url)
        with _server("echo") as url:
            echo = asyncio.run(_echo_phase(url, tables * 2, seconds))
        store = _store_phase(store_db, seconds)
        alone = _grouped_phase(store_db, tables, seconds, together=False)
        grouped = _grouped_phase(store_db, tables, seconds)
        growth = run_growth(store_db, quick=quick, seed=seed)
    acts = table.figures(seconds, "acts")
    floor_echo = echo.figures(seconds, "frames")
    floor_store = store.figures(seconds, "commits")
    group = grouped.figures(seconds, "acts")
    one_by_one = alone.figures(seconds, "acts")
    acts["refused"] = table.refused
    cpu = _cpu(table, menus, echo, http)
    return {
        "store": kind,
        "tables": tables,
        "connections": tables * 2,
        "seconds": seconds,
        "table": acts,
        "echo": floor_echo,
        "insert_commit": floor_store,
        "concurrent_commits": one_by_one,
        "grouped_commit": group,
        "capacity": capacity,
        "act_growth": growth,
        "cpu": cpu,
        "scale_out": scale_out,
        "ratios": {
            "act_cpu_per_echo_frame": ratio(cpu["act_cpu_us"], cpu["echo_cpu_us"]),
            "menu_cpu_per_echo_frame": ratio(cpu["menu_cpu_us"], cpu["echo_cpu_us"]),
            "act_menu_cpu_per_echo_frame": ratio(cpu["act_menu_cpu_us"], cpu["echo_cpu_us"]),
            "http_menu_cpu_per_echo_frame": ratio(cpu["http_menu_cpu_us"], cpu["echo_cpu_us"]),
            "act_http_menu_cpu_per_echo_frame": ratio(
                cpu["act_http_menu_cpu_us"], cpu["echo_cpu_us"]
            ),
            "acts_per_echo_frame": _ratio(acts["acts_per_s"], floor_echo["frames_per_s"]),
            "acts_per_commit": _ratio(acts["acts_per_s"], floor_store["commits_per_s"]),
            "p50_vs_echo": _ratio(acts["p50_ms"], floor_echo["p50_ms"]),
            "p99_vs_echo": _ratio(acts["p99_ms"], floor_echo["p99_ms"]),
            "p50_vs_commit": _ratio(acts["p50_ms"], floor_store["p50_ms"]),
            "p99_vs_commit": _ratio(acts["p99_ms"], floor_store["p99_ms"]),
            "grouped_per_commit": _ratio(group["acts_per_s"], floor_store["commits_per_s"]),
            "grouped_per_concurrent": _ratio(group["acts_per_s"], one_by_one["acts_per_s"]),
        },
    }


def _cpu(table: Sample, menus: Sample, echo: Sample, http: Sample) -> dict[str, Any]:
    """What an act, a menu and an echo frame cost their server in CPU time
    (:mod:`cardzones.bench.cpu`): an act's from the closed loop of acts; an
    act with its menu from the loop of a menu before each act, measured
    whole, the menus asked on the seat's socket as the board asks them
    (``act_menu_cpu_us``) and over HTTP (``act_http_menu_cpu_us``); a
    menu's from that loop less its acts' share (a difference of two loops,
    so it moves more from run to run than either)."""
    act = table.cpu.per(len(table.latencies))
    return {
        "act_cpu_us": act,
        "menu_cpu_us": _menu_share(menus, act),
        "act_menu_cpu_us": menus.cpu.per(len(menus.latencies)),
        "http_menu_cpu_us": _menu_share(http, act),
        "act_http_menu_cpu_us": http.cpu.per(len(http.latencies)),
        "echo_cpu_us": echo.cpu.per(len(echo.latencies)),
        "menus": menus.menus,
        "acts_with_menus": len(menus.latencies),
        "http_menus": http.menus,
        "acts_with_http_menus": len(http.latencies),
    }


def _menu_share(menus: Sample, act: float | None) -> float | None:
    """A menu's CPU: its loop's, less its acts' at ``act`` each, a menu."""
    if menus.cpu.used is None or act is None or not menus.menus:
        return None
    return round((menus.cpu.used * 1e6 - act * len(menus.latencies)) / menus.menus, 1)


def _scale_out(one: Sample, two: Sample, split: Sample, seconds: float) -> dict[str, Any]:
    """Two server processes on one Postgres against one process: the two
    seats of each table on different processes (``two``: every act is read
    and framed by both), and each table on one of them (``split``, as a load
    balancer that sends a table's requests to one process would): acts a
    second, and CPU an act (both processes together)."""
    alone, spread = one.figures(seconds, "acts"), two.figures(seconds, "acts")
    apart = split.figures(seconds, "acts")
    return {
        "processes": 2,
        "acts_per_s": spread["acts_per_s"],
        "p50_ms": spread["p50_ms"],
        "p99_ms": spread["p99_ms"],
        "refused": two.refused + split.refused,
        "act_cpu_us": two.cpu.per(len(two.latencies)),
        "acts_per_s_one_process": alone["acts_per_s"],
        "growth": _ratio(spread["acts_per_s"], alone["acts_per_s"]),
        "by_table_acts_per_s": apart["acts_per_s"],
        "by_table_p50_ms": apart["p50_ms"],
        "by_table_p99_ms": apart["p99_ms"],
        "by_table_act_cpu_us": split.cpu.per(len(split.latencies)),
        "by_table_growth": _ratio(apart["acts_per_s"], alone["acts_per_s"]),
    }


def main(argv: list[str] | None = None) -> int:
    """The program ``cardzones bench --table`` runs (the command line starts
    the web layer by name, as ``serve`` does): the figures as one JSON object
    on stdout, or the reason on stderr and exit status 2."""
    import argparse
    import sys

    from cardzones.errors import CardzonesError

    parser = argparse.ArgumentParser(prog="cardzones bench --table")
    parser.add_argument("--db")
    parser.add_argument("--tables", type=int)
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--abuse", action="store_true")
    parser.add_argument("--idle", type=int)
    parser.add_argument("--parts", help="the parts of the abuse, comma-separated")
    args = parser.parse_args(argv)
    try:
        if args.abuse:
            from cardzones.bench.abuse import PARTS, run_abuse_bench

            parts = tuple(p for p in (args.parts or ",".join(PARTS)).split(",") if p)
            figures = run_abuse_bench(
                args.db, args.tables, args.seconds, quick=args.quick, idle=args.idle, parts=parts
            )
        else:
            figures = run_table_bench(args.db, args.tables, args.seconds, quick=args.quick)
    except CardzonesError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
