"""Tracing a raster's label boundaries into closed rings (no boolean operations).

Vertices are the raster's grid points ``(a, b)`` at ``(xs[b], ys[a])``, numbered
``a · (nx + 1) + b``. A grid point is a *node* where the labels around it do not meet along one
straight line; rings keep only nodes, and because every label uses the same nodes, two regions
sharing a boundary share its vertices exactly (no T-junctions).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from laby3d.accel import kernel
from laby3d.errors import Laby3dError
from laby3d.geometry.raster import EMPTY, Raster


@dataclass(frozen=True)
class Rings:
    """Closed rings of one region: node ids in ``vertices`` cut at ``starts``; region on the left.

    ``right_labels[k]`` is the label beyond the edge from ``vertices[k]`` to the next vertex of its
    ring. Outer rings run counter-clockwise, holes clockwise.
    """

    vertices: np.ndarray
    starts: np.ndarray
    right_labels: np.ndarray

    def split(self) -> list[np.ndarray]:
        """The rings as separate arrays of node ids."""
        return np.split(self.vertices, self.starts[1:-1])

    def next_vertices(self) -> np.ndarray:
        """For each entry of ``vertices``, the following vertex of its ring."""
        following = np.roll(self.vertices, -1)
        ends = self.starts[1:] - 1
        following[ends] = self.vertices[self.starts[:-1]]
        return following


def padded(raster: Raster) -> np.ndarray:
    """Labels with one ring of EMPTY blocks around them."""
    return np.pad(raster.labels, 1, constant_values=EMPTY)


def chunk_ids(raster: Raster, size: int) -> np.ndarray:
    """``(ny, nx)`` int64 id of the ``size × size``-block square each block falls in."""
    ny, nx = raster.labels.shape
    per_row = -(-nx // size)
    return (np.arange(ny)[:, None] // size) * per_row + np.arange(nx)[None, :] // size


def node_mask(raster: Raster, chunks: np.ndarray | None = None) -> np.ndarray:
    """``(ny + 1, nx + 1)`` bool: grid points where labels (or chunks) meet other than along a
    straight line."""
    key = raster.labels.astype(np.int64)
    if chunks is not None:
        key = key * (int(chunks.max()) + 1) + chunks
    p = np.pad(key, 1, constant_values=-1)
    sw, se, nw, ne = p[:-1, :-1], p[:-1, 1:], p[1:, :-1], p[1:, 1:]
    uniform = (sw == se) & (se == nw) & (nw == ne)
    straight_h = (sw == se) & (nw == ne) & (sw != nw)
    straight_v = (sw == nw) & (se == ne) & (sw != se)
    return ~(uniform | straight_h | straight_v)


@kernel(python_ns=1_400)  # ns per cell as Python: bench/bench_jit.py
def _follow(
    sources: np.ndarray, following: np.ndarray, right: np.ndarray, keep: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    count = sources.shape[0]
    seen = np.zeros(count, dtype=np.bool_)
    vertices = np.empty(count, dtype=np.int64)
    labels = np.empty(count, dtype=np.uint8)
    starts = np.empty(count + 1, dtype=np.int64)
    k = 0
    rings = 0
    for first in range(count):
        if seen[first] or not keep[sources[first]]:
            continue
        starts[rings] = k
        rings += 1
        edge = first
        while not seen[edge]:
            seen[edge] = True
            if keep[sources[edge]]:
                vertices[k] = sources[edge]
                labels[k] = right[edge]
                k += 1
            edge = following[edge]
    starts[rings] = k
    return vertices[:k], labels[:k], starts[: rings + 1]


def trace(
    raster: Raster, inside: Iterable[int], nodes: np.ndarray | None = None, chunks: np.ndarray | None = None
) -> Rings:
    """Rings around the blocks whose label is in ``inside``; with ``chunks`` (block → square id),
    around each square's part separately (which keeps polygons small for the triangulator)."""
    p = padded(raster)
    member = np.isin(p, np.fromiter(inside, dtype=np.uint8))
    ny, nx = raster.labels.shape
    width = nx + 1
    if nodes is None:
        nodes = node_mask(raster)
    grid = np.arange((ny + 1) * width, dtype=np.int64).reshape(ny + 1, width)
    below, above = member[:-1, 1:-1], member[1:, 1:-1]  # horizontal edges (ny + 1, nx)
    left, right = member[1:-1, :-1], member[1:-1, 1:]  # vertical edges (ny, nx + 1)
    cut_h = np.zeros(below.shape, dtype=bool)
    cut_v = np.zeros(left.shape, dtype=bool)
    if chunks is not None:  # a chunk border inside the region counts as a boundary on both sides
        c = np.pad(chunks, 1, constant_values=-1)
        cut_h = c[:-1, 1:-1] != c[1:, 1:-1]
        cut_v = c[1:-1, :-1] != c[1:-1, 1:]
    up = above & (~below | cut_h)  # region above a horizontal edge: run it towards +x
    down = below & (~above | cut_h)
    west = left & (~right | cut_v)  # region left of a vertical edge: run it towards +y
    east = right & (~left | cut_v)
    # Directed edges (direction 0 = +x, 1 = +y, 2 = -x, 3 = -y), region on the left.
    pieces = [
        (grid[:, :-1][up], grid[:, 1:][up], p[:-1, 1:-1][up], 0),
        (grid[:-1, :][west], grid[1:, :][west], p[1:-1, 1:][west], 1),
        (grid[:, 1:][down], grid[:, :-1][down], p[1:, 1:-1][down], 2),
        (grid[1:, :][east], grid[:-1, :][east], p[1:-1, :-1][east], 3),
    ]
    sources = np.concatenate([piece[0] for piece in pieces])
    if len(sources) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return Rings(empty, np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.uint8))
    targets = np.concatenate([piece[1] for piece in pieces])
    right_labels = np.concatenate([piece[2] for piece in pieces])
    directions = np.concatenate([np.full(len(piece[0]), piece[3]) for piece in pieces])
    # Where pieces of the region meet at one point (chunk corners), continue with the sharpest
    # left turn: that stays on the boundary of the same piece.
    leaving = np.full((grid.size, 4), -1, dtype=np.int64)
    leaving[sources, directions] = np.arange(len(sources))
    following = np.full(len(sources), -1, dtype=np.int64)
    for turn in (3, 0, 1):  # right, straight, left: the last one written wins
        candidate = leaving[targets, (directions + turn) % 4]
        following = np.where(candidate >= 0, candidate, following)
    if (following < 0).any():
        raise Laby3dError("internal error: a traced boundary is not closed")
    vertices, labels, starts = _follow(sources, following, right_labels, nodes.ravel(), cells=len(sources))
    return Rings(vertices, starts, labels)


def node_xy(raster: Raster, vertices: np.ndarray) -> np.ndarray:
    """``(k, 2)`` mm coordinates of node ids."""
    width = len(raster.xs)
    return np.stack([raster.xs[vertices % width], raster.ys[vertices // width]], axis=1)


def group_rings(xy: np.ndarray, starts: np.ndarray, area: np.ndarray) -> list[list[int]]:
    """Ring indices grouped as [outer, *holes] (outers have positive area, holes negative)."""
    outers = np.flatnonzero(area > 0).tolist()
    holes = np.flatnonzero(area < 0).tolist()
    if len(outers) == 1:
        return [outers + holes]
    polygons = [[outer] for outer in outers]
    if holes:
        import shapely  # only to find each hole's outer ring: a plain maze's top has one outer

        shells = [shapely.Polygon(xy[starts[k] : starts[k + 1]]) for k in outers]
        for hole in holes:
            x, y = xy[starts[hole]]
            owner = int(np.flatnonzero(shapely.contains_xy(shells, x, y))[0])
            polygons[owner].append(hole)
    return polygons


def ring_areas(xy: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Signed area of each ring (counter-clockwise positive), mm²."""
    following = np.arange(1, len(xy) + 1)
    following[starts[1:] - 1] = starts[:-1]
    return np.add.reduceat(xy[:, 0] * xy[following, 1] - xy[following, 0] * xy[:, 1], starts[:-1]) / 2


def rings_to_shapely(raster: Raster, rings: Rings):  # -> shapely.MultiPolygon
    """The rings as valid shapely polygons (mm)."""
    import shapely

    if len(rings.vertices) == 0:
        return shapely.MultiPolygon()
    xy = node_xy(raster, rings.vertices)
    starts = rings.starts
    polygons = [
        shapely.Polygon(xy[starts[k] : starts[k + 1]], [xy[starts[h] : starts[h + 1]] for h in holes])
        for k, *holes in group_rings(xy, starts, ring_areas(xy, starts))
    ]
    return shapely.MultiPolygon(polygons)
