"""Pictures, worksheets and answer keys of theta, hex and triangle mazes.

Oracles independent of the drawing code: the walls drawn are read back from the PDF's own
stroking operators and compared with the closed walls worked out here from the maze file's
``passages`` and openings; the key's drawn solution is read back the same way and walked cell by
cell against a breadth-first search written here over the maze file's passages (not the file's
``solution``, not laby3d's solver). Only the cells' geometry (where a wall or a cell lies, in
pitch units) comes from laby3d's tessellation, which tests/test_tessellation.py checks.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import textwrap
import zlib
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from test_seed_table import passages_of

import laby3d
from laby3d.cli import main
from laby3d.tessellation import Tessellation, tessellate

SHAPES = {"theta": (6, None), "hex": (7, 9), "triangle": (6, 10)}
#: Every shape: the outputs drawn from the cell graph draw the square grid too.
EVERY_SHAPE = {"square": (6, 8), **SHAPES}
PICTURES = ("png", "pdf", "ps")
SHEETS = ("worksheet.pdf", "key.pdf")
MAGIC = {"png": b"\x89PNG\r\n\x1a\n", "pdf": b"%PDF-", "ps": b"%!PS-Adobe-3.0"}
CRIMSON = (220 / 255, 20 / 255, 60 / 255)


def maze_of(shape: str, seed: int = 3, **options: object) -> laby3d.Maze:
    rows, cols = EVERY_SHAPE[shape]
    return laby3d.generate(rows, cols, shape=shape, seed=seed, **options)


# ---- oracles -------------------------------------------------------------------------------


def stroked_paths(data: bytes) -> list[list[tuple[tuple[float, ...], np.ndarray]]]:
    """Per content stream (a page), every stroked polyline as (stroke colour, (k, 2) points in
    PDF points): the colour from ``g G`` (grey) or ``r g b RG``, saved by ``q`` and restored by
    ``Q``; a path of one or more polylines, each begun by ``x y m`` and drawn on by ``x y l``,
    stroked by ``S``."""
    pages = []
    for match in re.finditer(rb"stream\r?\n(.*?)\nendstream", data, re.S):
        try:
            content = zlib.decompressobj().decompress(match.group(1)).decode("latin-1")
        except zlib.error:
            continue
        if " m" not in content:
            continue
        found: list[tuple[tuple[float, ...], np.ndarray]] = []
        numbers: list[float] = []
        colour: tuple[float, ...] = (0.0, 0.0, 0.0)
        saved: list[tuple[float, ...]] = []
        path: list[list[list[float]]] = []
        for token in content.split():
            if re.fullmatch(r"-?[\d.]+", token):
                numbers.append(float(token))
                continue
            if token == "G":
                colour = (numbers[-1],) * 3
            elif token == "RG":
                colour = tuple(numbers[-3:])
            elif token == "q":
                saved.append(colour)
            elif token == "Q":
                colour = saved.pop()
            elif token == "m":
                path.append([numbers[-2:]])
            elif token == "l":
                path[-1].append(numbers[-2:])
            elif token == "S":
                found += [(colour, np.array(line)) for line in path if len(line) > 1]
                path = []
            elif token in ("f", "n", "B"):
                path = []
            numbers = []
        pages.append(found)
    return pages


def in_colour(paths: list[tuple[tuple[float, ...], np.ndarray]], colour: tuple[float, ...]) -> list[np.ndarray]:
    return [points for drawn, points in paths if np.allclose(drawn, colour, atol=2e-3)]


def file_of(maze: object) -> dict:
    """The maze file, a version-1 (square) one read as version 2 would give it: its shape and
    passages, decoded from the bit masks here (tests/test_seed_table.py's reader)."""
    data = json.loads(maze.to_json())  # type: ignore[attr-defined]
    if data["version"] == 1:
        data = {**data, "shape": "square", "passages": passages_of(data)}
    return data


def tessellation_of(data: dict) -> Tessellation:
    return tessellate(data["shape"], data["rows"], data.get("cols"))


def expected_walls(data: dict) -> list[np.ndarray]:
    """The polylines (pitch units) of the walls a maze file says are closed: every neighbour pair
    not among its ``passages``, and every boundary wall but its entrance's and exit's."""
    t = tessellation_of(data)
    opened = {tuple(pair) for pair in data["passages"]}
    lines = [t.wall_polyline(e) for e, (a, b) in enumerate(t.edges.tolist()) if (a, b) not in opened]
    doors = {
        t.boundary_wall(t.cell_index(end["row"], end["col"]), end["side"])
        for end in (data["entrance"], data["exit"])
        if end["side"] is not None
    }
    lines += [t.boundary_polyline(b) for b in range(len(t.boundary_cells)) if b not in doors]
    return lines


def same_segments(drawn: list[np.ndarray], expected: list[np.ndarray], *, tolerance: float = 0.005) -> None:
    """Assert that ``drawn`` and ``expected`` polylines (pitch units) are the same segments: each
    drawn point snapped to the nearest expected point (no farther than ``tolerance``: the page
    rounds coordinates), both sides compared as sets of unordered point pairs."""
    from scipy.spatial import cKDTree

    points = np.unique(np.round(np.concatenate(expected), 9), axis=0)
    tree = cKDTree(points)

    def pairs(lines: list[np.ndarray]) -> set[tuple[int, int]]:
        found = set()
        for line in lines:
            distance, index = tree.query(line)
            assert distance.max() <= tolerance, f"a point drawn {distance.max():.4f} cells from any wall's"
            found.update((min(a, b), max(a, b)) for a, b in zip(index[:-1], index[1:], strict=True) if a != b)
        return found

    drawn_pairs, expected_pairs = pairs(drawn), pairs(expected)
    assert not drawn_pairs - expected_pairs, f"{len(drawn_pairs - expected_pairs)} segments drawn where no wall is"
    assert not expected_pairs - drawn_pairs, f"{len(expected_pairs - drawn_pairs)} closed wall segments not drawn"


def to_pitch(drawn: list[np.ndarray], expected: list[np.ndarray]):  # -> Callable[[np.ndarray], np.ndarray]
    """The map from PDF points (y up) back to pitch units (y down) that lays the drawn walls'
    bounding box on the expected walls' (one scale both ways: the drawing is not stretched)."""
    low_d, high_d = np.min([p.min(0) for p in drawn], 0), np.max([p.max(0) for p in drawn], 0)
    low_e, high_e = np.min([p.min(0) for p in expected], 0), np.max([p.max(0) for p in expected], 0)
    scale = (high_d - low_d) / (high_e - low_e)
    assert scale[0] == pytest.approx(scale[1], rel=1e-4), "the drawing is stretched"

    def back(points: np.ndarray) -> np.ndarray:
        x = (points[:, 0] - low_d[0]) / scale[0] + low_e[0]
        y = (high_d[1] - points[:, 1]) / scale[1] + low_e[1]
        return np.stack([x, y], axis=1)

    return back


def bfs_path(data: dict) -> list[int]:
    """Cell indices from the entrance to the exit, by breadth-first search over the file's passages."""
    t = tessellation_of(data)
    neighbours: dict[int, list[int]] = {}
    for a, b in data["passages"]:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    start = t.cell_index(data["entrance"]["row"], data["entrance"]["col"])
    goal = t.cell_index(data["exit"]["row"], data["exit"]["col"])
    came_from = {start: start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for other in neighbours.get(cell, []):
            if other not in came_from:
                came_from[other] = cell
                queue.append(other)
    path = [goal]
    while path[-1] != start:
        path.append(came_from[path[-1]])
    return path[::-1]


def cells_along(line: np.ndarray, t: Tessellation) -> list[int]:
    """The cells a polyline (pitch units) passes through, in order, each run once: sampled inside
    every segment (not at its ends, which lie on walls) and located by point-in-polygon."""
    import shapely

    polygons = [shapely.Polygon(t.cell_polygon(c)) for c in range(t.cell_count)]
    tree = shapely.STRtree(polygons)
    visited: list[int] = []
    for start, stop in zip(line[:-1], line[1:], strict=True):
        for fraction in np.linspace(0.05, 0.95, 10):
            point = shapely.Point(start + (stop - start) * fraction)
            hits = [int(c) for c in tree.query(point, predicate="within")]
            assert len(hits) == 1, f"{point} lies in cells {hits}"
            if not visited or visited[-1] != hits[0]:
                visited.append(hits[0])
    return visited


# ---- every format renders, for every shape ----------------------------------------------------


@pytest.mark.parametrize("shape", EVERY_SHAPE)
@pytest.mark.parametrize("fmt", PICTURES)
def test_pictures_render_for_every_shape(shape: str, fmt: str) -> None:
    maze = maze_of(shape)
    data = laby3d.render(maze, fmt, show_solution=True, heatmap=True)
    assert data.startswith(MAGIC[fmt])
    assert data == laby3d.render(maze, fmt, show_solution=True, heatmap=True)
    assert data != laby3d.render(maze_of(shape, seed=4), fmt, show_solution=True, heatmap=True)


@pytest.mark.parametrize("shape", EVERY_SHAPE)
def test_picture_walls_are_the_files_closed_walls(shape: str) -> None:
    maze = maze_of(shape, algorithm="wilson")
    data = file_of(maze)
    expected = expected_walls(data)
    (page,) = stroked_paths(laby3d.render(maze, "pdf", show_solution=True))
    walls = in_colour(page, (0.0, 0.0, 0.0))
    back = to_pitch(walls, expected)
    same_segments([back(line) for line in walls], expected)
    # the solution drawn from the entrance to the exit through the cells of the search here
    (solution,) = in_colour(page, CRIMSON)
    assert cells_along(back(solution), tessellation_of(data)) == bfs_path(data)


def test_theta_picture_is_round() -> None:
    """The rim is drawn as a circle of radius ``rings`` about the centre (arcs as polylines whose
    points lie on it), open at the exit only."""
    maze = maze_of("theta")
    data = file_of(maze)
    (page,) = stroked_paths(laby3d.render(maze, "pdf"))
    walls = in_colour(page, (0.0, 0.0, 0.0))
    back = to_pitch(walls, expected_walls(data))
    points = np.concatenate([back(line) for line in walls])
    radius = np.hypot(*(points - data["rows"]).T)
    assert radius.max() == pytest.approx(data["rows"], abs=1e-3)
    rim = points[radius > data["rows"] - 1e-3]
    angles = np.sort(np.arctan2(rim[:, 1] - data["rows"], rim[:, 0] - data["rows"]))
    gaps = np.diff(angles)
    (door,) = np.flatnonzero(gaps > 0.1)  # points all round (a circle, not a polygon of a few sides)
    assert angles[door] < -np.pi / 2 < angles[door + 1]  # but for the exit, at 12 o'clock


# ---- worksheets and keys -----------------------------------------------------------------------


@pytest.mark.parametrize("shape", EVERY_SHAPE)
def test_worksheet_of_every_shape(tmp_path: Path, shape: str) -> None:
    from tests.test_classroom import pdf_pages_text

    maze = maze_of(shape)
    sheet = laby3d.render(maze, "worksheet.pdf", label="Zoë", class_name="5B", lang="fr")
    assert sheet == laby3d.render(maze, "worksheet.pdf", label="Zoë", class_name="5B", lang="fr")
    (text,) = pdf_pages_text(sheet, tmp_path)
    assert "Nom : Zoë" in text and "Classe : 5B" in text and "Date :" in text and str(maze.seed) in text
    assert "Sortie" in text
    if shape == "theta":  # the path starts at the centre: the instruction says so, no "Entrée" arrow
        assert "Pars du centre" in text and "Entrée" not in text
    else:
        assert "Trace le chemin de l’entrée à la sortie" in text and "Entrée" in text
    (page,) = stroked_paths(sheet)
    walls = in_colour(page, (0.0, 0.0, 0.0))
    expected = expected_walls(file_of(maze))
    same_segments([to_pitch(walls, expected)(line) for line in walls], expected)
    assert not in_colour(page, CRIMSON)  # no solution on a pupil's sheet


@pytest.mark.parametrize("shape", EVERY_SHAPE)
def test_key_draws_each_pupils_solution_by_an_independent_search(tmp_path: Path, shape: str) -> None:
    """A class of three, a key page each: the crimson line of each page walks the cells of the
    search written here over that pupil's maze file, entrance to exit, and no other maze's."""
    from laby3d.draw.worksheet import key_pdf
    from laby3d.options.worksheet import WorksheetSpec

    pupils = [
        (maze_of(shape, seed=20 + k, placement="hardest" if k == 2 else "corners"), name)
        for k, name in enumerate(("Ana", "Léo", "Inès"))
    ]
    key = key_pdf(pupils, spec=WorksheetSpec(key_per_page=1), lang="en")
    pages = stroked_paths(key)
    assert len(pages) == len(pupils)
    paths = [bfs_path(file_of(maze)) for maze, _ in pupils]
    assert len({tuple(path) for path in paths}) == len(paths)
    for page, (maze, _), path in zip(pages, pupils, paths, strict=True):
        data = file_of(maze)
        walls = in_colour(page, (0.0, 0.0, 0.0))
        back = to_pitch(walls, expected_walls(data))
        (solution,) = in_colour(page, CRIMSON)
        line = back(solution)
        assert cells_along(line, tessellation_of(data)) == path
        t = tessellation_of(data)
        for end, point in ((data["entrance"], line[0]), (data["exit"], line[-1])):  # out through the openings
            cell = t.cell_index(end["row"], end["col"])
            where = t.centres[cell] if end["side"] is None else t.boundary_midpoints[t.boundary_wall(cell, end["side"])]
            assert point == pytest.approx(where, abs=1e-3)


def test_class_booklets_of_a_hex_class(tmp_path: Path) -> None:
    """A batch job with ``shape: hex`` and names (run in this process): a worksheet per pupil in
    the class booklet, and a key whose every page walks its own pupil's maze file by the search
    here."""
    from concurrent.futures import ThreadPoolExecutor

    import yaml

    from laby3d.batch import expand, run_batch
    from laby3d.config import load_batch
    from tests.test_classroom import pdf_info

    config = tmp_path / "class.yaml"
    names = ["Ana", "Léo", "Inès"]
    job = {"name": "5B", "names": names, "maze": {"shape": "hex", "rows": 8, "cols": 9}}
    job |= {"seed": 4, "worksheet": {"key_per_page": 1}, "formats": ["maze.json", "worksheet.pdf", "key.pdf"]}
    config.write_text(yaml.safe_dump({"jobs": [job]}, allow_unicode=True), encoding="utf-8")
    _, jobs = load_batch(config)
    out = tmp_path / "out"
    with ThreadPoolExecutor(1) as inline:
        manifest = run_batch(expand(jobs, out), out, executor=inline)
    assert manifest["failed"] == 0
    folder = out / "5B"
    assert pdf_info((folder / "5B.worksheet.pdf").read_bytes(), tmp_path)["pages"] == len(names)
    pages = stroked_paths((folder / "5B.key.pdf").read_bytes())
    mazes = [entry["files"] for entry in manifest["mazes"]]
    assert len(pages) == len(mazes) == len(names)
    for page, entry in zip(pages, manifest["mazes"], strict=True):
        (maze_file,) = [name for name in entry["files"] if name.endswith(".maze.json")]
        data = json.loads((folder / maze_file).read_text(encoding="utf-8"))
        walls = in_colour(page, (0.0, 0.0, 0.0))
        (solution,) = in_colour(page, CRIMSON)
        assert cells_along(to_pitch(walls, expected_walls(data))(solution), tessellation_of(data)) == bfs_path(data)


# ---- the same bytes everywhere -----------------------------------------------------------------

DIGESTS = textwrap.dedent(
    """
    import hashlib, laby3d
    for shape, rows, cols in (("theta", 6, None), ("hex", 7, 9), ("triangle", 6, 10)):
        maze = laby3d.generate(rows, cols, shape=shape, seed=3)
        for fmt in ("png", "pdf", "ps", "worksheet.pdf", "key.pdf"):
            print(shape, fmt, hashlib.sha256(laby3d.render(maze, fmt, show_solution=True, heatmap=True)
                  if fmt in ("png", "pdf", "ps") else laby3d.render(maze, fmt, label="Zoë")).hexdigest())
    """
)


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_same_bytes_in_another_process_time_zone_and_hash_seed() -> None:
    environment = {"TZ": "Pacific/Kiritimati", "LC_ALL": "C", "PYTHONHASHSEED": "4321", "SOURCE_DATE_EPOCH": "86400"}
    result = subprocess.run(
        [sys.executable, "-c", DIGESTS],
        env={**os.environ, **environment},
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    there = {tuple(line.split()[:2]): line.split()[2] for line in result.stdout.splitlines()}
    for shape in SHAPES:
        maze = maze_of(shape)
        for fmt in (*PICTURES, *SHEETS):
            options = {"show_solution": True, "heatmap": True} if fmt in PICTURES else {"label": "Zoë"}
            assert hashlib.sha256(laby3d.render(maze, fmt, **options)).hexdigest() == there[(shape, fmt)], (shape, fmt)


# ---- what other shapes do not draw ---------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES)
def test_text_art_is_refused_with_the_formats_the_shape_lacks(shape: str, capsys: pytest.CaptureFixture[str]) -> None:
    rows, cols = SHAPES[shape]
    size = ["--rows", str(rows)] + ([] if cols is None else ["--cols", str(cols)])
    assert main(["generate", "--shape", shape, *size, "-o", "m.txt"]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and error.endswith(
        "every format but classroom.json, classroom.py, walls.csv, txt"
    )
    assert main(["show", "--shape", shape, *size]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "png" in error


@pytest.mark.parametrize("fmt", ["png", "worksheet.pdf", "gif", "handout.pdf", "stl", "txt"])
def test_a_square_mazes_shaped_view_renders_as_the_maze(fmt: str) -> None:
    """``maze`` of a square maze (the interface every shape shares) is drawn as the
    maze itself, byte for byte, by every square format."""
    maze = laby3d.generate(5, 6, algorithm="wilson", seed=8)
    assert laby3d.render(maze, fmt) == laby3d.render(maze, fmt)
