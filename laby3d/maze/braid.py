"""Braiding: removing dead ends after carving, so the maze has loops (several routes).

1. List the dead ends (cells with one passage) in a random order.
2. For each, with probability ``percent``/100, if it is still a dead end, open one more of its
   walls: to a neighbour that is also a dead end when there is one (one opening removes two
   dead ends), else to a random neighbour; ties at random.
3. Each wall opened closes a loop: a braided maze has passages − cells + 1 loops.

This is Jamis Buck's braid (*Mazes for Programmers*, ch. 9). The draws come from the maze's
own generator for braiding, so ``percent`` 0 draws nothing and leaves the perfect maze of the
seed as it was; 100 leaves no dead end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from laby3d.accel import kernel

if TYPE_CHECKING:
    from laby3d.tessellation import Tessellation

#: Most percent of dead ends removed.
MAX_BRAID = 100


def braid_walls(
    tessellation: Tessellation, open_walls: np.ndarray, percent: float, rng: np.random.Generator
) -> np.ndarray:
    """``(k, 2)`` int32 neighbour pairs, in the order opened, of the walls that remove
    ``percent`` % of the dead ends of the maze whose interior walls ``open_walls`` are open."""
    if percent <= 0:
        return np.zeros((0, 2), dtype=np.int32)
    indptr, neighbours, wall_ids = tessellation.graph.adjacency
    edges = tessellation.edges
    opened = np.array(open_walls, dtype=bool)
    degree = np.bincount(edges[opened].ravel(), minlength=tessellation.cell_count).astype(np.int64)
    order = rng.permutation(np.flatnonzero(degree == 1)).astype(np.int64)
    coins, picks = rng.random(len(order)), rng.random(len(order))
    walls = _braid(
        indptr,  # int64, and the neighbours and walls int32 as the graph keeps them (no copies)
        neighbours,
        wall_ids,
        opened,
        degree,
        order,
        coins,
        picks,
        float(percent),
        cells=len(order),
    )
    return np.asarray(edges[walls], dtype=np.int32).reshape(-1, 2)


@kernel(python_ns=4_000)  # ns per dead end as Python (bench/bench_outlines.py)
def _braid(
    indptr: np.ndarray,
    neighbours: np.ndarray,
    wall_ids: np.ndarray,
    opened: np.ndarray,
    degree: np.ndarray,
    order: np.ndarray,
    coins: np.ndarray,
    picks: np.ndarray,
    percent: float,
) -> np.ndarray:
    """The walls opened (indices, in order): for each dead end of ``order`` whose coin falls under
    ``percent`` and that is still a dead end, its ``picks``-th closed wall among those to another
    dead end, or among all when none is. ``opened`` and ``degree`` are updated in place."""
    added = np.empty(len(order), dtype=np.int64)
    count = 0
    for k in range(len(order)):
        cell = order[k]
        if coins[k] * 100.0 >= percent or degree[cell] != 1:
            continue
        closed = 0
        ends = 0
        for j in range(indptr[cell], indptr[cell + 1]):
            if not opened[wall_ids[j]]:
                closed += 1
                if degree[neighbours[j]] == 1:
                    ends += 1
        if closed == 0:
            continue
        target = int(picks[k] * (ends if ends > 0 else closed))
        for j in range(indptr[cell], indptr[cell + 1]):
            if opened[wall_ids[j]] or (ends > 0 and degree[neighbours[j]] != 1):
                continue
            if target == 0:
                opened[wall_ids[j]] = True
                degree[cell] += 1
                degree[neighbours[j]] += 1
                added[count] = wall_ids[j]
                count += 1
                break
            target -= 1
    return added[:count]
