"""The pytest plugin: every ``*.scenario.yaml`` file is one test.

It is registered through the ``pytest11`` entry point, so an installed
cardzones makes ``pytest scenarios/`` run every scenario.

Scenarios with ``card_data:`` read the card index. The ini option
``cardzones_card_files`` lists card database files (paths relative to the ini
file) that are imported into a temporary ``CARDZONES_HOME`` for the whole run,
so that those scenarios run on the same cards everywhere, a clean clone
included, and never read or change a card index of the user's own::

    [tool.pytest.ini_options]
    cardzones_card_files = ["tests/fixtures/cards/fab-card.json"]
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

from cardzones.scenario.runner import PASS, run_file

CARD_FILES = "cardzones_card_files"
_HOME = pytest.StashKey[tuple[Path, str | None]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        CARD_FILES,
        "card database files to import into a temporary card index for the run",
        type="paths",
        default=[],
    )


def pytest_configure(config: pytest.Config) -> None:
    files: list[Path] = config.getini(CARD_FILES)
    if not files:
        return
    from cardzones.cards.importers import import_file
    from cardzones.cards.index import HOME_VARIABLE

    home = Path(tempfile.mkdtemp(prefix="cardzones-cards-"))
    config.stash[_HOME] = (home, os.environ.get(HOME_VARIABLE))
    os.environ[HOME_VARIABLE] = str(home)
    for path in files:
        import_file(path, home=home)


def pytest_unconfigure(config: pytest.Config) -> None:
    from cardzones.cards.index import HOME_VARIABLE

    saved = config.stash.get(_HOME, None)
    if saved is None:
        return
    home, previous = saved
    shutil.rmtree(home, ignore_errors=True)
    if previous is None:
        os.environ.pop(HOME_VARIABLE, None)
    else:
        os.environ[HOME_VARIABLE] = previous


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.name.endswith(".scenario.yaml"):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Any:
        yield ScenarioItem.from_parent(self, name=self.path.name[: -len(".scenario.yaml")])


class ScenarioFailed(Exception):
    """A scenario did not hold."""


class ScenarioItem(pytest.Item):
    def runtest(self) -> None:
        outcome = run_file(self.path)
        if outcome.status != PASS:
            raise ScenarioFailed(outcome.describe())

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario: {self.name}"
