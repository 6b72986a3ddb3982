"""Pictures of laser work (PNG bytes, matplotlib): a sheet as the laser will see it, and the
assembled kit as an exploded stack of its layers."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import numpy as np

from laby3d.draw import exclusive
from laby3d.export.laser import colours
from laby3d.geometry.laser.options import OPERATIONS
from laby3d.geometry.shapes import polygon_loops

if TYPE_CHECKING:
    from laby3d.geometry.laser import Drawing, Kit

#: Face and edge colours per material name (others: plywood's).
MATERIAL_COLOURS = {
    "plywood": ("#dcb98a", "#7a5a33"),
    "mdf": ("#b98d63", "#5e4329"),
    "acrylic": ("#bfe3f5", "#4a8fb3"),
}
#: Exploded view: mm of gap between layers; how far y recedes to the right and up.
EXPLODE = 16.0
OBLIQUE = (0.3, 0.3)


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
            axes.add_patch(_filled(rings, palette_colours[op]))
        elif rings:
            axes.add_collection(LineCollection(rings, colors=palette_colours[op], linewidths=line))
    axes.set_xlim(-2, drawing.width + 2)
    axes.set_ylim(drawing.height + 2, -2)
    axes.set_aspect("equal")
    axes.set_axis_off()
    return _png(figure)


def _filled(rings: list[np.ndarray], colour: str):  # -> matplotlib PathPatch
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


@exclusive
def kit_png(kit: Kit, *, width_px: int = 1200) -> bytes:
    """The kit's layers stacked bottom up in an oblique, exploded view (each layer lifted by its
    thickness plus :data:`EXPLODE` mm), coloured by material, engravings on their faces."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    width, depth = kit.plate
    top = sum(part.material.thickness + EXPLODE for part in kit.parts)
    corners = np.vstack([_project(np.array([[0.0, 0.0], [width, depth]]), lift) for lift in (0.0, top)])
    (x0, y0), (x1, y1) = corners.min(axis=0) - 5, corners.max(axis=0) + 5
    figure = Figure(figsize=(8, 8 * (y1 - y0) / (x1 - x0)), dpi=width_px / 8)
    FigureCanvasAgg(figure)
    axes = figure.add_axes((0, 0, 1, 1))
    lift = 0.0
    parts = {part.name: part for part in kit.parts}
    for index, (name, shape) in enumerate(kit.layers):
        material = parts[name].material
        face, edge = MATERIAL_COLOURS.get(material.name, MATERIAL_COLOURS["plywood"])
        alpha = 0.55 if material.name == "acrylic" else 1.0
        for loops in polygon_loops(shape):
            vertices, codes = [], []
            for loop in loops:
                projected = _project(loop, lift)
                vertices.extend([*projected, projected[0]])
                codes.extend([Path.MOVETO] + [Path.LINETO] * (len(loop) - 1) + [Path.CLOSEPOLY])
            patch = PathPatch(Path(vertices, codes), facecolor=face, edgecolor=edge, linewidth=0.6, alpha=alpha)
            patch.set_zorder(2 * index)
            axes.add_patch(patch)
        filled = []
        for mark in parts[name].marks:  # engravings on the layer's upper face
            points = _project(mark.points, lift)
            if mark.closed:
                filled.append(points)
            else:
                axes.plot(*points.T, color="#3a2a1a", linewidth=0.8, zorder=2 * index + 1)
        if filled:
            text = _filled(filled, "#3a2a1a")
            text.set_zorder(2 * index + 1)
            axes.add_patch(text)
        lift += material.thickness + EXPLODE
    axes.set_xlim(x0, x1)
    axes.set_ylim(y0, y1)
    axes.set_aspect("equal")
    axes.set_axis_off()
    return _png(figure)


def _project(points: np.ndarray, lift: float) -> np.ndarray:
    """Oblique view from the front and above: y recedes up and right, a lift rises, mm."""
    return np.column_stack([points[:, 0] + OBLIQUE[0] * points[:, 1], OBLIQUE[1] * points[:, 1] + lift])


def _png(figure) -> bytes:  # Figure -> bytes
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()
