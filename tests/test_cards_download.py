"""``cardzones cards update``: the download path, against a server on 127.0.0.1
that serves the repository's fixtures where the real repositories keep them."""

from __future__ import annotations

import hashlib
import shutil
import socket
import sys
import threading
import time
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardzones.cards.download import BASE_VARIABLE, SOURCES, update
from cardzones.cards.errors import DownloadFailed
from cardzones.cards.importers import import_file
from cardzones.cards.index import HOME_VARIABLE, CardIndex
from cardzones.cli import app

FIXTURES = Path(__file__).parent / "fixtures" / "cards"
FILES = {"fab": FIXTURES / "fab-card.json", "redemption": FIXTURES / "redemption-carddata.txt"}


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A local web server with the fixtures at the repositories' paths."""
    root = tmp_path / "www"
    for game, source in SOURCES.items():
        target = root / source.repository / source.branch / source.path
        target.parent.mkdir(parents=True)
        shutil.copy(FILES[game], target)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    monkeypatch.setenv(HOME_VARIABLE, str(folder))
    return folder


def closed_port() -> str:
    """An address on 127.0.0.1 where nothing listens."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def digest(home: Path) -> str:
    return hashlib.sha256((home / "cards.sqlite3").read_bytes()).hexdigest()


@pytest.mark.parametrize("game", ["fab", "redemption"])
def test_update_downloads_the_file_and_imports_it(
    game: str, server: str, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(BASE_VARIABLE, server)
    seen: list[tuple[int, int]] = []
    report = update(game, download_progress=lambda done, total: seen.append((done, total)))
    size = FILES[game].stat().st_size
    assert seen[-1] == (size, size)
    assert report.imported == {"fab": 64, "redemption": 51}[game] and report.skipped == 0
    source = SOURCES[game]
    saved = home / "downloads" / f"{game}-{source.file_name}"
    assert saved.read_bytes() == FILES[game].read_bytes()
    with CardIndex.open(home) as index:
        info = index.info(game)
    assert info is not None
    assert info.file == f"{server}/{source.repository}/{source.branch}/{source.path}"


def test_the_default_address_is_the_games_github_repository() -> None:
    assert SOURCES["fab"].url("https://raw.githubusercontent.com") == (
        "https://raw.githubusercontent.com/the-fab-cube/flesh-and-blood-cards/develop/"
        "json/english/card.json"
    )
    assert (
        SOURCES["redemption"]
        .url("https://raw.githubusercontent.com")
        .endswith("jalstad/RedemptionLackeyCCG/master/RedemptionQuick/sets/carddata.txt")
    )


def test_a_whole_url_may_be_given(server: str, home: Path) -> None:
    source = SOURCES["redemption"]
    url = f"{server}/{source.repository}/{source.branch}/{source.path}"
    assert update("redemption", url=url).imported == 51


def test_offline_it_fails_at_once_and_says_how_to_import_a_file(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import_file(FILES["redemption"])
    before = digest(home)
    monkeypatch.setenv(BASE_VARIABLE, closed_port())
    start = time.monotonic()
    with pytest.raises(DownloadFailed) as failed:
        update("redemption")
    assert time.monotonic() - start < 5
    message = str(failed.value)
    assert "cannot download http://127.0.0.1:" in message and "no network?" in message
    assert "`cardzones cards import carddata.txt`" in message
    assert "RedemptionQuick/sets/carddata.txt" in message
    assert digest(home) == before
    assert not list((home / "downloads").glob("*"))


def test_a_missing_file_is_a_clear_error(server: str, home: Path) -> None:
    with pytest.raises(DownloadFailed, match="answered 404"):
        update("fab", url=f"{server}/nothing/here.json")


def test_a_file_of_the_other_game_is_refused(server: str, home: Path) -> None:
    source = SOURCES["redemption"]
    url = f"{server}/{source.repository}/{source.branch}/{source.path}"
    with pytest.raises(DownloadFailed, match="is a redemption database, not a fab one"):
        update("fab", url=url)


def test_without_httpx_the_command_says_what_to_install(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "httpx", None)
    with pytest.raises(DownloadFailed, match=r"pip install 'cardzones\[cards\]'"):
        update("fab")


def test_the_command_line(server: str, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    monkeypatch.setenv(BASE_VARIABLE, server)
    result = runner.invoke(app, ["cards", "update", "redemption"])
    assert result.exit_code == 0, result.output
    assert "imported 51 redemption cards" in result.output
    assert "read 51, skipped 0" in result.output
    monkeypatch.setenv(BASE_VARIABLE, closed_port())
    result = runner.invoke(app, ["cards", "update", "fab"])
    assert result.exit_code == 2
    assert "cardzones cards import card.json" in " ".join(result.output.split())
    assert "Traceback" not in result.output
    result = runner.invoke(app, ["cards", "update", "mtg"])
    assert result.exit_code == 2 and "unknown game 'mtg'" in result.output


def test_on_a_terminal_the_download_and_the_import_show_progress(
    server: str, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from rich.console import Console

    from cardzones import cli_cards

    screen = io.StringIO()
    monkeypatch.setattr(cli_cards, "errors", Console(file=screen, force_terminal=True, width=80))
    monkeypatch.setenv(BASE_VARIABLE, server)
    result = CliRunner().invoke(app, ["cards", "update", "fab"])
    assert result.exit_code == 0, result.output
    assert "downloading fab" in screen.getvalue() and "importing" in screen.getvalue()
