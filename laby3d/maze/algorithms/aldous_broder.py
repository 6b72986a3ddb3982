"""Aldous–Broder: a random walk that opens the wall into every cell it enters first.

1. Start at a random cell.
2. Step to a uniformly random neighbour; if it was never visited, open the wall walked through.
3. Stop once every cell is visited. Uniform over all perfect mazes (and slow: cover time).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.accel import kernel
from laby3d.maze.algorithms.base import Algorithm, on_graph, on_grid
from laby3d.maze.algorithms.csr import random_neighbour, run_graph_walk
from laby3d.maze.algorithms.walk import run_walk, step_to

if TYPE_CHECKING:
    from laby3d.tessellation import CellGraph

# state: [current cell, passages opened so far]


@kernel(python_ns=10_000)  # ns per cell as Python: bench/bench_jit.py
def _grid_walk(
    rows: int, cols: int, steps: np.ndarray, state: np.ndarray, visited: np.ndarray, out: np.ndarray
) -> bool:
    n = rows * cols
    cell = state[0]
    k = state[1]
    i = 0
    while k < n - 1:
        if i == steps.shape[0]:
            state[0] = cell
            state[1] = k
            return False
        nxt = step_to(cell, steps[i], rows, cols)
        i += 1
        if nxt < 0:
            continue
        if not visited[nxt]:
            visited[nxt] = True
            out[k, 0] = cell
            out[k, 1] = nxt
            k += 1
        cell = nxt
    state[1] = k
    return True


def carve_grid(rows: int, cols: int, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of an Aldous–Broder maze, in opening order."""
    n = rows * cols
    visited = np.zeros(n, dtype=np.bool_)
    start = int(rng.integers(n))
    visited[start] = True
    state = np.array([start, 0], dtype=np.int64)
    return run_walk(_grid_walk, rows, cols, rng, state, visited)


@kernel(python_ns=26_000)  # ns per cell as Python (bench/bench_shapes.py; on the square kernels' scale)
def _graph_walk(
    indptr: np.ndarray,
    neighbours: np.ndarray,
    draws: np.ndarray,
    state: np.ndarray,
    visited: np.ndarray,
    out: np.ndarray,
) -> bool:
    n = visited.shape[0]
    cell = state[0]
    k = state[1]
    i = 0
    while k < n - 1:
        if i == draws.shape[0]:
            state[0] = cell
            state[1] = k
            return False
        nxt = random_neighbour(cell, indptr, neighbours, draws[i])
        i += 1
        if not visited[nxt]:
            visited[nxt] = True
            out[k, 0] = cell
            out[k, 1] = nxt
            k += 1
        cell = nxt
    state[1] = k
    return True


def carve_graph(graph: CellGraph, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of an Aldous–Broder maze on ``graph``, in opening order."""
    n = graph.cell_count
    visited = np.zeros(n, dtype=np.bool_)
    start = int(rng.integers(n))
    visited[start] = True
    state = np.array([start, 0], dtype=np.int64)
    return run_graph_walk(_graph_walk, graph, rng, state, visited)


ALGORITHM = Algorithm(
    "aldous_broder",
    "random walk opening walls into new cells; uniform, slow",
    {"square": on_grid(carve_grid), "any": on_graph(carve_graph)},
    uniform=True,
)
