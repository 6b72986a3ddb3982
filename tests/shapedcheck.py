"""Oracles for the solids of mazes of every shape, independent of the mesher's own polygons: the
wall footprint as a GEOS union of its pieces (one rectangle per wall segment, one quadrilateral
per join, a square per dead end's cap, less what lies beyond the cut line where walls meet an
opening askew), the
plate's area from its own formula, the solution strip as shapely's mitred buffer of a line
through the cells of a breadth-first search written here, an STL read back by numpy-stl and
checked edge by edge, and balls rolled through the corridors (GEOS erosion)."""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

import numpy as np
import shapely
from test_shaped_pictures import bfs_path, file_of

import laby3d
from laby3d.geometry.params import Fabrication
from laby3d.geometry.plan import maze_plan
from laby3d.geometry.strip import solution_line
from laby3d.maze.model import Maze
from laby3d.maze.walls import closed_walls
from laby3d.mesh.solid import MazeSolid, SolidOptions, maze_solid

#: The grid GEOS snaps the footprint's pieces to, mm.
GRID = 1e-9
#: Solids of every shape exercising every part and mark: (shape, size, fabrication, options).
SHAPED_CASES: dict[str, tuple[str, tuple[int, ...], Fabrication, SolidOptions]] = {
    "theta-plain": ("theta", (9,), Fabrication(), SolidOptions()),
    "theta-groove-label": ("theta", (7,), Fabrication(margin=6), SolidOptions(solution="groove", label="Zoë")),
    "hex-ridge-markers": ("hex", (6, 8), Fabrication(margin=8), SolidOptions(solution="ridge", markers=True)),
    "hex-emboss": ("hex", (6, 8), Fabrication(margin=7), SolidOptions(label="Ana 7", label_mode="emboss")),
    "triangle-plain": ("triangle", (7, 9), Fabrication(), SolidOptions()),
    "triangle-groove-label": ("triangle", (7, 9), Fabrication(margin=7), SolidOptions(solution="groove", label="Éa")),
}


def shaped_case(case: str) -> tuple[Maze, MazeSolid]:
    """The maze (backtracker, seed 4) and solid of one of :data:`SHAPED_CASES`."""
    shape, size, fab, options = SHAPED_CASES[case]
    maze = laby3d.generate(*size, shape=shape, algorithm="backtracker", seed=4)
    return maze, maze_solid(maze, fab, options)


def plan_points(maze: Maze, fab: Fabrication) -> np.ndarray:
    """The tessellation's vertices in mm, y up (not shifted onto the plate)."""
    vertices = maze.tessellation.vertices
    return np.stack([vertices[:, 0], -vertices[:, 1]], axis=1) * fab.cell_size


def _unit(vector: np.ndarray) -> np.ndarray:
    return vector / math.hypot(*vector)


def _offset_meet(v: np.ndarray, d1: np.ndarray, d2: np.ndarray, half: float) -> np.ndarray:
    """Where the line ``half`` left of direction ``d1`` (from ``v``) meets the line ``half`` right
    of ``d2``: solved as a 2×2 system (one line when they run straight on)."""
    left1 = np.array([-d1[1], d1[0]])
    right2 = np.array([d2[1], -d2[0]])
    if abs(d1[0] * d2[1] - d1[1] * d2[0]) < 1e-12:
        return v + half * left1
    return v + np.linalg.solve(np.stack([left1, right2]), [half, half])


def _square_to_walls(points: np.ndarray, real: list[list[int]], a: int, b: int) -> bool:
    """Whether every drawn wall at ``a`` or ``b`` runs along the opening's segment ``a``–``b`` or
    square to it (dot or cross product of the unit directions zero)."""
    along = _unit(points[b] - points[a])
    for v in (a, b):
        for p, q in real:
            if v in (p, q):
                d = _unit(points[q if v == p else p] - points[v])
                if abs(d @ along) > 1e-9 and abs(d[0] * along[1] - d[1] * along[0]) > 1e-9:
                    return False
    return True


def footprint_pieces(maze: Maze, fab: Fabrication) -> shapely.Geometry:
    """The wall footprint as the union of its pieces (mm, y up, unshifted), by GEOS."""
    points = plan_points(maze, fab)
    half = fab.wall_thickness / 2
    tessellation = maze.tessellation
    real = closed_walls(maze).segments().tolist()
    virtual = []
    for opening in (maze.entrance, maze.exit):
        wall = maze.boundary_wall_of(opening)
        if wall is not None:
            line = tessellation.boundary_vertices[
                tessellation.boundary_starts[wall] : tessellation.boundary_starts[wall + 1]
            ]
            virtual += [(int(line[0]), int(line[1])), (int(line[-1]), int(line[-2]))]
    around: dict[int, list[tuple[float, np.ndarray, bool]]] = defaultdict(list)
    pieces = []
    cuts = []  # beyond a cut, near its vertex: taken away from the drawn walls
    for a, b in real:
        d = _unit(points[b] - points[a])
        n = np.array([-d[1], d[0]]) * half
        pieces.append(shapely.Polygon([points[a] + n, points[b] + n, points[b] - n, points[a] - n]))
        around[a].append((math.atan2(d[1], d[0]), d, True))
        around[b].append((math.atan2(-d[1], -d[0]), -d, True))
    for a, b in set(virtual):
        if _square_to_walls(points, real, a, b):
            continue  # the walls there end as dead ends do (a square maze's posts)
        for v, w in ((a, b), (b, a)):
            if v in around:
                d = _unit(points[w] - points[v])
                around[v].append((math.atan2(d[1], d[0]), d, False))
    for v, spokes in around.items():
        spokes.sort(key=lambda spoke: spoke[0])
        p = points[v]
        reals = [index for index, spoke in enumerate(spokes) if spoke[2]]
        if len(spokes) == 1:  # a dead end: a square cap
            d = spokes[0][1]
            n = np.array([-d[1], d[0]]) * half
            pieces.append(shapely.Polygon([p + n, p - n, p - n - half * d, p + n - half * d]))
            continue
        for index in reals:  # from each drawn spoke counter-clockwise to the next drawn one
            d1 = spokes[index][1]
            k = (index + 1) % len(spokes)
            skipped = []
            while not spokes[k][2]:
                skipped.append(spokes[k][1])
                k = (k + 1) % len(spokes)
            d2 = spokes[k][1]
            left1, right2 = np.array([-d1[1], d1[0]]) * half, np.array([d2[1], -d2[0]]) * half
            if not skipped:
                if abs(d1[0] * d2[1] - d1[1] * d2[0]) < 1e-12 and d1 @ d2 < 0:
                    continue  # straight on
                rim = [p + left1, _offset_meet(p, d1, d2, half), p + right2]
            else:  # cut along the line through the joins with the opening
                first, last = _offset_meet(p, d1, skipped[0], half), _offset_meet(p, skipped[-1], d2, half)
                rim = [p + left1, first, last, p + right2]
                along = _unit(last - first)
                outward = np.array([along[1], -along[0]])
                beyond = outward * (abs((p - first) @ outward) + half)  # past the vertex and its walls' ends
                # what lies beyond the cut line among the pieces at this vertex: the two walls' ends
                # (p ± their half-widths: a wall askew to the line reaches past the cut's ends) and
                # the joins, no farther
                ends = [p + left1, p - left1, p + right2, p - right2, first, last, first + beyond, last + beyond]
                far = 4 * (np.hypot(*(first - p)) + np.hypot(*(last - p)) + half)
                side = shapely.Polygon(
                    [
                        first - far * along,
                        last + far * along,
                        last + far * (along + outward),
                        first + far * (outward - along),
                    ]
                )
                cuts.append(shapely.MultiPoint(ends).convex_hull.intersection(side))
            fan = [shapely.Polygon([p, a, b]) for a, b in zip(rim, rim[1:], strict=False)]
            pieces += [triangle for triangle in fan if triangle.area > 1e-12]
    # GEOS's floating overlay lost a wall segment's rectangle in one case (a triangle maze's top
    # edge at y = -0.0); snap rounding to a 1 nm grid is robust and moves the area by ~1e-12.
    return shapely.union_all(pieces, grid_size=GRID).difference(shapely.union_all(cuts, grid_size=GRID), grid_size=GRID)


def plate_area(maze: Maze, fab: Fabrication, pieces: shapely.Geometry) -> float:
    """The plate's area, mm²: theta a regular polygon of apothem ``R·cos(π/N) + t/2 + margin``
    (N rim points of radius R); the grids the walls' bounding box grown by the margin."""
    if maze.shape == "theta":
        count = len(maze.tessellation.outline())
        apothem = maze.rows * fab.cell_size * math.cos(math.pi / count) + fab.wall_thickness / 2 + fab.margin
        return count * apothem**2 * math.tan(math.pi / count)
    x0, y0, x1, y1 = pieces.bounds
    return (x1 - x0 + 2 * fab.margin) * (y1 - y0 + 2 * fab.margin)


def _side_middle(polygon: shapely.Polygon, other: shapely.Geometry) -> np.ndarray:
    """The middle of the side ``polygon`` shares with ``other`` (a neighbour cell's boundary)."""
    shared = polygon.boundary.intersection(other)
    return np.array(shared.interpolate(0.5, normalized=True).coords[0])


def strip_line(maze: Maze, fab: Fabrication, width: float) -> np.ndarray:
    """The strip's centre line (mm, y up, unshifted): hex and triangle mazes straight from each
    cell's centre through the middle of the side it shares with the next (found by GEOS on the
    cells' polygons), along a breadth-first search over the maze file's passages (written in
    test_shaped_pictures), from the middle of the entrance's opening to the exit's. A theta
    maze crosses askew walls square (laby3d's rule, not restated here): its line is laby3d's,
    checked to pass every centre of the search's path in order."""
    tessellation = maze.tessellation
    cells = bfs_path(file_of(maze))
    flip = np.array([1.0, -1.0]) * fab.cell_size
    centres = tessellation.centres[cells]
    if maze.shape == "theta":
        plan = maze_plan(maze, fab)
        line = solution_line(maze, plan, width, fab.wall_thickness)
        found = [int(np.flatnonzero(np.hypot(*(line - plan.to_plan(c)[0]).T) < 1e-9)[0]) for c in centres]
        assert found == sorted(found), "the strip does not pass the solution's centres in order"
        return line
    polygons = [shapely.Polygon(tessellation.cell_polygon(cell)) for cell in cells]
    openings = [maze.boundary_wall_of(opening) for opening in (maze.entrance, maze.exit)]
    points = [tessellation.boundary_midpoints[openings[0]]] if openings[0] is not None else []
    for index, centre in enumerate(centres):
        points.append(centre)
        if index + 1 < len(cells):
            points.append(_side_middle(polygons[index], polygons[index + 1].boundary))
    if openings[1] is not None:
        points.append(tessellation.boundary_midpoints[openings[1]])
    return np.array(points) * flip


def strip_area(maze: Maze, fab: Fabrication, width: float) -> float:
    """The solution strip's area, mm²: GEOS's buffer of :func:`strip_line`, mitred, ends flat."""
    line = strip_line(maze, fab, width)
    return shapely.LineString(line).buffer(width / 2, cap_style="flat", join_style="mitre", mitre_limit=100).area


def read_stl(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """A binary STL read by numpy-stl: welded points (exact float32 matches) and triangles."""
    from stl import mesh

    corners = mesh.Mesh.from_file(str(path)).vectors.reshape(-1, 3)
    points, triangles = np.unique(corners, axis=0, return_inverse=True)
    return points, triangles.reshape(-1, 3)


def edge_problems(triangles: np.ndarray) -> int:
    """Directed edges not matched by exactly one opposite edge (0: closed, manifold, wound alike)."""
    directed = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]]).astype(np.int64)
    n = int(triangles.max()) + 1
    forward, counts = np.unique(directed[:, 0] * n + directed[:, 1], return_counts=True)
    backward = directed[:, 1] * n + directed[:, 0]
    return int((counts != 1).sum() + np.count_nonzero(~np.isin(forward, backward)))


def body_count(triangles: np.ndarray) -> int:
    """Connected pieces of the triangles (through shared points)."""
    parent = list(range(int(triangles.max()) + 1))

    def root(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for a, b, c in triangles.tolist():
        parent[root(b)] = root(a)
        parent[root(c)] = root(a)
    return len({root(point) for point in np.unique(triangles).tolist()})


def stl_volume(points: np.ndarray, triangles: np.ndarray) -> float:
    """Volume (mm³) by the divergence theorem, in float64."""
    a, b, c = (points[triangles[:, k]].astype(float) for k in range(3))
    return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6)


def ball_rolls(maze: Maze, fab: Fabrication, diameter: float) -> bool:
    """Whether a ball of ``diameter`` mm reaches every cell's centre from every other: the floor
    inside the outline less the walls, shrunk by the ball's radius (GEOS), holds every centre
    in one piece."""
    tessellation = maze.tessellation
    outline = shapely.Polygon(
        np.stack([tessellation.outline()[:, 0], -tessellation.outline()[:, 1]], 1) * fab.cell_size
    )
    free = outline.difference(footprint_pieces(maze, fab)).buffer(-diameter / 2, quad_segs=16)
    centres = shapely.points(np.stack([tessellation.centres[:, 0], -tessellation.centres[:, 1]], 1) * fab.cell_size)
    pieces = list(getattr(free, "geoms", [free]))
    owners = {next((k for k, piece in enumerate(pieces) if piece.contains(centre)), -1) for centre in centres}
    return owners == {next(iter(owners))} and -1 not in owners
