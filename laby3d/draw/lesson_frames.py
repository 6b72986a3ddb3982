"""Lesson frames as pixels, drawn with Pillow: the GIF and the README picture.

The same picture as the lesson's PDF page (:func:`laby3d.draw.lesson.stage_page`: zones in
colour, walls black between zones and grey inside one, the wall just opened dotted, Kruskal's
rejected walls in red, the numbers on small mazes, a caption), drawn straight into a palette
image, each cell's polygon filled: about 20 times faster than rasterising a matplotlib figure per
frame, which is what a batch with GIFs for a whole class spends its time on.

Every frame of a maze uses one palette (:attr:`FramePainter.palette`): 17 greys (black, white,
the walls inside a zone and the anti-aliased text between), the rejected and opened walls'
colours, the zone colours the frames use (:mod:`laby3d.draw.zone_colours`), and on mazes small
enough to show zone numbers, each zone colour blended a third and two thirds with the numbers'
grey. A frame is thus exact without a
per-frame colour search, and a zone keeps its colour from frame to frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

import numpy as np

from laby3d.draw.lesson import (
    MAX_CELLS_WITH_NUMBERS,
    NUMBER_COLOUR,
    OPENED_COLOUR,
    REJECTED_COLOUR,
    caption_counts,
    caption_legend,
    caption_title,
    colour_pixels,
    dotted,
    lesson_stages,
    stage_walls,
)
from laby3d.draw.zone_colours import PALETTE
from laby3d.errors import InternalError

if TYPE_CHECKING:
    from PIL import Image

    from laby3d.maze.model import Maze
    from laby3d.maze.observe import Stage

_MARGIN = 0.03
#: Palette indices: greys 0 (black) to 16 (white) in steps of 16, then the walls' colours.
BLACK, WHITE, REJECTED, OPENED = 0, 16, 17, 18
#: Palette indices of the numbers' grey (64 of 255) and of the walls inside a zone (80).
NUMBER, INNER = 4, 5
_FIRST_ZONE = 19
#: Blends of a zone colour with the numbers' grey: anti-aliased numbers in four levels.
NUMBER_LEVELS = (1 / 3, 2 / 3)


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


def rgb(colour: tuple[float, float, float]) -> tuple[int, int, int]:
    """``colour`` (0..1 floats) as 0..255 integers."""
    red, green, blue = (int(round(255 * c)) for c in colour)
    return red, green, blue


@dataclass(frozen=True)
class FramePainter:
    """Draws the lesson frames of one maze ``width_px`` wide as palette images, with zone colours
    0 to ``zone_colours`` − 1; what every frame shares (layout, palette, title and legend) is
    computed once."""

    maze: Maze
    lang: str
    width_px: int = 560
    zone_colours: int = len(PALETTE)

    @cached_property
    def margin(self) -> int:
        """Blank border around the maze and the caption (px)."""
        return round(self.width_px * _MARGIN)

    @cached_property
    def cell(self) -> float:
        """One cell size (pitch unit) in px."""
        return (self.width_px - 2 * self.margin) / self.maze.tessellation.extent[0]

    @cached_property
    def numbered(self) -> bool:
        """Whether the frames write each cell's zone number."""
        return self.maze.cell_count <= MAX_CELLS_WITH_NUMBERS

    @cached_property
    def _colours(self) -> tuple[np.ndarray, np.ndarray, int]:
        """The palette ``(256, 3)`` uint8, the image palette index of every zone colour and the
        number of zone colours."""
        greys = np.repeat(np.minimum(np.arange(0, 257, 16), 255)[:, None], 3, axis=1)
        fixed = np.concatenate([greys, [rgb(REJECTED_COLOUR), rgb(OPENED_COLOUR)]]).astype(np.uint8)
        zones = colour_pixels(np.arange(self.zone_colours)[None])[0]
        index = np.arange(self.zone_colours)
        colours = [fixed, zones]
        if self.numbered:  # 19 + 3 entries per zone colour
            grey = np.array(rgb(NUMBER_COLOUR), dtype=float)
            colours += [np.round(zones * (1 - level) + grey * level).astype(np.uint8) for level in NUMBER_LEVELS]
        palette = np.concatenate(colours)
        if len(palette) > 256:
            raise InternalError(f"the lesson's palette needs {len(palette)} colours")
        padded = np.concatenate([palette, np.zeros((256 - len(palette), 3), dtype=np.uint8)])
        return padded, (index.ravel() + _FIRST_ZONE).astype(np.uint8), len(zones)

    @property
    def palette(self) -> np.ndarray:
        """``(256, 3)`` uint8 RGB: the colours of every frame."""
        return self._colours[0]

    @cached_property
    def _number_shades(self) -> np.ndarray:
        """``(4, 256)`` uint8: the index a pixel of index ``i`` takes under a number's glyph of
        coverage level 0 (none) to 3 (full)."""
        shades = np.tile(np.arange(256, dtype=np.uint8), (4, 1))
        shades[3] = NUMBER
        zone_count = self._colours[2]
        zones = np.arange(_FIRST_ZONE, _FIRST_ZONE + zone_count)
        for level in (1, 2):
            shades[level, zones] = zones + level * zone_count
        return shades

    def _caption_strip(self, lines: tuple[tuple[str, float], ...]) -> np.ndarray:
        """``lines`` (text, size as a fraction of the width), one under another, black on white,
        as palette indices of the greys."""
        from PIL import Image, ImageDraw

        sizes = [max(8, round(self.width_px * scale)) for _, scale in lines]
        strip = Image.new("L", (self.width_px, sum(round(size * 1.35) for size in sizes)), 255)
        draw = ImageDraw.Draw(strip)
        y = 0
        for (content, _), size in zip(lines, sizes, strict=True):
            draw.text((self.margin, y), content, fill=0, font=_font(size))
            y += round(size * 1.35)
        return np.round(np.asarray(strip) / 16).astype(np.uint8)

    @cached_property
    def _fixed_caption(self) -> tuple[np.ndarray, np.ndarray]:
        """The title and the legend: the same on every frame."""
        legend = caption_legend(self.maze, lang=self.lang).split("\n")
        return (
            self._caption_strip(((caption_title(self.maze, lang=self.lang), 0.026),)),
            self._caption_strip(tuple((part, 0.017) for part in legend)),
        )

    def caption(self, stage: Stage) -> np.ndarray:
        """The caption under the frame of ``stage``: the title, the counts (a braided maze's loops
        on a line of their own) and the legend, as palette indices of the greys."""
        title, legend = self._fixed_caption
        count_lines = caption_counts(self.maze, stage, lang=self.lang).split("\n")
        return np.concatenate([title, self._caption_strip(tuple((line, 0.021) for line in count_lines)), legend])

    def frame(self, stage: Stage, colours: np.ndarray) -> Image.Image:
        """The frame of ``stage``, its cells' palette indices ``colours``, as a palette image."""
        from PIL import Image, ImageDraw

        t = self.maze.tessellation
        margin, cell = self.margin, self.cell
        maze_height = round(cell * t.extent[1])
        caption = self.caption(stage)
        caption_top = margin + maze_height + margin
        pixels = np.full((caption_top + len(caption) + margin, self.width_px), WHITE, dtype=np.uint8)
        pixels[caption_top : caption_top + len(caption)] = caption
        image = Image.frombytes("P", (self.width_px, len(pixels)), pixels.tobytes())
        image.putpalette(self.palette.ravel().tolist())
        draw = ImageDraw.Draw(image)

        def points(line: np.ndarray) -> list[tuple[float, float]]:
            return [(margin + x * cell, margin + y * cell) for x, y in line.tolist()]

        zone_index = self._colours[1][colours].tolist()
        for index, fill in enumerate(zone_index):  # the outline too: no seam between two cells
            draw.polygon(points(t.cell_polygon(index)), fill=fill, outline=fill)
        line = max(1, round(cell * 0.08))
        walls = stage_walls(self.maze, stage)
        for lines, fill, width in (
            (walls.inside, INNER, round(line * 0.7)),
            (walls.between, BLACK, round(line * 1.4)),
            (walls.rejected, REJECTED, round(line * 1.6)),
        ):
            for wall in lines:
                draw.line(points(wall), fill=fill, width=max(1, width), joint="curve")
        if walls.opened is not None:
            for piece in dotted(walls.opened):
                draw.line(points(piece), fill=OPENED, width=line * 2, joint="curve")
        if self.numbered:
            centres = [(point, number) for point, number in zip(points(t.centres), stage.zones.tolist(), strict=True)]
            image = self._numbers_at(image, centres)
        return image

    def _numbers_at(self, image: Image.Image, centres: list[tuple[tuple[float, float], int]]) -> Image.Image:
        """``image`` with each number written centred at its (x, y) px (anti-aliased in four
        levels over the zone's colour)."""
        from PIL import Image, ImageDraw

        coverage = Image.new("L", image.size, 0)
        draw = ImageDraw.Draw(coverage)
        font = _font(max(8, round(self.cell * 0.28)))
        for centre, number in centres:
            draw.text(centre, str(number), fill=255, font=font, anchor="mm")
        levels = np.round(np.asarray(coverage, dtype=float) * 3 / 255).astype(np.intp)
        shaded = self._number_shades[levels, np.asarray(image)]
        numbered = Image.frombytes("P", image.size, shaded.tobytes())
        numbered.putpalette(self.palette.ravel().tolist())
        return numbered


def lesson_frames(
    maze: Maze, *, every: int | None, lang: str, width_px: int = 560, numbering: str = "west-north"
) -> list[Image.Image]:
    """The lesson's frames as palette images sharing one palette (what
    :func:`laby3d.draw.animation.generation_gif` writes as a GIF)."""
    shown = lesson_stages(maze, every, numbering=numbering)
    used = max(int(colours.max()) for _, colours in shown) + 1
    painter = FramePainter(maze, lang, width_px, max(len(PALETTE), used))
    return [painter.frame(stage, colours) for stage, colours in shown]
