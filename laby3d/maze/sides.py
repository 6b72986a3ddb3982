"""The four sides of a cell, in one table: bit in the open-side mask, step to the neighbour,
the opposite side. Everything that needs a side's direction reads it here.

Rows grow downwards and columns to the right, so a side's step ``(row_step, col_step)`` is also
its outward direction in picture coordinates (x right, y down).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

Side = Literal["N", "E", "S", "W"]


@dataclass(frozen=True, kw_only=True)
class SideInfo:
    """One side of a cell."""

    name: Side
    bit: int  # in a cell's open-side mask
    row_step: int  # to the neighbour across this side
    col_step: int
    opposite: Side


SIDES: dict[Side, SideInfo] = {
    info.name: info
    for info in (
        SideInfo(name="N", bit=1, row_step=-1, col_step=0, opposite="S"),
        SideInfo(name="E", bit=2, row_step=0, col_step=1, opposite="W"),
        SideInfo(name="S", bit=4, row_step=1, col_step=0, opposite="N"),
        SideInfo(name="W", bit=8, row_step=0, col_step=-1, opposite="E"),
    )
}
#: Bit of each side in a cell's open-side mask.
SIDE_BITS: dict[str, int] = {name: info.bit for name, info in SIDES.items()}
#: The side table as arrays for kernels: bits, row steps and column steps, in N, E, S, W order.
BITS = np.array([info.bit for info in SIDES.values()], dtype=np.int64)
ROW_STEPS = np.array([info.row_step for info in SIDES.values()], dtype=np.int64)
COL_STEPS = np.array([info.col_step for info in SIDES.values()], dtype=np.int64)


def outward(side: Side) -> tuple[int, int]:
    """``(x, y)`` direction out of a cell through ``side``, picture coordinates (y down).

    >>> outward("N"), outward("E")
    ((0, -1), (1, 0))
    """
    info = SIDES[side]
    return info.col_step, info.row_step
