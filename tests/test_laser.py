"""Laser SVG and DXF, parsed back: millimetres, single-pass lines, exact kerf, parts on the sheet."""

from __future__ import annotations

import subprocess
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
import shapely
from conftest import require_tool
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from svgcheck import closed_walls_and_bound, footprint_from_boxes, parse_svg, signed_area, unit_segments

import laby3d
from laby3d.export.formats import ExportOptions, render_output
from laby3d.geometry.laser import OPERATIONS, LaserOptions
from laby3d.geometry.params import Fabrication
from laby3d.maze.algorithms import ALGORITHMS


def svg_of(maze, **laser) -> dict:
    options = ExportOptions(laser=LaserOptions(**laser))
    return parse_svg(render_output(maze, "m.svg", options))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@settings(max_examples=10, deadline=None)
@given(rows=st.integers(1, 14), cols=st.integers(1, 14), seed=st.integers(0, 2**32))
def test_lines_cut_every_wall_once_in_few_strokes(algorithm: str, rows: int, cols: int, seed: int) -> None:
    maze = laby3d.generate(rows, cols, algorithm=algorithm, seed=seed)
    fab = Fabrication()
    page = svg_of(maze, mode="lines")
    assert page["viewBox"] == [0, 0, page["width"], page["height"]]
    assert page["width"] == pytest.approx(cols * fab.cell_size + fab.wall_thickness)
    strokes = page["layers"]["outer-cut"]
    steps = []
    for points, closed in strokes:
        if closed:
            points = np.vstack([points, points[:1]])
        on_grid = (points - fab.wall_thickness / 2) / fab.cell_size
        assert np.allclose(on_grid, np.round(on_grid), atol=1e-6), "off the wall grid"
        steps.extend(unit_segments(points, fab.cell_size))
    walls, bound = closed_walls_and_bound(maze)
    assert len(steps) == len(set(steps)) == walls  # each wall once: no duplicate, no overlap
    total = sum(np.abs(np.diff(np.vstack([p, p[:1]]) if c else p, axis=0)).sum() for p, c in strokes)
    assert total == pytest.approx(walls * fab.cell_size, abs=1e-6)
    assert len(strokes) <= 1.1 * bound


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.integers(1, 10),
    cols=st.integers(1, 10),
    seed=st.integers(0, 2**32),
    kerf=st.sampled_from([0.0, 0.1, 0.15, 0.3]),
    margin=st.sampled_from([0.0, 5.0]),
)
def test_outline_is_the_footprint_grown_by_half_the_kerf(
    rows: int, cols: int, seed: int, kerf: float, margin: float
) -> None:
    maze = laby3d.generate(rows, cols, seed=seed)
    fab = Fabrication(margin=margin)
    options = ExportOptions(fabrication=fab, laser=LaserOptions(mode="outline", kerf=kerf))
    page = parse_svg(render_output(maze, "m.svg", options))
    rings = [(points, "outer") for points, _ in page["layers"]["outer-cut"]]
    rings += [(points, "inner") for points, _ in page["layers"].get("inner-cut", [])]
    expected = footprint_from_boxes(maze, fab).buffer(kerf / 2, join_style="mitre", mitre_limit=10)
    # back to the footprint frame: y up, origin at the grown footprint's corner
    x0, y0, _, y1 = expected.bounds
    shells, holes = [], []
    for points, kind in rings:
        assert all(c for _, c in page["layers"]["outer-cut"])
        flipped = np.column_stack([points[:, 0] + x0, (y1 - y0) - points[:, 1] + y0])
        area = signed_area(flipped)
        (shells if kind == "outer" else holes).append(shapely.Polygon(flipped))
        assert (area > 0) == (kind == "outer"), "outer rings counter-clockwise, holes clockwise"
    drawn = shapely.union_all(shells).difference(shapely.union_all(holes)) if holes else shapely.union_all(shells)
    assert drawn.symmetric_difference(expected).area < 1e-6
    for polygon in shells:  # every edge sits exactly kerf/2 outside the footprint
        for a, b in zip(polygon.exterior.coords[:-1], polygon.exterior.coords[1:], strict=True):
            middle = shapely.Point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            assert footprint_from_boxes(maze, fab).boundary.distance(middle) == pytest.approx(kerf / 2, abs=1e-6)


@pytest.mark.parametrize("top", [False, True])
@pytest.mark.parametrize(("size", "sheet"), [((6, 8), (600.0, 400.0)), ((15, 15), (200.0, 200.0))])
def test_stack_parts_do_not_overlap_and_stay_on_their_sheets(size, sheet, top: bool) -> None:
    maze = laby3d.generate(*size, seed=3)
    page = svg_of(maze, mode="stack", sheet=sheet, top=top, kerf=0.2)
    outers = [shapely.Polygon(points) for points, _ in page["layers"]["outer-cut"]]
    parts = 1 + 2 + top  # base, two wall pieces (entrance and exit cut the border), top
    assert len(outers) == parts
    for a, b in combinations(outers, 2):
        assert a.intersection(b).area == pytest.approx(0, abs=1e-9)
    sheet_count = round((page["height"] + 10) / (sheet[1] + 10))
    sheets = [shapely.box(0, k * (sheet[1] + 10), sheet[0], k * (sheet[1] + 10) + sheet[1]) for k in range(sheet_count)]
    for outer in outers:
        assert any(s.contains(outer) for s in sheets)
    assert page["layers"]["engrave"], "the solution is engraved on the base"
    assert (page["layers"].get("inner-cut") is not None) == top  # the ball hole


def test_layers_order_colours_and_palettes() -> None:
    maze = laby3d.generate(5, 5, seed=1)
    page = svg_of(maze, mode="stack", top=True, reference_square=True)
    assert page["order"] == ["notes (not cut)", *[op for op in OPERATIONS if op != "score"]]
    assert not page["text"]
    boxes = render_output(maze, "m.svg", ExportOptions(palette="boxes", laser=LaserOptions(mode="stack", top=True)))
    assert b'stroke="#000000"' in boxes and b'stroke="#0000ff"' in boxes and b'stroke="#00ff00"' in boxes


@pytest.mark.parametrize("mode", ["lines", "outline", "stack"])
def test_golden_svg(golden, mode: str) -> None:
    maze = laby3d.generate(4, 5, algorithm="wilson", seed=11)
    data = render_output(maze, "m.svg", ExportOptions(laser=LaserOptions(mode=mode, top=True)))
    golden(f"laser_{mode}_4x5_seed11.svg", data.decode())


@pytest.mark.parametrize("mode", ["lines", "outline", "stack"])
def test_rsvg_renders_every_mode(tmp_path: Path, mode: str) -> None:
    rsvg = require_tool("rsvg-convert")
    from PIL import Image

    svg = tmp_path / "m.svg"
    svg.write_bytes(
        render_output(laby3d.generate(8, 10, seed=2), str(svg), ExportOptions(laser=LaserOptions(mode=mode)))
    )
    png = tmp_path / "m.png"
    done = subprocess.run(
        [rsvg, "--dpi-x", "300", "--dpi-y", "300", "-b", "white", "-o", str(png), str(svg)], capture_output=True
    )
    assert done.returncode == 0, done.stderr
    pixels = np.asarray(Image.open(png).convert("L"))
    assert pixels.min() < 200, "blank rendering"


@pytest.mark.parametrize("mode", ["lines", "outline", "stack"])
def test_dxf_is_millimetres_with_layers_and_audits_clean(tmp_path: Path, mode: str) -> None:
    import ezdxf

    maze = laby3d.generate(6, 7, seed=4)
    options = ExportOptions(laser=LaserOptions(mode=mode, top=True))
    path = tmp_path / "m.dxf"
    path.write_bytes(render_output(maze, str(path), options))
    assert render_output(maze, str(path), options) == path.read_bytes()  # reproducible
    document = ezdxf.readfile(path)
    assert document.header["$INSUNITS"] == 4
    auditor = document.audit()
    assert not auditor.has_errors, [str(e) for e in auditor.errors]
    layers = {entity.dxf.layer for entity in document.modelspace()}
    assert "CUT" in layers and layers <= {"CUT", "SCORE", "ENGRAVE"}


def test_bad_laser_parameters(tmp_path: Path) -> None:
    import sys

    for flags, message in [
        (["--kerf", "-1"], "laser.kerf"),
        (["--sheet", "big"], "sheet must look like WxH"),
        (["--laser-mode", "stack", "--sheet", "50x50"], "too small for the base part"),
    ]:
        result = subprocess.run(
            [sys.executable, "-m", "laby3d", "generate", "--seed", "1", *flags, "-o", "m.svg"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )
        assert result.returncode == 2 and message in result.stderr, result.stderr
        assert not (tmp_path / "m.svg").exists()


def test_label_is_engraved_as_outlines() -> None:
    maze = laby3d.generate(5, 6, seed=9)
    for mode in ("lines", "stack"):
        page = svg_of(maze, mode=mode, label="Chloé", top=True)
        assert not page["text"]
        rings = [points for points, closed in page["layers"]["engrave"] if closed]
        assert len(rings) >= 10  # the letters of "Chloé · seed 9", holes included
        assert all(0 <= p[:, 0].min() and p[:, 0].max() <= page["width"] for p in rings)
