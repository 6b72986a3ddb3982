"""Parts onto material sheets: shelf nesting with quarter turns, one page per sheet, mm.

Steps: group the parts by material; take them largest first; put each on the first shelf
(of any open sheet) where it fits in either orientation, else open a shelf below, else a new
sheet. Pages are y down, parts keep ``spacing`` between them and from the sheet's edge (at
least :data:`EDGE` mm from the edge).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from laby3d.errors import ParameterError
from laby3d.geometry.laser.drawing import Drawing
from laby3d.geometry.laser.options import Material
from laby3d.geometry.laser.parts import Part

#: Least distance between a part and the sheet's edge, mm.
EDGE = 2.0


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


@dataclass(kw_only=True)
class _Shelf:
    y: float
    height: float
    x: float  # next free x


@dataclass(kw_only=True)
class _Sheet:
    edge: float  # distance kept from the sheet's edge
    bottom: float  # next free y
    shelves: list[_Shelf] = field(default_factory=list)


def nest(parts: list[Part], sheet: tuple[float, float], spacing: float) -> list[Placement]:
    """Placements of every part on sheets of ``sheet`` (W, H) mm, sheets numbered per material
    in the order materials first appear; raises :class:`ParameterError` for a part too large."""
    width, height = sheet
    edge = max(spacing, EDGE)
    placements: list[Placement] = []
    materials = list(dict.fromkeys(part.material for part in parts))
    first_sheet = 0
    for material in materials:
        own = [part for part in parts if part.material == material]
        own.sort(key=lambda part: (-min(part.size), -max(part.size)))
        sheets: list[_Sheet] = []
        for part in own:
            placements.append(_place(part, sheets, width, height, edge, spacing, first_sheet))
        first_sheet += len(sheets)
    return placements


def _place(
    part: Part, sheets: list[_Sheet], width: float, height: float, edge: float, spacing: float, first: int
) -> Placement:
    w, h = part.size
    # lying down (long side along x) first: low shelves
    options = [(False, w, h), (True, h, w)] if w >= h else [(True, h, w), (False, w, h)]
    fitting = [
        (turned, a, b) for turned, a, b in options if a + 2 * edge <= width + 1e-9 and b + 2 * edge <= height + 1e-9
    ]
    if not fitting:
        raise ParameterError(
            f"{width:g}×{height:g} mm is too small for the {part.name} part ({w:.1f}×{h:.1f} mm, turned or not, "
            f"plus {edge:g} mm from the edge)",
            field="sheet",
        )
    for index, sheet in enumerate(sheets):
        for shelf in sheet.shelves:
            for turned, a, b in fitting:
                if b <= shelf.height + 1e-9 and shelf.x + a + edge <= width + 1e-9:
                    placement = Placement(part=part, sheet=first + index, x=shelf.x, y=shelf.y, turned=turned)
                    shelf.x += a + spacing
                    return placement
        for turned, a, b in fitting:
            if sheet.bottom + b + edge <= height + 1e-9:
                return _new_shelf(part, sheet, first + index, turned, a, b, spacing)
    sheets.append(_Sheet(edge=edge, bottom=edge))
    turned, a, b = fitting[0]
    return _new_shelf(part, sheets[-1], first + len(sheets) - 1, turned, a, b, spacing)


def _new_shelf(part: Part, sheet: _Sheet, index: int, turned: bool, a: float, b: float, spacing: float) -> Placement:
    y = sheet.bottom
    sheet.shelves.append(_Shelf(y=y, height=b, x=sheet.edge + a + spacing))
    sheet.bottom = y + b + spacing
    return Placement(part=part, sheet=index, x=sheet.edge, y=y, turned=turned)


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
        if shared_edges:
            page.strokes["outer-cut"], page.closed["outer-cut"] = common_lines(page.strokes["outer-cut"])
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
    for k in sorted(sharing):  # slanted edges of the split rings, as they are
        ring = rings[k]
        for a, b in zip(ring, np.roll(ring, -1, axis=0), strict=True):
            if abs(a[0] - b[0]) > 1e-9 and abs(a[1] - b[1]) > 1e-9:
                strokes.append(np.array([a, b]))
                closed.append(False)
    return strokes, closed
