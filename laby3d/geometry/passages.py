"""The narrowest gap between two walls of a maze of each shape, mm: what a ball must pass, the
walk-through's walker and the laser kit's ball are sized by, and what a solid's walls must leave.

The walls are centre lines ``wall_thickness`` wide on the tessellation (docs/shapes.md), so the
gap follows from the cell size, the wall thickness and, for theta, the number of rings.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication

#: Narrowest passage laby3d makes, mm (below it the walls merge into one another).
MIN_PASSAGE = 0.4

#: Passage widths of the boards of rows and columns, mm, as ``a·cell_size − b·wall_thickness``
#: (see :func:`narrowest_passage`).
PASSAGES = {
    "square": (1.0, 1.0),
    "triangle": (1.0, 1.0),
    "hex": (1 / math.sqrt(3), (1 + math.sqrt(3)) / 2),
}


def narrowest_passage(shape: str, fab: Fabrication, rows: int = 2) -> float:
    """The narrowest gap between walls a ball must pass, mm (``rows``: a theta maze's rings).

    Square and triangle mazes: the corridor, ``cell_size − wall_thickness``. Hexagons: a
    hexagon's side is ``cell_size/√3``, and where two dead ends' square caps face each other
    across it the passage is ``cell_size/√3 − (1 + √3)/2 · wall_thickness`` (3.6 mm at 10 and
    1.6 mm, where the corridor is 8.4). Theta: the doorway between two radial walls of ring k
    (n cells), at the inner face of the arcs beside it, where the walls' faces converge:
    ``2·(√(r² − (t/2)²)·sin(π/n) − t/2·cos(π/n))`` with ``r = k·cell − t/2`` less the arcs'
    chord error; the centre's doorways are the narrowest (7.7 mm at 10 and 1.6 mm).
    tests/test_shaped_solid.py rolls balls through mazes to check each.
    """
    cell, wall = fab.cell_size, fab.wall_thickness
    corridor = cell - wall
    if shape != "theta":
        across, walls = PASSAGES[shape]
        return round(min(corridor, across * cell - walls * wall), 9)
    from laby3d.tessellation.theta import CHORD_ERROR, ring_sizes

    ring = np.arange(1, max(rows, 2))
    angle = np.pi / ring_sizes(max(rows, 2))[1:]
    radius = np.maximum(ring * cell - CHORD_ERROR * cell - wall / 2, wall / 2)
    doorways = 2 * (np.sqrt(radius**2 - (wall / 2) ** 2) * np.sin(angle) - wall / 2 * np.cos(angle))
    return round(float(min(corridor - CHORD_ERROR * cell, doorways.min())), 9)
