"""Solids of theta, hex and triangle mazes (and square ones through the same code): the footprint
is the union of its pieces, the STL read back is one closed body of the analytic volume, the parts
add up, balls roll through the narrowest passage, the strip keeps off the walls, and the report
speaks of the shape."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapedcheck import (
    SHAPED_CASES,
    ball_rolls,
    body_count,
    edge_problems,
    footprint_pieces,
    plate_area,
    read_stl,
    shaped_case,
    stl_volume,
    strip_area,
)
from solidcheck import load_3mf_parts, path_strip
from test_shaped_pictures import expected_walls, file_of, same_segments

import laby3d
from laby3d.cli import main
from laby3d.errors import ParameterError
from laby3d.export.meshes import glb_bytes, stl_bytes, stl_header, threemf_bytes
from laby3d.geometry.params import Fabrication
from laby3d.geometry.passages import narrowest_passage
from laby3d.geometry.plan import maze_plan, plate_size
from laby3d.maze.walls import closed_walls
from laby3d.mesh.solid import STRIP_SHARES, SolidOptions, maze_solid, strip_width

SHAPES = {"theta": (7,), "hex": (6, 7), "triangle": (6, 7)}
PLACEMENTS = ["corners", "hardest", "center", "opposite-sides"]


@pytest.mark.parametrize("shape", [*SHAPES, "square"])
@pytest.mark.parametrize(("wall", "margin"), [(1.2, 0.0), (3.0, 0.0), (1.6, 4.0)])
def test_footprint_is_the_union_of_its_pieces(shape: str, wall: float, margin: float) -> None:
    """The plan's wall polygons have the area of GEOS's union of rectangles, joins, caps and cuts;
    walls and floor tile the plate (a regular polygon, or the walls' box grown by the margin)."""
    size = SHAPES.get(shape, (6, 7))
    fab = Fabrication(wall_thickness=wall, margin=margin)
    for seed, placement in enumerate(PLACEMENTS):
        maze = laby3d.generate(*size, shape=shape, seed=seed, placement=placement)
        plan = maze_plan(maze, fab)
        pieces = footprint_pieces(maze, fab)
        walls, floor = plan.walls.geometry(), plan.floor.geometry()
        plate = shapely.Polygon(plan.points[plan.plate])
        assert walls.is_valid and floor.is_valid and plate.is_valid
        assert walls.area == pytest.approx(pieces.area, rel=1e-8)
        assert plate.area == pytest.approx(plate_area(maze, fab, pieces), rel=1e-9)
        assert walls.union(floor).area == pytest.approx(plate.area, rel=1e-12)
        assert walls.intersection(floor).area == pytest.approx(0, abs=1e-6)
        assert (plan.width, plan.depth) == pytest.approx(plate_size(shape, maze.rows, maze.cols, fab), abs=1e-9)


def test_a_wall_between_two_openings_ends_at_the_outlines_inner_offset() -> None:
    """Entrance and exit side by side on a triangle maze's top edge (found by hypothesis): the
    wall standing on the vertex between them is cut along the outline's inner offset, askew to
    it, as the union of its pieces says."""
    maze = laby3d.generate(6, 7, shape="triangle", seed=10383463, algorithm="kruskal", placement="hardest")
    shaped = maze
    entrance, exit_ = (shaped.boundary_wall_of(opening) for opening in (shaped.entrance, shaped.exit))
    assert entrance is not None and exit_ is not None and abs(entrance - exit_) == 1
    fab = Fabrication(cell_size=8.0, wall_thickness=1.2, wall_height=4.0, base_thickness=1.6)
    assert maze_plan(shaped, fab).walls.geometry().area == pytest.approx(footprint_pieces(shaped, fab).area, rel=1e-9)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_footprints_walls_are_the_files_closed_walls(shape: str) -> None:
    """The walls :func:`footprint_pieces` (and the plan) thicken, laby3d's closed walls, are those
    the maze file says are closed (every neighbour pair not among its passages, the outline but
    the openings: worked out here from the file)."""
    for seed, placement in enumerate(PLACEMENTS):
        maze = laby3d.generate(*SHAPES[shape], shape=shape, seed=seed, placement=placement)
        vertices = maze.tessellation.vertices
        segments = [vertices[pair] for pair in closed_walls(maze).segments().tolist()]
        same_segments(segments, expected_walls(file_of(maze)))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("shape", "size"),
    [("theta", (20,)), ("theta", (40,)), ("theta", (100,)), ("hex", (100, 100)), ("triangle", (100, 100))],
)
def test_large_footprints_are_exact(shape: str, size: tuple[int, ...]) -> None:
    maze = laby3d.generate(*size, shape=shape, seed=1)
    fab = Fabrication()
    plan = maze_plan(maze, fab)
    assert plan.walls.geometry().is_valid and plan.floor.geometry().is_valid
    assert plan.walls.geometry().area == pytest.approx(footprint_pieces(maze, fab).area, rel=1e-8)


def _write_stl(tmp_path: Path, maze, fab: Fabrication, options: SolidOptions) -> Path:
    solid = maze_solid(maze, fab, options)
    path = tmp_path / "m.stl"
    path.write_bytes(stl_bytes(solid.body, stl_header(maze, solid.body, fab)))
    return path


def expected_volume(maze, fab: Fabrication, options: SolidOptions) -> float:
    """Walls (pieces' area × height) + plate × base ± strip × depth, mm³."""
    pieces = footprint_pieces(maze, fab)
    volume = pieces.area * fab.wall_height + plate_area(maze, fab, pieces) * fab.base_thickness
    width = strip_width(options, fab, maze.shape, maze.rows)
    if width is not None:
        sign = -1 if options.solution == "groove" else 1
        area = path_strip(maze, fab, width).area if maze.shape == "square" else strip_area(maze, fab, width)
        volume += sign * area * options.solution_depth
    return volume


@pytest.mark.parametrize("shape", [*SHAPES, "square"])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**32),
    algorithm=st.sampled_from(["kruskal", "backtracker", "wilson", "prim"]),
    placement=st.sampled_from(PLACEMENTS),
    fab=st.builds(
        Fabrication,
        cell_size=st.sampled_from([8.0, 10.0, 12.5]),
        wall_thickness=st.sampled_from([1.2, 1.6, 2.0]),
        wall_height=st.sampled_from([4.0, 8.0]),
        base_thickness=st.sampled_from([1.6, 2.0]),
        margin=st.sampled_from([0.0, 3.0]),
    ),
    solution=st.sampled_from(["none", "groove", "ridge"]),
)
@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_stl_read_back_is_one_closed_body_of_the_analytic_volume(
    tmp_path: Path, shape: str, seed: int, algorithm: str, placement: str, fab: Fabrication, solution: str
) -> None:
    maze = laby3d.generate(*SHAPES.get(shape, (6, 7)), shape=shape, seed=seed, algorithm=algorithm, placement=placement)
    options = SolidOptions(solution=solution)
    points, triangles = read_stl(_write_stl(tmp_path, maze, fab, options))
    assert edge_problems(triangles) == 0
    assert body_count(triangles) == 1
    # float32 corners: the volume within 1e-6 (the float64 mesh is exact to 1e-9)
    assert stl_volume(points, triangles) == pytest.approx(expected_volume(maze, fab, options), rel=1e-6)
    assert maze_solid(maze, fab, options).body.volume() == pytest.approx(expected_volume(maze, fab, options), rel=1e-9)
    low, high = points.min(axis=0), points.max(axis=0)
    assert low == pytest.approx([0, 0, 0], abs=1e-4)
    assert high == pytest.approx([*plate_size(shape, maze.rows, maze.cols, fab), fab.height], abs=1e-4)


@pytest.mark.parametrize("shape", [*SHAPES, "square"])
@pytest.mark.parametrize("placement", PLACEMENTS)
def test_walls_alone_are_one_body_or_refused(tmp_path: Path, shape: str, placement: str) -> None:
    """Without a base the walls stand apart where two openings cut the outline: refused up front,
    naming the base; one body where the entrance is inside (placement center, theta's centre),
    of the walls' volume (issue 28: a base-less hex or triangle solid was 2 bodies)."""
    maze = laby3d.generate(*SHAPES.get(shape, (6, 7)), shape=shape, seed=3, placement=placement)
    fab = Fabrication(base_thickness=0)
    if sum(opening.side is not None for opening in (maze.entrance, maze.exit)) > 1:
        with pytest.raises(ParameterError, match="separate pieces") as caught:
            maze_solid(maze, fab, SolidOptions())
        assert caught.value.field == "base_thickness"
        return
    points, triangles = read_stl(_write_stl(tmp_path, maze, fab, SolidOptions()))
    assert edge_problems(triangles) == 0 and body_count(triangles) == 1
    assert stl_volume(points, triangles) == pytest.approx(footprint_pieces(maze, fab).area * fab.wall_height, rel=1e-5)


@pytest.mark.parametrize("case", SHAPED_CASES)
def test_3mf_parts_are_closed_and_add_up_to_the_body(tmp_path: Path, case: str) -> None:
    maze, solid = shaped_case(case)
    path = tmp_path / "m.3mf"
    path.write_bytes(threemf_bytes(solid, "t"))
    parts = load_3mf_parts(path)
    assert list(parts) == list(solid.parts)
    for name, part in parts.items():
        assert part.is_watertight and part.is_winding_consistent, name
    assert sum(part.volume for part in parts.values()) == pytest.approx(solid.body.volume(), rel=1e-6)
    assert parts["walls"].volume == pytest.approx(
        footprint_pieces(maze, solid.fab).area * solid.fab.wall_height, rel=1e-6
    )


@pytest.mark.parametrize("case", SHAPED_CASES)
def test_glb_is_y_up_in_metres_with_a_material_per_part(tmp_path: Path, case: str) -> None:
    """A glTF viewer (trimesh applying the node transforms) sees the plate in x–z and the height
    along y, in metres; one mesh per part, each closed, with its part's name as material."""
    import trimesh

    _, solid = shaped_case(case)
    path = tmp_path / "m.glb"
    path.write_bytes(glb_bytes(solid))
    scene = trimesh.load(path)
    low, high = scene.bounds
    width, depth, height = (solid.body.bounds()[1] - solid.body.bounds()[0]).tolist()
    assert high - low == pytest.approx([width / 1000, height / 1000, depth / 1000], abs=1e-6)
    assert low[1] == pytest.approx(0.0, abs=1e-9)
    meshes = list(scene.dump())
    assert sorted(mesh.visual.material.name for mesh in meshes) == sorted(solid.parts)
    assert all(mesh.is_watertight for mesh in meshes)


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@pytest.mark.parametrize("shape", [*SHAPES, "square"])
def test_balls_roll_through_the_narrowest_passage(shape: str) -> None:
    """A ball just under :func:`narrowest_passage` reaches every cell; one just over it is stuck
    somewhere in one maze of a few at least (the formula is the real bottleneck)."""
    size = SHAPES.get(shape, (6, 7))
    for wall in (1.6, 3.0):
        fab = Fabrication(wall_thickness=wall)
        passage = narrowest_passage(shape, fab, size[0])
        mazes = [laby3d.generate(*size, shape=shape, seed=seed) for seed in range(6)]
        assert all(ball_rolls(maze, fab, passage - 0.01) for maze in mazes)
        if wall == 1.6:
            assert not all(ball_rolls(maze, fab, passage + 0.1) for maze in mazes)


def test_hex_passages_are_narrower_than_the_corridor() -> None:
    fab = Fabrication()
    assert narrowest_passage("hex", fab) == pytest.approx(10 / math.sqrt(3) - (1 + math.sqrt(3)) / 2 * 1.6)
    assert narrowest_passage("hex", fab) < 3.6 < fab.corridor_width


@pytest.mark.parametrize("shape", [*SHAPES, "square"])
@pytest.mark.parametrize("wall", [1.0, 1.6, 3.0])
def test_the_widest_strip_keeps_off_the_walls(shape: str, wall: float) -> None:
    """The widest strip asked for (a square grid's: 95 % of the corridor) stays clear of the walls."""
    fab = Fabrication(wall_thickness=wall)
    size = SHAPES.get(shape, (6, 7))
    share = min(STRIP_SHARES.get(shape, STRIP_SHARES["any"]), 0.95)
    width = share * narrowest_passage(shape, fab, size[0])
    for seed in range(3):
        for placement in PLACEMENTS:
            maze = laby3d.generate(*size, shape=shape, seed=seed, placement=placement)
            solid = maze_solid(maze, fab, SolidOptions(solution="ridge", solution_width=width))
            assert solid.strip is not None
            strip = shapely.Polygon(solid.strip)
            assert strip.is_valid
            assert strip.distance(solid.plan.walls.geometry()) > 0.05


def test_theta_40_rings_stays_within_40_triangles_a_cell() -> None:
    maze = laby3d.generate(40, shape="theta", seed=1)
    solid = maze_solid(maze, Fabrication(), SolidOptions())
    assert len(solid.body.faces) / maze.cell_count <= 40


@pytest.mark.parametrize("case", SHAPED_CASES)
def test_bytes_are_reproducible(case: str) -> None:
    first, second = shaped_case(case)[1], shaped_case(case)[1]
    assert stl_bytes(first.body, "h".ljust(80)) == stl_bytes(second.body, "h".ljust(80))
    assert threemf_bytes(first, "t") == threemf_bytes(second, "t")
    assert glb_bytes(first) == glb_bytes(second)


@pytest.mark.parametrize("shape", SHAPES)
def test_cli_writes_the_solids_and_the_report(tmp_path: Path, capsys, shape: str) -> None:
    size = ["--rows", "8"] + ([] if shape == "theta" else ["--cols", "9"])
    code = main(
        ["generate", "--shape", shape, *size, "--seed", "5", "--printer", "mini", "--ball", "3"]
        + [item for name in ("m.stl", "m.3mf", "m.glb") for item in ("-o", str(tmp_path / name))]
    )
    assert code == 0, capsys.readouterr().err
    report = json.loads((tmp_path / "m.printability.json").read_text())
    assert report["shape"] == shape and report["watertight"] and report["bodies"] == 1
    assert report["cells"] == laby3d.generate(*([8] if shape == "theta" else [8, 9]), shape=shape, seed=5).cell_count
    assert report["corridor"]["narrowest_passage_mm"] <= report["corridor"]["width_mm"]
    assert report["ball"]["corridor_mm"] == report["corridor"]["narrowest_passage_mm"]
    assert report["print_time"]["seconds"] > 0 and report["mass"]["typical_g"] > 0
    header = (tmp_path / "m.stl").read_bytes()[:80].decode()
    assert header.startswith(f"laby3d maze {shape} ") and "seed 5" in header


def test_a_hex_ball_maze_gets_a_cell_size_its_ball_passes() -> None:
    """The suggestion sizes the cells by the passage between hexagons, not the corridor."""
    maze = laby3d.generate(6, 7, shape="hex", seed=1)
    from laby3d.printability import PrintSettings, printability_report

    fab = Fabrication()
    solid = maze_solid(maze, fab, SolidOptions())
    report = printability_report(maze, fab, solid.body, PrintSettings(printer="mk3", ball=6), solid=solid)
    assert not report["ok"] and "passages between hexagons" in " ".join(report["warnings"])
    cell = report["suggestion"]["changes"]["cell_size"]
    assert narrowest_passage("hex", Fabrication(cell_size=cell)) >= 6.5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--shape", "theta", "--rows", "6", "--label", "Ana", "--label-position", "margin"],
            "a theta maze's margin is a ring",
        ),
        (
            ["--shape", "hex", "--rows", "4", "--cols", "4", "--wall-thickness", "4.5"],
            "closes the passages of a hex maze",
        ),
        (
            ["--shape", "hex", "--rows", "4", "--cols", "4", "--solution", "groove", "--solution-width", "2"],
            "narrowest passage",
        ),
    ],
)
def test_refusals_are_one_line(tmp_path: Path, capsys, args: list[str], message: str) -> None:
    code = main(["generate", *args, "--seed", "1", "-o", str(tmp_path / "m.stl")])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert list(tmp_path.iterdir()) == []


def test_a_hex_solid_beyond_the_memory_budget_is_refused_up_front(tmp_path: Path, capsys) -> None:
    code = main(["generate", "--shape", "hex", "--rows", "600", "--cols", "600", "-o", str(tmp_path / "m.stl")])
    err = capsys.readouterr().err
    assert (
        code == 2 and "--rows 600 with cols 600: the stl would take about" in err and len(err.strip().splitlines()) == 1
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("shape", "size", "placement", "seed"),
    [("hex", (6, 7), "hardest", 447002176), ("triangle", (6, 4), "corners", 498443338)],
)
def test_arrows_beside_openings_set_in_the_board_edge_fit_on_a_wide_margin(
    shape: str, size: tuple[int, int], placement: str, seed: int
) -> None:
    """Each arrow's box lies on the plate clear of the walls, beyond its opening (away from the
    opening's cell), on an 8 mm margin where the neighbouring walls stand out of the outline
    (these two were refused)."""
    maze = laby3d.generate(*size, shape=shape, placement=placement, seed=seed)
    fab = Fabrication(wall_thickness=2.4, margin=8.0)
    solid = maze_solid(maze, fab, SolidOptions(markers=True))
    plate = shapely.Polygon(solid.plan.points[solid.plan.plate])
    walls = solid.plan.walls.geometry()
    tessellation = maze.tessellation
    for opening, box in zip((maze.entrance, maze.exit), solid.marks.boxes.values(), strict=True):
        square = shapely.Polygon(box)
        assert plate.contains_properly(square) and not square.intersects(walls)
        cell = solid.plan.to_plan(tessellation.centres[tessellation.cell_index(opening.row, opening.col)])[0]
        middle = solid.plan.to_plan(tessellation.boundary_midpoints[maze.boundary_wall_of(opening)])[0]
        assert (np.array(square.centroid.coords[0]) - middle) @ (middle - cell) > 0
    assert solid.body.is_closed()


def test_theta_label_goes_under_the_base_with_a_warning() -> None:
    maze = laby3d.generate(6, shape="theta", seed=1)
    solid = maze_solid(maze, Fabrication(margin=8), SolidOptions(label="Ana"))
    placement = solid.label_placement
    assert placement is not None and placement.side == "bottom"
    assert any("margin is a ring" in warning for warning in placement.warnings)
    mark = solid.marks.label
    assert mark is not None
    assert shapely.Polygon(solid.plan.points[solid.plan.plate]).contains(shapely.box(*mark.box))


def test_grid_labels_go_on_the_margin_strip() -> None:
    for shape in ("hex", "triangle"):
        maze = laby3d.generate(5, 6, shape=shape, seed=1)
        solid = maze_solid(maze, Fabrication(margin=8), SolidOptions(label="Ana"))
        assert solid.label_placement is not None and solid.label_placement.side == "margin"
        assert shapely.box(*solid.marks.label.box).distance(solid.plan.walls.geometry()) > 0


def test_shaped_solid_options_are_refused_up_front() -> None:
    with pytest.raises(ParameterError, match="solution_width"):
        maze_solid(
            laby3d.generate(4, 4, shape="hex", seed=1),
            Fabrication(),
            SolidOptions(solution="groove", solution_width=1.9),
        )


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@pytest.mark.parametrize("shape", ["theta", "hex"])
def test_the_classroom_config_runs_with_another_shape(tmp_path: Path, shape: str) -> None:
    """configs/classroom.yaml with ``shape`` (smaller mazes, three names, plates on two MINIs):
    every file of every format it asks for is written, each STL read back by numpy-stl is one
    closed body, and the plates hold every solid."""
    from concurrent.futures import ThreadPoolExecutor

    import yaml

    from laby3d.batch import expand, plate_files, run_batch
    from laby3d.config import load_batch

    data = yaml.safe_load((Path(__file__).parent.parent / "configs" / "classroom.yaml").read_text(encoding="utf-8"))
    data.pop("output_dir")
    data["defaults"]["maze"].update({"shape": shape, "rows": 4} | ({} if shape == "theta" else {"cols": 5}))
    if shape == "theta":
        data["defaults"]["maze"].pop("cols", None)  # a round maze's size is its rings
    data["defaults"]["print"]["printers"] = 2
    class_set, practice = data["jobs"]
    class_set["names"] = class_set["names"][:3]
    class_set["formats"] = [*class_set["formats"], "glb", "png", "plates"]
    practice["maze"] = {"rows": 3}
    config = tmp_path / "classroom.yaml"
    config.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    _, jobs = load_batch(config)
    with ThreadPoolExecutor(1) as pool:
        manifest = run_batch(expand(jobs, tmp_path / "out"), tmp_path / "out", executor=pool)
    assert manifest["failed"] == 0
    assert len(manifest["mazes"]) == 6
    written = sorted(path.name for path in (tmp_path / "out").rglob("*") if path.is_file())
    for suffix in (".maze.json", ".stl", ".3mf", ".glb", ".png", ".worksheet.pdf", ".key.pdf"):
        assert any(name.endswith(suffix) for name in written), suffix
    stls = sorted((tmp_path / "out").rglob("*.stl"))
    assert len(stls) == 3
    for path in stls:
        _, triangles = read_stl(path)
        assert edge_problems(triangles) == 0 and body_count(triangles) == 1
    plates = plate_files(manifest["plates"])
    assert plates and sorted(name for plate in plates for name in plate["mazes"]) == ["Ana", "Ben", "Chloé"]
