"""The pytest plugin: every ``*.scenario.yaml`` file is one test.

It is registered through the ``pytest11`` entry point, so an installed
cardzones makes ``pytest scenarios/`` run every scenario.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardzones.scenario.runner import PASS, run_file


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
