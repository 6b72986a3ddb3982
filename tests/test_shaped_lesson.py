"""The graph lesson (lesson.pdf, GIF) and the handout on theta, hex and triangle mazes.

Oracles written here: the zones of every frame are the connected components (a search here) of
the cells joined by the walls the frame shows open, those walls grow one merge at a time to the
maze file's passages; the pages, rasterised by poppler (the GIF decoded by Pillow), show one
light colour per zone, clearly different colours for touching zones (CIEDE2000, tests/colourcheck),
black walls between zones, grey or red walls inside one and nothing where a wall is open; the
handout's table, replayed here by the class exercise's rule, opens exactly the file's passages.
Where a cell or wall lies on a page comes from the tessellation and the page's layout.
"""

from __future__ import annotations

import io
import json
import math
import re
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from colourcheck import delta_e_2000, lab
from test_classroom import rasterised_pages
from test_seed_table import passages_of

import laby3d
from laby3d.draw.animation import generation_gif
from laby3d.draw.lesson import lesson_pdf, lesson_stages, page_layout
from laby3d.draw.lesson_frames import FramePainter
from laby3d.errors import ParameterError
from laby3d.maze.observe import Stage
from laby3d.options.build import validated_job

SHAPES = {"square": (5, 6), "theta": (5, None), "hex": (6, 7), "triangle": (5, 8)}
#: Least CIEDE2000 between the colours of two touching zones (as for square lessons).
MIN_TOUCHING_DELTA_E = 20.0


def maze_of(shape: str, algorithm: str = "kruskal", seed: int = 4):
    rows, cols = SHAPES[shape]
    return laby3d.generate(rows, cols, shape=shape, algorithm=algorithm, seed=seed)


def components(cells: int, pairs: np.ndarray) -> np.ndarray:
    """``(cells,)`` component id of each cell (its lowest cell), by a breadth-first search here."""
    neighbours: dict[int, list[int]] = {}
    for a, b in pairs.tolist():
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    label = -np.ones(cells, dtype=int)
    for start in range(cells):
        if label[start] >= 0:
            continue
        label[start] = start
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            for other in neighbours.get(cell, []):
                if label[other] < 0:
                    label[other] = start
                    queue.append(other)
    return label


def same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    pairs = set(zip(a.tolist(), b.tolist(), strict=True))
    return len(pairs) == len(np.unique(a)) == len(np.unique(b))


# ---- the stages ------------------------------------------------------------------------------


def opened_by_step(maze: laby3d.Maze) -> list[int]:
    """Passages open after each step, a step being a wall the carver took (its record: the
    passages in order and Kruskal's rejected walls, each taken when ``rejected_at`` were open)."""
    taken = [(k + 0.5, True) for k in range(len(maze.carve_order))]
    if maze.rejected is not None:
        taken += [(float(at), False) for at in maze.rejected_at.tolist()]
    opened = [0]
    for _, is_open in sorted(taken, key=lambda wall: wall[0]):
        opened.append(opened[-1] + is_open)
    return opened


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("algorithm", ["kruskal", "wilson", "backtracker"])
def test_zones_are_the_components_of_the_walls_open_so_far(shape: str, algorithm: str) -> None:
    maze = maze_of(shape, algorithm)
    edges = maze.tessellation.edges
    passages = {tuple(pair) for pair in passages_of(json.loads(maze.to_json()))}
    shown = lesson_stages(maze, 5)
    opened_after = opened_by_step(maze)
    last = len(opened_after) - 1
    assert [stage.step for stage, _ in shown] == sorted({*range(0, last, 5), last})
    assert [stage.opened for stage, _ in shown] == [opened_after[stage.step] for stage, _ in shown]
    before: Stage | None = None
    for stage, colours in shown:
        opened = edges[stage.maze.open_walls]
        assert {tuple(pair) for pair in opened.tolist()} <= passages and len(opened) == stage.opened
        zones = components(maze.cell_count, opened)
        assert same_partition(stage.zones, zones) and stage.zone_count == len(np.unique(zones))
        touching = zones[edges[:, 0]] != zones[edges[:, 1]]
        assert not np.any(touching & (colours[edges[:, 0]] == colours[edges[:, 1]])), "touching zones alike"
        if before is not None:
            assert np.all(stage.maze.open_walls >= before.maze.open_walls)  # walls only open
        for wall in stage.rejected.tolist():  # Kruskal's rejected walls: both cells in one zone, closed for good
            a, b = edges[wall]
            assert zones[a] == zones[b] and (int(a), int(b)) not in passages
        before = stage
    assert {tuple(pair) for pair in edges[before.maze.open_walls].tolist()} == passages
    assert (algorithm == "kruskal") == any(len(stage.rejected) for stage, _ in shown)


def test_a_maze_file_is_replayed_and_an_edited_one_is_refused() -> None:
    maze = maze_of("hex")
    read = laby3d.Maze.from_json(maze.to_json())
    assert read.carve_order is None
    assert lesson_pdf(read, every=6) == lesson_pdf(maze, every=6)
    data = json.loads(maze.to_json())
    a, b = data["passages"][0]
    edges = read.tessellation.edges.tolist()
    data["passages"][0] = next(pair for pair in edges if a in pair and pair != [a, b])  # another wall of that cell
    data["passages"].sort()
    data.pop("solution", None)
    try:
        edited = laby3d.Maze.from_json(json.dumps(data))
    except laby3d.errors.Laby3dError:
        pytest.skip("the edit made the maze imperfect, which the reader refuses already")
    with pytest.raises(ParameterError, match="was the file edited"):
        lesson_pdf(edited)


# ---- what the pages show -----------------------------------------------------------------------


def check_frame(pixels: np.ndarray, maze, stage: Stage, to_px) -> float:
    """One light colour per zone (the components found here; each cell sampled at points between
    its centre and its corners, away from its number, the most common colour taken), black walls
    exactly between zones and around the maze, grey or red walls inside one, nothing where a wall
    is open. Returns the least CIEDE2000 between the colours of two touching zones."""
    t = maze.tessellation
    edges = t.edges
    zones = components(maze.cell_count, edges[stage.maze.open_walls])
    colour_of: dict[int, tuple[int, ...]] = {}
    for cell in range(maze.cell_count):
        corners = t.cell_polygon(cell)
        samples = to_px(t.centres[cell] + 0.55 * (corners - t.centres[cell]))
        seen = [tuple(pixels[int(y), int(x)].astype(int).tolist()) for x, y in samples]
        colour = max(set(seen), key=seen.count)
        assert colour_of.setdefault(int(zones[cell]), colour) == colour, f"zone of cell {cell} has two colours"
        assert lab(colour)[0] > 60, f"cell {cell} is not filled with a light zone colour"
    least = math.inf
    reach = 3
    rejected = set(stage.rejected.tolist())
    for wall, (a, b) in enumerate(edges.tolist()):
        if wall == stage.last_opened:
            continue  # dotted
        x, y = (int(v) for v in to_px(t.wall_midpoints[wall][None])[0])
        around = pixels[y - reach : y + reach + 1, x - reach : x + reach + 1].reshape(-1, 3).astype(int)
        red, green, blue = around[np.argmin(around.sum(axis=1))]
        if stage.maze.open_walls[wall]:
            assert lab(tuple(around[np.argmax(around.sum(axis=1))]))[0] > 60 and max(red, green, blue) > 60
            continue
        if zones[a] != zones[b]:
            least = min(least, delta_e_2000(lab(colour_of[zones[a]]), lab(colour_of[zones[b]])))
            assert max(red, green, blue) < 60, (stage.opened, wall, "a wall between zones is black")
        elif wall in rejected:
            assert red > 200 and max(green, blue) < 60, (stage.opened, wall, "a rejected wall is red")
        else:
            assert 60 <= max(red, green, blue) <= 140 and max(red, green, blue) - min(red, green, blue) < 20, (
                stage.opened,
                wall,
                "a wall inside a zone is grey",
            )
    for b in range(len(t.boundary_cells)):  # the whole outline stands
        x, y = (int(v) for v in to_px(t.boundary_midpoints[b][None])[0])
        around = pixels[y - reach : y + reach + 1, x - reach : x + reach + 1].reshape(-1, 3).astype(int)
        assert around.sum(axis=1).min() < 180
    return least


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@pytest.mark.parametrize("shape", SHAPES)
def test_lesson_pages_show_the_zones_and_the_walls_standing(tmp_path: Path, shape: str) -> None:
    maze = maze_of(shape)
    dpi = 100
    shown = lesson_stages(maze, 8)
    pages = rasterised_pages(lesson_pdf(maze, every=8), tmp_path, dpi=dpi)
    assert len(pages) == len(shown)
    layout = page_layout(maze)

    def to_px(points: np.ndarray) -> np.ndarray:
        return layout.on_page(points) * dpi / 72

    least = min(check_frame(pixels, maze, stage, to_px) for pixels, (stage, _) in zip(pages, shown, strict=True))
    assert least >= MIN_TOUCHING_DELTA_E


@pytest.mark.parametrize("shape", SHAPES)
def test_lesson_gif_frames_show_the_zones_and_the_walls_standing(shape: str) -> None:
    from PIL import Image

    maze = maze_of(shape, "wilson")
    shown = lesson_stages(maze, 9)
    image = Image.open(io.BytesIO(generation_gif(maze, every=9)))
    assert image.n_frames == len(shown)
    painter = FramePainter(maze, "en")

    def to_px(points: np.ndarray) -> np.ndarray:
        return painter.margin + points * painter.cell

    least = math.inf
    for index, (stage, _) in enumerate(shown):
        image.seek(index)
        least = min(least, check_frame(np.asarray(image.convert("RGB")), maze, stage, to_px))
    assert least >= MIN_TOUCHING_DELTA_E


@pytest.mark.parametrize("shape", SHAPES)
def test_lesson_captions_and_the_same_bytes(tmp_path: Path, shape: str) -> None:
    from tests.test_classroom import pdf_pages_text

    maze = maze_of(shape)
    data = laby3d.render(maze, "lesson.pdf", every=10, lang="fr")
    assert data == laby3d.render(maze, "lesson.pdf", every=10, lang="fr")
    assert laby3d.render(maze, "gif", every=10) == laby3d.render(maze, "gif", every=10)
    pages = pdf_pages_text(data, tmp_path)
    walls = len(maze.tessellation.edges)
    opened_after = opened_by_step(maze)
    last = len(opened_after) - 1
    assert len(pages) == len({*range(0, last, 10), last})
    for page, steps in zip(pages, sorted({*range(0, last, 10), last}), strict=True):
        opened = opened_after[steps]
        assert f"étape {steps}/{last} · murs ouverts : {opened}/{maze.cell_count - 1}" in page
        assert f"zones : {maze.cell_count - opened}" in page
        assert f"murs debout : {walls - opened}/{walls}" in page
    described = {
        "square": "un labyrinthe 5×6,",
        "theta": "labyrinthe rond de 5 anneaux",
        "hex": "6×7 d’hexagones",
        "triangle": "5×8 de triangles",
    }
    assert described[shape] in pages[0]


# ---- the handout ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("shape", "rows", "cols"), [("theta", 3, None), ("hex", 5, 6), ("triangle", 5, 6)])
def test_the_handouts_table_replayed_by_the_rule_opens_the_files_passages(
    tmp_path: Path, shape: str, rows: int, cols: int | None
) -> None:
    from tests.test_classroom import pdf_pages_text

    maze = laby3d.generate(rows, cols, shape=shape, algorithm="kruskal", seed=2)
    data = laby3d.render(maze, "handout.pdf", lang="fr")
    first, second = pdf_pages_text(data, tmp_path)
    assert "Construire un labyrinthe par fusion de zones" in first and "Zones restantes" in second
    table = first.split("\n")
    header = next(i for i, line in enumerate(table) if line.lstrip().startswith("étape"))
    blocks: tuple[list, list] = ([], [])  # the table's two blocks, side by side on the page
    for line in table[header + 1 :]:
        for block, (a, b) in zip(blocks, re.findall(r"\b(\d+) ?\| ?(\d+)\b", line), strict=False):
            block.append((int(a), int(b)))
    taken = blocks[0] + blocks[1]
    edges = {tuple(pair) for pair in maze.tessellation.edges.tolist()}
    assert taken and all(pair in edges and pair[0] < pair[1] for pair in taken)
    parent = list(range(maze.cell_count))  # the rule, replayed here: open when the two zones differ

    def root(cell: int) -> int:
        while parent[cell] != cell:
            cell = parent[cell]
        return cell

    opened = []
    for a, b in taken:
        if root(a) != root(b):
            parent[root(b)] = root(a)
            opened.append((a, b))
    assert sorted(opened) == sorted(tuple(pair) for pair in passages_of(json.loads(maze.to_json())))
    assert len(taken) > len(opened)  # Kruskal refused some walls: the table shows them too


def test_the_handout_counts_a_shapes_cells() -> None:
    job = validated_job({"maze": {"shape": "theta", "rows": 3}, "formats": ["handout.pdf"]})  # 19 cells, cols unused
    assert job.maze.rows == 3
    with pytest.raises(ParameterError) as caught:
        validated_job({"maze": {"shape": "theta", "rows": 4}, "formats": ["handout.pdf"]})
    assert caught.value.field == "maze.rows" and "at most 30 cells, this one has 31" in caught.value.detail
