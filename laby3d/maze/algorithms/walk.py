"""Shared driver for the random-walk kernels (Aldous–Broder, Wilson).

A walk consumes an unbounded number of random steps, so the kernel takes them in chunks of
pre-drawn directions (0 = N, 1 = E, 2 = S, 3 = W; off-grid steps are redrawn, which keeps the
walk uniform over the existing neighbours) and returns False when it needs more.
"""

from __future__ import annotations

import numpy as np

from laby3d.accel import Kernel, helper


@helper
def step_to(cell: int, step: int, rows: int, cols: int) -> int:
    """The neighbour of ``cell`` in direction ``step`` (0 N, 1 E, 2 S, 3 W), or −1 off the grid."""
    if step == 0:
        return cell - cols if cell >= cols else -1
    if step == 1:
        return cell + 1 if cell % cols != cols - 1 else -1
    if step == 2:
        return cell + cols if cell < rows * cols - cols else -1
    return cell - 1 if cell % cols != 0 else -1


def run_walk(
    walk: Kernel,
    rows: int,
    cols: int,
    rng: np.random.Generator,
    state: np.ndarray,
    flags: np.ndarray,
    *extra: np.ndarray,
) -> np.ndarray:
    """Feed ``walk`` chunks of random directions until it reports completion; return passages."""
    n = rows * cols
    out = np.empty((n - 1, 2), dtype=np.int32)
    chunk = max(4096, 8 * n)
    while not walk(rows, cols, rng.integers(0, 4, size=chunk, dtype=np.uint8), state, flags, out, *extra, cells=n):
        pass
    return out
