"""An animated GIF of generation: the passages opening in order (Pillow, via matplotlib's deps)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import numpy as np

from laby3d.maze.observe import partial_maze
from laby3d.maze.walls import wall_segments

if TYPE_CHECKING:
    from laby3d.maze.model import Maze


def generation_gif(maze: Maze, *, frames: int = 60, frame_ms: int = 80, size_px: int = 480) -> bytes:
    """GIF of ``frames`` steps from the closed grid to the finished maze (last frame held)."""
    from PIL import Image, ImageDraw

    cell = max(3, size_px // max(maze.rows, maze.cols))
    pad = 4
    width, height = maze.cols * cell + 2 * pad + 1, maze.rows * cell + 2 * pad + 1
    total = maze.cell_count - 1
    steps = np.unique(np.linspace(0, total, num=max(2, frames), dtype=int))
    images = []
    for step in steps.tolist():
        stage = maze if step == total else partial_maze(maze, step)
        image = Image.new("P", (width, height), 0)
        image.putpalette([255, 255, 255, 0, 0, 0])
        draw = ImageDraw.Draw(image)
        for (x0, y0), (x1, y1) in wall_segments(stage) * cell + pad:
            draw.line([(x0, y0), (x1, y1)], fill=1, width=1)
        images.append(image)
    buffer = io.BytesIO()
    durations = [frame_ms] * (len(images) - 1) + [frame_ms * 25]
    images[0].save(buffer, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0)
    return buffer.getvalue()
