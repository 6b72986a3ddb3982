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
    degree = np.bincount(edges[opened].ravel(), minlength=tessellation.cell_count)
    dead_ends = np.flatnonzero(degree == 1)
    added = []
    for cell in rng.permutation(dead_ends).tolist():
        if rng.random() * 100 >= percent or degree[cell] != 1:
            continue
        span = slice(indptr[cell], indptr[cell + 1])
        closed = ~opened[wall_ids[span]]
        candidates, walls = neighbours[span][closed], wall_ids[span][closed]
        if not len(candidates):
            continue
        ends = degree[candidates] == 1
        pool = np.flatnonzero(ends) if ends.any() else np.arange(len(candidates))
        pick = int(pool[int(rng.integers(len(pool)))])
        wall, other = int(walls[pick]), int(candidates[pick])
        opened[wall] = True
        degree[cell] += 1
        degree[other] += 1
        added.append(edges[wall])
    return np.array(added, dtype=np.int32).reshape(-1, 2)
