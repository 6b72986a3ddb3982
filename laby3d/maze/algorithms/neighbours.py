"""Kernel helper: the neighbours of a cell that carry a given flag."""

from __future__ import annotations

import numpy as np

from laby3d.accel import helper


@helper
def gather(cell: int, rows: int, cols: int, flags: np.ndarray, value: int, choices: np.ndarray) -> int:
    """Write the neighbours ``nb`` of ``cell`` with ``flags[nb] == value`` into ``choices``
    (order N, E, S, W) and return how many there are."""
    m = 0
    if cell >= cols and flags[cell - cols] == value:
        choices[m] = cell - cols
        m += 1
    if cell % cols != cols - 1 and flags[cell + 1] == value:
        choices[m] = cell + 1
        m += 1
    if cell < rows * cols - cols and flags[cell + cols] == value:
        choices[m] = cell + cols
        m += 1
    if cell % cols != 0 and flags[cell - 1] == value:
        choices[m] = cell - 1
        m += 1
    return m
