"""Binary tree: every cell opens north or east (vectorised; biased).

Each cell opens its north wall with probability ``bias`` and otherwise its east wall; the top
row can only open east and the last column only north. The top row and the last column are
therefore straight corridors, and the maze is biased towards the north-east corner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from laby3d.maze.algorithms.base import Algorithm, Option, on_grid, probability


def carve_grid(rows: int, cols: int, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a binary-tree maze, row by row."""
    index = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    north = rng.random((rows, cols)) < options["bias"]
    north[0, :] = False
    north[:, -1] = True
    north[0, -1] = False
    target = np.where(north, index - cols, index + 1)
    keep = index != cols - 1  # the top-right cell opens nothing
    return np.stack([index[keep], target[keep]], axis=1)


ALGORITHM = Algorithm(
    "binary_tree",
    "each cell opens north or east; straight top row and east column",
    {"square": on_grid(carve_grid)},
    options={"bias": Option(0.5, "probability that a cell opens north rather than east", probability)},
)
