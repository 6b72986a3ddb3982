"""The lesson handout (``handout.pdf``): two A4 pages for pupils to run the class exercise by hand
on one small maze.

Page 1: the rule (the exercise's, :mod:`laby3d.maze.observe`), the maze's cells with their
starting numbers, and the walls in the order the algorithm took them
(:func:`laby3d.maze.observe.walls_taken`) with blank boxes for the two cells' numbers and
"opened?"; the first wall is filled in as an example. Page 2: the grid after a few steps, blank, for
the pupils to write each cell's number and cross out the walls opened, and the number of zones
left. The lesson (``lesson.pdf``) of the same maze is the answer: it shows the same steps with the
numbers.

The handout is a format (``-o maze.handout.pdf``, ``formats: [handout.pdf]``) like the lesson, so
it follows the maze and the language of the job; mazes up to :data:`MAX_CELLS` cells, a size a
pupil fills in within a lesson. Every shape has the same pages: its cells drawn from the
tessellation with their numbers (their indices), each wall named by its two cells
(:func:`laby3d.maze.observe.walls_taken`); a square maze's handout names each wall as the class
exercise does, by its first cell and side (:func:`grid_handout_pdf`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from laby3d.draw.strings import check_language, text
from laby3d.draw.vector_pdf import Page, pdf_document, text_width
from laby3d.errors import ParameterError
from laby3d.maze.observe import WallTaken, walls_taken

if TYPE_CHECKING:
    from laby3d.maze.model import Maze

#: Most cells of a handout's maze (every cell is filled in by hand, every wall is a table row).
MAX_CELLS = 30
#: A4 portrait, points.
PAGE_WIDTH, PAGE_HEIGHT = 595.28, 841.89
_MARGIN = 50.0
_ROW = 12.5  # table row height, points
#: Steps shown on page 2 (as fractions of the passages).
_CHECKPOINTS = (0.25, 0.5, 0.75, 1.0)


def check_handout_size(rows: int, cols: int, *, cells: int | None = None) -> None:
    """Refuse a maze too big for a handout, on ``rows`` (``cells``: the cell count of a maze of
    another shape, whose size is not ``rows × cols``)."""
    if cells is not None:
        if cells > MAX_CELLS:
            raise ParameterError(
                f"{rows}: a handout's maze has at most {MAX_CELLS} cells, this one has {cells}", field="rows"
            )
        return
    if rows * cols > MAX_CELLS:
        raise ParameterError(
            f"{rows} with cols {cols}: a handout's maze has at most {MAX_CELLS} cells (e.g. 5×6), got {rows * cols}",
            field="rows",
        )


class Taken(Protocol):
    """A wall as the table shows it: the two cells' numbers then, and whether it opened."""

    @property
    def first_number(self) -> int: ...
    @property
    def second_number(self) -> int: ...
    @property
    def opened(self) -> bool: ...


@dataclass(frozen=True)
class _Board:
    """What the pages draw of a maze: the rule's text, the walls in the order taken with each
    one's name, how wide and high the cells are for a given cell size (points), and the cells
    themselves (``draw(page, left, top, cell, numbered)``)."""

    rule: str
    walls: Sequence[Taken]
    name: Callable[[Any], str]
    columns: float
    rows: float
    draw: Callable[[Page, float, float, float, bool], None]


def handout_pdf(maze: Maze, *, lang: str = "en", numbering: str = "west-north") -> bytes:
    """The two A4 pages of the handout of ``maze`` (any shape) in ``lang``: its cells numbered by
    their index, each wall named by its two cells, the first first (``numbering``:
    :mod:`laby3d.maze.observe`)."""
    check_language(lang)
    check_handout_size(maze.rows, maze.cols or 0, cells=maze.cell_count)
    return _pages(_board(maze, lang, numbering), lang)


def grid_handout_pdf(maze: Maze, *, lang: str = "en", numbering: str = "west-north") -> bytes:
    """The handout of a square maze in the class exercise's own notation: each wall named by its
    first cell and side, ``(row, col) E`` or ``S`` (``numbering`` ``drawn-side``: ``N``, ``E``,
    ``S`` or ``O``), on the exercise's grid (the format table chooses it for the square grid)."""
    check_language(lang)
    check_handout_size(maze.grid.rows, maze.grid.cols)
    return _pages(_grid_board(maze, lang, numbering), lang)


def _pages(board: _Board, lang: str) -> bytes:
    return pdf_document([_rule_page(board, lang), _grids_page(board, lang)])


def _grid_board(maze: Maze, lang: str, numbering: str) -> _Board:
    rows, cols = maze.grid.rows, maze.grid.cols

    def name(wall: WallTaken) -> str:
        row, col = divmod(wall.first, cols)
        return f"({row}, {col}) {wall.side(cols)}"

    def draw(page: Page, left: float, top: float, cell: float, numbered: bool) -> None:
        numbers = np.arange(maze.cell_count).reshape(rows, cols) if numbered else None
        _grid(page, rows, cols, left, top, cell, numbers=numbers)

    rule = text("handout_rule" if numbering == "west-north" else "handout_rule_drawn", lang, cols=cols)
    walls = walls_taken(maze, numbering=numbering)
    return _Board(rule=rule, walls=walls, name=name, columns=cols, rows=rows, draw=draw)


def _board(maze: Maze, lang: str, numbering: str) -> _Board:
    t = maze.tessellation

    def name(wall: WallTaken) -> str:
        return f"{wall.first} | {wall.second}"

    def draw(page: Page, left: float, top: float, cell: float, numbered: bool) -> None:
        lines = [t.wall_polyline(e) for e in range(len(t.edges))]
        lines += [t.boundary_polyline(b) for b in range(len(t.boundary_cells))]
        segments = np.concatenate([np.stack([line[:-1], line[1:]], axis=1) for line in lines])
        page.lines(segments * cell + (left, top), colour=(0.0, 0.0, 0.0), width=1.2, cap="round")
        if numbered:
            size = min(11.0, cell * 0.4)
            for number, (x, y) in enumerate((t.centres * cell + (left, top)).tolist()):
                page.text(x, y + 0.35 * size, str(number), size=size, align="centre")

    width, height = t.extent
    walls = walls_taken(maze, numbering=numbering)
    rule = text("handout_rule_shaped" if numbering == "west-north" else "handout_rule_shaped_drawn", lang)
    return _Board(rule=rule, walls=walls, name=name, columns=width, rows=height, draw=draw)


def _rule_page(board: _Board, lang: str) -> Page:
    page = Page(width=PAGE_WIDTH, height=PAGE_HEIGHT)
    y = _MARGIN + 10
    page.text(_MARGIN, y, text("handout_title", lang), size=16, bold=True)
    y += 24
    page.text(_MARGIN, y, f"{text('name', lang)} ____________________    {text('class', lang)} __________", size=11)
    y += 28
    for line in board.rule.split("\n"):
        page.text(_MARGIN, y, line, size=10)
        y += 14
    y += 10
    cell = min(28.0, (PAGE_WIDTH - 2 * _MARGIN) / 2 / board.columns)
    page.text(_MARGIN, y, text("handout_start", lang), size=10, bold=True)
    board.draw(page, _MARGIN, y + 10, cell, True)
    y += 10 + cell * board.rows + 28
    page.text(_MARGIN, y, text("handout_table", lang), size=10, bold=True)
    y += 8
    _wall_table(page, board, _MARGIN, y, lang)
    return page


def _wall_table(page: Page, board: _Board, left: float, top: float, lang: str) -> None:
    """The walls in order, two blocks side by side: step, wall, the two numbers, opened?"""
    walls = board.walls
    headers = text("handout_columns", lang).split("|")
    widths = (32.0, 66.0, 48.0, 48.0, 46.0)
    per_block = math.ceil(len(walls) / 2)
    block_width = sum(widths) + 12
    black = (0.0, 0.0, 0.0)
    for block in range(2):
        x0 = left + block * block_width
        chunk = walls[block * per_block : (block + 1) * per_block]
        if not chunk:
            continue
        x = x0
        for header, width in zip(headers, widths, strict=True):
            size = min(7.5, 7.5 * (width - 4) / text_width(header, 7.5, face="bold"))  # within its column
            page.text(x + 2, top + 10, header, size=size, bold=True)
            x += width
        bottom = top + _ROW * (len(chunk) + 1)
        lines = [[[x0, top + _ROW * k], [x0 + sum(widths), top + _ROW * k]] for k in range(len(chunk) + 2)]
        edges = np.cumsum((0.0, *widths))
        lines += [[[x0 + edge, top], [x0 + edge, bottom]] for edge in edges.tolist()]
        page.lines(np.array(lines), colour=black, width=0.5)
        for index, wall in enumerate(chunk):
            step = block * per_block + index + 1
            y = top + _ROW * (index + 2) - 3.5
            page.text(x0 + 4, y, str(step), size=9)
            page.text(x0 + widths[0] + 4, y, board.name(wall), size=9)
            if step == 1:  # the example
                page.text(x0 + widths[0] + widths[1] + 4, y, str(wall.first_number), size=9)
                page.text(x0 + sum(widths[:3]) + 4, y, str(wall.second_number), size=9)
                page.text(x0 + sum(widths[:4]) + 4, y, text("yes" if wall.opened else "no", lang), size=9)


def _grids_page(board: _Board, lang: str) -> Page:
    page = Page(width=PAGE_WIDTH, height=PAGE_HEIGHT)
    y = _MARGIN + 10
    page.text(_MARGIN, y, text("handout_grids", lang), size=12, bold=True)
    y += 18
    for line in text("handout_grids_help", lang).split("\n"):
        page.text(_MARGIN, y, line, size=10)
        y += 14
    opened_at = [index + 1 for index, wall in enumerate(board.walls) if wall.opened]
    cell = min(30.0, (PAGE_WIDTH - 2 * _MARGIN - 30) / 2 / board.columns)
    band = (PAGE_HEIGHT - y - _MARGIN) / 2
    for index, fraction in enumerate(_CHECKPOINTS):
        opened = max(1, math.ceil(fraction * len(opened_at)))
        step = opened_at[opened - 1] if opened_at else 0
        x = _MARGIN + (index % 2) * (PAGE_WIDTH - 2 * _MARGIN) / 2
        top = y + (index // 2) * band + 10
        page.text(x, top, text("handout_after", lang, step=step), size=10, bold=True)
        board.draw(page, x, top + 10, cell, False)
        page.text(x, top + 10 + cell * board.rows + 18, text("handout_zones_left", lang), size=9)
    return page


def _grid(
    page: Page, rows: int, cols: int, left: float, top: float, cell: float, *, numbers: np.ndarray | None
) -> None:
    """A ``rows × cols`` grid of cells with every wall closed (nothing opened yet), at (``left``,
    ``top``) points, ``cell`` points a side; ``numbers`` written in the cells when given."""
    lines = [[[left, top + cell * r], [left + cell * cols, top + cell * r]] for r in range(rows + 1)]
    lines += [[[left + cell * c, top], [left + cell * c, top + cell * rows]] for c in range(cols + 1)]
    page.lines(np.array(lines), colour=(0.0, 0.0, 0.0), width=1.2, cap="projecting")
    if numbers is not None:
        size = min(11.0, cell * 0.4)
        for (r, c), number in np.ndenumerate(numbers):
            page.text(
                left + cell * (c + 0.5), top + cell * (r + 0.5) + 0.35 * size, str(number), size=size, align="centre"
            )
