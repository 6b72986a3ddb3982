"""Sidewinder: runs along each row, each run opening north once (vectorised; biased).

1. The top row is one corridor.
2. In every other row, each cell extends the current run east with probability ``bias``
   (the last cell always closes it); each closed run opens the north wall of one random cell.
The top row is always a straight corridor, and there are no dead ends pointing south.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from laby3d.maze.algorithms.base import Algorithm, Option, on_grid, probability


def carve_grid(rows: int, cols: int, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a sidewinder maze, row by row."""
    index = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    extend = rng.random((rows, cols)) < options["bias"]
    extend[0, :] = True
    extend[:, -1] = False
    east = np.stack([index[extend], index[extend] + 1], axis=1)
    # Runs in rows 1.. : a run ends at every cell that does not extend east.
    ends = np.flatnonzero(~extend[1:].ravel()) + cols
    starts = np.concatenate([[cols], ends[:-1] + 1])
    picked = starts + (rng.random(len(starts)) * (ends - starts + 1)).astype(np.int64)
    north = np.stack([picked - cols, picked], axis=1)
    passages = np.concatenate([east, north])
    return passages[np.argsort(passages[:, 1] // cols, kind="stable")]


ALGORITHM = Algorithm(
    "sidewinder",
    "row runs that each open north once; straight top row",
    {"square": on_grid(carve_grid)},
    options={"bias": Option(0.5, "probability that a run extends east (longer runs)", probability)},
)
