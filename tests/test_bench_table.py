"""``cardzones bench --table`` in its quick form, on SQLite and on Postgres: it
runs to the end, plays only legal acts, and reports every figure with its
ratios to the floors measured in the same run. No timing is asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

KEYS = {
    "store",
    "tables",
    "connections",
    "seconds",
    "table",
    "echo",
    "insert_commit",
    "concurrent_commits",
    "grouped_commit",
    "capacity",
    "act_growth",
    "cpu",
    "scale_out",
    "ratios",
}
WINDOW_KEYS = {"events", "count", "p50_ms", "p99_ms", "mean_ms"}
SNAPSHOT_KEYS = {"snapshot_ms", "snapshot_every", "snapshot_ms_per_act"}
LEVEL_KEYS = {
    "server_cpu_us",
    "driver_cpu_us",
    "load_start",
    "load_end",
    "tables",
    "acts_per_s",
    "acts",
    "p50_ms",
    "p99_ms",
    "refused",
    "legal_per_s",
    "legal_p50_ms",
    "legal_p99_ms",
    "errors",
    "throttled",
    "seconds",
    "p99_rank",
    "echo_count",
    "echo_p50_ms",
    "echo_p99_ms",
}


def bench(*args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "cardzones.cli", "bench", "--table", "--quick", "--json", *args],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def check(figures: dict[str, Any], store: str) -> None:
    assert set(figures) == KEYS
    assert figures["store"] == store
    assert figures["connections"] == 2 * figures["tables"]
    assert figures["table"]["count"] > 0 and figures["table"]["refused"] == 0
    assert figures["echo"]["count"] > 0 and figures["insert_commit"]["count"] > 0
    for part, unit in (
        ("table", "acts"),
        ("echo", "frames"),
        ("insert_commit", "commits"),
        ("concurrent_commits", "acts"),
        ("grouped_commit", "acts"),
    ):
        assert figures[part][f"{unit}_per_s"] > 0
        assert 0 < figures[part]["p50_ms"] <= figures[part]["p99_ms"]
    ratios = figures["ratios"]
    assert ratios["acts_per_echo_frame"] == pytest.approx(
        figures["table"]["acts_per_s"] / figures["echo"]["frames_per_s"], abs=1e-3
    )
    assert all(value > 0 for value in ratios.values())
    # what an act and a menu cost the server in CPU time, against an echo frame
    cpu = figures["cpu"]
    assert cpu["menus"] > 0 and cpu["acts_with_menus"] > 0
    assert cpu["act_cpu_us"] > 0 and cpu["echo_cpu_us"] > 0 and cpu["menu_cpu_us"] is not None
    # an act with its menu, measured whole in the loop of menus
    assert cpu["act_menu_cpu_us"] > 0
    assert ratios["act_menu_cpu_per_echo_frame"] == pytest.approx(
        cpu["act_menu_cpu_us"] / cpu["echo_cpu_us"], abs=1e-3
    )
    # the same loop with its menus over HTTP, reported beside it
    assert cpu["http_menus"] > 0 and cpu["acts_with_http_menus"] > 0
    assert cpu["act_http_menu_cpu_us"] > 0 and cpu["http_menu_cpu_us"] is not None
    assert ratios["act_http_menu_cpu_per_echo_frame"] == pytest.approx(
        cpu["act_http_menu_cpu_us"] / cpu["echo_cpu_us"], abs=1e-3
    )
    assert ratios["act_cpu_per_echo_frame"] == pytest.approx(
        cpu["act_cpu_us"] / cpu["echo_cpu_us"], abs=1e-3
    )
    # two processes on one Postgres, each table's seats on both; none on SQLite
    scale_out = figures["scale_out"]
    if store == "sqlite":
        assert scale_out is None
    else:
        assert scale_out["processes"] == 2 and scale_out["refused"] == 0
        assert scale_out["acts_per_s"] > 0 and scale_out["act_cpu_us"] > 0
        assert scale_out["growth"] == pytest.approx(
            scale_out["acts_per_s"] / scale_out["acts_per_s_one_process"], abs=1e-3
        )
        assert scale_out["by_table_acts_per_s"] > 0 and scale_out["by_table_act_cpu_us"] > 0
        assert scale_out["by_table_growth"] == pytest.approx(
            scale_out["by_table_acts_per_s"] / scale_out["acts_per_s_one_process"], abs=1e-3
        )
    # the open-loop ladder: levels up to the first that missed the target, every
    # act legal, each board's menu answered; the capacity is the last level kept
    capacity = figures["capacity"]
    assert capacity["target_p99_ms"] == 100.0 and capacity["levels"]
    for level in capacity["levels"]:
        assert set(level) == LEVEL_KEYS
        assert level["refused"] == 0 and level["errors"] == 0
        assert level["acts"] > 0 and level["legal_per_s"] > 0
        # the echo beside the level, and which act its p99 is (1: the slowest)
        assert level["echo_count"] > 0 and 0 < level["echo_p50_ms"] <= level["echo_p99_ms"]
        assert 1 <= level["p99_rank"] <= level["acts"]
        assert level["seconds"] >= capacity["seconds"]
        # the server's CPU per act with its menu, and the load's own beside it
        assert level["server_cpu_us"] > 0 and level["driver_cpu_us"] > 0
        assert level["load_start"] >= 0 and level["load_end"] >= 0
    # an act late in a game against the same table's first acts, and a fresh
    # table's taken in turn with the late ones
    growth = figures["act_growth"]
    assert set(growth) == {"early", "late", "fresh", "ratios"}
    assert set(growth["early"]) == set(growth["late"]) == WINDOW_KEYS | SNAPSHOT_KEYS
    assert set(growth["fresh"]) == WINDOW_KEYS
    early, late = growth["early"], growth["late"]
    assert early["events"][0] == 1 and late["events"][0] > early["events"][1]
    for part in (early, late, growth["fresh"]):
        first, last = part["events"]
        assert part["count"] == last - first + 1 > 0  # every act of the window legal
        assert 0 < part["p50_ms"] <= part["p99_ms"]
    assert late["snapshot_every"] >= early["snapshot_every"] > 0
    assert growth["ratios"]["p50"] == pytest.approx(late["p50_ms"] / early["p50_ms"], abs=1e-3)
    assert growth["ratios"]["p50_fresh"] == pytest.approx(
        late["p50_ms"] / growth["fresh"]["p50_ms"], abs=1e-3
    )
    *passed, last = capacity["levels"]
    assert all(lv["p99_ms"] <= 100.0 for lv in passed)  # the ladder stops at a miss
    best = last if last["p99_ms"] <= 100.0 else (passed[-1] if passed else None)
    assert capacity["tables"] == (best["tables"] if best else 0)


def test_bench_table_on_sqlite() -> None:
    check(bench("--tables", "3"), "sqlite")


def test_bench_table_on_postgres(postgres_url: str) -> None:
    check(bench("--tables", "3", "--db", postgres_url), "postgres")


def test_bench_table_names_a_bad_database_without_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardzones.cli", "bench", "--table", "--db", "mysql://x/y"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "unsupported database" in done.stderr and "Traceback" not in done.stderr


ABUSE_KEYS = {"store", "tables", "connections", "seconds", "idle_sockets", "parts"}


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_bench_table_abuse_measures_other_tables_beside_an_abuser(
    store: str, request: pytest.FixtureRequest
) -> None:
    """The abuse mode runs to the end, and the abuser meets the server's
    limits: creates over them refused, tables a minute used up, the seat's
    sockets capped. No timing is asserted."""
    db = ["--db", request.getfixturevalue("postgres_url")] if store == "postgres" else []
    figures = bench("--abuse", "--tables", "1", "--seconds", "1.5", "--idle", "60", *db)
    assert ABUSE_KEYS | {"alone", "abused", "abuser", "ratios"} == set(figures)
    assert figures["store"] == store and figures["idle_sockets"] == 60
    for part in ("alone", "abused"):
        assert figures[part]["count"] > 0 and figures[part]["refused"] == 0
    abuser = figures["abuser"]
    assert abuser["create_400"] > 0 and abuser["create_413"] > 0  # over the limits
    assert abuser["legal_200"] > 0 and abuser["flood_frames"] > 0 and abuser["idle_open"] > 0
    # The abusers of the second round: each met a bound (a 429, a refused
    # act, or a socket the address may not open) rather than the server.
    assert abuser.get("half_sent_429", 0) > 0
    assert abuser.get("seats_legal_429", 0) > 0 and abuser.get("large_legal_200", 0) > 0
    # However many addresses its headers claim, one address makes no more
    # tables a minute than the limit (30).
    assert 0 < abuser.get("spoofed_201", 0) <= 30
    assert sum(v for k, v in abuser.items() if k.startswith(("depth_", "strings_"))) > 0
    assert figures["ratios"]["p50"] == pytest.approx(
        figures["abused"]["p50_ms"] / figures["alone"]["p50_ms"], abs=1e-3
    )


def test_the_throwaway_postgres_cluster_serves_then_is_gone() -> None:
    """``python -m cardzones.bench.pgcluster`` runs the bench on a cluster of
    its own: one on 127.0.0.1 while it lasts, stopped and removed after."""
    import psycopg

    from cardzones.bench.pgcluster import ClusterError, main, throwaway_cluster

    try:
        with throwaway_cluster(fsync=False) as url:
            assert url.startswith("postgresql://postgres@127.0.0.1:")
            with psycopg.connect(url, connect_timeout=10) as conn:
                assert conn.execute("SELECT 1").fetchone() == (1,)
    except ClusterError as exc:
        pytest.skip(str(exc))
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(url, connect_timeout=5)
    assert main(["--db", "postgresql://x/y"]) == 2  # the cluster is the database
