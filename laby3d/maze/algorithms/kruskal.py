"""Randomized Kruskal: walls in random order, union-find over cells.

1. Shuffle every interior wall.
2. For each wall, if its two cells are in different sets, open it and unite the sets
   (union by size, path halving); otherwise leave it closed (rejected).
3. Stop after ``cells − 1`` openings.

The carving records the rejected walls with the number of passages open when each was taken:
the lesson draws them, and the exercise's files list every wall drawn. Two kernels: the square
grid's numbers its walls east walls first, then south walls (each seed's square maze); the cell
graph's takes the tessellation's edge table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.accel import kernel
from laby3d.maze.algorithms.base import Algorithm, Carving
from laby3d.unionfind import find

if TYPE_CHECKING:
    from laby3d.tessellation import Tessellation


@kernel(python_ns=11_800)  # ns per cell as Python: bench/bench_jit.py
def _grid_kruskal(rows: int, cols: int, wall_order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = rows * cols
    east_walls = rows * (cols - 1)
    parent = np.arange(n, dtype=np.int32)
    size = np.ones(n, dtype=np.int32)
    out = np.empty((n - 1, 2), dtype=np.int32)
    taken_at = np.empty(n - 1, dtype=np.int32)
    k = 0
    for i in range(wall_order.shape[0]):
        if k == n - 1:
            break
        wall = wall_order[i]
        if wall < east_walls:
            a = (wall // (cols - 1)) * cols + wall % (cols - 1)
            b = a + 1
        else:
            a = wall - east_walls
            b = a + cols
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
        taken_at[k] = i
        k += 1
    return out, taken_at


@kernel(python_ns=18_000)  # ns per cell as Python (bench/bench_shapes.py; on the square kernels' scale)
def _graph_kruskal(
    n: int, first: np.ndarray, second: np.ndarray, wall_order: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    parent = np.arange(n, dtype=np.int32)
    size = np.ones(n, dtype=np.int32)
    out = np.empty((max(n - 1, 0), 2), dtype=np.int32)
    taken_at = np.empty(max(n - 1, 0), dtype=np.int32)
    k = 0
    for i in range(wall_order.shape[0]):
        if k == n - 1:
            break
        wall = wall_order[i]
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
        taken_at[k] = i
        k += 1
    return out, taken_at


def _carving(passages: np.ndarray, taken_at: np.ndarray, rejected_pairs: Any) -> Carving:
    """The carving of a Kruskal run: the walls drawn before the last passage and not opened are
    the rejected ones (``rejected_pairs(positions)`` gives their cell pairs)."""
    drawn = int(taken_at[-1]) + 1 if len(taken_at) else 0
    rejected = np.ones(drawn, dtype=bool)
    rejected[taken_at] = False
    positions = np.flatnonzero(rejected)
    return Carving(
        passages,
        rejected=np.asarray(rejected_pairs(positions), dtype=np.int32).reshape(-1, 2),
        rejected_at=np.searchsorted(taken_at, positions).astype(np.int32),
    )


def carve_grid(tessellation: Tessellation, rng: np.random.Generator, options: Mapping[str, Any]) -> Carving:
    """A randomized-Kruskal maze on the square grid (walls numbered east walls first)."""
    rows, cols = tessellation.rows, tessellation.cols or 0
    east_walls = rows * (cols - 1)
    order = rng.permutation(east_walls + (rows - 1) * cols).astype(np.int32)
    passages, taken_at = _grid_kruskal(rows, cols, order, cells=rows * cols)

    def pairs(positions: np.ndarray) -> np.ndarray:
        wall = order[positions].astype(np.int64)
        east = wall < east_walls
        first = np.where(east, (wall // max(cols - 1, 1)) * cols + wall % max(cols - 1, 1), wall - east_walls)
        return np.stack([first, np.where(east, first + 1, first + cols)], axis=1)

    return _carving(passages, taken_at, pairs)


def carve_graph(tessellation: Tessellation, rng: np.random.Generator, options: Mapping[str, Any]) -> Carving:
    """A randomized-Kruskal maze on any cell graph (walls in the edge table's order)."""
    graph = tessellation.graph
    order = rng.permutation(len(graph.edges)).astype(np.int32)
    n = graph.cell_count
    passages, taken_at = _graph_kruskal(n, graph.edges[:, 0], graph.edges[:, 1], order, cells=n)
    return _carving(passages, taken_at, lambda positions: graph.edges[order[positions]])


ALGORITHM = Algorithm(
    "kruskal",
    "random wall order, union-find (union by size, path halving)",
    {"square": carve_grid, "any": carve_graph},
)
