"""The README's set-up commands and ``.ci/run`` say the same thing: CI
installs as the README does and then runs, as its last command and with no
variable of its own, exactly the README's test command; and the card
fixtures CI imports for ``cardzones check scenarios`` are those pytest
imports itself (``cardzones_card_files``)."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CI = ROOT / ".ci" / "run"


def _readme_commands() -> list[list[str]]:
    """The shell blocks of the README's Set-up section, each split at ``&&``."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    return [[part.strip() for part in block.strip().split("&&")] for block in blocks]


def _ci_lines() -> list[str]:
    lines = [line.strip() for line in CI.read_text(encoding="utf-8").splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def _words(command: str) -> list[str]:
    """A command's words, without pip's -q (CI is quieter, nothing else)."""
    return [w for w in shlex.split(command) if w != "-q"]


def test_the_readme_has_the_two_set_up_commands() -> None:
    demo, tests = _readme_commands()
    assert demo[-1] == ".venv/bin/cardzones demo"
    # Both install the online table, so that `cardzones serve` runs after either.
    assert _words(demo[1]) == [".venv/bin/pip", "install", "-e", ".[table]"]
    assert tests[0] == "python3 -m venv .venv"
    assert _words(tests[1]) == [".venv/bin/pip", "install", "-e", ".[test]"]


def test_ci_installs_as_the_readme_and_ends_with_its_test_command() -> None:
    *_, tests = _readme_commands()
    venv, install, *test_command = tests
    lines = _ci_lines()
    (setup,) = [line for line in lines if line.startswith("python3 -m venv")]
    ci_venv, ci_install = (part.strip() for part in setup.split("&&"))
    assert ci_venv == venv
    assert _words(ci_install) == _words(install)
    assert lines[-1:] == test_command
    # Nothing CI sets reaches the test run: the README's command runs as it is.
    assert not [line for line in lines if line.startswith("export ")]


def test_ci_imports_the_card_fixtures_pytest_imports() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    fixtures = config["tool"]["pytest"]["ini_options"]["cardzones_card_files"]
    imported = [shlex.split(line)[-1] for line in _ci_lines() if "cardzones cards import" in line]
    assert imported == fixtures
    for path in fixtures:
        assert (ROOT / path).is_file()
    check = [line for line in _ci_lines() if "cardzones check scenarios" in line]
    assert check and all(line.startswith('CARDZONES_HOME="$cards_home" ') for line in check)
