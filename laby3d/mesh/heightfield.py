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
from laby3d.mesh.faces import (
    Points,
    covers,
    flip_degenerate,
    inlay,
    meets_edge_to_edge,
    mend_slivers,
    quads,
    sound,
    surface,
    zipper,
)
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
        ends = np.cumsum([piece.stop - piece.start for piece in pieces])
        local = None
        if not robust and not collinear[polygon].any():
            local = mapbox_earcut.triangulate_float64(points, ends.astype(np.uint32)).astype(np.int64).reshape(-1, 3)
            local = flip_degenerate(local, points)
            if local is not None and not (
                covers(local, points, area[polygon].sum() * 2) and meets_edge_to_edge(local, ids, ends)
            ):
                local = None
        if local is None:  # collinear vertices, or earcut slivers or cracks that could not be mended
            import manifold3d

            local = np.asarray(manifold3d.triangulate([xy[piece] for piece in pieces], 0.0), dtype=np.int64)
            mended = mend_slivers(local, points)  # its slivers along collinear points, flipped away
            if mended is not None:  # else the solid's check fails and says so
                local = mended
        triangles.append(ids[local])
    return np.concatenate(triangles)


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
    if not sound(mesh):
        mesh = _extrude(raster, heights, bottom, patches, underside, robust=True)
        if not sound(mesh):
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
    # a handful of levels: sorted(set()), not np.unique, which loads numpy.ma (8 ms of a plain STL)
    z_values = np.array(sorted({float(bottom), *(float(heights[label]) for label in labels), *map(float, patch_z)}))
    z_index = np.searchsorted(z_values, around_z)
    nz = len(z_values)

    faces_nodes: list[np.ndarray] = []  # (k, 3, 2) node id and z index per corner
    extra = Points(nodes.size)  # patch points that are not grid nodes

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


def _patch(
    raster: Raster, rings: Rings, patch: Patch, box_index: int, z_values: np.ndarray, extra: Points
) -> list[np.ndarray]:
    """Faces of a label box whose top carries ``patch``: the box minus the polygons at the box's
    height, the polygons at their own, and the walls between (higher side facing out)."""
    (ring,) = rings.split()
    glyph_index = int(np.searchsorted(z_values, patch.top))
    return inlay(extra, (node_xy(raster, ring), ring), patch.polygons, box_index, glyph_index, down=False)


def _underside(
    raster: Raster, outline: Rings, underside: Underside, bottom_index: int, ceiling_index: int, extra: Points
) -> list[np.ndarray]:
    """Faces of the bottom (``outline``: one ring, counter-clockwise) with ``underside``'s
    polygons cut up to ``ceiling_index``: the bottom around the box, then the box's inlay."""
    rings = outline.split()
    if len(rings) != 1:
        raise InternalError(f"text under the base needs a bottom of one ring, got {len(rings)}")
    x0, y0, x1, y1 = underside.box
    box = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], dtype=float)
    box_ids = extra.add(box)
    around = surface([node_xy(raster, rings[0]), box[::-1]], [rings[0], box_ids[::-1]], bottom_index, down=True)
    return [around, *inlay(extra, (box, box_ids), underside.polygons, bottom_index, ceiling_index, down=True)]


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
    flat = quads(start[simple], end[simple], lo[simple], hi)
    zipped = [
        zipper(a, b, int(l0), hi, z_index) for a, b, l0 in zip(start[~simple], end[~simple], lo[~simple], strict=True)
    ]
    return np.concatenate([flat, *zipped])
