"""The walk-through of mazes of every shape (square, theta, hex, triangle): the scene file
(version 5) and its page.

Every check here works from the maze file (its passages) and the cell polygons, with oracles
written here: the closed walls are the outline and the boundaries shared by two cells that no
passage joins (shapely), the route is a breadth-first search over the file's passages, the cell
under a point is shapely's. Never from the scene's walls, the page's code or its hint. The page
runs in real headless Chromium driven by real key events (by physical code) over DevTools; one
browser serves the module.
"""

from __future__ import annotations

import json
import re
from collections import deque
from pathlib import Path

import numpy as np
import pytest
import shapely
from devtools import Browser
from pagecheck import (
    check_arrow,
    near,
    picture,
    press,
    recorded,
    run_node,
    state,
    view,
    write_page,
)
from shapely.geometry import LineString, Polygon
from walkcheck import page_data, pilot

import laby3d
from laby3d.errors import MazeFileError
from laby3d.export.browser import page_html
from laby3d.export.scene import maze_from_scene, read_scene, scene_json
from laby3d.geometry.params import Fabrication
from laby3d.maze.model import Maze
from laby3d.options.walk import WalkSpec

#: A small maze of each shape (rows, cols), and seeds whose solution is a few cells long.
SHAPES = {"square": (5, 6), "theta": (5, None), "hex": (5, 6), "triangle": (4, 9)}
GROUND, START, EXIT = np.array([0x9C, 0xC2, 0x7A]), np.array([0x2F, 0xAE, 0x4F]), np.array([0xE0, 0x40, 0x2A])


def shaped(shape: str, seed: int = 1, size: tuple[int, int | None] | None = None) -> Maze:
    rows, cols = size or SHAPES[shape]
    return laby3d.generate(rows, cols, shape=shape, seed=seed)


def file_passages(maze: Maze) -> list[list[int]]:
    """The open walls as pairs of cell indices, as the maze file states them: version 2's
    ``passages``, or a square maze's (version 1) from its cells' bits read here (E = 2, S = 4;
    cell ``(row, col)`` is ``row · cols + col``)."""
    data = json.loads(maze.to_json())
    if "passages" in data:
        return data["passages"]
    cols, pairs = data["cols"], []
    for row, masks in enumerate(data["cells"]):
        for col, mask in enumerate(masks):
            k = row * cols + col
            pairs += ([[k, k + 1]] if mask & 2 and col + 1 < cols else []) + (
                [[k, k + cols]] if mask & 4 and row + 1 < data["rows"] else []
            )
    return sorted(pairs)


class FileMaze:
    """A maze as its maze file says it (passages, entrance, exit) and its cells as shapely
    polygons in the scene's millimetres, with what the checks need, all worked out here."""

    def __init__(self, maze: Maze, fab: Fabrication) -> None:
        data = json.loads(maze.to_json())
        t = maze.tessellation
        self.fab = fab
        self.cells = [Polygon(t.cell_polygon(c) * fab.cell_size + fab.wall_thickness / 2) for c in range(t.cell_count)]
        self.tree = shapely.STRtree(self.cells)
        self.passages = {tuple(pair) for pair in file_passages(maze)}
        self.index = {t.cell_position(c): c for c in range(t.cell_count)}
        self.entrance = self.index[(data["entrance"]["row"], data["entrance"]["col"])]
        self.exit = self.index[(data["exit"]["row"], data["exit"]["col"])]
        #: the doors: the boundary walls the entrance and the exit open (the maze file's sides)
        self.doors = {
            name: LineString(
                t.boundary_polyline(t.boundary_wall(self.index[(o["row"], o["col"])], o["side"])) * fab.cell_size
                + fab.wall_thickness / 2
            )
            for name, o in (("entrance", data["entrance"]), ("exit", data["exit"]))
            if o["side"] is not None
        }
        self.exit_door = self.doors["exit"]
        self.neighbours: dict[int, list[int]] = {c: [] for c in range(t.cell_count)}
        shared = []
        for a, b in zip(*self.tree.query(self.cells, predicate="touches"), strict=True):
            if a < b:
                line = shapely.line_merge(self.cells[a].intersection(self.cells[b]))
                if line.length > 1e-6:
                    self.neighbours[a].append(b)
                    self.neighbours[b].append(a)
                    if (a, b) not in self.passages:
                        shared.append(line)
        #: the closed walls' centre lines: the outline (doors closed: one leaves through the maze)
        #: and every boundary two cells share without a passage
        self.closed = shapely.union_all([shapely.union_all(self.cells).boundary, *shared])

    def joined(self) -> dict[int, list[int]]:
        """The cells each cell opens into (the maze file's passages)."""
        joined: dict[int, list[int]] = {c: [] for c in self.neighbours}
        for a, b in self.passages:
            joined[a].append(b)
            joined[b].append(a)
        return joined

    def search(self, start: int) -> tuple[dict[int, int], dict[int, int]]:
        """Breadth-first search over the passages from ``start``: steps and parent of each cell."""
        joined = self.joined()
        steps, parent = {start: 0}, {start: start}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            for other in joined[cell]:
                if other not in steps:
                    steps[other], parent[other] = steps[cell] + 1, cell
                    queue.append(other)
        return steps, parent

    def route(self) -> list[int]:
        """The cells from the entrance to the exit, by breadth-first search over the passages."""
        parent = self.search(self.entrance)[1]
        path = [self.exit]
        while path[-1] != self.entrance:
            path.append(parent[path[-1]])
        return path[::-1]

    def middle(self, a: int, b: int) -> tuple[float, float]:
        """The middle of the boundary cells ``a`` and ``b`` share."""
        line = shapely.line_merge(self.cells[a].intersection(self.cells[b]))
        point = line.interpolate(0.5, normalized=True)
        return point.x, point.y

    def centre(self, cell: int) -> tuple[float, float]:
        point = self.cells[cell].centroid
        return point.x, point.y

    def cell_of(self, points: np.ndarray) -> np.ndarray:
        """The cell holding each point (−1 on none)."""
        found = np.full(len(points), -1)
        where, cells = self.tree.query(shapely.points(points), predicate="within")
        found[where] = cells
        return found


# ---------------------------------------------------------------- scene file (no browser)


@pytest.mark.parametrize("shape", SHAPES)
def test_scene_round_trip_and_version(shape: str) -> None:
    maze = shaped(shape, seed=5)
    fab = Fabrication(cell_size=12, wall_thickness=1.2, wall_height=6, base_thickness=1.5, margin=3)
    text = scene_json(maze, fab, walk=WalkSpec(hint=False), label="Zoé", lang="fr")
    data = json.loads(text)
    assert data["version"] == 5 and data["shape"] == shape and "cells" not in data and text.isascii()
    assert ("cols" in data) == (shape != "theta")
    back = read_scene(text)
    assert isinstance(back.maze, Maze) and back.version == 5
    assert (back.maze.open_walls == maze.open_walls).all()
    assert (back.maze.entrance, back.maze.exit, back.maze.algorithm, back.maze.seed) == (
        maze.entrance,
        maze.exit,
        maze.algorithm,
        maze.seed,
    )
    assert back.fabrication == fab and (back.label, back.lang) == ("Zoé", "fr") and back.walk["hint"] is False
    assert data["passages"] == [k for pair in file_passages(maze) for k in pair]  # flat, two a passage
    assert data["solution"] == [list(cell) for cell in maze.solution]


@pytest.mark.parametrize(
    ("shape", "more"),
    [
        ("square", {"outline": "heart"}),
        ("square", {"braid": 100}),
        ("hex", {"outline": "heart", "braid": 50}),
        ("theta", {"first_ring": 8}),
        ("triangle", {"outline": "star"}),
    ],
)
def test_scene_of_a_cut_or_braided_maze_reads_back(shape: str, more: dict) -> None:
    """Boards cut to an outline, mazes with loops, theta's ring options (issue 26): the scene
    holds the maze file's keys (the board cells kept, the outline's name, the braid), reads back
    to the same maze, and its floor is the cells' union (shapely, from the scene's own tables)."""
    maze = laby3d.generate(8, None if shape == "theta" else 8, shape=shape, seed=4, **more)
    data = json.loads(scene_json(maze, Fabrication()))
    file = json.loads(maze.to_json())
    for key in ("cells", "outline", "braid", "first_ring"):
        assert data.get(key) == file.get(key), key
    back = read_scene(json.dumps(data)).maze
    assert back.cell_count == maze.cell_count and (back.open_walls == maze.open_walls).all()
    assert (back.entrance, back.exit, back.braid, back.outline) == (maze.entrance, maze.exit, maze.braid, maze.outline)
    points = np.array(data["points"]).reshape(-1, 2)
    starts = data["polygon_starts"]
    cells = [Polygon(points[data["cell_polygons"][a:b]]) for a, b in zip(starts[:-1], starts[1:], strict=True)]
    floor = Polygon(points[data["floor"]])
    assert floor.is_valid and abs(floor.area - shapely.union_all(cells).area) < 1e-6 * floor.area


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["walls"].pop(), "walls"),
        (lambda d: d["walls"].__setitem__(3, 1.234), "walls"),
        (lambda d: d["points"].__setitem__(0, 7), "points"),
        (lambda d: d["centres"].__setitem__(1, 7), "centres"),
        (lambda d: d["cell_polygons"].insert(0, d["cell_polygons"].pop(d["polygon_starts"][1] - 1)), "cell_polygons"),
        (lambda d: d["passage_middles"].pop(), "passage_middles"),
        (lambda d: d["floor"].pop(), "floor"),
        (lambda d: d["row_starts"].__setitem__(1, 2), "row_starts"),
        (lambda d: d["exit"]["door"].__setitem__(0, 0), "exit"),
        (lambda d: d.__setitem__("narrowest_passage", 5), "narrowest_passage"),
        (lambda d: d.__setitem__("walls", d["walls"][4:] + d["walls"][:4]), "walls"),
        (lambda d: d["passages"].pop(), "passages"),
        (lambda d: d.__setitem__("cells", [0, 1]), r"passages\[1\]"),
        (lambda d: d.__setitem__("shape", "square"), "not neighbours"),
        (lambda d: d.__setitem__("version", 6), "version"),
        (lambda d: d.__setitem__("version", 4), r"unknown key '(narrowest_passage|floor)' \(in version 4\)"),
        (lambda d: d.__setitem__("label", ""), "label"),
    ],
)
def test_scene_reader_refuses_edits(edit, message: str) -> None:
    data = json.loads(scene_json(shaped("hex"), Fabrication(), walk=WalkSpec()))
    edit(data)
    with pytest.raises(MazeFileError, match=message):
        maze_from_scene(json.dumps(data))


def door_data(data: dict) -> dict:
    """The scene's two doors as walls (to hand :func:`page_walls`)."""
    doors = [v for o in ("entrance", "exit") if data[o] and data[o]["door"] for v in data[o]["door"]]
    return {"walls": doors, "wall_thickness": data["wall_thickness"]}


def page_walls(data: dict) -> shapely.Geometry:
    """The scene's walls as the page draws them: each centre segment (4 numbers of the flat
    list) widened by half the thickness on each side, flat ends."""
    t = data["wall_thickness"]
    segments = np.array(data["walls"], dtype=float).reshape(-1, 4)
    along = segments[:, 2:] - segments[:, :2]
    normal = np.stack([-along[:, 1], along[:, 0]], axis=1) / np.hypot(*along.T)[:, None] * t / 2
    corners = np.stack(
        [segments[:, :2] - normal, segments[:, 2:] - normal, segments[:, 2:] + normal, segments[:, :2] + normal], 1
    )
    return shapely.union_all(shapely.polygons(corners))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(("cell", "wall"), [(10, 1.6), (12, 4.0), (30, 0.5)])
def test_scene_walls_are_the_closed_walls_and_leave_the_narrowest_passage(shape: str, cell: float, wall: float) -> None:
    """The scene's walls cover every closed wall of the maze file (its centre line widened by
    half a thickness, round where walls meet) but the doors, reach no further than a mitre
    (twice the half thickness past a centre line), and leave each passage (cell centre, middle
    of the open wall, next centre) and each door at least half the narrowest passage the scene
    states (the walker is half as wide as that); walls in line that meet are one straight run."""
    maze = shaped(shape, seed=3, size={"square": (6, 7), "theta": (7, None), "hex": (7, 8), "triangle": (6, 11)}[shape])
    fab = Fabrication(cell_size=cell, wall_thickness=wall)
    file = FileMaze(maze, fab)
    data = json.loads(scene_json(maze, fab))
    half = wall / 2
    walls = page_walls(data)
    closed = file.closed.difference(shapely.union_all(list(file.doors.values())).buffer(1e-6))
    assert walls.buffer(2e-3).contains(closed.buffer(half)), "a closed wall left out"
    assert closed.buffer(2.01 * half + 2e-3).contains(walls)  # a mitre tip: a thickness from its point
    # a ball 0.9 of the narrowest passage across rolls everywhere: the floor less the walls (doors
    # closed) shrunk by its radius is one piece that reaches into every cell
    floor = shapely.union_all(file.cells).difference(walls).difference(page_walls(door_data(data)))
    rolled = floor.buffer(-0.45 * data["narrowest_passage"])
    assert rolled.geom_type == "Polygon", f"the floor splits in {len(getattr(rolled, 'geoms', []))} for that ball"
    assert shapely.intersects(rolled, np.array(file.cells)).all()
    segments = np.array(data["walls"]).reshape(-1, 4)
    ends = np.concatenate([segments[:, :2], segments[:, 2:]])
    heading = np.arctan2(*(segments[:, 3:1:-1] - segments[:, 1::-1]).T) % np.pi
    for k, other in zip(
        *shapely.STRtree(shapely.points(ends)).query(shapely.points(ends), "dwithin", distance=1e-6), strict=True
    ):
        a, b = k % len(segments), other % len(segments)
        if a != b:
            turn = abs(heading[a] - heading[b]) % np.pi
            assert min(turn, np.pi - turn) > 1e-6, ("walls in line meet and are not one run", a, b)


@pytest.mark.parametrize("shape", SHAPES)
def test_export_of_a_scene(tmp_path: Path, capsys: pytest.CaptureFixture, shape: str) -> None:
    """scene (14 mm cells) → maze file (the same maze, byte for byte), scene (the same bytes)
    and page; an STL with the scene's sizes: byte for byte the STL of its maze file given the
    same sizes as flags."""
    from laby3d.cli import main

    maze = shaped(shape, seed=2)
    fab = Fabrication(cell_size=14, wall_thickness=2, wall_height=5, base_thickness=1.5, margin=3)
    source = tmp_path / "m.scene.json"
    source.write_text(scene_json(maze, fab, walk=WalkSpec(trail=False), label="Ana", lang="fr"), encoding="utf-8")
    outputs = ["back.maze.json", "back.scene.json", "back.html"]
    assert main(["export", str(source), *sum((["-o", str(tmp_path / n)] for n in outputs), [])]) == 0
    assert (tmp_path / "back.maze.json").read_text(encoding="utf-8") == maze.to_json()
    assert (tmp_path / "back.scene.json").read_text(encoding="utf-8") == source.read_text(encoding="utf-8")
    page = (tmp_path / "back.html").read_text(encoding="utf-8")
    assert '<html lang="fr">' in page and "<title>Ana – Trouve la sortie (labyrinthe" in page
    assert main(["export", str(source), "-o", str(tmp_path / "back.stl")]) == 0
    sizes = ["--cell-size", "14", "--wall-thickness", "2", "--wall-height", "5", "--base-thickness", "1.5"]
    flags = [*sizes, "--margin", "3", "--label", "Ana"]
    assert main(["export", str(tmp_path / "back.maze.json"), *flags, "-o", str(tmp_path / "flags.stl")]) == 0
    assert (tmp_path / "back.stl").read_bytes() == (tmp_path / "flags.stl").read_bytes()
    capsys.readouterr()


def test_page_titles_name_the_shape() -> None:
    titles = {
        shape: re.search("<title>(.*)</title>", page_html(shaped(shape), Fabrication())).group(1) for shape in SHAPES
    }
    assert titles == {
        "square": "Find the exit (maze 5×6)",
        "theta": "Find the exit (round maze, 5 rings)",
        "hex": "Find the exit (hexagon maze 5×6)",
        "triangle": "Find the exit (triangle maze 4×9)",
    }
    named = page_html(shaped("theta"), Fabrication(), lang="fr", label="Noé")
    assert "<title>Noé – Trouve la sortie (labyrinthe rond, 5 anneaux)</title>" in named
    assert page_data(named)["text"]["where_position"] == "Anneau {row}, case {col}."
    square = page_data(page_html(shaped("square"), Fabrication(), lang="fr"))["text"]
    assert square["where_position"] == "Rangée {row}, colonne {col}." and "where_position_theta" not in square


@pytest.mark.parametrize(
    ("shape", "size", "fab"),
    [
        ("square", (300, 300), Fabrication()),
        ("square", (600, 600), Fabrication(cell_size=8.3, wall_thickness=1.3)),  # numbers as long as at the largest
        ("hex", (116, 116), Fabrication()),
        ("hex", (300, 300), Fabrication()),
        ("theta", (50, None), Fabrication()),
        ("triangle", (70, 120), Fabrication()),
    ],
)
@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_the_largest_page_fits_what_a_scene_file_may_hold(shape: str, size: tuple, fab: Fabrication) -> None:
    """The largest page the budget lets laby3d write, of a square maze or another shape, gives
    a scene file within the reader's limits: its bytes, arrays and commas per cell (at sizes
    whose numbers are as long as at the largest) times the budget's cells."""
    from laby3d.budget import largest_scene_cells
    from laby3d.export.scene import scene_limits

    limits, cells = scene_limits(), largest_scene_cells(shape)
    maze = shaped(shape, size=size)
    text = scene_json(maze, fab, walk=WalkSpec(), label="x" * 60)
    per_cell = maze.cell_count / 1.05  # 5 % to spare
    assert len(text) / per_cell * cells <= limits.max_bytes
    assert text.count("[") / per_cell * cells <= limits.max_containers
    assert text.count(",") / per_cell * cells <= limits.max_commas


def test_a_page_too_large_is_refused_up_front(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A 900-ring page (past the budget's time for its scene) is refused on one line that names
    the flag, the cells and the most a page may have; nothing is written."""
    from laby3d.cli import main
    from laby3d.tessellation import tessellate

    assert main(["generate", "--shape", "theta", "--rows", "900", "-o", str(tmp_path / "m.html")]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    cells = tessellate("theta", 900).cell_count
    assert len(lines) == 1 and f"--rows 900 ({cells:,} cells): the html would take about" in lines[0]
    assert re.search(r"about \d+ rings$", lines[0]), lines[0]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("shape", "cell", "wall"),
    [("hex", 12, 10), ("theta", 12, 10), ("hex", 10, 5), ("triangle", 2, 1.7), ("square", 2, 1.7)],
)
def test_a_scene_too_narrow_to_walk_is_refused_up_front(
    tmp_path: Path, capsys: pytest.CaptureFixture, shape: str, cell: float, wall: float
) -> None:
    """Walls that close the passages (issue 28: hex and theta at 12 mm cells and 10 mm walls gave
    a walker of −1.40 mm) are refused before any work, on one line naming the flag, or the YAML
    path, and walls that work; the walls named leave a passage a ball of 0.4 mm rolls through
    (the floor less the walls, shrunk by its radius, is one piece reaching every cell: shapely),
    walls 0.05 mm thicker are refused too; nothing is written; French in a French class."""
    from laby3d.cli import main

    size = ["--rows", "4"] + ([] if shape == "theta" else ["--cols", "5"])
    flags = ["generate", "--shape", shape, *size, "--seed", "2", "--cell-size", str(cell)]
    assert main([*flags, "--wall-thickness", str(wall), "-o", str(tmp_path / "m.html")]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"laby3d: error: --wall-thickness of {wall:g} mm leaves no room"), (
        lines
    )
    most = float(re.search(r"walls of at most ([\d.]+) mm", lines[0]).group(1))
    assert list(tmp_path.iterdir()) == []
    assert main([*flags, "--wall-thickness", f"{most + 0.05:g}", "-o", str(tmp_path / "m.html")]) == 2
    assert main([*flags, "--wall-thickness", f"{most:g}", "-o", str(tmp_path / "m.scene.json")]) == 0
    capsys.readouterr()
    data = json.loads((tmp_path / "m.scene.json").read_text(encoding="utf-8"))
    file = FileMaze(read_scene(json.dumps(data)).maze, Fabrication(cell_size=cell, wall_thickness=most))
    floor = shapely.union_all(file.cells).difference(page_walls(data)).difference(page_walls(door_data(data)))
    rolled = floor.buffer(-0.2 + 1e-3)
    assert rolled.geom_type == "Polygon" and shapely.intersects(rolled, np.array(file.cells)).all()
    assert main([*flags, "--wall-thickness", str(wall), "--lang", "fr", "-o", str(tmp_path / "f.js")]) == 2
    french = capsys.readouterr().err.strip()
    assert french.startswith(f"laby3d: erreur : --wall-thickness de {wall:g} mm ".replace(".", ",")), french
    assert "ne laisse pas la place de marcher" in french and "des murs d’au plus" in french
    (tmp_path / "class.yaml").write_text(
        f"jobs:\n  - name: a\n    maze: {{shape: {shape}, rows: 4{'' if shape == 'theta' else ', cols: 5'}}}\n"
        f"    print: {{cell_size: {cell}, wall_thickness: {wall}}}\n    formats: [maze.json, html]\n",
        encoding="utf-8",
    )
    assert main(["batch", str(tmp_path / "class.yaml"), "--output-dir", str(tmp_path / "out")]) == 2
    batch = capsys.readouterr().err
    assert "print.wall_thickness" in batch and "leaves no room to walk" in batch, batch
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


# ---------------------------------------------------------------- the page's code under node


@pytest.mark.parametrize("shape", SHAPES)
def test_cells_and_way_out_in_node(tmp_path: Path, shape: str) -> None:
    """web/maze.js run by node: the cell under 2,000 random points is shapely's; from
    every cell the way out is the next cell of a breadth-first search written here, towards the
    middle of the boundary they share (the exit's door in the exit cell); the walker starts in
    the entrance's cell, and the trail runs from door to door through the solution."""
    maze, fab = shaped(shape, seed=4), Fabrication()
    file = FileMaze(maze, fab)
    rng = np.random.default_rng(1)
    box = np.array(shapely.union_all(file.cells).bounds)
    points = rng.uniform(box[:2], box[2:], (2000, 2))
    cells = file.cell_of(points)
    points = points[cells >= 0]
    driver = (
        "var input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
        "var model = window.LABY3D_WALK.cellModel(input.scene), ways = [];\n"
        "for (var k = 0; k < model.count; k++) ways.push(model.wayOut(k));\n"
        "var cells = input.points.map(function (p) { return model.cellAt(p[0], p[1]); });\n"
        "var positions = ways.map(function (w, k) { return model.position(k); });\n"
        "var steps = ways.map(function (w, k) { return model.stepsOut(k); });\n"
        "process.stdout.write(JSON.stringify({cells: cells, ways: ways, start: model.start(), trail: model.trail(),\n"
        "  positions: positions, steps: steps}));\n"
    )
    scene = json.loads(scene_json(maze, fab))
    answer = run_node(("maze.js",), driver, json.dumps({"scene": scene, "points": points.tolist()}), tmp_path)
    assert answer["cells"] == cells[cells >= 0].tolist()
    assert [tuple(p) for p in answer["positions"]] == [
        maze.tessellation.cell_position(c) for c in range(maze.cell_count)
    ]
    steps = file.search(file.exit)[0]
    assert answer["steps"] == [steps[cell] for cell in range(maze.cell_count)]
    for cell, way in enumerate(answer["ways"]):
        if cell == file.exit:
            assert way["next"] is None
            middle = file.exit_door.interpolate(0.5, normalized=True)
            assert way["target"] == pytest.approx([middle.x, middle.y], abs=2e-3)
        else:
            assert steps[way["next"]] == steps[cell] - 1
            assert way["target"] == pytest.approx(file.middle(cell, way["next"]), abs=2e-3)
    assert answer["start"]["cell"] == file.entrance
    trail = np.array(answer["trail"])
    assert trail[-1] == pytest.approx(file.exit_door.interpolate(0.5, normalized=True).coords[0], abs=2e-3)
    if "entrance" in file.doors:
        assert trail[0] == pytest.approx(file.doors["entrance"].interpolate(0.5, normalized=True).coords[0], abs=2e-3)
        trail = trail[1:]
    assert file.cell_of(trail[:-1:2]).tolist() == file.route()
    doors = shapely.union_all(list(file.doors.values())).buffer(1e-6)
    assert LineString(answer["trail"]).distance(file.closed.difference(doors)) > 0


@pytest.mark.parametrize("shape", SHAPES)
def test_walker_never_crosses_the_real_walls_in_node(tmp_path: Path, shape: str) -> None:
    """web/walls.js run by node against the scene's walls and doors of real mazes, thin to
    thick walls, walkers small to large, moves from 0.01 mm to several cells in any direction:
    every position is at least the walker's radius from the walls (the closed walls worked out
    here, widened by half a thickness); no move gets through a wall: between the cells it starts
    and ends in, the route through the passages is no longer than a move of that length can go
    without crossing one (to leave a cell by another opening than the one it came in by, a
    walker goes round a vertex on a closed wall at its radius and half a wall from it: at least
    that far, the openings meeting at 60° or more); a move with room for it is made in full."""
    rng = np.random.default_rng(7)
    cases, files = [], []
    for seed, (cell, wall) in enumerate([(10, 1.6), (10, 0.2), (4, 3.0), (30, 0.5)]):
        maze, fab = shaped(shape, seed=seed + 10), Fabrication(cell_size=cell, wall_thickness=wall)
        file = FileMaze(maze, fab)
        data = json.loads(scene_json(maze, fab))
        walls = data["walls"] + door_data(data)["walls"]
        radius = float(rng.choice([0.05, 0.25])) * (cell - wall)
        starts = [file.centre(int(c)) for c in rng.integers(0, maze.cell_count, 6)]
        moves = [(rng.normal(0, 1, 2) * rng.choice([0.01, 0.3, 3, 30]) * cell / 10).tolist() for _ in range(300)]
        cases.append({"walls": walls, "thickness": wall, "radius": radius, "starts": starts, "moves": moves})
        files.append(file)
    driver = (
        "var cases = JSON.parse(require('fs').readFileSync(0, 'utf8')), out = [];\n"
        "cases.forEach(function (c) {\n"
        "  var set = window.LABY3D_WALK.wallSet(c.walls, c.thickness, 10);\n"
        "  out.push(c.starts.map(function (p) {\n"
        "    var path = [p];\n"
        "    c.moves.forEach(function (m) { p = set.move(p[0], p[1], m[0], m[1], c.radius); path.push(p); });\n"
        "    return path;\n"
        "  }));\n"
        "});\n"
        "process.stdout.write(JSON.stringify(out));\n"
    )
    answers = run_node(("walls.js",), driver, json.dumps(cases), tmp_path)
    for case, file, paths in zip(cases, files, answers, strict=True):
        r, half = case["radius"], case["thickness"] / 2
        own = page_walls({"walls": case["walls"], "wall_thickness": case["thickness"]})
        apart = {cell: file.search(cell)[0] for cell in file.neighbours}
        for path in paths:
            track = np.array(path)
            ends = shapely.points(track)
            assert shapely.distance(file.closed, ends).min() >= r + half - 2e-3  # the scene keeps 1 µm
            cells = file.cell_of(track)
            length = np.hypot(*np.array(case["moves"]).T)
            for k in np.flatnonzero((cells[:-1] >= 0) & (cells[1:] >= 0)):
                assert apart[cells[k]][cells[k + 1]] <= 2 + length[k] / (r + half), ("through a wall", track[k : k + 2])
            wanted = track[:-1] + np.array(case["moves"])
            free = shapely.distance(own, shapely.linestrings(np.stack([track[:-1], wanted], axis=1))) > r + 1e-6
            assert np.allclose(track[1:][free], wanted[free], atol=1e-6), "stopped with room to go"


# ---------------------------------------------------------------- real Chromium


#: Walls as thick as a scene of 12 mm cells takes (passages of 2 mm, or under 1 mm for hex and theta).
THICK = {"square": 10.0, "theta": 7.5, "hex": 4.5, "triangle": 10.0}
#: The thick walls' mazes: smaller (the pilot edges along 2 mm passages: 75–100 s a shape at the
#: default sizes, most of the slow suite's browser time), every kind of turn still on the route.
THICK_SIZES = {"square": (3, 4), "theta": (3, None), "hex": (3, 4), "triangle": (3, 5)}


@pytest.mark.slow
@pytest.mark.parametrize("walls", ["default", "thick"])
@pytest.mark.parametrize("shape", SHAPES)
def test_real_keys_walk_the_route_to_the_exit(tmp_path: Path, page: Browser, shape: str, walls: str) -> None:
    """A pilot on real keys follows the route of a breadth-first search over the maze file's
    passages (cell centres and the middles of the boundaries crossed) from the entrance to the
    exit, with default walls and with walls as thick as a scene takes (issue 28: thick hex and
    theta walls gave a walker of negative size): the page says the exit is found; no recorded
    position comes nearer a closed wall (the outline and the unjoined shared boundaries) than
    the walker's radius plus half a wall, no step crosses one; the step counter (hook and
    screen) counts the cells entered, as shapely finds them along the recorded path."""
    maze = shaped(shape) if walls == "default" else shaped(shape, size=THICK_SIZES[shape])
    fab = Fabrication() if walls == "default" else Fabrication(cell_size=12, wall_thickness=THICK[shape])
    file = FileMaze(maze, fab)
    route = file.route()
    page.open(write_page(tmp_path, maze, fab=fab))
    press(page, "KeyH", "h")
    page.evaluate("laby3d.record(), 1")
    final = pilot(page, file.centre(route[0]))
    for a, b in zip(route, route[1:], strict=False):
        final = pilot(page, file.middle(a, b))
        final = pilot(page, file.centre(b))
    track = recorded(page)
    hud = page.evaluate("document.getElementById('laby3d-hud').textContent")
    message = page.evaluate("document.getElementById('laby3d-message').textContent")
    assert final["exited"] and message.startswith("You found the exit!"), final
    radius = page.evaluate("laby3d.radius")
    assert radius > 0.05
    # the scene states its points to 1 µm: the walls the page meets are the oracle's within that
    assert shapely.distance(file.closed, shapely.points(track)).min() >= radius + fab.wall_thickness / 2 - 1e-3
    steps = shapely.linestrings(np.stack([track[:-1], track[1:]], axis=1))
    assert not shapely.intersects(file.closed, steps).any()
    cells = file.cell_of(track)
    cells = cells[cells >= 0]
    entered = int((cells[1:] != cells[:-1]).sum())
    assert cells[0] == file.entrance and cells[-1] == file.exit
    assert final["steps"] == entered and f"Steps {entered}" in hud and f"Steps: {entered}." in message
    assert final["errors"] == []


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPES)
def test_which_way_arrow_points_along_the_route(tmp_path: Path, page: Browser, shape: str) -> None:
    """From the entrance, a junction, a dead end and the exit's cell, looking any way: after I
    (a real key) the screen's yellow arrow points, relative to the view, at the middle of the
    boundary the walker crosses next on a breadth-first route to the exit (in the exit's cell:
    its door), as drawn here and compared on pixels among four turns."""
    maze, fab = shaped(shape, seed=6), Fabrication()
    file = FileMaze(maze, fab)
    joined = {c: [b for b in file.neighbours[c] if tuple(sorted((c, b))) in file.passages] for c in file.neighbours}
    junction = next(c for c in file.route() if len(joined[c]) >= 3)
    dead_end = next(c for c in joined if len(joined[c]) == 1 and c != file.exit)
    page.open(write_page(tmp_path, maze))
    press(page, "KeyH", "h")
    rng = np.random.default_rng(2)
    for cell in (file.entrance, junction, dead_end, file.exit):
        x, z = file.centre(cell)
        yaw = float(rng.uniform(-np.pi, np.pi))
        page.evaluate(f"laby3d.place({x}, {z}, {yaw}, 0)")
        press(page, "KeyI", "i")
        if cell == file.exit:
            target = file.exit_door.interpolate(0.5, normalized=True).coords[0]
        else:
            distance = {file.exit: 0}
            queue = deque([file.exit])
            while queue:
                here = queue.popleft()
                for other in joined[here]:
                    if other not in distance:
                        distance[other] = distance[here] + 1
                        queue.append(other)
            target = file.middle(cell, min(joined[cell], key=distance.__getitem__))
        check_arrow(page, np.degrees(np.arctan2(target[0] - x, -(target[1] - z)) - yaw), f"cell {cell}")
        press(page, "KeyI", "i")
    assert state(page)["errors"] == []


def drawn_maze(page: Browser, outline: Polygon, fab: Fabrication) -> tuple[float, float]:
    """On the map as the screen shows it (its marks hidden): the share of the pixels inside
    the outline (less 2 px) that show something else than the ground, and the share of the
    maze's pixels (not the colours of the start and exit signs) that lie within the outline
    grown by half a wall and 2 px."""
    from PIL import Image, ImageDraw

    page.evaluate(
        "['laby3d-map', 'laby3d-buttons', 'laby3d-hud', 'laby3d-help'].forEach(function (id) {"
        "document.getElementById(id).style.visibility = 'hidden'; }), laby3d.render(), 1"
    )
    image = picture(page)
    drawn = ~near(image, GROUND, 12)
    maze_pixels = drawn & ~near(image, START, 30) & ~near(image, EXIT, 30)
    px = page.evaluate("laby3d.project(100, 0)[0] - laby3d.project(0, 0)[0]") / 100

    def mask(shape: Polygon) -> np.ndarray:
        canvas = Image.new("L", (image.shape[1], image.shape[0]))
        corners = json.dumps(np.asarray(shape.exterior.coords).tolist())
        points = page.evaluate(f"{corners}.map(function (p) {{ return laby3d.project(p[0], p[1]); }})")
        ImageDraw.Draw(canvas).polygon([tuple(p) for p in points], fill=255)
        return np.asarray(canvas) > 127

    inner = mask(outline.buffer(-2 / px))
    outer = mask(outline.buffer(fab.wall_thickness / 2 + 2 / px, join_style="mitre"))
    return float(drawn[inner].mean()), float(outer[maze_pixels].mean())


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPES)
def test_map_draws_the_shape(tmp_path: Path, page: Browser, shape: str) -> None:
    """The map (O, a real key) shows the maze's shape: the ground shows nowhere inside the
    outline, and the maze nowhere beyond it but for the door signs; also when zoomed out past
    a few pixels a cell (− by the character it types; a maze 480 mm high in a 400×300 window),
    where the page draws one picture."""
    for size, zoom_out in (
        (SHAPES[shape], 0),
        ({"square": (48, 8), "theta": (24, None), "hex": (56, 8), "triangle": (32, 4)}[shape], 2),
    ):
        if zoom_out:
            view(page, 400, 300)
        maze, fab = shaped(shape, size=size), Fabrication()
        t = maze.tessellation
        outline = shapely.union_all(
            [Polygon(t.cell_polygon(c) * fab.cell_size + fab.wall_thickness / 2) for c in range(t.cell_count)]
        )
        page.open(write_page(tmp_path, maze))
        press(page, "KeyH", "h")
        press(page, "KeyO", "o")
        for _ in range(zoom_out):
            press(page, "Minus", "-")
        page.wait_for(f"laby3d.overview && laby3d.mapPicture === {json.dumps(zoom_out > 0)}", timeout=10)
        filled, within = drawn_maze(page, outline, fab)
        assert filled > 0.99 and within > 0.99, (size, filled, within)
        assert state(page)["errors"] == []


#: The eight directions the page names, clockwise from straight ahead, as a pupil reads them.
DIRECTIONS = {
    "en": [
        "ahead",
        "ahead on the right",
        "on the right",
        "behind on the right",
        "behind",
        "behind on the left",
        "on the left",
        "ahead on the left",
    ],
    "fr": [
        "devant",
        "devant à droite",
        "à droite",
        "derrière à droite",
        "derrière",
        "derrière à gauche",
        "à gauche",
        "devant à gauche",
    ],
}


def said(file: FileMaze, maze: Maze, cell: int, at: tuple[float, float], yaw: float, lang: str) -> str | None:
    """What the page should say at ``at`` looking along ``yaw`` in ``cell``, worked out here: the
    cell (1-based, rings for theta), the open walls' middles and, in the exit's cell, its door,
    by the direction seen from there (None when one lies within 3° of two words), the cells to
    the exit by a breadth-first search over the passages."""

    def word(point) -> str | None:
        turn = np.degrees(np.arctan2(point[0] - at[0], -(point[1] - at[1])) - yaw) % 360
        if abs((turn + 22.5) % 45 - 22.5) > 19.5:
            return None
        return DIRECTIONS[lang][int(((turn + 22.5) % 360) // 45)]

    row, col = maze.tessellation.cell_position(cell)
    places = [file.middle(*sorted((cell, other))) for other in file.joined()[cell]]
    door = file.exit_door.interpolate(0.5, normalized=True).coords[0]
    if cell == file.exit:
        places.append(door)
    words = [word(p) for p in places]
    if None in words or (cell == file.exit and word(door) is None):
        return None
    ways = ", ".join(sorted(set(words), key=DIRECTIONS[lang].index))
    steps = file.search(file.exit)[0][cell]
    position = {
        "en": f"Ring {row + 1}, cell {col + 1}." if maze.shape == "theta" else f"Row {row + 1}, column {col + 1}.",
        "fr": f"Anneau {row + 1}, case {col + 1}."
        if maze.shape == "theta"
        else f"Rangée {row + 1}, colonne {col + 1}.",
    }[lang]
    opened = {"en": f"Open: {ways}.", "fr": f"Ouvert : {ways}."}[lang]
    if steps == 0:
        far = {
            "en": f"You are in the exit's cell: its door is {word(door)}.",
            "fr": f"Tu es dans la case de la sortie : sa porte est {word(door)}.",
        }[lang]
    elif steps == 1:
        far = {"en": "The exit is 1 step away.", "fr": "La sortie est à 1 pas."}[lang]
    else:
        far = {"en": f"The exit is {steps} steps away.", "fr": f"La sortie est à {steps} pas."}[lang]
    return f"{position} {opened} {far}"


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("shape", SHAPES)
def test_where_am_i_is_said_on_request(tmp_path: Path, page: Browser, shape: str, lang: str) -> None:
    """A real P key (and the "Where am I?" button, tapped) puts in the page's polite live region,
    which a screen reader reads out, the cell, its open sides as seen from where the walker
    stands and looks, and the cells to the exit, in the page's language (issue 28: a screen
    reader heard a static description only), as worked out here from the maze file."""
    maze, fab = shaped(shape, seed=6), Fabrication()
    file = FileMaze(maze, fab)
    page.open(write_page(tmp_path, maze, lang=lang))
    assert page.evaluate("document.getElementById('laby3d-speech').getAttribute('aria-live')") == "polite"
    assert page.evaluate("document.documentElement.lang") == lang
    rng = np.random.default_rng(3)
    junction = next(c for c in file.route() if len(file.joined()[c]) >= 3)
    for cell in (file.entrance, junction, int(rng.integers(maze.cell_count)), file.exit):
        at = file.centre(cell)
        expected = None
        while expected is None:
            yaw = float(rng.uniform(-np.pi, np.pi))
            expected = said(file, maze, cell, at, yaw, lang)
        page.evaluate(f"laby3d.place({at[0]}, {at[1]}, {yaw}, 0), 1")
        press(page, "KeyP", "p")
        page.wait_for("document.getElementById('laby3d-speech').textContent.length > 0")
        assert page.evaluate("document.getElementById('laby3d-speech').textContent").strip() == expected
    view(page, 390, 844, touch=True, mobile=True)
    page.open(write_page(tmp_path, maze, lang=lang))
    box = page.evaluate(
        "(function(r){return [r.x + r.width / 2, r.y + r.height / 2]})"
        "(document.querySelector('[data-action=where]').getBoundingClientRect())"
    )
    page.touch("touchStart", [tuple(box)])
    page.touch("touchEnd", [])
    page.wait_for("document.getElementById('laby3d-speech').textContent.length > 0")
    start = page.evaluate("[laby3d.position.x, laby3d.position.z, laby3d.heading]")
    spoken = page.evaluate("document.getElementById('laby3d-speech').textContent").strip()
    expected = said(file, maze, file.entrance, (start[0], start[1]), start[2], lang)
    assert expected is None or spoken == expected
    assert state(page)["errors"] == []
