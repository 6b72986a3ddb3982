"""Eller's algorithm: row by row with sets, memory O(cols) beyond the output.

1. Give every cell of the row without a set a new set.
2. Join neighbours of different sets at random (probability ``join``; always in the last row).
3. From every set, open at least one wall south (each cell with probability ``down``, and one
   random cell of a set that chose none); cells below keep the set.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from laby3d.accel import kernel
from laby3d.maze.algorithms.base import Algorithm, Option, on_grid, probability
from laby3d.unionfind import find


@kernel(python_ns=6_900)  # ns per cell as Python: bench/bench_jit.py
def _eller_rows(
    rows: int,
    cols: int,
    first_row: int,
    draws: np.ndarray,
    labels: np.ndarray,
    join: float,
    down: float,
    out: np.ndarray,
    counter: np.ndarray,
) -> None:
    parent = np.empty(cols, dtype=np.int32)
    root = np.empty(cols, dtype=np.int32)
    size = np.empty(cols, dtype=np.int32)
    seen = np.empty(cols, dtype=np.int32)
    pick = np.empty(cols, dtype=np.int32)
    remap = np.empty(cols, dtype=np.int32)
    any_down = np.empty(cols, dtype=np.bool_)
    goes_down = np.empty(cols, dtype=np.bool_)
    k = counter[0]
    for r in range(first_row, min(first_row + draws.shape[0] // (3 * cols), rows)):
        base = (r - first_row) * 3 * cols
        last = r == rows - 1
        for c in range(cols):
            parent[c] = c
        for c in range(cols - 1):
            a = find(parent, labels[c])
            b = find(parent, labels[c + 1])
            if a != b and (last or draws[base + c] < join):
                parent[b] = a
                out[k, 0] = r * cols + c
                out[k, 1] = r * cols + c + 1
                k += 1
        if last:
            break
        for c in range(cols):
            size[c] = 0
            seen[c] = 0
            any_down[c] = False
            remap[c] = -1
        for c in range(cols):
            root[c] = find(parent, labels[c])
            goes_down[c] = draws[base + cols + c] < down
            if size[root[c]] == 0:
                pick[root[c]] = c  # the draw that picks a fallback cell for this set
            size[root[c]] += 1
            any_down[root[c]] = any_down[root[c]] or goes_down[c]
        for c in range(cols):
            s = root[c]
            if not any_down[s]:
                goes_down[c] = seen[s] == int(draws[base + 2 * cols + pick[s]] * size[s])
            seen[s] += 1
        fresh = 0
        for c in range(cols):
            if goes_down[c]:
                out[k, 0] = r * cols + c
                out[k, 1] = (r + 1) * cols + c
                k += 1
                if remap[root[c]] < 0:
                    remap[root[c]] = fresh
                    fresh += 1
                labels[c] = remap[root[c]]
            else:
                labels[c] = -1
        for c in range(cols):
            if labels[c] < 0:
                labels[c] = fresh
                fresh += 1
    counter[0] = k


def carve_grid(rows: int, cols: int, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of an Eller maze, row by row."""
    out = np.empty((rows * cols - 1, 2), dtype=np.int32)
    labels = np.arange(cols, dtype=np.int32)
    counter = np.zeros(1, dtype=np.int64)
    chunk = max(1, 65536 // cols)
    for first_row in range(0, rows, chunk):
        draws = rng.random(3 * cols * min(chunk, rows - first_row))
        _eller_rows(
            rows,
            cols,
            first_row,
            draws,
            labels,
            options["join"],
            options["down"],
            out,
            counter,
            cells=rows * cols,
        )
    return out


ALGORITHM = Algorithm(
    "eller",
    "row by row with sets; memory O(cols)",
    {"square": on_grid(carve_grid)},
    options={
        "join": Option(0.5, "probability of joining two neighbouring sets in a row", probability),
        "down": Option(0.5, "probability that a cell opens south (at least one per set does)", probability),
    },
)
