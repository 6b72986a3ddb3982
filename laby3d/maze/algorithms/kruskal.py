"""Randomized Kruskal: walls in random order, union-find over cells.

1. Shuffle every interior wall.
2. For each wall, if its two cells are in different sets, open it and unite the sets
   (union by size, path halving).
3. Stop after ``rows·cols − 1`` openings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from laby3d.accel import kernel
from laby3d.maze.algorithms.base import Algorithm
from laby3d.unionfind import find


@kernel(python_ns=11_800)  # ns per cell as Python: bench/bench_jit.py
def _kruskal(rows: int, cols: int, wall_order: np.ndarray) -> np.ndarray:
    n = rows * cols
    east_walls = rows * (cols - 1)
    parent = np.arange(n, dtype=np.int32)
    size = np.ones(n, dtype=np.int32)
    out = np.empty((n - 1, 2), dtype=np.int32)
    k = 0
    for wall in wall_order:
        if k == n - 1:
            break
        if wall < east_walls:
            a = (wall // (cols - 1)) * cols + wall % (cols - 1)
            b = a + 1
        else:
            a = wall - east_walls
            b = a + cols
        root_a = find(parent, a)
        root_b = find(parent, b)
        if root_a == root_b:
            continue
        if size[root_a] < size[root_b]:
            root_a, root_b = root_b, root_a
        parent[root_b] = root_a
        size[root_a] += size[root_b]
        out[k, 0] = a
        out[k, 1] = b
        k += 1
    return out


def carve(rows: int, cols: int, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a randomized-Kruskal maze, in opening order."""
    walls = rows * (cols - 1) + (rows - 1) * cols
    order = rng.permutation(walls).astype(np.int32)
    return _kruskal(rows, cols, order, cells=rows * cols)


ALGORITHM = Algorithm("kruskal", "random wall order, union-find (union by size, path halving)", carve)
