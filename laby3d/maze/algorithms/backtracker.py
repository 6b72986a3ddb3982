"""Recursive backtracker (random depth-first search), with an explicit stack.

1. Start at a random cell; push it.
2. While the stack is not empty: from the top cell, open the wall to a random unvisited
   neighbour and push it; if there is none, pop.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.accel import kernel
from laby3d.maze.algorithms.base import Algorithm, on_graph, on_grid
from laby3d.maze.algorithms.csr import gather_csr
from laby3d.maze.algorithms.neighbours import gather

if TYPE_CHECKING:
    from laby3d.tessellation import CellGraph


@kernel(python_ns=23_000)  # ns per cell as Python: bench/bench_jit.py
def _grid_backtracker(rows: int, cols: int, draws: np.ndarray) -> np.ndarray:
    n = rows * cols
    visited = np.zeros(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.int32)
    choices = np.empty(4, dtype=np.int32)
    out = np.empty((n - 1, 2), dtype=np.int32)
    start = int(draws[0] * n)
    visited[start] = True
    stack[0] = start
    top = 1
    k = 0
    while top > 0:
        cell = stack[top - 1]
        m = gather(cell, rows, cols, visited, False, choices)
        if m == 0:
            top -= 1
            continue
        k += 1
        nxt = choices[int(draws[k] * m)]
        visited[nxt] = True
        out[k - 1, 0] = cell
        out[k - 1, 1] = nxt
        stack[top] = nxt
        top += 1
    return out


def carve_grid(rows: int, cols: int, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a recursive-backtracker maze, in opening order."""
    return _grid_backtracker(rows, cols, rng.random(rows * cols), cells=rows * cols)


@kernel(python_ns=41_000)  # ns per cell as Python (bench/bench_shapes.py; on the square kernels' scale)
def _graph_backtracker(indptr: np.ndarray, neighbours: np.ndarray, draws: np.ndarray, max_degree: int) -> np.ndarray:
    n = indptr.shape[0] - 1
    visited = np.zeros(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.int32)
    choices = np.empty(max(max_degree, 1), dtype=np.int32)
    out = np.empty((n - 1, 2), dtype=np.int32)
    start = int(draws[0] * n)
    visited[start] = True
    stack[0] = start
    top = 1
    k = 0
    while top > 0:
        cell = stack[top - 1]
        m = gather_csr(cell, indptr, neighbours, visited, False, choices)
        if m == 0:
            top -= 1
            continue
        k += 1
        nxt = choices[int(draws[k] * m)]
        visited[nxt] = True
        out[k - 1, 0] = cell
        out[k - 1, 1] = nxt
        stack[top] = nxt
        top += 1
    return out


def carve_graph(graph: CellGraph, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a recursive-backtracker maze on ``graph``, in opening order."""
    indptr, neighbours, _ = graph.adjacency
    n = graph.cell_count
    return _graph_backtracker(indptr, neighbours, rng.random(n), graph.max_degree, cells=n)


ALGORITHM = Algorithm(
    "backtracker",
    "random depth-first search with an explicit stack: long corridors",
    {"square": on_grid(carve_grid), "any": on_graph(carve_graph)},
)
