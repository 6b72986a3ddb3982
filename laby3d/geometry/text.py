"""Text as outlines (mm), from the DejaVu Sans font that ships with matplotlib: no font is
needed where the file is used, and laser programs never see a ``<text>`` element."""

from __future__ import annotations

import numpy as np


def text_outlines(text: str, height: float) -> list[np.ndarray]:
    """Closed rings ``(k, 2)`` in mm (y up) of ``text`` with capital height about ``height``,
    lower-left corner at (0, 0)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    path = TextPath((0, 0), text, size=height / 0.73, prop=FontProperties(family="DejaVu Sans"))
    rings = [np.asarray(ring, dtype=float) for ring in path.to_polygons(closed_only=True)]
    rings = [ring for ring in rings if len(ring) >= 4]
    if not rings:
        return []
    low = np.min([ring.min(axis=0) for ring in rings], axis=0)
    return [ring[:-1] - low for ring in rings]
