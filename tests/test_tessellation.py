"""Every shape's tessellation against independent geometry: neighbours are the cells whose
polygons share a segment (shapely), walls never cross, each interior wall is an edge of both of
its cells' polygons, the boundary is one closed loop, Euler's formula holds for the walls, and
the cell areas add up to the outline's and to the analytic area."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from laby3d.errors import ParameterError
from laby3d.tessellation import MAX_SHAPED_CELLS, SHAPES, tessellate
from laby3d.tessellation.theta import CHORD_ERROR, MAX_RINGS, ring_sizes

SIZES = {
    "square": [(1, 1), (1, 5), (4, 1), (3, 4), (6, 7)],
    "hex": [(1, 1), (1, 5), (4, 1), (2, 2), (5, 6), (6, 5)],
    "triangle": [(1, 2), (1, 5), (4, 2), (2, 3), (5, 6)],
    "theta": [(2, None), (3, None), (5, None), (9, None)],
}
CASES = [(shape, rows, cols) for shape, sizes in SIZES.items() for rows, cols in sizes]


def test_every_shape_is_tested() -> None:
    assert set(SIZES) == set(SHAPES)


def analytic_area(shape: str, rows: int, cols: int | None) -> float:
    """Exact area of the outline, cell sizes squared (theta: the disc of radius rows)."""
    if shape == "square":
        return rows * cols
    if shape == "hex":  # a hexagon of width 1 has area √3/2
        return rows * cols * math.sqrt(3) / 2
    if shape == "triangle":  # side √3: area √3/4·3
        return rows * cols * 3 * math.sqrt(3) / 4
    return math.pi * rows**2


def shoelace(points: np.ndarray) -> float:
    x, y = points[:, 0], points[:, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def all_segments(t) -> np.ndarray:
    """``(S, 2)`` vertex-id pairs of every wall segment, interior and boundary."""
    pairs = []
    for starts, ids in ((t.wall_starts, t.wall_vertices), (t.boundary_starts, t.boundary_vertices)):
        for k in range(len(starts) - 1):
            chain = ids[starts[k] : starts[k + 1]]
            pairs.extend(zip(chain[:-1], chain[1:], strict=False))
    return np.array(pairs, dtype=np.int64)


@pytest.mark.parametrize(("shape", "rows", "cols"), CASES)
def test_neighbours_are_cells_sharing_a_side(shape: str, rows: int, cols: int | None) -> None:
    t = tessellate(shape, rows, cols)
    polygons = [shapely.Polygon(t.cell_polygon(c)) for c in range(t.cell_count)]
    tree = shapely.STRtree(polygons)
    found = set()
    for a, polygon in enumerate(polygons):
        for b in tree.query(polygon):
            if a < b and polygon.intersection(polygons[b]).length > 1e-9:
                found.add((a, int(b)))
    assert found == set(map(tuple, t.edges.tolist()))
    assert len(found) == len(t.edges)


@pytest.mark.parametrize(("shape", "rows", "cols"), CASES)
def test_cells_are_connected(shape: str, rows: int, cols: int | None) -> None:
    """Through shared sides (a plain search over the edge list): a maze can reach every cell."""
    t = tessellate(shape, rows, cols)
    reached, frontier = {0}, [0]
    neighbours: dict[int, list[int]] = {}
    for a, b in t.edges.tolist():
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    while frontier:
        for other in neighbours.get(frontier.pop(), []):
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    assert len(reached) == t.cell_count


@pytest.mark.parametrize(("shape", "rows", "cols"), CASES)
def test_walls_never_cross(shape: str, rows: int, cols: int | None) -> None:
    t = tessellate(shape, rows, cols)
    segments = all_segments(t)
    assert len({tuple(sorted(s)) for s in segments.tolist()}) == len(segments), "a segment drawn twice"
    p, q = t.vertices[segments[:, 0]], t.vertices[segments[:, 1]]

    def side(a, b, c):
        return (b[..., 0] - a[..., 0]) * (c[..., 1] - a[..., 1]) - (b[..., 1] - a[..., 1]) * (c[..., 0] - a[..., 0])

    a, b = p[:, None], q[:, None]
    c, d = p[None, :], q[None, :]
    d1, d2, d3, d4 = side(a, b, c), side(a, b, d), side(c, d, a), side(c, d, b)
    crossing = (d1 * d2 < -1e-12) & (d3 * d4 < -1e-12)
    assert not crossing.any()
    # no vertex lies inside another segment (T-junctions would be missing vertices)
    for v, point in enumerate(t.vertices):
        ends = (segments[:, 0] == v) | (segments[:, 1] == v)
        along = np.einsum("ij,ij->i", point - p, q - p) / np.einsum("ij,ij->i", q - p, q - p)
        distance = np.abs(side(p, q, point[None, :])) / np.linalg.norm(q - p, axis=1)
        assert not ((distance < 1e-9) & (along > 1e-9) & (along < 1 - 1e-9) & ~ends).any()


@pytest.mark.parametrize(("shape", "rows", "cols"), CASES)
def test_each_wall_is_an_edge_of_both_cells(shape: str, rows: int, cols: int | None) -> None:
    t = tessellate(shape, rows, cols)

    def ring_steps(cell: int) -> set[tuple[int, int]]:
        ring = t.polygon_vertices[t.polygon_starts[cell] : t.polygon_starts[cell + 1]].tolist()
        return set(zip(ring, ring[1:] + ring[:1], strict=False))

    for edge, (a, b) in enumerate(t.edges.tolist()):
        chain = t.wall_vertices[t.wall_starts[edge] : t.wall_starts[edge + 1]].tolist()
        steps = set(zip(chain[:-1], chain[1:], strict=False))
        assert steps and steps <= ring_steps(a)
        assert {(v, u) for u, v in steps} <= ring_steps(b)
    for wall, cell in enumerate(t.boundary_cells.tolist()):
        chain = t.boundary_vertices[t.boundary_starts[wall] : t.boundary_starts[wall + 1]].tolist()
        assert set(zip(chain[:-1], chain[1:], strict=False)) <= ring_steps(cell)


@pytest.mark.parametrize(("shape", "rows", "cols"), CASES)
def test_boundary_is_one_closed_loop_and_euler_holds(shape: str, rows: int, cols: int | None) -> None:
    t = tessellate(shape, rows, cols)
    starts, ids = t.boundary_starts, t.boundary_vertices
    walls = len(starts) - 1
    for k in range(walls):
        assert ids[starts[k + 1] - 1] == ids[starts[(k + 1) % walls]], "walls do not join end to start"
    outline = t.outline()
    assert len({tuple(p) for p in outline.round(9).tolist()}) == len(outline), "the loop touches itself"
    assert shapely.Polygon(outline).is_valid
    segments = all_segments(t)
    used = np.unique(segments)
    assert len(used) == len(t.vertices)
    assert len(used) - len(segments) + (t.cell_count + 1) == 2  # V − E + F, the outer face included
    sides = list(zip(t.boundary_cells.tolist(), t.boundary_sides, strict=False))
    assert len(set(sides)) == len(sides)
    assert set(t.boundary_sides) <= set(t.shape.side_angles)


@pytest.mark.parametrize(("shape", "rows", "cols"), CASES)
def test_areas_add_up(shape: str, rows: int, cols: int | None) -> None:
    t = tessellate(shape, rows, cols)
    areas = np.array([shoelace(t.cell_polygon(c)) for c in range(t.cell_count)])
    assert (areas > 0).all(), "polygons are positively oriented"
    outline = shoelace(t.outline())
    assert areas.sum() == pytest.approx(outline, rel=1e-12)
    exact = analytic_area(shape, rows, cols)
    if shape == "theta":  # inscribed polylines: short of the disc by at most the chord error along the rim
        assert 0 < exact - outline <= 2 * math.pi * rows * CHORD_ERROR
    else:
        assert outline == pytest.approx(exact, rel=1e-12)
    assert t.vertices.min(axis=0) == pytest.approx([0, 0], abs=1e-12)
    assert t.extent == pytest.approx(tuple(t.vertices.max(axis=0)))


@pytest.mark.parametrize(("shape", "rows", "cols"), CASES)
def test_centres_are_inside_and_the_cell_size_is_the_inscribed_diameter(
    shape: str, rows: int, cols: int | None
) -> None:
    t = tessellate(shape, rows, cols)
    for c in range(t.cell_count):
        polygon = t.cell_polygon(c)
        assert shapely.Polygon(polygon).contains(shapely.Point(t.centres[c]))
        if shape != "theta":  # the inscribed circle of diameter 1 touches every side
            p, q = polygon, np.roll(polygon, -1, axis=0)
            cross = (q[:, 0] - p[:, 0]) * (t.centres[c, 1] - p[:, 1]) - (q[:, 1] - p[:, 1]) * (
                t.centres[c, 0] - p[:, 0]
            )
            assert np.abs(cross) / np.linalg.norm(q - p, axis=1) == pytest.approx(0.5)
    if shape != "theta":  # neighbours' centres are one cell size apart
        a, b = t.centres[t.edges[:, 0]], t.centres[t.edges[:, 1]]
        assert np.linalg.norm(a - b, axis=1) == pytest.approx(1.0)


@pytest.mark.parametrize("rings", [2, 3, 6, 12, 41])
def test_theta_rings(rings: int) -> None:
    """Ring height 1; the chord of each ring cell at its inner radius in [1, 2); arcs within the
    chord error of their circles."""
    t = tessellate("theta", rings)
    centre = np.array([rings, rings])
    radius = np.linalg.norm(t.vertices - centre, axis=1)
    assert radius == pytest.approx(np.round(radius))
    assert radius.max() == pytest.approx(rings)
    sizes = np.diff(t.row_starts)
    for k in range(1, rings):
        chord = 2 * k * math.sin(math.pi / sizes[k])
        assert 1 - 1e-12 <= chord < 2
        assert sizes[k] in (sizes[k - 1], 2 * sizes[k - 1]) or k == 1
    segments = all_segments(t)
    same_circle = np.isclose(radius[segments[:, 0]], radius[segments[:, 1]])
    p, q = t.vertices[segments[same_circle, 0]], t.vertices[segments[same_circle, 1]]
    r = radius[segments[same_circle, 0]]
    middle = np.linalg.norm((p + q) / 2 - centre, axis=1)
    assert (r - middle).max() <= CHORD_ERROR + 1e-12
    assert (np.linalg.norm(t.centres[0] - centre)) == 0


def test_theta_cell_count_stays_within_the_limit() -> None:
    assert ring_sizes(MAX_RINGS).sum() <= MAX_SHAPED_CELLS


def test_sides_point_the_named_way() -> None:
    """Square sides are the border sides; hex and triangle rows open W at column 0 and E at the last column."""
    grid = tessellate("square", 3, 4)
    for wall, cell in enumerate(grid.boundary_cells.tolist()):
        row, col = divmod(cell, 4)
        assert grid.boundary_sides[wall] in [
            s for s, on in (("N", row == 0), ("S", row == 2), ("W", col == 0), ("E", col == 3)) if on
        ]
    for shape in ("hex", "triangle"):
        t = tessellate(shape, 5, 6)
        for row in range(5):
            assert t.boundary_wall(t.cell_index(row, 0), "W") is not None
            assert t.boundary_wall(t.cell_index(row, 5), "E") is not None


def test_cell_index_and_position() -> None:
    t = tessellate("theta", 6)
    for index in range(t.cell_count):
        assert t.cell_index(*t.cell_position(index)) == index
    with pytest.raises(IndexError):
        t.cell_index(1, 6)


@pytest.mark.parametrize(
    ("shape", "rows", "cols", "field"),
    [
        ("theta", 1, None, "rows"),
        ("theta", MAX_RINGS + 1, None, "rows"),
        ("theta", 5, 5, "cols"),
        ("hex", 5, None, "cols"),
        ("hex", 2000, 1001, "rows"),
        ("triangle", 0, 3, "rows"),
        ("triangle", 3, 1, "cols"),
        ("pentagon", 3, 3, "shape"),
    ],
)
def test_sizes_are_checked(shape: str, rows: int, cols: int | None, field: str) -> None:
    with pytest.raises(ParameterError) as caught:
        tessellate(shape, rows, cols)
    assert caught.value.field == field
