"""Wilson's algorithm: loop-erased random walks. Uniform over all perfect mazes.

1. Put one random cell in the tree.
2. For each cell not yet in the tree (in a random order), walk randomly until the walk hits
   the tree, remembering only the last exit taken from each cell (this erases the loops).
3. Add the loop-erased path to the tree, opening its walls.
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

# state: [position in `order`, current walk cell or -1, passages opened so far]


@kernel(python_ns=13_200)  # ns per cell as Python: bench/bench_jit.py
def _grid_walk(
    rows: int,
    cols: int,
    steps: np.ndarray,
    state: np.ndarray,
    in_tree: np.ndarray,
    out: np.ndarray,
    order: np.ndarray,
    exit_to: np.ndarray,
) -> bool:
    n = rows * cols
    position = state[0]
    cell = state[1]
    k = state[2]
    i = 0
    while position < n:
        start = order[position]
        if in_tree[start]:
            position += 1
            continue
        if cell < 0:
            cell = start
        while not in_tree[cell]:
            if i == steps.shape[0]:
                state[0] = position
                state[1] = cell
                state[2] = k
                return False
            nxt = step_to(cell, steps[i], rows, cols)
            i += 1
            if nxt < 0:
                continue
            exit_to[cell] = nxt
            cell = nxt
        cell = start
        while not in_tree[cell]:
            in_tree[cell] = True
            out[k, 0] = cell
            out[k, 1] = exit_to[cell]
            k += 1
            cell = exit_to[cell]
        cell = -1
        position += 1
    state[0] = position
    state[2] = k
    return True


def carve_grid(rows: int, cols: int, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a Wilson maze, in opening order."""
    n = rows * cols
    order = rng.permutation(n).astype(np.int32)
    in_tree = np.zeros(n, dtype=np.bool_)
    in_tree[order[0]] = True
    state = np.array([1, -1, 0], dtype=np.int64)
    return run_walk(_grid_walk, rows, cols, rng, state, in_tree, order, np.zeros(n, dtype=np.int32))


@kernel(python_ns=30_000)  # ns per cell as Python (bench/bench_shapes.py; on the square kernels' scale)
def _graph_walk(
    indptr: np.ndarray,
    neighbours: np.ndarray,
    draws: np.ndarray,
    state: np.ndarray,
    in_tree: np.ndarray,
    out: np.ndarray,
    order: np.ndarray,
    exit_to: np.ndarray,
) -> bool:
    n = in_tree.shape[0]
    position = state[0]
    cell = state[1]
    k = state[2]
    i = 0
    while position < n:
        start = order[position]
        if in_tree[start]:
            position += 1
            continue
        if cell < 0:
            cell = start
        while not in_tree[cell]:
            if i == draws.shape[0]:
                state[0] = position
                state[1] = cell
                state[2] = k
                return False
            nxt = random_neighbour(cell, indptr, neighbours, draws[i])
            i += 1
            exit_to[cell] = nxt
            cell = nxt
        cell = start
        while not in_tree[cell]:
            in_tree[cell] = True
            out[k, 0] = cell
            out[k, 1] = exit_to[cell]
            k += 1
            cell = exit_to[cell]
        cell = -1
        position += 1
    state[0] = position
    state[2] = k
    return True


def carve_graph(graph: CellGraph, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a Wilson maze on ``graph``, in opening order."""
    n = graph.cell_count
    order = rng.permutation(n).astype(np.int32)
    in_tree = np.zeros(n, dtype=np.bool_)
    in_tree[order[0]] = True
    state = np.array([1, -1, 0], dtype=np.int64)
    return run_graph_walk(_graph_walk, graph, rng, state, in_tree, order, np.zeros(n, dtype=np.int32))


ALGORITHM = Algorithm(
    "wilson",
    "loop-erased random walks; uniform over all perfect mazes",
    {"square": on_grid(carve_grid), "any": on_graph(carve_graph)},
    uniform=True,
)
