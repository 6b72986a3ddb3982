"""Parts onto material sheets: MaxRects nesting with quarter turns, one page per sheet, mm.

Steps: group the parts by material (in the order materials first appear); pack each group's
boxes with :func:`laby3d.geometry.packing.pack` (every part grown by ``spacing``, the sheet shrunk to keep
:data:`EDGE` mm from its edge, in whole µm), or sheet by sheet
(:func:`laby3d.geometry.packing.pack_in_turn`) where that takes fewer sheets (boxes of many sizes:
a class's kits of several maze sizes), or, for equal discs (theta kits), in staggered rows
(:func:`laby3d.geometry.packing.staggered_rows`) unless the boxes take fewer sheets; report the sheets
used against the area bound (of the boxes, or of the discs) and, for boxes, the line bound
(:func:`laby3d.geometry.packing.line_bound`), which no packing beats either.
Pages are y down; parts keep ``spacing`` between them and from the sheet's edge (at least
:data:`EDGE` mm).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from laby3d.errors import ParameterError
from laby3d.geometry.laser.drawing import Drawing
from laby3d.geometry.laser.options import Material
from laby3d.geometry.laser.parts import Part
from laby3d.geometry.packing import area_bound, line_bound, pack, pack_in_turn, staggered_rows

#: Least distance between a part and the sheet's edge, mm.
EDGE = 2.0
#: Packing unit: sizes in whole µm, parts rounded up and sheets down.
UNIT = 1000.0


@dataclass(frozen=True, kw_only=True)
class Placement:
    """Where a part lies on its sheet: top-left corner (x, y) of its box, mm, and a quarter turn."""

    part: Part
    sheet: int
    x: float
    y: float
    turned: bool

    def to_page(self, points: np.ndarray) -> np.ndarray:
        """Part points (y up) → page points (y down), mm. The turn is a clockwise quarter turn
        (a rotation, never a mirror: text stays readable)."""
        x0, y0, x1, y1 = self.part.box
        if self.turned:
            return np.column_stack([points[:, 1] - y0 + self.x, points[:, 0] - x0 + self.y])
        return np.column_stack([points[:, 0] - x0 + self.x, y1 - points[:, 1] + self.y])


@dataclass(frozen=True, kw_only=True)
class Nesting:
    """Every part's placement and, per material, the sheets used against the area bound."""

    placements: list[Placement]
    materials: list[dict[str, Any]]

    @property
    def sheets(self) -> int:
        """Sheets used, every material."""
        return max((p.sheet for p in self.placements), default=-1) + 1


def nest(parts: list[Part], sheet: tuple[float, float], spacing: float) -> Nesting:
    """Placements of every part on sheets of ``sheet`` (W, H) mm, sheets numbered per material
    in the order materials first appear; raises :class:`ParameterError` for a part too large."""
    width, height = sheet
    edge = max(spacing, EDGE)
    room = (_units(width - 2 * edge + spacing, down=True), _units(height - 2 * edge + spacing, down=True))
    placements: list[Placement] = []
    report = []
    first = 0
    for material in dict.fromkeys(part.material for part in parts):
        own = [part for part in parts if part.material == material]
        sizes = [(_units(part.size[0] + spacing), _units(part.size[1] + spacing)) for part in own]
        for part in own:
            check_sheet(part.name, part.size, sheet, spacing)
        spots = pack(sizes, room)
        bound = area_bound(sizes, room)
        if _sheets(spots) > bound:  # sheet by sheet, where that saves one
            in_turn = pack_in_turn(sizes, room)
            if _sheets(in_turn) < _sheets(spots):
                spots = in_turn
        round_parts = _discs(own, sizes)
        if round_parts:  # equal discs: staggered rows unless their boxes take fewer sheets
            rows = staggered_rows(len(own), max(max(size) for size in sizes), room)
            if rows[-1][0] <= max(spot[0] for spot in spots):
                spots = rows
        for part, (index, x, y, turned) in zip(own, spots, strict=True):
            placements.append(
                Placement(part=part, sheet=first + index, x=edge + x / UNIT, y=edge + y / UNIT, turned=turned)
            )
        used = _sheets(spots)
        boxes = sum(part.size[0] * part.size[1] for part in own)
        if round_parts:  # discs can pack closer than their boxes: the bound of their own area
            discs = sum(math.pi / 4 * w * h for w, h in sizes)
            bound = math.ceil(discs / (room[0] * room[1]) - 1e-9)
        entry: dict[str, Any] = {
            "material": material.key,
            "parts": len(own),
            "sheets": used,
            "area_bound_sheets": bound,
        }
        if not round_parts:
            entry["line_bound_sheets"] = line_bound(sizes, room)
        entry["waste_percent"] = round(100 * (1 - boxes / (used * width * height)), 1)
        if round_parts:  # what is left over around the discs themselves
            outlines = sum(_outline_area(part) for part in own)
            entry["outline_waste_percent"] = round(100 * (1 - outlines / (used * width * height)), 1)
        report.append(entry)
        first += used
    return Nesting(placements=placements, materials=report)


def _sheets(spots: list[tuple[int, int, int, bool]]) -> int:
    """Sheets used by ``spots``."""
    return max(spot[0] for spot in spots) + 1


def _discs(parts: list[Part], sizes: list[tuple[int, int]]) -> bool:
    """Whether ``parts`` are equal discs (a class set of theta kits): square boxes of one size
    (``sizes``, packing units; a notch may shave the box by a few µm: within 0.1 %) whose
    outlines fill π/4 of them, within 2 %."""
    sides = [side for size in sizes for side in size]
    if max(sides) > 1.001 * min(sides):
        return False
    return all(abs(_outline_area(part) / (part.size[0] * part.size[1]) - math.pi / 4) < 0.02 for part in parts)


def _outline_area(part: Part) -> float:
    """The area inside a part's outer cut (its holes counted in), or its box's, mm²."""
    if part.shape is None:
        return part.size[0] * part.size[1]
    return float(sum(shapely.area(shapely.Polygon(p.exterior)) for p in shapely.get_parts(part.shape)))


def check_sheet(name: str, size: tuple[float, float], sheet: tuple[float, float], spacing: float) -> None:
    """Raise :class:`ParameterError` (field ``sheet``) unless a ``size`` (w, h) mm part fits
    ``sheet``, turned or not, :data:`EDGE` (or ``spacing``) mm from its edge."""
    edge = max(spacing, EDGE)
    w, h = size
    room = (sheet[0] - 2 * edge + 1e-6, sheet[1] - 2 * edge + 1e-6)
    if not ((w <= room[0] and h <= room[1]) or (h <= room[0] and w <= room[1])):
        raise ParameterError(
            f"{sheet[0]:g}×{sheet[1]:g} mm is too small for the {name} part ({w:.1f}×{h:.1f} mm, turned or not, "
            f"plus {edge:g} mm from the edge)",
            field="sheet",
        )


def _units(mm: float, *, down: bool = False) -> int:
    """``mm`` in whole packing units, rounded up (a part) or down (a sheet)."""
    value = mm * UNIT
    return math.floor(value + 1e-6) if down else math.ceil(value - 1e-6)


def pages(placements: list[Placement], sheet: tuple[float, float], *, shared_edges: bool = False) -> list[Drawing]:
    """One page per sheet: parts' holes as inner cuts, outlines as outer cuts, marks as they are;
    with ``shared_edges`` (parts touching at spacing 0) a stretch two outlines share is cut once."""
    count = max(p.sheet for p in placements) + 1 if placements else 0
    drawings = [Drawing(width=sheet[0], height=sheet[1]) for _ in range(count)]
    materials: list[Material | None] = [None] * count
    names: list[list[str]] = [[] for _ in range(count)]
    for placement in placements:
        page = drawings[placement.sheet]
        materials[placement.sheet] = placement.part.material
        names[placement.sheet].append(placement.part.name)
        for points, hole in placement.part.cut_rings():
            page.add("inner-cut" if hole else "outer-cut", placement.to_page(points), True)
        for mark in placement.part.marks:
            page.add(mark.operation, placement.to_page(mark.points), mark.closed)
    for index, page in enumerate(drawings):
        if shared_edges:  # outlines only: a line drawing cut (lines mode) keeps its open strokes
            cuts = list(zip(page.strokes["outer-cut"], page.closed["outer-cut"], strict=True))
            rings, closed = common_lines([points for points, ring in cuts if ring])
            page.strokes["outer-cut"] = [points for points, ring in cuts if not ring] + rings
            page.closed["outer-cut"] = [False] * sum(not ring for _, ring in cuts) + closed
        page.material = materials[index]
        page.sheets = [(0.0, 0.0, sheet[0], sheet[1])]
        page.titles = [", ".join(dict.fromkeys(names[index]))]
    return drawings


def common_lines(rings: list[np.ndarray]) -> tuple[list[np.ndarray], list[bool]]:
    """Outer outlines (closed rings, mm) as strokes cutting each stretch of line once: rings that
    overlap another along an axis-aligned stretch become their merged straight runs (and their
    slanted edges), the others stay closed rings. Returns (strokes, closed flags)."""
    runs: dict[tuple[int, float], list[tuple[float, float, int]]] = {}  # snapped to 1e-6 mm: runs meet exactly
    for k, ring in enumerate(rings):
        for a, b in zip(ring, np.roll(ring, -1, axis=0), strict=True):
            if abs(a[1] - b[1]) < 1e-9:  # horizontal: key (0, y)
                low, high = sorted((round(float(a[0]), 6), round(float(b[0]), 6)))
                runs.setdefault((0, round(float(a[1]), 6)), []).append((low, high, k))
            elif abs(a[0] - b[0]) < 1e-9:  # vertical: key (1, x)
                low, high = sorted((round(float(a[1]), 6), round(float(b[1]), 6)))
                runs.setdefault((1, round(float(a[0]), 6)), []).append((low, high, k))
    groups: list[tuple[int, float, float, float, set[int]]] = []  # axis, at, low, high, owners
    for (axis, at), spans in runs.items():
        spans.sort()
        current: list = []
        for start, end, owner in spans:
            if current and start < current[1] - 1e-9:  # overlaps the run so far
                current[1] = max(current[1], end)
                current[2].add(owner)
            else:
                if current:
                    groups.append((axis, at, current[0], current[1], current[2]))
                current = [start, end, {owner}]
        groups.append((axis, at, current[0], current[1], current[2]))
    sharing = set().union(*(owners for *_, owners in groups if len(owners) > 1))
    strokes = [ring for k, ring in enumerate(rings) if k not in sharing]
    closed = [True] * len(strokes)
    for axis, at, low, high, owners in groups:
        if owners <= sharing:
            strokes.append(np.array([[low, at], [high, at]]) if axis == 0 else np.array([[at, low], [at, high]]))
            closed.append(False)
    for k in sorted(sharing):  # slanted edges of the split rings, snapped as the runs are (ends meet)
        ring = np.round(rings[k], 6)
        for a, b in zip(ring, np.roll(ring, -1, axis=0), strict=True):
            if abs(a[0] - b[0]) > 1e-9 and abs(a[1] - b[1]) > 1e-9:
                strokes.append(np.array([a, b]))
                closed.append(False)
    return strokes, closed
