"""The table commands of the command line, where a newcomer trips first:
``export`` and ``replay`` in a folder with no store say so and leave no
empty store behind, and ``serve`` on a port another process listens on says
so and exits with an error, before it claims to serve."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardzones.cli import app


@pytest.mark.parametrize("command", [["export", "t0"], ["replay", "t0", "--as", "alice"]])
def test_reading_a_store_that_is_not_there_leaves_none_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 2
    assert "no table store at cardzones-tables.sqlite3" in result.output
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []
    missing = tmp_path / "elsewhere.sqlite3"
    result = CliRunner().invoke(app, [*command, "--db", str(missing)])
    assert result.exit_code == 2 and not missing.exists()


def test_serve_on_a_busy_port_says_so_and_fails(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        db = str(tmp_path / "t.sqlite3")
        result = CliRunner().invoke(app, ["serve", "--db", db, "--port", str(port)])
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.output
    assert "table server on" not in result.output
