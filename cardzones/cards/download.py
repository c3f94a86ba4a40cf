"""Download the newest card database of a game and import it.

Each rule set says where its database is
(:attr:`~cardzones.rulesets.base.Ruleset.card_source`). The files come from
the games' public GitHub repositories, through
``https://raw.githubusercontent.com``; ``$CARDZONES_DOWNLOAD_BASE`` replaces
that address (a mirror, or a local server in tests), and a whole URL can be
given instead. The file is saved in ``$CARDZONES_HOME/downloads`` and then
imported, so a failed download or import leaves the card index as it was.
Downloading needs httpx: ``pip install 'cardzones[cards]'``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from cardzones.cards.errors import DownloadFailed
from cardzones.cards.importers import (
    ImportReport,
    Progress,
    card_formats,
    detect_format,
    import_file,
)
from cardzones.cards.index import card_games
from cardzones.cards.index import home as index_home
from cardzones.rulesets import get_ruleset
from cardzones.rulesets.cardfiles import CardSource

#: The environment variable that replaces the download address.
BASE_VARIABLE = "CARDZONES_DOWNLOAD_BASE"
DEFAULT_BASE = "https://raw.githubusercontent.com"


@dataclass(frozen=True)
class Source(CardSource):
    """Where a game's database is, and its address."""

    def url(self, base: str | None = None) -> str:
        base = (base or os.environ.get(BASE_VARIABLE) or DEFAULT_BASE).rstrip("/")
        return f"{base}/{self.repository}/{self.branch}/{self.path}"


class _Sources(Mapping[str, Source]):
    """The sources of the rule sets that say where their database is, by game."""

    def __getitem__(self, game: str) -> Source:
        if game not in card_games():
            raise KeyError(game)
        found = get_ruleset(game).card_source
        if found is None:
            raise KeyError(game)
        return Source(found.repository, found.branch, found.path, found.format)

    def __iter__(self) -> Iterator[str]:
        return iter([g for g in card_games() if get_ruleset(g).card_source is not None])

    def __len__(self) -> int:
        return len(list(iter(self)))


SOURCES: Mapping[str, Source] = _Sources()

#: Seconds to wait for a connection, and between two pieces of the file.
CONNECT_TIMEOUT = 10.0
READ_TIMEOUT = 60.0


def install_hint() -> str:
    return "downloading cards needs httpx: pip install 'cardzones[cards]'"


def offline_hint(ruleset: str, url: str) -> str:
    source = SOURCES[ruleset]
    return (
        f"to import the file without this download, fetch {url} some other way "
        f"(it is {source.path} in the GitHub repository {source.repository}) and run "
        f"`cardzones cards import {source.file_name}`"
    )


def download(
    ruleset: str,
    target: Path,
    *,
    url: str | None = None,
    progress: Progress | None = None,
) -> str:
    """Download the game's database to ``target``; returns the URL it came from.

    Fails at once with :class:`DownloadFailed` when the address cannot be
    reached, saying how to import a downloaded file instead.
    """
    if ruleset not in SOURCES:
        raise DownloadFailed(f"unknown game {ruleset!r}; games are {', '.join(SOURCES)}")
    try:
        import httpx
    except ImportError:
        raise DownloadFailed(install_hint()) from None
    url = url or SOURCES[ruleset].url()
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".part")
    timeout = httpx.Timeout(READ_TIMEOUT, connect=CONNECT_TIMEOUT)
    try:
        with httpx.stream("GET", url, timeout=timeout, follow_redirects=True) as response:
            if response.status_code != 200:
                raise DownloadFailed(
                    f"cannot download {url}: the server answered {response.status_code} "
                    f"{response.reason_phrase}; {offline_hint(ruleset, url)}"
                )
            total = int(response.headers.get("content-length") or 0)
            done = 0
            with part.open("wb") as out:
                for chunk in response.iter_bytes():
                    out.write(chunk)
                    done += len(chunk)
                    if progress is not None:
                        progress(done, max(total, done))
    except httpx.HTTPError as exc:
        part.unlink(missing_ok=True)
        reason = str(exc) or type(exc).__name__
        raise DownloadFailed(
            f"cannot download {url} ({reason}): no network? {offline_hint(ruleset, url)}"
        ) from None
    except DownloadFailed:
        part.unlink(missing_ok=True)
        raise
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise DownloadFailed(f"cannot save the download to {part}: {exc.strerror}") from None
    part.replace(target)
    return url


def update(
    ruleset: str,
    *,
    url: str | None = None,
    home: Path | None = None,
    download_progress: Progress | None = None,
    import_progress: Progress | None = None,
) -> ImportReport:
    """Download the newest database of ``ruleset`` and import it into the index."""
    folder = home if home is not None else index_home()
    if ruleset not in SOURCES:
        raise DownloadFailed(f"unknown game {ruleset!r}; games are {', '.join(SOURCES)}")
    source = SOURCES[ruleset]
    target = folder / "downloads" / f"{ruleset}-{source.file_name}"
    origin = download(ruleset, target, url=url, progress=download_progress)
    fmt = detect_format(target)
    game = card_formats()[fmt][0].name
    if game != ruleset:
        raise DownloadFailed(f"{origin} is a {game} database, not a {ruleset} one")
    return import_file(target, fmt, home=folder, progress=import_progress, origin=origin)
