"""Mazes of any outline (a heart, a letter, an image) and braided mazes, checked against oracles
written here: the outline drawn again with shapely and matplotlib's own text path, the passages
read from the maze file and checked with networkx, the dead ends counted from the file."""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import shapely

import laby3d
from laby3d.cli import main
from laby3d.errors import ParameterError

SIZES = {"square": (16, 16), "hex": (16, 16), "triangle": (12, 20), "theta": (9, None)}
ALGORITHMS = ("kruskal", "backtracker", "growing_tree", "wilson", "aldous_broder", "prim", "hunt_and_kill")


def unit_outline(spec: str) -> shapely.Geometry:
    """The outline in its own frame, y down, drawn here from its definition (not laby3d's)."""
    centre = shapely.Point(0.5, 0.5)
    if spec == "circle":
        return centre.buffer(0.5, quad_segs=128)
    if spec == "ring":
        return centre.buffer(0.5, quad_segs=128).difference(centre.buffer(0.25, quad_segs=128))
    if spec == "hexagon":
        angles = np.radians(np.arange(6) * 60.0)  # corners at 0°, 60°…: flat top and bottom
        return shapely.Polygon(np.stack([0.5 + 0.5 * np.cos(angles), 0.5 + 0.5 * np.sin(angles)], axis=1))
    if spec == "triangle":
        angles = np.radians(-90.0 + np.arange(3) * 120.0)
        return shapely.Polygon(np.stack([0.5 + 0.5 * np.cos(angles), 0.5 + 0.5 * np.sin(angles)], axis=1))
    if spec.startswith("text:"):
        from matplotlib.font_manager import FontProperties
        from matplotlib.textpath import TextPath

        path = TextPath((0, 0), spec[5:], size=1, prop=FontProperties(family="DejaVu Sans", weight="bold"))
        rings = [shapely.Polygon(ring * (1, -1)) for ring in path.to_polygons() if len(ring) >= 3]
        shell = shapely.union_all([ring for ring in rings if ring.is_valid])
        holes = [ring for ring in rings if shell.buffer(-1e-9).contains(ring.representative_point())]
        return functools.reduce(shapely.symmetric_difference, rings) if holes else shell  # even-odd
    raise KeyError(spec)


def expected_inside(shape: str, rows: int, cols: int | None, spec: str, margin: float = -1e-3) -> set[int]:
    """The board cells whose centre the outline holds (by a clear 1 µm), the outline's box fitted to the board."""
    board = laby3d.tessellate(shape, rows, cols)
    outline = unit_outline(spec)
    x0, y0, x1, y1 = outline.bounds
    width, height = board.extent
    scale = min(width / (x1 - x0), height / (y1 - y0))
    offset = ((width - scale * (x1 - x0)) / 2, (height - scale * (y1 - y0)) / 2)
    placed = shapely.affinity.affine_transform(
        outline, [scale, 0, 0, scale, offset[0] - x0 * scale, offset[1] - y0 * scale]
    )
    near = placed.buffer(margin)  # a centre on the outline itself may fall either way: margin ±1 µm
    return {cell for cell, (x, y) in enumerate(board.centres.tolist()) if near.contains(shapely.Point(x, y))}


def file_of(maze: laby3d.Maze) -> dict:
    return json.loads(maze.to_json())


def board_passages(data: dict) -> tuple[list[int], list[tuple[int, int]]]:
    """The maze file's cells (as board indices) and passages between them, read here."""
    cells = data.get("cells")
    if data["version"] == 1:
        from test_seed_table import passages_of

        count = data["rows"] * data["cols"]
        return list(range(count)), [tuple(pair) for pair in passages_of(data)]
    if cells is None:
        count = laby3d.tessellate(data["shape"], data["rows"], data.get("cols")).cell_count
        cells = list(range(count))
    return cells, [(cells[a], cells[b]) for a, b in data["passages"]]


@pytest.mark.parametrize("shape", SIZES)
@pytest.mark.parametrize("spec", ["circle", "hexagon", "triangle", "ring", "text:A"])
def test_the_passages_are_a_spanning_tree_of_the_cells_inside(shape: str, spec: str) -> None:
    rows, cols = SIZES[shape]
    for algorithm in ALGORITHMS[:: 3 if spec != "circle" else 1]:
        maze = laby3d.generate(rows, cols, shape=shape, outline=spec, algorithm=algorithm, seed=5)
        cells, passages = board_passages(file_of(maze))
        tree = nx.Graph()
        tree.add_nodes_from(cells)
        tree.add_edges_from(passages)
        assert nx.is_tree(tree), (algorithm, "not one spanning tree")
        inside = expected_inside(shape, rows, cols, spec)
        assert inside <= set(cells), "a cell whose centre is inside is not in the maze"
        extra = set(cells) - expected_inside(
            shape, rows, cols, spec, margin=1e-3
        )  # joins and corners filled out: few, and next to the outline's cells
        assert len(extra) <= 0.12 * len(cells), (len(extra), len(cells))
        board = laby3d.tessellate(shape, rows, cols).edges.tolist()
        touching = {a for a, b in board if b in inside} | {b for a, b in board if a in inside}
        assert extra <= touching | inside or spec.startswith("text:")


def test_the_letters_of_a_word_are_joined_into_one_maze() -> None:
    maze = laby3d.generate(20, 40, outline="text:ANA", seed=2)
    cells, passages = board_passages(file_of(maze))
    assert nx.is_tree(nx.Graph(passages)) and nx.Graph(passages).number_of_nodes() == len(cells)
    letters = expected_inside("square", 20, 40, "text:ANA")
    pieces = nx.number_connected_components(
        nx.Graph(
            [(a, b) for a, b in laby3d.tessellate("square", 20, 40).edges.tolist() if a in letters and b in letters]
        )
    )
    assert pieces == 3  # A, N, A apart on the board: the maze joins them


@pytest.mark.parametrize("shape", SIZES)
def test_braid_100_leaves_no_dead_end_and_braid_0_is_the_perfect_maze(shape: str) -> None:
    rows, cols = SIZES[shape]
    perfect = laby3d.generate(rows, cols, shape=shape, algorithm="wilson", seed=9)
    assert laby3d.generate(rows, cols, shape=shape, algorithm="wilson", seed=9, braid=0).to_json() == perfect.to_json()
    braided = laby3d.generate(rows, cols, shape=shape, algorithm="wilson", seed=9, braid=100)
    cells, passages = board_passages(file_of(braided))
    graph = nx.Graph(passages)
    board = laby3d.tessellate(shape, rows, cols)
    neighbours = nx.Graph(board.edges.tolist())
    assert nx.is_connected(graph) and graph.number_of_nodes() == len(cells)
    dead_ends = [cell for cell in cells if graph.degree(cell) == 1 and neighbours.degree(cell) > 1]
    assert not dead_ends
    loops = graph.number_of_edges() - graph.number_of_nodes() + 1
    assert loops > 0 and braided.stats().loops == loops
    data = file_of(braided)
    entrance, exit_ = data["entrance"], data["exit"]
    start, goal = (board.cell_index(end["row"], end["col"]) for end in (entrance, exit_))
    shortest = nx.shortest_path_length(graph, start, goal)
    assert len(data["solution"]) == shortest + 1
    assert braided.stats().shortest_routes == len(list(nx.all_shortest_paths(graph, start, goal)))


def test_braid_removes_the_share_of_dead_ends_asked_for() -> None:
    perfect = laby3d.generate(40, 40, seed=3)
    half = laby3d.generate(40, 40, seed=3, braid=50)
    assert 0.3 < half.stats().dead_ends / perfect.stats().dead_ends < 0.7


def test_a_theta_room_and_first_ring() -> None:
    maze = laby3d.generate(10, shape="theta", room=3, first_ring=8, seed=4)
    data = file_of(maze)
    assert data["first_ring"] == 8 and min(row for row, _ in maze.tessellation.positions.tolist()) == 3
    assert maze.entrance.row == 3 and maze.entrance.side == "in"  # from the room out
    assert maze.exit.side == "out"
    assert laby3d.Maze.from_json(maze.to_json()).to_json() == maze.to_json()
    assert laby3d.tessellate("theta", 5, first_ring=4).row_length(1) == 4


def test_svg_and_png_outlines(tmp_path: Path) -> None:
    from PIL import Image, ImageDraw

    svg = tmp_path / "logo.svg"
    svg.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        '<rect x="0" y="0" width="100" height="100" fill="none" stroke="black"/>'
        '<g transform="translate(10 10)"><rect width="80" height="30" fill="black"/></g>'
        '<circle cx="50" cy="75" r="20" fill="#222"/></svg>',
        encoding="utf-8",
    )
    maze = laby3d.generate(20, 20, outline=str(svg), seed=1)
    # the filled shapes span x 10..90, y 10..95: fitted to the 20×20 board at 20/85 mm per unit,
    # 0.6 mm in from each side; the bar covers x 0.6..19.4 and y 0..7.06 mm, the disc below it
    top = {col for row, col in maze.tessellation.positions.tolist() if row == 4}
    assert top == set(range(1, 19))
    assert not any(row in (8, 9) and col < 6 for row, col in maze.tessellation.positions.tolist())
    png = tmp_path / "mask.png"
    image = Image.new("RGB", (200, 100), "white")
    ImageDraw.Draw(image).rectangle((50, 0, 149, 99), fill=(10, 10, 10))
    image.save(png)
    masked = laby3d.generate(10, 20, outline=str(png), seed=1)
    cols = sorted({col for _, col in masked.tessellation.positions.tolist()})
    assert cols == list(range(5, 15))  # the dark half in the middle


@pytest.mark.parametrize(
    ("outline", "words"),
    [
        ("octagon", "must be one of circle, hexagon, triangle, heart, star, ring, text:WORD"),
        ("text:", "text: needs 1 to 12 characters"),
        ("text:🦊", "text:🦊"),
        ("missing.png", "does not exist"),
        ("EMPTY.svg", "has no filled shape"),
        ("BROKEN.png", "is not a PNG or JPEG image that can be read"),
        ("WHITE.png", "has no dark pixel"),
        ("HUGE.png", "an outline image has at most"),
    ],
)
def test_bad_outlines_are_refused_in_one_line(outline: str, words: str, tmp_path: Path, capsys) -> None:
    from PIL import Image

    (tmp_path / "EMPTY.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><g/></svg>', encoding="utf-8")
    (tmp_path / "BROKEN.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    Image.new("L", (20, 20), 255).save(tmp_path / "WHITE.png")
    Image.new("1", (5000, 5000), 0).save(tmp_path / "HUGE.png")
    given = str(tmp_path / outline) if outline[0].isupper() or outline.endswith(".png") else outline
    assert (
        main(["generate", "--rows", "10", "--cols", "10", "--outline", given, "-o", str(tmp_path / "m.maze.json")]) == 2
    )
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "--outline" in error and words in error, error
    assert not (tmp_path / "m.maze.json").exists()


def test_too_few_cells_are_refused() -> None:
    with pytest.raises(ParameterError, match="at least 4"):
        laby3d.generate(2, 2, outline="star", seed=1)


def test_outlines_and_braids_use_the_cell_graph_algorithms_only() -> None:
    with pytest.raises(ParameterError, match="square grid only"):
        laby3d.generate(10, 10, outline="heart", algorithm="eller")
    assert math.isfinite(laby3d.generate(10, 10, braid=40, algorithm="eller", seed=1).stats().loops)
