"""Polygons over one point table, mm: rings of point ids, as the plan and the planar mesher
share them (two regions that meet have the same point ids along their common edges).

A ring runs with its region on the left: outer rings counter-clockwise, holes clockwise (y up).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from laby3d.errors import InternalError

if TYPE_CHECKING:
    import shapely


@dataclass(frozen=True, eq=False)
class Polygons:
    """Polygons over one point table: ``polygons[k]`` is ``[outer, *holes]``, each ring an array
    of point ids, outer counter-clockwise and holes clockwise (mm, y up)."""

    points: np.ndarray
    polygons: tuple[tuple[np.ndarray, ...], ...]

    def rings(self) -> list[np.ndarray]:
        """Every ring of every polygon."""
        return [ring for polygon in self.polygons for ring in polygon]

    def area(self) -> float:
        """Total area, mm² (holes subtracted)."""
        return float(sum(ring_area(self.points[ring]) for ring in self.rings()))

    def geometry(self) -> shapely.MultiPolygon:
        """The polygons as a shapely MultiPolygon (mm)."""
        import shapely

        return shapely.MultiPolygon(
            [
                shapely.Polygon(self.points[outer], [self.points[hole] for hole in holes])
                for outer, *holes in self.polygons
            ]
        )


def ring_area(xy: np.ndarray) -> float:
    """Signed area (counter-clockwise positive) of the ring ``xy`` ``(k, 2)``, mm²."""
    x, y = xy[:, 0], xy[:, 1]
    return float((x * np.roll(y, -1) - np.roll(x, -1) * y).sum() / 2)


def cycles(following: np.ndarray) -> list[np.ndarray]:
    """The cycles of the permutation ``following``, each starting at its smallest element."""
    step = following.tolist()
    seen = bytearray(len(step))
    cycles = []
    for first in range(len(step)):
        if seen[first]:
            continue
        cycle = []
        item = first
        while not seen[item]:
            seen[item] = 1
            cycle.append(item)
            item = step[item]
        cycles.append(np.array(cycle, dtype=np.int64))
    return cycles


def chain_rings(points: np.ndarray, edges: np.ndarray) -> list[np.ndarray]:
    """The directed ``edges`` ``(E, 2)`` (point ids, a region on their left) chained into rings;
    where pieces of the region meet at one point, the sharpest left turn stays on one piece."""
    order = np.argsort(edges[:, 0], kind="stable")
    sources = edges[order, 0]
    first = np.searchsorted(sources, edges[:, 1], side="left")
    last = np.searchsorted(sources, edges[:, 1], side="right")
    if ((last - first) < 1).any():
        raise InternalError("an outline is not closed")
    following = order[np.minimum(first, len(order) - 1)]
    for index in np.flatnonzero(last - first > 1).tolist():
        heading = points[edges[index, 1]] - points[edges[index, 0]]
        choices = order[first[index] : last[index]]
        leaving = points[edges[choices, 1]] - points[edges[choices, 0]]
        turn = np.arctan2(
            heading[0] * leaving[:, 1] - heading[1] * leaving[:, 0],
            heading[0] * leaving[:, 0] + heading[1] * leaving[:, 1],
        )
        following[index] = choices[int(np.argmax(turn))]
    if len(np.unique(following)) != len(following):
        raise InternalError("an outline does not chain into rings")
    shared = np.bincount(edges[:, 0], minlength=len(points)) > 1  # points a ring may pass twice
    rings: list[np.ndarray] = []
    for cycle in cycles(following):
        ring = edges[cycle, 0]
        rings.extend(_simple_loops(ring) if shared[ring].any() else [ring])
    return rings


def _simple_loops(ring: np.ndarray) -> list[np.ndarray]:
    """A ring that passes a point twice, cut there into loops that pass each point once (two
    regions that touch at one point, or a hole touching its outline)."""
    loops: list[np.ndarray] = []
    stack: list[int] = []
    where: dict[int, int] = {}
    for point in ring.tolist():
        if point in where:
            start = where[point]
            loops.append(np.array(stack[start:], dtype=np.int64))
            for gone in stack[start + 1 :]:
                del where[gone]
            del stack[start + 1 :]
        else:
            where[point] = len(stack)
            stack.append(point)
    loops.append(np.array(stack, dtype=np.int64))
    return loops


def group_polygons(points: np.ndarray, rings: list[np.ndarray]) -> tuple[tuple[np.ndarray, ...], ...]:
    """Rings as polygons ``(outer, *holes)``: a hole goes to the smallest outer ring around it."""
    areas = [ring_area(points[ring]) for ring in rings]
    outers = [k for k, area in enumerate(areas) if area > 0]
    holes = [k for k, area in enumerate(areas) if area < 0]
    members: dict[int, list[int]] = {k: [] for k in outers}
    for hole in holes:
        probe = points[rings[hole][:2]].mean(axis=0)  # an edge's middle: a hole may touch its outline at a point
        around = [k for k in outers if len(outers) == 1 or _inside(probe, points[rings[k]])]
        if not around:
            raise InternalError("a hole lies in no polygon")
        members[min(around, key=lambda k: areas[k])].append(hole)
    return tuple(tuple(rings[k] for k in (outer, *members[outer])) for outer in outers)


def _inside(point: np.ndarray, ring: np.ndarray) -> bool:
    """Whether ``point`` lies inside the ring ``(k, 2)`` (even-odd rule)."""
    x, y = point
    x0, y0 = ring[:, 0], ring[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    crosses = (y0 > y) != (y1 > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        at = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
    return bool(np.count_nonzero(crosses & (x < at)) % 2)
