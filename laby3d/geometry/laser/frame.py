"""A ball kit's plate and frame, mm, y up, for a maze of any shape: the plate, the region inside
the outline's inner face, the key every layer is cut with and the dowel holes.

Everything here depends on the maze's tessellation and sizes alone, never on its walls, so
:meth:`.LaserOptions.check` builds the same frame before any maze exists. The plate is the plan's
(:func:`.walls.plan_of` of the maze with every wall open: a disc for theta, the walls' bounding
rectangle for square, hex and triangle boards, with the margin); ``inside`` is where a wall sheet
may have corridors; the frame is the plate less ``inside``, ``band`` (margin + wall) wide.

Steps: (1) the key, a notch cut from every layer, as large as :data:`NOTCH` allows while leaving
the material's wall minimum to ``inside``: on a plate with corners a right triangle at its
top-left corner, legs along the top edge and half as much down the side (no turn nor flip maps
it onto itself); on a disc, which has no corner, the same notch at 12 o'clock (a steep side down
the vertical, a slanted one to the right); (2) dowel holes (optional): on a board three frame
corners and the top-left one moved along the top band (only one way round lines every hole up),
on a disc three at 120°, 210° and 330° (unequal gaps); refused when they do not fit the frame
with 1 mm around.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import shapely

from laby3d.errors import ParameterError
from laby3d.geometry.laser.engraving import CLEARANCE, EDGE
from laby3d.geometry.plan import plate_kind
from laby3d.i18n import Message

if TYPE_CHECKING:
    from laby3d.geometry.laser.engraving import Text
    from laby3d.geometry.params import Fabrication
    from laby3d.geometry.plan import Plan
    from laby3d.tessellation.base import Tessellation

#: Largest leg of the orientation notch (along the top edge; half as much down the side), mm.
NOTCH = 5.0
#: Steps of the notch's leg tried, from :data:`NOTCH` down, mm.
NOTCH_STEP = 0.05
#: Angles of a disc's dowel holes, degrees anticlockwise from 3 o'clock (gaps 90°, 120°, 150°).
DISC_DOWELS = (120.0, 210.0, 330.0)
#: The quad segments of a round hole (dowel holes, ball holes).
HOLE_SEGMENTS = 16


@dataclass(frozen=True, kw_only=True)
class Frame:
    """A kit's plate and frame, mm (y up): the ``plate``, the region ``inside`` the outline's
    inner face, the ``notch`` cut from every layer (its leg ``notch_leg``; the polygon reaches
    beyond the plate: what it cuts is its intersection), the dowel ``holes`` (centres) of
    ``hole`` mm, and the map from the tessellation's points to these mm (``scale``, ``origin``)."""

    tessellation: Tessellation
    fab: Fabrication
    min_wall: float
    plate: shapely.Polygon
    inside: shapely.Polygon
    notch: shapely.Polygon
    notch_leg: float
    holes: tuple[tuple[float, float], ...]
    hole: float
    scale: float
    origin: tuple[float, float]
    #: text already placed, by (text, where, height) (:func:`.engraving.placed`)
    fits: dict[tuple[tuple[str, ...], str, float], list[Text] | None] = field(default_factory=dict, repr=False)
    #: the least margin holding text, by (text, where, height) (:func:`.engraving.working_margin`)
    margins: dict[tuple[tuple[str, ...], str, float], float | None] = field(default_factory=dict, repr=False)

    @property
    def shape(self) -> str:
        """The maze's shape (for messages)."""
        return self.tessellation.shape.name

    @property
    def band(self) -> float:
        """The frame's nominal width, margin + wall, mm."""
        return self.fab.margin + self.fab.wall_thickness

    @property
    def size(self) -> tuple[float, float]:
        """Width and depth of the plate's box, mm."""
        x0, y0, x1, y1 = self.plate.bounds
        return x1 - x0, y1 - y0

    def to_plate(self, points: np.ndarray) -> np.ndarray:
        """``(k, 2)`` tessellation points (cell sizes, y down) on the plate (mm, y up)."""
        points = np.asarray(points, dtype=float).reshape(-1, 2)
        return np.column_stack([points[:, 0] * self.scale + self.origin[0], self.origin[1] - points[:, 1] * self.scale])

    def dowels(self) -> list[shapely.Polygon]:
        """The dowel holes as polygons."""
        return [shapely.Point(c).buffer(self.hole / 2, quad_segs=HOLE_SEGMENTS) for c in self.holes]

    def cuts(self) -> shapely.Geometry:
        """What every layer loses: the notch and the dowel holes."""
        return shapely.union_all([self.notch, *self.dowels()])

    @cached_property
    def underside(self) -> shapely.Geometry:
        """Where text's box (its clearance included) may lie under the base: the plate less the
        key and holes, :data:`.engraving.EDGE` from the outer cut (prepared)."""
        within = shapely.buffer(self.plate.difference(self.notch), -(EDGE - CLEARANCE), join_style="mitre")
        region = within.difference(shapely.union_all(self.dowels()))
        shapely.prepare(region)
        return region

    @cached_property
    def free(self) -> shapely.Geometry:
        """Where text's box may lie on a wall sheet or the top: :attr:`underside` less ``inside``."""
        region = self.underside.difference(self.inside)
        shapely.prepare(region)
        return region


def kit_frame(tessellation: Tessellation, fab: Fabrication, *, min_wall: float, dowel: float | None) -> Frame:
    """The frame of a kit of ``tessellation`` with ``fab``'s sizes: plate, inside, key and dowel
    holes of ``dowel`` mm (None: none); raises :class:`ParameterError` (field
    ``registration_holes``) when the holes do not fit the frame with 1 mm around."""
    from laby3d.geometry.laser.walls import plan_of
    from laby3d.maze.model import Maze

    plan = plan_of(Maze(tessellation, np.ones(len(tessellation.edges), dtype=bool)), fab)
    plate = shapely.Polygon(plan.points[plan.plate])
    inside = _inside(plan)
    band = fab.margin + fab.wall_thickness
    if _has_corners(plate):
        x0, y0, x1, y1 = plate.bounds
        key = _largest(lambda leg: _corner_notch(plate, leg), inside, min_wall)
        holes = dowel_centres(x1 - x0, y1 - y0, band, dowel, _leg(key, plate)) if dowel is not None else []
    elif plate_kind(tessellation.kind) == "disc":
        key = _largest(lambda leg: _rim_notch(plate, leg), inside, min_wall)
        holes = _rim_dowels(plate, band) if dowel is not None else []
    else:  # a plate following a cut board's outline
        key = _largest(lambda leg: _top_notch(plate, leg), inside, min_wall)
        if dowel is not None:
            raise ParameterError(Message("laser_dowels_on_outline"), field="registration_holes")
        holes = []
    frame = Frame(
        tessellation=tessellation,
        fab=fab,
        min_wall=min_wall,
        plate=plate,
        inside=inside,
        notch=key,
        notch_leg=_leg(key, plate),
        holes=tuple(holes),
        hole=dowel or 0.0,
        scale=plan.scale,
        origin=plan.origin,
    )
    for centre in frame.holes:
        room = shapely.Point(centre).buffer(frame.hole / 2 + 1.0, quad_segs=HOLE_SEGMENTS)  # touching is room
        if room.difference(plate).area > 1e-9 or room.intersection(inside.union(key)).area > 1e-9:
            raise ParameterError(
                f"must fit the frame with 1 mm around: at most margin + wall_thickness - 2 = {band - 2.0:g} mm "
                f"on this {frame.shape} plate, got {dowel:g} (raise the margin)",
                field="registration_holes",
            )
    return frame


def _inside(plan: Plan) -> shapely.Polygon:
    """The region inside the outline's inner face of ``plan`` (a maze with every wall open: its
    walls are the boundary loops alone), less every hole of a board cut by an outline (a ring's
    centre, a letter's counter) with its wall: the outline is the loop of largest area, each of
    its polygons one thick ring."""
    loops = [(shapely.Polygon(plan.points[outer]), holes) for outer, *holes in plan.walls.polygons]
    outline, (hole,) = max(loops, key=lambda loop: loop[0].area)
    others = [polygon for polygon, _ in loops if polygon is not outline]
    return shapely.Polygon(plan.points[hole]).difference(shapely.union_all(others))


def _has_corners(plate: shapely.Polygon) -> bool:
    """Whether ``plate`` is its bounding box (a board), not a disc."""
    return bool(shapely.box(*plate.bounds).difference(plate).area <= 1e-9 * plate.area)


def _leg(key: shapely.Polygon, plate: shapely.Polygon) -> float:
    """The notch's leg along the plate's top edge (what it bites out of the plate), mm."""
    x0, _, x1, _ = key.intersection(plate).bounds
    return round(x1 - x0, 6)


def _largest(make, inside: shapely.Polygon, min_wall: float) -> shapely.Polygon:  # type: ignore[no-untyped-def]
    """The largest notch ``make(leg)`` (leg ≤ :data:`NOTCH`, in steps of :data:`NOTCH_STEP`)
    leaving ``min_wall`` mm to ``inside``."""
    for leg in np.arange(NOTCH, 0.0, -NOTCH_STEP):
        key = make(round(float(leg), 6))
        if key.distance(inside) >= min_wall - 1e-9:
            return key
    return make(NOTCH_STEP)


def _corner_notch(plate: shapely.Polygon, leg: float) -> shapely.Polygon:
    """A board's notch at its top-left corner, ``leg`` mm along the top edge and half as much
    down the left one, reaching 1 mm beyond the plate (a clean cut, never a sliver)."""
    x0, _, _, y1 = plate.bounds
    return shapely.Polygon([(x0 - 1.0, y1 + 1.0), (x0 + leg + 2.0, y1 + 1.0), (x0 - 1.0, y1 - leg / 2 - 0.5)])


def _rim_notch(plate: shapely.Polygon, leg: float) -> shapely.Polygon:
    """A disc's notch at 12 o'clock: straight down from the rim by half its leg, and from there
    a slanted side back to the rim ``leg`` mm to the right."""
    x0, y0, x1, y1 = plate.bounds
    centre, middle, radius = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
    deepest = y1 - leg / 2
    rim = middle + math.sqrt(radius**2 - leg**2)  # the slanted side meets the rim here
    beyond = y1 + 1.0
    reach = leg * (beyond - deepest) / (rim - deepest)
    return shapely.Polygon([(centre, deepest), (centre, beyond), (centre + reach, beyond)])  # beyond the rim


def _top_notch(plate: shapely.Polygon, leg: float) -> shapely.Polygon:
    """The notch of a plate following an outline: at its highest point (the leftmost of them),
    straight down by half its leg, and from there a slanted side up through the point ``leg``
    mm to the right at that height, reaching 1 mm beyond it (as a board's corner notch)."""
    ring = np.asarray(plate.exterior.coords)
    top = float(ring[:, 1].max())
    x = float(ring[np.abs(ring[:, 1] - top) <= 1e-9, 0].min())
    deepest, beyond = top - leg / 2, top + 1.0
    reach = leg * (beyond - deepest) / (top - deepest)
    return shapely.Polygon([(x, deepest), (x, beyond), (x + reach, beyond)])


def dowel_centres(width: float, depth: float, band: float, diameter: float, notch: float) -> list[tuple[float, float]]:
    """A board's alignment hole centres, mm: three frame corners and, moved right along the top
    band by two diameters (and 1 mm clear of the notch), the top-left one; order: bottom-left,
    bottom-right, top-right, top-left. Raises when the top band has no room for the move."""
    inset = band / 2
    clear_of_notch = notch - 2 * inset + (diameter / 2 + 1.0) * math.sqrt(5)
    moved = max(inset + 2 * diameter, clear_of_notch)
    if moved + diameter + 1.0 > width - inset:
        raise ParameterError(
            f"needs a plate at least {moved + diameter + 1.0 + inset:.1f} mm wide to key its holes (one moved along "
            f"the top band), this one is {width:g} mm: a smaller diameter or a larger maze",
            field="registration_holes",
        )
    return [(inset, inset), (width - inset, inset), (width - inset, depth - inset), (moved, depth - inset)]


def _rim_dowels(plate: shapely.Polygon, band: float) -> list[tuple[float, float]]:
    """Dowel centres on a disc: on the circle halfway across the frame band, at :data:`DISC_DOWELS`."""
    x0, y0, x1, y1 = plate.bounds
    cx, cy, radius = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2 - band / 2
    return [
        (round(cx + radius * math.cos(math.radians(a)), 9), round(cy + radius * math.sin(math.radians(a)), 9))
        for a in DISC_DOWELS
    ]
