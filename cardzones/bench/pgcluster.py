"""``cardzones bench --table`` on a Postgres cluster of its own, made for the
run and removed after it, in one command::

    python -m cardzones.bench.pgcluster                  # the full run
    python -m cardzones.bench.pgcluster --quick --json   # any bench --table option

It uses the Postgres server programs of the machine (Debian's ``postgresql``
package: ``/usr/lib/postgresql/VERSION/bin``, or the folder in
``CARDZONES_PG_BIN``): ``initdb`` makes a cluster in a new folder under
``/tmp``, ``pg_ctl`` starts it listening on 127.0.0.1 only, at a free port,
with its fsync on (a commit waits for the disk, as in production), and
``cardzones bench --table --db postgresql://...`` runs against it; the
cluster is stopped and its folder removed whatever the bench did. Postgres
refuses to run as root: as root, its programs run as the ``postgres`` user
(``runuser``), which the package makes.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from cardzones.errors import CardzonesError


class ClusterError(CardzonesError):
    """No throwaway cluster can be made here."""


def pg_bin() -> Path:
    """The folder of the Postgres server programs (the newest version installed)."""
    if "CARDZONES_PG_BIN" in os.environ:
        return Path(os.environ["CARDZONES_PG_BIN"])
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if not found:
        raise ClusterError("no Postgres server programs: apt-get install postgresql")
    return found[-1].parent


def check_available() -> Path:
    """The folder of the server programs, once it is known a cluster can be
    made here; :class:`ClusterError` says what to install when it cannot."""
    binaries = pg_bin()
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        raise ClusterError("as root, Postgres needs runuser (util-linux) to run as postgres")
    return binaries


def _as_postgres(args: list[str]) -> list[str]:
    # Postgres refuses to run as root: run it as the user the package made.
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *args]
    return args


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def throwaway_cluster(
    fsync: bool = True, settings: dict[str, str] | None = None, keep_log: Path | None = None
) -> Iterator[str]:
    """A new Postgres cluster on 127.0.0.1, for as long as the ``with`` lasts:
    yields the URL of its ``postgres`` database; stops and removes it after.
    Without ``fsync`` nothing waits for the disk (for tests). ``settings``
    are more of the server's settings (``log_checkpoints``, say); the
    server's log is copied to ``keep_log`` once it has stopped."""
    binaries = check_available()
    # Under /tmp, readable by all: every folder above a cluster must be
    # readable by the user that runs it.
    root = Path(tempfile.mkdtemp(prefix="cardzones-pg-", dir="/tmp"))
    root.chmod(0o755)
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
    data, port = root / "data", _free_port()
    pg_ctl = [str(binaries / "pg_ctl"), "-D", str(data)]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.STDOUT}
    try:
        initdb = [str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"]
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {root}"
        if not fsync:
            initdb.append("--no-sync")
            options += " -c fsync=off"
        for name, value in (settings or {}).items():
            options += f" -c {name}={value}"
        start = [*pg_ctl, "-o", options, "-l", str(root / "log"), "-w", "start"]
        try:
            for step in (initdb, start):
                subprocess.run(_as_postgres(step), check=True, **quiet)  # type: ignore[call-overload]
        except subprocess.CalledProcessError as exc:
            raise ClusterError(f"the throwaway Postgres cluster did not start ({exc})") from None
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        if (data / "postmaster.pid").exists():
            stop = [*pg_ctl, "-m", "fast", "-w", "stop"]
            subprocess.run(_as_postgres(stop), check=False, **quiet)  # type: ignore[call-overload]
        if keep_log is not None and (root / "log").exists():
            shutil.copyfile(root / "log", keep_log)
        shutil.rmtree(root, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    """Run ``cardzones bench --table`` with ``argv`` on a throwaway cluster."""
    args = list(sys.argv[1:] if argv is None else argv)
    if "--db" in args or any(a.startswith("--db=") for a in args):
        print("the throwaway cluster is the database: leave out --db", file=sys.stderr)
        return 2
    try:
        with throwaway_cluster() as url:
            command = [sys.executable, "-m", "cardzones.cli", "bench", "--table", "--db", url]
            return subprocess.run([*command, *args], check=False).returncode
    except ClusterError as exc:
        print(exc, file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
