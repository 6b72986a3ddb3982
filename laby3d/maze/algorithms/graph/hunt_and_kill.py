"""Hunt-and-kill on any cell graph: a random walk into unvisited cells; when stuck, hunt row by
row (theta: ring by ring) for an unvisited cell next to a visited one (the steps of
:mod:`laby3d.maze.algorithms.hunt_and_kill`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.accel import kernel
from laby3d.maze.algorithms.graph.csr import gather_csr

if TYPE_CHECKING:
    from laby3d.tessellation import CellGraph


@kernel(python_ns=150_000)  # ns per cell as Python (bench/bench_shapes.py; on the square kernels' scale)
def _hunt_and_kill(
    indptr: np.ndarray, neighbours: np.ndarray, row_starts: np.ndarray, draws: np.ndarray, max_degree: int
) -> np.ndarray:
    n = indptr.shape[0] - 1
    rows = row_starts.shape[0] - 1
    visited = np.zeros(n, dtype=np.bool_)
    unvisited_in_row = np.empty(rows, dtype=np.int64)
    row_of = np.empty(n, dtype=np.int64)
    for row in range(rows):
        unvisited_in_row[row] = row_starts[row + 1] - row_starts[row]
        for cell in range(row_starts[row], row_starts[row + 1]):
            row_of[cell] = row
    choices = np.empty(max(max_degree, 1), dtype=np.int32)
    out = np.empty((n - 1, 2), dtype=np.int32)
    d = 0
    cell = int(draws[d] * n)
    d += 1
    visited[cell] = True
    unvisited_in_row[row_of[cell]] -= 1
    first_row = 0
    k = 0
    while k < n - 1:
        m = gather_csr(cell, indptr, neighbours, visited, False, choices)
        if m > 0:  # kill: walk on
            nxt = choices[int(draws[d] * m)]
            d += 1
        else:  # hunt
            while unvisited_in_row[first_row] == 0:
                first_row += 1
            nxt = -1
            row = first_row
            while nxt < 0:
                if unvisited_in_row[row] > 0:
                    for candidate in range(row_starts[row], row_starts[row + 1]):
                        if not visited[candidate]:
                            m = gather_csr(candidate, indptr, neighbours, visited, True, choices)
                            if m > 0:
                                nxt = candidate
                                cell = choices[int(draws[d] * m)]
                                d += 1
                                break
                row += 1
        visited[nxt] = True
        unvisited_in_row[row_of[nxt]] -= 1
        out[k, 0] = cell
        out[k, 1] = nxt
        k += 1
        cell = nxt
    return out


def carve(graph: CellGraph, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a hunt-and-kill maze on ``graph``, in opening order."""
    indptr, neighbours, _ = graph.adjacency
    n = graph.cell_count
    return _hunt_and_kill(indptr, neighbours, graph.row_starts, rng.random(n + 1), graph.max_degree, cells=n)
