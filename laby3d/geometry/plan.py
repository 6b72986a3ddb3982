"""The plan view of a maze of any shape, mm: the walls' footprint, the floor and the plate, as
exact polygons over one point table, built straight from the cell graph's walls (no boolean
operation). The solid (:mod:`laby3d.mesh.solid`) extrudes it; the laser sheets cut it.

**Walls.** Every closed wall's centre line (:func:`laby3d.maze.walls.closed_walls`) is thickened
to ``wall_thickness`` by :func:`laby3d.geometry.thick_lines.thick_lines`: mitred joins, and a
square cap reaching ``t/2`` beyond a wall's end in the open (a dead end), so a square maze has
exactly a ``t × t`` post on every lattice point a wall touches and a rectangle per closed wall. Beside an
opening (the entrance or exit) a boundary wall ends as a dead end does where the opening runs
straight on from it or turns square (the cap's sides lie on the outline's offsets: a square
maze's post, a triangle board's straight edge); where it turns at another angle (a hex or
triangle board's zig-zag, a theta maze's rim polygon), a cap would stand out of the outline, so
the wall is cut along the mitre line it would have with the opening's wall: its outer side stays
on the outline's offset and the plate's edge. The outline is thickened ``t/2`` inward and
outward. These rings are the boundary walks of the wall graph: a forest gives one ring per tree
and no holes, so a perfect maze with two openings in its outline has two wall polygons, with one
(theta: centre to rim) one.

**Plate** (:data:`PLATES`, by tessellation kind). A theta maze's: its outline's regular polygon
offset by ``t/2 + margin`` (a disc). A board cut by an outline (a heart, a letter, a ring): its
outer boundary offset by ``t/2 + margin`` with mitred corners (shapely's buffer, so a wide margin
fills the notches it would close), the rim following the outline; its holes (a ring's centre, a
central room) stay floor, where a marble or a coin can lie. Any other: the bounding rectangle of
the walls grown by ``margin``: a board prints flat and square on the bed, keeps the margin strips
straight for labels, and needs no offset of a zig-zag outline (whose concave corners would
swallow a wide margin). At margin 0 the walls touch the plate's edge: their points there are
points of the plate's outline, so the solid has no T-junction.

**Floor.** The plate minus the walls: its rings are the walls' rings run backwards and the
plate's outline where no wall stands on it.

Coordinates: mm, x right, y up (the tessellation's pictures run y down: flipped), the plate's
bounding box from (0, 0) to ``(width, depth)``; rings run with their region on the left (outer
rings counter-clockwise, holes clockwise).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from laby3d.errors import InternalError
from laby3d.geometry.rings import Polygons, chain_rings, group_polygons, ring_area
from laby3d.geometry.thick_lines import thick_lines

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze
    from laby3d.tessellation.base import Tessellation

#: Points closer than this (relative to the plate's size) are one point.
SNAP = 1e-9
#: The plate under the walls by tessellation kind: ``disc`` (a theta maze's rim offset),
#: ``outline`` (a cut board's outer boundary offset) or ``box`` (the walls' bounding box grown by
#: the margin) for any other.
PLATES: dict[str, str] = {"theta": "disc", "outline": "outline", "any": "box"}


def plate_kind(kind: str) -> str:
    """``disc``, ``outline`` or ``box``: the plate of a tessellation of ``kind`` (:data:`PLATES`)."""
    return PLATES.get(kind, PLATES["any"])


@dataclass(frozen=True, eq=False)
class Plan:
    """The plan view of a maze of any shape (mm, y up; see the module docstring).

    ``points`` is the one point table of ``walls``, ``floor`` and ``plate``: where two of them
    meet they share point ids. ``to_plan`` maps the tessellation's pitch units (y down) to mm.
    """

    walls: Polygons
    floor: Polygons
    #: the plate's outline (counter-clockwise), with every wall point that lies on it
    plate: np.ndarray
    width: float
    depth: float
    #: mm per pitch unit, and where pitch (0, 0) lands: mm = (x·scale + origin_x, origin_y − y·scale)
    scale: float
    origin: tuple[float, float]

    @property
    def points(self) -> np.ndarray:
        """``(N, 2)`` every point, mm."""
        return self.walls.points

    def to_plan(self, pitch: np.ndarray) -> np.ndarray:
        """``(k, 2)`` tessellation points (pitch units, y down) in plan mm (y up)."""
        pitch = np.asarray(pitch, dtype=float).reshape(-1, 2)
        return np.stack([pitch[:, 0] * self.scale + self.origin[0], self.origin[1] - pitch[:, 1] * self.scale], axis=1)


def maze_plan(maze: Maze, fab: Fabrication) -> Plan:
    """The plan view of ``maze`` with ``fab``'s sizes (mm)."""
    from laby3d.maze.walls import closed_walls

    tessellation = maze.tessellation
    scale, half = fab.cell_size, fab.wall_thickness / 2
    pitch = tessellation.vertices
    corners = np.stack([pitch[:, 0] * scale, -pitch[:, 1] * scale], axis=1)  # y up; shifted at the end
    segments = closed_walls(maze).segments().astype(np.int64)
    openings = _opening_cuts(maze, corners, segments)
    wall_xy, wall_starts = thick_lines(
        corners,
        np.concatenate([segments, openings]),
        half,
        np.full(len(corners), half),
        np.repeat([False, True], [len(segments), len(openings)]),
    )
    kind = plate_kind(tessellation.kind)
    if kind == "disc":
        plate_xy = _disc(tessellation, corners, half + fab.margin)
    elif kind == "outline":
        plate_xy = _outline_offset(tessellation, corners, half + fab.margin)
    else:
        low, high = wall_xy.min(axis=0) - fab.margin, wall_xy.max(axis=0) + fab.margin
        plate_xy = np.array([low, (high[0], low[1]), high, (low[0], high[1])])
    size = float(np.max(plate_xy.max(axis=0) - plate_xy.min(axis=0)))
    merge = _merge_outline_plate if kind == "outline" else _merge_plate
    merged, wall_ids, plate = merge(wall_xy, plate_xy, touching=fab.margin == 0, tolerance=SNAP * size)
    wall_rings = [wall_ids[wall_starts[k] : wall_starts[k + 1]] for k in range(len(wall_starts) - 1)]
    if kind == "outline" and fab.margin == 0:
        wall_rings = _through_corners(merged, wall_rings, len(plate_xy), SNAP * size)
    low = merged[plate].min(axis=0)
    shifted = merged - low
    walls = Polygons(shifted, group_polygons(shifted, wall_rings))
    floor_rings = _floor_rings(shifted, plate, wall_rings)
    floor = Polygons(shifted, group_polygons(shifted, floor_rings))
    width, depth = (float(v) for v in shifted[plate].max(axis=0))
    return Plan(
        walls=walls,
        floor=floor,
        plate=plate,
        width=width,
        depth=depth,
        scale=scale,
        origin=(float(-low[0]), float(-low[1])),
    )


def _opening_cuts(maze: Maze, corners: np.ndarray, segments: np.ndarray) -> np.ndarray:
    """``(k, 2)`` vertex ids: the end segments of each opening (entrance, exit) that cut the walls
    meeting the opening there (the virtual segments of :func:`thick_lines`). An end segment is
    left out where every wall at its ends runs straight on from it or turns square: those walls
    end as dead ends do (``corners``: the vertices, mm; ``segments``: the closed walls)."""
    tessellation = maze.tessellation
    starts, ids = tessellation.boundary_starts, tessellation.boundary_vertices
    ends: set[tuple[int, int]] = set()
    for wall in (maze.boundary_wall_of(maze.entrance), maze.boundary_wall_of(maze.exit)):
        if wall is not None:
            line = ids[starts[wall] : starts[wall + 1]].tolist()
            ends.update({(line[0], line[1]), (line[-2], line[-1])})
    cuts = [pair for pair in sorted(ends) if not _square_to_walls(pair, corners, segments)]
    return np.array(cuts, dtype=np.int64).reshape(-1, 2)


def _square_to_walls(pair: tuple[int, int], corners: np.ndarray, segments: np.ndarray) -> bool:
    """Whether every closed wall at either end of the segment ``pair`` runs along it or square to it."""
    along = corners[pair[1]] - corners[pair[0]]
    along = along / math.hypot(*along)
    for end in pair:
        touching = segments[(segments == end).any(axis=1)]
        others = np.where(touching[:, :1] == end, touching[:, 1:], touching[:, :1]).ravel()
        spokes = corners[others] - corners[end]
        spokes = spokes / np.hypot(spokes[:, 0], spokes[:, 1])[:, None]
        cross = np.abs(spokes[:, 0] * along[1] - spokes[:, 1] * along[0])
        dot = np.abs(spokes @ along)
        if ((cross > 1e-9) & (dot > 1e-9)).any():
            return False
    return True


def _disc(tessellation: Tessellation, corners: np.ndarray, reach: float) -> np.ndarray:
    """A theta maze's plate: the outline's outer offset by ``reach`` mm (counter-clockwise)."""
    outline = _outer_loop(tessellation)
    segments = np.stack([outline, np.roll(outline, -1)], axis=1)
    xy, starts = thick_lines(corners, segments, reach, np.zeros(len(corners)))
    rings = [xy[starts[k] : starts[k + 1]] for k in range(len(starts) - 1)]
    outer = [ring for ring in rings if ring_area(ring) > 0]
    if len(outer) != 1:
        raise InternalError(f"a theta outline gave {len(outer)} outer offsets")
    return outer[0]


def _outer_loop(tessellation: Tessellation) -> np.ndarray:
    """Vertex ids of the board's outer boundary loop, in order (first not repeated)."""
    starts = tessellation.boundary_starts
    stop = int(starts[int(tessellation.loop_starts[1])])
    keep = np.ones(stop, dtype=bool)
    keep[starts[1 : int(tessellation.loop_starts[1]) + 1] - 1] = False
    return tessellation.boundary_vertices[:stop][keep].astype(np.int64)


def _outline_offset(tessellation: Tessellation, corners: np.ndarray, reach: float) -> np.ndarray:
    """A cut board's plate: its outer boundary (``corners``, mm, y up) offset outward by ``reach``
    mm with mitred corners (shapely's buffer: where the offset would close a notch it fills it),
    counter-clockwise, without collinear points."""
    import shapely

    board = shapely.Polygon(corners[_outer_loop(tessellation)])
    plate = shapely.buffer(board, reach, join_style="mitre", mitre_limit=10.0)
    ring = np.asarray(shapely.get_exterior_ring(plate).coords)[:-1]
    if ring_area(ring) < 0:
        ring = ring[::-1]
    before, after = np.roll(ring, 1, axis=0), np.roll(ring, -1, axis=0)
    turn = (ring - before)[:, 0] * (after - ring)[:, 1] - (ring - before)[:, 1] * (after - ring)[:, 0]
    size = float(np.max(ring.max(axis=0) - ring.min(axis=0)))
    return ring[np.abs(turn) > (SNAP * size) ** 2]


def _merge_plate(
    wall_xy: np.ndarray, plate_xy: np.ndarray, *, touching: bool, tolerance: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One point table for the walls' ring points and the (convex, counter-clockwise) plate.

    Where the walls may touch the plate (``touching``: margin 0), a wall point within
    ``tolerance`` of a plate corner becomes that corner and one on a plate edge is put into the
    plate's outline; elsewhere a wall point on or beyond the plate is a bug. Returns the points,
    the wall points' ids and the plate's ring of ids."""
    count = len(plate_xy)
    centre = plate_xy.mean(axis=0)
    angles = np.arctan2(plate_xy[:, 1] - centre[1], plate_xy[:, 0] - centre[0])
    shift = int(np.argmin(angles))
    plate_xy = np.roll(plate_xy, -shift, axis=0)
    angles = np.roll(angles, -shift)
    if not (np.diff(angles) > 0).all():
        raise InternalError("the plate is not convex around its centre")
    ends = np.roll(plate_xy, -1, axis=0)
    along = ends - plate_xy
    length = np.hypot(along[:, 0], along[:, 1])
    unit = along / length[:, None]
    outward = np.stack([unit[:, 1], -unit[:, 0]], axis=1)
    wall_angles = np.arctan2(wall_xy[:, 1] - centre[1], wall_xy[:, 0] - centre[0])
    edge = (np.searchsorted(angles, wall_angles, side="right") - 1) % count
    offset = wall_xy - plate_xy[edge]
    beyond = (offset * outward[edge]).sum(axis=1)
    on_edge = beyond >= -tolerance
    if (beyond > tolerance).any() or (on_edge.any() and not touching):
        raise InternalError("a wall reaches beyond the plate")
    return _plate_through(plate_xy, wall_xy, np.flatnonzero(on_edge), edge, tolerance)


def _merge_outline_plate(
    wall_xy: np.ndarray, plate_xy: np.ndarray, *, touching: bool, tolerance: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """As :func:`_merge_plate` for a plate of any simple (counter-clockwise) outline: the wall
    points within ``tolerance`` of its edges are found by shapely, each on its nearest edge."""
    import shapely

    ring = shapely.LinearRing(plate_xy)
    shapely.prepare(ring)
    near = np.flatnonzero(shapely.dwithin(ring, shapely.points(wall_xy), tolerance))
    inside = shapely.contains_xy(shapely.Polygon(plate_xy), wall_xy)
    inside[near] = True
    if not inside.all() or (len(near) and not touching):
        raise InternalError("a wall reaches beyond the plate")
    edge = np.zeros(len(wall_xy), dtype=np.int64)
    edge[near] = _nearest_edges(wall_xy[near], plate_xy, np.roll(plate_xy, -1, axis=0) - plate_xy)[0]
    return _plate_through(plate_xy, wall_xy, near, edge, tolerance)


def _nearest_edges(xy: np.ndarray, starts: np.ndarray, along: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each point of ``xy`` ``(k, 2)``, the segment ``starts[e]`` to ``starts[e] + along[e]``
    nearest to it and the share of the way along it where the point projects (not clipped)."""
    offset = xy[:, None, :] - starts[None, :, :]
    share = (offset * along).sum(axis=2) / (along * along).sum(axis=1)
    gap = offset - np.clip(share, 0.0, 1.0)[:, :, None] * along[None, :, :]
    edge = np.argmin((gap * gap).sum(axis=2), axis=1)
    return edge, share[np.arange(len(xy)), edge]


def _through_corners(
    points: np.ndarray, wall_rings: list[np.ndarray], corners: int, tolerance: float
) -> list[np.ndarray]:
    """``wall_rings`` with every plate corner (point ids below ``corners``) that lies inside one
    of their edges put into that edge: a cut board's plate has concave corners, and a wall ending
    beside an opening there runs on past the corner along the plate's edge."""
    import shapely

    ids = np.concatenate(wall_rings)
    starts, ends = ids, np.concatenate([np.roll(ring, -1) for ring in wall_rings])
    lines = shapely.multilinestrings([np.stack([points[a], points[b]]) for a, b in zip(starts, ends, strict=True)])
    free = np.setdiff1d(np.arange(corners), ids)
    near = free[shapely.dwithin(lines, shapely.points(points[free]), tolerance)]
    splits: dict[int, list[tuple[float, int]]] = {}
    along = points[ends] - points[starts]
    for corner in near.tolist():  # a corner at a time: the wall edges are many
        nearest, share = _nearest_edges(points[corner][None], points[starts], along)
        splits.setdefault(int(nearest[0]), []).append((float(share[0]), corner))
    if not splits:
        return wall_rings
    rings, edge = [], 0
    for ring in wall_rings:
        through: list[int] = []
        for start in ring.tolist():
            through.append(start)
            through.extend(corner for _, corner in sorted(splits.get(edge, [])))
            edge += 1
        rings.append(np.array(through, dtype=np.int64))
    return rings


def _plate_through(
    plate_xy: np.ndarray, wall_xy: np.ndarray, on_edge: np.ndarray, edge: np.ndarray, tolerance: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The one point table (plate corners, then wall points) and the plate's ring through the
    wall points ``on_edge`` (indices), each lying on plate edge ``edge[index]``: within
    ``tolerance`` of a corner it becomes that corner, elsewhere it is put into the ring in order
    along the edge. Returns the points, the wall points' ids and the plate's ring of ids."""
    count = len(plate_xy)
    along = np.roll(plate_xy, -1, axis=0) - plate_xy
    length = np.hypot(along[:, 0], along[:, 1])
    unit = along / length[:, None]
    wall_ids = np.arange(len(wall_xy), dtype=np.int64) + count
    points = np.concatenate([plate_xy, wall_xy])
    inserted: list[list[tuple[float, int]]] = [[] for _ in range(count)]
    for index in on_edge.tolist():
        k = int(edge[index])
        share = float((wall_xy[index] - plate_xy[k]) @ unit[k])
        if share <= tolerance:
            wall_ids[index] = k
        elif share >= length[k] - tolerance:
            wall_ids[index] = (k + 1) % count
        else:
            inserted[k].append((share, int(wall_ids[index])))
    ring = []
    for k in range(count):
        ring.append(k)
        ring.extend(point for _, point in sorted(inserted[k]))
    return points, wall_ids, np.array(ring, dtype=np.int64)


def _floor_rings(points: np.ndarray, plate: np.ndarray, wall_rings: list[np.ndarray]) -> list[np.ndarray]:
    """The rings of the plate minus the walls: the plate's edges where no wall stands on them and
    the walls' edges run backwards."""
    plate_edges = np.stack([plate, np.roll(plate, -1)], axis=1)
    wall_edges = np.concatenate([np.stack([ring, np.roll(ring, -1)], axis=1) for ring in wall_rings])
    n = len(points)
    plate_keys, wall_keys = plate_edges[:, 0] * n + plate_edges[:, 1], wall_edges[:, 0] * n + wall_edges[:, 1]
    shared = np.isin(plate_keys, wall_keys)
    backwards = wall_edges[~np.isin(wall_keys, plate_keys[shared])][:, ::-1]
    return chain_rings(points, np.concatenate([plate_edges[~shared], backwards]))


def plate_size(shape: str, rows: int, cols: int | None, fab: Fabrication) -> tuple[float, float]:
    """The plate's width and depth (mm) of a ``shape`` maze of ``rows`` × ``cols`` with
    ``fab``'s sizes, without building the maze: what :func:`maze_plan` makes (tested), by the
    formula of :data:`PLATE_SIZES`."""
    return PLATE_SIZES[shape](rows, cols or 1, fab)


def _disc_size(rows: int, cols: int, fab: Fabrication) -> tuple[float, float]:
    """A theta maze's rim polygon offset by half a wall and the margin."""
    from laby3d.tessellation.theta import ring_sizes, segments_per_arc

    cells = int(ring_sizes(rows)[-1])
    count = cells * segments_per_arc(rows, cells)
    reach = (rows * fab.cell_size * math.cos(math.pi / count) + fab.wall_thickness / 2 + fab.margin) / math.cos(
        math.pi / count
    )
    angles = -math.pi / 2 + 2 * math.pi * np.arange(count) / count
    return float(np.ptp(reach * np.cos(angles))), float(np.ptp(reach * np.sin(angles)))


def _hex_size(rows: int, cols: int, fab: Fabrication) -> tuple[float, float]:
    scale, half = fab.cell_size, fab.wall_thickness / 2
    tip = 2 * half / math.sqrt(3)  # a 120° corner's mitre reaches t/√3 along its bisector
    width = (cols + (0.5 if rows > 1 else 0.0)) * scale + 2 * half
    depth = (3 * rows + 1) / (2 * math.sqrt(3)) * scale + 2 * tip
    return width + 2 * fab.margin, depth + 2 * fab.margin


def _triangle_size(rows: int, cols: int, fab: Fabrication) -> tuple[float, float]:
    # The leftmost and rightmost points: 120° corners (their mitre t/√3 along the bisector), or a
    # board corner of one triangle (60°, its mitre 2·t/2 along its bisector, √3/2·t sideways):
    # bottom left (rows odd), top right (cols even), bottom right (rows + cols even).
    scale, half = fab.cell_size, fab.wall_thickness / 2
    tip, sharp = 2 * half / math.sqrt(3), math.sqrt(3) * half
    left = sharp if rows % 2 else tip
    right = sharp if cols % 2 == 0 or (rows + cols) % 2 == 0 else tip
    width = (cols + 1) * math.sqrt(3) / 2 * scale + left + right
    return width + 2 * fab.margin, 1.5 * rows * scale + 2 * half + 2 * fab.margin


def _square_size(rows: int, cols: int, fab: Fabrication) -> tuple[float, float]:
    scale, half = fab.cell_size, fab.wall_thickness / 2
    return cols * scale + 2 * half + 2 * fab.margin, rows * scale + 2 * half + 2 * fab.margin


#: The plate's width and depth (mm) by shape: ``(rows, cols, fab) -> (width, depth)``.
PLATE_SIZES: dict[str, Callable[[int, int, Fabrication], tuple[float, float]]] = {
    "square": _square_size,
    "theta": _disc_size,
    "hex": _hex_size,
    "triangle": _triangle_size,
}
