"""The printability report: is the solid sound, how heavy, how long to print, does it fit the
bed, the nozzle and the ball, and, when it does not, one suggestion that fixes every rule at once.

The rules and the suggestion that fixes them all live in :mod:`laby3d.print_rules`; this
module holds the printers, the settings, the checks of the mesh and the report itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.errors import ParameterError, PrintabilityError
from laby3d.geometry.params import parse_sizes
from laby3d.print_rules import (
    BALL_WALL_RATIO,
    MIN_NOZZLE_WIDTHS,
    Layout,
    changes,
    findings,
    fits,
    largest_cell_size,
    min_corridor,
    suggest,
)
from laby3d.unionfind import component_roots

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze
    from laby3d.mesh.solid import MazeSolid
    from laby3d.mesh.types import Mesh

PLA_DENSITY = 1.24  # g/cm³

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

    def check_walls(self, fab: Fabrication) -> None:
        """Raise :class:`PrintabilityError` for walls under one nozzle width, unless ``force``."""
        if fab.wall_thickness < self.nozzle and not self.force:
            raise PrintabilityError(
                f"of {fab.wall_thickness:g} mm is thinner than the nozzle ({self.nozzle:g} mm): the slicer would "
                f"drop the walls; use >= {MIN_NOZZLE_WIDTHS * self.nozzle:g} mm or force",
                field="wall_thickness",
            )

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


def body_count(faces: np.ndarray, vertex_count: int) -> int:
    """Number of separate bodies: components of the vertices the ``(m, 3)`` faces use, joined
    through shared vertices.

    >>> body_count(np.array([[0, 1, 2], [3, 4, 5], [2, 6, 7]]), 9)
    2
    """
    first = np.concatenate([faces[:, 0], faces[:, 0]])
    second = np.concatenate([faces[:, 1], faces[:, 2]])
    parent = component_roots(vertex_count, first, second)
    used = np.zeros(vertex_count, dtype=bool)
    used[faces.ravel()] = True
    return int(np.count_nonzero((parent == np.arange(vertex_count)) & used))


def mesh_soundness(mesh: Mesh, volume: float | None = None) -> dict[str, Any]:
    """Closed and consistently wound (every edge once in each direction), body count, volume
    (``volume``: mm³, when already measured)."""
    f = mesh.faces
    return {
        "watertight": mesh.is_closed(),
        "bodies": body_count(f, len(mesh.vertices)),
        "volume_mm3": round(mesh.volume() if volume is None else volume, 3),
        "triangles": len(f),
    }


def _flags(changed: dict[str, float | int]) -> str:
    return " ".join(f"--{name.replace('_', '-')} {value:g}" for name, value in changed.items())


def _estimates(
    solid: MazeSolid, bed: Bed | None, volume: float, nozzle: float, fleet: tuple[str, ...] = ()
) -> tuple[dict[str, Any], dict[str, Any] | None, dict[str, int]]:
    """The typical filament mass, for a printer and nozzle with a time model the print time, and
    the print time on each printer of ``fleet`` that has one, s (``volume``: the solid's, mm³,
    already measured)."""
    from laby3d.filament import print_work, slicer_settings
    from laby3d.print_time import duration_text, time_model

    typical = slicer_settings(nozzle)
    work = print_work(solid, typical, volume=volume)
    found: dict[str, Any] = {
        "typical_g": round(float(work.filament_mm3) / 1000 * PLA_DENSITY, 1),
        "typical_settings": f"estimate for {typical.describe()}",
    }
    models = {kind: time_model(kind, nozzle) for kind in fleet}
    on = {kind: round(float(model.seconds(work))) for kind, model in models.items() if model is not None}
    model = time_model(bed.name, nozzle) if bed is not None else None
    if model is None:
        return found, None, on
    seconds = float(model.seconds(work))
    return found, {"seconds": round(seconds), "text": duration_text(seconds), "note": model.note()}, on


def printability_report(
    maze: Maze,
    fab: Fabrication,
    body: Mesh,
    settings: PrintSettings,
    *,
    solid: MazeSolid | None = None,
    fleet: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The report for one solid (``body``; with ``solid``, whose body it is, the report adds the
    filament estimate for typical slicer settings, and the print time on each printer of
    ``fleet``, s, in ``print_seconds_on``); raises :class:`PrintabilityError` for walls
    under one nozzle width unless ``settings.force``.

    Keys: watertight, bodies, volume_mm3, triangles, mass_g_pla (solid, 100 % infill), mass
    (solid_g, and with ``solid`` typical_g and typical_settings), print_time (with ``solid`` and a
    printer whose time model exists: seconds, text, note), label (with ``solid`` and a label:
    where it went, its size and depth, and what changed from what was asked), size_mm,
    sits_on_z0, shape and cells, printer (the bed asked for) or common_printers (those it fits,
    without one), nozzle, corridor (with the narrowest passage: between hexagons narrower than
    the corridor, which the ball's clearance is measured on), ball (with a ball), suggestion (when
    a rule is broken and a fix exists), warnings (one per problem) and ok.
    """
    settings.check_walls(fab)
    low, high = body.bounds()
    width, depth, height = (round(float(v), 3) for v in high - low)
    size = (width, depth, height)
    bed = settings.bed_size()
    volume = body.volume()
    report: dict[str, Any] = mesh_soundness(body, volume)
    report["mass_g_pla"] = round(report["volume_mm3"] / 1000 * PLA_DENSITY, 2)
    report["mass"] = {"solid_g": report["mass_g_pla"], "solid_note": "100 % infill"}
    if solid is not None:
        typical, timing, fleet_seconds = _estimates(solid, bed, volume, settings.nozzle, fleet)
        report["mass"].update(typical)
        if fleet_seconds:
            report["print_seconds_on"] = fleet_seconds
        if timing is not None:
            report["print_time"] = timing
    report["size_mm"] = list(size)
    report["sits_on_z0"] = bool(abs(low[2]) < 1e-9)
    layout = Layout(rows=maze.rows, cols=maze.cols, fab=fab, shape=maze.shape)
    report["shape"] = maze.shape
    report["cells"] = maze.cell_count
    if bed is not None:
        report["printer"] = {
            "name": bed.name,
            "bed_mm": list(bed.size),
            "skirt_room_mm": settings.skirt_room,
            "fits": fits(size, bed, settings.skirt_room),
            "largest_cell_size_mm": largest_cell_size(
                maze.rows, maze.cols, fab, bed, settings.skirt_room, layout.shape
            ),
        }
    else:
        report["common_printers"] = [b.name for b in settings.beds() if fits(size, b, settings.skirt_room)]
    report["nozzle"] = {
        "nozzle_mm": settings.nozzle,
        "wall_thickness_mm": fab.wall_thickness,
        "widths": round(fab.wall_thickness / settings.nozzle, 2),
    }
    report["corridor"] = {
        "width_mm": fab.corridor_width,
        "least_mm": round(min_corridor(settings), 3),
        "narrowest_passage_mm": layout.passage,
    }
    if settings.ball is not None:
        report["ball"] = {
            "diameter_mm": settings.ball,
            "corridor_mm": layout.passage,
            "clearance_mm": round(layout.passage - settings.ball, 3),
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
            new_size = " × ".join(f"{round(v, 1):g}" for v in fixed.size())
            messages.append(f"suggested: {_flags(changed)}: {new_size} mm, fits {target.wording}, passes every check")
    if not report["watertight"]:
        messages.append("the solid is not closed: this is a bug in laby3d, please report it with the maze file")
    if report["bodies"] != 1:
        messages.append(f"the solid has {report['bodies']} separate bodies instead of one")
    placement = solid.label_placement if solid is not None else None
    if placement is not None:  # where the label went, and what changed from what was asked
        report["label"] = {**placement.as_dict(), "where": placement.describe(), "warnings": list(placement.warnings)}
        messages.extend(placement.warnings)
    report["warnings"] = messages
    report["ok"] = report["watertight"] and report["bodies"] == 1 and not broken
    return report
