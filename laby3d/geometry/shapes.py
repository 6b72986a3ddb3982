"""Shapely polygons as plain point loops, oriented the way the meshers and sheets expect."""

from __future__ import annotations

import numpy as np
import shapely


def polygon_loops(geometry: shapely.Geometry) -> list[list[np.ndarray]]:
    """Every polygon of ``geometry`` as ``[exterior, *holes]``: ``(k, 2)`` points (mm) without the
    closing repeat, exteriors counter-clockwise and holes clockwise (y up)."""
    oriented = shapely.orient_polygons(geometry)
    return [
        [np.asarray(polygon.exterior.coords)[:-1], *(np.asarray(hole.coords)[:-1] for hole in polygon.interiors)]
        for polygon in getattr(oriented, "geoms", [oriented])
    ]
