"""matplotlib as laby3d draws with it: matplotlib's own defaults, whatever the user's
``matplotlibrc`` (in ``MPLCONFIGDIR``, ``MATPLOTLIBRC`` or the current folder) says, so a user's
line widths, fonts, DPI or colours never change a byte of laby3d's files.

:func:`laby3d_style` is entered by :func:`laby3d.draw.exclusive`, which every drawing entry
point carries; a module sets what it needs on top (``rc_context`` or explicit arguments).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

#: Settings left as they are: which backend draws, and interactive mode, are the process's.
KEPT = ("backend", "backend_fallback", "interactive")


@contextmanager
def laby3d_style() -> Iterator[None]:
    """matplotlib's defaults for the ``with`` block (the user's settings come back after it)."""
    import matplotlib

    current = matplotlib.rcParams
    changed = {
        key: value
        for key, value in matplotlib.rcParamsDefault.items()
        if key not in KEPT and current[key] != value  # only these are set (each setting is validated)
    }
    with matplotlib.rc_context(rc=changed):
        yield
