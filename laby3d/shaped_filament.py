"""The filament and the slicer's work for the solid of a theta, hex or triangle maze: what
:func:`laby3d.filament.print_work` finds for a square maze's raster, found here from the plan's
polygons (:class:`laby3d.mesh.shaped_solid.ShapedSolid`).

The same model: the solid is a height field over the plan; every slab between two heights has
one cross-section, whose outline (exact, from the polygons' edges) the perimeters follow; sparse
infill is found on a grid of :func:`laby3d.filament.grid_step` mm (the plan's polygons filled
by their edges, even-odd, at the grid's centres) by :func:`laby3d.filament.sparse_volume`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from laby3d.filament import PrintWork, SlicerSettings, grid_step, label_perimeter, layer_count, sparse_volume

if TYPE_CHECKING:
    from laby3d.mesh.planar import Region
    from laby3d.mesh.shaped_solid import ShapedSolid


def shaped_print_work(
    solid: ShapedSolid, settings: SlicerSettings | None = None, *, volume: float | None = None
) -> PrintWork:
    """The perimeters, infill and layers of ``solid`` sliced with ``settings`` (default: typical;
    ``volume``: the body's, mm³, when already measured)."""
    settings = settings or SlicerSettings()
    points, regions, heights = solid.regions
    plan = solid.plan
    step = grid_step(plan.width, plan.depth)
    sparse = sparse_volume(height_grid(points, regions, heights, plan.width, plan.depth, step), step, settings)
    levels = np.unique([0.0, *(heights[region.label] for region in regions if region.label in heights)])
    lengths = outline_lengths(points, regions, heights, levels[1:])
    perimeter = sum(
        (high - low) / settings.layer_height * settings.perimeters * length
        for low, high, length in zip(levels[:-1], levels[1:], lengths, strict=True)
    )
    line_area = settings.layer_height * (settings.extrusion_width - settings.layer_height * (1 - math.pi / 4))
    volume = solid.body.volume() if volume is None else volume
    return PrintWork(
        filament_mm3=volume - (1 - settings.infill) * sparse,
        perimeter_mm=float(perimeter),
        solid_infill_mm3=max(0.0, volume - sparse - perimeter * line_area),
        sparse_infill_mm3=settings.infill * sparse,
        layers=layer_count(solid.fab.height, settings),
        label_perimeter_mm=label_perimeter(solid, settings),
    )


def height_grid(
    points: np.ndarray, regions: list[Region], heights: dict[int, float], width: float, depth: float, step: float
) -> np.ndarray:
    """``(ny, nx)`` top height (mm) at the centres of a grid of ``step`` mm over the plate
    ``width`` × ``depth`` (0 outside every region)."""
    xs = np.arange(step / 2, width, step)
    ys = np.arange(step / 2, depth, step)
    grid = np.zeros((len(ys), len(xs)))
    for region in regions:
        if region.label in heights:
            rings = [ring for polygon in region.polygons for ring in polygon]
            grid[_filled(points, rings, xs, ys)] = heights[region.label]
    return grid


def _filled(points: np.ndarray, rings: list[np.ndarray], xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """``(len(ys), len(xs))`` bool: the grid centres inside the rings (even-odd rule): each edge
    crossing a row of centres flips the row from there on."""
    start = np.concatenate([points[ring] for ring in rings])
    end = np.concatenate([points[np.roll(ring, -1)] for ring in rings])
    low, high = np.minimum(start[:, 1], end[:, 1]), np.maximum(start[:, 1], end[:, 1])
    first = np.searchsorted(ys, low, side="left")  # rows with low <= y < high
    last = np.searchsorted(ys, high, side="left")
    counts = last - first
    edge = np.repeat(np.arange(len(start)), counts)
    row = np.repeat(first, counts) + np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    share = (ys[row] - start[edge, 1]) / (end[edge, 1] - start[edge, 1])
    x = start[edge, 0] + share * (end[edge, 0] - start[edge, 0])
    column = np.searchsorted(xs, x, side="left")  # centres at or right of the crossing
    flips = np.zeros((len(ys), len(xs) + 1), dtype=np.int64)
    np.add.at(flips, (row, column), 1)
    return (np.cumsum(flips, axis=1)[:, :-1] % 2).astype(bool)


def outline_lengths(
    points: np.ndarray, regions: list[Region], heights: dict[int, float], levels: np.ndarray
) -> list[float]:
    """Length (mm) of the outline of the cross-section at each of ``levels`` (what stands at
    least that high): the edges between a region that high and one lower (or the outside)."""
    starts, ends, tops = [], [], []
    for region in regions:
        for polygon in region.polygons:
            for ring in polygon:
                starts.append(ring)
                ends.append(np.roll(ring, -1))
                tops.append(np.full(len(ring), heights.get(region.label, 0.0)))
    start, end, top = np.concatenate(starts), np.concatenate(ends), np.concatenate(tops)
    n = len(points)
    keys = start * n + end
    order = np.argsort(keys)
    found = np.minimum(np.searchsorted(keys[order], end * n + start), len(keys) - 1)
    beyond = np.where(keys[order][found] == end * n + start, top[order][found], 0.0)
    length = np.hypot(*(points[end] - points[start]).T)
    return [float(length[(top >= level - 1e-9) & (beyond < level - 1e-9)].sum()) for level in levels]
