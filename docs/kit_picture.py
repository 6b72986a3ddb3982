"""The assembled ball kit as an exploded stack of its layers (PNG bytes, matplotlib): the README's
kit pictures (docs/make_pictures.py) and what tests/test_laser.py checks of them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from laby3d.draw import exclusive
from laby3d.export.laser_preview import even_odd_patch, png_bytes
from laby3d.geometry.shapes import polygon_loops

if TYPE_CHECKING:
    from laby3d.geometry.laser import Kit

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
            text = even_odd_patch(filled, "#3a2a1a")
            text.set_zorder(2 * index + 1)
            axes.add_patch(text)
        lift += material.thickness + EXPLODE
    axes.set_xlim(x0, x1)
    axes.set_ylim(y0, y1)
    axes.set_aspect("equal")
    axes.set_axis_off()
    return png_bytes(figure)


def _project(points: np.ndarray, lift: float) -> np.ndarray:
    """Oblique view from the front and above: y recedes up and right, a lift rises, mm."""
    return np.column_stack([points[:, 0] + OBLIQUE[0] * points[:, 1], OBLIQUE[1] * points[:, 1] + lift])
