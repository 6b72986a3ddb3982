"""A page of strokes per operation, mm, y down (as in SVG); sheets stacked into an overview."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from laby3d.geometry.laser.options import OPERATIONS, Material

#: Vertical gap between sheets on the overview page, mm.
OVERVIEW_GAP = 10.0


def _empty_lists() -> dict[str, list]:
    return {op: [] for op in OPERATIONS}


@dataclass(kw_only=True)
class Drawing:
    """Strokes per operation on a ``width × height`` mm page; each stroke ``(k, 2)`` mm, y down.

    ``sheets`` are the material sheets' outlines on the page (x, y, w, h) with their titles: notes
    for the operator, never cut. ``material`` is set when the page is one sheet of one material.
    """

    width: float
    height: float
    strokes: dict[str, list[np.ndarray]] = field(default_factory=_empty_lists)
    closed: dict[str, list[bool]] = field(default_factory=_empty_lists)
    sheets: list[tuple[float, float, float, float]] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    material: Material | None = None

    def add(self, operation: str, points: np.ndarray, closed: bool) -> None:
        """Add one stroke."""
        self.strokes[operation].append(np.asarray(points, dtype=float))
        self.closed[operation].append(closed)

    def blank(self) -> Drawing:
        """A page like this one (size, sheets, titles, material) without strokes."""
        return Drawing(
            width=self.width,
            height=self.height,
            sheets=list(self.sheets),
            titles=list(self.titles),
            material=self.material,
        )

    def cut_length(self) -> float:
        """Length the head travels with the beam on, every operation, mm."""
        total = 0.0
        for op in OPERATIONS:
            for points, closed in zip(self.strokes[op], self.closed[op], strict=True):
                ring = np.vstack([points, points[:1]]) if closed else points
                total += float(np.hypot(*np.diff(ring, axis=0).T).sum())
        return total


def overview(pages: list[Drawing]) -> Drawing:
    """All ``pages`` stacked down one page, :data:`OVERVIEW_GAP` apart, with their outlines."""
    width = max(page.width for page in pages)
    result = Drawing(width=width, height=0.0)
    top = 0.0
    for page in pages:
        shift = np.array([0.0, top])
        for op in OPERATIONS:
            for points, closed in zip(page.strokes[op], page.closed[op], strict=True):
                result.add(op, points + shift, closed)
        outlines = page.sheets or [(0.0, 0.0, page.width, page.height)]
        result.sheets.extend((x, y + top, w, h) for x, y, w, h in outlines)
        result.titles.extend(page.titles or [""] * len(outlines))
        top += page.height + OVERVIEW_GAP
    result.height = top - OVERVIEW_GAP
    return result
