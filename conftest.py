"""The card index the tests use: the repository's small fixtures of real cards
(``tests/fixtures/cards``), imported into a temporary ``CARDZONES_HOME`` for the
whole run. Scenarios with ``card_data:`` find their cards on a clean clone, and
no test reads or changes a card index of the user's own."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

CARD_FIXTURES = Path(__file__).resolve().parent / "tests" / "fixtures" / "cards"
#: The files imported for the run, one per game.
CARD_FILES = ("fab-card.json", "redemption-carddata.txt")

_saved: dict[str, str | None] = {}


def pytest_configure(config: pytest.Config) -> None:
    from cardzones.cards.importers import import_file
    from cardzones.cards.index import HOME_VARIABLE

    home = Path(tempfile.mkdtemp(prefix="cardzones-test-home-"))
    _saved["home"] = os.environ.get(HOME_VARIABLE)
    _saved["folder"] = str(home)
    os.environ[HOME_VARIABLE] = str(home)
    for name in CARD_FILES:
        import_file(CARD_FIXTURES / name, home=home)


def pytest_unconfigure(config: pytest.Config) -> None:
    from cardzones.cards.index import HOME_VARIABLE

    folder = _saved.pop("folder", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
    previous = _saved.pop("home", None)
    if previous is None:
        os.environ.pop(HOME_VARIABLE, None)
    else:
        os.environ[HOME_VARIABLE] = previous
