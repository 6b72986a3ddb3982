"""The graph lesson in pictures: generation step by step, cells coloured by zone, on any shape.

Each frame shows one :class:`laby3d.maze.observe.Stage`: every cell's polygon filled with its
zone's colour, the walls still standing — black between two zones (and around the maze), grey
inside a zone (walls that will never open) — the wall just opened (dotted orange), the walls
Kruskal took and kept because both cells were already in one zone (red), and a caption with the
step, the zone count (cells − walls opened) and the walls still standing. Small mazes have each
cell's zone number (the class exercise's rule, :mod:`laby3d.maze.observe`).

A page is a *step* as the class exercise counts it (:mod:`laby3d.maze.observe`): for Kruskal every
wall drawn, so a rejected wall has its page too (it turns red), and "step k" is the
state the handout's "after step k" and ``.walls.csv``'s row k show. A maze small enough for a
handout (at most :data:`laby3d.draw.handout.MAX_CELLS` cells) has a page for every step, so every
row of its handout has its page in the key.

The zone numbers are legible from the back of a classroom: their digits are at least
:data:`NUMBER_DIGIT_MM_A4` mm high on the page printed on A4 (fitted to the width within 10 mm
margins), and at least :data:`NUMBER_DIGIT_OF_HEIGHT` of the page's height on a projector (the
page fills the screen's height: 50 mm on a 1.5 m-high screen, read from 6 m by the rule of 25 mm
a 3 m).

Zones that touch never share a colour, and a cell changes colour only when its zone merges
(:mod:`laby3d.draw.zone_colours`, over the tessellation's neighbour pairs); printed in black and
white, the black walls between zones still outline every zone.

:func:`lesson_pdf` gives one vector page per frame, written straight as PDF
(:mod:`laby3d.draw.vector_pdf`); :func:`laby3d.draw.animation.generation_gif` the same frames as
a GIF, drawn with Pillow (:mod:`laby3d.draw.lesson_frames`). Neither uses matplotlib, so neither
depends on its settings. The square grid has a faster specialisation of both
(:mod:`laby3d.draw.grid_lesson`: the zone colours as one image of a pixel per cell), chosen in the
format table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from laby3d.draw.handout import MAX_CELLS as HANDOUT_CELLS
from laby3d.draw.strings import check_language, text
from laby3d.draw.vector_pdf import Page, pdf_document
from laby3d.draw.zone_colours import colour_rgb, frame_colours
from laby3d.maze.observe import Stage, stages, step_count

if TYPE_CHECKING:
    from laby3d.maze.model import Maze

#: About how many frames a lesson has when no stride is given.
DEFAULT_FRAMES = 40
#: Most cells of a maze whose frames write each cell's zone number.
MAX_CELLS_WITH_NUMBERS = 64
#: RGB (0..1) of the wall just opened (dotted; matplotlib's "darkorange").
OPENED_COLOUR = (1.0, 140 / 255, 0.0)
#: RGB (0..1) of the walls Kruskal rejected.
REJECTED_COLOUR = (1.0, 0.0, 0.0)
#: RGB (0..1) of the walls inside a zone (80/255: a grey every frame's palette holds).
INNER_WALL_COLOUR = (80 / 255, 80 / 255, 80 / 255)
#: RGB (0..1) of the zone numbers written in the cells of small mazes.
NUMBER_COLOUR = (0.25, 0.25, 0.25)
#: Least height of a zone number's digits (mm) on a lesson page printed on A4 (tested).
NUMBER_DIGIT_MM_A4 = 4.0
#: Least height of a zone number's digits as a fraction of the page's height (on a projector).
NUMBER_DIGIT_OF_HEIGHT = 1 / 30
#: Zone numbers' font size (points) per point of a cell's size: two digits fit in a cell.
NUMBER_SIZE_OF_CELL = 0.5
#: Width of a frame (inches); its height follows the maze's shape plus the caption.
FRAME_WIDTH_IN = 7.0
CAPTION_IN = 1.0


def default_every(maze: Maze) -> int:
    """The stride giving about :data:`DEFAULT_FRAMES` frames, counted in steps (1 for small
    mazes, and for a handout's maze: a page for every row of its handout).

    >>> import laby3d
    >>> default_every(laby3d.generate(5, 6, seed=1)), default_every(laby3d.generate(20, 20, seed=1))
    (1, 16)
    """
    if maze.cell_count <= HANDOUT_CELLS:
        return 1
    return max(1, math.ceil(step_count(maze) / DEFAULT_FRAMES))


def number_size(scale: float) -> float:
    """Font size (points) of the zone numbers in cells ``scale`` points a side."""
    return max(5.0, NUMBER_SIZE_OF_CELL * scale)


def colour_pixels(colours: np.ndarray) -> np.ndarray:
    """``(rows, cols, 3)`` uint8 RGB of every cell from its palette index."""
    top = int(colours.max()) + 1 if colours.size else 1
    table = np.round(np.array([colour_rgb(index) for index in range(top)]) * 255).astype(np.uint8)
    return table[colours]


def caption_lines(maze: Maze, stage: Stage, *, lang: str) -> tuple[str, str, str]:
    """The caption of a frame: title, counts (steps, zones, walls standing, rejected) and legend
    (two lines)."""
    return caption_title(maze, lang=lang), caption_counts(maze, stage, lang=lang), caption_legend(maze, lang=lang)


def caption_title(maze: Maze, *, lang: str) -> str:
    """The caption's first line, the same on every frame: algorithm, shape and size."""
    algorithm = (maze.algorithm or "maze").capitalize()
    described = text(f"lesson_maze_{maze.shape}", lang, rows=maze.rows, cols=maze.cols)
    return text("lesson_title", lang, algorithm=algorithm, maze=described)


def caption_counts(maze: Maze, stage: Stage, *, lang: str) -> str:
    """The caption's line of counts: steps, zones, walls standing (and for Kruskal, whose steps are
    the walls drawn, the walls opened and rejected; and the loops opened after the tree, for a
    braided maze)."""
    values = {"zones": stage.zone_count, "walls": stage.walls_standing, "all_walls": len(maze.open_walls)}
    if maze.algorithm == "kruskal":
        counts = text(
            "lesson_counts_drawn",
            lang,
            step=stage.step - stage.loops,
            total=stage.tree_steps,
            opened=stage.opened - stage.loops,
            passages=maze.cell_count - 1,
            **values,
        )
        counts += text("lesson_rejected", lang, rejected=len(stage.rejected))
    else:
        counts = text("lesson_counts", lang, opened=stage.opened - stage.loops, total=maze.cell_count - 1, **values)
    if stage.all_loops:
        counts += text("lesson_loops", lang, loops=stage.loops, all_loops=stage.all_loops)
    return counts


def caption_legend(maze: Maze, *, lang: str) -> str:
    """The caption's legend, the same on every frame: two lines."""
    second = "lesson_legend_rejected" if maze.algorithm == "kruskal" else "lesson_legend_opened"
    return text("lesson_legend", lang) + "\n" + text(second, lang)


def lesson_stages(maze: Maze, every: int | None, *, numbering: str = "west-north") -> list[tuple[Stage, np.ndarray]]:
    """The stages a lesson shows, every ``every`` steps (:func:`default_every` when None), zones
    numbered by ``numbering`` (:mod:`laby3d.maze.observe`), each with the ``(C,)`` palette index
    of its cells' colours."""
    shown = list(stages(maze, every=default_every(maze) if every is None else every, numbering=numbering))
    colours = frame_colours([stage.zones for stage in shown], neighbours=maze.tessellation.edges)
    return list(zip(shown, colours, strict=True))


@dataclass(frozen=True)
class StageWalls:
    """The walls of a frame as polylines (pitch units): standing between two zones or around the
    maze, standing inside one zone, rejected, and the one this step opened (None before the first
    step and on a step that rejected its wall)."""

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


def lesson_pdf(maze: Maze, *, every: int | None = None, lang: str = "en", numbering: str = "west-north") -> bytes:
    """A PDF with one page per frame of the lesson (:func:`stage_page`)."""
    check_language(lang)
    shown = lesson_stages(maze, every, numbering=numbering)
    return pdf_document([stage_page(maze, stage, colours, lang=lang) for stage, colours in shown])


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
    """Where a lesson page puts the maze: scaled to the page's width, 0.05 cell of margin around
    its walls, the caption in a band below."""
    extent_x, extent_y = maze.tessellation.extent
    width = FRAME_WIDTH_IN * 72
    maze_band = width * extent_y / extent_x
    box_width, box_height = 0.94 * width, 0.96 * maze_band
    scale = min(box_width / (extent_x + 0.1), box_height / (extent_y + 0.1))
    left = 0.03 * width + (box_width - scale * (extent_x + 0.1)) / 2 + 0.05 * scale
    top = 0.04 * maze_band + (box_height - scale * (extent_y + 0.1)) / 2 + 0.05 * scale
    return PageLayout(width=width, height=maze_band + CAPTION_IN * 72, scale=scale, left=left, top=top)


def stage_page(maze: Maze, stage: Stage, colours: np.ndarray, *, lang: str) -> Page:
    """The PDF page of ``stage`` with its cells' palette indices ``colours`` (:func:`page_layout`)."""
    t = maze.tessellation
    extent_x, extent_y = t.extent
    layout = page_layout(maze)
    page = Page(width=layout.width, height=layout.height)
    on_page, scale = layout.on_page, layout.scale
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
        size = number_size(scale)
        for (x, y), number in zip(on_page(t.centres).tolist(), stage.zones.tolist(), strict=True):
            page.text(x, y + 0.35 * size, str(number), size=size, colour=NUMBER_COLOUR, align="centre")
    write_caption(page, maze, stage, lang=lang)
    return page


def write_caption(page: Page, maze: Maze, stage: Stage, *, lang: str) -> None:
    """The caption in the band under a lesson page's maze: the title (12 pt bold), the counts
    (10 pt) and the legend (8 pt), each entry's lines centred on its height above the bottom."""
    styles = ((0.75, 12, True), (0.5, 10, False), (0.25, 8, False))
    for content, (inches, size, bold) in zip(caption_lines(maze, stage, lang=lang), styles, strict=True):
        parts = content.split("\n")
        first = page.height - inches * 72 - (len(parts) - 1) * 0.55 * size + 0.35 * size
        for number, part in enumerate(parts):
            page.text(0.03 * page.width, first + number * 1.1 * size, part, size=size, bold=bold)
