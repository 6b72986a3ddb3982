"""Worksheets and answer keys: printable PDF pages of named mazes (vector, matplotlib).

A worksheet page holds one maze (or ``per_page``) sized to the paper, each with the pupil's
name, class and date fields, an instruction, Entrance/Exit marks and the seed in small print.
The answer key shows the same mazes with their solutions, names and seeds, several per page.
One call makes one page for one pupil or a booklet for a class. Pages are laid out in mm on a
portrait sheet, origin at the top left; the text is DejaVu Sans (accents included), embedded
as TrueType so it can be searched and copied. The files hold no date: the same mazes give the
same bytes. Names, class and instruction are drawn as typed (no formula syntax) once the
font can draw them (:func:`laby3d.text_rules.checked_text`).

matplotlib is imported inside the functions that draw.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from laby3d.draw import exclusive
from laby3d.draw.strings import check_language, text
from laby3d.errors import ParameterError
from laby3d.maze.sides import outward
from laby3d.maze.solve import solution_polyline
from laby3d.maze.walls import wall_segments
from laby3d.options.worksheet import PAPER_MM, WorksheetSpec
from laby3d.text_rules import checked_text

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from laby3d.maze.model import Maze

#: Paper margin (mm).
MARGIN_MM = 12.0
#: Space between two mazes' boxes on a page (mm).
GAP_MM = 8.0
#: Height of the answer key's page title (mm).
KEY_TITLE_MM = 10.0
#: Colour of the solution in the answer key.
SOLUTION_COLOUR = "crimson"
#: Fixed PDF metadata: no dates, no producer, so the same mazes give the same bytes.
PDF_METADATA = {"Creator": None, "Producer": None, "CreationDate": None}
_POINTS_PER_MM = 72 / 25.4


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
    """The largest square-celled placement of ``maze`` in ``box``, centred across and at the top,
    leaving ``band`` mm around it for the entrance and exit marks."""
    cell = min((box.width - 2 * band) / maze.cols, (box.height - 2 * band) / maze.rows)
    if cell <= 0:
        raise ParameterError(f"the page has no room for a {maze.rows}×{maze.cols} maze", field="per_page")
    return MazePlacement(x=box.x + (box.width - cell * maze.cols) / 2, y=box.y + band, cell=cell)


def key_solution_mm(maze: Maze, placement: MazePlacement) -> np.ndarray:
    """``(k, 2)`` page mm of the solution line the key draws (through the cell centres)."""
    return placement.to_mm(solution_polyline(maze))


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


@exclusive
def _booklet(
    mazes: Sequence[tuple[Maze, str | None]], *, spec: WorksheetSpec, lang: str, per_page: int, key: bool
) -> bytes:
    from matplotlib.backends.backend_pdf import PdfPages

    check_language(lang)
    if not mazes:
        raise ParameterError("needs at least one maze", field="mazes")
    mazes = [(maze, None if name is None else checked_text(name, "dejavu")) for maze, name in mazes]
    spec = spec.model_copy(
        update={
            field: checked_text(value, "dejavu", field=field)
            for field in ("class_name", "instruction")
            if (value := getattr(spec, field)) is not None
        }
    )
    paper = PAPER_MM[spec.paper]
    pages = [mazes[i : i + per_page] for i in range(0, len(mazes), per_page)]
    buffer = io.BytesIO()
    with _document_style(), PdfPages(buffer, metadata=PDF_METADATA) as pdf:
        for number, page in enumerate(pages, start=1):
            figure, axes = _page(paper)
            if key:
                title = f"{text('key_title', lang)} · {text('page', lang, page=number, pages=len(pages))}"
                axes.text(MARGIN_MM, MARGIN_MM, title, fontsize=13, weight="bold", va="top")
            boxes = page_slots(per_page, paper, top=KEY_TITLE_MM if key else 0.0)
            for (maze, name), box in zip(page, boxes, strict=False):
                if key:
                    _key_entry(axes, maze, name, box, lang=lang)
                else:
                    _worksheet_entry(axes, maze, name, box, spec=spec, lang=lang)
            pdf.savefig(figure)
    return buffer.getvalue()


@contextmanager
def _document_style() -> Iterator[None]:
    """DejaVu Sans, embedded as TrueType (searchable text, accents); text drawn as typed, never
    read as a formula (``$5 $6`` is two prices)."""
    import matplotlib

    with matplotlib.rc_context(
        {"pdf.fonttype": 42, "font.family": "DejaVu Sans", "path.simplify": False, "text.parse_math": False}
    ):
        yield


def _page(paper: tuple[float, float]) -> tuple[Any, Axes]:
    """A blank figure of the paper's size whose axes count mm from the top-left corner."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(paper[0] / 25.4, paper[1] / 25.4))
    axes = figure.add_axes((0.0, 0.0, 1.0, 1.0))
    axes.set_xlim(0, paper[0])
    axes.set_ylim(paper[1], 0)
    axes.set_axis_off()
    return figure, axes


def _font_size(box: Box, largest: float) -> float:
    """Font size (pt) for a box: ``largest`` on a full A4 width, smaller in small boxes."""
    return max(6.0, min(largest, largest * box.width / 180.0))


def _text_width(
    words: str, size: float, *, weight: str = "normal", style: Literal["normal", "italic"] = "normal"
) -> float:
    """Width (mm) of ``words`` set in DejaVu Sans at ``size`` pt."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    font = FontProperties(family="DejaVu Sans", weight=weight, style=style, size=size)
    width, _, _ = TextToPath().get_text_width_height_descent(words, font, ismath=False)
    return width / _POINTS_PER_MM


def _fitting(words: str, width: float, size: float, *, weight: str = "normal") -> float:
    """``size`` (pt), or smaller so that ``words`` fit on one line ``width`` mm long."""
    needed = _text_width(words, size, weight=weight)
    return size if needed <= width else size * width / needed


def _wrapped(words: str, width: float, size: float, *, style: Literal["normal", "italic"]) -> list[str]:
    """``words`` broken at spaces into lines at most ``width`` mm long (a longer word stands alone)."""
    lines: list[str] = []
    for word in words.split():
        candidate = f"{lines[-1]} {word}" if lines else word
        if lines and _text_width(candidate, size, style=style) <= width:
            lines[-1] = candidate
        else:
            lines.append(word)
    return lines


def _worksheet_entry(axes: Axes, maze: Maze, name: str | None, box: Box, *, spec: WorksheetSpec, lang: str) -> None:
    """Name, class, date, instruction, the maze with its marks and the small print, in ``box``."""
    size = _font_size(box, 13.0)
    line = size * 1.6 / _POINTS_PER_MM  # line height (mm)
    blank = "_" * 28
    name_line = f"{text('name', lang)} {name or blank}"
    name_size = _fitting(name_line, box.width, size, weight="bold")
    axes.text(box.x, box.y, name_line, fontsize=name_size, weight="bold", va="top")
    class_field = f"{text('class', lang)} {spec.class_name or '_' * 14}"
    axes.text(box.x, box.y + line, class_field, fontsize=size * 0.85, va="top")
    axes.text(box.x + box.width / 2, box.y + line, f"{text('date', lang)} {'_' * 14}", fontsize=size * 0.85, va="top")
    instruction = spec.instruction or text("instruction", lang)
    lines = _wrapped(instruction, box.width, size * 0.85, style="italic")
    axes.text(box.x, box.y + 2.2 * line, "\n".join(lines), fontsize=size * 0.85, style="italic", va="top")
    small = size * 0.5
    footer = small * 1.5 / _POINTS_PER_MM
    top = (2.3 + 0.9 * len(lines)) * line
    maze_box = Box(x=box.x, y=box.y + top, width=box.width, height=box.height - top - footer)
    _maze_with_marks(axes, maze, maze_box, lang=lang, size=size * 0.8, solution=False)
    axes.text(box.x + box.width, box.y + box.height, _small_print(maze, lang), fontsize=small, color="0.4", ha="right")


def _key_entry(axes: Axes, maze: Maze, name: str | None, box: Box, *, lang: str) -> None:
    """The pupil's name, the seed and the maze with its solution, in ``box``."""
    size = _font_size(box, 12.0)
    line = size * 1.5 / _POINTS_PER_MM
    name_size = _fitting(name or "—", box.width, size, weight="bold")
    axes.text(box.x, box.y, name or "—", fontsize=name_size, weight="bold", va="top")
    axes.text(box.x, box.y + line, _small_print(maze, lang), fontsize=size * 0.65, color="0.4", va="top")
    maze_box = Box(x=box.x, y=box.y + 2 * line, width=box.width, height=box.height - 2 * line)
    _maze_with_marks(axes, maze, maze_box, lang=lang, size=size * 0.7, solution=True)


def _small_print(maze: Maze, lang: str) -> str:
    seed = "—" if maze.seed is None else maze.seed
    return text("maze_print", lang, algorithm=maze.algorithm or "—", rows=maze.rows, cols=maze.cols, seed=seed)


def _maze_with_marks(axes: Axes, maze: Maze, box: Box, *, lang: str, size: float, solution: bool) -> None:
    """The maze in ``box`` with Entrance/Exit arrows outside it (and its solution for a key)."""
    from matplotlib.collections import LineCollection

    labels = {"entrance": text("entrance", lang), "exit": text("exit", lang)}
    text_height = size * 1.3 / _POINTS_PER_MM
    # room around the maze for a label beside an arrow (W, E) or an arrow then a label (N, S)
    band = max(max(_text_width(label, size) for label in labels.values()) + 1.0, 2.5 * text_height)
    arrow = min(0.6 * band, band - text_height - 1.0)
    placement = fit_maze(maze, box, band=band)
    line_width = max(0.4, min(2.0, placement.cell / 10 * _POINTS_PER_MM))  # a tenth of a cell, in pt
    segments = placement.to_mm(wall_segments(maze).reshape(-1, 2)).reshape(-1, 2, 2)
    axes.add_collection(LineCollection(list(segments), colors="black", linewidths=line_width, capstyle="projecting"))
    if solution:
        path = key_solution_mm(maze, placement)
        axes.plot(path[:, 0], path[:, 1], color=SOLUTION_COLOUR, linewidth=line_width * 0.8, solid_joinstyle="round")
    for opening, word, inward in ((maze.entrance, "entrance", True), (maze.exit, "exit", False)):
        if opening is not None:
            _mark(axes, opening, placement, labels[word], inward=inward, length=arrow, size=size)


def _mark(
    axes: Axes, opening: Any, placement: MazePlacement, label: str, *, inward: bool, length: float, size: float
) -> None:
    """An arrow ``length`` mm long through an opening (into the maze at the entrance, out at the
    exit), labelled above it (W, E) or beyond it (N, S); for an opening inside the maze (no side),
    a dot and the label."""
    centre = placement.to_mm(np.array([opening.col + 0.5, opening.row + 0.5]))
    if opening.side is None:
        axes.plot([centre[0]], [centre[1]], "o", color="tab:blue", markersize=size * 0.6)
        axes.text(centre[0], centre[1] - placement.cell * 0.3, label, fontsize=size, ha="center", va="bottom")
        return
    dx, dy = outward(opening.side)
    edge = centre + np.array([dx, dy]) * placement.cell / 2
    outer = edge + np.array([dx, dy]) * length
    tail, head = (outer, edge) if inward else (edge, outer)
    axes.annotate(
        "",
        xy=(float(head[0]), float(head[1])),
        xytext=(float(tail[0]), float(tail[1])),
        arrowprops={"arrowstyle": "-|>", "color": "tab:blue", "lw": 1.2, "shrinkA": 0, "shrinkB": 0},
    )
    if dy == 0:  # W or E: the label above the arrow, from the maze's edge outwards
        x, y, vertical, horizontal = edge[0] + dx * 0.5, edge[1] - 1.0, "bottom", "right" if dx < 0 else "left"
    else:  # N or S: the label beyond the arrow's outer end
        x, y, vertical, horizontal = outer[0], outer[1] + dy, "bottom" if dy < 0 else "top", "center"
    axes.text(x, y, label, fontsize=size, color="tab:blue", ha=horizontal, va=vertical)
