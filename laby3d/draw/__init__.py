"""Pictures and documents of a maze: text art, matplotlib pictures, worksheets, the lesson, GIF.

matplotlib's settings (``rcParams``) and font cache are process-wide, and the documents change
settings while they draw; every drawing entry point is therefore :func:`exclusive`, so drawings
made at once in threads (a thread-pool batch) give the same bytes as drawings made one by one,
and draws with matplotlib's defaults whatever the user's ``matplotlibrc`` says
(:mod:`laby3d.draw.style`).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import TypeVar

_DRAWING = threading.RLock()
Drawn = TypeVar("Drawn", bound=Callable[..., bytes])


def exclusive(function: Drawn) -> Drawn:
    """Decorator: ``function`` draws with matplotlib while no other thread does, in laby3d's
    style (:func:`laby3d.draw.style.laby3d_style`)."""
    from laby3d.draw.style import laby3d_style

    @functools.wraps(function)
    def drawn(*args, **kwargs):  # type: ignore[no-untyped-def]
        with _DRAWING, laby3d_style():
            return function(*args, **kwargs)

    return drawn  # type: ignore[return-value]
