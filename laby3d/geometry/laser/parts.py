"""Parts to lay out on sheets: an outline to cut and marks to score or engrave, mm, y up."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely

from laby3d.geometry.laser.options import Material
from laby3d.geometry.shapes import polygon_loops


@dataclass(frozen=True, kw_only=True)
class Mark:
    """A stroke that is not an outline cut: ``points`` ``(k, 2)`` mm (y up), its operation."""

    operation: str
    points: np.ndarray
    closed: bool


@dataclass(frozen=True, kw_only=True)
class Part:
    """One piece of material: ``shape`` is cut out (already grown by half the kerf; ``None`` when
    the part is only marked, e.g. a line drawing), ``box`` (x0, y0, x1, y1) the room it takes, mm."""

    name: str
    material: Material
    shape: shapely.Geometry | None
    box: tuple[float, float, float, float]
    marks: tuple[Mark, ...] = ()
    owner: str | None = None

    @property
    def size(self) -> tuple[float, float]:
        """Width and height of the room the part takes, mm."""
        x0, y0, x1, y1 = self.box
        return x1 - x0, y1 - y0

    def cut_rings(self) -> list[tuple[np.ndarray, bool]]:
        """(points without the closing repeat, is_hole) for every ring of ``shape``."""
        if self.shape is None:
            return []
        return [(loop, k > 0) for loops in polygon_loops(self.shape) for k, loop in enumerate(loops)]


def grown(geometry: shapely.Geometry, kerf: float) -> shapely.Geometry:
    """Parts grown by half the kerf (holes shrink by as much), with sharp mitred corners."""
    if kerf == 0:
        return geometry
    return shapely.buffer(geometry, kerf / 2, join_style="mitre", mitre_limit=10.0)


def text_marks(rings: list[np.ndarray], x: float, y: float, *, mirrored_about: float | None = None) -> list[Mark]:
    """Text outline rings moved to (x, y), as fill engravings; ``mirrored_about`` an x (mm) to
    mirror them about (text read from the other side of the sheet)."""
    marks = []
    for ring in rings:
        points = ring + [x, y]
        if mirrored_about is not None:
            points = np.column_stack([2 * mirrored_about - points[:, 0], points[:, 1]])[::-1]
        marks.append(Mark(operation="engrave-fill", points=points, closed=True))
    return marks
