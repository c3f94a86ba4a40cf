"""Hypothesis profiles, chosen with the CARDZONES_PROFILE environment variable,
and the throwaway Postgres cluster of the table store's tests.

- ``ci`` (the default): a few hundred examples per property, the same ones on
  every run, so that the whole suite stays quick and repeatable.
- ``long``: at least 100,000 examples per property, drawn afresh each run.
  See docs/hidden-information.md for the command.
- ``dev``: a handful of examples, to try a change quickly.

A test that sets ``max_examples`` itself keeps its own number in every profile.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

_SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
# No "explain" phase: on a long game it costs minutes and adds little to the
# printed steps of the failing example.
_PHASES = [Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink]

settings.register_profile(
    "ci",
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=_SLOW,
    print_blob=True,
    phases=_PHASES,
)
settings.register_profile(
    "long",
    max_examples=100_000,
    deadline=None,
    suppress_health_check=_SLOW,
    print_blob=True,
    phases=_PHASES,
)
settings.register_profile(
    "dev", max_examples=20, deadline=None, suppress_health_check=_SLOW, phases=_PHASES
)
settings.load_profile(os.environ.get("CARDZONES_PROFILE", "ci"))


# ----------------------------------------------------------------------
# A throwaway Postgres cluster for the table store's tests
# ----------------------------------------------------------------------


def _pg_bin() -> Path:
    """Debian's Postgres binaries (the newest version installed)."""
    if "CARDZONES_PG_BIN" in os.environ:
        return Path(os.environ["CARDZONES_PG_BIN"])
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


PG_BIN = _pg_bin()
PG_MISSING = "needs Postgres: apt-get install postgresql (Debian's postgresql package)"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_postgres(args: list[str]) -> list[str]:
    # Postgres refuses to run as root: run it as the user the package made.
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *args]
    return args


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A Postgres cluster on 127.0.0.1 for this test session, removed at the
    end: the URL of its ``postgres`` database."""
    initdb = PG_BIN / "initdb"
    if not initdb.exists():
        pytest.skip(PG_MISSING)
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        pytest.skip("needs runuser (util-linux) to run Postgres as its own user")
    # Under /tmp: every folder above the cluster must be readable by postgres.
    root = Path(tempfile.mkdtemp(prefix="cardzones-pg-", dir="/tmp"))
    root.chmod(0o755)
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
    data, port = root / "data", free_port()
    pg_ctl = [str(PG_BIN / "pg_ctl"), "-D", str(data)]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.STDOUT, "check": True}
    subprocess.run(
        _as_postgres([str(initdb), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"]),
        **quiet,  # type: ignore[arg-type]
    )
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {root} -c fsync=off"
    subprocess.run(
        _as_postgres([*pg_ctl, "-o", options, "-l", str(root / "log"), "-w", "start"]),
        **quiet,  # type: ignore[arg-type]
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_postgres([*pg_ctl, "-m", "immediate", "-w", "stop"]),
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """A new, empty database on the session's cluster."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return postgres_server.rsplit("/", 1)[0] + f"/{name}"
