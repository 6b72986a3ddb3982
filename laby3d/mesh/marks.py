"""The marks on a solid's plate, mm: the text label and the arrows beside the entrance and the exit,
each in a box of its own on the plan (:mod:`laby3d.geometry.plan`).

The label goes on a straight margin (a board's plate: the strip along its bottom edge) or mirrored
under the base; on a disc (a theta maze's plate, :data:`laby3d.geometry.plan.PLATES`) only under
the base, in the largest rectangle of the text's proportions inside the disc: the margin is a
ring and laby3d letters straight lines only, so ``auto`` puts it under the base, with a warning
when the margin is wide or an embossed label was asked for. The arrows (``markers``) stand on the
margin beyond each opening, pointing in at the entrance and out at the exit, as near the opening
as the walls let them: smaller where the opening's neighbouring walls stand out of the outline (a
hex or triangle board's zig-zag edge), refused where not even a third of one fits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from laby3d.errors import ParameterError
from laby3d.geometry.plan import plate_kind, plate_size

if TYPE_CHECKING:
    import shapely

    from laby3d.geometry.label import GlyphChecks, LabelPlacement, PlacedLabel
    from laby3d.geometry.params import Fabrication
    from laby3d.geometry.plan import Plan
    from laby3d.maze.model import Maze
    from laby3d.mesh.solid_options import SolidOptions

#: Plan labels of the marks' boxes: the text label on the margin, the entrance's and exit's arrows.
LABEL_AREA = 4
MARKERS = (8, 9)
#: Floor kept between an arrow's box and the walls, mm.
ARROW_GAP = 0.05
#: Why a label cannot go on a disc's margin.
RING_MARGIN = "a theta maze's margin is a ring and laby3d letters straight lines only"
#: Why a label cannot go on a cut board's margin.
OUTLINE_MARGIN = "the margin of a board cut by an outline follows the outline, and laby3d letters straight lines only"


def place_label(
    options: SolidOptions,
    fab: Fabrication,
    shape: str,
    size: tuple[int, int | None],
    blocked: tuple[tuple[float, float, float, float], ...] = (),
    checks: GlyphChecks | None = None,
    plate: shapely.Polygon | None = None,
) -> tuple[LabelPlacement, tuple[float, float]]:
    """Where the label goes on a ``shape`` maze of ``size`` (rows, cols) and how big (as
    :meth:`SolidOptions.place_label`), and where its room's corner lies on the plate (mm): on a
    board's plate as :meth:`SolidOptions.place_label` places it; on a disc under the base, in the
    largest rectangle of the text's proportions inside the disc (``blocked``: boxes taken on the
    margin; ``checks``: the printability checks shared by the labels of one run); on a cut
    board's ``plate`` (its outline, mm) under the base likewise, in the largest such rectangle
    around the point farthest from the rim."""
    width, depth = plate_size(shape, size[0], size[1], fab)
    if plate is None and plate_kind(shape) == "box":
        return options.place_label(fab, (width, depth), blocked, checks), (0.0, 0.0)
    from laby3d.geometry.text import text_shape

    x0, y0, x1, y1 = text_shape(options.label or "").bounds
    angle = math.atan2(y1 - y0, x1 - x0)
    if plate is None:
        radius = min(width, depth) / 2
        room = (2 * radius * math.cos(angle) * 0.999, 2 * radius * math.sin(angle) * 0.999)
        corner = ((width - room[0]) / 2, (depth - room[1]) / 2)
        why = RING_MARGIN
    else:
        room, corner = _room_inside(plate, angle)
        why = OUTLINE_MARGIN
    bottom = replace(options, label_position="bottom", label_mode="engrave")
    placement = bottom.place_label(replace(fab, margin=0.0), room, (), checks)
    if (fab.margin > 0 or options.label_mode == "emboss") and options.label_position == "auto":
        moved = f"the label is engraved under the base: {why}"
        placement = replace(placement, warnings=(*placement.warnings, moved))
    return placement, corner


def _room_inside(plate: shapely.Polygon, angle: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The largest rectangle (width, depth) whose diagonal rises at ``angle`` that fits inside
    ``plate`` centred on its pole of inaccessibility, and its lower-left corner (mm)."""
    import shapely
    import shapely.ops

    centre = shapely.ops.polylabel(plate, tolerance=1e-3)
    reach = 2 * float(plate.exterior.distance(centre)) + float(
        np.hypot(*np.ptp(np.asarray(plate.exterior.coords), axis=0))
    )
    low, high = 0.0, reach
    for _ in range(40):  # bisection on the half-diagonal, to a millionth of the plate
        middle = (low + high) / 2
        dx, dy = middle * math.cos(angle), middle * math.sin(angle)
        box = shapely.box(centre.x - dx, centre.y - dy, centre.x + dx, centre.y + dy)
        low, high = (middle, high) if plate.contains(box) else (low, middle)
    dx, dy = 0.999 * low * math.cos(angle), 0.999 * low * math.sin(angle)
    return (2 * dx, 2 * dy), (centre.x - dx, centre.y - dy)


def check_label_position(options: SolidOptions, shape: str) -> None:
    """Refuse a label asked for on the margin of a plate whose margin is a ring (a disc)."""
    if options.label is not None and plate_kind(shape) == "disc" and options.label_position == "margin":
        raise ParameterError(
            f"margin: {RING_MARGIN}; use bottom or auto (the label then goes under the base)", field="label_position"
        )


@dataclass(frozen=True)
class Marks:
    """The marks on the plate (mm): boxes (a ring of points each) by plan label, each with its
    polygons, and the label's placement when there is one."""

    boxes: dict[int, np.ndarray]
    glyphs: dict[int, shapely.Geometry]
    placement: LabelPlacement | None
    #: the label's glyphs and box where they lie on this plate (under the base: mirrored)
    label: PlacedLabel | None


def plate_marks(maze: Maze, plan: Plan, fab: Fabrication, options: SolidOptions) -> Marks:
    """The arrows beside the openings and the label, each in a box of its own on the plate."""
    boxes: dict[int, np.ndarray] = {}
    glyphs: dict[int, shapely.Geometry] = {}
    if options.markers:
        for index, (box, arrow) in enumerate(_arrows(maze, plan, fab)):
            boxes[MARKERS[index]] = box
            glyphs[MARKERS[index]] = arrow
    if options.label is None:
        return Marks(boxes, glyphs, None, None)
    blocked = tuple(_bounds(box) for box in boxes.values())
    outline = None
    if plate_kind(maze.tessellation.kind) == "outline":
        import shapely

        if options.label_position == "margin":
            raise ParameterError(
                f"margin: {OUTLINE_MARGIN}; use bottom or auto (the label then goes under the base)",
                field="label_position",
            )
        outline = shapely.Polygon(plan.points[plan.plate])
    placement, corner = place_label(options, fab, maze.shape, (maze.rows, maze.cols), blocked, plate=outline)
    mark = placement.mark
    if corner != (0.0, 0.0):
        import shapely

        from laby3d.geometry.label import PlacedLabel

        x0, y0, x1, y1 = mark.box
        dx, dy = corner
        moved = shapely.affinity.translate(mark.glyphs, dx, dy)
        mark = PlacedLabel((x0 + dx, y0 + dy, x1 + dx, y1 + dy), moved)
    if placement.side == "margin":
        x0, y0, x1, y1 = mark.box
        boxes[LABEL_AREA] = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], dtype=float)
        glyphs[LABEL_AREA] = mark.glyphs
    return Marks(boxes, glyphs, placement, mark)


def _bounds(box: np.ndarray) -> tuple[float, float, float, float]:
    """A box's (x0, y0, x1, y1), mm."""
    (x0, y0), (x1, y1) = box.min(axis=0), box.max(axis=0)
    return float(x0), float(y0), float(x1), float(y1)


def _arrows(maze: Maze, plan: Plan, fab: Fabrication) -> list[tuple[np.ndarray, shapely.Geometry]]:
    """An arrow on the margin beyond each opening (pointing in at the entrance, out at the exit)
    in a square box turned with it, as near the opening as the walls let it: ``min(margin − 2,
    0.8 corridor, 8)`` mm long and wide, smaller where the walls beside the opening stand out of
    the outline; refused where not even a third of it fits."""
    import shapely

    from laby3d.geometry.label import GRID, TEXT_CLEARANCE

    tessellation = maze.tessellation
    largest = min(fab.margin - 2 * TEXT_CLEARANCE, 0.8 * fab.corridor_width, 8.0)
    plate = shapely.Polygon(plan.points[plan.plate])
    walls = plan.walls.geometry()
    arrows = []
    for opening, inward, name in ((maze.entrance, True, "entrance"), (maze.exit, False, "exit")):
        wall = maze.boundary_wall_of(opening)
        if wall is None or opening is None:
            continue
        line = plan.to_plan(tessellation.boundary_polyline(wall))
        middle = plan.to_plan(tessellation.boundary_midpoints[wall])[0]
        cell = plan.to_plan(tessellation.centres[tessellation.cell_index(opening.row, opening.col)])[0]
        chord = line[-1] - line[0]
        outward = np.array([chord[1], -chord[0]]) / math.hypot(*chord)
        if (middle - cell) @ outward < 0:  # away from the opening's own cell
            outward = -outward
        placed = None
        for size in (largest, 2 * largest / 3, largest / 2, largest / 3):
            placed = _arrow_box(plate, walls, middle, outward, size / 2 + 0.5, fab.wall_thickness / 2)
            if placed is not None:
                break
        if placed is None:
            raise ParameterError(
                f"no room for the arrow beside the {name} of this {maze.shape} maze: a wider margin makes room",
                field="markers",
            )
        centre, corners = placed
        pointing = -outward if inward else outward
        side = np.array([-pointing[1], pointing[0]])
        tip, back = centre + pointing * size / 2, centre - pointing * size / 2
        arrow = shapely.set_precision(shapely.Polygon([back - side * size / 2, tip, back + side * size / 2]), GRID)
        arrows.append((corners, arrow))
    return arrows


def _arrow_box(
    plate: shapely.Polygon, walls: shapely.Geometry, middle: np.ndarray, outward: np.ndarray, half: float, reach: float
) -> tuple[np.ndarray, np.ndarray] | None:
    """The centre and corners (mm) of the square box ``2·half`` wide turned with ``outward``,
    moved out from the opening's ``middle`` (from ``reach`` beyond it, 0.5 mm a step) until it
    keeps :data:`ARROW_GAP` from the walls (a box touching a wall within rounding would crack
    the solid); None when it leaves the plate first."""
    import shapely

    along = np.array([-outward[1], outward[0]])
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) @ np.stack([outward, along]) * half
    for step in range(10_000):
        centre = middle + outward * (reach + half + 0.5 * step)
        square = shapely.Polygon(centre + corners)
        if not plate.contains_properly(square):
            return None
        if square.distance(walls) > ARROW_GAP:
            return centre, centre + corners
    return None
