"""Growing tree on any cell graph: a bag of active cells and a pick policy (the steps, policies
and bag of :mod:`laby3d.maze.algorithms.growing_tree`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.accel import kernel
from laby3d.maze.algorithms.graph.csr import gather_csr
from laby3d.maze.algorithms.growing_tree import UNVISITED, _bag_add, _bag_remove, _heap_max, policy_thresholds

if TYPE_CHECKING:
    from laby3d.tessellation import CellGraph


@kernel(python_ns=65_000)  # ns per cell as Python (bench/bench_shapes.py; on the square kernels' scale)
def _growing_tree(
    indptr: np.ndarray, neighbours: np.ndarray, draws: np.ndarray, cumulative: np.ndarray, max_degree: int
) -> np.ndarray:
    n = indptr.shape[0] - 1
    status = np.zeros(n, dtype=np.uint8)
    bag = np.array([0, -1, -1, 0], dtype=np.int64)
    members = np.empty(n, dtype=np.int32)
    slot = np.empty(n, dtype=np.int32)
    before = np.empty(n, dtype=np.int32)
    after = np.empty(n, dtype=np.int32)
    heap = np.empty(n, dtype=np.int32)
    choices = np.empty(max(max_degree, 1), dtype=np.int32)
    out = np.empty((n - 1, 2), dtype=np.int32)
    _bag_add(int(draws[0] * n), status, bag, members, slot, before, after, heap)
    d = 1
    k = 0
    while bag[0] > 0:
        u = draws[d]
        if u < cumulative[0]:
            cell = bag[2]
        elif u < cumulative[1]:
            cell = bag[1]
        elif u < cumulative[2]:
            share = (u - cumulative[1]) / (cumulative[2] - cumulative[1])
            cell = members[min(int(share * bag[0]), bag[0] - 1)]
        else:
            cell = _heap_max(status, bag, heap)
        m = gather_csr(cell, indptr, neighbours, status, UNVISITED, choices)
        if m == 0:
            _bag_remove(cell, status, bag, members, slot, before, after)
        else:
            nxt = choices[int(draws[d + 1] * m)]
            out[k, 0] = cell
            out[k, 1] = nxt
            k += 1
            _bag_add(nxt, status, bag, members, slot, before, after, heap)
        d += 2
    return out


def carve(graph: CellGraph, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a growing-tree maze on ``graph``, in opening order."""
    indptr, neighbours, _ = graph.adjacency
    n = graph.cell_count
    draws = rng.random(4 * n + 1)
    return _growing_tree(indptr, neighbours, draws, policy_thresholds(options), graph.max_degree, cells=n)
