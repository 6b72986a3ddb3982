"""The printability rules and the one suggestion that fixes them all, mm.

Rules (each a :class:`Finding` when broken; all sizes mm):

- walls at least :data:`MIN_NOZZLE_WIDTHS` nozzle widths thick (under one width the slicer drops
  them: refused unless forced);
- corridors at least :data:`MIN_NOZZLE_WIDTHS` nozzle widths wide, and with a ball at least the
  ball's diameter plus :data:`BALL_PLAY`;
- with a ball, walls at least :data:`BALL_WALL_RATIO` × its diameter high: a wall lower than the
  ball's radius meets it below its centre and lets it climb over when the maze tilts; three
  quarters of the diameter keeps the contact well above the centre when the maze is shaken;
- the plate plus the slicer's skirt or brim room on every side fits the bed (either way round)
  and the height fits under the gantry; without a printer, at least one of the common beds
  (:data:`laby3d.printability.PRINTERS`).

Suggestions are planned (:func:`suggest`) and then re-checked against every rule on the changed
layout before they are printed; when no cell size satisfies bed and corridors together, the
suggestion keeps the smallest good cell and lowers rows and columns instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from laby3d.errors import ParameterError

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.printability import Bed, PrintSettings

MIN_NOZZLE_WIDTHS = 2  # walls and corridors, in nozzle widths
BALL_PLAY = 0.5  # mm of corridor beyond the ball's diameter
BALL_WALL_RATIO = 0.75  # wall height over ball diameter
STEP = 0.1  # mm: suggested sizes are multiples of it
_EPS = 1e-9


@dataclass(frozen=True, kw_only=True)
class Layout:
    """What a suggestion may change: the maze's rows and columns (a theta maze: rings, cols None)
    and the solid's sizes (mm)."""

    rows: int
    cols: int | None
    fab: Fabrication
    shape: str = "square"

    def size(self) -> tuple[float, float, float]:
        """Outer width, depth and height of the solid, mm."""
        from laby3d.geometry.plan import plate_size

        width, depth = plate_size(self.shape, self.rows, self.cols, self.fab)
        return width, depth, self.fab.height

    @property
    def passage(self) -> float:
        """The narrowest gap between walls, mm (to 0.01 mm, down): the corridor, or narrower
        between hexagons or around a theta maze's centre."""
        from laby3d.geometry.passages import narrowest_passage

        return math.floor(narrowest_passage(self.shape, self.fab, self.rows) * 100 + 1e-6) / 100

    @property
    def passage_name(self) -> str:
        """What :attr:`passage` is, for messages (:data:`PASSAGE_NAMES`)."""
        if self.passage >= self.fab.corridor_width - _EPS:
            return "corridors"
        return PASSAGE_NAMES.get(self.shape, PASSAGE_NAMES["any"])


#: Where a maze's passages are narrower than its corridors, by shape.
PASSAGE_NAMES = {"hex": "passages between hexagons", "any": "doorways around the centre"}


@dataclass(frozen=True, kw_only=True)
class Finding:
    """A broken rule: ``rule`` names it (``bed``, ``walls``, …), ``message`` says what is wrong."""

    rule: str
    message: str


def fits(size: tuple[float, float, float], bed: Bed, skirt_room: float) -> bool:
    """True when ``size`` (mm) plus ``skirt_room`` on every side fits ``bed``, either way round."""
    width, depth = size[0] + 2 * skirt_room, size[1] + 2 * skirt_room
    bx, by, bz = bed.size
    flat = (width <= bx + _EPS and depth <= by + _EPS) or (width <= by + _EPS and depth <= bx + _EPS)
    return flat and size[2] <= bz + _EPS


def min_corridor(settings: PrintSettings) -> float:
    """The narrowest corridor the nozzle and the ball allow, mm."""
    least = MIN_NOZZLE_WIDTHS * settings.nozzle
    return max(least, settings.ball + BALL_PLAY) if settings.ball is not None else least


def findings(layout: Layout, settings: PrintSettings, size: tuple[float, float, float] | None = None) -> list[Finding]:
    """Every rule ``layout`` breaks (``size``: the real solid's, mm, when known)."""
    fab, nozzle, ball = layout.fab, settings.nozzle, settings.ball
    size = size or layout.size()
    found: list[Finding] = []
    if fab.wall_thickness < MIN_NOZZLE_WIDTHS * nozzle - _EPS:
        found.append(
            Finding(
                rule="walls",
                message=f"walls are {fab.wall_thickness:g} mm, {fab.wall_thickness / nozzle:.2g} nozzle widths; "
                f"{MIN_NOZZLE_WIDTHS} or more ({MIN_NOZZLE_WIDTHS * nozzle:g} mm) print reliably",
            )
        )
    passage, name = layout.passage, layout.passage_name
    if passage < MIN_NOZZLE_WIDTHS * nozzle - _EPS:
        found.append(
            Finding(
                rule="corridors",
                message=f"{name} are {passage:g} mm wide; under {MIN_NOZZLE_WIDTHS} nozzle widths "
                f"({MIN_NOZZLE_WIDTHS * nozzle:g} mm) the slicer fills them in",
            )
        )
    if ball is not None and passage < ball + BALL_PLAY - _EPS:
        found.append(
            Finding(
                rule="ball",
                message=f"a ball of {ball:g} mm needs {name} of at least {ball + BALL_PLAY:g} mm "
                f"({BALL_PLAY:g} mm play); they are {passage:g} mm",
            )
        )
    if ball is not None and fab.wall_height < BALL_WALL_RATIO * ball - _EPS:
        found.append(
            Finding(
                rule="ball_height",
                message=f"walls {fab.wall_height:g} mm high let a ball of {ball:g} mm hop over; "
                f"make them at least {BALL_WALL_RATIO:g} × its diameter ({BALL_WALL_RATIO * ball:g} mm)",
            )
        )
    bed, room = settings.bed_size(), settings.skirt_room
    if bed is None:
        if not any(fits(size, common, room) for common in settings.beds()):
            found.append(
                Finding(
                    rule="bed",
                    message=f"{size[0]:g} × {size[1]:g} × {size[2]:g} mm plus {room:g} mm skirt room per side "
                    f"fits none of the common printers ({', '.join(b.name for b in settings.beds())}); "
                    "give --printer or --bed",
                )
            )
    elif not fits((size[0], size[1], 0.0), bed, room):
        found.append(
            Finding(
                rule="bed",
                message=f"{size[0]:g} × {size[1]:g} mm plus {room:g} mm skirt room per side does not fit {bed.wording}",
            )
        )
    if bed is not None and size[2] > bed.size[2] + _EPS:
        found.append(
            Finding(
                rule="bed_height",
                message=f"{size[2]:g} mm tall, more than the {bed.size[2]:g} mm {bed.wording} can print",
            )
        )
    return found


def _up(value: float) -> float:
    return math.ceil(value / STEP - 1e-6) * STEP


def _down(value: float) -> float:
    return math.floor(value / STEP + 1e-6) * STEP


def largest_cell_size(
    rows: int, cols: int | None, fab: Fabrication, bed: Bed, skirt_room: float, shape: str = "square"
) -> float | None:
    """The largest cell size (0.1 mm steps) whose plate, with skirt room, fits ``bed`` either way
    round; None when even a cell as thin as the wall would not fit. A plate's width and depth grow
    linearly with the cell size (``w = a·cell + b``, :func:`laby3d.geometry.plan.plate_size`): two
    sizes give the line."""
    bx, by, _ = bed.size
    cells = (fab.wall_thickness + 1.0, fab.wall_thickness + 2.0)
    (w1, d1, _), (w2, d2, _) = (
        Layout(rows=rows, cols=cols, fab=replace(fab, cell_size=cell), shape=shape).size() for cell in cells
    )
    slopes = (w2 - w1) / (cells[1] - cells[0]), (d2 - d1) / (cells[1] - cells[0])
    offsets = w1 - slopes[0] * cells[0], d1 - slopes[1] * cells[0]
    fit = [
        min((across - 2 * skirt_room - offsets[0]) / slopes[0], (along - 2 * skirt_room - offsets[1]) / slopes[1])
        for across, along in ((bx, by), (by, bx))
    ]
    best = _down(max(fit))
    return round(best, 1) if best > fab.wall_thickness else None


def _most_cells(layout: Layout, bed: Bed, skirt_room: float) -> tuple[int, int | None] | None:
    """(rows, cols) at most ``layout``'s that fit ``bed`` at its cell size, with the most cells:
    fewer rings (theta), or fewer rows, then columns, whichever way round gives more cells; for
    each number of rows the most columns that fit, found by bisection (a plate widens with its
    columns)."""
    from laby3d.tessellation import get_shape

    shape = get_shape(layout.shape)

    def fits_bed(rows: int, cols: int | None) -> bool:
        return fits(replace(layout, rows=rows, cols=cols).size(), bed, skirt_room)

    if layout.cols is None:
        rows = next((r for r in range(layout.rows, shape.min_rows - 1, -1) if fits_bed(r, None)), None)
        return None if rows is None else (rows, None)
    best: tuple[int, int | None] | None = None
    for rows in range(layout.rows, shape.min_rows - 1, -1):
        if best is not None and rows * layout.cols <= best[0] * (best[1] or 1):
            break  # fewer rows cannot give more cells
        low, high = shape.min_cols - 1, layout.cols  # fits_bed(rows, low + 1 .. the answer)
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (middle, high) if fits_bed(rows, middle) else (low, middle - 1)
        if low >= shape.min_cols and (best is None or rows * low > best[0] * (best[1] or 1)):
            best = (rows, low)
    return best


def passage_cell(layout: Layout, wall: float, least: float) -> float:
    """The smallest cell size (mm, to 0.1 mm up) whose narrowest passage is ``least`` mm with
    walls ``wall`` thick."""
    from laby3d.geometry.passages import narrowest_passage

    cell = round(_up(wall + least), 1)
    while (
        narrowest_passage(layout.shape, replace(layout.fab, cell_size=cell, wall_thickness=wall), layout.rows) < least
    ):
        cell = round(cell + STEP, 1)
    return cell


def _plan_for_bed(
    layout: Layout, settings: PrintSettings, bed: Bed, *, wall: float, least_height: float, cell_min: float
) -> Layout | None:
    """``layout`` with walls ``wall`` thick and at least ``least_height`` high (lower when the
    bed is too low), cells of at least ``cell_min`` fitting ``bed``; fewer rows and columns when
    no such cell fits; None when not even one cell fits."""
    fab = layout.fab
    height = max(fab.wall_height, round(least_height, 1))
    if fab.base_thickness + height > bed.size[2]:
        height = round(max(_down(bed.size[2] - fab.base_thickness), least_height), 1)
    cell = max(fab.cell_size, cell_min)  # changed together with the wall: the wall stays thinner
    sized = replace(layout, fab=replace(fab, wall_thickness=wall, wall_height=height, cell_size=cell))
    largest = largest_cell_size(layout.rows, layout.cols, sized.fab, bed, settings.skirt_room, layout.shape)
    if largest is not None and largest >= cell_min:
        return replace(sized, fab=replace(sized.fab, cell_size=min(cell, largest)))
    smaller = replace(sized, fab=replace(sized.fab, cell_size=cell_min))
    counts = _most_cells(smaller, bed, settings.skirt_room)
    return None if counts is None else replace(smaller, rows=counts[0], cols=counts[1])


def suggest(layout: Layout, settings: PrintSettings) -> tuple[Layout, Bed] | None:
    """A layout that breaks no rule and the bed it is planned for, changing as little as it can
    (walls, cell size, wall height; rows and columns only when no cell size fits the bed with
    good corridors); None when no change of these fixes every rule."""
    fab, nozzle = layout.fab, settings.nozzle
    wall = max(fab.wall_thickness, round(_up(MIN_NOZZLE_WIDTHS * nozzle), 1))
    least_height = _up(BALL_WALL_RATIO * settings.ball) if settings.ball is not None else STEP
    cell_min = passage_cell(layout, wall, min_corridor(settings))
    candidates: list[tuple[Layout, Bed]] = []
    for bed in settings.beds():
        try:
            planned = _plan_for_bed(layout, settings, bed, wall=wall, least_height=least_height, cell_min=cell_min)
        except ParameterError:  # sizes the solid itself refuses (e.g. walls too low for the bed)
            continue
        if planned is not None:
            candidates.append((planned, bed))
    good = [(candidate, bed) for candidate, bed in candidates if not findings(candidate, settings)]
    if not good:
        return None
    # Most cells first, then the user's own cell size, then the largest cell.
    return max(
        good, key=lambda c: (c[0].rows * (c[0].cols or 1), c[0].fab.cell_size == fab.cell_size, c[0].fab.cell_size)
    )


def changes(before: Layout, after: Layout) -> dict[str, float | int]:
    """The fields (rows, cols, cell_size, wall_thickness, wall_height) ``after`` changes."""
    pairs = {
        "rows": (before.rows, after.rows),
        "cols": (before.cols, after.cols),
        "cell_size": (before.fab.cell_size, after.fab.cell_size),
        "wall_thickness": (before.fab.wall_thickness, after.fab.wall_thickness),
        "wall_height": (before.fab.wall_height, after.fab.wall_height),
    }
    return {name: new for name, (old, new) in pairs.items() if old != new and new is not None}
