"""The graph lesson on a maze of another shape (theta, hex, triangle): the same frames as the
square lesson (:mod:`laby3d.draw.lesson`), drawn from the tessellation.

Each frame fills every cell's polygon with its zone's colour (the same map colouring, over the
tessellation's neighbour pairs: :func:`laby3d.draw.zone_colours.frame_colours`), draws the walls
still standing black between two zones and around the maze, grey inside a zone, the wall just
opened dotted orange and Kruskal's rejected walls red (theta's arcs as the tessellation's
polylines), small mazes with each cell's zone number (:mod:`laby3d.maze.observe`), and
the caption. :func:`shaped_lesson_pdf` writes the pages as vector PDF
(:mod:`laby3d.draw.vector_pdf`); :func:`shaped_frames` the frames of the GIF, drawn with
Pillow into the square lesson's palette (:class:`laby3d.draw.lesson_raster.FramePainter`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from laby3d.draw.lesson import (
    FRAME_WIDTH_IN,
    INNER_WALL_COLOUR,
    MAX_SIDE_WITH_NUMBERS,
    NUMBER_COLOUR,
    OPENED_COLOUR,
    REJECTED_COLOUR,
    caption_legend,
    counts_line,
    default_every,
)
from laby3d.draw.lesson_raster import _BLACK, _INNER, _OPENED, _REJECTED, _WHITE, FramePainter
from laby3d.draw.strings import check_language, text
from laby3d.draw.vector_pdf import Page, pdf_document
from laby3d.draw.zone_colours import PALETTE, colour_rgb, frame_colours
from laby3d.maze.observe import Stage, stages

if TYPE_CHECKING:
    from PIL import Image

    from laby3d.maze.model import Maze

#: Most cells of a maze whose frames write each cell's zone number (as a square maze of
#: :data:`laby3d.draw.lesson.MAX_SIDE_WITH_NUMBERS` a side).
MAX_CELLS_WITH_NUMBERS = MAX_SIDE_WITH_NUMBERS**2
_CAPTION_IN = 1.0


def shaped_lesson_stages(maze: Maze, every: int | None) -> list[tuple[Stage, np.ndarray]]:
    """The stages a lesson shows, every ``every`` passages (about
    :data:`laby3d.draw.lesson.DEFAULT_FRAMES` frames when None), each with the ``(C,)`` palette
    index of its cells' colours."""
    shown = list(stages(maze, every=default_every(maze) if every is None else every))
    colours = frame_colours([stage.zones for stage in shown], neighbours=maze.tessellation.edges)
    return list(zip(shown, colours, strict=True))


def caption_title(maze: Maze, *, lang: str) -> str:
    """The caption's first line, the same on every frame: algorithm, shape and size."""
    algorithm = (maze.algorithm or "maze").capitalize()
    described = text(f"lesson_maze_{maze.shape}", lang, rows=maze.rows, cols=maze.cols)
    return text("lesson_title_shaped", lang, algorithm=algorithm, maze=described)


def caption_counts(maze: Maze, stage: Stage, *, lang: str) -> str:
    """The caption's line of counts: steps, zones, walls standing (and rejected, for Kruskal)."""
    return counts_line(maze, stage, all_walls=len(stage.maze.open_walls), lang=lang)


@dataclass(frozen=True)
class StageWalls:
    """The walls of a frame as polylines (pitch units): standing between two zones or around the
    maze, standing inside one zone, rejected, and the one opened last (None before the first)."""

    between: list[np.ndarray]
    inside: list[np.ndarray]
    rejected: list[np.ndarray]
    opened: np.ndarray | None


def stage_walls(maze: Maze, stage: Stage) -> StageWalls:
    """The walls ``stage`` shows (the whole outline stands: no entrance or exit while carving)."""
    t = maze.tessellation
    zones = stage.zones
    closed = np.flatnonzero(~stage.maze.open_walls)
    alike = zones[t.edges[closed, 0]] == zones[t.edges[closed, 1]]
    outline = [t.boundary_polyline(b) for b in range(len(t.boundary_cells))]
    return StageWalls(
        between=[t.wall_polyline(int(e)) for e in closed[~alike]] + outline,
        inside=[t.wall_polyline(int(e)) for e in closed[alike]],
        rejected=[t.wall_polyline(int(e)) for e in stage.rejected],
        opened=None if stage.last_opened is None else t.wall_polyline(stage.last_opened),
    )


def as_segments(lines: list[np.ndarray]) -> np.ndarray:
    """``(k, 2, 2)`` segments of every polyline of ``lines``."""
    if not lines:
        return np.zeros((0, 2, 2))
    return np.concatenate([np.stack([line[:-1], line[1:]], axis=1) for line in lines])


def dotted(line: np.ndarray, pieces: int = 8) -> list[np.ndarray]:
    """Every other of ``pieces`` equal lengths along polyline ``line`` (a dotted wall)."""
    lengths = np.hypot(*np.diff(line, axis=0).T)
    along = np.concatenate([[0.0], np.cumsum(lengths)])

    def at(distance: float) -> np.ndarray:
        return np.array([np.interp(distance, along, line[:, 0]), np.interp(distance, along, line[:, 1])])

    step = along[-1] / pieces
    found = []
    for k in range(0, pieces, 2):
        start, stop = k * step, (k + 1) * step
        inner = [line[i] for i in range(len(line)) if start < along[i] < stop]
        found.append(np.array([at(start), *inner, at(stop)]))
    return found


def shaped_lesson_pdf(maze: Maze, *, every: int | None = None, lang: str = "en") -> bytes:
    """A PDF with one page per frame of the lesson of a maze of another shape."""
    check_language(lang)
    return pdf_document(
        [stage_page(maze, stage, colours, lang=lang) for stage, colours in shaped_lesson_stages(maze, every)]
    )


@dataclass(frozen=True)
class PageLayout:
    """A lesson page of a maze of another shape: ``width`` × ``height`` points, the maze drawn
    ``scale`` points a cell size with its extent's top left at (``left``, ``top``)."""

    width: float
    height: float
    scale: float
    left: float
    top: float

    def on_page(self, points: np.ndarray) -> np.ndarray:
        """Points in pitch units to page points (y down)."""
        return points * self.scale + (self.left, self.top)


def page_layout(maze: Maze) -> PageLayout:
    """Where a lesson page puts the maze: laid out as a square maze's page (the maze scaled to the
    page's width, 0.05 cell of margin around its walls, the caption in a band below)."""
    extent_x, extent_y = maze.tessellation.extent
    width = FRAME_WIDTH_IN * 72
    maze_band = width * extent_y / extent_x
    box_width, box_height = 0.94 * width, 0.96 * maze_band
    scale = min(box_width / (extent_x + 0.1), box_height / (extent_y + 0.1))
    left = 0.03 * width + (box_width - scale * (extent_x + 0.1)) / 2 + 0.05 * scale
    top = 0.04 * maze_band + (box_height - scale * (extent_y + 0.1)) / 2 + 0.05 * scale
    return PageLayout(width=width, height=maze_band + _CAPTION_IN * 72, scale=scale, left=left, top=top)


def stage_page(maze: Maze, stage: Stage, colours: np.ndarray, *, lang: str) -> Page:
    """The PDF page of ``stage`` with its cells' palette indices ``colours`` (:func:`page_layout`)."""
    t = maze.tessellation
    extent_x, extent_y = t.extent
    layout = page_layout(maze)
    page = Page(width=layout.width, height=layout.height)
    on_page, scale, width = layout.on_page, layout.scale, layout.width
    for cell, colour in enumerate(colours.tolist()):
        page.polygon(on_page(t.cell_polygon(cell)), colour=colour_rgb(colour))
    line_width = max(0.6, min(2.5, 120.0 / max(extent_x, extent_y)))
    walls = stage_walls(maze, stage)
    page.lines(on_page(as_segments(walls.inside)), colour=INNER_WALL_COLOUR, width=line_width * 0.7, cap="round")
    page.lines(on_page(as_segments(walls.between)), colour=(0.0, 0.0, 0.0), width=line_width * 1.4, cap="round")
    page.lines(on_page(as_segments(walls.rejected)), colour=REJECTED_COLOUR, width=line_width * 1.6, cap="round")
    if walls.opened is not None:
        page.lines(on_page(as_segments(dotted(walls.opened))), colour=OPENED_COLOUR, width=line_width * 2)
    if maze.cell_count <= MAX_CELLS_WITH_NUMBERS:
        size = max(5.0, min(11.0, 0.4 * scale))
        for (x, y), number in zip(on_page(t.centres).tolist(), stage.zones.tolist(), strict=True):
            page.text(x, y + 0.35 * size, str(number), size=size, colour=NUMBER_COLOUR, align="centre")
    lines = (caption_title(maze, lang=lang), caption_counts(maze, stage, lang=lang), caption_legend(maze, lang=lang))
    styles = ((0.75, 12, True), (0.5, 10, False), (0.25, 8, False))
    for content, (inches, size, bold) in zip(lines, styles, strict=True):
        parts = content.split("\n")
        first = page.height - inches * 72 - (len(parts) - 1) * 0.55 * size + 0.35 * size
        for number, part in enumerate(parts):
            page.text(0.03 * width, first + number * 1.1 * size, part, size=size, bold=bold)
    return page


@dataclass(frozen=True)
class ShapedFramePainter(FramePainter):
    """The lesson's frames of a maze of another shape as palette images (the square painter's
    palette, margins and caption; the cells are the tessellation's polygons)."""

    maze: Maze  # type: ignore[assignment]

    @cached_property
    def cell(self) -> float:
        """One cell size (pitch unit) in px."""
        return (self.width_px - 2 * self.margin) / self.maze.tessellation.extent[0]

    @cached_property
    def numbered(self) -> bool:
        """Whether the frames write each cell's zone number."""
        return self.maze.cell_count <= MAX_CELLS_WITH_NUMBERS

    def _title(self) -> str:
        return caption_title(self.maze, lang=self.lang)

    def frame(self, stage: Stage, colours: np.ndarray) -> Image.Image:  # type: ignore[override]
        """The frame of ``stage``, its cells' palette indices ``colours``, as a palette image."""
        from PIL import Image, ImageDraw

        t = self.maze.tessellation
        margin, cell = self.margin, self.cell
        maze_height = round(cell * t.extent[1])
        title, legend = self._fixed_caption
        counts = self._caption_strip(((caption_counts(self.maze, stage, lang=self.lang), 0.021),))
        caption = np.concatenate([title, counts, legend])
        caption_top = margin + maze_height + margin
        pixels = np.full((caption_top + len(caption) + margin, self.width_px), _WHITE, dtype=np.uint8)
        pixels[caption_top : caption_top + len(caption)] = caption
        image = Image.frombytes("P", (self.width_px, len(pixels)), pixels.tobytes())
        image.putpalette(self.palette.ravel().tolist())
        draw = ImageDraw.Draw(image)

        def points(line: np.ndarray) -> list[tuple[float, float]]:
            return [(margin + x * cell, margin + y * cell) for x, y in line.tolist()]

        zone_index = self._colours[1][colours].tolist()
        for index, fill in enumerate(zone_index):  # the outline too: no seam between two cells
            draw.polygon(points(t.cell_polygon(index)), fill=fill, outline=fill)
        line = max(1, round(cell * 0.08))
        walls = stage_walls(self.maze, stage)
        for lines, fill, width in (
            (walls.inside, _INNER, round(line * 0.7)),
            (walls.between, _BLACK, round(line * 1.4)),
            (walls.rejected, _REJECTED, round(line * 1.6)),
        ):
            for wall in lines:
                draw.line(points(wall), fill=fill, width=max(1, width), joint="curve")
        if walls.opened is not None:
            for piece in dotted(walls.opened):
                draw.line(points(piece), fill=_OPENED, width=line * 2, joint="curve")
        if self.numbered:
            centres = [(point, number) for point, number in zip(points(t.centres), stage.zones.tolist(), strict=True)]
            image = self._numbers_at(image, centres)
        return image


def shaped_frames(maze: Maze, *, every: int | None, lang: str, width_px: int = 560) -> list[Image.Image]:
    """The lesson's frames of a maze of another shape as palette images sharing one palette
    (what :func:`laby3d.draw.animation.generation_gif` writes as a GIF)."""
    shown = shaped_lesson_stages(maze, every)
    used = max(int(colours.max()) for _, colours in shown) + 1
    painter = ShapedFramePainter(maze, lang, width_px, max(len(PALETTE), used))
    return [painter.frame(stage, colours) for stage, colours in shown]
