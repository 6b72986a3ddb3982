"""The printability report: is the solid sound, how heavy, does it fit the bed and the nozzle."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.errors import ParameterError, PrintabilityError
from laby3d.geometry.params import parse_sizes

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze
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


@dataclass(frozen=True)
class PrintSettings:
    """The printer side: bed (by preset or size), nozzle, and an optional ball, mm."""

    printer: str | None = None
    bed: tuple[float, float, float] | None = None
    nozzle: float = 0.4
    ball: float | None = None
    force: bool = False

    def bed_size(self) -> tuple[str, tuple[float, float, float]] | None:
        """(name, size) of the bed to check against, if any."""
        if self.bed is not None:
            return "custom bed", self.bed
        if self.printer is None:
            return None
        if self.printer not in PRINTERS:
            raise ParameterError(f"printer must be one of {', '.join(PRINTERS)}, got {self.printer!r}")
        return self.printer, PRINTERS[self.printer]


def parse_bed(text: str) -> tuple[float, float, float]:
    """``"250x210x220"`` → (250.0, 210.0, 220.0), mm (height optional: then unlimited)."""
    values = parse_sizes(text, "bed", (2, 3), "WxD or WxDxH", "250x210x220")
    return (values[0], values[1], values[2] if len(values) == 3 else math.inf)


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


def largest_cell_size(rows: int, cols: int, fab: Fabrication, bed: tuple[float, float, float]) -> float | None:
    """The largest cell size (0.1 mm steps) whose plate fits the bed, either way round."""
    extra = fab.wall_thickness + 2 * fab.margin
    best = max(
        min((bed[0] - extra) / cols, (bed[1] - extra) / rows),
        min((bed[1] - extra) / cols, (bed[0] - extra) / rows),
    )
    best = math.floor(best * 10) / 10
    return best if best > fab.wall_thickness else None


def printability_report(maze: Maze, fab: Fabrication, body: Mesh, settings: PrintSettings) -> dict[str, Any]:
    """The report for one solid; raises :class:`PrintabilityError` for walls under one nozzle
    width unless ``settings.force``."""
    if fab.wall_thickness < settings.nozzle and not settings.force:
        raise PrintabilityError(
            f"wall_thickness {fab.wall_thickness:g} mm is thinner than the nozzle ({settings.nozzle:g} mm): "
            f"the slicer would drop the walls; use >= {2 * settings.nozzle:g} mm or --force"
        )
    low, high = body.bounds()
    size = [round(float(v), 3) for v in high - low]
    report: dict[str, Any] = mesh_soundness(body)
    report["mass_g_pla"] = round(report["volume_mm3"] / 1000 * PLA_DENSITY, 2)
    report["size_mm"] = size
    report["sits_on_z0"] = bool(abs(low[2]) < 1e-9)
    messages: list[str] = []
    bed = settings.bed_size()
    if bed is not None:
        name, (bx, by, bz) = bed
        fits_xy = (size[0] <= bx and size[1] <= by) or (size[0] <= by and size[1] <= bx)
        fits = fits_xy and size[2] <= bz
        report["printer"] = {"name": name, "bed_mm": [bx, by, bz], "fits": fits}
        if not fits_xy:
            best = largest_cell_size(maze.rows, maze.cols, fab, (bx, by, bz))
            report["printer"]["largest_cell_size_mm"] = best
            hint = f"use --cell-size {best:g} or less" if best else "use fewer rows and columns"
            messages.append(f"does not fit the {name} bed ({bx:g} × {by:g} mm): {size[0]:g} × {size[1]:g} mm; {hint}")
        elif size[2] > bz:
            messages.append(f"{size[2]:g} mm tall, the {name} prints at most {bz:g} mm: lower --wall-height")
    walls = fab.wall_thickness / settings.nozzle
    report["nozzle"] = {
        "nozzle_mm": settings.nozzle,
        "wall_thickness_mm": fab.wall_thickness,
        "widths": round(walls, 2),
    }
    if walls < 2:
        messages.append(
            f"walls are {walls:.2g} nozzle widths thick; 2 or more print reliably (--wall-thickness "
            f"{2 * settings.nozzle:g})"
        )
    if settings.ball is not None:
        clearance = round(fab.corridor_width - settings.ball, 3)
        report["ball"] = {"diameter_mm": settings.ball, "corridor_mm": fab.corridor_width, "clearance_mm": clearance}
        if clearance < 0.5:
            messages.append(
                f"a {settings.ball:g} mm ball needs corridors of at least {settings.ball + 0.5:g} mm "
                f"(0.5 mm play); they are {fab.corridor_width:g} mm"
            )
    report["warnings"] = messages
    report["ok"] = report["watertight"] and report["bodies"] == 1 and not messages
    return report
