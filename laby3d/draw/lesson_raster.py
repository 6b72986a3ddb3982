"""Lesson frames as pixels, drawn with Pillow: the GIF and the README picture.

The same picture as :func:`laby3d.draw.lesson.draw_stage` (zones in colour, walls, the wall just
opened dotted, Kruskal's rejected walls in red, the numbers on small mazes, a three-line
caption), drawn straight into an image: about 20 times faster than rasterising a matplotlib
figure per frame (a 15×15 GIF of 40 frames: 2.1 s → about 0.1 s), which is what a batch with
GIFs for a whole class spends its time on.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from laby3d.draw.lesson import (
    MAX_SIDE_WITH_NUMBERS,
    OPENED_COLOUR,
    REJECTED_COLOUR,
    caption_lines,
    wall_between,
    zone_colour,
)
from laby3d.errors import InternalError
from laby3d.maze.walls import wall_segments

if TYPE_CHECKING:
    from PIL import Image

    from laby3d.maze.model import Maze
    from laby3d.maze.observe import Stage

#: Room for the caption under the maze, as a fraction of the frame's width (cropped to fit).
_CAPTION = 0.2
_MARGIN = 0.03


@lru_cache(maxsize=8)
def _font(size: int):  # -> PIL.ImageFont.FreeTypeFont
    """DejaVu Sans at ``size`` px: the file matplotlib ships, found without importing matplotlib
    (so neither its import time nor the user's matplotlibrc reach the frames). Cached per
    process: a font object per size, read-only once loaded."""
    import importlib.util
    from pathlib import Path

    from PIL import ImageFont

    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise InternalError("matplotlib (which ships the DejaVu Sans font) is not installed")
    path = Path(spec.submodule_search_locations[0]) / "mpl-data" / "fonts" / "ttf" / "DejaVuSans.ttf"
    return ImageFont.truetype(str(path), size)


def _rgb(colour: tuple[float, float, float]) -> tuple[int, int, int]:
    red, green, blue = (int(round(255 * c)) for c in colour)
    return red, green, blue


def stage_image(maze: Maze, stage: Stage, *, lang: str, width_px: int = 560) -> Image.Image:
    """The frame of ``stage`` as an RGB image ``width_px`` wide."""
    from PIL import Image, ImageDraw

    rows, cols = maze.rows, maze.cols
    margin = round(width_px * _MARGIN)
    cell = (width_px - 2 * margin) / cols
    maze_height = round(cell * rows)
    image = Image.new("RGB", (width_px, margin + maze_height + margin + round(width_px * _CAPTION)), "white")
    draw = ImageDraw.Draw(image)

    def point(x: float, y: float) -> tuple[float, float]:
        return margin + x * cell, margin + y * cell

    for (row, col), number in np.ndenumerate(stage.zones):
        draw.rectangle((*point(col, row), *point(col + 1, row + 1)), fill=_rgb(zone_colour(int(number))))
    line = max(1, round(cell * 0.08))
    for (x0, y0), (x1, y1) in wall_segments(stage.maze).tolist():
        draw.line((*point(x0, y0), *point(x1, y1)), fill="black", width=line)
    for a, b in stage.rejected.tolist():
        (x0, y0), (x1, y1) = wall_between(int(a), int(b), cols).tolist()
        draw.line((*point(x0, y0), *point(x1, y1)), fill=_rgb(REJECTED_COLOUR), width=round(line * 1.6))
    if stage.last_opened is not None:
        (x0, y0), (x1, y1) = wall_between(*stage.last_opened, cols).tolist()
        for k in range(0, 8, 2):  # dotted
            t0, t1 = k / 8, (k + 1) / 8
            start = point(x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0)
            end = point(x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)
            draw.line((*start, *end), fill=_rgb(OPENED_COLOUR), width=line * 2)
    if max(rows, cols) <= MAX_SIDE_WITH_NUMBERS:
        font = _font(max(8, round(cell * 0.28)))
        for (row, col), number in np.ndenumerate(stage.zones):
            draw.text(point(col + 0.5, row + 0.5), str(number), fill=(64, 64, 64), font=font, anchor="mm")
    title, counts, legend = caption_lines(maze, stage, lang=lang)
    y = margin + maze_height + margin
    for content, scale in ((title, 0.026), (counts, 0.021), *((part, 0.017) for part in legend.split("\n"))):
        size = max(8, round(width_px * scale))
        draw.text((margin, y), content, fill="black", font=_font(size))
        y += round(size * 1.35)
    return image.crop((0, 0, width_px, y + margin))
