"""Theta (circular) mazes: a centre cell and rings around it, ``rows`` rings in all (the centre
counts as ring 0). Cell ``(ring, col)`` counts clockwise (on the picture) from 12 o'clock.

Ring ``k ≥ 1`` lies between radii ``k`` and ``k + 1`` cell sizes, so the ring height is the cell
size and a corridor along a ring is ``cell_size − wall_thickness`` wide, as in the square grid;
the centre cell is a disc of radius 1. Ring 1 has 6 cells; a ring has twice the cells of the
ring inside it when its cells would otherwise get too wide: when ``2k·sin(π/(2n))`` (the chord at
its inner radius of a cell half as wide) is still at least one cell size, ``n`` being the inner
ring's count. So the narrowest width of every ring cell, its chord at the inner radius, is in
``[cell_size, 2·cell_size)``, and the opening into the next ring inwards is never narrower than a
square maze's. The outline is a circle of radius ``rows`` cell sizes.

Arcs are polylines whose points lie on the circles: each arc between two radial walls is cut into
equal segments, as few as keep the chord error (the sagitta, ``r·(1 − cos(θ/2))`` for a segment
of angle θ) at most :data:`CHORD_ERROR` cell sizes: 0.05 mm at a 10 mm cell size.
"""

from __future__ import annotations

import math

import numpy as np

from laby3d.tessellation.base import CellGraph, CellLayout, Shape, frozen, sorted_pairs

#: Largest distance between an arc and its polyline, in cell sizes.
CHORD_ERROR = 0.005
#: Most rings (1,915,999 cells: within :data:`laby3d.tessellation.MAX_SHAPED_CELLS`).
MAX_RINGS = 950


#: Cells of ring 1 unless a maze asks for another count (``first_ring``, 3..12).
FIRST_RING = 6


def ring_sizes(rings: int, first_ring: int = FIRST_RING) -> np.ndarray:
    """``(rings,)`` cells per ring: 1 (the centre), ``first_ring`` (6), then doubling when a cell
    half as wide would still be at least one cell size wide at its inner radius.

    >>> ring_sizes(8).tolist(), ring_sizes(5, first_ring=4).tolist()
    ([1, 6, 12, 12, 24, 24, 24, 24], [1, 4, 8, 16, 16])
    """
    sizes = [1, first_ring][:rings]
    for k in range(2, rings):
        inner = sizes[-1]
        sizes.append(2 * inner if 2 * k * math.sin(math.pi / (2 * inner)) >= 1 else inner)
    return np.array(sizes, dtype=np.int64)


def _row_starts(sizes: np.ndarray) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(sizes)])


def theta_graph(rings: int, cols: int = 0, first_ring: int = FIRST_RING) -> CellGraph:
    """Neighbours along each ring (cyclic) and across to the ring inside (ring 1: the centre)."""
    sizes = ring_sizes(rings, first_ring)
    starts = _row_starts(sizes)
    first, second = [], []
    for k in range(1, rings):
        n = int(sizes[k])
        j = np.arange(n)
        first += [starts[k] + j, starts[k] + j]
        second += [starts[k] + (j + 1) % n, starts[k - 1] + j * sizes[k - 1] // n]
    pairs = sorted_pairs(np.concatenate(first), np.concatenate(second))
    return CellGraph(int(starts[-1]), pairs, frozen(starts, np.int64))


def segments_per_arc(radius: int, cells: int) -> int:
    """Segments of each of ``cells`` equal arcs around the circle of ``radius``, so that the
    chord error stays within :data:`CHORD_ERROR`."""
    step = 2 * math.acos(1 - CHORD_ERROR / radius)
    return max(1, math.ceil(2 * math.pi / cells / step))


def theta_layout(rings: int, cols: int = 0, first_ring: int = FIRST_RING) -> CellLayout:
    """Vertices on the circles of radius 1..rings around (rings, rings); cell polygons go out along
    their outer arc (clockwise on the picture), in along a radius, back along the inner arc."""
    sizes = ring_sizes(rings, first_ring)
    # circle k (radius k) is cut by the radial walls of ring k (the rim: of the last ring)
    arcs = [int(sizes[min(k, rings - 1)]) for k in range(1, rings + 1)]
    pieces = [segments_per_arc(k, arcs[k - 1]) for k in range(1, rings + 1)]
    points = [arcs[i] * pieces[i] for i in range(rings)]
    offsets = np.concatenate([[0], np.cumsum(points)])
    xs, ys, corner = [], [], []
    for k in range(1, rings + 1):
        angle = -math.pi / 2 + 2 * math.pi * np.arange(points[k - 1]) / points[k - 1]
        xs.append(rings + k * np.cos(angle))
        ys.append(rings + k * np.sin(angle))
        corner.append(np.arange(points[k - 1]) % pieces[k - 1] == 0)
    polygons = [offsets[0] + np.arange(points[0])]
    lengths = [points[0]]
    for k in range(1, rings):
        n = int(sizes[k])
        per_outer = points[k] // n
        j = np.arange(n)[:, None]
        outer = offsets[k] + (j * per_outer + np.arange(per_outer + 1)) % points[k]
        inner = offsets[k - 1] + ((j + 1) * pieces[k - 1] - np.arange(pieces[k - 1] + 1)) % points[k - 1]
        ring = np.concatenate([outer, inner], axis=1)
        polygons.extend(ring)
        lengths.extend([ring.shape[1]] * n)
    middle = [np.array([0.0])] + [-math.pi / 2 + 2 * math.pi * (np.arange(int(n)) + 0.5) / int(n) for n in sizes[1:]]
    radius = [np.array([0.0])] + [np.full(int(n), k + 0.5) for k, n in enumerate(sizes[1:], start=1)]
    angle, distance = np.concatenate(middle), np.concatenate(radius)
    return CellLayout(
        vertices=frozen(np.stack([np.concatenate(xs), np.concatenate(ys)], axis=1), np.float64),
        polygon_starts=frozen(np.concatenate([[0], np.cumsum(lengths)]), np.int64),
        polygon_vertices=frozen(np.concatenate(polygons), np.int32),
        corner=frozen(np.concatenate(corner), bool),
        centres=frozen(
            np.stack([rings + distance * np.cos(angle), rings + distance * np.sin(angle)], axis=1), np.float64
        ),
    )


THETA = Shape(
    name="theta",
    description="circular: a centre cell and rings around it; rows is the number of rings, the centre included",
    graph=theta_graph,
    layout=theta_layout,
    side_angles={"out": 0.0, "cw": 90.0, "in": 180.0, "ccw": 270.0},
    radial_sides=True,
    options={"first_ring": (FIRST_RING, 3, 12)},
    uses_cols=False,
    min_rows=2,
    max_rows=MAX_RINGS,
)
