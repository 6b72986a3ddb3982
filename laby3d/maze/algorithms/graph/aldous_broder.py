"""Aldous–Broder on any cell graph: a random walk that opens the wall into every cell it enters
first; uniform over the spanning trees (the steps of :mod:`laby3d.maze.algorithms.aldous_broder`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.accel import kernel
from laby3d.maze.algorithms.graph.csr import random_neighbour, run_graph_walk

if TYPE_CHECKING:
    from laby3d.tessellation import CellGraph

# state: [current cell, passages opened so far]


@kernel(python_ns=26_000)  # ns per cell as Python (bench/bench_shapes.py; on the square kernels' scale)
def _walk(
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


def carve(graph: CellGraph, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of an Aldous–Broder maze on ``graph``, in opening order."""
    n = graph.cell_count
    visited = np.zeros(n, dtype=np.bool_)
    start = int(rng.integers(n))
    visited[start] = True
    state = np.array([start, 0], dtype=np.int64)
    return run_graph_walk(_walk, graph, rng, state, visited)
