"""Kernel helpers over a cell graph in CSR form (``indptr``, ``neighbours``), and the driver of
the random-walk kernels.

The graph versions of the generators draw their random numbers the way the square kernels do
(arrays of uniform floats drawn up front from the maze's one generator); a neighbour is picked as
``int(u · count)``, uniform over the ``count`` candidates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from laby3d.accel import Kernel, helper

if TYPE_CHECKING:
    from laby3d.tessellation import CellGraph


@helper
def gather_csr(
    cell: int, indptr: np.ndarray, neighbours: np.ndarray, flags: np.ndarray, value: int, choices: np.ndarray
) -> int:
    """Write the neighbours ``nb`` of ``cell`` with ``flags[nb] == value`` into ``choices`` (in
    increasing order) and return how many there are."""
    m = 0
    for i in range(indptr[cell], indptr[cell + 1]):
        other = neighbours[i]
        if flags[other] == value:
            choices[m] = other
            m += 1
    return m


@helper
def random_neighbour(cell: int, indptr: np.ndarray, neighbours: np.ndarray, u: float) -> int:
    """The neighbour of ``cell`` that the uniform draw ``u`` in [0, 1) picks."""
    return neighbours[indptr[cell] + int(u * (indptr[cell + 1] - indptr[cell]))]


def run_graph_walk(
    walk: Kernel, graph: CellGraph, rng: np.random.Generator, state: np.ndarray, flags: np.ndarray, *extra: np.ndarray
) -> np.ndarray:
    """Feed ``walk`` chunks of uniform draws until it reports completion; return the passages."""
    n = graph.cell_count
    indptr, neighbours, _ = graph.adjacency
    out = np.empty((max(n - 1, 0), 2), dtype=np.int32)
    chunk = max(4096, 8 * n)
    while not walk(indptr, neighbours, rng.random(chunk), state, flags, out, *extra, cells=n):
        pass
    return out
