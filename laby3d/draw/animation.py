"""An animated GIF of generation: the lesson's frames (zones in colour) one after another.

Frames are drawn by :mod:`laby3d.draw.lesson_frames` straight into Pillow palette images that
share one palette; the zones' colours are the lesson's (:mod:`laby3d.draw.zone_colours`).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TYPE_CHECKING

from laby3d.draw.lesson_frames import lesson_frames
from laby3d.draw.strings import check_language
from laby3d.errors import ParameterError

if TYPE_CHECKING:
    from PIL import Image

    from laby3d.maze.model import Maze

#: The frames of a lesson: ``frames(maze, every=…, lang=…, width_px=…)`` → palette images.
Frames = Callable[..., "list[Image.Image]"]

#: How long each frame shows (ms): long enough to read the caption's counts.
FRAME_MS = 700
#: How long the first and the last frame show (ms).
HOLD_MS = 3000


def generation_gif(
    maze: Maze,
    *,
    every: int | None = None,
    lang: str = "en",
    frame_ms: int = FRAME_MS,
    width_px: int = 560,
    frames: Frames = lesson_frames,
) -> bytes:
    """GIF of the lesson's frames, from the closed grid to the finished maze (first and last
    frames held :data:`HOLD_MS`); ``every`` as in :func:`laby3d.draw.lesson.lesson_pdf`;
    ``frames`` draws them (:func:`laby3d.draw.lesson_frames.lesson_frames`, or the square grid's
    :func:`laby3d.draw.grid_lesson.grid_frames`, as the format table chooses)."""
    check_language(lang)
    if not 20 <= frame_ms <= 60_000:
        raise ParameterError(f"must be in 20..60000 ms, got {frame_ms}", field="frame_ms")
    images = frames(maze, every=every, lang=lang, width_px=width_px)
    durations = [frame_ms] * len(images)
    durations[0] = durations[-1] = HOLD_MS
    buffer = io.BytesIO()
    images[0].save(buffer, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0)
    return buffer.getvalue()
