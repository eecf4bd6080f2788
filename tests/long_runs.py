"""How long a run: the short versions ``make test`` runs, or the long ones a benchmark asks for.

A test with a long version (every size, whole games) reads ``long_runs()`` to choose its cases, so
the long run is the same test code with more cases, not a copy of it. ``make test`` leaves the
variable unset; ``python -m benchmarks.long_runs`` sets it.

    SIZES = ALL_SIZES if long_runs() else ALL_SIZES[:1]
"""

from __future__ import annotations

import os

LONG_RUNS_ENV = "COURTSIDE_LONG_RUNS"


def long_runs() -> bool:
    """Whether this run asks for the long versions (``COURTSIDE_LONG_RUNS=1``)."""
    return os.environ.get(LONG_RUNS_ENV) == "1"
