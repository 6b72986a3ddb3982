"""The printability report: is the solid sound, how heavy, does it fit the bed, the nozzle and
the ball, and, when it does not, one suggestion that fixes every rule at once.

Rules (each a :class:`Finding` when broken; all sizes mm):

- walls at least :data:`MIN_NOZZLE_WIDTHS` nozzle widths thick (under one width the slicer drops
  them: refused unless forced);
- corridors at least :data:`MIN_NOZZLE_WIDTHS` nozzle widths wide, and with a ball at least the
  ball's diameter plus :data:`BALL_PLAY`;
- with a ball, walls at least :data:`BALL_WALL_RATIO` × its diameter high: a wall lower than the
  ball's radius meets it below its centre and lets it climb over when the maze tilts; three
  quarters of the diameter keeps the contact well above the centre when the maze is shaken;
- the plate plus the slicer's skirt or brim room on every side fits the bed (either way round)
  and the height fits under the gantry; without a printer, at least one of :data:`PRINTERS`.

Suggestions are planned (:func:`suggest`) and then re-checked against every rule on the changed
layout before they are printed; when no cell size satisfies bed and corridors together, the
suggestion keeps the smallest good cell and lowers rows and columns instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.errors import ParameterError, PrintabilityError
from laby3d.geometry.params import Fabrication, parse_sizes

if TYPE_CHECKING:
    from laby3d.maze.model import Maze
    from laby3d.mesh.solid import MazeSolid
    from laby3d.mesh.types import Mesh

PLA_DENSITY = 1.24  # g/cm³
MIN_NOZZLE_WIDTHS = 2  # walls and corridors, in nozzle widths
BALL_PLAY = 0.5  # mm of corridor beyond the ball's diameter
BALL_WALL_RATIO = 0.75  # wall height over ball diameter
STEP = 0.1  # mm: suggested sizes are multiples of it
_EPS = 1e-9

#: Printable volumes (x, y, z) in mm, as the vendors' slicer profiles give them.
PRINTERS: dict[str, tuple[float, float, float]] = {
    "mk4": (250, 210, 220),
    "mk3": (250, 210, 210),
    "mini": (180, 180, 180),
    "coreone": (250, 220, 270),
    "ender3": (220, 220, 250),
    "ender3v2": (210, 220, 250),
    "a1": (256, 256, 256),
    "a1mini": (180, 180, 180),
    "x1": (256, 256, 250),
    "p1s": (256, 256, 250),
}


@dataclass(frozen=True, kw_only=True)
class Bed:
    """A printable volume: ``name`` as the user knows it ("mk4", "custom"), ``size`` x, y, z mm."""

    name: str
    size: tuple[float, float, float]

    @property
    def wording(self) -> str:
        """``the mk4 bed (250 × 210 mm)``."""
        return f"the {self.name} bed ({self.size[0]:g} × {self.size[1]:g} mm)"


@dataclass(frozen=True, kw_only=True)
class PrintSettings:
    """The printer side: bed (by preset or size), nozzle, an optional ball, and the room the
    slicer's skirt or brim needs around the model on every side, mm."""

    printer: str | None = None
    bed: tuple[float, float, float] | None = None
    nozzle: float = 0.4
    ball: float | None = None
    force: bool = False
    skirt_room: float = 3.0

    def bed_size(self) -> Bed | None:
        """The bed to check against, if any (printer names are case-insensitive)."""
        if self.bed is not None:
            return Bed(name="custom", size=self.bed)
        if self.printer is None:
            return None
        name = self.printer.strip().lower()
        if name not in PRINTERS:
            raise ParameterError(f"must be one of {', '.join(PRINTERS)}, got {self.printer!r}", field="printer")
        return Bed(name=name, size=PRINTERS[name])

    def beds(self) -> list[Bed]:
        """The bed asked for, or else every common bed (the solid must fit one of them)."""
        bed = self.bed_size()
        return [bed] if bed is not None else [Bed(name=name, size=size) for name, size in PRINTERS.items()]


def parse_bed(text: str) -> tuple[float, float, float]:
    """``"250x210x220"`` → (250.0, 210.0, 220.0), mm (height optional: then unlimited)."""
    values = parse_sizes(text, "bed", (2, 3), "WxD or WxDxH", "250x210x220")
    return (values[0], values[1], values[2] if len(values) == 3 else math.inf)


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
                message=f"a {ball:g} mm ball needs corridors of at least {ball + BALL_PLAY:g} mm "
                f"({BALL_PLAY:g} mm play); they are {fab.corridor_width:g} mm",
            )
        )
    if ball is not None and fab.wall_height < BALL_WALL_RATIO * ball - _EPS:
        found.append(
            Finding(
                rule="ball_height",
                message=f"walls {fab.wall_height:g} mm high let a {ball:g} mm ball hop over; "
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
                    f"fits none of the common printers ({', '.join(PRINTERS)}); give --printer or --bed",
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


def body_count(faces: np.ndarray, vertex_count: int) -> int:
    """Number of separate bodies: components of the vertices the ``(m, 3)`` faces use, joined
    through shared vertices.

    Vectorised union-find (hook every root onto its smallest neighbouring root, then jump
    pointers until each vertex points at its root): every round at least halves the number of
    components that still have an edge between them, so a few numpy passes suffice, with no
    Python loop over faces and no compiled kernel to import.

    >>> body_count(np.array([[0, 1, 2], [3, 4, 5], [2, 6, 7]]), 9)
    2
    """
    first = np.concatenate([faces[:, 0], faces[:, 0]])
    second = np.concatenate([faces[:, 1], faces[:, 2]])
    parent = np.arange(vertex_count)
    while True:
        root_a, root_b = parent[first], parent[second]
        apart = root_a != root_b
        if not apart.any():
            break
        root_a, root_b = root_a[apart], root_b[apart]
        np.minimum.at(parent, np.maximum(root_a, root_b), np.minimum(root_a, root_b))
        while True:
            grandparent = parent[parent]
            if np.array_equal(grandparent, parent):
                break
            parent = grandparent
    used = np.zeros(vertex_count, dtype=bool)
    used[faces.ravel()] = True
    return int(np.count_nonzero((parent == np.arange(vertex_count)) & used))


def mesh_soundness(mesh: Mesh) -> dict[str, Any]:
    """Closed and consistently wound (every edge once in each direction), body count, volume."""
    f = mesh.faces
    return {
        "watertight": mesh.is_closed(),
        "bodies": body_count(f, len(mesh.vertices)),
        "volume_mm3": round(mesh.volume(), 3),
        "triangles": len(f),
    }


def _flags(changed: dict[str, float | int]) -> str:
    return " ".join(f"--{name.replace('_', '-')} {value:g}" for name, value in changed.items())


def _estimates(solid: MazeSolid, bed: Bed | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The typical filament mass and, for a printer with a time model, the print time."""
    from laby3d.filament import SlicerSettings, print_work
    from laby3d.print_time import TIME_MODELS, duration_text

    typical = SlicerSettings()
    work = print_work(solid, typical)
    found: dict[str, Any] = {
        "typical_g": round(float(work.filament_mm3) / 1000 * PLA_DENSITY, 1),
        "typical_settings": f"estimate for {typical.describe()}",
    }
    model = TIME_MODELS.get(bed.name) if bed is not None else None
    if model is None:
        return found, None
    seconds = float(model.seconds(work))
    timing = {
        "seconds": round(seconds),
        "text": duration_text(seconds),
        "note": f"estimate of the slicer's own estimate (±20 %), fitted to {model.profile}, skirt included",
    }
    return found, timing


def printability_report(
    maze: Maze, fab: Fabrication, body: Mesh, settings: PrintSettings, *, solid: MazeSolid | None = None
) -> dict[str, Any]:
    """The report for one solid (``body``; with ``solid``, whose body it is, the report adds the
    filament estimate for typical slicer settings); raises :class:`PrintabilityError` for walls
    under one nozzle width unless ``settings.force``.

    Keys: watertight, bodies, volume_mm3, triangles, mass_g_pla (solid, 100 % infill), mass
    (solid_g, and with ``solid`` typical_g and typical_settings), print_time (with ``solid`` and a
    printer whose time model exists: seconds, text, note), size_mm,
    sits_on_z0, printer (the bed asked for) or common_printers (those it fits, without one),
    nozzle, corridor, ball (with a ball), suggestion (when a rule is broken and a fix exists),
    warnings (one per problem) and ok.
    """
    if fab.wall_thickness < settings.nozzle and not settings.force:
        raise PrintabilityError(
            f"wall_thickness {fab.wall_thickness:g} mm is thinner than the nozzle ({settings.nozzle:g} mm): "
            f"the slicer would drop the walls; use >= {MIN_NOZZLE_WIDTHS * settings.nozzle:g} mm or --force"
        )
    low, high = body.bounds()
    width, depth, height = (round(float(v), 3) for v in high - low)
    size = (width, depth, height)
    bed = settings.bed_size()
    report: dict[str, Any] = mesh_soundness(body)
    report["mass_g_pla"] = round(report["volume_mm3"] / 1000 * PLA_DENSITY, 2)
    report["mass"] = {"solid_g": report["mass_g_pla"], "solid_note": "100 % infill"}
    if solid is not None:
        typical, timing = _estimates(solid, bed)
        report["mass"].update(typical)
        if timing is not None:
            report["print_time"] = timing
    report["size_mm"] = list(size)
    report["sits_on_z0"] = bool(abs(low[2]) < 1e-9)
    layout = Layout(rows=maze.rows, cols=maze.cols, fab=fab)
    if bed is not None:
        report["printer"] = {
            "name": bed.name,
            "bed_mm": list(bed.size),
            "skirt_room_mm": settings.skirt_room,
            "fits": fits(size, bed, settings.skirt_room),
            "largest_cell_size_mm": largest_cell_size(maze.rows, maze.cols, fab, bed, settings.skirt_room),
        }
    else:
        report["common_printers"] = [b.name for b in settings.beds() if fits(size, b, settings.skirt_room)]
    report["nozzle"] = {
        "nozzle_mm": settings.nozzle,
        "wall_thickness_mm": fab.wall_thickness,
        "widths": round(fab.wall_thickness / settings.nozzle, 2),
    }
    report["corridor"] = {"width_mm": fab.corridor_width, "least_mm": round(min_corridor(settings), 3)}
    if settings.ball is not None:
        report["ball"] = {
            "diameter_mm": settings.ball,
            "corridor_mm": fab.corridor_width,
            "clearance_mm": round(fab.corridor_width - settings.ball, 3),
            "wall_height_mm": fab.wall_height,
            "least_wall_height_mm": round(BALL_WALL_RATIO * settings.ball, 3),
        }
    broken = findings(layout, settings, size)
    messages = [finding.message for finding in broken]
    if broken:
        planned = suggest(layout, settings)
        if planned is None:
            messages.append(
                "no cell size, wall size or maze size fixes all of this together: use a bigger bed, a smaller "
                "nozzle or ball, or a smaller margin"
            )
        else:
            fixed, target = planned
            changed = changes(layout, fixed)
            report["suggestion"] = {"changes": changed, "flags": _flags(changed), "printer": target.name}
            if "rows" in changed or "cols" in changed:
                messages.append(
                    f"no cell size fits {target.wording} with corridors of {min_corridor(settings):g} mm or more: "
                    "fewer rows and columns are needed"
                )
            new_size = " × ".join(f"{v:g}" for v in fixed.size())
            messages.append(f"suggested: {_flags(changed)} ({new_size} mm, for {target.wording}; passes every check)")
    if not report["watertight"]:
        messages.append("the solid is not closed: this is a bug in laby3d, please report it with the maze file")
    if report["bodies"] != 1:
        messages.append(f"the solid has {report['bodies']} separate bodies instead of one")
    report["warnings"] = messages
    report["ok"] = report["watertight"] and report["bodies"] == 1 and not broken
    return report
