"""A plan of labelled polygons extruded into one watertight solid (2.5D): each label a prism
from ``bottom`` to its height, for mazes of any shape (:mod:`laby3d.geometry.plan`).

The plan is a planar arrangement: polygons over one point table that meet only along shared
edges (the same point ids on both sides) and never overlap. Faces: the top of every polygon at
its label's height; a vertical face along every edge where the polygon on its left stands higher
than the one on its right (or the outside, at ``bottom``), split at every height that meets at
its ends, so no point lies inside another face's edge (no T-junctions); and the bottom, the
outline of all polygons at ``bottom``. Each polygon is triangulated once: earcut, checked, or
manifold3d's triangulator (which keeps every boundary point) where earcut would drop collinear
points or its result does not fill the polygon edge to edge. Text sits in boxes: a
:class:`Patch` replaces a box polygon's top (engraved or embossed letters), an
:class:`Underside` cuts letters up into the bottom; each box is meshed on its own with the
text's outline points. :func:`extrude_polygons` makes free-standing prisms (an embossed label
as a part of its own).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from laby3d.errors import InternalError
from laby3d.geometry.rings import chain_rings, group_polygons, ring_area
from laby3d.mesh.faces import Points, covers, inlay, meets_edge_to_edge, mend_slivers, quads, sound, surface, zipper
from laby3d.mesh.types import Mesh

if TYPE_CHECKING:
    import shapely

#: The label of the outside.
OUTSIDE = -1
#: Polygons of more points go to manifold3d's triangulator: earcut's time grows about as the
#: square of a ring's points there (a 300×300 hex maze's floor ring, 406,000 points: earcut 1.6 s
#: and 4,100 slivers to flip, manifold3d 1.5 s and none; bench/README.md).
EARCUT_POINTS = 100_000


@dataclass(frozen=True)
class Region:
    """Polygons of one ``label``: each ``(outer, *holes)``, rings of point ids (outer
    counter-clockwise, holes clockwise)."""

    label: int
    polygons: tuple[tuple[np.ndarray, ...], ...]


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


def extrude_plan(
    points: np.ndarray,
    regions: Sequence[Region],
    heights: Mapping[int, float],
    bottom: float,
    patches: Mapping[int, Patch] | None = None,
    underside: Underside | None = None,
    triangulations: Triangulations | None = None,
) -> Mesh:
    """The solid where every region whose label has a height above ``bottom`` (mm) rises from
    ``bottom`` to it; other regions are empty. ``points`` ``(N, 2)`` mm.

    ``triangulations`` keeps each polygon's triangles for the next solid over the same point
    ids (a body and its parts share their walls' tops and bottoms).

    ``patches`` replace the flat top of a label whose region is one ring (a box) by polygons at
    their own height; ``underside`` cuts polygons up into the bottom, which must then be one
    polygon without holes around its box. The result is checked closed, consistently wound and
    free of zero-area triangles; failing that, it is rebuilt with the robust triangulator, and
    an error is raised if even that fails.
    """
    patches = patches or {}
    known = Triangulations() if triangulations is None else triangulations
    mesh = _extrude(points, regions, heights, bottom, patches, underside, known, robust=False)
    if not sound(mesh):
        mesh = _extrude(points, regions, heights, bottom, patches, underside, known, robust=True)
        if not sound(mesh):
            raise InternalError("the solid is not closed or has zero-area triangles")
    return mesh


def _extrude(
    points: np.ndarray,
    regions: Sequence[Region],
    heights: Mapping[int, float],
    bottom: float,
    patches: Mapping[int, Patch],
    underside: Underside | None,
    known: Triangulations,
    robust: bool,
) -> Mesh:
    kept = [region for region in regions if heights.get(region.label, bottom) > bottom and region.polygons]
    levels = [heights[region.label] for region in kept]
    levels += [patch.top for label, patch in patches.items() if any(r.label == label for r in kept)]
    if underside is not None:
        levels.append(bottom + underside.depth)
    z_values = np.unique(np.concatenate([[bottom], levels]))
    extra = Points(len(points))

    start, end, label, right = directed_edges(len(points), kept)
    n = len(points)
    level = {OUTSIDE: bottom, **{region.label: heights[region.label] for region in kept}}
    # Each edge's heights (mm) on its left and right, looked up by label in one pass.
    labels = np.array(list(level), dtype=np.int64)
    order = np.argsort(labels)
    label_z = np.array(list(level.values()), dtype=float)[order]
    top_z = label_z[np.searchsorted(labels[order], label)]
    low_z = label_z[np.searchsorted(labels[order], right)]
    top_index, low_index = np.searchsorted(z_values, top_z), np.searchsorted(z_values, low_z)
    # Heights meeting at each point (z index; 0, the bottom, where none: never strictly between).
    present = np.zeros((n, len(z_values)), dtype=bool)
    for ends_at in (start, end):
        present[ends_at, top_index] = True
        present[ends_at, low_index] = True
    z_index = np.where(present, np.arange(len(z_values)), 0)

    faces: list[np.ndarray] = []
    for region in kept:
        zi = int(np.searchsorted(z_values, heights[region.label]))
        for polygon in region.polygons:
            if region.label in patches:
                if len(polygon) != 1:
                    raise InternalError("a patch box with holes")
                ring = polygon[0]
                patch = patches[region.label]
                glyph_index = int(np.searchsorted(z_values, patch.top))
                faces.extend(inlay(extra, (points[ring], ring), patch.polygons, zi, glyph_index, down=False))
            else:
                faces.append(_with_z(known.of(points, polygon, robust), zi))
    stands = top_z > low_z
    for hi in np.unique(top_index[stands]).tolist():
        chosen = stands & (top_index == hi)
        a, b, lo = start[chosen], end[chosen], low_index[chosen]
        between = ((z_index[a] > lo[:, None]) & (z_index[a] < hi) | (z_index[b] > lo[:, None]) & (z_index[b] < hi)).any(
            axis=1
        )
        faces.append(quads(a[~between], b[~between], lo[~between], hi))
        faces.extend(
            zipper(int(p), int(q), int(l0), hi, z_index)
            for p, q, l0 in zip(a[between], b[between], lo[between], strict=True)
        )

    outside = right == OUTSIDE
    outline = group_polygons(points, chain_rings(points, np.stack([start[outside], end[outside]], axis=1)))
    if underside is None:
        for polygon in outline:
            faces.append(_with_z(known.of(points, polygon, robust)[:, ::-1], 0))
    else:
        faces.extend(
            _underside(points, outline, underside, int(np.searchsorted(z_values, bottom + underside.depth)), extra)
        )

    corners = np.concatenate([f.reshape(-1, 3, 2) for f in faces])
    nz = len(z_values)
    keys = (corners[..., 0] * nz + corners[..., 1]).ravel()
    table = np.concatenate([points, *extra.added]) if extra.count else points
    # The (point, height) pairs used, in key order, numbered through a table of every pair:
    # np.unique's result without its sort.
    used = np.zeros(len(table) * nz, dtype=bool)
    used[keys] = True
    unique_keys = np.flatnonzero(used)
    inverse = (np.cumsum(used) - 1)[keys]
    vertices = np.column_stack([table[unique_keys // nz], z_values[unique_keys % nz]])
    return Mesh(vertices, inverse.reshape(-1, 3).astype(np.int64))


def directed_edges(count: int, regions: Sequence[Region]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every ring edge of ``regions`` (over ``count`` points) as ``(start, end, left, right)``:
    its point ids, the label of its region (on its left) and of the region beyond it (on its
    right; :data:`OUTSIDE` where none is)."""
    starts, ends, left = [], [], []
    for region in regions:
        for polygon in region.polygons:
            for ring in polygon:
                starts.append(ring)
                ends.append(np.roll(ring, -1))
                left.append(np.full(len(ring), region.label))
    start, end, label = np.concatenate(starts), np.concatenate(ends), np.concatenate(left)
    keys = start * count + end
    order = np.argsort(keys)
    found = np.minimum(np.searchsorted(keys[order], end * count + start), len(keys) - 1)
    right = np.where(keys[order][found] == end * count + start, label[order][found], OUTSIDE)
    return start, end, label, right


class Triangulations:
    """Polygons triangulated so far (point ids), by their rings' ids each turned to start at its
    smallest (the same polygon traced from another point) and by ``robust``."""

    def __init__(self) -> None:
        self.found: dict[tuple[bool, tuple[bytes, ...]], np.ndarray] = {}

    def of(self, points: np.ndarray, rings: Sequence[np.ndarray], robust: bool) -> np.ndarray:
        """:func:`_triangulate` of ``rings`` over ``points``, once per polygon."""
        key = (robust, tuple(np.roll(ring, -int(np.argmin(ring))).tobytes() for ring in rings))
        if key not in self.found:
            self.found[key] = _triangulate(points, rings, robust)
        return self.found[key]


def _with_z(triangles: np.ndarray, zi: int) -> np.ndarray:
    return np.stack([triangles, np.full_like(triangles, zi)], axis=-1)


def _triangulate(points: np.ndarray, rings: Sequence[np.ndarray], robust: bool) -> np.ndarray:
    """``(k, 3)`` point ids of a counter-clockwise triangulation of the polygon ``rings``
    (outer, then holes): earcut, unless it would drop collinear points, leaves slivers it cannot
    mend, or does not cover the polygon, or the polygon has more than :data:`EARCUT_POINTS`
    points (or ``robust``); then manifold3d's triangulator."""
    rings = _spliced(rings)
    loops = [points[ring] for ring in rings]
    if len(rings) == 1 and _convex(loops[0]):
        ring = rings[0]
        return np.stack([np.full(len(ring) - 2, ring[0]), ring[1:-1], ring[2:]], axis=1)
    flat = np.concatenate(loops)
    ids = np.concatenate(rings)
    local = None
    if not robust and len(flat) <= EARCUT_POINTS and not any(_has_collinear(loop) for loop in loops):
        import mapbox_earcut

        ends = np.cumsum([len(loop) for loop in loops]).astype(np.uint32)
        local = mapbox_earcut.triangulate_float64(flat, ends).astype(np.int64).reshape(-1, 3)
        local = mend_slivers(local, flat)
        doubled = 2 * sum(ring_area(loop) for loop in loops)
        if local is not None and not (covers(local, flat, doubled) and meets_edge_to_edge(local, ids, ends)):
            local = None
    if local is None:
        import manifold3d

        local = np.asarray(manifold3d.triangulate(loops, 0.0), dtype=np.int64).reshape(-1, 3)
        mended = mend_slivers(local, flat)
        if mended is not None:  # else the solid's check fails and says so
            local = mended
    return ids[local]


def _spliced(rings: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The polygon's rings with every hole that touches the outer ring at a point spliced into
    it there (one ring passing that point twice): the triangulators fill the two lobes beside
    such a point rather than bridging them with slivers."""
    outer, *holes = rings
    kept = []
    for hole in holes:
        shared = np.flatnonzero(np.isin(outer, hole))
        if len(shared) == 0:
            kept.append(hole)
            continue
        at = int(shared[0])
        start = int(np.flatnonzero(hole == outer[at])[0])
        outer = np.concatenate([outer[: at + 1], np.roll(hole, -start)[1:], outer[at : at + 1], outer[at + 1 :]])
    return [outer, *kept]


def _convex(loop: np.ndarray) -> bool:
    """Whether the ring turns left at every point (strictly convex: a fan triangulates it)."""
    before = loop - np.roll(loop, 1, axis=0)
    after = np.roll(loop, -1, axis=0) - loop
    return bool((before[:, 0] * after[:, 1] - before[:, 1] * after[:, 0] > 0).all())


def _has_collinear(loop: np.ndarray) -> bool:
    """Whether a point of the ring lies on the line through its neighbours (earcut drops it)."""
    before = loop - np.roll(loop, 1, axis=0)
    after = np.roll(loop, -1, axis=0) - loop
    return bool((before[:, 0] * after[:, 1] - before[:, 1] * after[:, 0] == 0).any())


def _underside(
    points: np.ndarray,
    outline: tuple[tuple[np.ndarray, ...], ...],
    underside: Underside,
    ceiling_index: int,
    extra: Points,
) -> list[np.ndarray]:
    """The bottom (one ring) with ``underside``'s polygons cut up to ``ceiling_index``: the
    bottom around the box, then the box's inlay."""
    if len(outline) != 1 or len(outline[0]) != 1:
        raise InternalError(f"text under the base needs a bottom of one ring, got {sum(map(len, outline))}")
    ring = outline[0][0]
    x0, y0, x1, y1 = underside.box
    box = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], dtype=float)
    box_ids = extra.add(box)
    around = surface([points[ring], box[::-1]], [ring, box_ids[::-1]], 0, down=True)
    return [around, *inlay(extra, (box, box_ids), underside.polygons, 0, ceiling_index, down=True)]


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
