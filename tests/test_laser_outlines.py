"""Laser sheets of boards cut to an outline and of braided mazes (walls along several loops, walls
standing apart from the frame), checked against the maze file itself: the cells' polygons, the
passages and openings it lists, measured with shapely."""

from __future__ import annotations

import io

import numpy as np
import pytest
import shapely
from svgcheck import parse_svg

import laby3d
from laby3d.export.laser import laser_files
from laby3d.geometry.laser import LaserOptions, laser_sheets
from laby3d.geometry.params import Fabrication
from laby3d.maze.mazefile import maze_from_json, maze_to_json

FAB = Fabrication(cell_size=10, wall_thickness=2, margin=6)
#: What a user typed (``laby3d generate --outline heart --rows 12 --cols 12`` …), as generate's keywords.
BOARDS = {
    "heart": {"rows": 12, "cols": 12, "outline": "heart"},
    "hex text:A": {"rows": 14, "cols": 14, "shape": "hex", "outline": "text:A"},
    "braid 100": {"rows": 10, "cols": 10, "braid": 100},
    "theta ring": {"rows": 8, "cols": None, "shape": "theta", "outline": "ring"},
    "triangle star, braided": {"rows": 14, "cols": 16, "shape": "triangle", "outline": "star", "braid": 50},
}


def maze_file(name: str) -> str:
    return maze_to_json(laby3d.generate(seed=3, **BOARDS[name]))


def wall_length(text: str, cell: float) -> float:
    """The closed walls' length of the maze file ``text``, mm: every cell side (the board's
    outline, each of its loops, counted once; a side two cells share, once) less the sides of
    the passages and of the entrance and exit."""
    maze = maze_from_json(text)
    t = maze.tessellation
    cells = [shapely.Polygon(t.cell_polygon(c)) for c in range(t.cell_count)]
    boundary = shapely.union_all(cells).boundary.length
    shared = [cells[a].boundary.intersection(cells[b].boundary).length for a, b in t.edges]
    opened = sum(length for length, open_ in zip(shared, maze.open_walls, strict=True) if open_)
    gaps = sum(
        shapely.LineString(t.boundary_polyline(maze.boundary_wall_of(o))).length
        for o in (maze.entrance, maze.exit)
        if o is not None
    )
    return (sum(shared) + boundary - opened - gaps) * cell


def sheet_svg(files: dict[str, bytes]) -> bytes:
    (name,) = [n for n in files if n.endswith(".svg") and not n.startswith("overview")]
    return files[name]


@pytest.mark.parametrize("name", BOARDS)
def test_lines_cut_each_wall_once_at_the_maze_files_wall_length(name: str) -> None:
    text = maze_file(name)
    sheets = laser_sheets(maze_from_json(text), FAB, LaserOptions(mode="lines"))
    page = parse_svg(sheet_svg(laser_files(sheets, suffix="svg", metadata={})))
    strokes = [
        shapely.LineString(np.vstack([points, points[:1]]) if closed else points)
        for points, closed in page["layers"]["score"]
    ]
    drawn = sum(stroke.length for stroke in strokes)
    assert drawn == pytest.approx(wall_length(text, FAB.cell_size), abs=1e-3)
    assert shapely.union_all(strokes).length == pytest.approx(drawn, abs=1e-3), "a wall cut twice"


@pytest.mark.parametrize("name", BOARDS)
def test_a_kit_on_a_cut_board_follows_its_outline(name: str) -> None:
    """The wall sheets' corridors hold every cell of the maze and no board cell outside its
    outline (the plate is the walls' box grown by the margin: the maze file's cells placed by
    that rule), are one piece, and each wall piece the frame does not hold is engraved on the
    base and named in a warning."""
    maze = maze_from_json(maze_file(name))
    kit = laser_sheets(maze, FAB, LaserOptions(mode="stack", top=True)).kit
    layers = dict(kit.layers)
    t = maze.tessellation
    board = t.board
    cells = shapely.union_all([shapely.Polygon(t.cell_polygon(c) * [10, -10]) for c in range(t.cell_count)])
    reach = FAB.wall_thickness / 2 + FAB.margin  # the plate: the outline grown so far, mitred (a box uncut)
    x0, y0, _, _ = shapely.buffer(cells, reach, join_style="mitre", mitre_limit=10.0).bounds

    def on_plate(points: np.ndarray) -> np.ndarray:  # cell sizes, y down → plate mm, y up
        return np.column_stack([points[:, 0] * 10 - x0, -points[:, 1] * 10 - y0])

    plate = shapely.box(0, 0, *kit.plate)
    walls = next(shape for part, shape in kit.layers if part.startswith("walls"))
    ways = plate.difference(walls).difference(plate.difference(layers["base"]))  # less the key
    assert shapely.get_num_geometries(ways) == 1
    kept = set(np.asarray(t.inside if t.inside is not None else range(t.cell_count)).tolist())
    for index in range(board.cell_count):
        middle = shapely.Polygon(on_plate(board.cell_polygon(index))).point_on_surface()
        assert ways.contains(middle) == (index in kept), index
    pieces = shapely.get_num_geometries(walls)
    guides = [m for m in next(p for p in kit.parts if p.name == "base").marks if m.operation == "engrave-line"]
    assert len(guides) == pieces - 1
    assert any(f"{pieces - 1} wall pieces" in w for w in kit.warnings) == (pieces > 1)
    assert (pieces > 1) == (maze.braid > 0), "a perfect maze's walls all hang on the frame"
    assert kit.notch > 0 and plate.difference(layers["base"]).area > 1.0, "every layer keyed by its notch"


def test_dowel_holes_on_a_plate_cut_to_an_outline_are_refused_in_one_line() -> None:
    from laby3d.errors import ParameterError

    maze = maze_from_json(maze_file("heart"))
    with pytest.raises(ParameterError, match="a board cut to an outline is keyed by its notch alone") as error:
        laser_sheets(maze, FAB, LaserOptions(mode="stack", registration_holes=3))
    assert error.value.field == "registration_holes"


@pytest.mark.parametrize("name", ["heart", "hex text:A", "braid 100"])
@pytest.mark.parametrize("mode", ["lines", "outline", "stack"])
def test_cut_boards_dxf_audit_clean(name: str, mode: str) -> None:
    import ezdxf

    maze = maze_from_json(maze_file(name))
    sheets = laser_sheets(maze, FAB, LaserOptions(mode=mode, top=True))
    for file_name, data in laser_files(sheets, suffix="dxf", metadata={}).items():
        if file_name.endswith(".dxf"):
            document = ezdxf.read(io.StringIO(data.decode()))
            auditor = document.audit()
            assert not auditor.has_errors and not auditor.has_fixes, (file_name, auditor.errors)
