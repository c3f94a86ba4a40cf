"""The benchmarks behind ``cardzones bench``: speed measured as ratios against
floors measured in the same run, never as timed assertions.

- :mod:`cardzones.bench.position`: the standard position and its actions;
- :mod:`cardzones.bench.floors`: what a move, a copy and a view cost with
  nothing else, and the move workload;
- :mod:`cardzones.bench.timing`: each figure timed beside its floor;
- :mod:`cardzones.bench.run`: the run and its report (``cardzones bench``);
- :mod:`cardzones.bench.table`: the table server under load, against a bare
  WebSocket echo and a bare insert-and-commit (``cardzones bench --table``);
- :mod:`cardzones.bench.capacity`: how many tables one process holds under an
  open-loop load like real tables;
- :mod:`cardzones.bench.growth`: an act late in a long game against an early
  one, through the table and store layers;
- :mod:`cardzones.bench.abuse`: another table's latency while an abusive
  client runs (``--abuse``);
- :mod:`cardzones.bench.program`: the table's benchmarks as a program of their own
  (``python -m cardzones.bench.program``).

docs/performance.md defines every figure and its floor.
"""

from cardzones.bench.floors import (
    Bare,
    Workload,
    bare_copy,
    bare_state,
    bare_view,
    check_bare,
    copy_state,
    count_dicts,
    make_workload,
    replay_bare,
    view_plan,
)
from cardzones.bench.position import STANDARD_OBJECTS, apply_action, build_position
from cardzones.bench.run import (
    GROWTH_KEYS,
    KEYS,
    RUN_KEYS,
    growth_report,
    parse_sizes,
    report,
    run_bench,
)

__all__ = [
    "GROWTH_KEYS",
    "KEYS",
    "RUN_KEYS",
    "STANDARD_OBJECTS",
    "Bare",
    "Workload",
    "apply_action",
    "bare_copy",
    "bare_state",
    "bare_view",
    "build_position",
    "check_bare",
    "copy_state",
    "count_dicts",
    "growth_report",
    "make_workload",
    "parse_sizes",
    "replay_bare",
    "report",
    "run_bench",
    "view_plan",
]
