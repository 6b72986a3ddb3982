"""Laser sheets read back as a laser program would: millimetres, operations by colour, single-pass
lines, exact kerf, a ball kit that closes, files per sheet, short travel, deterministic DXF."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
import shapely
from conftest import require_tool
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from svgcheck import (
    LIGHTBURN_OUTPUT,
    LIGHTBURN_TOOLS,
    closed_walls_and_bound,
    footprint_from_boxes,
    greedy_travel,
    parse_svg,
    signed_area,
    unit_segments,
)

import laby3d
from laby3d.errors import ParameterError
from laby3d.export.laser import PALETTES, dxf_bytes, laser_files, svg_bytes
from laby3d.geometry.laser import (
    LASER_MODES,
    OPERATIONS,
    LaserOptions,
    Material,
    ball_kit,
    class_sheets,
    laser_drawing,
    laser_sheets,
)
from laby3d.geometry.params import Fabrication
from laby3d.maze.algorithms import ALGORITHMS

CUTS = ("inner-cut", "outer-cut")


def svg_of(maze, fab: Fabrication | None = None, *, palette: str = "default", **laser) -> dict:
    drawing = laser_drawing(maze, fab or Fabrication(), LaserOptions(**laser))
    return parse_svg(svg_bytes(drawing, palette=palette, metadata={}))


def length(points: np.ndarray, closed: bool) -> float:
    ring = np.vstack([points, points[:1]]) if closed else points
    return float(np.hypot(*np.diff(ring, axis=0).T).sum())


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@settings(max_examples=10, deadline=None)
@given(rows=st.integers(1, 14), cols=st.integers(1, 14), seed=st.integers(0, 2**32))
def test_lines_score_every_wall_once_in_exactly_the_least_strokes(
    algorithm: str, rows: int, cols: int, seed: int
) -> None:
    maze = laby3d.generate(rows, cols, algorithm=algorithm, seed=seed)
    fab = Fabrication()
    page = svg_of(maze, mode="lines")
    assert page["viewBox"] == [0, 0, page["width"], page["height"]]
    assert page["width"] == pytest.approx(cols * fab.cell_size + fab.wall_thickness)
    assert set(page["layers"]) == {"score"}, "a line drawing is scored, never cut"
    strokes = page["layers"]["score"]
    steps = []
    for points, closed in strokes:
        if closed:
            points = np.vstack([points, points[:1]])
        on_grid = (points - fab.wall_thickness / 2) / fab.cell_size
        assert np.allclose(on_grid, np.round(on_grid), atol=1e-6), "off the wall grid"
        steps.extend(unit_segments(points, fab.cell_size))
    walls, bound = closed_walls_and_bound(maze)
    assert len(steps) == len(set(steps)) == walls  # each wall once: no duplicate, no overlap
    assert sum(length(p, c) for p, c in strokes) == pytest.approx(walls * fab.cell_size, abs=1e-6)
    assert len(strokes) == bound


@pytest.mark.parametrize("size", [20, 100, pytest.param(300, marks=pytest.mark.slow)])
def test_travel_is_at_most_the_greedy_nearest_neighbour_travel(size: int) -> None:
    maze = laby3d.generate(size, size, seed=1)
    page = svg_of(maze, mode="lines")
    strokes = page["layers"]["score"]
    head = np.zeros(2)
    travel = 0.0
    for points, closed in strokes:  # the file's own order
        travel += float(np.hypot(*(points[0] - head)))
        head = points[0] if closed else points[-1]
    assert len(strokes) == closed_walls_and_bound(maze)[1]
    assert travel <= greedy_travel(strokes) + 1e-6


def file_travel(strokes: list[tuple[np.ndarray, bool]], head: np.ndarray) -> tuple[float, np.ndarray]:
    """Rapid travel through ``strokes`` in the file's order from ``head``, mm, and where it ends."""
    travel = 0.0
    for points, closed in strokes:
        travel += float(np.hypot(*(points[0] - head)))
        head = points[0] if closed else points[-1]
    return travel, head


@pytest.mark.parametrize(
    ("rows", "cols", "mode"),
    [(1, 1, "lines"), (1, 9, "lines"), (7, 3, "lines"), (13, 29, "lines"), (45, 40, "lines")]
    + [(5, 6, "outline"), (12, 12, "outline"), (4, 7, "stack"), (9, 9, "stack")],
)
def test_every_sheet_and_operation_travels_at_most_the_greedy_order_from_the_same_start(
    rows: int, cols: int, mode: str
) -> None:
    """Each operation of each sheet, read back from its SVG, against the tests' own greedy
    nearest-neighbour order from where the head stood (the previous operation's end)."""
    maze = laby3d.generate(rows, cols, seed=rows * 31 + cols)
    for page in laser_sheets(maze, Fabrication(), LaserOptions(mode=mode)).pages:
        layers = parse_svg(svg_bytes(page, metadata={}))["layers"]
        head = np.zeros(2)
        for operation in OPERATIONS:
            strokes = layers.get(operation, [])
            if strokes:
                travel, end = file_travel(strokes, head)
                assert travel <= greedy_travel(strokes, head) + 1e-6, (operation, travel)
                head = end


def test_travel_order_is_the_same_as_python_and_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The greedy walk and 2-opt run as Python for small drawings and compiled for large ones:
    both give the same file."""
    maze = laby3d.generate(23, 31, seed=5)
    files = []
    for jit in ("never", "always"):
        monkeypatch.setenv("LABY3D_JIT", jit)
        sheets = laser_sheets(maze, Fabrication(), LaserOptions(mode="lines"))
        files.append(svg_bytes(sheets.pages[0], metadata={}))
    assert files[0] == files[1]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.integers(1, 10),
    cols=st.integers(1, 10),
    seed=st.integers(0, 2**32),
    kerf=st.sampled_from([0.0, 0.1, 0.15, 0.3]),
    margin=st.sampled_from([0.0, 5.0]),
)
@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_outline_is_the_footprint_grown_by_half_the_kerf(
    rows: int, cols: int, seed: int, kerf: float, margin: float
) -> None:
    maze = laby3d.generate(rows, cols, seed=seed)
    fab = Fabrication(margin=margin)
    page = svg_of(maze, fab, mode="outline", kerf=kerf)
    rings = [(points, "outer") for points, _ in page["layers"]["outer-cut"]]
    rings += [(points, "inner") for points, _ in page["layers"].get("inner-cut", [])]
    expected = footprint_from_boxes(maze, fab).buffer(kerf / 2, join_style="mitre", mitre_limit=10)
    x0, y0, _, y1 = expected.bounds  # back to the footprint frame: y up
    shells, holes = [], []
    for points, kind in rings:
        flipped = np.column_stack([points[:, 0] + x0, (y1 - y0) - points[:, 1] + y0])
        (shells if kind == "outer" else holes).append(shapely.Polygon(flipped))
        assert (signed_area(flipped) > 0) == (kind == "outer"), "outer rings counter-clockwise, holes clockwise"
    drawn = shapely.union_all(shells).difference(shapely.union_all(holes)) if holes else shapely.union_all(shells)
    assert drawn.symmetric_difference(expected).area < 1e-6
    for polygon in shells:  # every edge sits exactly kerf/2 outside the footprint
        for a, b in zip(polygon.exterior.coords[:-1], polygon.exterior.coords[1:], strict=True):
            middle = shapely.Point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            assert footprint_from_boxes(maze, fab).boundary.distance(middle) == pytest.approx(kerf / 2, abs=1e-6)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.integers(2, 9),
    cols=st.integers(2, 9),
    seed=st.integers(0, 2**32),
    cell=st.sampled_from([10.0, 12.0, 15.0]),
    wall=st.sampled_from([2.0, 3.0, 4.0]),
    margin=st.sampled_from([0.0, 4.0, 8.0]),
    wall_sheet=st.sampled_from([1.5, 2.0, 3.0, 4.0, 6.0]),
    ball_share=st.floats(0.3, 0.8),
    play=st.sampled_from([0.0, 0.5, 1.0]),
    holes=st.booleans(),
)
@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_ball_kit_closes_and_aligns(rows, cols, seed, cell, wall, margin, wall_sheet, ball_share, play, holes) -> None:
    maze = laby3d.generate(rows, cols, seed=seed)
    fab = Fabrication(cell_size=cell, wall_thickness=wall, margin=margin, base_thickness=2.0)
    ball = round(ball_share * (cell - wall - play), 3)
    drill = min(3.0, margin + wall - 2.0) if holes and margin + wall - 2.0 > 0.5 else None
    options = LaserOptions(
        mode="stack",
        kerf=0.0,
        top=True,
        ball=ball,
        ball_play=play,
        registration_holes=drill,
        wall_material=Material(name="mdf", thickness=wall_sheet),
    )
    kit = ball_kit(maze, fab, options)
    assert kit.inside_height >= ball + play - 1e-9
    walls = [shape for name, shape in kit.layers if name.startswith("walls")]
    assert len(walls) == math.ceil((ball + play) / wall_sheet - 1e-9) or (ball + play <= wall_sheet and len(walls) == 1)
    # Oracle: the plate minus the corridors inside the border walls (from the wall boxes).
    width, depth = fab.outer_size(rows, cols)
    plate = shapely.box(0, 0, width, depth)
    frame = margin + wall
    inner = shapely.box(frame, frame, width - frame, depth - frame)
    corridors = inner.difference(footprint_from_boxes(maze, fab))
    drills = shapely.union_all([shapely.Point(c).buffer(drill / 2, 16) for c in kit.registration]) if drill else None
    removed = corridors if drills is None else corridors.union(drills)
    keys = []
    for sheet in walls:
        assert shapely.get_num_geometries(sheet) == 1, "a wall sheet is one piece: nothing loose"
        assert sheet.intersection(removed).area < 1e-9
        keys.append(plate.difference(sheet).difference(removed))
    # the rest of the plate is one notch at the top-left corner, the same on every layer, no turn
    # nor flip of the plate maps it onto itself, and 1.5 mm of MDF left to the corridors
    key = keys[0]
    assert all(k.symmetric_difference(key).area < 1e-9 for k in keys)
    assert shapely.get_num_geometries(key) == 1 and key.intersects(shapely.Point(0, depth))
    assert key.distance(corridors) >= 1.5 - 1e-6
    x0, y0, x1, y1 = key.bounds
    assert x0 == 0 and y1 == depth and x1 - x0 != y1 - y0, "legs of different lengths: not symmetric"
    for name, shape in kit.layers:
        assert shape.union(removed).union(key).symmetric_difference(plate).area < 1e-6 or name != "base"
    # The ball leaves only through the top: the top covers everything but its holes, which sit
    # over corridors; every hole is ball + play wide.
    top = dict(kit.layers)["top"]
    openings = [
        g
        for g in shapely.get_parts(plate.difference(top))
        if (drills is None or not g.intersects(drills)) and not g.intersects(shapely.Point(0, depth))  # the notch
    ]
    assert len(openings) == len({(o.row, o.col) for o in (maze.entrance, maze.exit) if o})
    for opening in openings:
        assert corridors.buffer(1e-6).contains(opening)
        assert 2 * math.sqrt(opening.area / math.pi) == pytest.approx(ball + play, rel=0.02)
    if drill:  # alignment holes at the same places in every layer, outside corridors, one way round
        for name, shape in kit.layers:
            for centre in kit.registration:
                assert not shape.contains(shapely.Point(centre)), name
                assert shape.contains(shapely.Point(centre).buffer(drill / 2 + 0.5, 16).exterior)
            assert not corridors.intersects(drills)
        centres = {(round(x, 6), round(y, 6)) for x, y in kit.registration}
        for a, b in [(-1, 1), (1, -1), (-1, -1)]:  # mirrored either way, or turned half round
            moved = {(round(x if a > 0 else width - x, 6), round(y if b > 0 else depth - y, 6)) for x, y in centres}
            assert moved != centres


def test_kit_refuses_with_the_numbers() -> None:
    maze = laby3d.generate(5, 5, seed=1)
    fab = Fabrication(cell_size=10, wall_thickness=3)
    with pytest.raises(ParameterError, match=r"7 mm \+ play 1 mm must pass the narrowest passage of a square maze"):
        ball_kit(maze, fab, LaserOptions(mode="stack", ball=7))
    with pytest.raises(
        ParameterError,
        match=r"gives 1 × 3 mm = 3 mm of walls, lower than the ball 6 mm \+ play 1 mm; at least 3 layers",
    ) as error:
        ball_kit(maze, fab, LaserOptions(mode="stack", ball=6, wall_layers=1))
    assert error.value.field == "wall_layers"
    with pytest.raises(ParameterError) as error:
        ball_kit(maze, fab, LaserOptions(mode="stack", registration_holes=3))
    assert error.value.field == "registration_holes"


def test_the_config_ball_kit_closes_with_three_wall_sheets_and_a_separate_acrylic_top() -> None:
    maze = laby3d.generate(12, 16, algorithm="wilson", seed=3)
    fab = Fabrication(cell_size=10, wall_thickness=3)
    sheets = laser_sheets(maze, fab, LaserOptions(mode="stack", top=True, ball=6, kerf=0.15, reference_square=True))
    report = sheets.report()
    assert report["kit"]["wall_layers"] == 3 and report["kit"]["inside_height_mm"] == 9.0
    assert sheets.names() == ["plywood-3mm-1", "acrylic-3mm-1"]
    assert report["sheets"][1]["parts"] == "top"
    files = laser_files(sheets, suffix="svg", metadata={})
    assert set(files) == {"plywood-3mm-1.svg", "acrylic-3mm-1.svg", "overview.svg", "laser.json"}
    for name in ("plywood-3mm-1.svg", "acrylic-3mm-1.svg"):
        page = parse_svg(files[name])
        assert (page["width"], page["height"]) == (600, 400)


@pytest.mark.parametrize("top", [False, True])
@pytest.mark.parametrize(
    ("size", "sheet"), [((6, 8), (600.0, 400.0)), ((15, 15), (200.0, 200.0)), ((12, 16), (130.0, 170.0))]
)
def test_kit_parts_do_not_overlap_and_stay_on_their_sheets(size, sheet, top: bool) -> None:
    maze = laby3d.generate(*size, seed=3)
    fab = Fabrication()
    sheets = laser_sheets(maze, fab, LaserOptions(mode="stack", sheet=sheet, top=top, kerf=0.2))
    walls = sheets.kit.wall_layers
    outers = []
    for page in sheets.pages:
        assert (page.width, page.height) == sheet
        area = shapely.box(0, 0, *sheet)
        own = [shapely.Polygon(p) for p in page.strokes["outer-cut"]]
        for a, b in combinations(own, 2):
            assert a.intersection(b).area == pytest.approx(0, abs=1e-9)
        assert all(area.contains(p) for p in own)
        outers += own
    assert len(outers) == 1 + walls + top


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_base_label_is_never_hidden_under_the_frame() -> None:
    maze = laby3d.generate(6, 8, seed=2)
    with_margin = ball_kit(maze, Fabrication(margin=8), LaserOptions(mode="stack", label="Zoé"))
    name = with_margin.label_on
    assert name.startswith("walls") and name == with_margin.layers[-1][0], "on the uppermost wall sheet"
    frame = dict(with_margin.layers)[name]
    text = [m for m in next(p for p in with_margin.parts if p.name == name).marks if m.operation == "engrave-fill"]
    assert text and all(frame.contains(shapely.Polygon(m.points)) for m in text)
    bare = ball_kit(maze, Fabrication(), LaserOptions(mode="stack", label="Zoé"))
    assert bare.label_on == "base, underside (mirrored)"
    assert bare.warnings and "label moved under the base" in bare.warnings[-1]
    assert ball_kit(maze, Fabrication(margin=6), LaserOptions(mode="stack", top=True, label="Zoé")).label_on == "top"
    # a 1.6 mm frame holds no legible text: under the base, never across the top's ball holes
    thin = ball_kit(maze, Fabrication(), LaserOptions(mode="stack", top=True, label="Zoé"))
    assert thin.label_on == "base, underside (mirrored)"


def test_solution_is_engraved_only_when_asked() -> None:
    maze = laby3d.generate(5, 5, seed=1)
    assert "engrave-line" not in svg_of(maze, mode="stack", top=True)["layers"]
    key = svg_of(maze, mode="stack", top=True, engrave_solution=True)["layers"]
    assert len(key["engrave-line"]) == 1 and not key["engrave-line"][0][1]


@pytest.mark.parametrize("palette", list(PALETTES))
@pytest.mark.parametrize("mode", LASER_MODES)
def test_no_stroke_outside_a_cut_layer_has_a_cut_colour(palette: str, mode: str) -> None:
    maze = laby3d.generate(6, 7, seed=5)
    drawing = laser_drawing(
        maze,
        Fabrication(margin=6),
        LaserOptions(mode=mode, top=True, label="A", reference_square=True, engrave_solution=True),
    )
    page = parse_svg(svg_bytes(drawing, palette=palette, metadata={}))
    cut_colours = {PALETTES[palette][op] for op in CUTS}
    for layer, colour in page["colours"].items():
        if layer not in CUTS:
            assert colour not in cut_colours, layer
    assert page["hidden"] == ["notes"], "sheet outlines are hidden notes"
    if palette == "default":  # LightBurn maps layers by colour: notes on a tool layer, the rest output
        assert page["colours"]["notes"].lower() in LIGHTBURN_TOOLS
        assert all(page["colours"][op].lower() in LIGHTBURN_OUTPUT for op in page["layers"] if op != "notes")
    assert page["order"][1:] == [op for op in OPERATIONS if op in page["layers"]]
    assert not page["text"]
    bare = parse_svg(svg_bytes(drawing, palette=palette, metadata={}, notes=False))
    assert "notes" not in bare["ids"]


@pytest.mark.parametrize("mode", LASER_MODES)
def test_golden_svg(golden, mode: str) -> None:
    maze = laby3d.generate(4, 5, algorithm="wilson", seed=11)
    drawing = laser_drawing(maze, Fabrication(), LaserOptions(mode=mode, top=True))
    golden(f"laser_{mode}_4x5_seed11.svg", svg_bytes(drawing, metadata={"seed": 11}).decode())


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@pytest.mark.parametrize("mode", LASER_MODES)
def test_rsvg_renders_every_mode(tmp_path: Path, mode: str) -> None:
    rsvg = require_tool("rsvg-convert")
    from PIL import Image

    svg = tmp_path / "m.svg"
    drawing = laser_drawing(laby3d.generate(8, 10, seed=2), Fabrication(), LaserOptions(mode=mode))
    svg.write_bytes(svg_bytes(drawing, metadata={}))
    png = tmp_path / "m.png"
    done = subprocess.run(
        [rsvg, "--dpi-x", "300", "--dpi-y", "300", "-b", "white", "-o", str(png), str(svg)], capture_output=True
    )
    assert done.returncode == 0, done.stderr
    assert np.asarray(Image.open(png).convert("L")).min() < 200, "blank rendering"


def _dxf_of(mode: str, palette: str = "default") -> bytes:
    maze = laby3d.generate(6, 7, seed=4)
    return dxf_bytes(laser_drawing(maze, Fabrication(), LaserOptions(mode=mode, top=True)), palette=palette)


@pytest.mark.parametrize("palette", list(PALETTES))
@pytest.mark.parametrize("mode", LASER_MODES)
def test_dxf_layers_colours_extents(tmp_path: Path, mode: str, palette: str) -> None:
    import ezdxf

    path = tmp_path / "m.dxf"
    path.write_bytes(_dxf_of(mode, palette))
    document = ezdxf.readfile(path)
    assert document.header["$INSUNITS"] == 4
    assert not document.audit().has_errors
    entities = list(document.modelspace())
    layers = {entity.dxf.layer for entity in entities}
    # no sheet outline: DXF readers cut every layer they import (Inkscape ignores the no-plot flag)
    assert layers <= {"CUT-INNER", "CUT-OUTER", "SCORE", "ENGRAVE-LINE", "ENGRAVE-FILL"}
    wanted = {"CUT-INNER": "inner-cut", "CUT-OUTER": "outer-cut", "SCORE": "score"}
    for name, key in wanted.items():
        assert "#{:02x}{:02x}{:02x}".format(*document.layers.get(name).rgb) == PALETTES[palette][key]
    xs = [x for e in entities for x, *_ in e.get_points()]
    ys = [y for e in entities for _, y, *_ in e.get_points()]
    assert tuple(document.header["$EXTMIN"])[:2] == pytest.approx((min(xs), min(ys)))
    assert tuple(document.header["$EXTMAX"])[:2] == pytest.approx((max(xs), max(ys)))
    sheet = laser_drawing(laby3d.generate(6, 7, seed=4), Fabrication(), LaserOptions(mode=mode, top=True))
    assert tuple(document.header["$LIMMAX"])[:2] == pytest.approx((sheet.width, sheet.height)), "sheet as limits"
    for entity in entities:  # no outline of the sheet itself
        points = np.array([p[:2] for p in entity.get_points()])
        assert not np.allclose([*points.min(axis=0), *points.max(axis=0)], [0, 0, sheet.width, sheet.height])


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_dxf_bytes_do_not_depend_on_hash_seed_or_threads() -> None:
    script = (
        "import sys, hashlib; sys.path.insert(0, 'tests'); from test_laser import _dxf_of;"
        "print(hashlib.sha256(_dxf_of('stack')).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent.parent,
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
        ).stdout
        for seed in ("0", "1", "12345")
    }
    assert len(digests) == 1
    import hashlib

    import ezdxf

    assert digests == {hashlib.sha256(_dxf_of("stack")).hexdigest() + "\n"}
    flag = ezdxf.options.write_fixed_meta_data_for_testing
    with ThreadPoolExecutor(4) as pool:
        results = set(pool.map(lambda _: _dxf_of("stack"), range(8)))
    assert len(results) == 1 and ezdxf.options.write_fixed_meta_data_for_testing == flag


def test_lines_and_outline_honour_the_sheet() -> None:
    maze = laby3d.generate(12, 16, seed=3)
    turned = laser_sheets(maze, Fabrication(), LaserOptions(mode="lines", sheet=(140.0, 180.0)))
    assert len(turned.pages) == 1 and (turned.pages[0].width, turned.pages[0].height) == (140, 180)
    points = np.concatenate(turned.pages[0].strokes["score"])
    assert points[:, 0].max() <= 140 and points[:, 1].max() <= 180
    with pytest.raises(ParameterError, match="too small for the walls part") as error:
        laser_sheets(maze, Fabrication(), LaserOptions(mode="outline", sheet=(100.0, 100.0)))
    assert error.value.field == "sheet"


def test_label_is_engraved_as_outlines() -> None:
    maze = laby3d.generate(5, 6, seed=9)
    for mode in ("lines", "stack"):
        page = svg_of(maze, mode=mode, label="Chloé", top=True)
        assert not page["text"]
        rings = [points for points, closed in page["layers"]["engrave-fill"] if closed]
        assert len(rings) >= 10  # the letters of "Chloé · seed 9", holes included
        assert all(0 <= p[:, 0].min() and p[:, 0].max() <= page["width"] for p in rings)


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_a_class_of_24_shares_sheets_and_every_part_carries_its_name() -> None:
    fab = Fabrication(cell_size=10, wall_thickness=3, margin=3)  # a band for names 1.5 mm from the edge
    options = LaserOptions(mode="stack", top=True, ball=6, kerf=0.15)
    pupils = [(f"Pupil {k:02d}", laby3d.generate(8 + k % 9, 10 + k % 7, seed=k)) for k in range(24)]
    sheets = class_sheets(pupils, fab, options)
    sheet_area = 600.0 * 400.0
    for material in {page.material for page in sheets.pages}:
        own = [page for page in sheets.pages if page.material == material]
        outlines = [shapely.Polygon(p) for page in own for p in page.strokes["outer-cut"]]
        total = sum(polygon.area for polygon in outlines)
        assert len(own) <= math.ceil(total / (0.6 * sheet_area)), material
        for page in own:
            mine = [shapely.Polygon(p) for p in page.strokes["outer-cut"]]
            assert all(shapely.box(0, 0, 600, 400).contains(p) for p in mine)
            for a, b in combinations(mine, 2):
                assert a.intersection(b).area < 1e-9
    expected_parts = sum(1 + ball_kit(m, fab, options).wall_layers + 1 for _, m in pupils)
    assert sum(len(page.strokes["outer-cut"]) for page in sheets.pages) == expected_parts
    for page in sheets.pages:  # a name on every part: fill engravings inside each outline
        engraved = shapely.union_all([shapely.Polygon(p).buffer(0) for p in page.strokes["engrave-fill"]])
        for p in page.strokes["outer-cut"]:
            assert shapely.Polygon(p).intersects(engraved)


def test_touching_parts_share_their_common_edges() -> None:
    maze = laby3d.generate(6, 8, seed=2)
    fab = Fabrication(cell_size=10, wall_thickness=3)
    apart = laser_sheets(maze, fab, LaserOptions(mode="stack", top=True, ball=5, kerf=0.2))
    touching = laser_sheets(maze, fab, LaserOptions(mode="stack", top=True, ball=5, kerf=0.2, spacing=0))
    for before, after in zip(apart.pages, touching.pages, strict=True):
        lines = [
            shapely.LineString(np.vstack([p, p[:1]]) if c else p)
            for p, c in zip(after.strokes["outer-cut"], after.closed["outer-cut"], strict=True)
        ]
        total = sum(line.length for line in lines)
        assert total == pytest.approx(shapely.union_all(lines).length, abs=1e-6), "no stretch is cut twice"
        noded = shapely.get_parts(shapely.node(shapely.union_all(lines)))
        pieces = shapely.get_parts(shapely.polygonize(list(noded)))
        wanted = sorted(shapely.Polygon(p).area for p in before.strokes["outer-cut"])
        freed = sorted(piece.area for piece in pieces if piece.area > 20)  # not the offcuts between notches
        assert freed == pytest.approx(wanted), "the cut lines free the same parts"
    assert touching.report()["cut_length_mm"] < apart.report()["cut_length_mm"]


@pytest.mark.parametrize(
    "kerf", [0.15, pytest.param(0.05, marks=pytest.mark.slow), pytest.param(0.3, marks=pytest.mark.slow)]
)
@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_kerf_card_reads_the_kerf_whatever_the_material_thickness(kerf: float) -> None:
    from kitcheck import read_text

    values = [f"{k / 100:.2f}" for k in range(0, 65, 5)]
    instruction = "1. Measure the bar: kerf = 40 − bar length"
    widths = []
    for thickness in (3.0, 6.0):
        options = LaserOptions(
            mode="kerf-test", kerf=kerf, wall_material=Material(name="mdf", thickness=thickness), sheet=(200.0, 90.0)
        )
        files = laser_files(
            laser_sheets(laby3d.generate(2, 2, seed=0), Fabrication(), options), suffix="svg", metadata={}
        )
        page = parse_svg(files["mdf-" + f"{thickness:g}mm-1.svg"])
        (outline,) = page["layers"]["outer-cut"]
        comb = shapely.Polygon(outline[0])
        (bar,) = [shapely.Polygon(p) for p, _ in page["layers"]["inner-cut"]]
        bx0, by0, bx1, by1 = bar.bounds
        assert (bx1 - bx0, by1 - by0) == pytest.approx((40.0, 10.0)), "the reference bar, drawn exactly"
        x0, y0, x1, y1 = comb.bounds
        probe = shapely.LineString([(x0 - 1, y0 + 3), (x1 + 1, y0 + 3)])  # 3 mm below the top edge (y down)
        gaps = sorted(
            (g for g in shapely.get_parts(probe.difference(comb)) if x0 < g.bounds[0] < x1), key=lambda g: g.bounds[0]
        )
        named = [(10.0 - g.length) / 2 for g in gaps]  # the kerf at which the bar's 10 mm end fits snugly
        widths.append([g.length for g in gaps])
        ink = shapely.Polygon()
        for ring, _ in page["layers"]["engrave-fill"]:  # even-odd, as a laser fills; y up
            ink = ink.symmetric_difference(shapely.Polygon(ring * [1, -1]).buffer(0))
        readings = read_text(ink, [*values, "-0.00", instruction], squeeze=(1.0, 0.5))  # labels stand apart
        labels = sorted((r for r in readings if r.text in values or r.text == "-0.00"), key=lambda r: r.ink.bounds[0])
        assert [r.text for r in labels] == [f"{k:.2f}" for k in named], "each slot engraved with the kerf it names"
        assert named == pytest.approx(sorted(kerf + 0.05 * j for j in range(-3, 4) if kerf + 0.05 * j >= -1e-9))
        (told,) = [r for r in readings if r.text == instruction]
        assert told.cap_height >= 2.5 - 0.05
    assert widths[0] == pytest.approx(widths[1]), "the slots do not depend on the material's thickness"


def test_sheet_preview_and_assembled_kit_pictures() -> None:
    import io

    from PIL import Image

    sys.path.insert(0, str(Path(__file__).parent.parent / "docs"))  # the README's kit pictures are drawn there
    from kit_picture import MATERIAL_COLOURS, kit_png

    from laby3d.export.laser_preview import sheet_png

    maze = laby3d.generate(6, 8, seed=2)
    sheets = laser_sheets(maze, Fabrication(wall_thickness=3), LaserOptions(mode="stack", top=True, ball=5))
    page = sheets.pages[0]
    picture = Image.open(io.BytesIO(sheet_png(page, width_px=600))).convert("RGB")
    assert picture.width == 600 and abs(picture.height / picture.width - page.height / page.width) < 0.02
    pixels = np.asarray(picture).reshape(-1, 3)
    red = np.array([int(PALETTES["default"]["outer-cut"][i : i + 2], 16) for i in (1, 3, 5)])
    assert (np.abs(pixels.astype(int) - red).sum(axis=1) < 60).any(), "outer cuts drawn in their colour"
    kit = Image.open(io.BytesIO(kit_png(sheets.kit, width_px=400))).convert("RGB")
    pixels = np.asarray(kit).reshape(-1, 3).astype(int)
    plywood = np.array([int(MATERIAL_COLOURS["plywood"][0][i : i + 2], 16) for i in (1, 3, 5)])
    assert (np.abs(pixels - plywood).sum(axis=1) < 10).sum() > 1000, "the plywood layers show"


@pytest.mark.parametrize("kerf", [0.1, 0.3])
def test_alignment_holes_are_kerf_compensated_and_sit_alike_on_every_sheet(kerf: float) -> None:
    maze = laby3d.generate(6, 8, seed=4)
    fab = Fabrication(cell_size=10, wall_thickness=3, margin=6)
    sheets = laser_sheets(maze, fab, LaserOptions(mode="stack", top=True, ball=5, kerf=kerf, registration_holes=4))
    inset = (6 + 3) / 2 + kerf / 2  # from the grown outline: half the frame band plus half the kerf
    parts = 0
    for page in sheets.pages:
        for outline in (shapely.Polygon(p) for p in page.strokes["outer-cut"]):
            x0, y0, x1, y1 = outline.bounds
            drills = [
                h
                for h in page.strokes["inner-cut"]
                if outline.contains(shapely.Point(h.mean(axis=0))) and np.hypot(*(h - h.mean(axis=0)).T).max() < 2.1
            ]
            assert len(drills) == 4, "four alignment holes per part"
            corners = 0
            for hole in drills:
                centre = hole.mean(axis=0)
                assert outline.exterior.distance(shapely.Point(centre)) == pytest.approx(inset, abs=1e-6)
                corners += min(centre[0] - x0, x1 - centre[0]) == pytest.approx(inset, abs=1e-6) and min(
                    centre[1] - y0, y1 - centre[1]
                ) == pytest.approx(inset, abs=1e-6)
                # the cut line runs kerf/2 inside the 4 mm hole (a 64-gon: its vertices a hair further)
                assert np.hypot(*(hole - centre).T).max() == pytest.approx(2 - kerf / 2, abs=5e-4)
            assert corners == 3, "three in the frame's corners, one moved along an edge: one way round"
            parts += 1
    assert parts == 1 + sheets.kit.wall_layers + 1


@pytest.mark.parametrize(
    ("operation", "layer"), [("cut", "outer-cut"), ("score", "score"), ("engrave-line", "engrave-line")]
)
def test_lines_go_to_the_operation_asked_for(operation: str, layer: str) -> None:
    page = svg_of(laby3d.generate(4, 6, seed=8), mode="lines", line_operation=operation)
    assert set(page["layers"]) == {layer}
    assert len(page["layers"][layer]) == closed_walls_and_bound(laby3d.generate(4, 6, seed=8))[1]


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_cli_names_the_laser_option_at_fault(tmp_path: Path) -> None:
    for flags, message in [
        (["--kerf", "-1"], "--kerf"),
        (["--sheet", "big"], "sheet must look like WxH"),
        (["--laser-mode", "stack", "--sheet", "50x50"], "too small for the base part"),
        (
            ["--laser-mode", "stack", "--ball", "6", "--wall-thickness", "3", "--wall-layers", "1"],
            "--wall-layers gives 1 × 3 mm",
        ),
    ]:
        result = subprocess.run(
            [sys.executable, "-m", "laby3d", "generate", "--seed", "1", *flags, "-o", "m.svg"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )
        assert result.returncode == 2 and message in result.stderr, result.stderr
        assert not (tmp_path / "m.svg").exists()


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_the_reference_square_never_takes_a_sheet_of_its_own() -> None:
    maze = laby3d.generate(12, 16, seed=3)
    for sheet in [(200.0, 150.0), (600.0, 400.0)]:
        without = laser_sheets(maze, Fabrication(), LaserOptions(mode="stack", top=True, sheet=sheet))
        square = laser_sheets(
            maze, Fabrication(), LaserOptions(mode="stack", top=True, sheet=sheet, reference_square=True)
        )
        assert len(square.pages) == len(without.pages)
        scored = [p for page in square.pages for p in page.strokes["score"]]
        assert len(scored) == 1
        sides = np.hypot(*np.diff(np.vstack([scored[0], scored[0][:1]]), axis=0).T)
        assert sides == pytest.approx([100.0] * 4)


def grid_count(part: tuple[float, float], sheet: tuple[float, float], spacing: float) -> int:
    """Parts of one size a sheet holds in a plain grid, the better of the two orientations, with
    ``spacing`` between parts and max(spacing, 2 mm) from the edge (the documented contract)."""
    edge = max(spacing, 2.0)
    best = 0
    for w, h in (part, part[::-1]):
        across = math.floor((sheet[0] - 2 * edge + spacing) / (w + spacing) + 1e-9)
        down = math.floor((sheet[1] - 2 * edge + spacing) / (h + spacing) + 1e-9)
        best = max(best, across * down)
    return best


def outlines_by_material(files: dict[str, bytes]) -> dict[str, list[list[shapely.Polygon]]]:
    """The outer-cut outlines of every written sheet file, per material key (file name stem)."""
    sheets: dict[str, list[list[shapely.Polygon]]] = {}
    for name in sorted(files):
        if name.endswith(".svg") and name != "overview.svg":
            page = parse_svg(files[name])
            key = name.rsplit("-", 1)[0]
            sheets.setdefault(key, []).append([shapely.Polygon(p) for p, _ in page["layers"]["outer-cut"]])
    return sheets


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kits=st.integers(1, 5),
    size=st.sampled_from([(6, 8), (8, 10), (12, 16)]),
    sheet=st.sampled_from([(300.0, 200.0), (600.0, 400.0), (450.0, 300.0), (200.0, 300.0)]),
    spacing=st.sampled_from([1.0, 3.0, 5.0]),  # 0 shares edges: tested on its own
)
@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_nesting_uses_no_more_sheets_than_the_best_grid_and_keeps_parts_apart(kits, size, sheet, spacing) -> None:
    fab = Fabrication(cell_size=10, wall_thickness=3, margin=6)
    options = LaserOptions(mode="stack", top=True, ball=6, kerf=0.15, sheet=sheet, spacing=spacing)
    pupils = [(f"P{k}", laby3d.generate(*size, seed=k)) for k in range(kits)]
    sheets = class_sheets(pupils, fab, options)
    files = laser_files(sheets, suffix="svg", metadata={}, notes=False)
    width, depth = fab.outer_size(*size)
    part = (width + 0.15, depth + 0.15)
    edge = max(spacing, 2.0)
    report = json.loads(files["laser.json"])
    for key, pages in outlines_by_material(files).items():
        count = sum(len(outlines) for outlines in pages)
        assert len(pages) <= math.ceil(count / grid_count(part, sheet, spacing)), key
        area_bound = math.ceil(
            count * (part[0] + spacing) * (part[1] + spacing) / math.prod(v - 2 * edge + spacing for v in sheet) - 1e-9
        )
        (nesting,) = [n for n in report["nesting"] if n["material"] == key]
        assert nesting["sheets"] == len(pages) and nesting["area_bound_sheets"] == area_bound <= len(pages)
        for outlines in pages:
            inner = shapely.box(edge, edge, sheet[0] - edge, sheet[1] - edge).buffer(1e-6)
            assert all(inner.contains(p) for p in outlines), "inside the sheet, clear of its edge"
            for a, b in combinations(outlines, 2):
                assert a.distance(b) >= spacing - 1e-6 and a.intersection(b).area < 1e-9


def test_twelve_by_sixteen_kits_fit_two_plywood_sheets_of_300_by_200_turned() -> None:
    fab = Fabrication(cell_size=10, wall_thickness=3, margin=6)
    maze = laby3d.generate(12, 16, seed=3)
    sheets = laser_sheets(maze, fab, LaserOptions(mode="stack", top=True, ball=6, kerf=0.15, sheet=(300.0, 200.0)))
    assert [name for name in sheets.names() if name.startswith("plywood")] == ["plywood-3mm-1", "plywood-3mm-2"]
    six = class_sheets(
        [(str(k), maze) for k in range(6)], fab, LaserOptions(mode="stack", ball=6, sheet=(600.0, 400.0))
    )
    assert len(six.pages) == 3, "24 parts, 8 a sheet turned"


CONFIG = Path(__file__).parent.parent / "configs" / "laser.yaml"


@pytest.fixture(scope="module")
def config_class_set(tmp_path_factory) -> Path:
    """configs/laser.yaml's class set, written by the batch (in this process)."""
    from laby3d.cli import main

    out = tmp_path_factory.mktemp("class")
    assert main(["batch", str(CONFIG), "--only", "class-kits", "--output-dir", str(out), "-j", "1"]) == 0
    return out / "class-kits" / "class-sheets"


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_config_class_set_assembles_from_its_files_with_one_legible_name_per_part(config_class_set: Path) -> None:
    import yaml
    from kitcheck import assemble, ball_path_open, folder_files, keyed, read_pieces

    job = next(j for j in yaml.safe_load(CONFIG.read_text())["jobs"] if j["name"] == "class-kits")
    names = job["names"]
    numbers = [str(k) for k in range(1, 10)]
    pieces = read_pieces(folder_files(config_class_set), [*names, *numbers])
    kits = assemble(pieces, names)  # asserts one name per part
    for name, kit in kits.items():
        stack = [kit.base, *kit.walls, *([kit.top] if kit.top else [])]
        assert len(stack) == 5, name
        for layer, piece in enumerate(stack, start=1):
            read = sorted(r.text for r in piece.readings)
            assert read == sorted([name, str(layer)]) or piece in kit.walls, (name, read)  # wall sheets are alike
            assert all(r.cap_height >= 2.5 - 0.05 for r in piece.readings), [r.cap_height for r in piece.readings]
            assert piece.ink.difference(piece.material_left.buffer(-0.3)).area < 1e-6, "text clear of holes and edges"
            assert piece.outline.symmetric_difference(kit.base.outline).area < 1e-3, "the layers stack"
            assert keyed(piece), "one way round only"
        assert sorted(r.text for p in kit.walls for r in p.readings if r.text != name) == ["2", "3", "4"]
        assert ball_path_open(kit, ball=6.0, kerf=0.15), name
    manifest = json.loads((config_class_set.parent.parent / "manifest.json").read_text())
    (summary,) = [e for e in manifest["class_sheets"] if e["file"].endswith("laser.json")]
    for nesting in summary["nesting"]:  # the manifest says how many sheets, against the area bound
        written = [f for f in config_class_set.glob(f"{nesting['material']}-*.svg")]
        assert nesting["sheets"] == len(written) >= nesting["area_bound_sheets"] >= 1


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@pytest.mark.parametrize("margin", [0.0, 2.0, 4.0, 8.0])
@pytest.mark.parametrize(("rows", "cols", "label"), [(4, 5, "Zoé"), (8, 10, "Chloé-Anne"), (12, 16, "")])
def test_kit_label_is_legible_once_and_never_across_a_hole(rows: int, cols: int, label: str, margin: float) -> None:
    from kitcheck import read_pieces

    maze = laby3d.generate(rows, cols, seed=12345678901234567)
    fab = Fabrication(cell_size=10, wall_thickness=2, margin=margin)
    options = LaserOptions(mode="stack", top=True, ball=5, kerf=0.1, label=label, registration_holes=None)
    sheets = laser_sheets(maze, fab, options)
    full = f"{label}  ·  seed {maze.seed}" if label else f"laby3d seed {maze.seed}"
    captions = [full, label or "laby3d"]
    pieces = read_pieces(laser_files(sheets, suffix="svg", metadata={}), [*captions, *map(str, range(1, 10))])
    read = [r for piece in pieces for r in piece.readings]
    assert sum(r.text in captions for r in read) == 1, [r.text for r in read]
    for piece in pieces:
        for reading in piece.readings:
            assert reading.cap_height >= 2.5 - 0.05, (reading.text, reading.cap_height)
        assert piece.ink.difference(piece.material_left.buffer(-0.3)).area < 1e-6, "text across a hole or an edge"
    if sheets.kit.label_on != "top":
        assert any("label moved under the base" in w for w in sheets.report()["warnings"])


@pytest.mark.parametrize(
    ("material", "wall", "refused"),
    [
        ("plywood", 0.2, True),
        ("plywood", 1.4, True),
        ("plywood", 1.5, False),
        ("MDF", 1.2, True),
        ("acrylic", 1.0, False),
        ("acrylic", 0.8, True),
        ("cardboard", 1.6, True),
        ("cardboard", 2.0, False),
    ],
)
def test_walls_too_thin_for_the_material_are_refused(material: str, wall: float, refused: bool) -> None:
    maze = laby3d.generate(4, 5, seed=1)
    fab = Fabrication(cell_size=10, wall_thickness=wall, margin=3)
    for mode in ("outline", "stack"):
        options = LaserOptions(mode=mode, ball=4, wall_material=Material(name=material, thickness=3.0))
        if refused:
            with pytest.raises(ParameterError, match=f"too thin to laser-cut in {material}") as error:
                laser_sheets(maze, fab, options)
            assert error.value.field == "print.wall_thickness"
        else:
            laser_sheets(maze, fab, options)
    laser_sheets(maze, fab, LaserOptions(mode="lines"))  # a scored drawing cuts no wall


@pytest.mark.parametrize(
    ("job", "message"),
    [
        ({"laser": {"mode": "stack", "sheet": "100x100"}}, "laser.sheet: 100×100 mm is too small for the base part"),
        ({"laser": {"mode": "kerf-test", "sheet": "40x40"}}, "laser.sheet: 40×40 mm is too small for the kerf test"),
        ({"laser": {"mode": "lines", "sheet": "100x80"}}, "laser.sheet: 100×80 mm is too small for the drawing"),
        ({"names": ["Ana", "李雷"], "print": {"margin": 6}, "laser": {"mode": "stack"}}, 'names[1]: "李雷": the font'),
        ({"print": {"wall_thickness": 0.2}, "laser": {"mode": "outline"}}, "print.wall_thickness: 0.2 mm walls"),
        ({"names": ["Ana", "Ben"], "laser": {"mode": "stack"}}, 'names[0]: "Ana": a name tag needs a frame band'),
        (
            {
                "names": ["Ana", "Bartholomew-Maximilian"],
                "print": {"margin": 4},
                "maze": {"rows": 3, "cols": 3},
                "laser": {"mode": "stack", "ball_play": 0.5},
            },
            "names[1]",
        ),
        (
            {"label": "Zoé Martin-Dupont", "maze": {"rows": 2, "cols": 2}, "laser": {"mode": "stack"}},
            'label: "Zoé Martin-Dupont": the label needs',
        ),
    ],
)
@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_validate_refuses_what_the_laser_sheets_refuse(tmp_path: Path, capsys, job: dict, message: str) -> None:
    import yaml

    from laby3d.cli import main

    config = tmp_path / "c.yaml"
    job = {"name": "j", "maze": {"rows": 12, "cols": 16}, "formats": ["svg"], **job}
    config.write_text(yaml.safe_dump({"jobs": [job]}, allow_unicode=True), encoding="utf-8")
    assert main(["validate", str(config)]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1, error
    assert main(["batch", str(config), "--output-dir", str(tmp_path / "out"), "-j", "1"]) != 0, "the run refuses too"


def test_a_kerf_test_says_nothing_of_a_maze(tmp_path: Path, capsys) -> None:
    from laby3d.cli import main

    assert main(["generate", "--laser-mode", "kerf-test", "-o", str(tmp_path / "k.svg")]) == 0
    said = capsys.readouterr().out
    assert "kerf test card" in said and "maze" not in said.replace("no maze", ""), said
    description = ET.fromstring((tmp_path / "k.svg").read_bytes()).find("{http://www.w3.org/2000/svg}desc").text
    assert not {"rows", "cols", "seed", "algorithm"} & set(json.loads(description)), description


def test_lines_cut_at_spacing_zero_cut_each_wall_once_and_nothing_else() -> None:
    """Spacing 0 merges the outlines parts share; a line drawing's open strokes are no outlines
    (they were closed into rings, cutting across corridors)."""
    maze = laby3d.generate(4, 5, seed=1)
    fab = Fabrication()
    for spacing in (3.0, 0.0):
        page = svg_of(maze, fab, mode="lines", line_operation="cut", spacing=spacing)
        strokes = page["layers"]["outer-cut"]
        steps = [step for points, _ in strokes for step in unit_segments(points, fab.cell_size)]
        walls, bound = closed_walls_and_bound(maze)
        assert not any(closed for _, closed in strokes) and len(strokes) == bound
        assert len(steps) == len(set(steps)) == walls


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_text_moved_on_a_laser_sheet_is_a_warning_on_the_batch_line_and_in_generate(tmp_path: Path, capsys) -> None:
    """A label (or layer numbers) that cannot sit on the 1.6 mm frame goes under the base (or is
    left off): the batch line says WARN, not ok, and `generate` prints it, as for a solid's label."""
    from laby3d.cli import main

    config = tmp_path / "kit.yaml"
    config.write_text(
        "jobs:\n  - name: kit\n    maze: {rows: 6, cols: 8}\n    label: Zoé\n"
        "    laser: {mode: stack}\n    formats: [svg]\n",
        encoding="utf-8",
    )
    assert main(["batch", str(config), "--output-dir", str(tmp_path / "out"), "-j", "1"]) == 0
    said = capsys.readouterr()
    line = next(line for line in (said.err + said.out).splitlines() if line.startswith("1/1 kit: "))
    assert line.startswith("1/1 kit: WARN: "), line
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    assert any("label moved under the base" in w for w in manifest["mazes"][0]["laser_warnings"])

    out = tmp_path / "zoe.svg"
    args = ["--rows", "6", "--cols", "8", "--laser-mode", "stack", "--label", "Zoé", "-o", str(out)]
    assert main(["generate", *args]) == 0
    assert "laser warning: label moved under the base" in capsys.readouterr().out


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_kerf_card_speaks_the_jobs_language(tmp_path: Path) -> None:
    """``--lang fr``: the card's instructions are engraved in French (read back from the SVG by
    the independent text reader), legible; English without it."""
    from kitcheck import read_text

    from laby3d.cli import main

    french = "1. Mesurer la barre : trait = 40 − longueur"
    english = "1. Measure the bar: kerf = 40 − bar length"
    for lang, said in (("fr", french), ("en", english)):
        out = tmp_path / f"card-{lang}.svg"
        args = ["--laser-mode", "kerf-test", "--sheet", "200x90", "--lang", lang, "-o", str(out)]  # upright
        assert main(["generate", *args]) == 0
        page = parse_svg(out.read_bytes())
        ink = shapely.Polygon()
        for ring, _ in page["layers"]["engrave-fill"]:  # even-odd, as a laser fills; y up
            ink = ink.symmetric_difference(shapely.Polygon(ring * [1, -1]).buffer(0))
        readings = read_text(ink, [french, english, *(f"{k / 100:.2f}" for k in range(0, 65, 5))], squeeze=(1.0, 0.5))
        (told,) = [r for r in readings if r.text in (french, english)]
        assert told.text == said and told.cap_height >= 2.5 - 0.05
