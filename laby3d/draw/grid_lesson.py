"""The square grid's lesson, faster: the same pages and frames as :mod:`laby3d.draw.lesson`, with
the zone colours drawn as one image of a pixel per cell and the walls as the lattice's merged
runs, where the lesson of any shape fills a polygon per cell.

The format table (:mod:`laby3d.export.formats`) chooses it for the square grid because it is
measurably faster (one process, this machine, loaded: 15×15 Kruskal lesson PDF 0.25 s against
1.34 s for the cell-graph lesson, 60×60 2.2 s against 22.8 s; GIF 0.73 s against 0.76 s and
2.8 s against 10.5 s) and keeps every square lesson's bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from laby3d.draw.lesson import (
    INNER_WALL_COLOUR,
    NUMBER_COLOUR,
    OPENED_COLOUR,
    REJECTED_COLOUR,
    colour_pixels,
    default_every,
    number_size,
    page_layout,
    write_caption,
)
from laby3d.draw.lesson_frames import BLACK, INNER, OPENED, REJECTED, WHITE, FramePainter
from laby3d.draw.strings import check_language
from laby3d.draw.vector_pdf import Page, pdf_document
from laby3d.draw.zone_colours import PALETTE, frame_colours
from laby3d.errors import ParameterError
from laby3d.maze.grid import lattice_segments, wall_lattice
from laby3d.maze.observe import Stage, stages

if TYPE_CHECKING:
    from PIL import Image

    from laby3d.maze.model import Maze

#: Largest maze side whose zone numbers are written in the cells.
MAX_SIDE_WITH_NUMBERS = 8


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
    return walls_between(np.array([[a, b]]), cols)[0]


def walls_between(pairs: np.ndarray, cols: int) -> np.ndarray:
    """``(k, 2, 2)`` end points (cell units) of the wall between the neighbouring cells of each
    pair of ``pairs`` ``(k, 2)``, as :func:`wall_between` gives one."""
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    low, high = pairs.min(axis=1), pairs.max(axis=1)
    row, col = np.divmod(low, cols)
    east = (high == low + 1) & (high // cols == row)
    apart = ~east & (high != low + cols)
    if apart.any():
        a, b = pairs[apart][0].tolist()
        raise ParameterError(f"cells {a} and {b} are not neighbours in a maze of {cols} columns")
    start = np.stack([np.where(east, col + 1, col), np.where(east, row, row + 1)], axis=1)
    return np.stack([start, np.stack([col + 1, row + 1], axis=1)], axis=1).astype(float)


def grid_lesson_stages(
    maze: Maze, every: int | None, *, numbering: str = "west-north"
) -> list[tuple[Stage, np.ndarray]]:
    """The stages a lesson shows, every ``every`` steps (:func:`laby3d.draw.lesson.default_every`
    when None), zones numbered by ``numbering``, each with the ``(rows, cols)`` palette index of
    its cells' colours."""
    grid = maze.grid
    shown = list(stages(maze, every=default_every(maze) if every is None else every, numbering=numbering))
    frames = [stage.zones.reshape(grid.rows, grid.cols) for stage in shown]
    return list(zip(shown, frame_colours(frames), strict=True))


def grid_lesson_pdf(maze: Maze, *, every: int | None = None, lang: str = "en", numbering: str = "west-north") -> bytes:
    """A PDF with one page per frame of the lesson of a square maze (:func:`stage_page`)."""
    check_language(lang)
    shown = grid_lesson_stages(maze, every, numbering=numbering)
    return pdf_document([stage_page(maze, stage, colours, lang=lang) for stage, colours in shown])


def stage_page(maze: Maze, stage: Stage, colours: np.ndarray, *, lang: str) -> Page:
    """The PDF page of ``stage`` with its cells' palette indices ``colours``: the maze in cell
    units scaled to the page's width (:data:`laby3d.draw.lesson.FRAME_WIDTH_IN`), the caption in the band below."""
    rows, cols = maze.grid.rows, maze.grid.cols
    edges = maze.tessellation.edges
    layout = page_layout(maze)
    page = Page(width=layout.width, height=layout.height)
    scale, left, top, on_page = layout.scale, layout.left, layout.top, layout.on_page

    page.image(colour_pixels(colours), x=left, y=top, width=cols * scale, height=rows * scale)
    line_width = max(0.6, min(2.5, 120.0 / max(rows, cols)))
    between, inside = zone_walls(stage)
    page.lines(on_page(inside), colour=INNER_WALL_COLOUR, width=line_width * 0.7, cap="projecting")
    page.lines(on_page(between), colour=(0.0, 0.0, 0.0), width=line_width * 1.4, cap="projecting")
    if len(stage.rejected):
        page.lines(on_page(walls_between(edges[stage.rejected], cols)), colour=REJECTED_COLOUR, width=line_width * 1.6)
    if stage.last_opened is not None:
        opened = on_page(wall_between(int(edges[stage.last_opened, 0]), int(edges[stage.last_opened, 1]), cols)[None])
        dotted = line_width * 2
        page.lines(opened, colour=OPENED_COLOUR, width=dotted, dash=(dotted, 1.65 * dotted))
    if max(rows, cols) <= MAX_SIDE_WITH_NUMBERS:
        size = number_size(scale)
        for (row, col), number in np.ndenumerate(stage.zones.reshape(rows, cols)):
            x, y = on_page(np.array([col + 0.5, row + 0.5]))
            page.text(x, y + 0.35 * size, str(number), size=size, colour=NUMBER_COLOUR, align="centre")
    write_caption(page, maze, stage, lang=lang)
    return page


@dataclass(frozen=True)
class GridFramePainter(FramePainter):
    """The lesson's frames of a square maze: the cells one pixel each, scaled up, and the walls
    as lattice runs."""

    @cached_property
    def numbered(self) -> bool:
        """Whether the frames write each cell's zone number."""
        return max(self.maze.grid.rows, self.maze.grid.cols) <= MAX_SIDE_WITH_NUMBERS

    @cached_property
    def _walls(self) -> np.ndarray:
        """``(E, 2, 2)`` end points (cell units) of the wall of each of the maze's edges."""
        return walls_between(self.maze.tessellation.edges, self.maze.grid.cols)

    def frame(self, stage: Stage, colours: np.ndarray) -> Image.Image:
        """The frame of ``stage``, its cells' palette indices ``colours``, as a palette ("P")
        image with :attr:`palette`."""
        from PIL import Image, ImageDraw

        rows, cols = self.maze.grid.rows, self.maze.grid.cols
        margin, cell = self.margin, self.cell
        maze_width, maze_height = self.width_px - 2 * margin, round(cell * rows)
        caption = self.caption(stage)
        caption_top = margin + maze_height + margin
        # Palette images pasted into one another keep their indices: no copy through numpy.
        image = Image.new("P", (self.width_px, caption_top + len(caption) + margin), WHITE)
        image.putpalette(self.palette.tobytes())
        cells = Image.frombytes("P", (cols, rows), self._colours[1][colours].astype(np.uint8).tobytes())
        image.paste(cells.resize((maze_width, maze_height), Image.Resampling.NEAREST), (margin, margin))
        image.paste(Image.frombytes("P", (self.width_px, len(caption)), caption.tobytes()), (0, caption_top))
        draw = ImageDraw.Draw(image)

        def point(x: float, y: float) -> tuple[float, float]:
            return margin + x * cell, margin + y * cell

        line = max(1, round(cell * 0.08))
        between, inside = zone_walls(stage)
        for segments, fill, width in (
            (inside, INNER, max(1, round(line * 0.7))),
            (between, BLACK, max(1, round(line * 1.4))),
            (self._walls[stage.rejected], REJECTED, round(line * 1.6)),
        ):
            for xy in (margin + segments.reshape(-1, 4) * cell).tolist():  # x0, y0, x1, y1 px
                draw.line(xy, fill=fill, width=width)
        if stage.last_opened is not None:
            (x0, y0), (x1, y1) = self._walls[stage.last_opened].tolist()
            for k in range(0, 8, 2):  # dotted
                t0, t1 = k / 8, (k + 1) / 8
                start = point(x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0)
                end = point(x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)
                draw.line((*start, *end), fill=OPENED, width=line * 2)
        if self.numbered:
            image = self._with_numbers(image, stage)
        return image

    def _with_numbers(self, image: Image.Image, stage: Stage) -> Image.Image:
        """``image`` with each cell's zone number written at its centre (anti-aliased in four
        levels over the zone's colour)."""
        centres = [
            ((self.margin + (col + 0.5) * self.cell, self.margin + (row + 0.5) * self.cell), number)
            for (row, col), number in np.ndenumerate(stage.zones.reshape(self.maze.grid.rows, self.maze.grid.cols))
        ]
        return self._numbers_at(image, centres)


def grid_frames(
    maze: Maze, *, every: int | None, lang: str, width_px: int = 560, numbering: str = "west-north"
) -> list[Image.Image]:
    """The lesson's frames of a square maze as palette images sharing one palette."""
    shown = grid_lesson_stages(maze, every, numbering=numbering)
    used = max(int(colours.max()) for _, colours in shown) + 1
    painter = GridFramePainter(maze, lang, width_px, max(len(PALETTE), used))
    return [painter.frame(stage, colours) for stage, colours in shown]
