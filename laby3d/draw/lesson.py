"""The graph lesson in pictures: generation step by step, cells coloured by zone.

Each frame shows one :class:`laby3d.maze.observe.Stage`: every cell filled with its zone's
colour, the walls still standing — black between two zones (and around the maze), grey inside a
zone (walls that will never open) — the wall just opened (dotted orange), the walls Kruskal
examined and kept because both cells were already in one zone (red), and a caption with the step,
the zone count (cells − walls opened) and the walls still standing. Small mazes have each cell's
zone number (the class exercise's rule, :mod:`laby3d.maze.observe`).

Zones that touch never share a colour, and a cell changes colour only when its zone merges
(:mod:`laby3d.draw.zone_colours`); printed in black and white, the black walls between zones
still outline every zone.

:func:`lesson_pdf` gives one vector page per frame, written straight as PDF
(:mod:`laby3d.draw.vector_pdf`); :func:`laby3d.draw.animation.generation_gif` the same frames as
a GIF, drawn with Pillow (:mod:`laby3d.draw.lesson_raster`). Neither uses matplotlib, so neither
depends on its settings.
"""

from __future__ import annotations

import io
import math
from typing import TYPE_CHECKING

import numpy as np

from laby3d.draw.strings import check_language, text
from laby3d.draw.vector_pdf import Page, pdf_document
from laby3d.draw.zone_colours import colour_rgb, frame_colours
from laby3d.errors import ParameterError
from laby3d.maze.grid import lattice_segments, wall_lattice
from laby3d.maze.observe import Stage, stage_after, stages

if TYPE_CHECKING:
    from laby3d.maze.model import Maze

#: About how many frames a lesson has when no stride is given.
DEFAULT_FRAMES = 40
#: Largest maze side whose zone numbers are written in the cells.
MAX_SIDE_WITH_NUMBERS = 8
#: RGB (0..1) of the wall just opened (dotted; matplotlib's "darkorange").
OPENED_COLOUR = (1.0, 140 / 255, 0.0)
#: RGB (0..1) of the walls Kruskal rejected.
REJECTED_COLOUR = (1.0, 0.0, 0.0)
#: RGB (0..1) of the walls inside a zone (80/255: a grey every frame's palette holds).
INNER_WALL_COLOUR = (80 / 255, 80 / 255, 80 / 255)
#: RGB (0..1) of the zone numbers written in the cells of small mazes.
NUMBER_COLOUR = (0.25, 0.25, 0.25)
#: Width of a frame (inches); its height follows the maze's shape plus the caption.
FRAME_WIDTH_IN = 7.0
_CAPTION_IN = 1.0


def default_every(maze: Maze) -> int:
    """The stride giving about :data:`DEFAULT_FRAMES` frames (1 for small mazes).

    >>> import laby3d
    >>> default_every(laby3d.generate(4, 5, seed=1)), default_every(laby3d.generate(20, 20, seed=1))
    (1, 10)
    """
    return max(1, math.ceil((maze.cell_count - 1) / DEFAULT_FRAMES))


def colour_pixels(colours: np.ndarray) -> np.ndarray:
    """``(rows, cols, 3)`` uint8 RGB of every cell from its palette index."""
    top = int(colours.max()) + 1 if colours.size else 1
    table = np.round(np.array([colour_rgb(index) for index in range(top)]) * 255).astype(np.uint8)
    return table[colours]


def zone_walls(stage: Stage) -> tuple[np.ndarray, np.ndarray]:
    """``(k, 2, 2)`` segments (cell units) of the walls standing between two zones or around the
    maze, and of those inside one zone."""
    horizontal, vertical = wall_lattice(stage.maze.grid)
    zones = stage.maze.tessellation.per_cell(stage.zones)
    inner_h = np.zeros_like(horizontal)
    inner_v = np.zeros_like(vertical)
    inner_h[1:-1] = horizontal[1:-1] & (zones[:-1] == zones[1:])
    inner_v[:, 1:-1] = vertical[:, 1:-1] & (zones[:, :-1] == zones[:, 1:])
    return lattice_segments(horizontal & ~inner_h, vertical & ~inner_v), lattice_segments(inner_h, inner_v)


def wall_between(a: int, b: int, cols: int) -> np.ndarray:
    """``(2, 2)`` end points (x = column, y = row, cell units) of the wall between neighbouring
    cells ``a`` and ``b`` (cell index = row·cols + col).

    >>> wall_between(0, 1, 3).tolist(), wall_between(1, 4, 3).tolist()
    ([[1.0, 0.0], [1.0, 1.0]], [[1.0, 1.0], [2.0, 1.0]])
    """
    low, high = min(a, b), max(a, b)
    row, col = divmod(low, cols)
    if high == low + 1 and high // cols == row:
        return np.array([[col + 1, row], [col + 1, row + 1]], dtype=float)
    if high == low + cols:
        return np.array([[col, row + 1], [col + 1, row + 1]], dtype=float)
    raise ParameterError(f"cells {a} and {b} are not neighbours in a maze of {cols} columns")


def caption_lines(maze: Maze, stage: Stage, *, lang: str) -> tuple[str, str, str]:
    """The caption of a frame: title, counts (steps, zones, walls standing, rejected) and legend
    (two lines)."""
    return caption_title(maze, lang=lang), caption_counts(maze, stage, lang=lang), caption_legend(maze, lang=lang)


def caption_title(maze: Maze, *, lang: str) -> str:
    """The caption's first line, the same on every frame: algorithm and size."""
    algorithm = (maze.algorithm or "maze").capitalize()
    return text("lesson_title", lang, algorithm=algorithm, rows=maze.rows, cols=maze.cols)


def caption_counts(maze: Maze, stage: Stage, *, lang: str) -> str:
    """The caption's line of counts: steps, zones, walls standing (and rejected, for Kruskal)."""
    return counts_line(maze, stage, all_walls=len(maze.open_walls), lang=lang)


def counts_line(maze: Maze, stage: Stage, *, all_walls: int, lang: str) -> str:
    """The counts of ``stage`` of a maze of any shape with ``all_walls`` interior walls."""
    counts = text(
        "lesson_counts",
        lang,
        opened=stage.opened,
        total=maze.cell_count - 1,
        zones=stage.zone_count,
        walls=stage.walls_standing,
        all_walls=all_walls,
    )
    if maze.algorithm == "kruskal":
        counts += text("lesson_rejected", lang, rejected=len(stage.rejected))
    return counts


def caption_legend(maze: Maze, *, lang: str) -> str:
    """The caption's legend, the same on every frame: two lines."""
    second = "lesson_legend_rejected" if maze.algorithm == "kruskal" else "lesson_legend_opened"
    return text("lesson_legend", lang) + "\n" + text(second, lang)


def lesson_frame_png(maze: Maze, steps: int, *, lang: str = "en", width_px: int = 560) -> bytes:
    """One lesson frame, after ``steps`` passages, as PNG bytes (no date in the file)."""
    from laby3d.draw.lesson_raster import stage_image

    check_language(lang)
    buffer = io.BytesIO()
    ((stage, colours),) = coloured(maze, [stage_after(maze, steps)])
    image = stage_image(maze, stage, colours, lang=lang, width_px=width_px)
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def lesson_stages(maze: Maze, every: int | None) -> list[tuple[Stage, np.ndarray]]:
    """The stages a lesson shows, every ``every`` passages (:func:`default_every` when None),
    each with the ``(rows, cols)`` palette index of its cells' colours."""
    return coloured(maze, list(stages(maze, every=default_every(maze) if every is None else every)))


def coloured(maze: Maze, shown: list[Stage]) -> list[tuple[Stage, np.ndarray]]:
    """``shown`` with each stage's ``(rows, cols)`` cell colours
    (:func:`laby3d.draw.zone_colours.frame_colours` over the grid)."""
    grid = maze.grid
    frames = [stage.zones.reshape(grid.rows, grid.cols) for stage in shown]
    return list(zip(shown, frame_colours(frames), strict=True))


def lesson_pdf(maze: Maze, *, every: int | None = None, lang: str = "en") -> bytes:
    """A PDF with one page per frame of the lesson: vector walls, zone colours as exact cells
    (an image of one pixel per cell), the caption as text (:mod:`laby3d.draw.vector_pdf`)."""
    check_language(lang)
    return pdf_document([stage_page(maze, stage, colours, lang=lang) for stage, colours in lesson_stages(maze, every)])


def stage_page(maze: Maze, stage: Stage, colours: np.ndarray, *, lang: str) -> Page:
    """The PDF page of ``stage`` with its cells' palette indices ``colours``: the maze in cell
    units scaled to the page's width (:data:`FRAME_WIDTH_IN`), the caption in the band below."""
    rows, cols = maze.grid.rows, maze.grid.cols
    edges = maze.tessellation.edges
    width = FRAME_WIDTH_IN * 72
    maze_band = width * rows / cols
    page = Page(width=width, height=maze_band + _CAPTION_IN * 72)
    # the maze's box: 94 % of the width, 96 % of the band above the caption, centred, with a
    # margin of 0.05 cell around the walls
    box_width, box_height = 0.94 * width, 0.96 * maze_band
    scale = min(box_width / (cols + 0.1), box_height / (rows + 0.1))
    left = 0.03 * width + (box_width - scale * (cols + 0.1)) / 2 + 0.05 * scale
    top = 0.04 * maze_band + (box_height - scale * (rows + 0.1)) / 2 + 0.05 * scale

    def on_page(points: np.ndarray) -> np.ndarray:
        return points * scale + (left, top)

    page.image(colour_pixels(colours), x=left, y=top, width=cols * scale, height=rows * scale)
    line_width = max(0.6, min(2.5, 120.0 / max(rows, cols)))
    between, inside = zone_walls(stage)
    page.lines(on_page(inside), colour=INNER_WALL_COLOUR, width=line_width * 0.7, cap="projecting")
    page.lines(on_page(between), colour=(0.0, 0.0, 0.0), width=line_width * 1.4, cap="projecting")
    if len(stage.rejected):
        rejected = np.array([wall_between(int(a), int(b), cols) for a, b in edges[stage.rejected].tolist()])
        page.lines(on_page(rejected), colour=REJECTED_COLOUR, width=line_width * 1.6)
    if stage.last_opened is not None:
        opened = on_page(wall_between(int(edges[stage.last_opened, 0]), int(edges[stage.last_opened, 1]), cols)[None])
        dotted = line_width * 2
        page.lines(opened, colour=OPENED_COLOUR, width=dotted, dash=(dotted, 1.65 * dotted))
    if max(rows, cols) <= MAX_SIDE_WITH_NUMBERS:
        size = max(5.0, min(11.0, 60.0 / max(rows, cols)))
        for (row, col), number in np.ndenumerate(stage.zones.reshape(rows, cols)):
            x, y = on_page(np.array([col + 0.5, row + 0.5]))
            page.text(x, y + 0.35 * size, str(number), size=size, colour=NUMBER_COLOUR, align="centre")
    styles = ((0.75, 12, True), (0.5, 10, False), (0.25, 8, False))
    for content, (inches, size, bold) in zip(caption_lines(maze, stage, lang=lang), styles, strict=True):
        lines = content.split("\n")
        first = page.height - inches * 72 - (len(lines) - 1) * 0.55 * size + 0.35 * size
        for number, line in enumerate(lines):
            page.text(0.03 * width, first + number * 1.1 * size, line, size=size, bold=bold)
    return page
