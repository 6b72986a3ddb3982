"""Laser sheets: the maze as cut, score and engrave strokes on a page, mm (y down, as in SVG).

Modes: ``lines`` (every closed wall once along its centre line, as few strokes as possible),
``outline`` (the wall footprint's outlines, grown by half the kerf), ``stack`` (the parts of a
layered rolling-ball maze laid out on material sheets).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import numpy as np
import shapely

from laby3d.errors import ParameterError
from laby3d.geometry.params import Fabrication
from laby3d.geometry.raster import EMPTY, FLOOR, PATH, WALL, Raster, maze_raster
from laby3d.geometry.shapes import polygon_loops
from laby3d.geometry.text import text_outlines
from laby3d.geometry.trace import rings_to_shapely, trace
from laby3d.geometry.trails import wall_strokes

if TYPE_CHECKING:
    from laby3d.maze.model import Maze

LaserMode = Literal["lines", "outline", "stack"]
#: A stack part: name, outline to cut (y up, mm), engraving as (points, closed) strokes.
Part = tuple[str, shapely.Geometry, list[tuple[np.ndarray, bool]]]
LASER_MODES = ("lines", "outline", "stack")
#: Layers in the order a laser should run them: engrave, score, inner cuts, outer cuts.
OPERATIONS = ("engrave", "score", "inner-cut", "outer-cut")


@dataclass(frozen=True)
class LaserOptions:
    """How the sheet is made, mm."""

    mode: LaserMode = "lines"
    kerf: float = 0.15  # width of the cut; parts grow by kerf / 2
    sheet: tuple[float, float] = (600.0, 400.0)  # material sheet for stack mode
    spacing: float = 3.0  # between parts
    top: bool = False  # stack: add a clear top sheet with a ball hole
    ball: float | None = None  # stack: ball diameter (hole = ball + 1 mm); default 60% of the corridor
    engrave_solution: bool = True  # stack: solution path engraved on the base
    reference_square: bool = False  # a 100 mm square to check the scale
    label: str | None = None  # engraved text (outlines), e.g. a name; the seed is added
    text_height: float = 5.0  # mm

    def check(self, fab: Fabrication) -> None:
        """Raise :class:`ParameterError` unless these options fit ``fab``."""
        if self.mode not in LASER_MODES:
            raise ParameterError(f"laser mode must be one of {', '.join(LASER_MODES)}, got {self.mode!r}")
        if not (math.isfinite(self.kerf) and 0 <= self.kerf < fab.wall_thickness):
            raise ParameterError(f"kerf must be in [0, wall_thickness = {fab.wall_thickness:g}) mm, got {self.kerf:g}")
        if not all(math.isfinite(v) and v > 0 for v in self.sheet):
            raise ParameterError(f"sheet must be two positive sizes in mm, got {self.sheet}")
        if not (math.isfinite(self.spacing) and self.spacing >= 0):
            raise ParameterError(f"spacing must be >= 0 mm, got {self.spacing:g}")


@dataclass
class Drawing:
    """Strokes per operation on a ``width × height`` mm page; each stroke ``(k, 2)`` mm, y down."""

    width: float
    height: float
    strokes: dict[str, list[np.ndarray]] = field(default_factory=lambda: {op: [] for op in OPERATIONS})
    closed: dict[str, list[bool]] = field(default_factory=lambda: {op: [] for op in OPERATIONS})
    sheets: list[tuple[float, float, float, float]] = field(default_factory=list)  # x, y, w, h

    def add(self, operation: str, points: np.ndarray, closed: bool) -> None:
        """Add one stroke."""
        self.strokes[operation].append(np.asarray(points, dtype=float))
        self.closed[operation].append(closed)


def laser_drawing(maze: Maze, fab: Fabrication, options: LaserOptions) -> Drawing:
    """The page for ``maze`` in ``options.mode``."""
    options.check(fab)
    fab.check_size(maze.rows, maze.cols)
    if options.mode == "lines":
        drawing = _lines(maze, fab)
    elif options.mode == "outline":
        drawing = _outline(maze, fab, options)
    else:
        drawing = _stack(maze, fab, options)
    if options.label is not None and options.mode != "stack":  # under the drawing
        y = drawing.height + 2.0
        for ring in text_outlines(_label_text(maze, options), options.text_height):
            drawing.add("engrave", np.column_stack([ring[:, 0] + 2.0, y + options.text_height - ring[:, 1]]), True)
        drawing.height = y + options.text_height + 4.0
    if options.reference_square and options.mode != "stack":  # beside the drawing
        x = drawing.width + 5.0
        drawing.add("engrave", np.array([[x, 5], [x + 100, 5], [x + 100, 105], [x, 105]], float), True)
        drawing.width, drawing.height = x + 105.0, max(drawing.height, 110.0)
    return drawing


def _lines(maze: Maze, fab: Fabrication) -> Drawing:
    pad = fab.margin + fab.wall_thickness / 2
    drawing = Drawing(maze.cols * fab.cell_size + 2 * pad, maze.rows * fab.cell_size + 2 * pad)
    strokes = wall_strokes(maze)
    lengths = np.array([len(stroke) for stroke in strokes])
    points = pad + np.concatenate(strokes)[:, ::-1] * fab.cell_size  # (i, j) -> (x, y), mm
    closed = [len(s) > 2 and bool((s[0] == s[-1]).all()) for s in strokes]
    pieces = np.split(points, np.cumsum(lengths)[:-1])
    drawing.strokes["outer-cut"] = [p[:-1] if c else p for p, c in zip(pieces, closed, strict=True)]
    drawing.closed["outer-cut"] = closed
    return drawing


def _rings(geometry: shapely.Geometry) -> list[tuple[np.ndarray, bool]]:
    """(points without the closing repeat, is_hole) for every ring, exteriors CCW, holes CW (y up)."""
    return [(loop, k > 0) for loops in polygon_loops(geometry) for k, loop in enumerate(loops)]


def grown(geometry: shapely.Geometry, kerf: float) -> shapely.Geometry:
    """Parts grown by half the kerf (holes shrink by as much), with sharp mitred corners."""
    if kerf == 0:
        return geometry
    return shapely.buffer(geometry, kerf / 2, join_style="mitre", mitre_limit=10.0)


def _place(drawing: Drawing, geometry: shapely.Geometry, dx: float, dy: float, page_height: float) -> None:
    """Add a part's rings as cuts, moved by (dx, dy) and flipped to y down."""
    for points, hole in _rings(geometry):
        flipped = np.column_stack([points[:, 0] + dx, page_height - points[:, 1] + dy])
        drawing.add("inner-cut" if hole else "outer-cut", flipped, True)


def _outline(maze: Maze, fab: Fabrication, options: LaserOptions) -> Drawing:
    raster = maze_raster(maze, fab)
    walls = grown(rings_to_shapely(raster, trace(raster, [WALL])), options.kerf)
    x0, y0, x1, y1 = walls.bounds
    drawing = Drawing(x1 - x0, y1 - y0)
    _place(drawing, shapely.affinity.translate(walls, -x0, -y0), 0.0, 0.0, y1 - y0)
    return drawing


def _stack(maze: Maze, fab: Fabrication, options: LaserOptions) -> Drawing:
    """Base (outline + engraved solution), wall sheet (plate with corridors cut out), top sheet."""
    raster = maze_raster(maze, fab)
    labels = raster.labels.copy()
    if fab.margin > 0:  # the margin band belongs to the wall sheet's frame
        labels[0, :] = labels[-1, :] = labels[:, 0] = labels[:, -1] = WALL
    corridors = np.isin(labels, (FLOOR, PATH))
    width, depth = fab.outer_size(maze.rows, maze.cols)
    plate = shapely.box(0, 0, width, depth)
    frame = Raster(raster.xs, raster.ys, np.where(corridors, EMPTY, WALL).astype(np.uint8))
    wall_sheet = rings_to_shapely(frame, trace(frame, [WALL]))
    parts: list[Part] = []
    engraving: list[tuple[np.ndarray, bool]] = []
    if options.engrave_solution and maze.solution:
        from laby3d.maze.solve import solution_polyline

        pad = fab.margin + fab.wall_thickness / 2
        line = solution_polyline(maze) * fab.cell_size + pad
        engraving.append((np.column_stack([line[:, 0], depth - line[:, 1]]), False))  # to y up
    parts.append(("base", grown(plate, options.kerf), engraving))
    parts.append(("walls", grown(wall_sheet, options.kerf), []))
    if options.top:
        ball = options.ball if options.ball is not None else 0.6 * fab.corridor_width
        if not 0 < ball < fab.corridor_width:
            raise ParameterError(f"ball must be > 0 and < the corridor width ({fab.corridor_width:g} mm), got {ball:g}")
        entrance = maze.entrance or maze.exit
        assert entrance is not None
        pad = fab.margin + fab.wall_thickness / 2
        centre = (pad + (entrance.col + 0.5) * fab.cell_size, depth - pad - (entrance.row + 0.5) * fab.cell_size)
        hole = shapely.Point(centre).buffer((ball + 1.0) / 2, quad_segs=16)
        parts.append(("top", grown(plate.difference(hole), options.kerf), []))
    if options.label is not None:  # on the top sheet when there is one, else on the base
        rings = text_outlines(_label_text(maze, options), options.text_height)
        target = parts[-1] if options.top else parts[0]
        target[2].extend((ring + [fab.margin + fab.wall_thickness + 3.0, 3.0], True) for ring in rings)
    if options.reference_square:  # engraved only: laid out like a part, never cut
        square = np.array([[0, 0], [100, 0], [100, 100], [0, 100]], float)
        parts.append(("reference square", shapely.box(0, 0, 100, 100), [(square, True)]))
    return _layout(parts, options)


def _label_text(maze: Maze, options: LaserOptions) -> str:
    return f"{options.label}  ·  seed {maze.seed}" if options.label else f"laby3d seed {maze.seed}"


def _layout(parts: list[Part], options: LaserOptions) -> Drawing:
    """Shelf packing of the parts' bounding boxes on as many sheets as needed (stacked down)."""
    sheet_w, sheet_h = options.sheet
    gap = options.spacing
    placements = []
    sheet, x, y, shelf = 0, gap, gap, 0.0
    for name, geometry, engraving in parts:
        x0, y0, x1, y1 = geometry.bounds
        w, h = x1 - x0, y1 - y0
        if w + 2 * gap > sheet_w or h + 2 * gap > sheet_h:
            raise ParameterError(
                f"sheet {sheet_w:g}×{sheet_h:g} mm is too small for the {name} part ({w:.1f}×{h:.1f} mm "
                f"plus {gap:g} mm spacing)"
            )
        if x + w + gap > sheet_w:
            x, y, shelf = gap, y + shelf + gap, 0.0
        if y + h + gap > sheet_h:
            sheet, x, y, shelf = sheet + 1, gap, gap, 0.0
        placements.append((name, geometry, engraving, x - x0, sheet * (sheet_h + 10.0) + y, h, y0))
        x += w + gap
        shelf = max(shelf, h)
    sheets = sheet + 1
    drawing = Drawing(sheet_w, sheets * sheet_h + (sheets - 1) * 10.0)
    drawing.sheets = [(0.0, s * (sheet_h + 10.0), sheet_w, sheet_h) for s in range(sheets)]
    for name, geometry, engraving, dx, top, h, y0 in placements:
        # flip y: a part point (x, y) lands at (x + dx, top + (y0 + h - y))
        if name != "reference square":
            _place(drawing, geometry, dx, top, y0 + h)
        for line, closed in engraving:
            drawing.add("engrave", np.column_stack([line[:, 0] + dx, top + y0 + h - line[:, 1]]), closed)
    return drawing
