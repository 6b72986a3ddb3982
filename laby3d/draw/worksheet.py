"""Worksheets and answer keys: printable PDF pages of named mazes (vector).

A worksheet page holds one maze (or ``per_page``) sized to the paper, each with the pupil's
name, class and date fields, an instruction, Entrance/Exit marks and the seed in small print.
The answer key shows the same mazes with their solutions, names and seeds, several per page.
One call makes one page for one pupil or a booklet for a class. Pages are laid out in mm on a
portrait sheet, origin at the top left, and written by :mod:`laby3d.draw.vector_pdf`: the text
is DejaVu Sans (any script the font covers), embedded as a TrueType subset so it can be searched
and copied. The files hold no date: the same mazes give the same bytes. Names, class and
instruction are drawn as typed (no formula syntax) once the font can draw them
(:func:`laby3d.text_rules.checked_text`).

Every shape is drawn from its tessellation (its walls as polylines, theta's arcs included), with
an arrow through each opening along the wall's normal, and a dot where the path starts inside
the maze (the centre, which the instruction names).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from laby3d.draw.strings import check_language, text
from laby3d.draw.vector_pdf import Align, Page, pdf_document, text_width
from laby3d.errors import ParameterError
from laby3d.options.worksheet import PAPER_MM, WorksheetSpec
from laby3d.text_rules import checked_text

if TYPE_CHECKING:
    from laby3d.maze.model import Maze

#: Paper margin (mm).
MARGIN_MM = 12.0
#: Space between two mazes' boxes on a page (mm).
GAP_MM = 8.0
#: Height of the answer key's page title (mm).
KEY_TITLE_MM = 10.0
#: Colour of the solution in the answer key (crimson), of the entrance and exit marks and of
#: the small print (RGB 0..1).
SOLUTION_COLOUR = (220 / 255, 20 / 255, 60 / 255)
MARK_COLOUR = (31 / 255, 119 / 255, 180 / 255)
GREY = (0.4, 0.4, 0.4)
_POINTS_PER_MM = 72 / 25.4
#: DejaVu Sans: height above the baseline of the tallest accented capitals, depth of the
#: descenders, and the distance between the baselines of a paragraph, em.
_ASCENT, _DESCENT, _LINE_SPACING = 0.93, -0.24, 1.2
#: An arrow's head: length and half width, pt.
_HEAD_LENGTH, _HEAD_HALF_WIDTH = 4.0, 2.0


@dataclass(frozen=True, kw_only=True)
class Box:
    """A rectangle on the page in mm: ``x``, ``y`` of its top-left corner, ``width``, ``height``."""

    x: float
    y: float
    width: float
    height: float


def slot_grid(count: int, width: float, height: float) -> tuple[int, int]:
    """``(columns, rows)`` of ``count`` boxes on a ``width × height`` mm area that gives each
    (square) maze the largest side; fewer empty boxes on a tie.

    >>> slot_grid(1, 186, 273), slot_grid(2, 186, 273), slot_grid(4, 186, 273), slot_grid(12, 186, 273)
    ((1, 1), (1, 2), (2, 2), (3, 4))
    """

    def maze_side(columns: int) -> float:
        rows = math.ceil(count / columns)
        return min((width - GAP_MM * (columns - 1)) / columns, (height - GAP_MM * (rows - 1)) / rows)

    columns = max(range(1, count + 1), key=lambda c: (maze_side(c), -(c * math.ceil(count / c) - count)))
    return columns, math.ceil(count / columns)


def page_slots(count: int, paper: tuple[float, float], *, top: float = 0.0) -> list[Box]:
    """The boxes of ``count`` mazes on a ``paper`` (width, height) mm page, row by row, below
    a band of ``top`` mm."""
    width, height = paper[0] - 2 * MARGIN_MM, paper[1] - 2 * MARGIN_MM - top
    columns, rows = slot_grid(count, width, height)
    box_w = (width - GAP_MM * (columns - 1)) / columns
    box_h = (height - GAP_MM * (rows - 1)) / rows
    return [
        Box(
            x=MARGIN_MM + (i % columns) * (box_w + GAP_MM),
            y=MARGIN_MM + top + (i // columns) * (box_h + GAP_MM),
            width=box_w,
            height=box_h,
        )
        for i in range(count)
    ]


@dataclass(frozen=True, kw_only=True)
class MazePlacement:
    """Where a maze is drawn: ``x``, ``y`` of cell (0, 0)'s top-left corner and the cell side (mm)."""

    x: float
    y: float
    cell: float

    def to_mm(self, points: np.ndarray) -> np.ndarray:
        """Points in cell units (x = column, y = row) to page mm (y down)."""
        return np.asarray(points, dtype=float) * self.cell + np.array([self.x, self.y])


def fit_maze(maze: Maze, box: Box, *, band: float) -> MazePlacement:
    """The largest placement of ``maze`` in ``box`` (its tessellation's extent scaled alike both
    ways), centred across and at the top, leaving ``band`` mm around it for the marks."""
    width, height = maze.tessellation.extent
    cell = min((box.width - 2 * band) / width, (box.height - 2 * band) / height)
    if cell <= 0:
        raise ParameterError(
            f"the page has no room for a {maze.shape} maze of {maze.cell_count} cells", field="per_page"
        )
    return MazePlacement(x=box.x + (box.width - cell * width) / 2, y=box.y + band, cell=cell)


def worksheet_pdf(mazes: Sequence[tuple[Maze, str | None]], *, spec: WorksheetSpec, lang: str) -> bytes:
    """PDF pages for pupils: ``spec.per_page`` mazes a page, each under its pupil's name (a
    blank line for None), class and date fields, and the instruction.

    ``mazes`` are ``(maze, name)`` pairs in page order; ``lang`` is ``"en"`` or ``"fr"``.
    """
    return _booklet(mazes, spec=spec, lang=lang, per_page=spec.per_page, key=False)


def key_pdf(mazes: Sequence[tuple[Maze, str | None]], *, spec: WorksheetSpec, lang: str) -> bytes:
    """PDF answer key: the same mazes with their solutions, names and seeds,
    ``spec.key_per_page`` a page, under an "Answer key · page i/n" title."""
    return _booklet(mazes, spec=spec, lang=lang, per_page=spec.key_per_page, key=True)


def _booklet(
    mazes: Sequence[tuple[Maze, str | None]], *, spec: WorksheetSpec, lang: str, per_page: int, key: bool
) -> bytes:
    check_language(lang)
    if not mazes:
        raise ParameterError("needs at least one maze", field="mazes")
    mazes = [(maze, None if name is None else checked_text(name, "dejavu")) for maze, name in mazes]
    texts: dict[str, Any] = {
        field: checked_text(value, "dejavu", field=field)
        for field in ("class_name", "instruction")
        if (value := getattr(spec, field)) is not None
    }
    spec = replace(spec, **texts)
    paper = PAPER_MM[spec.paper]
    pages = [mazes[i : i + per_page] for i in range(0, len(mazes), per_page)]
    drawn = []
    for number, page in enumerate(pages, start=1):
        sheet = Sheet(Page(width=paper[0] * _POINTS_PER_MM, height=paper[1] * _POINTS_PER_MM))
        if key:
            title = f"{text('key_title', lang)} · {text('page', lang, page=number, pages=len(pages))}"
            sheet.text(MARGIN_MM, MARGIN_MM, title, size=13, bold=True, anchor="top")
        boxes = page_slots(per_page, paper, top=KEY_TITLE_MM if key else 0.0)
        for (maze, name), box in zip(page, boxes, strict=False):
            if key:
                _key_entry(sheet, maze, name, box, lang=lang)
            else:
                _worksheet_entry(sheet, maze, name, box, spec=spec, lang=lang)
        drawn.append(sheet.page)
    return pdf_document(drawn)


@dataclass(frozen=True)
class Sheet:
    """A page drawn in mm from the top left (the worksheet's layout unit)."""

    page: Page

    def text(
        self,
        x: float,
        y: float,
        content: str,
        *,
        size: float,
        bold: bool = False,
        oblique: bool = False,
        colour: tuple[float, float, float] = (0.0, 0.0, 0.0),
        align: Align = "left",
        anchor: Literal["top", "bottom"] = "top",
    ) -> None:
        """One line of ``size`` pt text whose ``anchor`` (top of the capitals and accents, or
        bottom of the descenders) is at ``y`` mm, starting (``align``) at ``x`` mm."""
        shift = _ASCENT if anchor == "top" else _DESCENT
        baseline = y * _POINTS_PER_MM + shift * size
        self.page.text(
            x * _POINTS_PER_MM, baseline, content, size=size, bold=bold, oblique=oblique, colour=colour, align=align
        )

    def lines(self, segments: np.ndarray, *, colour: tuple[float, float, float], width: float) -> None:
        """Walls: ``(k, 2, 2)`` mm segments, ``width`` pt, square ends."""
        self.page.lines(segments * _POINTS_PER_MM, colour=colour, width=width, cap="projecting")

    def polyline(self, points: np.ndarray, *, colour: tuple[float, float, float], width: float) -> None:
        """A solution line through ``(k, 2)`` mm points, ``width`` pt, rounded corners."""
        self.page.polyline(points * _POINTS_PER_MM, colour=colour, width=width, cap="projecting", join="round")

    def arrow(self, tail: np.ndarray, head: np.ndarray, *, colour: tuple[float, float, float]) -> None:
        """An arrow from ``tail`` to ``head`` (mm): a 1.2 pt shaft and a filled head."""
        start, end = tail * _POINTS_PER_MM, head * _POINTS_PER_MM
        along = (end - start) / max(float(np.hypot(*(end - start))), 1e-9)
        across = np.array([-along[1], along[0]])
        base = end - along * _HEAD_LENGTH
        self.page.lines(np.array([[start, base]]), colour=colour, width=1.2)
        self.page.polygon(
            np.array([end, base + across * _HEAD_HALF_WIDTH, base - across * _HEAD_HALF_WIDTH]), colour=colour
        )

    def dot(self, centre: np.ndarray, *, diameter: float, colour: tuple[float, float, float]) -> None:
        """A disc ``diameter`` pt across at ``centre`` (mm)."""
        self.page.dot(centre[0] * _POINTS_PER_MM, centre[1] * _POINTS_PER_MM, diameter / 2, colour=colour)


def _font_size(box: Box, largest: float) -> float:
    """Font size (pt) for a box: ``largest`` on a full A4 width, smaller in small boxes."""
    return max(6.0, min(largest, largest * box.width / 180.0))


def _text_width(words: str, size: float, *, bold: bool = False, oblique: bool = False) -> float:
    """Width (mm) of ``words`` set in DejaVu Sans at ``size`` pt."""
    return text_width(words, size, face="bold" if bold else "oblique" if oblique else "regular") / _POINTS_PER_MM


def _fitting(words: str, width: float, size: float, *, bold: bool = False) -> float:
    """``size`` (pt), or smaller so that ``words`` fit on one line ``width`` mm long."""
    needed = _text_width(words, size, bold=bold)
    return size if needed <= width else size * width / needed


def _wrapped(words: str, width: float, size: float, *, oblique: bool) -> list[str]:
    """``words`` broken at spaces into lines at most ``width`` mm long (a longer word stands alone)."""
    lines: list[str] = []
    for word in words.split():
        candidate = f"{lines[-1]} {word}" if lines else word
        if lines and _text_width(candidate, size, oblique=oblique) <= width:
            lines[-1] = candidate
        else:
            lines.append(word)
    return lines


def _worksheet_entry(sheet: Sheet, maze: Maze, name: str | None, box: Box, *, spec: WorksheetSpec, lang: str) -> None:
    """Name, class, date, instruction, the maze with its marks and the small print, in ``box``."""
    size = _font_size(box, 13.0)
    line = size * 1.6 / _POINTS_PER_MM  # line height (mm)
    blank = "_" * 28
    name_line = f"{text('name', lang)} {name or blank}"
    name_size = _fitting(name_line, box.width, size, bold=True)
    sheet.text(box.x, box.y, name_line, size=name_size, bold=True)
    class_field = f"{text('class', lang)} {spec.class_name or '_' * 14}"
    sheet.text(box.x, box.y + line, class_field, size=size * 0.85)
    sheet.text(box.x + box.width / 2, box.y + line, f"{text('date', lang)} {'_' * 14}", size=size * 0.85)
    instruction = spec.instruction or text(_instruction(maze), lang)
    lines = _wrapped(instruction, box.width, size * 0.85, oblique=True)
    pitch = size * 0.85 * _LINE_SPACING / _POINTS_PER_MM
    for index, words in enumerate(lines):
        sheet.text(box.x, box.y + 2.2 * line + index * pitch, words, size=size * 0.85, oblique=True)
    small = size * 0.5
    footer = small * 1.5 / _POINTS_PER_MM
    top = (2.3 + 0.9 * len(lines)) * line
    maze_box = Box(x=box.x, y=box.y + top, width=box.width, height=box.height - top - footer)
    _maze_with_marks(sheet, maze, maze_box, lang=lang, size=size * 0.8, solution=False)
    sheet.text(
        box.x + box.width,
        box.y + box.height,
        _small_print(maze, lang),
        size=small,
        colour=GREY,
        align="right",
        anchor="bottom",
    )


def _key_entry(sheet: Sheet, maze: Maze, name: str | None, box: Box, *, lang: str) -> None:
    """The pupil's name, the seed and the maze with its solution, in ``box``."""
    size = _font_size(box, 12.0)
    line = size * 1.5 / _POINTS_PER_MM
    name_size = _fitting(name or "—", box.width, size, bold=True)
    sheet.text(box.x, box.y, name or "—", size=name_size, bold=True)
    sheet.text(box.x, box.y + line, _small_print(maze, lang), size=size * 0.65, colour=GREY)
    maze_box = Box(x=box.x, y=box.y + 2 * line, width=box.width, height=box.height - 2 * line)
    _maze_with_marks(sheet, maze, maze_box, lang=lang, size=size * 0.7, solution=True)


def _instruction(maze: Maze) -> str:
    """The key of the default instruction: a maze whose path starts at its centre (placement
    center, a theta maze's centre) says so."""
    from laby3d.maze.placement import middle_cell

    entrance = maze.entrance
    centre = entrance is not None and entrance.side is None and maze.cell_of(entrance) == middle_cell(maze.tessellation)
    return "instruction_centre" if centre else "instruction"


def _small_print(maze: Maze, lang: str) -> str:
    seed = "—" if maze.seed is None else maze.seed
    size = text(f"size_{maze.shape}", lang, rows=maze.rows, cols=maze.cols)
    return text("maze_print", lang, algorithm=maze.algorithm or "—", size=size, seed=seed)


def _maze_with_marks(sheet: Sheet, maze: Maze, box: Box, *, lang: str, size: float, solution: bool) -> None:
    """The maze in ``box`` with Entrance/Exit arrows outside it (and its solution for a key)."""
    labels = {"entrance": text("entrance", lang), "exit": text("exit", lang)}
    text_height = size * 1.3 / _POINTS_PER_MM
    # room around the maze for a label beside an arrow (W, E) or an arrow then a label (N, S)
    band = max(max(_text_width(label, size) for label in labels.values()) + 1.0, 2.5 * text_height)
    arrow = min(0.6 * band, band - text_height - 1.0)
    _draw_maze(sheet, maze, box, labels=labels, band=band, arrow=arrow, size=size, key=solution)


def _draw_maze(
    sheet: Sheet,
    maze: Maze,
    box: Box,
    *,
    labels: dict[str, str],
    band: float,
    arrow: float,
    size: float,
    key: bool,
) -> None:
    """``maze`` in ``box`` (``band`` mm kept around it): its closed walls a tenth of a cell thick
    (round ends, so walls meeting at any angle close neatly), an arrow ``arrow`` mm long through
    each opening along the wall's normal with its label beside a sideways arrow or beyond an
    upward or downward one, a dot for a start or goal inside the maze (the centre is named by the
    instruction instead of a label), and for a ``key`` the solution."""
    from laby3d.draw.plot import opening_mark
    from laby3d.maze.solve import solution_polyline
    from laby3d.maze.walls import closed_walls

    placement = fit_maze(maze, box, band=band)
    line_width = max(0.4, min(2.0, placement.cell / 10 * _POINTS_PER_MM))  # a tenth of a cell, in pt
    walls = closed_walls(maze)
    segments = placement.to_mm(walls.vertices)[walls.segments()]
    sheet.page.lines(segments * _POINTS_PER_MM, colour=(0.0, 0.0, 0.0), width=line_width, cap="round")
    if key:
        sheet.polyline(placement.to_mm(solution_polyline(maze)), colour=SOLUTION_COLOUR, width=line_width * 0.8)
    for opening, word, inward in ((maze.entrance, "entrance", True), (maze.exit, "exit", False)):
        if opening is None:
            continue
        mark = opening_mark(maze, opening)
        edge = placement.to_mm(mark.point[None])[0]
        if mark.outward is None:
            sheet.dot(edge, diameter=size * 0.6, colour=MARK_COLOUR if inward else GREY)
            if _instruction(maze) == "instruction":  # not a theta maze's centre: the dot is named
                y = edge[1] - placement.cell * 0.3
                sheet.text(edge[0], y, labels[word], size=size, align="centre", anchor="bottom", colour=MARK_COLOUR)
            continue
        outer = edge + mark.outward * arrow
        tail, head = (outer, edge) if inward else (edge, outer)
        sheet.arrow(tail, head, colour=MARK_COLOUR)
        dx, dy = mark.outward
        anchor: Literal["top", "bottom"]
        align: Align
        if abs(dx) >= abs(dy):  # out sideways: the label above the arrow, from the maze's edge outwards
            x, y, anchor, align = (
                edge[0] + dx * 0.5,
                min(edge[1], outer[1]) - 1.0,
                "bottom",
                "right" if dx < 0 else "left",
            )
        else:  # out upwards or downwards: the label beyond the arrow's outer end
            x, y, anchor, align = outer[0], outer[1] + np.sign(dy), "bottom" if dy < 0 else "top", "centre"
        sheet.text(float(x), float(y), labels[word], size=size, colour=MARK_COLOUR, align=align, anchor=anchor)
