"""The kerf test comb: slots drawn for a range of kerfs, to find the one that fits snugly, mm.

Slot ``i`` is drawn ``thickness − kerf_i`` wide between its cut lines; cut with the machine's
real kerf ``K`` it comes out ``thickness − kerf_i + K`` wide, so the slot where a strip of the
same material fits snugly names ``K``. Each slot's kerf is engraved under it.
"""

from __future__ import annotations

import numpy as np
import shapely

from laby3d.geometry.laser.options import Material
from laby3d.geometry.laser.parts import Part, text_marks
from laby3d.geometry.text import text_outlines

#: Kerf steps around the nominal kerf, mm.
KERF_STEP = 0.05
#: Slots on each side of the nominal kerf.
SLOTS_EACH_SIDE = 3
SLOT_DEPTH = 15.0
TEXT_HEIGHT = 3.0


def comb_kerfs(kerf: float) -> list[float]:
    """The kerfs the comb tests: the nominal one and :data:`SLOTS_EACH_SIDE` steps either side
    (never below 0), mm."""
    steps = np.arange(-SLOTS_EACH_SIDE, SLOTS_EACH_SIDE + 1) * KERF_STEP + kerf
    return [round(float(k), 3) for k in steps if k >= -1e-9]


def kerf_comb(material: Material, kerf: float) -> Part:
    """A comb whose slots are drawn for :func:`comb_kerfs` (open at the top edge), y up."""
    kerfs = comb_kerfs(kerf)
    pitch = max(material.thickness + 8.0, 14.0)
    width = pitch * len(kerfs)
    height = SLOT_DEPTH + TEXT_HEIGHT + 8.0
    slots = []
    marks = []
    for k, value in enumerate(kerfs):
        centre = pitch * (k + 0.5)
        half = (material.thickness - value) / 2
        slots.append(shapely.box(centre - half, height - SLOT_DEPTH, centre + half, height + 1.0))
        rings = text_outlines(f"{value:.2f}", TEXT_HEIGHT)
        text_width = max(float(ring[:, 0].max()) for ring in rings)
        marks.extend(text_marks(rings, centre - text_width / 2, 3.0))
    shape = shapely.box(0, 0, width, height).difference(shapely.union_all(slots))
    return Part(name="kerf test", material=material, shape=shape, box=(0.0, 0.0, width, height), marks=tuple(marks))
