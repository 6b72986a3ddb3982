"""The plate of a theta, hex or triangle ball kit and what it engraves where, mm, y up (squares:
:mod:`.engraving`, whose rules this follows).

Everything here depends on the maze's shape, size and sizes alone, never on its walls, so
:meth:`.LaserOptions.check` finds the same key and text before any maze exists. The plate is the
shaped footprint's (:func:`laby3d.geometry.shaped_footprint.shaped_plan`: a disc for theta, the
walls' bounding rectangle for hex and triangle boards, with the margin); ``inside`` is the region
within the outline's inner face, where a wall sheet may have corridors. Text and holes keep to
the frame: the plate less ``inside``.

Steps: (1) the key, cut from every layer: at the top-left corner of a board the notch of a
square kit (a right triangle, legs along the top edge and half as much down the side), on a
disc the same notch at 12 o'clock (a steep side down the vertical, a slanted one to the right);
as large as :data:`.engraving.NOTCH` allows while leaving the material's wall minimum to
``inside``; (2) dowel holes (optional): a board's as a square kit's, a disc's three at 120°,
210° and 330° (unequal gaps: they line up only one way round); (3) layer numbers beside the
key, the label or a pupil's tag along the bottom of the frame, found as the largest capitals
(≤ the height asked, ≥ :data:`.engraving.MIN_CAP_HEIGHT`) whose box, clearance included, lies in
the frame clear of the key and the holes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Literal

import numpy as np
import shapely

from laby3d.errors import ParameterError
from laby3d.geometry.laser.engraving import (
    CLEARANCE,
    MIN_CAP_HEIGHT,
    NOTCH,
    NUMBER_HEIGHT,
    TAG_HEIGHT,
    UNDERSIDE,
    Engraving,
    Text,
    caption,
    dowel_centres,
    notch,
)
from laby3d.geometry.text import text_outlines

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.geometry.shaped_footprint import ShapedPlan

#: Steps of the search for text: capital heights, and positions across and along the frame, mm.
CAP_STEP = 0.1
POSITION_STEP = 0.2
#: How far text is looked for from the plate's edge it sits along (and, at the top, from the key), mm.
REACH = 40.0
#: Rows of positions tried in one vectorised call, from the edge inwards.
ROWS_AT_ONCE = 8
#: The largest margin a refusal looks for, mm.
MOST_MARGIN = 30.0
#: Angles of a disc's dowel holes, degrees anticlockwise from 3 o'clock (gaps 90°, 120°, 150°).
DISC_DOWELS = (120.0, 210.0, 330.0)
#: The quad segments of a round hole (as a square kit's).
HOLE_SEGMENTS = 16

Where = Literal["bottom", "top", "centre"]


@dataclass(frozen=True, kw_only=True)
class ShapedFrame:
    """A shaped kit's plate and frame, mm (y up): the ``plate``, the region ``inside`` the
    outline's inner face, the ``notch`` cut from every layer (its leg ``notch_leg``), the dowel
    ``holes`` (centres) of ``hole`` mm (the notch polygon reaches beyond the plate: what it cuts
    is its intersection), and ``plan``, the footprint of the maze with every wall
    open (the map from the tessellation to these mm)."""

    shape: str
    plate: shapely.Polygon
    inside: shapely.Polygon
    notch: shapely.Polygon
    notch_leg: float
    holes: tuple[tuple[float, float], ...]
    hole: float
    band: float  # margin + wall: the frame's nominal width
    wall: float
    plan: ShapedPlan
    #: what it was built from (:func:`shaped_frame`), to try another margin
    rows: int
    cols: int | None
    fab: Fabrication
    min_wall: float
    #: text already placed, by (text, where, height)
    fits: dict[tuple[str, str, float], Text | None] = field(default_factory=dict, repr=False)

    @property
    def size(self) -> tuple[float, float]:
        """Width and depth of the plate's box, mm."""
        x0, y0, x1, y1 = self.plate.bounds
        return x1 - x0, y1 - y0

    def dowels(self) -> list[shapely.Polygon]:
        """The dowel holes as polygons."""
        return [shapely.Point(c).buffer(self.hole / 2, quad_segs=HOLE_SEGMENTS) for c in self.holes]

    def cuts(self) -> shapely.Geometry:
        """What every layer loses: the notch and the dowel holes."""
        return shapely.union_all([self.notch, *self.dowels()])

    @cached_property
    def free(self) -> shapely.Geometry:
        """Where text may go on a wall sheet or the top: the frame less the key and holes."""
        free = self.plate.difference(self.inside).difference(self.cuts())
        shapely.prepare(free)
        return free

    @cached_property
    def underside(self) -> shapely.Geometry:
        """Where text may go under the base: the plate less the key and holes."""
        free = self.plate.difference(self.cuts())
        shapely.prepare(free)
        return free


def shaped_frame(
    shape: str, rows: int, cols: int | None, fab: Fabrication, *, min_wall: float, dowel: float | None
) -> ShapedFrame:
    """The frame of a ``shape`` kit of ``rows`` × ``cols`` (cols None for theta): plate, inside,
    key and dowel holes of ``dowel`` mm (None: none); raises :class:`ParameterError` (field
    ``registration_holes``) when the holes do not fit the frame with 1 mm around."""
    from laby3d.geometry.shaped_footprint import shaped_plan
    from laby3d.maze.model import Maze
    from laby3d.tessellation import tessellate

    tessellation = tessellate(shape, rows, cols)
    empty = Maze(tessellation, np.ones(len(tessellation.edges), dtype=bool))
    plan = shaped_plan(empty, fab)
    plate = shapely.Polygon(plan.points[plan.plate])
    ((_, hole),) = plan.walls.polygons  # the outline alone: one ring and the hole within
    inside = shapely.Polygon(plan.points[hole])
    band = fab.margin + fab.wall_thickness
    x0, y0, x1, y1 = plate.bounds
    if shape == "theta":
        key = _disc_notch(plate, inside, min_wall)
        holes = _disc_dowels(plate, band) if dowel is not None else []
    else:
        key = _corner_notch(plate, inside, min_wall)
        holes = dowel_centres(x1 - x0, y1 - y0, band, dowel, _leg(key, plate)) if dowel is not None else []
    frame = ShapedFrame(
        shape=shape,
        plate=plate,
        inside=inside,
        notch=key,
        notch_leg=_leg(key, plate),
        holes=tuple(holes),
        hole=dowel or 0.0,
        band=band,
        wall=fab.wall_thickness,
        plan=plan,
        rows=rows,
        cols=cols,
        fab=fab,
        min_wall=min_wall,
    )
    for centre in frame.holes:
        room = shapely.Point(centre).buffer(frame.hole / 2 + 1.0, quad_segs=HOLE_SEGMENTS)
        if not plate.contains(room) or room.intersects(inside) or room.intersects(key):
            raise ParameterError(
                f"must fit the frame with 1 mm around: at most margin + wall_thickness - 2 = {band - 2.0:g} mm "
                f"on this {shape} plate, got {dowel:g} (raise the margin)",
                field="registration_holes",
            )
    return frame


def _leg(key: shapely.Polygon, plate: shapely.Polygon) -> float:
    """The notch's leg along the plate's top edge (what it bites out of the plate), mm."""
    x0, _, x1, _ = key.intersection(plate).bounds
    return round(x1 - x0, 6)


def _largest(make, inside: shapely.Polygon, min_wall: float) -> shapely.Polygon:  # type: ignore[no-untyped-def]
    """The largest notch ``make(leg)`` (leg ≤ :data:`NOTCH`, in steps of 0.05 mm) leaving
    ``min_wall`` mm to ``inside``."""
    for leg in np.arange(NOTCH, 0.0, -0.05):
        key = make(round(float(leg), 6))
        if key.distance(inside) >= min_wall - 1e-9:
            return key
    return make(0.05)


def _corner_notch(plate: shapely.Polygon, inside: shapely.Polygon, min_wall: float) -> shapely.Polygon:
    """A board's notch at its top-left corner (as a square kit's)."""
    x0, y0, x1, y1 = plate.bounds

    def make(leg: float) -> shapely.Polygon:  # reaching 1 mm beyond the plate: a clean cut, never a sliver
        (left, top), (right, _), (_, low) = notch(x1 - x0, y1 - y0, leg)
        left, top, right, low = left + x0, top + y0, right + x0, low + y0
        return shapely.Polygon([(left - 1.0, top + 1.0), (right + 2.0, top + 1.0), (left - 1.0, low - 0.5)])

    return _largest(make, inside, min_wall)


def _disc_notch(plate: shapely.Polygon, inside: shapely.Polygon, min_wall: float) -> shapely.Polygon:
    """A disc's notch at 12 o'clock: straight down from the rim by half its leg, and from there
    a slanted side back to the rim ``leg`` mm to the right."""
    x0, y0, x1, y1 = plate.bounds
    centre, middle, radius = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2

    def make(leg: float) -> shapely.Polygon:
        deepest = y1 - leg / 2
        rim = middle + math.sqrt(radius**2 - leg**2)  # the slanted side meets the rim here
        beyond = y1 + 1.0
        reach = leg * (beyond - deepest) / (rim - deepest)
        return shapely.Polygon([(centre, deepest), (centre, beyond), (centre + reach, beyond)])  # beyond the rim

    return _largest(make, inside, min_wall)


def _disc_dowels(plate: shapely.Polygon, band: float) -> list[tuple[float, float]]:
    """Dowel centres on a disc: on the circle halfway across the frame band, at :data:`DISC_DOWELS`."""
    x0, y0, x1, y1 = plate.bounds
    cx, cy, radius = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2 - band / 2
    return [
        (round(cx + radius * math.cos(math.radians(a)), 9), round(cy + radius * math.sin(math.radians(a)), 9))
        for a in DISC_DOWELS
    ]


def _ink(text: str) -> tuple[list[np.ndarray], float, float]:
    """``text``'s rings with capitals 1 mm tall, and its ink width and height."""
    unit = text_outlines(text, 1.0)
    return unit, max(float(r[:, 0].max()) for r in unit), max(float(r[:, 1].max()) for r in unit)


def fit(
    text: str, region: shapely.Geometry, box: tuple[float, float, float, float], height: float, where: Where
) -> Text | None:
    """``text`` with the largest capitals (≤ ``height``, ≥ :data:`MIN_CAP_HEIGHT`, in steps of
    :data:`CAP_STEP`) whose box, :data:`CLEARANCE` included, lies in ``region`` (prepared):
    ``bottom`` centred across ``box`` (x0, y0, x1, y1) as low as it goes, ``top`` as high and
    then as far left as it goes, ``centre`` at its middle. None when nothing fits. Capitals are
    found by bisection (what fits smaller text is taken to fit larger text less often)."""
    unit, ink_w, ink_h = _ink(text)
    caps = np.round(np.arange(MIN_CAP_HEIGHT, height + 1e-9, CAP_STEP), 6)
    if not len(caps):
        return None
    placed = _place(text, unit, ink_w, ink_h, float(caps[-1]), region, box, where)
    if placed is not None:
        return placed
    low, high = -1, len(caps) - 1  # caps[high] does not fit; caps[low] fits (-1: not known)
    best = None
    while high - low > 1:
        middle = (low + high) // 2 if low >= 0 else 0
        found = _place(text, unit, ink_w, ink_h, float(caps[middle]), region, box, where)
        if found is None:
            if middle == 0:
                return None
            high = middle
        else:
            low, best = middle, found
    return best


def _place(
    text: str,
    unit: list[np.ndarray],
    ink_w: float,
    ink_h: float,
    cap: float,
    region: shapely.Geometry,
    box: tuple[float, float, float, float],
    where: Where,
) -> Text | None:
    """``text`` (its ink ``unit``) at capitals ``cap`` placed as :func:`fit` says, or None."""
    x0, y0, x1, y1 = box
    width, tall = ink_w * cap + 2 * CLEARANCE, ink_h * cap + 2 * CLEARANCE
    if width > x1 - x0 or tall > y1 - y0:
        return None
    reach = min((y1 - y0) / 2, REACH)
    if where == "centre":
        lefts, bottoms = np.array([(x0 + x1 - width) / 2]), np.array([(y0 + y1 - tall) / 2])
    elif where == "bottom":
        lefts = np.array([(x0 + x1 - width) / 2])
        bottoms = y0 + np.arange(0.0, max(reach - tall, 0.0) + 1e-9, POSITION_STEP)
    else:
        lefts = x0 + np.arange(0.0, min(x1 - x0 - width, REACH) + 1e-9, POSITION_STEP)
        bottoms = y1 - tall - np.arange(0.0, max(reach - tall, 0.0) + 1e-9, POSITION_STEP)
    for start in range(0, len(bottoms), ROWS_AT_ONCE):  # nearest the edge first: most text fits there
        ys, xs = (grid.ravel() for grid in np.meshgrid(bottoms[start : start + ROWS_AT_ONCE], lefts, indexing="ij"))
        inside = np.flatnonzero(shapely.contains(region, shapely.box(xs, ys, xs + width, ys + tall)))
        if len(inside):
            origin = (float(xs[inside[0]]) + CLEARANCE, float(ys[inside[0]]) + CLEARANCE)
            return Text(text=text, rings=[ring * cap + origin for ring in unit], cap_height=cap)
    return None


def placed(frame: ShapedFrame, text: str, where: Where, height: float) -> Text | None:
    """``text`` placed on ``frame`` (:func:`fit`): ``bottom`` along the frame's bottom, ``top``
    right of the key (layer numbers), ``centre`` under the base; remembered on the frame."""
    key = (text, where, height)
    if key not in frame.fits:
        box = frame.plate.bounds
        if where == "top":
            right = frame.notch.bounds[2] + (frame.hole if frame.holes and frame.shape != "theta" else 0.0)
            box = (max(right, box[0]), box[1], box[2], box[3])
        region = frame.underside if where == "centre" else frame.free
        frame.fits[key] = fit(text, region, box, height, where)
    return frame.fits[key]


def shaped_plan_text(
    frame: ShapedFrame, parts: list[str], *, label: str | None, seed: int | None, tag: str | None, label_height: float
) -> Engraving:
    """The text of a shaped kit whose parts are ``parts`` (bottom up): layer numbers, and the
    ``label`` (captioned with the ``seed``) or the ``tag`` on every part, as :func:`.engraving.plan`
    places them on a square kit. Raises :class:`ParameterError` (field ``label`` or ``tag``)
    for text that cannot be legible."""
    result = Engraving(texts={name: [] for name in parts})
    widest = str(len(parts))
    if placed(frame, widest, "top", NUMBER_HEIGHT) is None:
        margin = working_margin(frame, widest, "top", NUMBER_HEIGHT)
        result.warnings.append(
            f"layer numbers left off: the {frame.band:g} mm frame of this {frame.shape} plate holds no "
            f"{MIN_CAP_HEIGHT:g} mm digits{_margin_hint(margin)}; the notch still keys which way each layer goes"
        )
    else:
        result.numbers = True
        for index, name in enumerate(parts, start=1):
            number = placed(frame, str(index), "top", NUMBER_HEIGHT)
            if number is not None:
                result.texts[name].append(number)
    if tag is not None:
        text = placed(frame, tag, "bottom", TAG_HEIGHT)
        if text is None:
            raise _too_small(tag, frame, "a name tag", TAG_HEIGHT, field="tag")
        for name in parts:
            result.texts[name].append(text)
    elif label is not None:
        _label(frame, parts, label, seed, label_height, result)
    return result


def _label(frame: ShapedFrame, parts: list[str], text: str, seed: int | None, height: float, result: Engraving) -> None:
    """The caption along the bottom of the top's frame (else the uppermost wall sheet's), else
    mirrored under the base; where neither holds it, the text without its seed, likewise."""
    full = caption(text, seed)
    for label in dict.fromkeys([full, text or "laby3d"]):
        if label != full:
            result.warnings.append(f'seed left off the label "{full}": it is not legible anywhere on the plate')
        shown = parts[-1]
        on_frame = placed(frame, label, "bottom", height)
        if on_frame is not None:
            result.texts[shown].append(on_frame)
            result.label_on = shown
            return
        under = placed(frame, label, "centre", height)
        if under is not None:
            x0, _, x1, _ = frame.plate.bounds
            mirrored = [np.column_stack([x0 + x1 - ring[:, 0], ring[:, 1]])[::-1] for ring in under.rings]
            result.texts["base"].append(Text(text=label, rings=mirrored, cap_height=under.cap_height, mirrored=True))
            result.label_on = UNDERSIDE
            margin = working_margin(frame, label, "bottom", height)
            result.warnings.append(
                f"label moved under the base (mirrored): the frame of this {frame.shape} plate holds no "
                f"{MIN_CAP_HEIGHT:g} mm capitals of it on the {shown}{_margin_hint(margin)}"
            )
            return
    raise _too_small(text, frame, "the label", height, field="label")


def working_margin(frame: ShapedFrame, text: str, where: Where, height: float) -> float | None:
    """The least margin (mm, in 0.5 mm steps, up to :data:`MOST_MARGIN`) whose frame holds
    ``text`` where asked, built and tried; None when none does."""
    if frame.fab.base_thickness == 0:  # no margin without a base
        return None
    for halves in range(math.ceil(2 * frame.fab.margin) + 1, int(2 * MOST_MARGIN) + 1):
        fab = replace(frame.fab, margin=halves / 2)
        wider = shaped_frame(
            frame.shape, frame.rows, frame.cols, fab, min_wall=frame.min_wall, dowel=frame.hole or None
        )
        if placed(wider, text, where, height) is not None:
            return halves / 2
    return None


def _margin_hint(margin: float | None) -> str:
    return f" (a margin of {margin:g} mm does)" if margin is not None else ""


def _too_small(text: str, frame: ShapedFrame, what: str, height: float, *, field: str) -> ParameterError:
    margin = working_margin(frame, text, "bottom", height)
    if margin is None:
        return ParameterError(
            f'"{text}": {what} has no room for {MIN_CAP_HEIGHT:g} mm capitals on this {frame.size[0]:.0f} mm '
            f"{frame.shape} plate, even with a {MOST_MARGIN:g} mm margin: a shorter text or a larger maze",
            field=field,
        )
    return ParameterError(
        f'"{text}": {what} needs a frame band that holds {MIN_CAP_HEIGHT:g} mm capitals; this {frame.shape} '
        f"plate's is {frame.band:g} mm (margin + wall_thickness): a margin of at least {margin:g} mm",
        field=field,
    )
