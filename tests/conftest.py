"""Hypothesis profiles, chosen with the CARDZONES_PROFILE environment variable,
and the throwaway Postgres cluster of the table store's tests.

- ``ci`` (the default): a few hundred examples per property, the same ones on
  every run, so that the whole suite stays quick and repeatable.
- ``long``: at least 100,000 examples per property, drawn afresh each run.
  See docs/hidden-information.md for the command. ``CARDZONES_EXAMPLES=N``
  sets the number of examples per property in any profile.
- ``dev``: a handful of examples, to try a change quickly.

A test that sets ``max_examples`` itself keeps its own number in every profile.
"""

from __future__ import annotations

import os
import socket
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
if os.environ.get("CARDZONES_EXAMPLES"):
    # How many examples per property in this run, whatever the profile says:
    # a long run sized to the time it has (docs/hidden-information.md).
    settings.register_profile(
        "sized", settings.default, max_examples=int(os.environ["CARDZONES_EXAMPLES"])
    )
    settings.load_profile("sized")

#: tests/plugins holds a rule set from outside cardzones, with its own scenario;
#: test_plugin.py installs it for its own tests and runs that scenario there.
collect_ignore = ["plugins"]

# ----------------------------------------------------------------------
# A throwaway Postgres cluster for the table store's tests
# ----------------------------------------------------------------------


#: The example third rule set of docs/writing-a-ruleset.md, as its package.
PATIENCE = Path(__file__).parent / "plugins" / "patience_dist" / "cardzones_patience"


def patience_ruleset() -> type:
    """The third game's rule set class, loaded from its package's file (not
    installed: the tests that install it are test_plugin.py's)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("cardzones_patience", PATIENCE / "__init__.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ruleset: type = module.PatienceRuleset
    return ruleset


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A Postgres cluster on 127.0.0.1 for this test session, removed at the
    end: the URL of its ``postgres`` database."""
    from cardzones.bench.pgcluster import ClusterError, check_available, throwaway_cluster

    try:
        check_available()
    except ClusterError as missing:
        pytest.skip(f"needs Postgres: {missing}")
    with throwaway_cluster(fsync=False) as url:
        yield url


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """A new, empty database on the session's cluster."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return postgres_server.rsplit("/", 1)[0] + f"/{name}"
