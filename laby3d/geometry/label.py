"""The text label on the solid, polygons in mm: on the top margin, or engraved mirrored under the
base (the boxes of the marks on a plate: :mod:`laby3d.mesh.marks`).

A label is sized by its real ink box (accents above capitals, descenders, the widest glyph):
as large as its room allows, at most :data:`MAX_CAP_HEIGHT`, and only where it is legible
(capitals of at least :data:`MIN_CAP_HEIGHT`) and printable (no embossed stroke, nor floor
between engraved strokes, narrower than the nozzle; see :func:`thinnest_part`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np
import shapely

from laby3d.errors import InternalError, ParameterError
from laby3d.geometry.choices import LabelMode, LabelPosition, LabelSide
from laby3d.geometry.shapes import polygon_loops
from laby3d.geometry.text import TextShape, text_shape

#: Smallest and largest capital height of a label, mm.
MIN_CAP_HEIGHT = 3.0
MAX_CAP_HEIGHT = 10.0
#: Free floor between the ink and the edges of the margin strip, mm.
TEXT_CLEARANCE = 1.0
#: Free plate between the ink and the plate's edges under the base, mm.
BOTTOM_CLEARANCE = 3.0
#: Floor between the ink and the side of its label box, mm.
BOX_PAD = 0.5
#: A part of the ink (or of the floor between engraved strokes) narrower than the nozzle is
#: tolerated up to this area, in nozzle widths squared: stroke ends and sharp corners lose less,
#: a lost stroke (a crossbar, a thin accent) more (measured on DejaVu Sans).
THIN_AREA = 2.5
#: Coordinates of label polygons are snapped to this grid, mm.
GRID = 1e-4


@dataclass(frozen=True)
class PlacedLabel:
    """A mark's box (x0, y0, x1, y1) and its polygons (mm, y up), the polygons strictly inside the box."""

    box: tuple[float, float, float, float]
    glyphs: shapely.Geometry


@dataclass(frozen=True, kw_only=True)
class LabelPlacement:
    """Where the label went and how big it is: what the printability report shows. The glyphs
    themselves (:attr:`mark`) are drawn on first use: checking a class set's names needs only
    where each goes and how big."""

    text: str  # as drawn (normalised)
    side: LabelSide  # "margin": on the top margin; "bottom": engraved mirrored under the base
    mode: LabelMode  # engraved or embossed (always engraved on the bottom)
    font_size: float  # the font's em, mm
    cap_height: float  # height of the capitals, mm
    shape: TextShape = field(repr=False, compare=False)  # the text, em
    area: tuple[float, float, float, float] = field(repr=False, compare=False)  # where the ink is centred, mm
    plate: tuple[float, float] = field(repr=False, compare=False)  # the plate it must stay on, mm
    depth: float = 0.6  # engraving depth or embossing height, mm (set by the solid's options)
    #: What changed from what was asked (embossed turned engraved, moved under the base, shallower).
    warnings: tuple[str, ...] = ()

    @cached_property
    def mark(self) -> PlacedLabel:
        """Box and glyphs in the plan view seen from above (mirrored on the bottom), mm."""
        return _placed_glyphs(self.shape, self.font_size, self.area, mirrored=self.side == "bottom", plate=self.plate)

    def as_dict(self) -> dict[str, str | float]:
        """The placement for a JSON report (sizes in mm, rounded to 0.01 mm)."""
        return {
            "text": self.text,
            "side": self.side,
            "mode": self.mode,
            "cap_height_mm": round(self.cap_height, 2),
            "font_size_mm": round(self.font_size, 2),
            "depth_mm": round(self.depth, 2),
        }

    def describe(self) -> str:
        """One line for people, e.g. ``engraved on the margin, capitals 4.2 mm, 0.6 mm deep``."""
        from laby3d.i18n.terminal import label_placed

        return label_placed(self.side, self.mode, self.cap_height, self.depth, "en")


@dataclass(frozen=True, kw_only=True)
class LabelRoom:
    """Where a label may go on a plate, mm."""

    plate: tuple[float, float]  # plate width (x) and depth (y)
    margin: float  # width of the floor margin around the walls
    blocked: Sequence[tuple[float, float, float, float]] = ()  # boxes already taken on the margin (arrows)
    #: Whether the label under the base may reach under the margin (not where arrows are cut
    #: into the margin's top: the plate there keeps its floor whatever the label's depth).
    under_margin: bool = True


def place_label(
    text: str,
    room: LabelRoom,
    *,
    mode: LabelMode,
    position: LabelPosition,
    nozzle: float,
    checks: GlyphChecks | None = None,
) -> LabelPlacement:
    """The label as large as its room allows; with ``position`` auto on the margin when it
    holds the text (embossed as asked, else engraved), else under the base. ``checks``
    remembers printability checks across the labels of one run.

    Raises :class:`ParameterError` naming the room the text needs when it fits nowhere allowed.
    """
    if position == "bottom" and mode == "emboss":
        raise ParameterError(
            "bottom engraves the label under the base: set label_mode engrave, or label_position margin",
            field="label_position",
        )
    shape = text_shape(text)
    tries: list[tuple[LabelSide, LabelMode]] = []
    if position in ("margin", "auto"):
        tries.append(("margin", mode))
        if position == "auto" and mode == "emboss":
            tries.append(("margin", "engrave"))
    if position in ("bottom", "auto"):
        tries.append(("bottom", "engrave"))
    for side, how in tries:
        placement = _try_side(shape, room, side, how, nozzle, checks)
        if placement is None:
            continue
        if (side, how) == tries[0] or (room.margin == 0 and mode == "engrave"):
            return placement  # as asked, or under the base for want of any margin (the default)
        need = _need(shape, room, *tries[0], nozzle, checks)
        if side == "bottom":
            moved = f"the label went under the base: {need}"
        else:
            moved = f"the label is engraved, not embossed: {need}"
        return replace(placement, warnings=(moved,))
    raise _refusal(shape, room, tries, nozzle)


def _area(shape: TextShape, room: LabelRoom, side: LabelSide) -> tuple[float, float, float, float]:
    """The rectangle the ink must stay in (x0, y0, x1, y1), mm."""
    width, depth = room.plate
    if side == "margin":
        return TEXT_CLEARANCE, TEXT_CLEARANCE, width - TEXT_CLEARANCE, room.margin - TEXT_CLEARANCE
    edge = BOTTOM_CLEARANCE if room.under_margin else max(BOTTOM_CLEARANCE, room.margin)
    return edge, edge, width - edge, depth - edge


def _largest_size(shape: TextShape, area: tuple[float, float, float, float]) -> float:
    """The largest em (mm) at which the ink fits ``area``, capitals at most :data:`MAX_CAP_HEIGHT`."""
    x0, y0, x1, y1 = shape.bounds
    room_w, room_h = area[2] - area[0], area[3] - area[1]
    if room_w <= 0 or room_h <= 0:
        return 0.0
    return min(room_w / (x1 - x0), room_h / (y1 - y0), MAX_CAP_HEIGHT / shape.cap_height)


def _try_side(
    shape: TextShape, room: LabelRoom, side: LabelSide, mode: LabelMode, nozzle: float, checks: GlyphChecks | None
) -> LabelPlacement | None:
    """The label on ``side`` at its largest size, or None where it is illegible, too thin to
    print, or on a blocked part of the margin."""
    area = _area(shape, room, side)
    size = _largest_size(shape, area)
    if size * shape.cap_height < MIN_CAP_HEIGHT or not _printable(shape, size, mode, nozzle, checks):
        return None
    placement = LabelPlacement(
        text=shape.text,
        side=side,
        mode=mode,
        font_size=size,
        cap_height=size * shape.cap_height,
        shape=shape,
        area=area,
        plate=room.plate,
    )
    if side == "margin" and any(
        shapely.box(*placement.mark.box).intersects(shapely.box(*taken)) for taken in room.blocked
    ):
        return None
    return placement


def _placed_glyphs(
    shape: TextShape,
    size: float,
    area: tuple[float, float, float, float],
    *,
    mirrored: bool,
    plate: tuple[float, float],
) -> PlacedLabel:
    """The ink of ``shape`` with an em of ``size`` mm, centred on ``area``, on the grid, in its box."""
    glyphs = shapely.affinity.scale(shape.polygons, -size if mirrored else size, size, origin=(0, 0))
    gx0, gy0, gx1, gy1 = glyphs.bounds
    centre_x, centre_y = (area[0] + area[2]) / 2, (area[1] + area[3]) / 2
    glyphs = shapely.affinity.translate(glyphs, centre_x - (gx0 + gx1) / 2, centre_y - (gy0 + gy1) / 2)
    # On the grid, then without collinear points (the triangulator could make slivers of them).
    glyphs = shapely.simplify(_apart(shapely.set_precision(glyphs, GRID)), 0.0)
    gx0, gy0, gx1, gy1 = glyphs.bounds
    box = (
        round(float(np.floor((gx0 - BOX_PAD) / GRID) * GRID), 4),
        round(float(np.floor((gy0 - BOX_PAD) / GRID) * GRID), 4),
        round(float(np.ceil((gx1 + BOX_PAD) / GRID) * GRID), 4),
        round(float(np.ceil((gy1 + BOX_PAD) / GRID) * GRID), 4),
    )
    if not (shapely.box(*box).contains_properly(glyphs) and shapely.box(0, 0, *plate).contains(shapely.box(*box))):
        raise InternalError(f"label {shape.text!r}: glyphs {glyphs.bounds} outside their box {box} or the plate")
    return PlacedLabel(box, glyphs)


def _apart(glyphs: shapely.Geometry) -> shapely.Geometry:
    """``glyphs`` with pieces that touch (a cedilla under its t), or a counter touching its
    outline, joined by a closing of :data:`GRID`: a mesh needs every outline point on one
    outline only. Unchanged when nothing touches."""
    points = np.concatenate([loop for loops in polygon_loops(glyphs) for loop in loops])
    if len(np.unique(np.ascontiguousarray(points).view(np.complex128))) == len(points):  # (x, y) as one number
        return glyphs
    closed = glyphs.buffer(2 * GRID, join_style="mitre").buffer(-2 * GRID, join_style="mitre")
    return shapely.set_precision(closed, GRID)


def thinnest_part(region: shapely.Geometry, width: float) -> float:
    """Area (mm²) of the largest part of ``region`` narrower than ``width`` mm: what a disc of
    diameter ``width`` rolled inside the region cannot reach (outlines simplified to within
    ``width`` / 20 first, from each ring's canonical start, so the result does not depend on
    where a ring happens to start). A piece the disc does not fit in at all counts as infinitely
    large."""
    region = shapely.simplify(shapely.normalize(region), width / 20)
    inner = region.buffer(-width / 2, quad_segs=4)
    pieces = getattr(region, "geoms", [region])
    if any(not piece.intersects(inner) for piece in pieces):
        return float("inf")
    lost = region.difference(inner.buffer(width / 2, quad_segs=4))
    return max((part.area for part in getattr(lost, "geoms", [lost])), default=0.0)


class GlyphChecks:
    """What the printability check found for each group of glyphs at each size, for one run over
    many labels (a class set's names): the same letters at the same few sizes come back name
    after name. Create one per run and pass it down (:func:`place_label`); a result depends only
    on the glyphs, their spacing, the size and the nozzle, never on the label it came from.
    Without one, the process's own remembers (:data:`PROCESS_CHECKS`): a job's check, its solid
    and its plate's marks place the same label, and the class server places a pupil's name
    again at every change of the design. ``most``: results kept before starting afresh."""

    def __init__(self, most: int | None = None) -> None:
        self._found: dict[tuple, bool] = {}
        self._most = most

    def group_printable(self, shape: TextShape, group: list[int], width: float, mode: LabelMode) -> bool:
        """:func:`group_printable` of the glyphs ``group`` of ``shape``, remembered by the glyphs,
        their spacing, ``width`` and ``mode``."""
        start = shape.layout[group[0]][1]
        glyphs = tuple((shape.layout[i][0], round(shape.layout[i][1] - start, 9)) for i in group)
        key = (glyphs, width, mode)
        if key not in self._found:
            if self._most is not None and len(self._found) >= self._most:
                self._found.clear()
            self._found[key] = group_printable(_group_ink(shape, group), width, mode)
        return self._found[key]


#: The printability checks a process remembers for labels placed without a run's own
#: :class:`GlyphChecks` (a few MB at most).
PROCESS_CHECKS = GlyphChecks(most=50_000)


def _printable(
    shape: TextShape, size: float, mode: LabelMode, nozzle: float, checks: GlyphChecks | None = None
) -> bool:
    """With the text's em at ``size`` mm: embossed, no stroke narrower than the nozzle;
    engraved, no floor between strokes narrower than the nozzle and no groove narrower than
    half of it (engraved strokes of 0.3 mm print with a 0.4 mm nozzle, MEASUREMENTS.md);
    each beyond :data:`THIN_AREA`.

    Glyphs farther apart than a nozzle width are checked apart (:func:`glyph_groups`): a thin
    part, of ink or of floor, lies where ink comes within a nozzle width of itself, so it never
    spans two groups, and the largest is the largest of any group. A group is checked once per size
    and nozzle, in ``checks`` or the process's own."""
    width = nozzle / size  # in em
    for group in glyph_groups(shape.glyphs, width):
        if not (checks or PROCESS_CHECKS).group_printable(shape, group, width, mode):
            return False
    return True


def _group_ink(shape: TextShape, group: list[int]) -> shapely.Geometry:
    return shapely.union_all([shape.glyphs[i] for i in group])


def glyph_groups(inks: Sequence[shapely.Geometry], width: float) -> list[list[int]]:
    """The glyphs (indices into ``inks``) in groups: two glyphs whose ink comes within
    ``width`` of each other are in one group, in text order."""
    parent = list(range(len(inks)))

    def root(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    boxes = [ink.bounds for ink in inks]
    for a in range(len(inks)):
        for b in range(a + 1, len(inks)):
            (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = boxes[a], boxes[b]
            near = bx0 - ax1 <= width and ax0 - bx1 <= width and by0 - ay1 <= width and ay0 - by1 <= width
            if near and inks[a].distance(inks[b]) <= width:
                parent[root(b)] = root(a)
    groups: dict[int, list[int]] = {}
    for index in range(len(inks)):
        groups.setdefault(root(index), []).append(index)
    return list(groups.values())


def group_printable(ink: shapely.Geometry, width: float, mode: LabelMode) -> bool:
    """The printability check of some ink (em; ``width``: the nozzle, em): embossed, the ink's
    thin parts; engraved, the ink's at half the width and the floor's around it (a band of two
    widths around the ink, wide enough never to count itself)."""
    if mode == "emboss":
        return thinnest_part(ink, width) <= THIN_AREA * width**2
    x0, y0, x1, y1 = ink.bounds
    band = 2 * width
    floor = shapely.box(x0 - band, y0 - band, x1 + band, y1 + band).difference(ink)
    return (
        thinnest_part(ink, width / 2) <= THIN_AREA * (width / 2) ** 2
        and thinnest_part(floor, width) <= THIN_AREA * width**2
    )


def smallest_printable_size(
    shape: TextShape, mode: LabelMode, nozzle: float, checks: GlyphChecks | None = None
) -> float:
    """The smallest em (mm, to 1 %) at which the text is legible and printable with ``nozzle``."""
    low = MIN_CAP_HEIGHT / shape.cap_height
    if _printable(shape, low, mode, nozzle, checks):
        return low
    high = low * 2
    while not _printable(shape, high, mode, nozzle, checks):
        low, high = high, high * 2
    while high > low * 1.01:
        middle = (low + high) / 2
        low, high = (low, middle) if _printable(shape, middle, mode, nozzle, checks) else (middle, high)
    return high


def _need(
    shape: TextShape, room: LabelRoom, side: LabelSide, mode: LabelMode, nozzle: float, checks: GlyphChecks | None
) -> str:
    """What the label needs to go on ``side`` as ``mode``: capitals, a margin or a plate, mm."""
    x0, y0, x1, y1 = shape.bounds
    done = {"engrave": "engraved", "emboss": "embossed"}[mode]
    size = smallest_printable_size(shape, mode, nozzle, checks)
    cap = size * shape.cap_height
    width, height = size * (x1 - x0), size * (y1 - y0)
    if cap > MAX_CAP_HEIGHT:
        return f"{done} it needs capitals of {cap:.1f} mm for a {nozzle:g} mm nozzle (at most {MAX_CAP_HEIGHT:g})"
    if side == "margin":
        return (
            f"{done} on the margin it needs margin >= {height + 2 * TEXT_CLEARANCE:.1f} mm "
            f"and a plate >= {width + 2 * TEXT_CLEARANCE:.1f} mm wide"
            + (" clear of the arrows" if room.blocked else "")
        )
    edge = BOTTOM_CLEARANCE if room.under_margin else max(BOTTOM_CLEARANCE, room.margin)
    return f"under the base it needs a plate >= {width + 2 * edge:.1f} × {height + 2 * edge:.1f} mm"


def _refusal(
    shape: TextShape, room: LabelRoom, tries: list[tuple[LabelSide, LabelMode]], nozzle: float
) -> ParameterError:
    """Why the label fits nowhere it may go, with the room each place would need."""
    needs = list(dict.fromkeys(_need(shape, room, side, mode, nozzle, None) for side, mode in tries))
    plate = f"{room.plate[0]:g} × {room.plate[1]:g} mm plate, margin {room.margin:g} mm"
    return ParameterError(
        f'"{shape.text}" does not fit the {plate}: {"; ".join(needs)}; shorten it or enlarge the maze',
        field="label",
    )
