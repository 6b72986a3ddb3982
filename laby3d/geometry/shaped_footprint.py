"""The plan view of a maze of any shape, mm: the wall footprint, the floor and the plate, as
exact polygons built straight from the wall graph (no boolean operation).

**Walls.** Every closed wall's centre-line (:func:`laby3d.maze.walls.closed_walls`) is
thickened to ``wall_thickness``: each segment a rectangle, and where segments meet, **mitred
joins** (the offset lines meet at one point: the corners of a hexagon's or a triangle's inset,
and a square maze's post exactly). Where a wall ends in the open (a dead end) it gets a **square
cap** reaching ``t/2`` beyond its end point, as a square maze's post does. A boundary wall beside
an opening (the entrance or exit) ends ``t/2`` into the opening along the outline, cut square:
so its outer side stays on the outline's offset and the plate's edge. The outline is thickened
``t/2`` inward and outward, as in the square solid.

These thick lines are traced as the boundary walks of the wall graph (:func:`thick_lines`): a
forest gives one ring per tree and no holes, so a perfect maze with two openings has two wall
polygons, with one opening (theta: centre to rim) one.

**Plate.** Theta: the outline's regular polygon offset by ``t/2 + margin`` (a disc). Hex and
triangle: the bounding rectangle of the walls grown by ``margin``: a board prints flat and square
on the bed, fits it the way a square maze does, keeps the margin strips straight for labels,
and needs no offset of a zig-zag outline (whose concave corners would swallow a wide margin).
At margin 0 the walls touch the plate's edge: their points there are points of the plate's
outline, so the solid has no T-junction.

**Floor.** The plate minus the walls: its rings are the walls' rings run backwards and the
plate's outline where no wall stands on it.

Coordinates: mm, x right, y up (the tessellation's pictures run y down: flipped), the plate's
bounding box from (0, 0) to ``(width, depth)``; rings run with their region on the left (outer
rings counter-clockwise, holes clockwise).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from laby3d.errors import InternalError

if TYPE_CHECKING:
    import shapely

    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze
    from laby3d.tessellation.base import Tessellation

#: Points closer than this (relative to the plate's size) are one point.
SNAP = 1e-9


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


def _units(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.hypot(vectors[:, 0], vectors[:, 1])[:, None]


def thick_lines(
    points: np.ndarray,
    segments: np.ndarray,
    half: float,
    cap: np.ndarray,
    virtual: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The region within ``half`` (mm) of the line ``segments`` ``(S, 2)`` (ids into ``points``
    ``(V, 2)``, mm), with mitred joins and, at every end point (a vertex of one segment), a square
    cap reaching ``cap[vertex]`` mm beyond it.

    ``virtual`` ``(S,)`` bool marks segments that are not drawn but shape the joins at their ends:
    a line meeting one there ends along the mitre line it would have with it (an opening in the
    outline: the outer corner stays on the outline's offset). Returns the points of the rings
    ``(K, 2)`` and their starts ``(R + 1,)``: one ring per face of the line graph, region on the
    left (a tree: one counter-clockwise ring). Points where a line runs straight on are left out.
    """
    count = len(segments)
    if count == 0:
        return np.zeros((0, 2)), np.zeros(1, dtype=np.int64)
    virtual = np.zeros(count, dtype=bool) if virtual is None else virtual
    first = segments[:, 0].astype(np.int64)
    second = segments[:, 1].astype(np.int64)
    forward = _units(points[second] - points[first])
    source = np.concatenate([first, second])
    target = np.concatenate([second, first])
    unit = np.concatenate([forward, -forward])
    twin = np.concatenate([np.arange(count, 2 * count), np.arange(count)])
    fake = np.concatenate([virtual, virtual])
    # Around every vertex, its half-edges in counter-clockwise order.
    order = np.lexsort((np.arctan2(unit[:, 1], unit[:, 0]), source))
    grouped = source[order]
    new_group = np.append(True, grouped[1:] != grouped[:-1])
    group_start = np.maximum.accumulate(np.where(new_group, np.arange(2 * count), 0))
    following = np.where(np.append(new_group[1:], True), order[group_start], np.roll(order, -1))
    counter_clockwise = np.empty(2 * count, dtype=np.int64)
    counter_clockwise[order] = following
    # Walking half-edge h = u → v on its right, the region on the left: at v sweep counter-
    # clockwise from v → u past the virtual half-edges to the next drawn one.
    glimpse = counter_clockwise[twin]
    after, last_virtual = glimpse.copy(), glimpse.copy()
    while True:
        skip = fake[after] & ~fake
        if not skip.any():
            break
        last_virtual[skip] = after[skip]
        after[skip] = counter_clockwise[after[skip]]
    at = points[target]
    cut = fake[glimpse] & ~fake  # a drawn line meets a virtual one: two corners, the cut between
    leaf = (after == twin) & ~cut
    travel = unit
    straight = (
        ~leaf
        & ~cut
        & (np.abs(travel[:, 0] * unit[after][:, 1] - travel[:, 1] * unit[after][:, 0]) < 1e-12)
        & ((travel * unit[after]).sum(axis=1) > 0)
    )
    joined = _corners(at, travel, unit[after], half, valid=~leaf & ~cut)
    into_cut = _corners(at, travel, unit[glimpse], half, valid=cut)
    out_of_cut = _corners(at, -unit[last_virtual], unit[after], half, valid=cut)
    right = np.stack([travel[:, 1], -travel[:, 0]], axis=1)
    reach = cap[target][:, None] * travel
    first_points = np.where(cut[:, None], into_cut, np.where(leaf[:, None], at + reach + half * right, joined))
    second_points = np.where(cut[:, None], out_of_cut, at + reach - half * right)
    emitted = np.where(leaf | cut, 2, np.where(straight, 0, 1))
    # The line each ring edge runs on: the right offset of the next half-edge walked, except the
    # edge across a cap or a cut.
    along = np.where((leaf | cut)[:, None], np.nan, unit[after])
    after[fake] = np.flatnonzero(fake)
    starts = [0]
    chunks = []
    for cycle in _cycles(after):
        if fake[cycle[0]]:
            continue
        sizes = emitted[cycle]
        picks = np.repeat(cycle, sizes)
        second = np.zeros(len(picks), dtype=bool)
        second[(np.cumsum(sizes) - 1)[sizes == 2]] = True
        ring = np.where(second[:, None], second_points[picks], first_points[picks])
        lines = np.where(second[:, None], unit[after[picks]], along[picks])
        chunks.append(_trimmed(ring, lines))
        starts.append(starts[-1] + len(chunks[-1]))
    return np.concatenate(chunks), np.array(starts, dtype=np.int64)


def _trimmed(ring: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """``ring`` without the edges a mitre ran past: an edge on a segment's offset line that runs
    backwards (its segment is shorter than the joins at its ends reach) is dropped, and the
    lines before and after it meet instead. ``lines`` ``(k, 2)``: the direction of the line each
    edge runs on (NaN: an edge across a cap or a cut, never dropped)."""
    checked = ~np.isnan(lines[:, 0])
    for _ in range(len(ring)):
        step = np.roll(ring, -1, axis=0) - ring
        backwards = checked & (np.einsum("ij,ij->i", step, np.nan_to_num(lines)) <= 0)
        if not backwards.any():
            return ring
        count = len(ring)
        chosen = np.flatnonzero(backwards)
        chosen = chosen[np.append(True, np.diff(chosen) > 2)]  # one edge of each run a pass
        directions = np.where(checked[:, None], lines, step / np.hypot(step[:, 0], step[:, 1])[:, None])
        before, beyond = (chosen - 1) % count, (chosen + 1) % count
        meet = _meet(ring[before], directions[before], ring[beyond], directions[beyond])
        ring = ring.copy()
        ring[chosen] = meet
        lines = lines.copy()
        lines[chosen] = lines[beyond]
        keep = np.ones(count, dtype=bool)
        keep[beyond] = False
        ring, lines, checked = ring[keep], lines[keep], checked[keep]
    raise InternalError("the walls' outline does not settle")


def _meet(first: np.ndarray, along_first: np.ndarray, second: np.ndarray, along_second: np.ndarray) -> np.ndarray:
    """Where the lines through ``first`` along ``along_first`` and through ``second`` along
    ``along_second`` cross (row by row)."""
    gap = second - first
    cross = along_first[:, 0] * along_second[:, 1] - along_first[:, 1] * along_second[:, 0]
    share = (gap[:, 0] * along_second[:, 1] - gap[:, 1] * along_second[:, 0]) / cross
    return first + share[:, None] * along_first


def _corners(at: np.ndarray, travel: np.ndarray, onward: np.ndarray, half: float, valid: np.ndarray) -> np.ndarray:
    """Where the offset lines ``half`` mm right of the directions ``travel`` (arriving at ``at``)
    and ``onward`` (leaving it) meet: the mitre point (rows not ``valid``: any value)."""
    right_in = np.stack([travel[:, 1], -travel[:, 0]], axis=1)
    right_out = np.stack([onward[:, 1], -onward[:, 0]], axis=1)
    denominator = np.where(valid, 1.0 + (right_in * right_out).sum(axis=1), 1.0)
    return at + half * (right_in + right_out) / denominator[:, None]


def _cycles(following: np.ndarray) -> list[np.ndarray]:
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


@dataclass(frozen=True, eq=False)
class ShapedPlan:
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

    @cached_property
    def wall_area(self) -> float:
        """Area of the wall footprint, mm²."""
        return self.walls.area()

    @cached_property
    def plate_area(self) -> float:
        """Area of the plate, mm²."""
        return ring_area(self.points[self.plate])


def shaped_plan(maze: Maze, fab: Fabrication) -> ShapedPlan:
    """The plan view of ``maze`` with ``fab``'s sizes (mm)."""
    from laby3d.maze.walls import closed_walls

    tessellation = maze.tessellation
    scale, half = fab.cell_size, fab.wall_thickness / 2
    pitch = tessellation.vertices
    corners = np.stack([pitch[:, 0] * scale, -pitch[:, 1] * scale], axis=1)  # y up; shifted at the end
    segments = closed_walls(maze).segments().astype(np.int64)
    openings = _opening_ends(maze)
    wall_xy, wall_starts = thick_lines(
        corners,
        np.concatenate([segments, openings]),
        half,
        np.full(len(corners), half),
        np.repeat([False, True], [len(segments), len(openings)]),
    )
    if tessellation.shape.name == "theta":
        plate_xy = _disc(tessellation, corners, half + fab.margin)
    else:
        low, high = wall_xy.min(axis=0) - fab.margin, wall_xy.max(axis=0) + fab.margin
        plate_xy = np.array([low, (high[0], low[1]), high, (low[0], high[1])])
    size = float(np.max(plate_xy.max(axis=0) - plate_xy.min(axis=0)))
    merged, wall_ids, plate = _merge_plate(wall_xy, plate_xy, touching=fab.margin == 0, tolerance=SNAP * size)
    wall_rings = [wall_ids[wall_starts[k] : wall_starts[k + 1]] for k in range(len(wall_starts) - 1)]
    low = merged[plate].min(axis=0)
    shifted = merged - low
    walls = Polygons(shifted, group_polygons(shifted, wall_rings))
    floor_rings = _floor_rings(shifted, plate, wall_rings)
    floor = Polygons(shifted, group_polygons(shifted, floor_rings))
    width, depth = (float(v) for v in shifted[plate].max(axis=0))
    return ShapedPlan(
        walls=walls,
        floor=floor,
        plate=plate,
        width=width,
        depth=depth,
        scale=scale,
        origin=(float(-low[0]), float(-low[1])),
    )


def _opening_ends(maze: Maze) -> np.ndarray:
    """``(k, 2)`` vertex ids: the end segments of each opening (entrance, exit), the virtual
    segments of :func:`thick_lines` that cut the walls meeting the opening there."""
    tessellation = maze.tessellation
    starts, ids = tessellation.boundary_starts, tessellation.boundary_vertices
    ends: set[tuple[int, int]] = set()
    for wall in (maze.boundary_wall_of(maze.entrance), maze.boundary_wall_of(maze.exit)):
        if wall is not None:
            line = ids[starts[wall] : starts[wall + 1]].tolist()
            ends.update({(line[0], line[1]), (line[-2], line[-1])})
    return np.array(sorted(ends), dtype=np.int64).reshape(-1, 2)


def _disc(tessellation: Tessellation, corners: np.ndarray, reach: float) -> np.ndarray:
    """A theta maze's plate: the outline's outer offset by ``reach`` mm (counter-clockwise)."""
    keep = np.ones(len(tessellation.boundary_vertices), dtype=bool)
    keep[tessellation.boundary_starts[1:] - 1] = False
    outline = tessellation.boundary_vertices[keep].astype(np.int64)
    segments = np.stack([outline, np.roll(outline, -1)], axis=1)
    xy, starts = thick_lines(corners, segments, reach, np.zeros(len(corners)))
    rings = [xy[starts[k] : starts[k + 1]] for k in range(len(starts) - 1)]
    outer = [ring for ring in rings if ring_area(ring) > 0]
    if len(outer) != 1:
        raise InternalError(f"a theta outline gave {len(outer)} outer offsets")
    return outer[0]


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
    wall_ids = np.arange(len(wall_xy), dtype=np.int64) + count
    points = np.concatenate([plate_xy, wall_xy])
    inserted: list[list[tuple[float, int]]] = [[] for _ in range(count)]
    for index in np.flatnonzero(on_edge).tolist():
        k = int(edge[index])
        share = float(offset[index] @ unit[k])
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
    for cycle in _cycles(following):
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


def plate_size(shape: str, rows: int, cols: int | None, fab: Fabrication) -> tuple[float, float]:
    """The plate's width and depth (mm) of a ``shape`` maze of ``rows`` × ``cols`` with
    ``fab``'s sizes, without building the maze: what :func:`shaped_plan` makes (tested)."""
    scale, half, margin = fab.cell_size, fab.wall_thickness / 2, fab.margin
    if shape == "theta":
        from laby3d.tessellation.theta import ring_sizes, segments_per_arc

        cells = int(ring_sizes(rows)[-1])
        count = cells * segments_per_arc(rows, cells)
        reach = (rows * scale * math.cos(math.pi / count) + half + margin) / math.cos(math.pi / count)
        angles = -math.pi / 2 + 2 * math.pi * np.arange(count) / count
        return float(np.ptp(reach * np.cos(angles))), float(np.ptp(reach * np.sin(angles)))
    cols = cols or 1
    tip = 2 * half / math.sqrt(3)  # a 120° corner's mitre reaches t/√3 along its bisector
    if shape == "hex":
        width = (cols + (0.5 if rows > 1 else 0.0)) * scale + 2 * half
        depth = (3 * rows + 1) / (2 * math.sqrt(3)) * scale + 2 * tip
    elif shape == "triangle":
        # The leftmost and rightmost points: 120° corners, or a board corner of one triangle (60°,
        # its mitre 2·t/2 along its bisector, √3/2·t sideways): bottom left (rows odd), top right
        # (cols even), bottom right (rows + cols even).
        sharp = math.sqrt(3) * half
        left = sharp if rows % 2 else tip
        right = sharp if cols % 2 == 0 or (rows + cols) % 2 == 0 else tip
        width = (cols + 1) * math.sqrt(3) / 2 * scale + left + right
        depth = 1.5 * rows * scale + 2 * half
    else:
        width, depth = cols * scale + 2 * half, rows * scale + 2 * half
    return width + 2 * margin, depth + 2 * margin


def solution_strip(maze: Maze, plan: ShapedPlan, width: float, wall: float) -> np.ndarray:
    """``(k, 2)`` the ring (mm, counter-clockwise) of the solution strip, ``width`` mm wide, along
    :func:`solution_line` (``wall``: the walls' thickness, mm): mitred at its turns, cut square
    at its ends (the middle of an opening's wall, or a start or goal inside)."""
    points = solution_line(maze, plan, width, wall)
    count = len(points)
    segments = np.stack([np.arange(count - 1), np.arange(1, count)], axis=1)
    xy, starts = thick_lines(points, segments, width / 2, np.zeros(count))
    if len(starts) != 2:
        raise InternalError("the solution strip is not one ring")
    return xy


def solution_line(maze: Maze, plan: ShapedPlan, width: float, wall: float) -> np.ndarray:
    """``(k, 2)`` the centre line (mm) of a solution strip ``width`` mm wide between walls ``wall``
    mm thick: from each solution cell's centre through the middle of the wall to the next (as
    :func:`laby3d.maze.solve.solution_polyline`). Where the line between two centres
    crosses their wall askew (a theta maze's neighbours in rings of different counts) it crosses
    square instead, from ``wall/2 + width/2`` mm before the wall's middle to as far beyond (less
    near a centre): askew, the strip would graze the doorway's side."""
    tessellation = maze.tessellation
    cells = maze.solution_cells
    centres = plan.to_plan(tessellation.centres[cells])

    def crossing(polyline: np.ndarray, middle: np.ndarray, before: np.ndarray, after: np.ndarray) -> list[np.ndarray]:
        """The points where the line from ``before`` to ``after`` crosses the wall ``polyline``
        (pitch units) at ``middle`` (mm): the middle, or two points square across it."""
        ends = plan.to_plan(polyline[[0, -1]])
        chord = (ends[1] - ends[0]) / math.hypot(*(ends[1] - ends[0]))
        normal = np.array([-chord[1], chord[0]])
        if (after - before) @ normal < 0:
            normal = -normal
        onward = (after - before) / math.hypot(*(after - before))
        if abs(onward @ chord) < 1e-9:
            return [middle]
        reach = min(wall / 2 + width / 2, 0.45 * math.hypot(*(middle - before)), 0.45 * math.hypot(*(after - middle)))
        return [middle - reach * normal, middle + reach * normal]

    line: list[np.ndarray] = []
    walls = tessellation.edge_indices(np.stack([cells[:-1], cells[1:]], axis=1))
    entrance, exit_ = maze.boundary_wall_of(maze.entrance), maze.boundary_wall_of(maze.exit)
    if entrance is not None:
        middle = plan.to_plan(tessellation.boundary_midpoints[entrance])[0]
        line += [middle, *crossing(tessellation.boundary_polyline(entrance), middle, middle, centres[0])[1:]]
    for index, centre in enumerate(centres):
        line.append(centre)
        if index < len(walls):
            middle = plan.to_plan(tessellation.wall_midpoints[walls[index]])[0]
            line += crossing(tessellation.wall_polyline(walls[index]), middle, centre, centres[index + 1])
    if exit_ is not None:
        middle = plan.to_plan(tessellation.boundary_midpoints[exit_])[0]
        line += [*crossing(tessellation.boundary_polyline(exit_), middle, centres[-1], middle)[:-1], middle]
    return np.array(line)
