"""The graph lesson in pictures: generation step by step, cells coloured by zone.

Each frame shows one :class:`laby3d.maze.observe.Stage`: the walls still standing, every cell
filled with its zone's colour, the wall just opened (dotted orange), the walls Kruskal examined
and kept because both cells were already in one zone (red), and a caption with the step, the
zone count (cells − walls opened) and the walls still standing. A zone's colour is its zone
number's colour, and a merged zone keeps the larger zone's number (:mod:`laby3d.maze.observe`):
so a cell changes colour only when its zone merges into a larger one.

:func:`lesson_pdf` gives one page per frame; :func:`laby3d.draw.animation.generation_gif`
the same frames as a GIF. matplotlib is imported inside the functions that draw.
"""

from __future__ import annotations

import colorsys
import io
import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.draw import exclusive
from laby3d.draw.strings import check_language, text
from laby3d.draw.worksheet import PDF_METADATA
from laby3d.errors import ParameterError
from laby3d.maze.observe import Stage, stage_after, stages
from laby3d.maze.walls import wall_segments

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from laby3d.maze.model import Maze

#: About how many frames a lesson has when no stride is given.
DEFAULT_FRAMES = 40
#: Largest maze side whose zone numbers are written in the cells.
MAX_SIDE_WITH_NUMBERS = 8
OPENED_COLOUR = "darkorange"
REJECTED_COLOUR = "red"
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
    """``(rows, cols, 3)`` float RGB of every cell from its zone number."""
    palette = {int(number): zone_colour(int(number)) for number in np.unique(zones)}
    return np.array([[palette[int(number)] for number in row] for row in zones.tolist()]).reshape(*zones.shape, 3)


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


def frame_figure(maze: Maze) -> tuple[Any, Axes]:
    """A figure for the frames of ``maze``: axes in cell units above a caption band."""
    from matplotlib.figure import Figure

    maze_height = FRAME_WIDTH_IN * maze.rows / maze.cols
    figure = Figure(figsize=(FRAME_WIDTH_IN, maze_height + _CAPTION_IN))
    bottom = _CAPTION_IN / (maze_height + _CAPTION_IN)
    axes = figure.add_axes((0.03, bottom, 0.94, (1 - bottom) * 0.96))
    return figure, axes


def draw_stage(figure: Any, axes: Axes, maze: Maze, stage: Stage, *, lang: str) -> None:
    """Draw ``stage`` of ``maze`` on ``axes`` (cleared first) and its caption on ``figure``."""
    from matplotlib.collections import LineCollection

    axes.clear()
    for old in list(figure.texts):
        old.remove()
    rows, cols = maze.rows, maze.cols
    axes.imshow(zone_image(stage.zones), extent=(0, cols, rows, 0), interpolation="none")
    line_width = max(0.6, min(2.5, 120.0 / max(rows, cols)))
    walls = LineCollection(
        list(wall_segments(stage.maze)), colors="black", linewidths=line_width, capstyle="projecting"
    )
    axes.add_collection(walls)
    if len(stage.rejected):
        rejected = [wall_between(int(a), int(b), cols) for a, b in stage.rejected.tolist()]
        axes.add_collection(LineCollection(rejected, colors=REJECTED_COLOUR, linewidths=line_width * 1.6))
    if stage.last_opened is not None:
        (x0, y0), (x1, y1) = wall_between(*stage.last_opened, cols)
        axes.plot([x0, x1], [y0, y1], color=OPENED_COLOUR, linewidth=line_width * 2, linestyle=":")
    if max(rows, cols) <= MAX_SIDE_WITH_NUMBERS:
        size = max(5.0, min(11.0, 60.0 / max(rows, cols)))
        for (row, col), number in np.ndenumerate(stage.zones):
            axes.text(col + 0.5, row + 0.5, str(number), fontsize=size, ha="center", va="center", color="0.25")
    axes.set_xlim(-0.05, cols + 0.05)
    axes.set_ylim(rows + 0.05, -0.05)
    axes.set_aspect("equal")
    axes.set_axis_off()
    _caption(figure, maze, stage, lang=lang)


def caption_lines(maze: Maze, stage: Stage, *, lang: str) -> tuple[str, str, str]:
    """The caption of a frame: title, counts (steps, zones, walls standing, rejected) and legend
    (one or two lines)."""
    rows, cols = maze.rows, maze.cols
    title = text("lesson_title", lang, algorithm=(maze.algorithm or "maze").capitalize(), rows=rows, cols=cols)
    counts = text(
        "lesson_counts",
        lang,
        opened=stage.opened,
        total=maze.cell_count - 1,
        zones=stage.zone_count,
        walls=stage.walls_standing,
        all_walls=2 * rows * cols - rows - cols,
    )
    legend = text("lesson_legend", lang)
    if maze.algorithm == "kruskal":
        counts += text("lesson_rejected", lang, rejected=len(stage.rejected))
        legend += "\n" + text("lesson_legend_rejected", lang)
    return title, counts, legend


def _caption(figure: Any, maze: Maze, stage: Stage, *, lang: str) -> None:
    height = figure.get_figheight()
    styles = ((0.75, 12, "bold"), (0.5, 10, "normal"), (0.25, 8, "normal"))
    for content, (inches, size, weight) in zip(caption_lines(maze, stage, lang=lang), styles, strict=True):
        figure.text(0.03, inches / height, content, fontsize=size, weight=weight, va="center", linespacing=1.1)


@exclusive
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


@exclusive
def lesson_pdf(maze: Maze, *, every: int | None = None, lang: str = "en") -> bytes:
    """A PDF with one page per frame of the lesson (vector walls, zone colours as exact cells)."""
    import matplotlib
    from matplotlib.backends.backend_pdf import PdfPages

    check_language(lang)
    buffer = io.BytesIO()
    with matplotlib.rc_context({"pdf.fonttype": 42}), PdfPages(buffer, metadata=PDF_METADATA) as pdf:
        figure, axes = frame_figure(maze)
        for stage in lesson_stages(maze, every):
            draw_stage(figure, axes, maze, stage, lang=lang)
            pdf.savefig(figure)
    return buffer.getvalue()
