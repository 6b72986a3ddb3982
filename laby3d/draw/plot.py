"""Drawing a maze with matplotlib: its closed walls as polylines (theta's arcs as the
tessellation's polylines), its cells filled by their distance from the entrance (the heat map),
its solution and the marks of its entrance and exit.

Used by the pictures (:mod:`laby3d.draw.pictures`); :func:`opening_mark` by the worksheets and
keys too (:mod:`laby3d.draw.worksheet`). Points are in pitch units (docs/shapes.md: x right,
y down) until ``to_page`` maps them; matplotlib is imported inside the functions that draw.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.maze.solve import distances_and_parents
from laby3d.maze.walls import closed_walls

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from laby3d.maze.model import Maze, Opening

#: Maps ``(k, 2)`` points from pitch units to the drawing's coordinates.
ToPage = Callable[[np.ndarray], np.ndarray]


def in_pitch_units(points: np.ndarray) -> np.ndarray:
    """``points`` as they are: for a drawing whose coordinates are pitch units."""
    return points


#: Colour of the entrance and exit marks (as the worksheets draw them).
MARK_COLOUR = "tab:blue"
#: Most cells a heat map fills as vector polygons; above, it is one image of the polygons filled
#: (matplotlib takes ~20 µs a polygon: 90,000 cells of a 300×300 maze cost 2–4 s, the image 0.1 s).
VECTOR_HEATMAP_CELLS = 20_000
#: Pixels of a heat-map image per cell size (sharp cell edges at the picture's resolution).
HEATMAP_PX_PER_CELL = 4


@dataclass(frozen=True)
class OpeningMark:
    """Where an opening is marked: ``point`` (pitch units) is the middle of its boundary wall,
    ``outward`` the unit vector out of the maze there; for an opening inside the maze (no side,
    such as a theta maze's centre) ``point`` is its cell's centre and ``outward`` None."""

    point: np.ndarray
    outward: np.ndarray | None


def opening_mark(maze: Maze, opening: Opening) -> OpeningMark:
    """The mark of ``opening``: the middle of its boundary wall and the outward direction
    (perpendicular to the wall's chord, away from its cell's centre), or its cell's centre.

    >>> import laby3d
    >>> maze = laby3d.generate(3, 4, shape="hex", seed=1)
    >>> mark = opening_mark(maze, maze.entrance)  # the W side of cell (0, 0)
    >>> mark.point.round(3).tolist(), mark.outward.round(3).tolist()
    ([0.0, 0.577], [-1.0, 0.0])
    """
    t = maze.tessellation
    cell = maze.cell_of(opening)
    wall = maze.boundary_wall_of(opening)
    if wall is None:
        return OpeningMark(point=np.asarray(t.centres[cell], dtype=float), outward=None)
    line = t.boundary_polyline(wall)
    chord = line[-1] - line[0]
    normal = np.array([chord[1], -chord[0]]) / np.hypot(*chord)
    point = np.asarray(t.boundary_midpoints[wall], dtype=float)
    if float(np.dot(point - t.centres[cell], normal)) < 0:
        normal = -normal
    return OpeningMark(point=point, outward=normal + 0.0)  # + 0.0: no -0.0 in a mark's direction


def add_walls(axes: Axes, maze: Maze, to_page: ToPage = in_pitch_units, *, width: float) -> None:
    """The closed walls (interior, then the outline but the openings), black, ``width`` points
    thick, with round ends and joins so walls meeting at any angle close neatly: one compound
    path of every wall's polyline (drawn at once, however many walls)."""
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    walls = closed_walls(maze)
    codes = np.full(len(walls.ids), Path.LINETO, dtype=Path.code_type)
    codes[walls.starts[:-1]] = Path.MOVETO
    path = Path(to_page(walls.vertices[walls.ids]), codes)
    patch = PathPatch(path, fill=False, edgecolor="black", linewidth=width, capstyle="round", joinstyle="round")
    patch.set_zorder(2)
    axes.add_artist(patch)  # not add_patch: the drawing's limits are set, not measured curve by curve


def cell_distances(maze: Maze) -> np.ndarray:
    """``(C,)`` steps from the entrance's cell (cell 0 without an entrance) to every cell."""
    start = maze.cell_of(maze.entrance) if maze.entrance is not None else 0
    return distances_and_parents(maze, start)[0]


def add_heatmap(axes: Axes, maze: Maze, to_page: ToPage = in_pitch_units) -> None:
    """Every cell's polygon filled by its distance from the entrance (viridis): as vector
    polygons up to :data:`VECTOR_HEATMAP_CELLS` cells, else as one image of them."""
    from matplotlib.collections import PolyCollection

    t = maze.tessellation
    distances = cell_distances(maze).astype(float)
    if t.cell_count > VECTOR_HEATMAP_CELLS:
        _heatmap_image(axes, maze, distances, to_page)
        return
    points = to_page(t.vertices)
    sides = np.diff(t.polygon_starts)
    polygons: Any  # an (n, k, 2) array or a list of (k, 2) arrays
    if (sides == sides[0]).all():  # squares, hexagons or triangles: one array, which matplotlib takes at once
        polygons = points[np.asarray(t.polygon_vertices).reshape(t.cell_count, int(sides[0]))]
    else:
        polygons = [
            points[t.polygon_vertices[start:stop]]
            for start, stop in zip(t.polygon_starts[:-1], t.polygon_starts[1:], strict=True)
        ]
    # each polygon's edge drawn in its own colour, thin: no background seams between cells
    cells = PolyCollection(polygons, cmap="viridis", edgecolors="face", linewidths=0.25, zorder=1)
    cells.set_array(distances)
    axes.add_collection(cells)


def _heatmap_image(axes: Axes, maze: Maze, distances: np.ndarray, to_page: ToPage) -> None:
    """The heat map as one RGBA image (Pillow fills the cell polygons; outside the cells clear)."""
    from matplotlib import colormaps
    from PIL import Image, ImageDraw

    t = maze.tessellation
    width, height = t.extent
    scale = HEATMAP_PX_PER_CELL
    image = Image.new("RGBA", (max(1, round(width * scale)), max(1, round(height * scale))), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    span = float(distances.max() - distances.min()) or 1.0
    colours = (colormaps["viridis"]((distances - distances.min()) / span) * 255).round().astype(np.uint8)
    starts, ids, vertices = t.polygon_starts, t.polygon_vertices, t.vertices * scale
    for cell, colour in enumerate(colours.tolist()):
        corners = vertices[ids[starts[cell] : starts[cell + 1]]]
        draw.polygon([tuple(point) for point in corners.tolist()], fill=tuple(colour))
    (left, top), (right, bottom) = to_page(np.array([[0.0, 0.0], [width, height]]))
    axes.imshow(np.asarray(image), extent=(left, right, bottom, top), interpolation="nearest", zorder=1)


def add_marks(
    axes: Axes, maze: Maze, to_page: ToPage = in_pitch_units, *, length: float, width: float, dot: float
) -> None:
    """An arrow ``length`` pitch units long through each boundary opening (into the maze at the
    entrance, out of it at the exit), ``width`` points thick; an opening inside the maze is a
    dot ``dot`` points wide (filled for the entrance, a ring for the exit)."""
    for opening, inward in ((maze.entrance, True), (maze.exit, False)):
        if opening is None:
            continue
        mark = opening_mark(maze, opening)
        if mark.outward is None:
            (x, y), face = to_page(mark.point[None])[0], MARK_COLOUR if inward else "white"
            axes.plot([x], [y], "o", color=MARK_COLOUR, markerfacecolor=face, markersize=dot, zorder=4)
            continue
        edge, outer = to_page(np.stack([mark.point, mark.point + mark.outward * length]))
        tail, head = (outer, edge) if inward else (edge, outer)
        axes.annotate(
            "",
            xy=(float(head[0]), float(head[1])),
            xytext=(float(tail[0]), float(tail[1])),
            arrowprops={"arrowstyle": "-|>", "color": MARK_COLOUR, "lw": width, "shrinkA": 0, "shrinkB": 0},
            zorder=4,
        )
