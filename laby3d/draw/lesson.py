"""The graph lesson in pictures: generation step by step, cells coloured by zone.

Each frame shows one :class:`laby3d.maze.observe.Stage`: the walls still standing, every cell
filled with its zone's colour, the wall just opened (dotted orange), the walls Kruskal examined
and kept because both cells were already in one zone (red), and a caption with the step, the
zone count (cells − walls opened) and the walls still standing. A zone's colour is its zone
number's colour, and the zone numbers follow the class exercise (:mod:`laby3d.maze.observe`):
so a cell changes colour only when its zone merges into another and takes its number.

:func:`lesson_pdf` gives one vector page per frame, written straight as PDF
(:mod:`laby3d.draw.vector_pdf`); :func:`laby3d.draw.animation.generation_gif` the same frames as
a GIF, drawn with Pillow (:mod:`laby3d.draw.lesson_raster`). Neither uses matplotlib, so neither
depends on its settings.
"""

from __future__ import annotations

import colorsys
import io
import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from laby3d.draw.strings import check_language, text
from laby3d.draw.vector_pdf import Page, pdf_document
from laby3d.errors import ParameterError
from laby3d.maze.observe import Stage, stage_after, stages
from laby3d.maze.walls import wall_segments

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


def zone_colour(number: int) -> tuple[float, float, float]:
    """RGB (0..1) of zone ``number``: a light colour picked by hashing the number, so
    neighbouring numbers get unrelated hues and a zone's colour never depends on the step.

    >>> zone_colour(7) == zone_colour(7) and zone_colour(7) != zone_colour(8)
    True
    """
    mixed = (int(number) * 2654435761) % 2**32  # Knuth's multiplicative hash
    hue = mixed / 2**32
    lightness = (0.72, 0.80, 0.88)[(mixed >> 7) % 3]
    return colorsys.hls_to_rgb(hue, lightness, 0.75)


def zone_image(zones: np.ndarray) -> np.ndarray:
    """``(rows, cols, 3)`` float RGB (0..1) of every cell from its zone number."""
    numbers, index = np.unique(zones, return_inverse=True)
    palette = np.array([zone_colour(int(number)) for number in numbers.tolist()])
    return palette[index.reshape(zones.shape)]


def zone_pixels(zones: np.ndarray) -> np.ndarray:
    """``(rows, cols, 3)`` uint8 RGB of every cell from its zone number."""
    return np.round(zone_image(zones) * 255).astype(np.uint8)


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
    (one or two lines)."""
    return caption_title(maze, lang=lang), caption_counts(maze, stage, lang=lang), caption_legend(maze, lang=lang)


def caption_title(maze: Maze, *, lang: str) -> str:
    """The caption's first line, the same on every frame: algorithm and size."""
    algorithm = (maze.algorithm or "maze").capitalize()
    return text("lesson_title", lang, algorithm=algorithm, rows=maze.rows, cols=maze.cols)


def caption_counts(maze: Maze, stage: Stage, *, lang: str) -> str:
    """The caption's line of counts: steps, zones, walls standing (and rejected, for Kruskal)."""
    rows, cols = maze.rows, maze.cols
    counts = text(
        "lesson_counts",
        lang,
        opened=stage.opened,
        total=maze.cell_count - 1,
        zones=stage.zone_count,
        walls=stage.walls_standing,
        all_walls=2 * rows * cols - rows - cols,
    )
    if maze.algorithm == "kruskal":
        counts += text("lesson_rejected", lang, rejected=len(stage.rejected))
    return counts


def caption_legend(maze: Maze, *, lang: str) -> str:
    """The caption's legend, the same on every frame (two lines for Kruskal)."""
    legend = text("lesson_legend", lang)
    if maze.algorithm == "kruskal":
        legend += "\n" + text("lesson_legend_rejected", lang)
    return legend


def lesson_frame_png(maze: Maze, steps: int, *, lang: str = "en", width_px: int = 560) -> bytes:
    """One lesson frame, after ``steps`` passages, as PNG bytes (no date in the file)."""
    from laby3d.draw.lesson_raster import stage_image

    check_language(lang)
    buffer = io.BytesIO()
    stage_image(maze, stage_after(maze, steps), lang=lang, width_px=width_px).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def lesson_stages(maze: Maze, every: int | None) -> Iterator[Stage]:
    """The stages a lesson shows: every ``every`` passages (:func:`default_every` when None)."""
    return stages(maze, every=default_every(maze) if every is None else every)


def lesson_pdf(maze: Maze, *, every: int | None = None, lang: str = "en") -> bytes:
    """A PDF with one page per frame of the lesson: vector walls, zone colours as exact cells
    (an image of one pixel per cell), the caption as text (:mod:`laby3d.draw.vector_pdf`)."""
    check_language(lang)
    return pdf_document([stage_page(maze, stage, lang=lang) for stage in lesson_stages(maze, every)])


def stage_page(maze: Maze, stage: Stage, *, lang: str) -> Page:
    """The PDF page of ``stage``: the maze in cell units scaled to the page's width
    (:data:`FRAME_WIDTH_IN`), the caption in the band below."""
    rows, cols = maze.rows, maze.cols
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

    page.image(zone_pixels(stage.zones), x=left, y=top, width=cols * scale, height=rows * scale)
    line_width = max(0.6, min(2.5, 120.0 / max(rows, cols)))
    page.lines(on_page(wall_segments(stage.maze)), colour=(0.0, 0.0, 0.0), width=line_width, cap="projecting")
    if len(stage.rejected):
        rejected = np.array([wall_between(int(a), int(b), cols) for a, b in stage.rejected.tolist()])
        page.lines(on_page(rejected), colour=REJECTED_COLOUR, width=line_width * 1.6)
    if stage.last_opened is not None:
        opened = on_page(wall_between(*stage.last_opened, cols)[None])
        dotted = line_width * 2
        page.lines(opened, colour=OPENED_COLOUR, width=dotted, dash=(dotted, 1.65 * dotted))
    if max(rows, cols) <= MAX_SIDE_WITH_NUMBERS:
        size = max(5.0, min(11.0, 60.0 / max(rows, cols)))
        for (row, col), number in np.ndenumerate(stage.zones):
            x, y = on_page(np.array([col + 0.5, row + 0.5]))
            page.text(x, y + 0.35 * size, str(number), size=size, colour=NUMBER_COLOUR, centred=True)
    styles = ((0.75, 12, True), (0.5, 10, False), (0.25, 8, False))
    for content, (inches, size, bold) in zip(caption_lines(maze, stage, lang=lang), styles, strict=True):
        lines = content.split("\n")
        first = page.height - inches * 72 - (len(lines) - 1) * 0.55 * size + 0.35 * size
        for number, line in enumerate(lines):
            page.text(0.03 * width, first + number * 1.1 * size, line, size=size, bold=bold)
    return page
