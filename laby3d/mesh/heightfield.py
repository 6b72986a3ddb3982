"""A labelled raster extruded into one watertight solid: each label a prism to its height.

Faces: the top of every label region at its height, the bottom of the whole region at
``bottom``, and a vertical wall wherever two neighbouring regions (or a region and the empty
outside) differ in height. Vertical walls are split at every height present at their corner
nodes, so no vertex lies on another face's edge (no T-junctions). Text sits in label boxes:
on top (:class:`Patch`, engraved or embossed) or cut up into the bottom (:class:`Underside`),
each box meshed on its own with the text's outline points. Tops and bottoms are
triangulated by earcut, checked, and by manifold3d's triangulator (which keeps every boundary
vertex) where earcut would drop collinear vertices or cannot be trusted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from laby3d.errors import InternalError
from laby3d.geometry.raster import EMPTY, Raster
from laby3d.geometry.trace import Rings, chunk_ids, group_rings, node_mask, node_xy, padded, ring_areas, trace
from laby3d.mesh.types import Mesh

if TYPE_CHECKING:
    import shapely

#: Top faces are triangulated in squares of this many raster blocks: it keeps every polygon
#: handed to the triangulator moderate in size, and a chunk border only adds a few vertices.
CHUNK_BLOCKS = 256


def _triangulate(raster: Raster, rings: Rings, robust: bool = False) -> np.ndarray:
    """``(k, 3)`` node ids of a counter-clockwise triangulation of the rings' region.

    earcut (fast) for polygons without collinear vertices; manifold3d's triangulator, which
    keeps collinear vertices, for the others (earcut would drop them and leave cracks), for
    polygons where earcut's result does not cover the polygon, and for all when ``robust``.
    """
    import mapbox_earcut

    if len(rings.vertices) == 0:
        return np.zeros((0, 3), dtype=np.int64)
    xy = node_xy(raster, rings.vertices)
    starts = rings.starts
    nxt = np.arange(1, len(xy) + 1)
    nxt[starts[1:] - 1] = starts[:-1]
    prv = np.arange(-1, len(xy) - 1)
    prv[starts[:-1]] = starts[1:] - 1
    area = ring_areas(xy, starts)
    before, after = xy - xy[prv], xy[nxt] - xy
    straight = before[:, 0] * after[:, 1] - before[:, 1] * after[:, 0] == 0
    collinear = np.add.reduceat(straight.astype(np.int64), starts[:-1]) > 0
    triangles = []
    for polygon in group_rings(xy, starts, area):
        pieces = [slice(starts[k], starts[k + 1]) for k in polygon]
        points = np.concatenate([xy[piece] for piece in pieces])
        ids = np.concatenate([rings.vertices[piece] for piece in pieces])
        local = None
        if not robust and not collinear[polygon].any():
            ends = np.cumsum([piece.stop - piece.start for piece in pieces]).astype(np.uint32)
            local = mapbox_earcut.triangulate_float64(points, ends).astype(np.int64).reshape(-1, 3)
            local = _flip_degenerate(local, points)
            if local is not None and not _covers(local, points, area[polygon].sum() * 2):
                local = None
        if local is None:  # collinear vertices, or earcut slivers that could not be mended
            import manifold3d

            local = np.asarray(manifold3d.triangulate([xy[piece] for piece in pieces], 0.0), dtype=np.int64)
        triangles.append(ids[local])
    return np.concatenate(triangles)


def _covers(triangles: np.ndarray, points: np.ndarray, doubled_area: float) -> bool:
    """All triangles counter-clockwise and their areas add up to the polygon's: earcut can fail
    on holes bridged through collinear vertices. (The whole mesh is checked closed afterwards.)"""
    areas = _doubled_areas(triangles, points)
    return bool((areas > 0).all() and abs(areas.sum() - doubled_area) <= 1e-9 * doubled_area)


def _doubled_areas(triangles: np.ndarray, points: np.ndarray) -> np.ndarray:
    a, b, c = (points[triangles[:, k]] for k in range(3))
    return (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])


def _flip_degenerate(triangles: np.ndarray, points: np.ndarray) -> np.ndarray | None:
    """Mend earcut's zero-area triangles ``(p, m, q)`` (``m`` on segment ``pq``) by flipping the
    edge ``pq`` with the triangle ``(q, p, d)`` beyond it into ``(p, m, d)`` and ``(m, q, d)``.

    Returns None when a sliver has no neighbour to flip with.
    """
    triangles = triangles.copy()
    n = len(points)
    for _ in range(16):
        bad = np.flatnonzero(np.abs(_doubled_areas(triangles, points)) < 1e-9)
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


def extrude(
    raster: Raster,
    heights: Mapping[int, float],
    bottom: float,
    patches: Mapping[int, Patch] | None = None,
    underside: Underside | None = None,
) -> Mesh:
    """The solid where every block labelled ``k`` (a key of ``heights``) rises from ``bottom``
    to ``heights[k]`` mm; other labels are empty.

    ``patches`` replace the flat top of a label whose region is one rectangle (a label box)
    by polygons standing at their own height (engraved or embossed text). ``underside`` cuts
    polygons up into the bottom face (text engraved under the base); the bottom must be one
    polygon without holes around its box.

    The result is checked closed, consistently wound and free of zero-area triangles; if the
    fast triangulation fails that check, the solid is rebuilt with the robust triangulator,
    and an error is raised if even that fails.
    """
    patches = patches or {}
    mesh = _extrude(raster, heights, bottom, patches, underside, robust=False)
    if not _sound(mesh):
        mesh = _extrude(raster, heights, bottom, patches, underside, robust=True)
        if not _sound(mesh):
            raise InternalError("the solid is not closed or has zero-area triangles")
    return mesh


def _extrude(
    raster: Raster,
    heights: Mapping[int, float],
    bottom: float,
    patches: Mapping[int, Patch],
    underside: Underside | None,
    robust: bool,
) -> Mesh:
    labels = [label for label in heights if heights[label] > bottom]
    level = np.full(256, np.nan)
    for label in labels:
        level[label] = heights[label]
    # Labels outside `heights` count as empty for this solid.
    present = np.zeros(256, dtype=bool)
    present[labels] = True
    raster = Raster(raster.xs, raster.ys, np.where(present[raster.labels], raster.labels, EMPTY).astype(np.uint8))
    ny, nx = raster.labels.shape
    chunks = chunk_ids(raster, CHUNK_BLOCKS) if max(ny, nx) > CHUNK_BLOCKS else None
    nodes = node_mask(raster, chunks)

    # Heights meeting at each node: those of the four blocks around it, `bottom` for empty ones.
    p = padded(raster)
    around = np.stack([p[:-1, :-1], p[:-1, 1:], p[1:, :-1], p[1:, 1:]], axis=-1).reshape(-1, 4)
    around_z = np.where(around == EMPTY, bottom, level[around])
    patch_z = [patch.top for label, patch in patches.items() if label in labels]
    if underside is not None:
        patch_z.append(bottom + underside.depth)
    z_values = np.unique(np.concatenate([[bottom], [heights[label] for label in labels], patch_z]))
    z_index = np.searchsorted(z_values, around_z)
    nz = len(z_values)

    faces_nodes: list[np.ndarray] = []  # (k, 3, 2) node id and z index per corner
    extra = _Points(nodes.size)  # patch points that are not grid nodes

    def with_z(node_ids: np.ndarray, zi: int | np.ndarray) -> np.ndarray:
        return np.stack([node_ids, np.broadcast_to(zi, node_ids.shape)], axis=-1)

    bottom_index = 0
    for label in labels:
        rings = trace(raster, [label], nodes, chunks)
        top_index = int(np.searchsorted(z_values, heights[label]))
        if label in patches:
            faces_nodes.extend(_patch(raster, rings, patches[label], top_index, z_values, extra))
        else:
            faces_nodes.append(with_z(_triangulate(raster, rings, robust), top_index))
        faces_nodes.append(_walls(rings, label, level, bottom, z_values, z_index))
    solid = trace(raster, labels, nodes)
    if underside is not None:
        ceiling_index = int(np.searchsorted(z_values, bottom + underside.depth))
        faces_nodes.extend(_underside(raster, solid, underside, bottom_index, ceiling_index, extra))
    else:
        if len(solid.vertices) > 4 * CHUNK_BLOCKS:  # a large bottom (walls only): triangulate it by chunks
            solid = trace(raster, labels, nodes, chunks)
        floor = _triangulate(raster, solid, robust)[:, ::-1]
        faces_nodes.append(with_z(floor, bottom_index))

    corners = np.concatenate([f.reshape(-1, 3, 2) for f in faces_nodes])
    keys = (corners[..., 0] * nz + corners[..., 1]).ravel()
    used = np.zeros((nodes.size + extra.count) * nz, dtype=bool)
    used[keys] = True
    unique_keys = np.flatnonzero(used)
    new_id = np.cumsum(used) - 1
    inverse = new_id[keys]
    points = unique_keys // nz
    xy = node_xy(raster, np.minimum(points, nodes.size - 1))
    if extra.count:
        table = np.concatenate(extra.added)
        outside = points >= nodes.size
        xy[outside] = table[points[outside] - nodes.size]
    vertices = np.column_stack([xy, z_values[unique_keys % nz]])
    return Mesh(vertices, inverse.reshape(-1, 3).astype(np.int64))


@dataclass(frozen=True)
class Patch:
    """Polygons (mm, inside one label box) standing at ``top`` instead of the box's height."""

    polygons: shapely.Geometry
    top: float


@dataclass(frozen=True, kw_only=True)
class Underside:
    """Polygons (mm) cut ``depth`` mm up into the bottom face, strictly inside ``box``
    (x0, y0, x1, y1), which lies strictly inside the bottom face."""

    box: tuple[float, float, float, float]
    polygons: shapely.Geometry
    depth: float


class _Points:
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


def _surface(loops: list[np.ndarray], ids: list[np.ndarray], zi: int, *, down: bool = False) -> np.ndarray:
    """``(k, 3, 2)`` (point id, z index) corners of the flat region ``loops`` (mm; outer loop
    counter-clockwise, holes clockwise; ``ids`` their point ids) at z index ``zi``, facing up
    (or ``down``). Slivers across collinear points of different loops (the right sides of a
    j and its dot) are flipped away."""
    import manifold3d

    local = np.asarray(manifold3d.triangulate(loops, 0.0), dtype=np.int64)
    mended = _flip_degenerate(local, np.concatenate(loops))
    if mended is not None:  # else the solid's check fails and says so
        local = mended
    corner_ids = np.concatenate(ids)[local]
    if down:
        corner_ids = corner_ids[:, ::-1]
    return np.stack([corner_ids, np.full_like(corner_ids, zi)], axis=-1)


def _inlay(
    extra: _Points,
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
    inside = _nesting(glyphs)

    def holes(counter: tuple[int, int] | None) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Outlines (clockwise) and ids of the polygons lying in ``counter`` (None: the box)."""
        kept = [i for i, where in enumerate(inside) if where == counter]
        return [glyphs[i][0][::-1] for i in kept], [ids[i][0][::-1] for i in kept]

    outlines, outline_ids = holes(None)
    faces = [_surface([box[0], *outlines], [box[1], *outline_ids], box_index, down=down)]
    for index, (loops, loop_ids) in enumerate(zip(glyphs, ids, strict=True)):
        for hole, (counter, counter_ids) in enumerate(zip(loops[1:], loop_ids[1:], strict=True), start=1):
            islands, island_ids = holes((index, hole))  # ink inside the counter (Θ's bar)
            faces.append(_surface([counter[::-1], *islands], [counter_ids[::-1], *island_ids], box_index, down=down))
        faces.append(_surface(loops, loop_ids, glyph_index, down=down))
    low, high = sorted((box_index, glyph_index))
    sunk = (glyph_index < box_index) != down  # the walls face into the glyphs
    for loop_ids in ids:
        for start in loop_ids:
            end = np.roll(start, -1)
            if sunk:  # the higher side, on the right, is the box
                start, end = end, start
            faces.append(_quads(start, end, np.full_like(start, low), high))
    return faces


def _nesting(glyphs: list[list[np.ndarray]]) -> list[tuple[int, int] | None]:
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


def _patch(
    raster: Raster, rings: Rings, patch: Patch, box_index: int, z_values: np.ndarray, extra: _Points
) -> list[np.ndarray]:
    """Faces of a label box whose top carries ``patch``: the box minus the polygons at the box's
    height, the polygons at their own, and the walls between (higher side facing out)."""
    (ring,) = rings.split()
    glyph_index = int(np.searchsorted(z_values, patch.top))
    return _inlay(extra, (node_xy(raster, ring), ring), patch.polygons, box_index, glyph_index, down=False)


def _underside(
    raster: Raster, outline: Rings, underside: Underside, bottom_index: int, ceiling_index: int, extra: _Points
) -> list[np.ndarray]:
    """Faces of the bottom (``outline``: one ring, counter-clockwise) with ``underside``'s
    polygons cut up to ``ceiling_index``: the bottom around the box, then the box's inlay."""
    rings = outline.split()
    if len(rings) != 1:
        raise InternalError(f"text under the base needs a bottom of one ring, got {len(rings)}")
    x0, y0, x1, y1 = underside.box
    box = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], dtype=float)
    box_ids = extra.add(box)
    around = _surface([node_xy(raster, rings[0]), box[::-1]], [rings[0], box_ids[::-1]], bottom_index, down=True)
    return [around, *_inlay(extra, (box, box_ids), underside.polygons, bottom_index, ceiling_index, down=True)]


def extrude_polygons(geometry: shapely.Geometry, bottom: float, top: float) -> Mesh:
    """Arbitrary polygons (mm) as closed prisms from ``bottom`` to ``top`` (e.g. embossed text)."""
    import manifold3d

    from laby3d.geometry.shapes import polygon_loops

    vertices, faces = [], []
    offset = 0
    for loops in polygon_loops(geometry):
        flat = np.concatenate(loops)
        n = len(flat)
        vertices += [np.column_stack([flat, np.full(n, bottom)]), np.column_stack([flat, np.full(n, top)])]
        local = np.asarray(manifold3d.triangulate(loops, 0.0), dtype=np.int64)
        faces += [local[:, ::-1] + offset, local + offset + n]
        start = 0
        for loop in loops:
            a = np.arange(start, start + len(loop)) + offset
            b = np.roll(a, -1)
            faces += [np.stack([a, b, b + n], 1), np.stack([a, b + n, a + n], 1)]
            start += len(loop)
        offset += 2 * n
    return Mesh(np.concatenate(vertices), np.concatenate(faces))


def _walls(
    rings: Rings, label: int, level: np.ndarray, bottom: float, z_values: np.ndarray, z_index: np.ndarray
) -> np.ndarray:
    """Vertical faces on the edges of ``label``'s rings that stand above their neighbour."""
    top_z = level[label]
    beyond = rings.right_labels
    low_z = np.where(beyond == EMPTY, bottom, level[beyond])
    stands = low_z < top_z
    start = rings.vertices[stands]
    end = rings.next_vertices()[stands]
    lo = np.searchsorted(z_values, low_z[stands])
    hi = int(np.searchsorted(z_values, top_z))
    # Heights strictly between lo and hi present at either end force extra vertices.
    between_start = ((z_index[start] > lo[:, None]) & (z_index[start] < hi)).any(axis=1)
    between_end = ((z_index[end] > lo[:, None]) & (z_index[end] < hi)).any(axis=1)
    simple = ~(between_start | between_end)
    quads = _quads(start[simple], end[simple], lo[simple], hi)
    zipped = [
        _zipper(a, b, int(l0), hi, z_index) for a, b, l0 in zip(start[~simple], end[~simple], lo[~simple], strict=True)
    ]
    return np.concatenate([quads, *zipped])


def _quads(start: np.ndarray, end: np.ndarray, low: np.ndarray, high: int) -> np.ndarray:
    """``(2k, 3, 2)`` (node, z index) corners of vertical quads from edge ``start -> end`` between
    ``low`` and ``high``, facing right of the edge (the higher region on its left)."""
    top = np.full_like(start, high)
    first = np.stack([np.stack([start, low], -1), np.stack([end, low], -1), np.stack([end, top], -1)], axis=1)
    second = np.stack([np.stack([start, low], -1), np.stack([end, top], -1), np.stack([start, top], -1)], axis=1)
    return np.concatenate([first, second])


def _zipper(start: int, end: int, lo: int, hi: int, z_index: np.ndarray) -> np.ndarray:
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


def _sound(mesh: Mesh) -> bool:
    """Closed and consistently wound, with no zero-area triangle."""
    return mesh.is_closed() and bool((mesh.face_areas() > 1e-9).all())
