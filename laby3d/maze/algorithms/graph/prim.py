"""Randomized Prim on any cell graph, over a frontier of cells (the steps of
:mod:`laby3d.maze.algorithms.prim`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.accel import kernel
from laby3d.maze.algorithms.graph.csr import gather_csr
from laby3d.maze.algorithms.prim import FRONTIER, IN_MAZE, OUTSIDE

if TYPE_CHECKING:
    from laby3d.tessellation import CellGraph


@kernel(python_ns=12_000)  # ns per cell as Python (bench/bench_shapes.py; on the square kernels' scale)
def _prim(indptr: np.ndarray, neighbours: np.ndarray, draws: np.ndarray, max_degree: int) -> np.ndarray:
    n = indptr.shape[0] - 1
    status = np.zeros(n, dtype=np.uint8)
    frontier = np.empty(n, dtype=np.int32)
    slot = np.empty(n, dtype=np.int32)
    choices = np.empty(max(max_degree, 1), dtype=np.int32)
    out = np.empty((n - 1, 2), dtype=np.int32)
    cell = int(draws[0] * n)
    d = 1
    size = 0
    k = 0
    while True:
        status[cell] = IN_MAZE
        m = gather_csr(cell, indptr, neighbours, status, OUTSIDE, choices)
        for j in range(m):
            status[choices[j]] = FRONTIER
            frontier[size] = choices[j]
            slot[choices[j]] = size
            size += 1
        if size == 0:
            break
        index = int(draws[d] * size)
        cell = frontier[index]
        size -= 1
        frontier[index] = frontier[size]
        slot[frontier[index]] = index
        m = gather_csr(cell, indptr, neighbours, status, IN_MAZE, choices)
        out[k, 0] = choices[int(draws[d + 1] * m)]
        out[k, 1] = cell
        d += 2
        k += 1
    return out


def carve(graph: CellGraph, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a randomized-Prim maze on ``graph``, in opening order."""
    indptr, neighbours, _ = graph.adjacency
    n = graph.cell_count
    return _prim(indptr, neighbours, rng.random(2 * n + 1), graph.max_degree, cells=n)
