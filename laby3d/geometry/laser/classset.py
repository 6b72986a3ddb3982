"""A class set: many pupils' ball kits nested together on shared sheets, per material.

Every part carries its pupil's name, engraved small in the bottom frame band (solid on every
layer, clear of the alignment holes), so the pieces can be sorted after cutting.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from laby3d.geometry.laser.kit import ball_kit
from laby3d.geometry.laser.layout import nest, pages
from laby3d.geometry.laser.parts import Part, text_marks
from laby3d.geometry.laser.sheets import LaserSheets
from laby3d.geometry.laser.travel import ordered
from laby3d.geometry.text import text_outlines

if TYPE_CHECKING:
    from laby3d.geometry.laser.options import LaserOptions
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze

#: Largest height of the name tag on every part, mm.
TAG_HEIGHT = 3.0


def class_sheets(kits: list[tuple[str, Maze]], fab: Fabrication, options: LaserOptions) -> LaserSheets:
    """The kits of every ``(pupil name, maze)`` nested on shared sheets, one page per sheet."""
    parts: list[Part] = []
    band = fab.margin + fab.wall_thickness
    height = min(TAG_HEIGHT, band - 1.0)
    for name, maze in kits:
        kit = ball_kit(maze, fab, options, owner=name)
        rings = text_outlines(name, height) if height > 0.5 else []  # once per pupil
        parts.extend(_tagged(part, rings, height, band) for part in kit.parts)
    nesting = nest(parts, options.sheet_size, options.spacing)
    drawn = pages(nesting.placements, options.sheet_size, shared_edges=options.spacing == 0)
    return LaserSheets(pages=[ordered(page) for page in drawn], kit=None, nesting=nesting.materials)


def _tagged(part: Part, rings: list[np.ndarray], height: float, band: float) -> Part:
    """``part`` with the name ``rings`` (``height`` mm tall) engraved in its bottom frame band
    (``band`` mm wide), shrunk to fit along it."""
    if not rings:
        return part
    x0, y0, x1, _ = part.box
    start = x0 + band + 2.0  # clear of the corner alignment hole
    room = x1 - band - 2.0 - start
    width = max(float(ring[:, 0].max()) for ring in rings)
    if width > room:
        rings = [ring * (room / width) for ring in rings]
        height *= room / width
    marks = text_marks(rings, start, y0 + (band - height) / 2)
    return replace(part, marks=(*part.marks, *marks))
