"""The CPU time a server process spends, read from outside it, for the
figures of ``cardzones bench --table`` that say what one act, one menu and
one echo frame cost the server (``act_cpu_us``, ``menu_cpu_us``,
``echo_cpu_us``).

A server's CPU time (user and system, every thread of the process) is read
at the start and at the end of a measured window, and the difference is
divided by what the server completed in the window. Latency says how long a
client waited, which on a busy machine is mostly other processes' time; CPU
time says what the server itself did, so it stays comparable on a shared
machine, and an act's against an echo frame's in the same run says how many
echo frames an act costs.

The figures are read from ``/proc`` (Linux); elsewhere they are None.
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass
from pathlib import Path


def cpu_seconds(pid: int) -> float | None:
    """The CPU time process ``pid`` has used so far, in seconds (None: unknown).

    >>> cpu_seconds(os.getpid()) is None or cpu_seconds(os.getpid()) >= 0
    True
    """
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
        ticks = os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, AttributeError):
        return None
    # The command name (field 2) may hold spaces: the fields after it are
    # counted from its closing parenthesis; utime and stime are fields 14, 15.
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / ticks


@dataclass
class CpuWindow:
    """The CPU time a process used between two moments (``used``, seconds;
    None when it cannot be read)."""

    pid: int | None
    used: float | None = None

    async def watch(self, start: float, end: float) -> None:
        """Read the process's CPU time at ``start`` and at ``end``
        (:func:`time.perf_counter` times), sleeping in between."""
        if self.pid is None:
            return
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        first = cpu_seconds(self.pid)
        await asyncio.sleep(max(0.0, end - time.perf_counter()))
        last = cpu_seconds(self.pid)
        if first is not None and last is not None:
            self.used = last - first

    def per(self, count: int) -> float | None:
        """Microseconds of CPU per one of ``count`` things done in the window."""
        if self.used is None or count <= 0:
            return None
        return round(self.used * 1e6 / count, 1)


def ratio(a: float | None, b: float | None) -> float | None:
    """``a / b`` to three places, None when either is unknown or ``b`` is 0.

    >>> ratio(300.0, 20.0), ratio(None, 20.0), ratio(1.0, 0.0)
    (15.0, None, None)
    """
    if a is None or not b:
        return None
    return round(a / b, 3)
