"""How big a maze each kind of output may be: refused up front, with the estimate and the
largest size that fits, by the same rule in ``generate``, ``export`` and ``batch``.

Text, pictures and the maze file are limited only by the maze size (:data:`MAX_SIDE` rows and
columns). Solids, laser sheets and walk-through pages are limited by the memory one maze needs
while it is rendered (peak figures measured with ``bench/``; see bench/README.md).
"""

from __future__ import annotations

import math

from laby3d.errors import ParameterError
from laby3d.maze.model import MAX_SIDE

#: Memory of a worker before the maze, MB.
BASE_MB = 200.0
#: Peak memory per cell by what an output needs, KB (solid: bench_solid at 300×300).
PER_CELL_KB = {"maze": 0.3, "solid": 2.5, "laser": 1.5, "page": 1.0}
#: Memory one maze may use while rendered, MB.
LIMIT_MB = 3000.0


def estimate_mb(rows: int, cols: int, needs: set[str]) -> float:
    """Peak memory, MB, of rendering a ``rows × cols`` maze's outputs that need ``needs``."""
    per_cell = max((PER_CELL_KB[need] for need in needs | {"maze"}), default=PER_CELL_KB["maze"])
    return BASE_MB + rows * cols * per_cell / 1024


def check_budget(rows: int, cols: int, needs: set[str]) -> None:
    """Refuse a ``rows × cols`` maze up front when rendering its outputs that need ``needs``
    would take more than :data:`LIMIT_MB`; the error is on ``maze.rows``."""
    estimate = estimate_mb(rows, cols, needs)
    if estimate <= LIMIT_MB:
        return
    per_cell = max(PER_CELL_KB[need] for need in needs)
    largest = int(math.sqrt((LIMIT_MB - BASE_MB) * 1024 / per_cell))
    kinds = ", ".join(sorted(needs))
    raise ParameterError(
        f"{rows} with cols {cols}: would need about {estimate:,.0f} MB for the {kinds} outputs; at most "
        f"{LIMIT_MB:,.0f} MB per maze, about {largest}×{largest} cells (text and pictures go up to "
        f"{MAX_SIDE}×{MAX_SIDE})",
        field="maze.rows",
    )
