"""Hypothesis profiles, chosen with the CARDZONES_PROFILE environment variable.

- ``ci`` (the default): a few hundred examples per property, the same ones on
  every run, so that the whole suite stays quick and repeatable.
- ``long``: at least 100,000 examples per property, drawn afresh each run.
  See docs/hidden-information.md for the command.
- ``dev``: a handful of examples, to try a change quickly.

A test that sets ``max_examples`` itself keeps its own number in every profile.
"""

from __future__ import annotations

import os

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

#: tests/plugins holds a rule set from outside cardzones, with its own scenario;
#: test_plugin.py installs it for its own tests and runs that scenario there.
collect_ignore = ["plugins"]
