"""Where the command line writes: ``console`` for results, ``errors`` for
problems (standard error)."""

from rich.console import Console

console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)
