"""Recursive division: a wall adder.

1. Start from an open field (every interior wall open).
2. Split the current rectangle by a wall across its shorter side (random when square) at a
   random place, leaving one random gap; repeat on both halves (explicit stack).
3. Stop on rectangles one cell wide. Gives long straight walls and a visible box structure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from laby3d.accel import kernel
from laby3d.maze.algorithms.base import Algorithm, cell_neighbour_pairs, on_grid


@kernel(python_ns=4_000)  # ns per cell as Python: bench/bench_jit.py
def _divide(rows: int, cols: int, draws: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    closed_east = np.zeros((rows, max(cols - 1, 0)), dtype=np.bool_)
    closed_south = np.zeros((max(rows - 1, 0), cols), dtype=np.bool_)
    stack = np.empty((rows * cols + 1, 4), dtype=np.int64)
    stack[0, 0] = 0
    stack[0, 1] = 0
    stack[0, 2] = rows
    stack[0, 3] = cols
    top = 1
    d = 0
    while top > 0:
        top -= 1
        r0 = stack[top, 0]
        c0 = stack[top, 1]
        h = stack[top, 2]
        w = stack[top, 3]
        if h < 2 or w < 2:
            continue
        horizontal = h > w or (h == w and draws[d] < 0.5)
        if horizontal:
            split = 1 + int(draws[d + 1] * (h - 1))
            gap = c0 + int(draws[d + 2] * w)
            for c in range(c0, c0 + w):
                closed_south[r0 + split - 1, c] = c != gap
            stack[top, 0] = r0
            stack[top, 1] = c0
            stack[top, 2] = split
            stack[top, 3] = w
            stack[top + 1, 0] = r0 + split
            stack[top + 1, 1] = c0
            stack[top + 1, 2] = h - split
            stack[top + 1, 3] = w
        else:
            split = 1 + int(draws[d + 1] * (w - 1))
            gap = r0 + int(draws[d + 2] * h)
            for r in range(r0, r0 + h):
                closed_east[r, c0 + split - 1] = r != gap
            stack[top, 0] = r0
            stack[top, 1] = c0
            stack[top, 2] = h
            stack[top, 3] = split
            stack[top + 1, 0] = r0
            stack[top + 1, 1] = c0 + split
            stack[top + 1, 2] = h
            stack[top + 1, 3] = w - split
        top += 2
        d += 3
    return closed_east, closed_south


def carve_grid(rows: int, cols: int, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages left open by recursive division, east walls first, in row-major order."""
    closed_east, closed_south = _divide(rows, cols, rng.random(3 * rows * cols + 3), cells=rows * cols)
    east, south = cell_neighbour_pairs(rows, cols)
    return np.concatenate([east[~closed_east.ravel()], south[~closed_south.ravel()]])


ALGORITHM = Algorithm(
    "recursive_division", "adds walls to an open field, each with one gap", {"square": on_grid(carve_grid)}
)
