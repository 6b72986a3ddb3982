"""Hexagons, ``rows × cols`` in offset rows: pointy-top hexagons, odd rows shifted right by half
a cell ("odd-r"). A rectangular board (rather than a hexagon-shaped one) because it is sized by
the same ``rows`` and ``cols`` as the square grid, fills a rectangular print bed or sheet, and
has ``rows·cols`` cells, so every size rule and limit reads the same.

Cell ``(row, col)`` has index ``row·cols + col``. The cell size is the distance between two
opposite sides (the diameter of the inscribed circle), which is also the distance between the
centres of two neighbours: corridors are ``cell_size − wall_thickness`` wide between facing
walls, as in the square grid. Rows are ``√3/2`` cell sizes apart; a side is ``1/√3`` long.
"""

from __future__ import annotations

import math

import numpy as np

from laby3d.tessellation.base import CellGraph, CellLayout, Shape, frozen, lattice_layout, sorted_pairs

#: Lattice steps (row, col) from a hexagon's centre to its corners, positive order from the top;
#: lattice rows are ``1/(2√3)`` apart and lattice columns ``1/2``.
CORNER_STEPS = np.array([(-2, 0), (-1, 1), (1, 1), (2, 0), (1, -1), (-1, -1)], dtype=np.int64)
SIDE = 1 / math.sqrt(3)


def hex_graph(rows: int, cols: int) -> CellGraph:
    """Neighbours east, and south-west and south-east in the next row."""
    index = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    pairs = [(index[:, :-1], index[:, 1:]), (index[:-1], index[1:])]  # east; below (SE of even, SW of odd rows)
    even, odd = index[0:-1:2], index[1:-1:2]
    pairs.append((even[:, 1:], index[1::2][: len(even), :-1]))  # SW of even rows
    pairs.append((odd[:, :-1], index[2::2][: len(odd), 1:]))  # SE of odd rows
    first = np.concatenate([a.ravel() for a, _ in pairs])
    second = np.concatenate([b.ravel() for _, b in pairs])
    return CellGraph(rows * cols, sorted_pairs(first, second), frozen(np.arange(rows + 1) * cols, np.int64))


def hex_layout(rows: int, cols: int) -> CellLayout:
    """Pointy-top hexagons of unit width."""
    row, col = np.divmod(np.arange(rows * cols, dtype=np.int64), cols)
    centre_keys = np.stack([2 + 3 * row, 2 * col + 1 + (row & 1)], axis=1)
    keys = centre_keys[:, None, :] + CORNER_STEPS[None, :, :]
    centres = np.stack([centre_keys[:, 1] * 0.5, centre_keys[:, 0] * SIDE / 2], axis=1)
    return lattice_layout(keys, (0.5, SIDE / 2), centres)


HEX = Shape(
    name="hex",
    description="hexagons, rows × cols, odd rows shifted by half a cell",
    graph=hex_graph,
    layout=hex_layout,
    side_angles={"E": 0.0, "SE": 60.0, "SW": 120.0, "W": 180.0, "NW": 240.0, "NE": 300.0},
    max_rows=2000,
    max_cols=2000,
)
