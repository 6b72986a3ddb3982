"""Randomized Kruskal on any cell graph: the walls in random order, union-find over cells
(the steps of :mod:`laby3d.maze.algorithms.kruskal`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.accel import kernel
from laby3d.unionfind import find

if TYPE_CHECKING:
    from laby3d.tessellation import CellGraph


@kernel(python_ns=18_000)  # ns per cell as Python (bench/bench_shapes.py; on the square kernels' scale)
def _kruskal(n: int, first: np.ndarray, second: np.ndarray, wall_order: np.ndarray) -> np.ndarray:
    parent = np.arange(n, dtype=np.int32)
    size = np.ones(n, dtype=np.int32)
    out = np.empty((max(n - 1, 0), 2), dtype=np.int32)
    k = 0
    for wall in wall_order:
        if k == n - 1:
            break
        a = first[wall]
        b = second[wall]
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


def carve(graph: CellGraph, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a randomized-Kruskal maze on ``graph``, in opening order."""
    order = rng.permutation(len(graph.edges)).astype(np.int32)
    return _kruskal(graph.cell_count, graph.edges[:, 0], graph.edges[:, 1], order, cells=graph.cell_count)
