"""Triangles, ``rows × cols``: each row alternates up- and down-pointing equilateral triangles,
cell ``(row, col)`` pointing up when ``row + col`` is even. Index ``row·cols + col``.

The cell size is the diameter of a triangle's inscribed circle, which is also the distance
between the centres (incentres) of two neighbours, so a ball that rolls through a square maze of
the same cell size and wall thickness fits in every cell. A side is ``√3`` cell sizes long and a
row ``1.5`` cell sizes high. Sides: a horizontal one (``S`` of an up triangle, ``N`` of a down
one) and two slanted ones (``E`` and ``W``). At least two columns: in a single column, every
down triangle meets the up triangle below it at one point only.
"""

from __future__ import annotations

import math

import numpy as np

from laby3d.tessellation.base import CellGraph, CellLayout, Shape, frozen, lattice_layout, sorted_pairs

ROW_HEIGHT = 1.5
#: Horizontal distance between lattice columns (half a side).
HALF_SIDE = math.sqrt(3) / 2


def triangle_graph(rows: int, cols: int) -> CellGraph:
    """Neighbours along each row, and an up triangle over the down triangle below it."""
    index = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    row, col = np.divmod(index[:-1], cols)
    up = (row + col) % 2 == 0
    first = np.concatenate([index[:, :-1].ravel(), index[:-1][up]])
    second = np.concatenate([index[:, 1:].ravel(), index[1:][up]])
    return CellGraph(rows * cols, sorted_pairs(first, second), frozen(np.arange(rows + 1) * cols, np.int64))


def triangle_layout(rows: int, cols: int) -> CellLayout:
    """Equilateral triangles of inscribed diameter 1 on a lattice of rows 1.5 apart and columns
    √3/2 apart; corners in positive order from the apex (up) or the top-left corner (down)."""
    row, col = np.divmod(np.arange(rows * cols, dtype=np.int64), cols)
    up = ((row + col) % 2 == 0)[:, None]
    up_keys = np.stack([np.stack([row, col + 1], 1), np.stack([row + 1, col + 2], 1), np.stack([row + 1, col], 1)], 1)
    down_keys = np.stack([np.stack([row, col], 1), np.stack([row, col + 2], 1), np.stack([row + 1, col + 1], 1)], 1)
    keys = np.where(up[:, :, None], up_keys, down_keys)
    centre_y = row * ROW_HEIGHT + np.where(up[:, 0], 1.0, 0.5)
    centres = np.stack([(col + 1) * HALF_SIDE, centre_y], axis=1)
    return lattice_layout(keys, (HALF_SIDE, ROW_HEIGHT), centres)


TRIANGLE = Shape(
    name="triangle",
    description="triangles, rows × cols, alternately pointing up and down",
    graph=triangle_graph,
    layout=triangle_layout,
    side_angles={"E": 0.0, "S": 90.0, "W": 180.0, "N": 270.0},
    max_rows=2000,
    min_cols=2,  # a single column of triangles touches only at corners
    max_cols=2000,
)
