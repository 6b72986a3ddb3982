"""The printable solid of square mazes, read back from disk: watertight, one body, exact volume
and size (the one solid of every shape: the square grid's posts and walls by formula here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from labelcheck import oracle_ink
from solidcheck import expected_volumes, footprint_area, header_text, load_3mf_parts, load_stl, plate_area

import laby3d
from laby3d.export.meshes import glb_bytes, stl_bytes, stl_header, threemf_bytes
from laby3d.geometry.params import Fabrication
from laby3d.geometry.plan import maze_plan
from laby3d.maze.algorithms import ALGORITHMS
from laby3d.mesh.marks import MARKERS
from laby3d.mesh.solid import SolidOptions, maze_solid

fabrications = st.builds(
    Fabrication,
    cell_size=st.sampled_from([6.0, 10.0, 12.5]),
    wall_thickness=st.sampled_from([1.2, 1.6, 2.0]),
    wall_height=st.sampled_from([4.0, 8.0]),
    base_thickness=st.sampled_from([1.6, 2.0, 3.0]),
    margin=st.sampled_from([0.0, 4.0]),
)


def solid_bytes(maze, suffix: str, fab: Fabrication | None = None, options: SolidOptions | None = None) -> bytes:
    """The STL, 3MF or GLB of ``maze``'s solid, as the exporters write it."""
    fab = fab or Fabrication()
    solid = maze_solid(maze, fab, options or SolidOptions())
    header = stl_header(maze, solid.body, fab)
    writers = {
        ".stl": lambda: stl_bytes(solid.body, header),
        ".3mf": lambda: threemf_bytes(solid, header.strip()),
        ".glb": lambda: glb_bytes(solid),
    }
    return writers[suffix]()


def write(tmp_path: Path, maze, name: str, fab: Fabrication | None = None, options: SolidOptions | None = None) -> Path:
    path = tmp_path / name
    path.write_bytes(solid_bytes(maze, path.suffix, fab, options))
    return path


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rows=st.integers(1, 12),
    cols=st.integers(1, 12),
    seed=st.integers(0, 2**32),
    fab=fabrications,
    solution=st.sampled_from(["none", "groove", "ridge"]),
    placement=st.sampled_from(["corners", "hardest", "center"]),
)
def test_stl_and_3mf_read_back_are_sound_and_exact(
    tmp_path: Path, algorithm: str, rows: int, cols: int, seed: int, fab: Fabrication, solution: str, placement: str
) -> None:
    maze = laby3d.generate(rows, cols, algorithm=algorithm, seed=seed, placement=placement)
    solid = SolidOptions(solution=solution)
    width = round(0.4 * fab.corridor_width, 3)  # 40 % of the corridor unless asked
    expected = expected_volumes(maze, fab, solution, width, solid.solution_depth)

    mesh = load_stl(write(tmp_path, maze, "m.stl", fab, solid))
    assert mesh.is_watertight and mesh.is_winding_consistent
    assert len(mesh.split(only_watertight=False)) == 1
    assert mesh.volume == pytest.approx(expected["body"], rel=1e-6)
    extra = fab.wall_thickness + 2 * fab.margin
    plate_w, plate_d = cols * fab.cell_size + extra, rows * fab.cell_size + extra
    assert np.allclose(mesh.bounds[0], 0, atol=1e-4)
    assert np.allclose(mesh.bounds[1], [plate_w, plate_d, fab.height], atol=1e-4)
    assert (mesh.area_faces > 1e-6).all()

    parts = load_3mf_parts(write(tmp_path, maze, "m.3mf", fab, solid))
    assert set(parts) == set(expected) - {"body"}
    for name, part in parts.items():
        assert part.is_watertight and part.is_winding_consistent, name
        assert part.volume == pytest.approx(expected[name], rel=1e-6), name


@pytest.mark.parametrize("size", [(1, 1), (1, 9), (9, 1), (25, 30)])
def test_walls_only_and_thin_mazes(tmp_path: Path, size: tuple[int, int]) -> None:
    """Walls without a base: one body when the entrance is inside (``center``), the walls'
    volume; refused up front when the entrance and the exit cut the outline in two (issue 28)."""
    fab = Fabrication(base_thickness=0)
    with pytest.raises(laby3d.ParameterError, match="separate pieces") as caught:
        maze_solid(laby3d.generate(*size, seed=3), fab)
    assert caught.value.field == "base_thickness"
    maze = laby3d.generate(*size, seed=3, placement="center")
    mesh = load_stl(write(tmp_path, maze, "w.stl", fab))
    assert mesh.is_watertight and mesh.is_winding_consistent
    # Thin walls alone: STL's float32 coordinates (±1.5e-5 mm at 250 mm) bound the relative error
    # to about 1e-5; the float64 mesh is exact.
    assert mesh.volume == pytest.approx(fab.wall_height * footprint_area(maze, fab), rel=1e-5)
    exact = maze_solid(maze, fab).body.volume()
    assert exact == pytest.approx(fab.wall_height * footprint_area(maze, fab), rel=1e-12)
    assert len(mesh.split(only_watertight=False)) == 1


def test_large_solid_is_sound() -> None:
    """Big plates are triangulated in chunks; the body must still be one exact closed solid."""
    maze = laby3d.generate(150, 140, algorithm="wilson", seed=1)
    fab = Fabrication(cell_size=4, wall_thickness=1.2, wall_height=3, base_thickness=1.2)
    body = maze_solid(maze, fab, SolidOptions(solution="groove")).body
    assert body.is_closed()
    import trimesh

    mesh = trimesh.Trimesh(body.vertices, body.faces)
    assert mesh.is_watertight and len(mesh.split(only_watertight=False)) == 1
    width = round(0.4 * fab.corridor_width, 3)
    expected = expected_volumes(maze, fab, "groove", width, 0.6)["body"]
    assert mesh.volume == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize("placement", ["corners", "hardest", "center", "opposite-sides"])
def test_the_plan_of_a_square_maze_has_a_post_on_every_lattice_point(placement: str) -> None:
    """The plan's walls have the canonical footprint's area (a post per lattice point, beside the
    openings too, and a rectangle per closed wall); with the posts the corridors are one polygon,
    no hole; walls and floor tile the plate."""
    maze = laby3d.generate(14, 17, algorithm="prim", seed=2, placement=placement)
    for fab in (Fabrication(), Fabrication(margin=4, wall_thickness=2.4)):
        plan = maze_plan(maze, fab)
        walls, floor = plan.walls.geometry(), plan.floor.geometry()
        assert walls.is_valid and floor.is_valid
        assert walls.area == pytest.approx(footprint_area(maze, fab), rel=1e-12)
        openings = sum(opening.side is not None for opening in (maze.entrance, maze.exit))
        assert len(walls.geoms) == openings  # each opening in the border cuts it
        assert (fab.margin > 0) == (len(floor.geoms[0].interiors) > 0) and len(floor.geoms) == 1
        assert walls.union(floor).area == pytest.approx(plate_area(maze, fab))
        assert walls.intersection(floor).area == pytest.approx(0, abs=1e-9)


def test_stl_header_and_bytes_are_reproducible(tmp_path: Path) -> None:
    maze = laby3d.generate(6, 7, algorithm="wilson", seed=12)
    first = write(tmp_path, maze, "a.stl")
    header = header_text(first)
    assert header.startswith("laby3d") and "seed 12" in header and "6x7" in header and "71.6x61.6x10 mm" in header
    again = laby3d.generate(6, 7, algorithm="wilson", seed=12)
    for suffix in (".stl", ".3mf", ".glb"):
        ridge = SolidOptions(solution="ridge")
        assert solid_bytes(maze, suffix, options=ridge) == solid_bytes(again, suffix, options=ridge), suffix
    normals = np.frombuffer(first.read_bytes()[84:], dtype=np.dtype([("n", "<f4", 3), ("v", "<f4", 9), ("a", "<u2")]))
    assert np.allclose(np.linalg.norm(normals["n"], axis=1), 1, atol=1e-6)


def test_triangle_budget_at_100x100() -> None:
    """At most 7.5 triangles per cell (OpenSCAD's CGAL union has 7.1, a union of boxes 18)."""
    maze = laby3d.generate(100, 100, seed=1)
    assert len(maze_solid(maze).body.faces) / 10_000 <= 7.5


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--wall-thickness", "10"], "--wall-thickness must be < cell_size (10 mm)"),
        (["--cell-size", "-2"], "--cell-size must be >= 1"),
        (["--wall-height", "inf"], "--wall-height must be a finite number"),
        (["--base-thickness", "0", "--margin", "5"], "margin needs a base plate"),
        (["--wall-thickness", "0.3"], "thinner than the nozzle"),
        (["--solution", "groove", "--solution-depth", "1.9"], "--solution-depth of a groove must be in (0, 1.6]"),
        (["--solution", "ridge", "--solution-width", "9"], "--solution-width must be > 0 and < the corridor width"),
        (["--printer", "prusa-xl"], "printer must be one of"),
        (["--bed", "200"], "bed must look like WxD"),
        (["--cell-size", "1900", "--rows", "4"], "at most 5000 mm per side"),
    ],
)
def test_invalid_parameters_one_line_and_no_file(tmp_path: Path, flags: list[str], message: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "laby3d", "generate", "--seed", "1", *flags, "-o", "m.stl", "-o", "m.3mf"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == []


def test_cli_writes_solids_and_report(tmp_path: Path) -> None:
    import json

    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "laby3d",
            "generate",
            "--rows",
            "30",
            "--cols",
            "30",
            "--seed",
            "1",
            "--printer",
            "mini",
            "--ball",
            "8",
            "-o",
            "m.stl",
            "-o",
            "m.3mf",
            "-o",
            "m.glb",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads((tmp_path / "m.printability.json").read_text())
    assert report["watertight"] and report["bodies"] == 1 and not report["printer"]["fits"]
    assert report["printer"]["largest_cell_size_mm"] == 5.7  # (180 − 2 × 3 skirt − 1.6) / 30, floored to 0.1 mm
    assert report["mass_g_pla"] == pytest.approx(report["volume_mm3"] / 1000 * 1.24, abs=0.01)
    assert "8.5 mm" in result.stdout + result.stderr  # the ball's corridor
    assert (tmp_path / "m.glb").read_bytes()[:4] == b"glTF"


@pytest.mark.parametrize("mode", ["engrave", "emboss"])
def test_label_on_the_margin_keeps_the_solid_sound(tmp_path: Path, mode: str) -> None:
    maze = laby3d.generate(9, 11, seed=6)
    fab = Fabrication(margin=7)
    options = SolidOptions(label="Dmitri ß 42", label_mode=mode)
    mesh = load_stl(write(tmp_path, maze, "label.stl", fab, options))
    assert mesh.is_watertight and mesh.is_winding_consistent and len(mesh.split(only_watertight=False)) == 1
    placement = maze_solid(maze, fab, options).label_placement
    assert placement is not None and (placement.side, placement.mode) == ("margin", mode)
    ink = oracle_ink("Dmitri ß 42", placement.font_size)  # matplotlib's text, not laby3d's
    assert ink.area > 40
    unlabelled = plate_area(maze, fab) * fab.base_thickness + fab.wall_height * footprint_area(maze, fab)
    label_volume = (0.6 if mode == "emboss" else -0.6) * ink.area
    assert mesh.volume - unlabelled == pytest.approx(label_volume, rel=3e-3)  # the oracle's curves differ a little
    parts = load_3mf_parts(write(tmp_path, maze, "label.3mf", fab, options))
    assert ("label" in parts) == (mode == "emboss")
    for name, part in parts.items():
        assert part.is_watertight, name


def test_label_without_margin_goes_under_the_base(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "laby3d", "generate", "--seed", "1", "--label", "Ana", "-o", "m.stl"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    mesh = load_stl(tmp_path / "m.stl")
    assert mesh.is_watertight and len(mesh.split(only_watertight=False)) == 1
    plain = load_stl(write(tmp_path, laby3d.generate(15, 15, seed=1), "plain.stl"))
    assert plain.volume - mesh.volume > 10  # the engraving: 0.6 mm deep letters of 10 mm capitals
    with pytest.raises(laby3d.ParameterError, match="does not fit"):
        maze_solid(laby3d.generate(2, 2, seed=1), Fabrication(margin=6), SolidOptions(label="x" * 60))


@pytest.mark.parametrize("placement", ["corners", "hardest", "center"])
def test_opening_markers_are_engraved_arrows(tmp_path: Path, placement: str) -> None:
    maze = laby3d.generate(7, 9, seed=3, placement=placement)
    fab = Fabrication(margin=6)
    mesh = load_stl(write(tmp_path, maze, "markers.stl", fab, SolidOptions(markers=True)))
    assert mesh.is_watertight and len(mesh.split(only_watertight=False)) == 1
    arrows = 1 if placement == "center" else 2  # a centred entrance has no arrow
    assert len(set(maze_solid(maze, fab, SolidOptions(markers=True)).marks.boxes) & set(MARKERS)) == arrows
    # An arrow is a triangle as long as it is wide: min(margin − 2, 0.8 corridor, 8 mm) = 4 mm here.
    side = min(fab.margin - 2, 0.8 * fab.corridor_width, 8.0)
    expected = plate_area(maze, fab) * fab.base_thickness + fab.wall_height * footprint_area(maze, fab)
    expected -= 0.6 * arrows * side * side / 2
    assert mesh.volume == pytest.approx(expected, rel=1e-6)


@settings(max_examples=40, deadline=None)
@given(
    rows=st.integers(1, 12),
    cols=st.integers(1, 12),
    seed=st.integers(0, 2**32),
    algorithm=st.sampled_from(sorted(ALGORITHMS)),
    placement=st.sampled_from(["corners", "hardest", "center", "opposite-sides"]),
    margin=st.sampled_from([4.0, 6.0, 8.0]),
    solution=st.sampled_from(["none", "groove", "ridge"]),
    label=st.sampled_from([None, "Ana", "Zoë 12"]),
    label_mode=st.sampled_from(["engrave", "emboss"]),
    markers=st.booleans(),
)
@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_marks_in_any_combination_keep_every_mesh_closed(
    rows, cols, seed, algorithm, placement, margin, solution, label, label_mode, markers
) -> None:
    """Label, arrows and solution together (found a crash in ring grouping once): either a
    clear refusal or closed meshes whose parts add up to the body."""
    maze = laby3d.generate(rows, cols, algorithm=algorithm, seed=seed, placement=placement)
    fab = Fabrication(margin=margin, wall_thickness=1.2)
    options = SolidOptions(solution=solution, label=label, label_mode=label_mode, markers=markers)
    try:
        solid = maze_solid(maze, fab, options)
        body = solid.body
    except laby3d.ParameterError as error:
        assert "margin" in str(error) or "label" in str(error) or "overlap" in str(error)
        return
    assert body.is_closed() and (body.face_areas() > 1e-9).all()
    assert all(part.is_closed() for part in solid.parts.values())
    parts_volume = sum(part.volume() for part in solid.parts.values())
    assert parts_volume == pytest.approx(body.volume(), rel=1e-9)


def test_single_glyph_embossed_label_is_not_inside_out(tmp_path: Path) -> None:
    """One polygon (not a MultiPolygon) must be oriented too: its 3MF part has positive volume."""
    import shapely

    from laby3d.mesh.planar import extrude_polygons

    clockwise = shapely.Polygon([(0, 0), (0, 1), (1, 1), (1, 0)])
    assert extrude_polygons(clockwise, 0, 2).volume() == pytest.approx(2)
    maze = laby3d.generate(4, 4, seed=2)
    options = SolidOptions(label="I", label_mode="emboss")
    parts = load_3mf_parts(write(tmp_path, maze, "i.3mf", Fabrication(margin=6), options))
    assert parts["label"].is_watertight and parts["label"].volume > 0


def test_markers_are_refused_up_front_without_room() -> None:
    with pytest.raises(laby3d.ParameterError, match="markers need margin >= 4 mm"):
        SolidOptions(markers=True).check_sizes(Fabrication(margin=2))
