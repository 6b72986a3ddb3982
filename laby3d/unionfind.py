"""Union-find (disjoint sets) over integer ids: the one implementation laby3d uses for
Kruskal's and Eller's sets, the lesson's zones, the laser's wall pieces and the solid's bodies.

:func:`find` is a kernel helper (compiled with the kernels that call it). :func:`component_roots`
labels the components of a graph given as edge lists: small graphs by vectorised hooking in
numpy (no Python loop, no numba import), large ones by a compiled union-find.
"""

from __future__ import annotations

import numpy as np

from laby3d.accel import helper, kernel


@helper
def find(parent: np.ndarray, item: int) -> int:
    """The root of ``item``'s set, halving the path on the way (``parent`` is updated)."""
    while parent[item] != item:
        parent[item] = parent[parent[item]]
        item = parent[item]
    return item


@kernel(python_ns=3_900)  # ns per item as Python: bench/bench_jit.py (the components of a wall graph)
def _roots(count: int, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    parent = np.arange(count)
    for e in range(first.shape[0]):
        a = find(parent, first[e])
        b = find(parent, second[e])
        parent[max(a, b)] = min(a, b)
    for v in range(count):
        parent[v] = find(parent, v)
    return parent


def _roots_by_hooking(count: int, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The same labels by vectorised hooking: hook every root onto its smallest neighbouring
    root, then jump pointers until each item points at its root; each round at least halves the
    components that still have an edge between them, so a few numpy passes suffice."""
    parent = np.arange(count)
    while True:
        root_a, root_b = parent[first], parent[second]
        apart = root_a != root_b
        if not apart.any():
            return parent
        root_a, root_b = root_a[apart], root_b[apart]
        np.minimum.at(parent, np.maximum(root_a, root_b), np.minimum(root_a, root_b))
        while True:
            grandparent = parent[parent]
            if np.array_equal(grandparent, parent):
                break
            parent = grandparent


def component_roots(count: int, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``(count,)`` the smallest id of each item's component, for edges ``first[k] – second[k]``.

    >>> component_roots(5, np.array([0, 3]), np.array([1, 4])).tolist()
    [0, 0, 2, 3, 3]
    """
    first = np.asarray(first, dtype=np.int64)
    second = np.asarray(second, dtype=np.int64)
    if _roots.compiles_for(count):
        return _roots(count, first, second, cells=count)
    return _roots_by_hooking(count, first, second)
