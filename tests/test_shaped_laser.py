"""Laser sheets of theta, hex and triangle mazes, read back from the written files as a laser
program would, against the tests' own oracles: the wall graph rebuilt from the cell polygons
(a polygon edge is a wall unless a passage crosses it or it is an opening), its own stroke
bound (a breadth-first search per wall piece, half its odd-degree vertices), brute-force greedy
travel (svgcheck), ezdxf's audit and rsvg-convert."""

from __future__ import annotations

import math
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
    """Every segment of the page's strokes as vertex-id pairs (a stroke point must be a vertex;
    a segment running straight through vertices draws the edges between them)."""
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
            along = vertices[b] - vertices[a]
            length = float(np.hypot(*along))
            offset = vertices - vertices[a]
            at = offset @ along / length  # how far along the segment, and how far off it, mm
            off = np.abs(offset[:, 0] * along[1] - offset[:, 1] * along[0]) / length
            on = np.flatnonzero((off < 1e-6) & (at > -1e-6) & (at < length + 1e-6))
            passed = on[np.argsort(at[on])].tolist()
            assert passed[0] == a and passed[-1] == b
            for c, d in zip(passed[:-1], passed[1:], strict=True):
                drawn[(min(c, d), max(c, d))] += 1
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


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
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
@pytest.mark.parametrize("kerf", [0.0, 0.2])
def test_outline_is_the_walls_with_their_thickness_grown_by_half_the_kerf(shape: str, kerf: float) -> None:
    """Read back from the SVG: every closed wall's centre line under at least half a wall (and
    half the kerf) of drawn material, every cell centre, open wall and opening clear of it, and
    the drawing the footprint grown by kerf / 2 (the kerf offset)."""
    import shapely
    import shapely.ops

    from laby3d.geometry.plan import maze_plan

    maze = shaped(shape, 5, 6, seed=13)
    fab = Fabrication(cell_size=10, wall_thickness=2.0)
    page = parse_svg(svg_bytes(laser_drawing(maze, fab, LaserOptions(mode="outline", kerf=kerf)), metadata={}))
    flip = np.array([1.0, -1.0])
    shells = [shapely.Polygon(p * flip) for p, _ in page["layers"]["outer-cut"]]
    holes = [shapely.Polygon(p * flip) for p, _ in page["layers"].get("inner-cut", [])]
    drawn = shapely.union_all(shells).difference(shapely.union_all(holes)) if holes else shapely.union_all(shells)
    plan = maze_plan(maze, fab)
    footprint = plan.walls.geometry()
    x0, _, _, y1 = footprint.buffer(kerf / 2, join_style="mitre", mitre_limit=10).bounds
    t = maze.tessellation

    def on_page(pitch: np.ndarray) -> np.ndarray:  # tessellation → the drawing read back (y up)
        return plan.to_plan(pitch) - (x0, y1)

    points = on_page(t.vertices)
    ends = set()  # a wall ending at an opening is cut there along its join: checked up to a wall's width off
    for o in (maze.entrance, maze.exit):
        if o.side:
            line = t.boundary_vertices[
                t.boundary_starts[maze.boundary_wall_of(o)] : t.boundary_starts[maze.boundary_wall_of(o) + 1]
            ]
            ends |= {int(line[0]), int(line[-1])}
    for a, b in oracle_walls(maze):
        line = shapely.LineString(points[[a, b]])
        start, stop = (2.0 if a in ends else 0.0), line.length - (2.0 if b in ends else 0.0)
        body = shapely.ops.substring(line, start, stop).buffer(1.0 + kerf / 2, cap_style="flat")
        assert drawn.buffer(1e-3).contains(body), "a closed wall thinner than drawn"  # the SVG's 0.1 µm digits
    clear = [*on_page(t.centres), *on_page(t.wall_midpoints[maze.open_walls])]
    clear += [on_page(t.boundary_midpoints[maze.boundary_wall_of(o)])[0] for o in (maze.entrance, maze.exit) if o.side]
    assert not any(drawn.intersects(shapely.Point(p)) for p in clear), "a corridor or an opening closed"
    grown = shapely.affinity.translate(footprint.buffer(kerf / 2, join_style="mitre", mitre_limit=10), -x0, -y1)
    assert drawn.symmetric_difference(grown).area < 1e-4 * grown.length  # 0.1 µm along every edge: the SVG's digits


@pytest.mark.parametrize("shape", SHAPES)
def test_a_ball_that_cannot_pass_is_refused_up_front_with_one_that_does(tmp_path: Path, capsys, shape: str) -> None:
    from laby3d.cli import main
    from laby3d.geometry.laser.options import passage_width

    size = ["--rows", "5"] if shape == "theta" else ["--rows", "5", "--cols", "6"]
    width = passage_width(Fabrication(wall_thickness=1.6), shape)
    too_big = ["--laser-mode", "stack", "--wall-thickness", "1.6", "--ball", f"{width - 0.9:.2f}"]
    out = tmp_path / "m.svg"
    assert main(["generate", "--shape", shape, *size, *too_big, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--ball" in err and f"at most {width - 1:.2f} mm" in err, err
    assert not list(tmp_path.iterdir())
    from laby3d.i18n.messages import in_language
    from laby3d.options.build import validated_job

    cell = float(err.split("a cell_size of at least ")[1].split(" mm")[0])
    assert "cell_size d’au moins" in in_language(err.split("--ball ")[1].strip(), "fr")
    maze = {"shape": shape, "rows": 5, "cols": 6}
    fits = {"print": {"wall_thickness": 1.6, "ball": round(width - 1.05, 2)}, "laser": {"mode": "stack"}}
    validated_job({"maze": maze, **fits, "formats": ["svg"]})  # the ball it names passes
    larger = {"print": {"wall_thickness": 1.6, "ball": round(width - 0.9, 2), "cell_size": cell}}
    validated_job({"maze": maze, **larger, "laser": {"mode": "stack"}, "formats": ["svg"]})  # so does the cell
    with pytest.raises(ParameterError, match="narrowest passage"):  # and it is the least, to 0.5 mm
        larger["print"]["cell_size"] = cell - 0.5
        validated_job({"maze": maze, **larger, "laser": {"mode": "stack"}, "formats": ["svg"]})


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
    assert err.count("\n") == 1 and "(1,915,999 cells)" in err and "the svg would take" in err, err


def _kit_from_files(files: dict[str, bytes], candidates: list[str]):
    """The parts read back from a single kit's sheet files, stacked: base (no corridors), wall
    sheets, acrylic top."""
    from kitcheck import Assembly, read_pieces

    pieces = read_pieces(files, candidates)
    tops = [p for p in pieces if p.material.startswith("acrylic")]
    rest = [p for p in pieces if not p.material.startswith("acrylic")]
    bases = [p for p in rest if sum(h.area for h in p.holes) < 0.05 * p.outline.area]
    assert len(bases) == 1 and len(tops) == 1
    return Assembly(name="", base=bases[0], walls=[p for p in rest if p is not bases[0]], top=tops[0])


def _check_stack(kit, *, dowels: float | None, ball: float, kerf: float, wall_minimum: float) -> None:
    """What every assembled kit shows, whatever its shape: layers alike and keyed one way, dowel
    holes lined up, text legible and clear of holes, walls as wide as the material needs, and
    the ball's path open (by shapely and by a raster flood fill)."""
    from kitcheck import ball_path_open, ball_rolls_through, disc_keyed, keyed, round_outline, thinnest_material

    stack = [kit.base, *kit.walls, kit.top]
    for piece in stack:
        shift = piece.outline.symmetric_difference(kit.base.outline).area
        assert shift < 1e-4 * kit.base.outline.length, "the layers stack"  # within the SVG's 0.1 µm digits
        assert disc_keyed(piece) if round_outline(piece) else keyed(piece), "one way round only"
        assert all(r.cap_height >= 2.5 - 0.05 for r in piece.readings), [r.cap_height for r in piece.readings]
        assert piece.ink.difference(piece.material_left.buffer(-0.3)).area < 1e-6, "text clear of holes and edges"
        if dowels is not None:  # the small holes, centre for centre, within 0.02 mm of the base's
            small = np.array([h.centroid.coords[0] for h in piece.holes if h.area < math.pi * dowels**2 / 4 * 1.1])
            base = np.array([h.centroid.coords[0] for h in kit.base.holes if h.area < math.pi * dowels**2 / 4 * 1.1])
            assert len(small) == len(base) == (3 if round_outline(piece) else 4), "dowel holes"
            assert np.hypot(*(small[:, None, :] - base[None, :, :]).transpose(2, 0, 1)).min(axis=1).max() < 0.02
    for wall in kit.walls:
        assert thinnest_material(wall, wall_minimum) < wall_minimum**2, "a neck thinner than the material allows"
    assert ball_path_open(kit, ball=ball, kerf=kerf)
    assert ball_rolls_through(kit, ball=ball, kerf=kerf)


def grid_sheets(pieces, sheet: tuple[float, float], spacing: float) -> dict[str, int]:
    """Per material, the sheets a plain grid of the pieces' largest box takes, the better of its
    two orientations, ``spacing`` mm between boxes and at least 2 mm (or ``spacing``) from the
    sheet's edge: what the nesting must never exceed."""
    sheets = {}
    for material in {p.material for p in pieces}:
        own = [p for p in pieces if p.material == material]
        w = max(p.outline.bounds[2] - p.outline.bounds[0] for p in own) + spacing
        h = max(p.outline.bounds[3] - p.outline.bounds[1] for p in own) + spacing
        room_w, room_h = (side - 2 * max(spacing, 2.0) + spacing for side in sheet)
        per_sheet = max((room_w // w) * (room_h // h), (room_w // h) * (room_h // w))
        sheets[material] = math.ceil(len(own) / per_sheet)
    return sheets


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dowels", [None, 3.0])
def test_the_kit_assembles_from_its_files(shape: str, dowels: float | None) -> None:
    from laby3d.export.laser import laser_files

    maze = shaped(shape, 6, 7, seed=21)
    fab = Fabrication(cell_size=15, wall_thickness=2, margin=6)
    options = LaserOptions(mode="stack", top=True, ball=4, kerf=0.15, registration_holes=dowels, label="Zoé")
    sheets = laser_sheets(maze, fab, options)
    assert sheets.kit.wall_layers == 2 and sheets.kit.inside_height == 6.0
    caption = f"Zoé  ·  seed {maze.seed}"
    kit = _kit_from_files(laser_files(sheets, suffix="svg", metadata={}), [caption, "1", "2", "3", "4"])
    assert len(kit.walls) == 2
    read = {id(p): sorted(r.text for r in p.readings) for p in [kit.base, *kit.walls, kit.top]}
    assert read[id(kit.base)] == ["1"] and read[id(kit.top)] == sorted([caption, "4"]), read
    assert sorted(t for w in kit.walls for t in read[id(w)]) == ["2", "3"]
    _check_stack(kit, dowels=dowels, ball=4.0, kerf=0.15, wall_minimum=1.5)


def largest_ball(corridors, start: np.ndarray, end: np.ndarray, *, most: float) -> float:
    """The largest ball (mm, to 0.01) whose centre can go from ``start`` to ``end`` inside the
    ``corridors`` region: the region shrunk by its radius still joins them (bisection)."""
    import shapely

    low, high = 0.0, most
    while high - low > 0.01:
        middle = (low + high) / 2
        free = corridors.buffer(-middle / 2)
        joined = any(
            g.contains(shapely.Point(start)) and g.contains(shapely.Point(end)) for g in shapely.get_parts(free)
        )
        low, high = (middle, high) if joined else (low, middle)
    return low


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("wall", [1.6, 3.0])
def test_the_passage_width_is_the_narrowest_passage(shape: str, wall: float) -> None:
    """No maze of the shape has a passage narrower than passage_width (measured: the largest
    ball from entrance to exit through each maze's corridors, as the kit cuts them), and the
    narrowest passage found comes within 0.2 mm of it (it is no needless refusal)."""
    from laby3d.geometry.laser.kit import corridors, frame_of
    from laby3d.geometry.laser.options import passage_width

    fab = Fabrication(cell_size=10, wall_thickness=wall, margin=6)
    bound = passage_width(fab, shape)
    found = []
    for seed in range(8):
        placement = "hardest" if seed % 2 else "corners"
        maze = shaped(shape, 7, 8, seed=seed, placement=placement)
        frame = frame_of(maze, fab, LaserOptions(mode="stack", ball=0.5, ball_play=0.0))
        ends = frame.to_plate(maze.tessellation.centres[[maze.cell_of(maze.entrance), maze.cell_of(maze.exit)]])
        found.append(largest_ball(corridors(maze, fab, frame), *ends, most=10 - wall))
    assert min(found) >= bound - 0.01, (found, bound)
    assert min(found) <= bound + 0.2, (found, bound)


@pytest.mark.slow  # the fast suite runs a theta class set through laby3d batch
@pytest.mark.parametrize("shape", SHAPES)
def test_a_class_set_nests_and_assembles_with_one_name_per_part(shape: str) -> None:
    """Six pupils' kits of one shape nested on shared sheets, read back from the files: every
    part carries its pupil's name once (and its layer number), every kit stacks, keys and lets
    the ball through; the sheets used are reported against the area bound, and no more than a
    grid of either orientation takes."""
    import json

    from kitcheck import assemble, read_pieces

    from laby3d.export.laser import laser_files
    from laby3d.geometry.laser import class_sheets

    fab = Fabrication(cell_size=12, wall_thickness=2, margin=6)
    options = LaserOptions(mode="stack", top=True, ball=3, kerf=0.15)
    names = ["Ana", "Ben", "Chloé", "Dmitri", "Emma", "Farid"]
    pupils = [(name, shaped(shape, 5, 6, seed=k)) for k, name in enumerate(names)]
    sheets = class_sheets(pupils, fab, options)
    files = laser_files(sheets, suffix="svg", metadata={})
    pieces = read_pieces(files, [*names, "1", "2", "3", "4"])
    kits = assemble(pieces, names)  # one name per part
    for name, kit in kits.items():
        assert len(kit.walls) == 2, name
        for layer, piece in enumerate([kit.base, *kit.walls, kit.top], start=1):
            read = sorted(r.text for r in piece.readings)
            assert read == sorted([name, str(layer)]) or piece in kit.walls, (name, read)
        _check_stack(kit, dowels=None, ball=3.0, kerf=0.15, wall_minimum=1.5)
    report = json.loads(files["laser.json"])
    for nesting in report["nesting"]:
        written = [n for n in files if n.startswith(nesting["material"]) and n.endswith(".svg")]
        assert nesting["sheets"] == len(written) >= nesting["area_bound_sheets"] >= 1
        assert nesting["sheets"] <= grid_sheets(pieces, options.sheet_size, options.spacing)[nesting["material"]]


@pytest.mark.parametrize("sheet", [(150.0, 450.0), (600.0, 400.0)])
def test_the_reference_square_lies_on_material(sheet: tuple[float, float]) -> None:
    """On a disc's base (no corners) or a sheet of its own: always on material, scored once."""
    import shapely

    maze = shaped("theta", 6, seed=2)
    fab = Fabrication(cell_size=10, wall_thickness=2, margin=4)
    options = LaserOptions(mode="stack", top=True, ball=3, sheet=sheet, reference_square=True)
    scored = []
    for page in laser_sheets(maze, fab, options).pages:
        outlines = [shapely.Polygon(p) for p in page.strokes["outer-cut"]]
        for points in page.strokes["score"]:
            square = shapely.Polygon(points)
            assert square.area == pytest.approx(100 * 100, rel=1e-6)
            assert not any(o.intersects(square.exterior) for o in outlines), "scored across a part's edge"
            scored.append(square)
    assert len(scored) == 1


@pytest.mark.parametrize(
    ("job", "message"),
    [
        ({"laser": {"mode": "stack", "sheet": "60x60"}}, "laser.sheet: 60×60 mm is too small for the base part"),
        ({"laser": {"mode": "lines", "sheet": "40x40"}}, "laser.sheet: 40×40 mm is too small for the drawing"),
        ({"names": ["Ana", "Ben"], "laser": {"mode": "stack"}}, 'names[0]: "Ana": a name tag needs a frame band'),
        ({"laser": {"mode": "stack", "registration_holes": 4}}, "laser.registration_holes: must be > 0 and fit"),
        ({"print": {"wall_thickness": 1.2}, "laser": {"mode": "outline"}}, "print.wall_thickness: 1.2 mm walls"),
        ({"print": {"ball": 9}, "laser": {"mode": "stack"}}, "print.ball: 9 mm + play 1 mm must"),
    ],
)
@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@pytest.mark.parametrize("shape", SHAPES)
def test_validate_refuses_what_the_sheets_refuse(tmp_path: Path, capsys, shape: str, job: dict, message: str) -> None:
    import yaml

    from laby3d.cli import main

    config = tmp_path / "c.yaml"
    size = {"rows": 6} if shape == "theta" else {"rows": 6, "cols": 7}
    job = {"name": "j", "maze": {"shape": shape, **size}, "formats": ["svg"], **job}
    config.write_text(yaml.safe_dump({"jobs": [job]}, allow_unicode=True), encoding="utf-8")
    assert main(["validate", str(config)]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1, error
    assert main(["batch", str(config), "--output-dir", str(tmp_path / "out"), "-j", "1"]) != 0, "the run refuses too"


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("mode", ["outline", "stack"])
def test_cut_sheets_pass_ezdxf_audit_and_rsvg_with_sheet_outlines_never_cut(
    tmp_path: Path, shape: str, mode: str
) -> None:
    """Every sheet file of an outline or a kit: SVG sheet outlines on the hidden LightBurn tool
    layer T1 (never output), every other layer an output colour; DXF audited clean by ezdxf with
    no sheet outline at all (its readers cut every layer); rsvg-convert renders each SVG."""
    import ezdxf
    from PIL import Image

    from laby3d.export.laser import laser_files

    rsvg = require_tool("rsvg-convert")
    maze = shaped(shape, 5, 6, seed=8)
    options = LaserOptions(mode=mode, top=True, ball=3, registration_holes=3.0, label="Zoé", sheet=(300.0, 200.0))
    sheets = laser_sheets(maze, Fabrication(cell_size=12, wall_thickness=2, margin=6), options)
    svgs = laser_files(sheets, suffix="svg", metadata={})
    dxfs = laser_files(sheets, suffix="dxf", metadata={})
    names = [n for n in svgs if n.endswith(".svg")]
    assert len(names) == len(sheets.pages) + 1 >= (3 if mode == "stack" else 2)  # the sheets and the overview
    for name in names:
        page = parse_svg(svgs[name])
        assert page["hidden"] == ["notes"] and page["colours"]["notes"].lower() in LIGHTBURN_TOOLS, name
        assert all(page["colours"][op].lower() in LIGHTBURN_OUTPUT for op in page["layers"] if op != "notes")
        path = tmp_path / name
        path.write_bytes(svgs[name])
        png = tmp_path / f"{name}.png"
        done = subprocess.run([rsvg, "-b", "white", "-o", str(png), str(path)], capture_output=True)
        assert done.returncode == 0 and not done.stderr, done.stderr
        assert np.asarray(Image.open(png).convert("L")).min() < 200, "blank rendering"
        dxf = name.removesuffix(".svg") + ".dxf"
        (tmp_path / dxf).write_bytes(dxfs[dxf])
        document = ezdxf.readfile(tmp_path / dxf)
        auditor = document.audit()
        assert not auditor.has_errors and not auditor.has_fixes, (dxf, auditor.errors)
        entities = list(document.modelspace())
        assert {e.dxf.layer for e in entities} <= {"CUT-INNER", "CUT-OUTER", "SCORE", "ENGRAVE-LINE", "ENGRAVE-FILL"}
        width, height = document.header["$LIMMAX"][:2]
        for entity in entities:  # no outline of the sheet itself
            points = np.array([p[:2] for p in entity.get_points()])
            assert not np.allclose([*points.min(axis=0), *points.max(axis=0)], [0, 0, width, height]), dxf


@pytest.mark.parametrize("shape", ["theta", pytest.param("hex", marks=pytest.mark.slow)])
def test_a_class_yaml_of_shaped_kits_runs_in_batch(tmp_path: Path, capsys, shape: str) -> None:
    """`laby3d batch` with a class YAML (`shape:` and names) writes each pupil's kit and the class
    sheets in SVG and DXF; read back from the class sheets, every part carries one pupil's name
    once and its layer number, and every kit stacks, keys and lets the ball through."""
    import json

    import yaml
    from kitcheck import assemble, folder_files, read_pieces

    from laby3d.cli import main

    names = ["Ana", "Zoé"]
    size = {"rows": 4} if shape == "theta" else {"rows": 4, "cols": 5}
    job = {
        "name": "kits",
        "seed": 5,
        "names": names,
        "maze": {"shape": shape, **size},
        "print": {"cell_size": 16, "wall_thickness": 2, "margin": 6, "ball": 3},
        "laser": {"mode": "stack", "top": True, "top_material": "acrylic", "sheet": "400x300", "kerf": 0.15},
        "formats": ["svg", "dxf"],
    }
    config = tmp_path / "class.yaml"
    config.write_text(yaml.safe_dump({"jobs": [job]}, allow_unicode=True), encoding="utf-8")
    assert main(["batch", str(config), "--output-dir", str(tmp_path / "out"), "-j", "1"]) == 0
    capsys.readouterr()
    folder = tmp_path / "out" / "kits"
    for pupil in ("Ana", "Zoe"):
        assert (folder / f"kits-{pupil}.svg").exists() and (folder / f"kits-{pupil}.dxf").exists()
    files = folder_files(folder / "class-sheets")
    assert any(n.endswith(".dxf") for n in (p.name for p in (folder / "class-sheets").iterdir()))
    pieces = read_pieces(files, [*names, "1", "2", "3", "4"])
    kits = assemble(pieces, names)  # one name per part
    assert sorted(kits) == sorted(names)
    for name, kit in kits.items():
        read = [sorted(r.text for r in piece.readings) for piece in [kit.base, *kit.walls, kit.top]]
        numbers = sorted(int(t) for texts in read for t in texts if t != name)
        assert all(name in texts and len(texts) == 2 for texts in read), read
        assert numbers == list(range(1, len(read) + 1)) and str(len(read)) in read[-1] and "1" in read[0], read
        _check_stack(kit, dowels=None, ball=3.0, kerf=0.15, wall_minimum=1.5)
    report = json.loads((folder / "class-sheets" / "laser.json").read_text())
    assert all(entry["sheets"] >= entry["area_bound_sheets"] >= 1 for entry in report["nesting"])
    grid = grid_sheets(pieces, (400.0, 300.0), 3.0)
    assert all(entry["sheets"] <= grid[entry["material"]] for entry in report["nesting"]), (report, grid)


def test_a_shaped_kit_is_budgeted_by_its_cells(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """The kit's time and memory budget counts a theta maze's cells (its rows are rings: no
    rows × cols), as the built tessellation has them, refused up front in one line."""
    from laby3d.cli import main

    monkeypatch.chdir(tmp_path)
    cells = tessellate("theta", 300, None).cell_count
    args = ["--shape", "theta", "--rows", "300", "--laser-mode", "stack", "--wall-layers", "50"]
    more = ["--sheet", "5000x5000", "--cell-size", "6", "--wall-thickness", "1.5", "--ball", "1", "-o", "x.svg"]
    assert main(["generate", *args, *more]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"50 wall sheets of this {cells:,}-cell maze" in err and "at most" in err, err
    assert list(tmp_path.iterdir()) == []


def kit_digest() -> str:
    """The sha256 of a theta kit's and a hex class set's SVG and DXF files (for the hash-seed test)."""
    import hashlib

    from laby3d.export.laser import laser_files
    from laby3d.geometry.laser import class_sheets

    fab = Fabrication(cell_size=12, wall_thickness=2, margin=6)
    options = LaserOptions(mode="stack", top=True, ball=3, registration_holes=3.0, label="Zoé")
    kit = laser_sheets(shaped("theta", 5, seed=3), fab, options)
    group = class_sheets([(n, shaped("hex", 4, 5, seed=k)) for k, n in enumerate(["Ana", "Ben"])], fab, options)
    digest = hashlib.sha256()
    for sheets in (kit, group):
        for suffix in ("svg", "dxf"):
            for name, data in sorted(laser_files(sheets, suffix=suffix, metadata={}).items()):
                digest.update(name.encode() + data)
    return digest.hexdigest()


@pytest.mark.slow
def test_kit_bytes_do_not_depend_on_the_hash_seed() -> None:
    import os
    import sys

    script = "import sys; sys.path.insert(0, 'tests'); from test_shaped_laser import kit_digest; print(kit_digest())"
    digests = {
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent.parent,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(digests) == 1 and len(digests.pop()) == 65


@pytest.mark.parametrize(
    ("size", "bin_size", "least"),
    [(134, (596, 396), 12), (134, (396, 596), 12), (100, (300, 200), 6), (50, (600, 400), 96), (190, (596, 396), 6)],
)
def test_staggered_discs_stay_apart_and_in_the_bin(size: int, bin_size: tuple[int, int], least: int) -> None:
    """Discs of diameter ``size`` centred in their boxes: every one inside the bin, every two at
    least ``size`` apart centre to centre (checked pair by pair), and at least ``least`` a bin
    (what a hand layout seats: 134 in 596 × 396 is rows of 4, 4, 4 shifted by the 60 left over)."""
    from laby3d.geometry.packing import staggered_rows

    spots = staggered_rows(200, size, bin_size)
    first = [(x + size / 2, y + size / 2) for sheet, x, y, turned in spots if sheet == 0 and not turned]
    centres = np.array(first)
    assert (centres >= size / 2).all() and (centres <= np.array(bin_size) - size / 2).all(), "outside the bin"
    gaps = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    assert gaps[np.triu_indices(len(centres), 1)].min() >= size, "two discs overlap"
    assert len(centres) >= least
    grid = (bin_size[0] // size) * (bin_size[1] // size)
    assert len(centres) >= grid, "fewer than the plain grid"
