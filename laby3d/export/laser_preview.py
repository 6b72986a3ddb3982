"""A picture of a laser sheet as the laser will see it (PNG bytes, matplotlib)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import numpy as np

from laby3d.draw import exclusive
from laby3d.export.laser import colours
from laby3d.geometry.laser.options import OPERATIONS
from laby3d.geometry.shapes import polygon_loops

if TYPE_CHECKING:
    from laby3d.geometry.laser import Drawing


@exclusive
def sheet_png(drawing: Drawing, *, palette: str = "default", width_px: int = 1200) -> bytes:
    """The page as a picture: each operation in its palette colour (fill engravings filled),
    sheet outlines dashed grey; y down as on the page."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import LineCollection
    from matplotlib.figure import Figure

    palette_colours = colours(palette)
    aspect = drawing.height / drawing.width
    figure = Figure(figsize=(8, max(1.0, 8 * aspect)), dpi=width_px / 8)
    line = max(0.5, 1.5 * 72 / figure.dpi)  # points: at least 1.5 pixels, so thin pictures show the colours
    FigureCanvasAgg(figure)
    axes = figure.add_axes((0, 0, 1, 1))
    for x, y, w, h in drawing.sheets:
        axes.add_patch(_rectangle(x, y, w, h))
    for op in OPERATIONS:
        rings = [
            np.vstack([p, p[:1]]) if closed else p
            for p, closed in zip(drawing.strokes[op], drawing.closed[op], strict=True)
        ]
        if op == "engrave-fill" and rings:  # even-odd, as a laser fills: counters stay open
            axes.add_patch(even_odd_patch(rings, palette_colours[op]))
        elif rings:
            axes.add_collection(LineCollection(rings, colors=palette_colours[op], linewidths=line))
    axes.set_xlim(-2, drawing.width + 2)
    axes.set_ylim(drawing.height + 2, -2)
    axes.set_aspect("equal")
    axes.set_axis_off()
    return png_bytes(figure)


def even_odd_patch(rings: list[np.ndarray], colour: str):  # -> matplotlib PathPatch
    """Closed ``rings`` filled by the even-odd rule, as one patch (matplotlib fills non-zero:
    the even-odd area is built with shapely and its holes wound the other way)."""
    import shapely
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    ink = shapely.Polygon()
    for ring in rings:
        ink = ink.symmetric_difference(shapely.Polygon(ring).buffer(0))
    vertices: list[np.ndarray] = []
    codes: list = []  # matplotlib's path codes (uint8)
    for loops in polygon_loops(shapely.orient_polygons(ink)):
        for loop in loops:
            vertices.extend([*loop, loop[0]])
            codes.extend([Path.MOVETO] + [Path.LINETO] * (len(loop) - 1) + [Path.CLOSEPOLY])
    return PathPatch(Path(vertices, codes), facecolor=colour, edgecolor="none")


def _rectangle(x: float, y: float, w: float, h: float):  # -> matplotlib Rectangle
    from matplotlib.patches import Rectangle

    return Rectangle((x, y), w, h, fill=True, facecolor="#f4f1ea", edgecolor="#b4b4b4", linestyle="--", linewidth=0.6)


def png_bytes(figure) -> bytes:  # Figure -> bytes
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()
