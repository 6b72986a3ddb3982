"""Faces shared by the meshers (:mod:`laby3d.mesh.heightfield`, :mod:`laby3d.mesh.planar`).

Faces are built as ``(k, 3, 2)`` corners, each a (point id, z index) pair: points are the
mesher's plan points (grid nodes, plan points) and :class:`Points` added for text; z indices
point into the mesher's sorted heights. Here: flat surfaces triangulated with their points kept
(:func:`surface`), text inlaid in a flat box (:func:`inlay`), vertical quads (:func:`quads`) and
faces split where other heights meet their sides (:func:`zipper`), and the triangulation checks
(:func:`covers`, :func:`meets_edge_to_edge`, :func:`flip_degenerate`, :func:`sound`).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import shapely

    from laby3d.mesh.types import Mesh


def covers(triangles: np.ndarray, points: np.ndarray, doubled_area: float) -> bool:
    """All triangles counter-clockwise and their areas add up to the polygon's: earcut can fail
    on holes bridged through collinear vertices. (The whole mesh is checked closed afterwards.)"""
    areas = doubled_areas(triangles, points)
    return bool((areas > 0).all() and abs(areas.sum() - doubled_area) <= 1e-9 * doubled_area)


def meets_edge_to_edge(triangles: np.ndarray, ids: np.ndarray, ends: np.ndarray) -> bool:
    """Whether ``triangles`` ``(k, 3)`` (corners: positions in ``ids``) fill the polygon whose
    rings are ``ids`` (point ids, cut at ``ends``; region on their left) edge to edge: every ring
    edge is the side of one triangle, running with its ring, and every other side is shared with
    one other triangle, running the other way. A triangle's side that runs past a point of the
    polygon (earcut can lay one along collinear corners of two holes) leaves the sides beyond it
    unmatched, a crack in the solid, which :func:`covers`'s areas cannot see."""
    corners = ids[triangles]
    ends = np.asarray(ends, dtype=np.int64)
    n = int(ids.max(initial=0)) + 1
    sides = np.sort(corners.ravel() * n + corners[:, [1, 2, 0]].ravel())
    if (sides[1:] == sides[:-1]).any():
        return False
    following = np.arange(1, len(ids) + 1)
    starts = np.concatenate([[0], ends[:-1]])
    following[ends - 1] = starts
    rings = ids * n + ids[following]
    at = _positions(sides, rings)
    if at is None:
        return False
    on_ring = np.zeros(len(sides), dtype=bool)
    on_ring[at] = True
    inner = sides[~on_ring]
    # Reversing is one to one, so the reversed inner sides are inner sides if they sort to them.
    return bool(np.array_equal(np.sort((inner % n) * n + inner // n), inner))


def _positions(ordered: np.ndarray, values: np.ndarray) -> np.ndarray | None:
    """Where each of ``values`` sits in ``ordered`` (sorted, distinct), or None if one is not
    there: a binary search, where :func:`numpy.isin` would sort both arrays again."""
    at = np.searchsorted(ordered, values)
    found = at < len(ordered)
    found[found] = ordered[at[found]] == values[found]
    return at if found.all() else None


def doubled_areas(triangles: np.ndarray, points: np.ndarray) -> np.ndarray:
    a, b, c = (points[triangles[:, k]] for k in range(3))
    return (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])


def flip_degenerate(triangles: np.ndarray, points: np.ndarray) -> np.ndarray | None:
    """Mend earcut's zero-area triangles ``(p, m, q)`` (``m`` on segment ``pq``) by flipping the
    edge ``pq`` with the triangle ``(q, p, d)`` beyond it into ``(p, m, d)`` and ``(m, q, d)``.

    Returns None when a sliver has no neighbour to flip with.
    """
    triangles = triangles.copy()
    n = len(points)
    for _ in range(16):
        bad = np.flatnonzero(np.abs(doubled_areas(triangles, points)) < 1e-9)
        if len(bad) == 0:
            return triangles
        corners = triangles[bad]
        xy = points[corners]
        opposite = np.stack([np.linalg.norm(xy[:, (k + 2) % 3] - xy[:, (k + 1) % 3], axis=1) for k in range(3)], 1)
        k = np.argmax(opposite, axis=1)  # the middle vertex faces the longest side
        rows = np.arange(len(bad))
        m, q, p = corners[rows, k], corners[rows, (k + 1) % 3], corners[rows, (k + 2) % 3]
        keys = np.concatenate([triangles[:, a] * n + triangles[:, b] for a, b in ((0, 1), (1, 2), (2, 0))])
        owners = np.tile(np.arange(len(triangles)), 3)
        order = np.argsort(keys)
        wanted = p * n + q  # the neighbour holds the edge p -> q
        found = np.minimum(np.searchsorted(keys[order], wanted), len(keys) - 1)
        if not (keys[order][found] == wanted).all():
            return None
        neighbours = owners[order][found]
        busy: set[int] = set()
        for i, (index, neighbour) in enumerate(zip(bad.tolist(), neighbours.tolist(), strict=True)):
            if index in busy or neighbour in busy:
                continue  # flip it next round, after this round's flips
            busy.update((index, neighbour))
            d = int(triangles[neighbour].sum()) - int(p[i]) - int(q[i])
            triangles[index] = (p[i], m[i], d)
            triangles[neighbour] = (m[i], q[i], d)
    return None


def mend_slivers(triangles: np.ndarray, points: np.ndarray) -> np.ndarray | None:
    """:func:`flip_degenerate`'s flips for large polygons: the edges indexed once, the slivers
    (and the triangles each flip makes) taken from a queue until none is left. Returns None when
    a sliver has no neighbour to flip with, or the flips do not end."""
    bad = np.flatnonzero(np.abs(doubled_areas(triangles, points)) < 1e-9)
    if len(bad) == 0:
        return triangles
    triangles = triangles.copy()
    n = len(points)
    keys = np.concatenate([triangles[:, a] * n + triangles[:, b] for a, b in ((0, 1), (1, 2), (2, 0))])
    order = np.argsort(keys)
    sorted_keys, owners = keys[order], np.tile(np.arange(len(triangles)), 3)[order]
    moved: dict[int, int] = {}  # edges of flipped triangles
    gone: set[int] = set()  # edges flipped away

    def owner(key: int) -> int | None:
        if key in moved:
            return moved[key]
        if key in gone:
            return None
        at = int(np.searchsorted(sorted_keys, key))
        return int(owners[at]) if at < len(sorted_keys) and sorted_keys[at] == key else None

    def edges(triangle: list[int]) -> list[int]:
        a, b, c = triangle
        return [a * n + b, b * n + c, c * n + a]

    queue = deque(bad.tolist())
    for _ in range(16 * len(bad) + 16):
        if not queue:
            return triangles
        index = queue.popleft()
        corners = triangles[index].tolist()
        xy = points[corners]
        if abs(doubled_areas(np.array([[0, 1, 2]]), xy)[0]) >= 1e-9:
            continue
        k = int(np.argmax([np.hypot(*(xy[(k + 2) % 3] - xy[(k + 1) % 3])) for k in range(3)]))
        m, q, p = corners[k], corners[(k + 1) % 3], corners[(k + 2) % 3]
        neighbour = owner(p * n + q)
        if neighbour is None:
            return None
        d = sum(triangles[neighbour].tolist()) - p - q
        for key in edges(corners) + edges(triangles[neighbour].tolist()):
            moved.pop(key, None)
            gone.add(key)
        triangles[index] = (p, m, d)
        triangles[neighbour] = (m, q, d)
        for triangle in (index, neighbour):
            for key in edges(triangles[triangle].tolist()):
                moved[key] = triangle
                gone.discard(key)
        queue.extend((index, neighbour))
    return None


class Points:
    """Mesh points that are not raster nodes (text outlines, label boxes under the base),
    numbered after the ``node_count`` nodes in the order they are added."""

    def __init__(self, node_count: int) -> None:
        self.node_count = node_count
        self.added: list[np.ndarray] = []
        self.count = 0

    def add(self, xy: np.ndarray) -> np.ndarray:
        """Ids of new points ``xy`` ``(k, 2)``, mm."""
        self.added.append(np.asarray(xy, dtype=float))
        ids = np.arange(self.count, self.count + len(xy), dtype=np.int64) + self.node_count
        self.count += len(xy)
        return ids


def surface(loops: list[np.ndarray], ids: list[np.ndarray], zi: int, *, down: bool = False) -> np.ndarray:
    """``(k, 3, 2)`` (point id, z index) corners of the flat region ``loops`` (mm; outer loop
    counter-clockwise, holes clockwise; ``ids`` their point ids) at z index ``zi``, facing up
    (or ``down``). Slivers across collinear points of different loops (the right sides of a
    j and its dot) are flipped away."""
    import manifold3d

    local = np.asarray(manifold3d.triangulate(loops, 0.0), dtype=np.int64)
    mended = flip_degenerate(local, np.concatenate(loops))
    if mended is not None:  # else the solid's check fails and says so
        local = mended
    corner_ids = np.concatenate(ids)[local]
    if down:
        corner_ids = corner_ids[:, ::-1]
    return np.stack([corner_ids, np.full_like(corner_ids, zi)], axis=-1)


def inlay(
    extra: Points,
    box: tuple[np.ndarray, np.ndarray],
    polygons: shapely.Geometry,
    box_index: int,
    glyph_index: int,
    *,
    down: bool,
) -> list[np.ndarray]:
    """Faces of a flat box (its loop ``box``, counter-clockwise: mm and point ids, at z index
    ``box_index``) carrying polygons at ``glyph_index``: the box minus the polygons, their
    counters, the polygons, and the walls between. Seen from above (``down`` False) the
    polygons stand up or sink in; seen from below they are cut up into the bottom."""
    from laby3d.geometry.shapes import polygon_loops  # shapely: only for solids with marks

    glyphs = polygon_loops(polygons)
    ids = [[extra.add(loop) for loop in loops] for loops in glyphs]
    inside = nesting(glyphs)

    def holes(counter: tuple[int, int] | None) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Outlines (clockwise) and ids of the polygons lying in ``counter`` (None: the box)."""
        kept = [i for i, where in enumerate(inside) if where == counter]
        return [glyphs[i][0][::-1] for i in kept], [ids[i][0][::-1] for i in kept]

    outlines, outline_ids = holes(None)
    faces = [surface([box[0], *outlines], [box[1], *outline_ids], box_index, down=down)]
    for index, (loops, loop_ids) in enumerate(zip(glyphs, ids, strict=True)):
        for hole, (counter, counter_ids) in enumerate(zip(loops[1:], loop_ids[1:], strict=True), start=1):
            islands, island_ids = holes((index, hole))  # ink inside the counter (Θ's bar)
            faces.append(surface([counter[::-1], *islands], [counter_ids[::-1], *island_ids], box_index, down=down))
        faces.append(surface(loops, loop_ids, glyph_index, down=down))
    low, high = sorted((box_index, glyph_index))
    sunk = (glyph_index < box_index) != down  # the walls face into the glyphs
    for loop_ids in ids:
        for start in loop_ids:
            end = np.roll(start, -1)
            if sunk:  # the higher side, on the right, is the box
                start, end = end, start
            faces.append(quads(start, end, np.full_like(start, low), high))
    return faces


def nesting(glyphs: list[list[np.ndarray]]) -> list[tuple[int, int] | None]:
    """For each polygon (``[exterior, *holes]``), the counter it lies in, innermost, as (polygon,
    hole) indices; None for a polygon on the box itself."""
    import shapely

    counters = [
        (shapely.Polygon(hole).area, (index, number), shapely.Polygon(hole))
        for index, loops in enumerate(glyphs)
        for number, hole in enumerate(loops[1:], start=1)
    ]
    counters.sort(key=lambda counter: counter[0])  # smallest first: the innermost that holds a polygon
    found: list[tuple[int, int] | None] = []
    for loops in glyphs:
        point = shapely.Point(loops[0][0])
        found.append(next((where for _, where, shape in counters if shape.contains(point)), None))
    return found


def quads(start: np.ndarray, end: np.ndarray, low: np.ndarray, high: int) -> np.ndarray:
    """``(2k, 3, 2)`` (node, z index) corners of vertical quads from edge ``start -> end`` between
    ``low`` and ``high``, facing right of the edge (the higher region on its left)."""
    top = np.full_like(start, high)
    first = np.stack([np.stack([start, low], -1), np.stack([end, low], -1), np.stack([end, top], -1)], axis=1)
    second = np.stack([np.stack([start, low], -1), np.stack([end, top], -1), np.stack([start, top], -1)], axis=1)
    return np.concatenate([first, second])


def zipper(start: int, end: int, lo: int, hi: int, z_index: np.ndarray) -> np.ndarray:
    """Triangles of a vertical face whose side edges carry extra heights."""
    left = sorted({lo, hi} | {int(z) for z in z_index[start] if lo < z < hi})
    right = sorted({lo, hi} | {int(z) for z in z_index[end] if lo < z < hi})
    triangles = []
    i = j = 0
    while i < len(left) - 1 or j < len(right) - 1:
        if j < len(right) - 1 and (i == len(left) - 1 or right[j + 1] <= left[i + 1]):
            triangles.append([(start, left[i]), (end, right[j]), (end, right[j + 1])])
            j += 1
        else:
            triangles.append([(start, left[i]), (end, right[j]), (start, left[i + 1])])
            i += 1
    return np.array(triangles, dtype=np.int64)


def sound(mesh: Mesh) -> bool:
    """Closed and consistently wound, with no zero-area triangle."""
    return mesh.is_closed() and bool((mesh.face_areas() > 1e-9).all())
