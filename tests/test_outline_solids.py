"""Solids of boards cut by an outline (issue 26): the plate's rim follows the outline, the walls are
the union of their pieces, the STL read back is one closed body of the analytic volume, and a
label goes under the base. The plate's oracle is GEOS's union of the maze's cell polygons, its
holes filled, grown by half a wall and the margin (not laby3d's boundary loops)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import shapely
from shapedcheck import body_count, edge_problems, footprint_pieces, read_stl, stl_volume

import laby3d
from laby3d.export.meshes import stl_bytes
from laby3d.geometry.params import Fabrication
from laby3d.geometry.plan import maze_plan
from laby3d.mesh.solid import SolidOptions, maze_solid

FAST = {("square", "heart"), ("hex", "star"), ("triangle", "text:A")}
CASES = [
    pytest.param(shape, outline, marks=() if (shape, outline) in FAST else pytest.mark.slow)
    for shape, outline in [
        ("square", "heart"),
        ("square", "ring"),
        ("square", "text:A"),
        ("hex", "heart"),
        ("hex", "star"),
        ("triangle", "heart"),
        ("triangle", "text:A"),
        ("triangle", "star"),
        ("theta", "heart"),
    ]
]


def expected_plate(maze: laby3d.Maze, fab: Fabrication) -> shapely.Polygon:
    """The plate, mm, y up: the union of the cells' polygons, holes filled, grown by ``t/2 + margin``
    with mitred corners."""
    tessellation = maze.tessellation
    scale = np.array([fab.cell_size, -fab.cell_size])
    cells = [shapely.Polygon(tessellation.cell_polygon(cell) * scale) for cell in range(maze.cell_count)]
    board = shapely.union_all(cells, grid_size=1e-9)
    assert board.geom_type == "Polygon", "a cut board is one piece"
    grown = shapely.Polygon(board.exterior).buffer(fab.wall_thickness / 2 + fab.margin, join_style="mitre")
    return shapely.Polygon(grown.exterior)


@pytest.mark.parametrize(("shape", "outline"), CASES)
@pytest.mark.parametrize("margin", [0.0, 4.0])
def test_a_cut_boards_solid_is_one_closed_body_with_the_outline_as_its_rim(
    shape: str, outline: str, margin: float, tmp_path: Path
) -> None:
    fab = Fabrication(margin=margin)
    rows, cols = (7, None) if shape == "theta" else (12, 12)
    for seed, placement in enumerate(["hardest", "corners"]):
        maze = laby3d.generate(rows, cols, shape=shape, outline=outline, seed=seed, placement=placement)
        plan = maze_plan(maze, fab)
        walls, floor = plan.walls.geometry(), plan.floor.geometry()
        plate = shapely.Polygon(plan.points[plan.plate])
        expected = expected_plate(maze, fab)
        assert walls.is_valid and floor.is_valid and plate.is_valid
        assert plate.area == pytest.approx(expected.area, rel=1e-9)
        shift = plan.points[plan.plate].min(axis=0) - np.array(expected.bounds[:2])
        assert shapely.affinity.translate(expected, *shift).symmetric_difference(plate).area < 1e-6
        assert walls.area == pytest.approx(footprint_pieces(maze, fab).area, rel=1e-8)
        assert walls.union(floor).area == pytest.approx(plate.area, rel=1e-12)

        path = tmp_path / f"{seed}.stl"
        path.write_bytes(stl_bytes(maze_solid(maze, fab).body, "laby3d"))
        points, triangles = read_stl(path)
        assert edge_problems(triangles) == 0 and body_count(triangles) == 1
        analytic = plate.area * fab.base_thickness + walls.area * (fab.height - fab.base_thickness)
        assert stl_volume(points, triangles) == pytest.approx(analytic, rel=1e-5)


def test_a_label_on_a_heart_goes_under_the_base_inside_the_rim() -> None:
    maze = laby3d.generate(12, 12, outline="heart", seed=4)
    fab = Fabrication(margin=4.0)
    solid = maze_solid(maze, fab, SolidOptions(label="Zoé"))
    assert solid.marks.placement is not None and solid.marks.placement.side == "bottom"
    plate = shapely.Polygon(solid.plan.points[solid.plan.plate])
    assert solid.marks.label is not None and plate.contains(solid.marks.label.glyphs)
