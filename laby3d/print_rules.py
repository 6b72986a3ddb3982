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
    """What a suggestion may change: the maze's rows and columns and the solid's sizes (mm)."""

    rows: int
    cols: int
    fab: Fabrication

    def size(self) -> tuple[float, float, float]:
        """Outer width, depth and height of the solid, mm."""
        width, depth = self.fab.outer_size(self.rows, self.cols)
        return width, depth, self.fab.height


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
    if fab.corridor_width < MIN_NOZZLE_WIDTHS * nozzle - _EPS:
        found.append(
            Finding(
                rule="corridors",
                message=f"corridors are {fab.corridor_width:g} mm wide; under {MIN_NOZZLE_WIDTHS} nozzle widths "
                f"({MIN_NOZZLE_WIDTHS * nozzle:g} mm) the slicer fills them in",
            )
        )
    if ball is not None and fab.corridor_width < ball + BALL_PLAY - _EPS:
        found.append(
            Finding(
                rule="ball",
                message=f"a ball of {ball:g} mm needs corridors of at least {ball + BALL_PLAY:g} mm "
                f"({BALL_PLAY:g} mm play); they are {fab.corridor_width:g} mm",
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


def largest_cell_size(rows: int, cols: int, fab: Fabrication, bed: Bed, skirt_room: float) -> float | None:
    """The largest cell size (0.1 mm steps) whose plate, with skirt room, fits ``bed`` either way
    round; None when even a cell as thin as the wall would not fit."""
    extra = fab.wall_thickness + 2 * fab.margin + 2 * skirt_room
    bx, by, _ = bed.size
    best = _down(max(min((bx - extra) / cols, (by - extra) / rows), min((by - extra) / cols, (bx - extra) / rows)))
    return round(best, 1) if best > fab.wall_thickness else None


def _most_cells(layout: Layout, bed: Bed, skirt_room: float) -> tuple[int, int] | None:
    """(rows, cols) at most ``layout``'s that fit ``bed`` at its cell size, with the most cells."""
    fab = layout.fab
    extra = fab.wall_thickness + 2 * fab.margin + 2 * skirt_room
    best: tuple[int, int] | None = None
    for across, along in (bed.size[:2], bed.size[1::-1]):
        cols = min(layout.cols, math.floor((across - extra) / fab.cell_size + _EPS))
        rows = min(layout.rows, math.floor((along - extra) / fab.cell_size + _EPS))
        if rows >= 1 and cols >= 1 and (best is None or rows * cols > best[0] * best[1]):
            best = (rows, cols)
    return best


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
    largest = largest_cell_size(layout.rows, layout.cols, sized.fab, bed, settings.skirt_room)
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
    cell_min = round(_up(wall + min_corridor(settings)), 1)
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
    return max(good, key=lambda c: (c[0].rows * c[0].cols, c[0].fab.cell_size == fab.cell_size, c[0].fab.cell_size))


def changes(before: Layout, after: Layout) -> dict[str, float | int]:
    """The fields (rows, cols, cell_size, wall_thickness, wall_height) ``after`` changes."""
    pairs = {
        "rows": (before.rows, after.rows),
        "cols": (before.cols, after.cols),
        "cell_size": (before.fab.cell_size, after.fab.cell_size),
        "wall_thickness": (before.fab.wall_thickness, after.fab.wall_thickness),
        "wall_height": (before.fab.wall_height, after.fab.wall_height),
    }
    return {name: new for name, (old, new) in pairs.items() if old != new}
