"""The classroom kit: named worksheets and answer keys (PDF), the graph lesson, the classroom form.

Oracles are independent of the code under test: page sizes and text come from poppler's pdfinfo
and pdftotext, the key's drawn solution is read back from the PDF's own drawing operators and
compared with a breadth-first search written here over the maze file's cells, and zones are
the connected components of the partial maze found by a search written here.
"""

from __future__ import annotations

import io
import json
import math
import re
import string
import subprocess
import zlib
from collections import deque
from pathlib import Path

import numpy as np
import pytest

import laby3d
from laby3d.draw.animation import generation_gif
from laby3d.draw.grid_lesson import grid_lesson_pdf as lesson_pdf
from laby3d.draw.grid_lesson import grid_lesson_stages as lesson_stages
from laby3d.draw.strings import STRINGS, text
from laby3d.draw.worksheet import key_pdf, worksheet_pdf
from laby3d.draw.zone_colours import PALETTE
from laby3d.errors import ParameterError
from laby3d.maze.algorithms import ALGORITHMS
from laby3d.maze.convert import from_classroom, to_classroom
from laby3d.maze.observe import Stage, stages, zone_numbers
from laby3d.options.worksheet import WorksheetSpec
from tests.colourcheck import SHARMA_PAIRS, delta_e_2000, lab
from tests.conftest import require_tool

NAMES = ["Léa Martin", "Noé Dubois", "Zoë Lefèvre", "Chloé Bérénice", "Éloïse", "Maël", "Anaïs Ç."]
STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
BIT = {"N": 1, "E": 2, "S": 4, "W": 8}
#: PDF page sizes in points (1/72 in).
PAGE_POINTS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0), "a3": (841.89, 1190.55)}
CRIMSON = (220 / 255, 20 / 255, 60 / 255)


def class_set(count: int = len(NAMES), rows: int = 9, cols: int = 11) -> list[tuple[laby3d.Maze, str | None]]:
    return [
        (laby3d.generate(rows, cols, seed=100 + i, placement="opposite-sides"), NAMES[i % len(NAMES)])
        for i in range(count)
    ]


# ---- oracles -------------------------------------------------------------------------------


def pdf_pages_text(data: bytes, tmp_path: Path) -> list[str]:
    """The text of each page, by pdftotext (pages split at form feeds)."""
    tool = require_tool("pdftotext")
    path = tmp_path / "doc.pdf"
    path.write_bytes(data)
    out = subprocess.run([tool, "-layout", str(path), "-"], check=True, capture_output=True, text=True).stdout
    return out.split("\f")[: pdf_info(data, tmp_path)["pages"]]


def pdf_info(data: bytes, tmp_path: Path) -> dict[str, float]:
    tool = require_tool("pdfinfo")
    path = tmp_path / "info.pdf"
    path.write_bytes(data)
    out = subprocess.run([tool, str(path)], check=True, capture_output=True, text=True).stdout
    size = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", out)
    pages = re.search(r"Pages:\s+(\d+)", out)
    assert size and pages, out
    return {"pages": int(pages[1]), "width": float(size[1]), "height": float(size[2])}


def stroked_polylines(data: bytes, colour: tuple[float, float, float]) -> list[list[np.ndarray]]:
    """Per page, the polylines stroked in ``colour``, read from the PDF's content streams
    (``r g b RG`` sets the colour, ``x y m`` / ``x y l`` build a path, ``S`` strokes it)."""
    pages = []
    for match in re.finditer(rb"stream\r?\n(.*?)\nendstream", data, re.S):
        try:  # a stream's data ends where zlib says (the bytes before "endstream" may hold a \r)
            content = zlib.decompressobj().decompress(match.group(1)).decode("latin-1")
        except zlib.error:
            continue
        if " RG" not in content:
            continue
        found, numbers, current, saved, path = [], [], (0.0, 0.0, 0.0), [], []
        for token in content.split():
            if re.fullmatch(r"-?[\d.]+", token):
                numbers.append(float(token))
                continue
            if token == "RG":
                current = tuple(numbers[-3:])
            elif token == "q":
                saved.append(current)
            elif token == "Q":
                current = saved.pop()
            elif token == "m":
                path = [numbers[-2:]]
            elif token == "l":
                path.append(numbers[-2:])
            elif token == "S" and np.allclose(current, colour, atol=1e-3) and len(path) > 1:
                found.append(np.array(path))
            numbers = []
        pages.append(found)
    return pages


def bfs_solution(maze_file: dict) -> list[tuple[int, int]]:
    """Cells from the entrance to the exit, by breadth-first search over the file's side bits."""
    cells = maze_file["cells"]
    rows, cols = len(cells), len(cells[0])
    start = (maze_file["entrance"]["row"], maze_file["entrance"]["col"])
    goal = (maze_file["exit"]["row"], maze_file["exit"]["col"])
    came_from = {start: start}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        for side, (dr, dc) in STEP.items():
            nxt = (r + dr, c + dc)
            if cells[r][c] & BIT[side] and 0 <= nxt[0] < rows and 0 <= nxt[1] < cols and nxt not in came_from:
                came_from[nxt] = (r, c)
                queue.append(nxt)
    path = [goal]
    while path[-1] != start:
        path.append(came_from[path[-1]])
    return path[::-1]


def corners(points: np.ndarray) -> np.ndarray:
    """The polyline without repeated points and without the middle points of straight runs."""
    points = points[np.r_[True, np.any(np.diff(points, axis=0) != 0, axis=1)]]
    keep = [0]
    for i in range(1, len(points) - 1):
        (ax, ay), (bx, by) = points[i] - points[i - 1], points[i + 1] - points[i]
        turn = ax * by - ay * bx
        if abs(turn) > 1e-6 * np.linalg.norm(points[i + 1] - points[i - 1]) ** 2:
            keep.append(i)
    return points[[*keep, len(points) - 1]]


def expected_key_line(maze: laby3d.Maze) -> np.ndarray:
    """Cell centres (x = col + ½, y = row + ½) of the BFS solution, out through both openings."""
    maze_file = json.loads(maze.to_json())
    centres = [(c + 0.5, r + 0.5) for r, c in bfs_solution(maze_file)]
    ends = []
    for key, index in (("entrance", 0), ("exit", -1)):
        dr, dc = STEP[maze_file[key]["side"]]
        ends.append((centres[index][0] + dc / 2, centres[index][1] + dr / 2))
    return np.array([ends[0], *centres, ends[1]])


def same_shape(drawn_pdf: np.ndarray, expected_cells: np.ndarray) -> bool:
    """The drawn line (PDF points, y up) is the expected line (cell units, y down) moved and scaled."""
    drawn = corners(drawn_pdf * np.array([1.0, -1.0]))
    expected = corners(expected_cells)
    if drawn.shape != expected.shape:
        return False
    scale = np.linalg.norm(drawn[-1] - drawn[0]) / np.linalg.norm(expected[-1] - expected[0])
    return np.allclose((drawn - drawn[0]) / scale, expected - expected[0], atol=1e-3)


def components(maze: laby3d.Maze) -> np.ndarray:
    """``(rows, cols)`` component id of each cell (its first cell in BFS order), by a search here."""
    label = -np.ones((maze.rows, maze.cols), dtype=int)
    for start in np.ndindex(maze.rows, maze.cols):
        if label[start] >= 0:
            continue
        label[start] = start[0] * maze.cols + start[1]
        queue = deque([start])
        while queue:
            r, c = queue.popleft()
            for side, (dr, dc) in STEP.items():
                nxt = (r + dr, c + dc)
                inside = 0 <= nxt[0] < maze.rows and 0 <= nxt[1] < maze.cols
                if inside and maze.grid.cells[r, c] & BIT[side] and label[nxt] < 0:
                    label[nxt] = label[start]
                    queue.append(nxt)
    return label


def same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    pairs = set(zip(a.ravel().tolist(), b.ravel().tolist(), strict=True))
    return len(pairs) == len(np.unique(a)) == len(np.unique(b))


# ---- worksheets and keys ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_worksheet_one_page_per_pupil_with_their_name_on_it(tmp_path: Path, lang: str) -> None:
    mazes = class_set()
    data = worksheet_pdf(mazes, spec=WorksheetSpec(), lang=lang)
    info = pdf_info(data, tmp_path)
    assert info["pages"] == len(mazes)
    assert (info["width"], info["height"]) == pytest.approx(PAGE_POINTS["a4"], abs=0.5)
    words = {"fr": ("Nom :", "Classe :", "Entrée", "Sortie"), "en": ("Name:", "Class:", "Entrance", "Exit")}[lang]
    for page, (maze, name) in zip(pdf_pages_text(data, tmp_path), mazes, strict=True):
        assert name in page
        assert all(word in page for word in words)
        assert str(maze.seed) in page
        assert sum(other in page for _, other in mazes if other != name) == 0  # nobody else's name
    assert stroked_polylines(data, CRIMSON) == [[] for _ in mazes]  # no solution on a worksheet
    assert data == worksheet_pdf(mazes, spec=WorksheetSpec(), lang=lang)  # no date in the file


@pytest.mark.parametrize(("paper", "per_page"), [("letter", 1), ("a3", 4), ("a4", 2)])
def test_worksheet_paper_and_mazes_per_page(tmp_path: Path, paper: str, per_page: int) -> None:
    mazes = class_set(5)
    data = worksheet_pdf(mazes, spec=WorksheetSpec(paper=paper, per_page=per_page, class_name="2nde 3"), lang="fr")
    info = pdf_info(data, tmp_path)
    assert info["pages"] == math.ceil(len(mazes) / per_page)
    assert (info["width"], info["height"]) == pytest.approx(PAGE_POINTS[paper], abs=0.5)
    pages = pdf_pages_text(data, tmp_path)
    for index, (_, name) in enumerate(mazes):
        assert name in pages[index // per_page]
    assert all(page.count("2nde 3") == min(per_page, len(mazes) - i * per_page) for i, page in enumerate(pages))


def test_unnamed_pupil_gets_a_blank_name_line(tmp_path: Path) -> None:
    maze = laby3d.generate(6, 6, seed=1)
    (page,) = pdf_pages_text(worksheet_pdf([(maze, None)], spec=WorksheetSpec(), lang="fr"), tmp_path)
    assert re.search(r"Nom : _{10,}", page)


def test_key_draws_each_pupils_own_solution(tmp_path: Path) -> None:
    mazes = class_set(7) + [(laby3d.generate(12, 5, algorithm="wilson", seed=9, placement="hardest"), "Ibrahim")]
    spec = WorksheetSpec(key_per_page=3)
    data = key_pdf(mazes, spec=spec, lang="fr")
    assert pdf_info(data, tmp_path)["pages"] == 3
    drawn = [line for page in stroked_polylines(data, CRIMSON) for line in page]
    assert len(drawn) == len(mazes)
    for line, (maze, _) in zip(drawn, mazes, strict=True):
        assert same_shape(line, expected_key_line(maze))
    # a line is not the answer to somebody else's maze
    assert not same_shape(drawn[0], expected_key_line(mazes[1][0]))
    pages = pdf_pages_text(data, tmp_path)
    for index, (maze, name) in enumerate(mazes):
        assert name in pages[index // 3] and str(maze.seed) in pages[index // 3]
    assert all("Corrigé" in page for page in pages)


def test_documents_embed_their_fonts_and_show_any_name(tmp_path: Path) -> None:
    """Names in any script the font covers read back from the worksheet and the key (pdftotext),
    every font is embedded (pdffonts), and poppler draws the pages without complaint."""
    names = ["Nguyễn Văn An", "Łukasz Żółw", "Ólafur Þór", "Θεοδώρα", "Дмитрий", "Zoë O'Brien-Ça"]
    mazes = [(laby3d.generate(6, 7, seed=i), name) for i, name in enumerate(names)]
    for data, per_page in (
        (worksheet_pdf(mazes, spec=WorksheetSpec(), lang="fr"), 1),
        (key_pdf(mazes, spec=WorksheetSpec(), lang="fr"), 6),
    ):
        pages = pdf_pages_text(data, tmp_path)
        for index, name in enumerate(names):
            assert name in pages[index // per_page], name
        (tmp_path / "fonts.pdf").write_bytes(data)
        listed = subprocess.run(
            [require_tool("pdffonts"), str(tmp_path / "fonts.pdf")], check=True, capture_output=True, text=True
        ).stdout.splitlines()[2:]
        assert listed and all(" yes yes yes " in row for row in listed), listed  # embedded, subset, ToUnicode
        (tmp_path / f"pages{per_page}").mkdir()
        rasterised_pages(data, tmp_path / f"pages{per_page}", dpi=30)


def test_documents_reject_bad_input() -> None:
    with pytest.raises(ParameterError, match="lang"):
        worksheet_pdf(class_set(1), spec=WorksheetSpec(), lang="de")
    with pytest.raises(ParameterError):
        key_pdf([], spec=WorksheetSpec(), lang="en")


def test_class_booklet_of_24_accented_names(tmp_path: Path) -> None:
    mazes = [(laby3d.generate(15, 15, seed=i), f"Élève {i} Ç") for i in range(24)]
    worksheet = worksheet_pdf(mazes, spec=WorksheetSpec(), lang="fr")
    key = key_pdf(mazes, spec=WorksheetSpec(), lang="fr")
    assert pdf_info(worksheet, tmp_path)["pages"] == 24 and pdf_info(key, tmp_path)["pages"] == 4
    for page, (_, name) in zip(pdf_pages_text(worksheet, tmp_path), mazes, strict=True):
        assert re.search(rf"{re.escape(name)}\b", page) and not re.search(rf"{re.escape(name)}\d", page)


# ---- the graph lesson ------------------------------------------------------------------------


def zones_2d(stage: Stage) -> np.ndarray:
    """A stage's zone numbers laid out as the grid."""
    return stage.zones.reshape(stage.maze.rows, stage.maze.cols)


def rejected_pairs(stage: Stage) -> np.ndarray:
    """``(k, 2)`` cell pairs of a stage's rejected walls."""
    return stage.maze.tessellation.edges[stage.rejected]


def opened_pair(stage: Stage) -> tuple[int, ...]:
    """The two cells of the wall a stage opened last (empty before the first)."""
    if stage.last_opened is None:
        return ()
    return tuple(int(cell) for cell in stage.maze.tessellation.edges[stage.last_opened])


def kruskal_stages(rows: int = 6, cols: int = 8, seed: int = 3) -> tuple[laby3d.Maze, list[Stage]]:
    maze = laby3d.generate(rows, cols, algorithm="kruskal", seed=seed)
    return maze, list(stages(maze))


def test_zones_are_the_components_and_count_cells_minus_opened() -> None:
    maze, every_stage = kruskal_stages()
    drawn = walls_drawn(maze)
    assert [s.step for s in every_stage] == list(range(len(drawn) + 1))  # a step is a wall drawn
    assert [s.opened for s in every_stage] == [sum(opened for *_, opened in drawn[:k]) for k in range(len(drawn) + 1)]
    for stage in every_stage:
        found = components(stage.maze)
        assert len(np.unique(found)) == maze.cell_count - stage.opened == stage.zone_count
        assert same_partition(zones_2d(stage), found)
        assert stage.walls_standing == stage.maze.closed_interior_walls


def exercise_numbers(rows: int, cols: int, walls: list[tuple[int, int, str]]) -> list[list[list[int]]]:
    """The class exercise's rule, written from its text (not from laby3d): every cell gets its own
    number, row·cols + col; for each wall in turn, named from a cell and its side E or S, when the
    cell's number differs from its neighbour's, every cell numbered like the neighbour takes the
    cell's number. Returns the numbers before the first wall and after each wall."""
    number = [[row * cols + col for col in range(cols)] for row in range(rows)]
    history = [[list(line) for line in number]]
    for row, col, side in walls:
        other_row, other_col = (row, col + 1) if side == "E" else (row + 1, col)
        mine, theirs = number[row][col], number[other_row][other_col]
        if mine != theirs:
            for line in number:
                for index, value in enumerate(line):
                    if value == theirs:
                        line[index] = mine
        history.append([list(line) for line in number])
    return history


def walls_drawn(maze: laby3d.Maze) -> list[tuple[int, int, str, bool]]:
    """The walls in the order the carver took them, read from its record (its passages in order,
    and Kruskal's rejected walls, each taken when ``rejected_at`` passages were open), each named
    from its west or north cell, with whether it was opened: the steps the exercise counts."""
    taken = [(k + 0.5, pair, True) for k, pair in enumerate(maze.carve_order.tolist())]
    if maze.rejected is not None:
        taken += [
            (float(at), pair, False) for pair, at in zip(maze.rejected.tolist(), maze.rejected_at.tolist(), strict=True)
        ]
    named = []
    for _, (a, b), opened in sorted(taken, key=lambda wall: wall[0]):
        row, col = divmod(min(a, b), maze.cols)
        named.append((row, col, "E" if abs(a - b) == 1 else "S", opened))
    return named


def walls_opened(maze: laby3d.Maze) -> list[tuple[int, int, str]]:
    """The steps of the exercise: every wall drawn, named by cell and side."""
    return [(row, col, side) for row, col, side, _ in walls_drawn(maze)]


@pytest.mark.parametrize(
    ("algorithm", "rows", "cols", "seed"),
    [
        ("kruskal", 6, 8, 3),
        ("kruskal", 9, 4, 12),
        ("backtracker", 5, 7, 2),
        ("wilson", 7, 7, 5),
        ("eller", 4, 9, 1),
        ("prim", 1, 6, 4),
    ],
)
def test_zone_numbers_follow_the_exercise_rule(algorithm: str, rows: int, cols: int, seed: int) -> None:
    maze = laby3d.generate(rows, cols, algorithm=algorithm, seed=seed)
    expected = exercise_numbers(rows, cols, walls_opened(maze))
    shown = list(stages(maze))
    assert [zones_2d(stage).tolist() for stage in shown] == expected
    assert [zone_numbers(maze, k).tolist() for k in (0, len(expected) // 2, len(expected) - 1)] == [
        expected[0],
        expected[len(expected) // 2],
        expected[-1],
    ]


def test_show_sets_after_prints_the_exercise_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    from laby3d.cli import main

    maze = laby3d.generate(5, 8, algorithm="kruskal", seed=2)
    expected = exercise_numbers(5, 8, walls_opened(maze))
    for steps in (0, 13, len(expected) - 1):
        assert (
            main(["show", "-a", "kruskal", "--rows", "5", "--cols", "8", "--seed", "2", "--sets-after", str(steps)])
            == 0
        )
        lines = capsys.readouterr().out.splitlines()
        printed = [[int(number) for number in re.findall(r"\d+", line)] for line in lines[1::2]]
        assert printed == expected[steps]


def test_lesson_pages_write_the_exercise_numbers(tmp_path: Path) -> None:
    """The numbers in the cells of a small maze's lesson pages, read with their positions by
    pdftotext -bbox, are the exercise's."""
    tool = require_tool("pdftotext")
    maze = laby3d.generate(5, 6, algorithm="kruskal", seed=9)
    expected = exercise_numbers(5, 6, walls_opened(maze))
    path = tmp_path / "lesson.pdf"
    path.write_bytes(lesson_pdf(maze, every=7))
    html = subprocess.run([tool, "-bbox", str(path), "-"], check=True, capture_output=True, text=True).stdout
    pages = html.split("<page ")[1:]
    steps_shown = [*range(0, len(expected) - 1, 7), len(expected) - 1]
    assert len(pages) == len(steps_shown)
    for page, steps in zip(pages, steps_shown, strict=True):
        words = re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">(\d+)</word>', page)
        cells = sorted(
            (float(y), float(x), int(n)) for x, y, n in words if float(y) < 7 * 72 * 5 / 6
        )  # above the caption
        rows = [sorted(cells[i * 6 : (i + 1) * 6], key=lambda cell: cell[1]) for i in range(5)]
        assert len(cells) == 30 and [[n for _, _, n in row] for row in rows] == expected[steps]


def test_rejected_walls_join_cells_already_in_one_zone() -> None:
    maze, every_stage = kruskal_stages(8, 8, seed=5)
    assert len(every_stage[-1].rejected) > 0  # the check below is not vacuous
    final = maze.grid.cells
    for stage in every_stage:
        found = components(stage.maze).ravel()
        for a, b in rejected_pairs(stage).tolist():
            assert found[a] == found[b]
            ra, ca = divmod(a, maze.cols)
            side = "E" if b == a + 1 else "S"
            assert b - a in (1, maze.cols) and not final[ra, ca] & BIT[side]  # a wall for good
    # the carver recorded every wall it drew and did not open, and no wall twice
    drawn = np.concatenate([maze.carve_order, maze.rejected])
    assert len(every_stage[-1].rejected) == len(maze.rejected)
    assert len({tuple(sorted(pair)) for pair in drawn.tolist()}) == len(drawn) <= 2 * 64 - 16


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
def test_every_algorithms_zones_are_its_components_and_only_merge(algorithm: str) -> None:
    maze = laby3d.generate(4, 5, algorithm=algorithm, seed=6)
    shown = list(stages(maze))
    for before, after in zip(shown, shown[1:], strict=False):
        old = components(before.maze)
        assert same_partition(zones_2d(after), components(after.maze))
        changed = zones_2d(after) != zones_2d(before)
        if after.last_opened is None:  # a step whose wall was rejected changes no number
            assert after.last_rejected is not None and not changed.any()
            continue
        a, b = opened_pair(after)
        assert np.all(np.isin(old[changed], [old.flat[a], old.flat[b]]))  # only the two merged zones


def test_other_algorithms_have_zones_but_no_rejected_walls() -> None:
    maze = laby3d.generate(5, 6, algorithm="backtracker", seed=2)
    shown = list(stages(maze, every=7))
    assert [s.opened for s in shown] == [0, 7, 14, 21, 28, 29]
    assert all(len(s.rejected) == 0 for s in shown)
    assert all(same_partition(zones_2d(s), components(s.maze)) for s in shown)


def test_lesson_pdf_pages_captions_in_the_language(tmp_path: Path) -> None:
    maze = laby3d.generate(4, 5, algorithm="kruskal", seed=8)
    data = lesson_pdf(maze, every=4, lang="fr")
    pages = pdf_pages_text(data, tmp_path)
    drawn = walls_drawn(maze)
    shown = [*range(0, len(drawn), 4), len(drawn)]
    assert len(pages) == len(shown) and len(drawn) > 19  # a step is a wall drawn, rejected ones too
    for page, steps in zip(pages, shown, strict=True):
        opened = sum(is_open for *_, is_open in drawn[:steps])
        assert f"étape {steps}/{len(drawn)} · murs ouverts : {opened}/19" in page
        assert f"zones : {20 - opened}" in page
        assert f"murs debout : {31 - opened}/31" in page
    assert "steps" not in "".join(pages) and data == lesson_pdf(maze, every=4, lang="fr")


def rasterised_pages(data: bytes, tmp_path: Path, *, dpi: int = 100) -> list[np.ndarray]:
    """Every page as ``(height, width, 3)`` uint8 pixels, drawn by poppler's pdftoppm (which
    must not complain)."""
    from PIL import Image

    tool = require_tool("pdftoppm")
    (tmp_path / "doc.pdf").write_bytes(data)
    done = subprocess.run(
        [tool, "-r", str(dpi), "-png", str(tmp_path / "doc.pdf"), str(tmp_path / "page")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and not done.stderr, done.stderr
    return [np.asarray(Image.open(path).convert("RGB")) for path in sorted(tmp_path.glob("page-*.png"))]


def maze_box(pixels: np.ndarray, rows: int, cols: int) -> tuple[tuple[float, float], float]:
    """Where a drawn maze with all its border walls closed sits in ``pixels``: the top left
    lattice point (y, x pixels) and the side of a cell (pixels). The border is the outermost
    rows and columns that are mostly black."""
    black = np.all(pixels < 60, axis=2)
    long_rows = np.flatnonzero(black.mean(axis=1) > 0.6)
    top, bottom = long_rows.min(), long_rows.max() + 1
    long_columns = np.flatnonzero(black[top:bottom].mean(axis=0) > 0.6)
    left, right = long_columns.min(), long_columns.max() + 1
    line = np.argmin(black[top:, left + (right - left) // (2 * cols)])  # the border's thickness
    cell = (right - left - line) / cols
    assert (bottom - top - line) / rows == pytest.approx(cell, rel=0.02)  # square cells
    return (top + line / 2, left + line / 2), cell


#: Least CIEDE2000 difference between the colours of two zones that touch: clearly different.
MIN_TOUCHING_DELTA_E = 20.0


def check_frame_shows_stage(pixels: np.ndarray, stage: Stage) -> float:
    """One light colour per zone (the components found here, sampled off the centre where small
    mazes have their number), black walls exactly between zones (and around the maze), grey or
    red walls inside a zone, nothing where walls are open. Returns the least CIEDE2000 between
    the colours of two zones that touch."""
    rows, cols = stage.maze.rows, stage.maze.cols
    (y0, x0), cell = maze_box(pixels, rows, cols)
    reach = max(1, int(cell * 0.06))

    def pixel(row: float, col: float) -> tuple[int, ...]:
        return tuple(pixels[int(y0 + row * cell), int(x0 + col * cell)].astype(int).tolist())

    def darkest(row: float, col: float, across: tuple[int, int]) -> tuple[int, ...]:
        """The darkest pixel across a wall's middle (a line a few pixels wide, anti-aliased)."""
        y, x = int(y0 + row * cell), int(x0 + col * cell)
        around = [pixels[y + k * across[0], x + k * across[1]] for k in range(-reach, reach + 1)]
        return tuple(min(around, key=lambda p: int(p.astype(int).sum())).astype(int).tolist())

    found = components(stage.maze)
    colour_of: dict[int, tuple[int, ...]] = {}
    for (r, c), zone in np.ndenumerate(found):
        colour = pixel(r + 0.25, c + 0.25)
        assert colour_of.setdefault(int(zone), colour) == colour, f"zone {zone} has two colours"
        assert lab(colour)[0] > 60, f"cell {(r, c)} is not filled with a light zone colour"
    assert len(colour_of) == stage.zone_count
    least = math.inf
    rejected = {tuple(sorted(pair)) for pair in rejected_pairs(stage).tolist()}
    for (r, c), sides in np.ndenumerate(stage.maze.grid.cells):
        for side, (dr, dc) in (("E", (0, 1)), ("S", (1, 0))):
            neighbour = (r + dr) * cols + c + dc
            if r + dr == rows or c + dc == cols or set(opened_pair(stage)) == {r * cols + c, neighbour}:
                continue  # a border, or the wall just opened (dotted)
            red, green, blue = darkest(r + 0.5 + dr / 2, c + 0.5 + dc / 2, (dr, dc))
            between = found[r, c] != found[r + dr, c + dc]
            if between:
                least = min(least, delta_e_2000(lab(colour_of[found[r, c]]), lab(colour_of[found[r + dr, c + dc]])))
                assert max(red, green, blue) < 60, (stage.opened, r, c, side, "a wall between zones is black")
            elif (r * cols + c, neighbour) in rejected:
                assert red > 200 and max(green, blue) < 60, (stage.opened, r, c, side, "a rejected wall is red")
            elif not sides & BIT[side]:
                assert 60 <= max(red, green, blue) <= 140 and max(red, green, blue) - min(red, green, blue) < 20, (
                    stage.opened,
                    r,
                    c,
                    side,
                    "a wall inside a zone is grey",
                )
            else:
                assert lab((red, green, blue))[0] > 60, (stage.opened, r, c, side, "an open wall is not drawn")
    return least


@pytest.mark.parametrize(("rows", "cols", "algorithm"), [(9, 12, "kruskal"), (12, 9, "wilson")])
def test_lesson_pages_show_the_zones_and_the_walls_standing(
    tmp_path: Path, rows: int, cols: int, algorithm: str
) -> None:
    """Read back from the pages rasterised by poppler."""
    maze = laby3d.generate(rows, cols, algorithm=algorithm, seed=4)
    shown = list(stages(maze, every=25))
    pages = rasterised_pages(lesson_pdf(maze, every=25), tmp_path)
    assert len(pages) == len(shown) >= 6
    least = min(check_frame_shows_stage(pixels, stage) for pixels, stage in zip(pages, shown, strict=True))
    assert least >= MIN_TOUCHING_DELTA_E


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@pytest.mark.parametrize(("rows", "cols", "algorithm"), [(6, 8, "kruskal"), (9, 12, "wilson"), (30, 30, "kruskal")])
def test_lesson_gif_frames_show_the_zones_and_the_walls_standing(rows: int, cols: int, algorithm: str) -> None:
    """Read back from the GIF's frames, decoded by Pillow."""
    from PIL import Image

    maze = laby3d.generate(rows, cols, algorithm=algorithm, seed=4)
    every = max(1, (rows * cols) // 6)
    shown = list(stages(maze, every=every))
    image = Image.open(io.BytesIO(generation_gif(maze, every=every)))
    assert image.n_frames == len(shown)
    least = math.inf
    for index, stage in enumerate(shown):
        image.seek(index)
        least = min(least, check_frame_shows_stage(np.asarray(image.convert("RGB")), stage))
    assert least >= MIN_TOUCHING_DELTA_E


def test_the_colour_science_matches_published_data() -> None:
    """The CIEDE2000 of tests/colourcheck.py against Sharma, Wu and Dalal's test pairs."""
    for first, second, expected in SHARMA_PAIRS:
        assert delta_e_2000(first, second) == pytest.approx(expected, abs=1e-4)
    assert lab((255, 255, 255)) == pytest.approx((100.0, 0.0, 0.0), abs=0.01)


def test_palette_colours_are_far_apart_and_light() -> None:
    colours = [tuple(round(255 * c) for c in rgb) for rgb in PALETTE]
    least = min(delta_e_2000(lab(a), lab(b)) for i, a in enumerate(colours) for b in colours[i + 1 :])
    assert least >= 23  # measured 23.3: any two palette colours, touching zones or not
    assert all(lab(colour)[0] > 65 for colour in colours)  # black walls and grey numbers readable


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
@pytest.mark.parametrize(
    ("rows", "cols", "every"), [(4, 5, 1), (20, 20, None), pytest.param(60, 60, None, marks=pytest.mark.slow)]
)
def test_touching_zones_never_share_a_colour_and_colours_change_only_on_merges(
    algorithm: str, rows: int, cols: int, every: int | None
) -> None:
    """On the frames a lesson shows, for every algorithm and size: neighbouring cells of two zones
    have two palette colours; a cell's colour changes only when its zone has merged since the
    frame before; the palette suffices."""
    maze = laby3d.generate(rows, cols, algorithm=algorithm, seed=rows)
    shown = lesson_stages(maze, every)
    before = None
    for stage, colours in shown:
        zones = components(stage.maze)
        for a, b, ca, cb in (
            (zones[:, :-1], zones[:, 1:], colours[:, :-1], colours[:, 1:]),
            (zones[:-1], zones[1:], colours[:-1], colours[1:]),
        ):
            assert not np.any((a != b) & (ca == cb))
        if before is not None:
            old_zones, old_colours = before
            for zone in np.unique(zones):
                inside = zones == zone
                if len(np.unique(old_zones[inside])) == 1:  # not merged since the frame before
                    assert np.array_equal(colours[inside], old_colours[inside])
        before = (zones, colours)
    assert max(int(colours.max()) for _, colours in shown) < len(PALETTE)


def test_black_and_white_pages_outline_every_zone(tmp_path: Path) -> None:
    """A lesson page printed in grey (pdftoppm -gray): every wall between two zones is darker
    than every wall inside a zone, and those darker than every cell, so the zones read without
    colour."""
    from PIL import Image

    tool = require_tool("pdftoppm")
    maze = laby3d.generate(10, 14, algorithm="kruskal", seed=6)
    shown = list(stages(maze, every=35))
    (tmp_path / "lesson.pdf").write_bytes(lesson_pdf(maze, every=35))
    subprocess.run([tool, "-r", "100", "-gray", "-png", str(tmp_path / "lesson.pdf"), str(tmp_path / "g")], check=True)
    pages = [np.asarray(Image.open(path).convert("L")) for path in sorted(tmp_path.glob("g-*.png"))]
    assert len(pages) == len(shown)
    for grey, stage in zip(pages, shown, strict=True):
        rgb = np.repeat(grey[:, :, None], 3, axis=2)
        (y0, x0), cell = maze_box(rgb, 10, 14)
        found = components(stage.maze)
        between, inside, cells = [], [], []
        for (r, c), sides in np.ndenumerate(stage.maze.grid.cells):
            cells.append(int(grey[int(y0 + (r + 0.25) * cell), int(x0 + (c + 0.25) * cell)]))
            if c + 1 < 14 and not sides & BIT["E"] and {r * 14 + c, r * 14 + c + 1} != set(opened_pair(stage)):
                y, x = int(y0 + (r + 0.5) * cell), int(x0 + (c + 1) * cell)
                value = int(grey[y, x - 2 : x + 3].min())
                (between if found[r, c] != found[r, c + 1] else inside).append(value)
        assert max(between, default=0) < 50 and (between or stage.zone_count == 1)  # black
        assert all(60 <= value <= 140 for value in inside)  # grey (a rejected wall's red is about 76)
        assert min(cells) > max(inside, default=80) + 20  # lighter than any wall


def test_lesson_gif_frames_and_durations() -> None:
    from PIL import Image

    maze = laby3d.generate(5, 5, algorithm="kruskal", seed=1)
    data = generation_gif(maze, every=6, lang="en")
    assert data == generation_gif(maze, every=6, lang="en")
    image = Image.open(io.BytesIO(data))
    assert image.n_frames == len(list(stages(maze, every=6))) == len(range(0, len(walls_drawn(maze)), 6)) + 1
    durations = []
    for frame in range(image.n_frames):
        image.seek(frame)
        durations.append(image.info["duration"])
    assert min(durations) >= 500 and durations[-1] >= 2000


def test_every_must_be_a_positive_integer() -> None:
    maze = laby3d.generate(3, 3, seed=1)
    with pytest.raises(ParameterError, match="every"):
        list(stages(maze, every=0))


# ---- the classroom form, the strings table ---------------------------------------------------


def test_classroom_form_uses_the_exercise_keys_and_carries_zones() -> None:
    maze = laby3d.generate(4, 6, algorithm="kruskal", seed=2)
    zones = zone_numbers(maze, 10)
    form = to_classroom(maze, zones=zones)
    for r, c in np.ndindex(4, 6):
        cell = form[r][c]
        assert set(cell) == {"N", "E", "S", "O", "zone"}
        assert cell["zone"] == zones[r, c]
        if c < 5:
            assert cell["E"] == form[r][c + 1]["O"] == bool(maze.grid.open_east[r, c])
        if r < 3:
            assert cell["S"] == form[r + 1][c]["N"] == bool(maze.grid.open_south[r, c])
    assert form[0][0]["O"] and form[3][5]["E"]  # entrance W of (0, 0), exit E of (3, 5)
    back = from_classroom(form)
    assert np.array_equal(back.grid.open_east, maze.grid.open_east) and np.array_equal(
        back.grid.open_south, maze.grid.open_south
    )
    english = to_classroom(maze, west="W")
    assert set(english[0][0]) == set("NESW")
    assert np.array_equal(from_classroom(english).grid.open_south, maze.grid.open_south)


def test_every_string_has_both_languages_with_the_same_fields() -> None:
    def fields(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    for key, languages in STRINGS.items():
        assert set(languages) == {"en", "fr"}, key
        assert languages["en"] and languages["fr"], key
        assert fields(languages["en"]) == fields(languages["fr"]), key
    assert text("entrance", "fr") == "Entrée"


def test_a_maze_file_is_replayed_from_its_seed_and_an_edited_one_is_refused() -> None:
    made = laby3d.generate(5, 6, algorithm="kruskal", seed=21)
    read = laby3d.Maze.from_json(made.to_json())
    assert read.carve_order is None
    ours, theirs = list(stages(made, every=4)), list(stages(read, every=4))
    for a, b in zip(ours, theirs, strict=True):
        assert np.array_equal(a.zones, b.zones) and np.array_equal(a.rejected, b.rejected)
    data = json.loads(made.to_json())
    data["seed"] = 22  # another seed's maze: the steps cannot be these walls'
    with pytest.raises(ParameterError, match="not the one"):
        list(stages(laby3d.Maze.from_json(json.dumps(data))))


def test_long_names_and_instructions_stay_on_the_page(tmp_path: Path) -> None:
    """Every word's box (pdftotext -bbox) lies inside the paper's margins."""
    tool = require_tool("pdftotext")
    long_name = "Marie-Éléonore de La Tour d’Auvergne-Montmorency-Laval " + "W" * 40
    instruction = "Trace le chemin de l’entrée à la sortie, puis colorie les impasses en rouge et compte-les. " * 2
    spec = WorksheetSpec(per_page=4, instruction=instruction[:160])
    for data in (
        worksheet_pdf([(laby3d.generate(9, 9, seed=1), long_name)] * 2, spec=spec, lang="fr"),
        key_pdf([(laby3d.generate(9, 9, seed=1), long_name)] * 2, spec=spec, lang="fr"),
    ):
        path = tmp_path / "words.pdf"
        path.write_bytes(data)
        html = subprocess.run([tool, "-bbox", str(path), "-"], check=True, capture_output=True, text=True).stdout
        right_edges = [float(x) for x in re.findall(r'xMax="([\d.]+)"', html)]
        assert right_edges and max(right_edges) <= PAGE_POINTS["a4"][0] - 11 * 72 / 25.4
