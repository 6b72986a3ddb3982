"""Laser sheets of theta, hex and triangle mazes, read back from the written files as a laser
program would, against the tests' own oracles: the wall graph rebuilt from the cell polygons
(a polygon edge is a wall unless a passage crosses it or it is an opening), its own stroke
bound (a breadth-first search per wall piece, half its odd-degree vertices), brute-force greedy
travel (svgcheck), ezdxf's audit and rsvg-convert."""

from __future__ import annotations

import subprocess
from collections import Counter, deque
from pathlib import Path

import numpy as np
import pytest
from conftest import require_tool
from svgcheck import LIGHTBURN_OUTPUT, LIGHTBURN_TOOLS, greedy_travel, parse_svg

import laby3d
from laby3d.errors import ParameterError
from laby3d.export.laser import PALETTES, dxf_bytes, svg_bytes
from laby3d.geometry.laser import OPERATIONS, LaserOptions, laser_drawing, laser_sheets
from laby3d.geometry.params import Fabrication
from laby3d.tessellation import extent_of, tessellate

SHAPES = ("theta", "hex", "triangle")
CUTS = ("inner-cut", "outer-cut")


def shaped(shape: str, rows: int, cols: int = 0, seed: int = 1, **more):
    """A maze of ``shape`` (theta sized by its rings alone)."""
    return laby3d.generate(rows, None if shape == "theta" else cols, shape=shape, seed=seed, **more)


def oracle_walls(maze) -> set[tuple[int, int]]:
    """The closed walls as vertex-id pairs, from the cell polygons: an edge two polygons share is
    a wall unless the maze has a passage between those cells; an edge of one polygon only is on
    the outline, a wall unless it belongs to the entrance's or the exit's opening."""
    t = maze.tessellation
    owners: dict[tuple[int, int], list[int]] = {}
    for cell in range(t.cell_count):
        ids = t.polygon_vertices[t.polygon_starts[cell] : t.polygon_starts[cell + 1]].tolist()
        for a, b in zip(ids, ids[1:] + ids[:1], strict=True):
            owners.setdefault((min(a, b), max(a, b)), []).append(cell)
    passages = {(int(a), int(b)) for a, b in maze.passages}
    openings = set()
    for opening in (maze.entrance, maze.exit):
        wall = maze.boundary_wall_of(opening) if opening is not None else None
        if wall is not None:
            ids = t.boundary_vertices[t.boundary_starts[wall] : t.boundary_starts[wall + 1]].tolist()
            openings |= {(min(a, b), max(a, b)) for a, b in zip(ids, ids[1:], strict=False)}
    walls = set()
    for edge, cells in owners.items():
        if len(cells) == 2 and tuple(sorted(cells)) not in passages:
            walls.add(edge)
        elif len(cells) == 1 and edge not in openings:
            walls.add(edge)
        assert len(cells) <= 2, "a polygon edge belongs to at most two cells"
    assert openings <= {edge for edge, cells in owners.items() if len(cells) == 1}, "openings lie on the outline"
    return walls


def stroke_bound(walls: set[tuple[int, int]]) -> int:
    """Fewest strokes drawing ``walls``: per connected piece (breadth-first), half its odd
    vertices, at least one."""
    neighbours: dict[int, list[int]] = {}
    for a, b in walls:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    seen: set[int] = set()
    bound = 0
    for start in neighbours:
        if start in seen:
            continue
        seen.add(start)
        queue, odd = deque([start]), 0
        while queue:
            vertex = queue.popleft()
            odd += len(neighbours[vertex]) % 2
            for other in neighbours[vertex]:
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
        bound += max(1, odd // 2)
    return bound


def drawn_walls(maze, strokes: list[tuple[np.ndarray, bool]], fab: Fabrication) -> Counter:
    """Every segment of the page's strokes as vertex-id pairs (a stroke point must be a vertex)."""
    pad = fab.margin + fab.wall_thickness / 2
    vertices = maze.tessellation.vertices * fab.cell_size + pad  # page: y down, as the tessellation
    drawn: Counter = Counter()
    for points, closed in strokes:
        distance = np.hypot(*(points[:, None, :] - vertices[None, :, :]).transpose(2, 0, 1))
        ids = distance.argmin(axis=1).tolist()
        assert distance.min(axis=1).max() < 1e-3, "a stroke point off the vertices"
        if closed:
            ids.append(ids[0])
        for a, b in zip(ids[:-1], ids[1:], strict=True):
            drawn[(min(a, b), max(a, b))] += 1
    return drawn


def file_travel(strokes: list[tuple[np.ndarray, bool]], head: np.ndarray) -> float:
    travel = 0.0
    for points, closed in strokes:
        travel += float(np.hypot(*(points[0] - head)))
        head = points[0] if closed else points[-1]
    return travel


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(("rows", "cols", "seed"), [(2, 2, 1), (3, 5, 2), (7, 6, 3), (12, 11, 4)])
@pytest.mark.parametrize("algorithm", ["kruskal", "backtracker", "wilson"])
def test_lines_draw_every_wall_once_in_exactly_the_least_strokes(shape, rows, cols, seed, algorithm) -> None:
    maze = shaped(shape, rows, cols, seed, algorithm=algorithm)
    fab = Fabrication(margin=3.0)
    page = parse_svg(svg_bytes(laser_drawing(maze, fab, LaserOptions(mode="lines")), metadata={}))
    assert set(page["layers"]) == {"score"}, "a line drawing is scored unless asked otherwise"
    width, height = extent_of(maze.shape, maze.rows, maze.cols)
    extra = fab.wall_thickness + 2 * fab.margin
    assert (page["width"], page["height"]) == pytest.approx((width * 10 + extra, height * 10 + extra), abs=1e-3)
    strokes = page["layers"]["score"]
    walls = oracle_walls(maze)
    drawn = drawn_walls(maze, strokes, fab)
    assert set(drawn) == walls and set(drawn.values()) == {1}, "every wall once, nothing else"
    assert len(strokes) == stroke_bound(walls)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("size", [(6, 7), (20, 20), pytest.param((40, 60), marks=pytest.mark.slow)])
def test_travel_is_at_most_the_greedy_nearest_neighbour_travel(shape: str, size: tuple[int, int]) -> None:
    maze = shaped(shape, *size, seed=5)
    page = parse_svg(svg_bytes(laser_drawing(maze, Fabrication(), LaserOptions(mode="lines")), metadata={}))
    strokes = page["layers"]["score"]
    assert file_travel(strokes, np.zeros(2)) <= greedy_travel(strokes) + 1e-6


def test_theta_arcs_lie_on_their_circles_within_the_chord_error() -> None:
    """Every stroke point of a theta maze sits on a ring's circle or a radial wall; arcs are
    chords of at most 0.005 cell sizes' sagitta (0.05 mm at 10 mm cells)."""
    maze = shaped("theta", 9, seed=2)
    fab = Fabrication(cell_size=10.0, wall_thickness=1.6)
    page = parse_svg(svg_bytes(laser_drawing(maze, fab, LaserOptions(mode="lines")), metadata={}))
    centre = np.array([9 * 10 + 0.8, 9 * 10 + 0.8])
    for points, closed in page["layers"]["score"]:
        ring = np.vstack([points, points[:1]]) if closed else points
        radii = np.hypot(*(ring - centre).T) / 10
        for a, b, ra, rb in zip(ring[:-1], ring[1:], radii[:-1], radii[1:], strict=True):
            if abs(ra - rb) < 1e-3:  # an arc's chord: both ends on the circle of a whole radius
                assert abs(ra - round(ra)) < 1e-3
                chord = float(np.hypot(*(b - a)))
                sagitta = ra * 10 - np.sqrt((ra * 10) ** 2 - (chord / 2) ** 2)
                assert sagitta <= 0.05 + 1e-6
            else:  # a radial wall: on the line through the centre
                cross = (a - centre)[0] * (b - centre)[1] - (a - centre)[1] * (b - centre)[0]
                assert abs(cross) / float(np.hypot(*(b - a))) < 1e-3


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(
    ("operation", "layer"), [("cut", "outer-cut"), ("score", "score"), ("engrave-line", "engrave-line")]
)
def test_lines_go_to_the_operation_asked_for(shape: str, operation: str, layer: str) -> None:
    maze = shaped(shape, 4, 6, seed=8)
    drawing = laser_drawing(maze, Fabrication(), LaserOptions(mode="lines", line_operation=operation))
    page = parse_svg(svg_bytes(drawing, metadata={}))
    assert set(page["layers"]) == {layer}
    assert len(page["layers"][layer]) == stroke_bound(oracle_walls(maze))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("palette", list(PALETTES))
def test_no_stroke_outside_a_cut_layer_has_a_cut_colour(shape: str, palette: str) -> None:
    maze = shaped(shape, 5, 6, seed=5)
    options = LaserOptions(mode="lines", label="A", reference_square=True, engrave_solution=True)
    page = parse_svg(svg_bytes(laser_drawing(maze, Fabrication(margin=6), options), palette=palette, metadata={}))
    cut_colours = {PALETTES[palette][op] for op in CUTS}
    assert {"score", "engrave-line", "engrave-fill"} <= set(page["layers"])
    for layer, colour in page["colours"].items():
        if layer not in CUTS:
            assert colour not in cut_colours, layer
    assert page["hidden"] == ["notes"]
    if palette == "default":
        assert page["colours"]["notes"].lower() in LIGHTBURN_TOOLS
        assert all(page["colours"][op].lower() in LIGHTBURN_OUTPUT for op in page["layers"] if op != "notes")
    assert page["order"][1:] == [op for op in OPERATIONS if op in page["layers"]]


@pytest.mark.parametrize("shape", SHAPES)
def test_the_solution_runs_from_opening_to_opening_through_the_corridors(shape: str) -> None:
    """The engraved key: one open line from the entrance to the exit that crosses no wall."""
    import shapely

    maze = shaped(shape, 6, 7, seed=9)
    fab = Fabrication()
    page = parse_svg(
        svg_bytes(laser_drawing(maze, fab, LaserOptions(mode="lines", engrave_solution=True)), metadata={})
    )
    ((line, closed),) = page["layers"]["engrave-line"]
    assert not closed
    walls = shapely.MultiLineString([points for points, _ in page["layers"]["score"]])
    crossings = shapely.LineString(line).intersection(walls)
    assert crossings.is_empty, "the key crosses a wall"


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("palette", list(PALETTES))
def test_dxf_is_clean_and_draws_the_same_strokes(tmp_path: Path, shape: str, palette: str) -> None:
    import ezdxf

    maze = shaped(shape, 5, 6, seed=4)
    drawing = laser_drawing(maze, Fabrication(), LaserOptions(mode="lines", line_operation="cut"))
    path = tmp_path / "m.dxf"
    path.write_bytes(dxf_bytes(drawing, palette=palette))
    document = ezdxf.readfile(path)
    auditor = document.audit()
    assert not auditor.has_errors and not auditor.has_fixes
    assert document.header["$INSUNITS"] == 4
    entities = list(document.modelspace())
    assert {e.dxf.layer for e in entities} == {"CUT-OUTER"}
    assert "#{:02x}{:02x}{:02x}".format(*document.layers.get("CUT-OUTER").rgb) == PALETTES[palette]["outer-cut"]
    assert len(entities) == stroke_bound(oracle_walls(maze))
    fab = Fabrication()
    strokes = [(np.array([(x, drawing.height - y) for x, y, *_ in e.get_points()]), e.closed) for e in entities]
    assert set(drawn_walls(maze, strokes, fab)) == oracle_walls(maze)


@pytest.mark.parametrize("shape", SHAPES)
def test_rsvg_renders_the_lines(tmp_path: Path, shape: str) -> None:
    rsvg = require_tool("rsvg-convert")
    from PIL import Image

    svg = tmp_path / "m.svg"
    drawing = laser_drawing(shaped(shape, 8, 10, seed=2), Fabrication(), LaserOptions(mode="lines"))
    svg.write_bytes(svg_bytes(drawing, metadata={}))
    png = tmp_path / "m.png"
    done = subprocess.run([rsvg, "--dpi-x", "300", "--dpi-y", "300", "-b", "white", "-o", str(png), str(svg)])
    assert done.returncode == 0
    assert np.asarray(Image.open(png).convert("L")).min() < 200, "blank rendering"


def test_extent_of_matches_the_built_tessellations() -> None:
    for shape in SHAPES:
        for rows in (1, 2, 3, 8):
            for cols in (None,) if shape == "theta" else (2, 3, 9):
                if shape == "theta" and rows < 2:
                    continue
                built = tessellate(shape, rows, cols).vertices
                assert extent_of(shape, rows, cols) == pytest.approx(tuple(built.max(axis=0)), abs=1e-12)
                assert built.min() == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_drawing_is_the_same_as_python_and_compiled(shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    maze = shaped(shape, 14, 17, seed=6)
    files = []
    for jit in ("never", "always"):
        monkeypatch.setenv("LABY3D_JIT", jit)
        files.append(svg_bytes(laser_drawing(maze, Fabrication(), LaserOptions(mode="lines")), metadata={}))
    assert files[0] == files[1]


@pytest.mark.parametrize("shape", SHAPES)
def test_lines_honour_the_sheet_and_the_label(shape: str) -> None:
    maze = shaped(shape, 6, 7, seed=3)
    sheets = laser_sheets(maze, Fabrication(), LaserOptions(mode="lines", sheet=(300.0, 300.0), label="Zoé"))
    (page,) = sheets.pages
    assert (page.width, page.height) == (300, 300)
    points = np.concatenate(page.strokes["score"] + page.strokes["engrave-fill"])
    assert points.min() >= 0 and points[:, 0].max() <= 300 and points[:, 1].max() <= 300
    with pytest.raises(ParameterError, match="too small for the drawing") as error:
        laser_sheets(maze, Fabrication(), LaserOptions(mode="lines", sheet=(40.0, 40.0)))
    assert error.value.field == "sheet"


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("mode", ["outline", "stack"])
def test_modes_that_cut_shaped_parts_are_refused_up_front(tmp_path: Path, capsys, shape: str, mode: str) -> None:
    from laby3d.cli import main

    size = ["--rows", "5"] if shape == "theta" else ["--rows", "5", "--cols", "6"]
    out = tmp_path / "m.svg"
    assert main(["generate", "--shape", shape, *size, "--laser-mode", mode, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{mode} does not cut {shape} mazes yet" in err and "lines" in err, err
    assert not out.exists()


@pytest.mark.parametrize("shape", SHAPES)
def test_cli_writes_svg_dxf_and_preview_of_a_shaped_maze(tmp_path: Path, capsys, shape: str) -> None:
    from laby3d.cli import main

    size = ["--rows", "4"] if shape == "theta" else ["--rows", "4", "--cols", "5"]
    outputs = [str(tmp_path / f"m.{suffix}") for suffix in ("svg", "dxf", "laser.png")]
    assert main(["generate", "--shape", shape, *size, "--seed", "3", *(f"-o{o}" for o in outputs)]) == 0
    page = parse_svg((tmp_path / "m.svg").read_bytes())
    maze = shaped(shape, 4, 5, seed=3)
    assert len(page["layers"]["score"]) == stroke_bound(oracle_walls(maze))
    assert (tmp_path / "m.laser.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_shaped_maze_is_sized_by_its_cells(capsys) -> None:
    """The memory budget counts a theta maze's cells (its rows are rings), refused in one line."""
    from laby3d.cli import main

    assert (
        main(
            [
                "generate",
                "--shape",
                "theta",
                "--rows",
                "950",
                "--cell-size",
                "1",
                "--wall-thickness",
                "0.4",
                "-o",
                "never.svg",
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "(1,915,999 cells)" in err and "laser outputs" in err, err
