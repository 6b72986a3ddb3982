"""Marks on the solid's floor margin: a text label and the entrance/exit arrows, polygons in mm."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import shapely

from laby3d.errors import ParameterError
from laby3d.geometry.params import Fabrication
from laby3d.geometry.text import text_outlines

if TYPE_CHECKING:
    from laby3d.maze.model import Maze

#: Smallest cap height that prints legibly with a 0.4 mm nozzle, mm.
MIN_TEXT_HEIGHT = 3.0
#: Free floor kept around the text, mm.
TEXT_CLEARANCE = 1.0
#: Margin the entrance/exit arrows need, and how deep they are engraved, mm.
MARKER_MARGIN = 4.0
MARKER_DEPTH = 0.6


@dataclass(frozen=True)
class PlacedLabel:
    """The text's bounding box in the bottom margin (x0, y0, x1, y1) and its glyph polygons (mm, y up)."""

    box: tuple[float, float, float, float]
    glyphs: shapely.Geometry


def glyph_polygons(text: str, height: float) -> shapely.Geometry:
    """The text's outlines as valid polygons (holes of letters like 'o' included), mm."""
    rings = text_outlines(text, height)
    if not rings:
        raise ParameterError(f"label {text!r} has no visible character")
    shapes = [shapely.Polygon(ring).buffer(0) for ring in rings]
    glyphs = shapes[0]
    for shape in shapes[1:]:
        glyphs = glyphs.symmetric_difference(shape)  # even-odd: counters become holes
    return shapely.set_precision(glyphs, 1e-4)


def place_label(text: str, plate_width: float, fab: Fabrication) -> PlacedLabel:
    """The label centred in the bottom margin, as tall as the margin allows (≤ 10 mm)."""
    room_y = fab.margin - 2 * TEXT_CLEARANCE
    if room_y < MIN_TEXT_HEIGHT:
        raise ParameterError(
            f"a label needs margin >= {MIN_TEXT_HEIGHT + 2 * TEXT_CLEARANCE:g} mm for legible text, got {fab.margin:g}"
        )
    height = min(room_y, 10.0)
    glyphs = glyph_polygons(text, height)
    x0, y0, x1, y1 = glyphs.bounds
    room_x = plate_width - 2 * fab.margin
    if x1 - x0 > room_x:  # too long: shrink to fit the width
        scale = room_x / (x1 - x0)
        if height * scale < MIN_TEXT_HEIGHT:
            raise ParameterError(
                f"label {text!r} is too long for a {plate_width:g} mm plate: shorten it or enlarge the maze"
            )
        glyphs = shapely.affinity.scale(glyphs, scale, scale, origin=(0, 0))
        x0, y0, x1, y1 = glyphs.bounds
    dx = (plate_width - (x1 - x0)) / 2 - x0
    dy = (fab.margin - (y1 - y0)) / 2 - y0
    glyphs = shapely.set_precision(shapely.affinity.translate(glyphs, dx, dy), 1e-4)
    gx0, gy0, gx1, gy1 = glyphs.bounds
    box = (
        float(np.floor((gx0 - 0.5) * 1e4) / 1e4),
        float(max(0.1, np.floor((gy0 - 0.5) * 1e4) / 1e4)),
        float(np.ceil((gx1 + 0.5) * 1e4) / 1e4),
        float(min(fab.margin - 0.1, np.ceil((gy1 + 0.5) * 1e4) / 1e4)),
    )
    return PlacedLabel(box, glyphs)


def opening_markers(maze: Maze, fab: Fabrication) -> list[PlacedLabel]:
    """Arrows on the floor margin beside the entrance (pointing in) and the exit (pointing out);
    the margin must be at least :data:`MARKER_MARGIN` (checked by the solid's options)."""
    width, depth = fab.outer_size(maze.rows, maze.cols)
    size = min(fab.margin - 2 * TEXT_CLEARANCE, 0.8 * fab.corridor_width, 8.0)
    arrow = shapely.Polygon([(-0.5, -0.5), (0.5, 0.0), (-0.5, 0.5)])  # points towards +x
    markers = []
    for opening, inward in ((maze.entrance, True), (maze.exit, False)):
        if opening is None or opening.side is None:
            continue
        cx = fab.margin + fab.wall_thickness / 2 + (opening.col + 0.5) * fab.cell_size
        cy = depth - (fab.margin + fab.wall_thickness / 2 + (opening.row + 0.5) * fab.cell_size)
        into = {"W": 0.0, "E": 180.0, "N": -90.0, "S": 90.0}[opening.side]  # direction into the maze
        centre = {
            "W": (fab.margin / 2, cy),
            "E": (width - fab.margin / 2, cy),
            "N": (cx, depth - fab.margin / 2),
            "S": (cx, fab.margin / 2),
        }[opening.side]
        shape = shapely.affinity.rotate(
            shapely.affinity.scale(arrow, size, size, origin=(0, 0)), into if inward else into + 180.0, origin=(0, 0)
        )
        shape = shapely.set_precision(shapely.affinity.translate(shape, *centre), 1e-4)
        x0, y0, x1, y1 = shape.bounds
        box = (round(x0 - 0.5, 4), round(y0 - 0.5, 4), round(x1 + 0.5, 4), round(y1 + 0.5, 4))
        markers.append(PlacedLabel(box, shape))
    return markers
