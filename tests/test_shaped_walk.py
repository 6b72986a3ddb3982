"""The walk-through of theta, hex and triangle mazes: the version-4 scene file and its page.

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

import laby3d
from laby3d.errors import MazeFileError
from laby3d.export.browser import page_html
from laby3d.export.scene import maze_from_scene, read_scene, scene_json
from laby3d.geometry.params import Fabrication
from laby3d.geometry.shaped_footprint import plate_size
from laby3d.maze.model import Maze
from laby3d.options.walk import WalkSpec

#: A small maze of each shape (rows, cols), and seeds whose solution is a few cells long.
SHAPES = {"theta": (5, None), "hex": (5, 6), "triangle": (4, 9)}
GROUND, START, EXIT = np.array([0x9C, 0xC2, 0x7A]), np.array([0x2F, 0xAE, 0x4F]), np.array([0xE0, 0x40, 0x2A])


def shaped(shape: str, seed: int = 1, size: tuple[int, int | None] | None = None) -> Maze:
    rows, cols = size or SHAPES[shape]
    return laby3d.generate(rows, cols, shape=shape, seed=seed)


class FileMaze:
    """A maze as its maze file says it (passages, entrance, exit) and its cells as shapely
    polygons in the scene's millimetres, with what the checks need, all worked out here."""

    def __init__(self, maze: Maze, fab: Fabrication) -> None:
        data = json.loads(maze.to_json())
        t = maze.tessellation
        self.fab = fab
        self.cells = [Polygon(t.cell_polygon(c) * fab.cell_size + fab.wall_thickness / 2) for c in range(t.cell_count)]
        self.tree = shapely.STRtree(self.cells)
        self.passages = {tuple(pair) for pair in data["passages"]}
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
    assert data["version"] == 4 and data["shape"] == shape and "cells" not in data and text.isascii()
    assert ("cols" in data) == (shape != "theta")
    back = read_scene(text)
    assert isinstance(back.maze, Maze) and back.version == 4
    assert (back.maze.open_walls == maze.open_walls).all()
    assert (back.maze.entrance, back.maze.exit, back.maze.algorithm, back.maze.seed) == (
        maze.entrance,
        maze.exit,
        maze.algorithm,
        maze.seed,
    )
    assert back.fabrication == fab and (back.label, back.lang) == ("Zoé", "fr") and back.walk["hint"] is False
    assert data["passages"] == json.loads(maze.to_json())["passages"]
    assert data["solution"] == [list(cell) for cell in maze.solution]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["walls"].pop(), "walls"),
        (lambda d: d["walls"][3].__setitem__(0, 1.234), "walls"),
        (lambda d: d["points"][0].__setitem__(0, 7), "points"),
        (lambda d: d["centres"][1].__setitem__(1, 7), "centres"),
        (lambda d: d["cell_polygons"][0].reverse(), "cell_polygons"),
        (lambda d: d["passage_middles"].pop(), "passage_middles"),
        (lambda d: d["outline"].pop(), "outline"),
        (lambda d: d["row_starts"].__setitem__(1, 2), "row_starts"),
        (lambda d: d["exit"]["door"][0].__setitem__(0, 0), "exit"),
        (lambda d: d["passages"].pop(), "passages"),
        (lambda d: d.__setitem__("cells", []), "unknown key 'cells'"),
        (lambda d: d.__setitem__("shape", "square"), "not neighbours"),
        (lambda d: d.__setitem__("version", 5), "version"),
        (lambda d: d.__setitem__("label", ""), "label"),
    ],
)
def test_scene_reader_refuses_edits(edit, message: str) -> None:
    data = json.loads(scene_json(shaped("hex"), Fabrication(), walk=WalkSpec()))
    edit(data)
    with pytest.raises(MazeFileError, match=message):
        maze_from_scene(json.dumps(data))


def page_walls(data: dict) -> shapely.Geometry:
    """The scene's walls as the page draws them: each centre segment widened by half the
    thickness on each side, flat ends."""
    t = data["wall_thickness"]
    segments = np.array(data["walls"], dtype=float)
    along = segments[:, 2:] - segments[:, :2]
    normal = np.stack([-along[:, 1], along[:, 0]], axis=1) / np.hypot(*along.T)[:, None] * t / 2
    corners = np.stack(
        [segments[:, :2] - normal, segments[:, 2:] - normal, segments[:, 2:] + normal, segments[:, :2] + normal], 1
    )
    return shapely.union_all(shapely.polygons(corners))


@pytest.mark.parametrize("shape", SHAPES)
def test_scene_walls_are_the_closed_walls_mitred_and_leave_every_passage_open(shape: str) -> None:
    """The scene's walls cover every closed wall of the maze file (its centre line widened by
    half a thickness, round where walls meet) but the doors, reach no further than a mitre
    (twice the half thickness past a centre line), and leave each passage (cell centre, middle
    of the open wall, next centre) and each door clear for a walker 2.5 mm across (a hexagon's
    side, 5.8 mm between centre lines, is the narrowest opening)."""
    maze, fab = (
        shaped(shape, seed=3, size={"theta": (7, None), "hex": (7, 8), "triangle": (6, 11)}[shape]),
        Fabrication(),
    )
    file = FileMaze(maze, fab)
    data = json.loads(scene_json(maze, fab))
    half, radius = fab.wall_thickness / 2, 0.15 * fab.corridor_width
    walls = page_walls(data)
    closed = file.closed.difference(shapely.union_all(list(file.doors.values())).buffer(1e-6))
    assert walls.buffer(2e-3).contains(closed.buffer(half)), "a closed wall left out (the scene keeps 1 µm)"
    assert closed.buffer(2 * half + 2e-3).contains(walls)
    for a, b in file.passages:
        path = LineString([file.centre(a), file.middle(a, b), file.centre(b)])
        assert walls.distance(path) >= radius, (a, b)
    for door in file.doors.values():
        assert walls.distance(door.interpolate(0.5, normalized=True)) >= radius


@pytest.mark.parametrize("shape", SHAPES)
def test_export_of_a_shaped_scene(tmp_path: Path, capsys: pytest.CaptureFixture, shape: str) -> None:
    """scene (14 mm cells) → maze file (the same maze, byte for byte), scene and page; an STL,
    with the scene's sizes (the plate of the shape: a disc, or a board to the walls' mitres)."""
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
    points = np.frombuffer(
        (tmp_path / "back.stl").read_bytes()[84:], np.dtype([("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")])
    )["v"].reshape(-1, 3)
    assert np.ptp(points, axis=0) == pytest.approx([*plate_size(shape, maze.rows, maze.cols, fab), 1.5 + 5], abs=1e-3)
    capsys.readouterr()


def test_page_titles_name_the_shape_and_square_pages_keep_their_texts() -> None:
    titles = {
        shape: re.search("<title>(.*)</title>", page_html(shaped(shape), Fabrication())).group(1) for shape in SHAPES
    }
    assert titles == {
        "theta": "Find the exit (round maze, 5 rings)",
        "hex": "Find the exit (hexagon maze 5×6)",
        "triangle": "Find the exit (triangle maze 4×9)",
    }
    named = page_html(shaped("theta"), Fabrication(), lang="fr", label="Noé")
    assert "<title>Noé – Trouve la sortie (labyrinthe rond, 5 anneaux)</title>" in named
    square = page_html(laby3d.generate(3, 3, seed=1), Fabrication())
    assert "canvas_label_cells" not in square and "maze_theta" not in square and "mazeModel(M)" in square
    assert "cellModel(M)" in page_html(shaped("hex"), Fabrication()) and "mazeModel" not in page_html(
        shaped("hex"), Fabrication()
    )


def test_the_largest_shaped_page_fits_what_a_scene_file_may_hold() -> None:
    """The largest page of a maze that is not square the budget lets laby3d write gives a scene
    file within the reader's limits: its bytes, arrays and commas per cell (the most of three
    shapes at sizes whose numbers are as long as at the largest) times the budget's cells."""
    from laby3d.budget import largest_cells
    from laby3d.export.scene import scene_limits

    limits, cells = scene_limits(), largest_cells("page", shaped=True)
    for shape, size in (("hex", (116, 116)), ("theta", (50, None)), ("triangle", (70, 120))):
        maze = shaped(shape, size=size)
        text = scene_json(maze, Fabrication(), walk=WalkSpec(), label="x" * 60)
        per_cell = maze.cell_count / 1.05  # 5 % to spare
        assert len(text) / per_cell * cells <= limits.max_bytes, shape
        assert text.count("[") / per_cell * cells <= limits.max_containers, shape
        assert text.count(",") / per_cell * cells <= limits.max_commas, shape


def test_a_page_too_large_is_refused_up_front(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A 700-ring page (its scene's tables would need about 4 GB) is refused on one line that
    names the flag, the cells and the most a page may have; nothing is written."""
    from laby3d.cli import main
    from laby3d.tessellation import tessellate

    assert main(["generate", "--shape", "theta", "--rows", "700", "-o", str(tmp_path / "m.html")]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    cells = tessellate("theta", 700).cell_count
    assert len(lines) == 1 and f"--rows 700 ({cells:,} cells): the html would take about" in lines[0]
    assert re.search(r"about \d+ rings$", lines[0]), lines[0]
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- the page's code under node


@pytest.mark.parametrize("shape", SHAPES)
def test_cells_and_way_out_in_node(tmp_path: Path, shape: str) -> None:
    """web/shaped/cells.js run by node: the cell under 2,000 random points is shapely's; from
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
        "process.stdout.write(JSON.stringify({cells: cells, ways: ways, start: model.start(), trail: model.trail(),\n"
        "  positions: positions}));\n"
    )
    scene = json.loads(scene_json(maze, fab))
    answer = run_node(("shaped/cells.js",), driver, json.dumps({"scene": scene, "points": points.tolist()}), tmp_path)
    assert answer["cells"] == cells[cells >= 0].tolist()
    assert [tuple(p) for p in answer["positions"]] == [
        maze.tessellation.cell_position(c) for c in range(maze.cell_count)
    ]
    steps = file.search(file.exit)[0]
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
        walls = data["walls"] + [s for o in ("entrance", "exit") if data[o]["door"] for s in data[o]["door"]]
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


def pilot(page: Browser, goal: tuple[float, float]) -> dict:
    """Real keys (by physical code) until the walker stands within 1 mm of ``goal``: turn
    towards it (← →), then walk (W, as on any layout); the page's state at the end."""
    for _ in range(60):
        now = state(page)
        dx, dz = goal[0] - now["position"]["x"], goal[1] - now["position"]["z"]
        if np.hypot(dx, dz) < 1.0 or now["exited"]:
            return now
        error = (np.arctan2(dx, -dz) - now["heading"] + np.pi) % (2 * np.pi) - np.pi
        if abs(error) > 0.1:
            code = "ArrowRight" if error > 0 else "ArrowLeft"
            press(page, code, code, min(abs(error) / 1.8, 0.4))
        else:
            press(page, "KeyW", "w", min(np.hypot(dx, dz) / 16.0, 0.4))
    raise AssertionError(f"the pilot did not reach {goal}: {now}")


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPES)
def test_real_keys_walk_the_route_to_the_exit(tmp_path: Path, page: Browser, shape: str) -> None:
    """A pilot on real keys follows the route of a breadth-first search over the maze file's
    passages (cell centres and the middles of the boundaries crossed) from the entrance to the
    exit: the page says the exit is found; no recorded position comes nearer a closed wall (the
    outline and the unjoined shared boundaries) than the walker's radius plus half a wall, no
    step crosses one; the step counter (hook and screen) counts the cells entered, as shapely
    finds them along the recorded path."""
    maze, fab = shaped(shape), Fabrication()
    file = FileMaze(maze, fab)
    route = file.route()
    page.open(write_page(tmp_path, maze))
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
    assert shapely.distance(file.closed, shapely.points(track)).min() >= radius + fab.wall_thickness / 2 - 1e-6
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
        ({"theta": (24, None), "hex": (56, 8), "triangle": (32, 4)}[shape], 2),
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
