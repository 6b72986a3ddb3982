"""Union-find (disjoint sets) over integer ids: the one implementation laby3d uses for
Kruskal's and Eller's sets, the observation of the sets, and connected components.

:func:`find` is a kernel helper (compiled with the kernels that call it); :func:`component_roots`
labels the components of a graph given as edge lists.
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


@kernel(python_ns=3_900)  # ns per cell as Python: bench/bench_jit.py
def _roots(count: int, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    parent = np.arange(count)
    for e in range(first.shape[0]):
        a = find(parent, first[e])
        b = find(parent, second[e])
        parent[max(a, b)] = min(a, b)
    for v in range(count):
        parent[v] = find(parent, v)
    return parent


def component_roots(count: int, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``(count,)`` the smallest id of each item's component, for edges ``first[k] – second[k]``.

    >>> component_roots(5, np.array([0, 3]), np.array([1, 4])).tolist()
    [0, 0, 2, 3, 3]
    """
    first = np.asarray(first, dtype=np.int64)
    second = np.asarray(second, dtype=np.int64)
    return _roots(count, first, second, cells=count)
