"""The printability report: body counts, bed fit, nozzle, ball and the advice it prints."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from laby3d.printability import body_count


@settings(max_examples=60, deadline=None)
@given(vertices=st.integers(3, 60), faces=st.integers(1, 40), seed=st.integers(0, 2**32 - 1))
def test_body_count_matches_scipy_components(vertices: int, faces: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    triangles = rng.integers(0, vertices, size=(faces, 3))
    edges = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]]])
    graph = coo_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(vertices, vertices))
    _, labels = connected_components(graph, directed=False)
    used = np.unique(triangles)
    assert body_count(triangles, vertices) == len(np.unique(labels[used]))


def test_body_count_of_a_long_chain_of_triangles() -> None:
    # A strip of n triangles in reversed vertex order: the worst case for smallest-root hooking.
    n = 5000
    start = np.arange(n)[::-1] * 2
    strip = np.stack([start, start + 1, start + 2], axis=1)
    assert body_count(strip, 2 * n + 2) == 1
    apart = np.array([[2 * n + 2, 2 * n + 3, 2 * n + 4]])
    assert body_count(np.concatenate([strip, apart]), 2 * n + 5) == 2
