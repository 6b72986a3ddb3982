"""Optional just-in-time compilation of the maze kernels with numba.

A kernel is a plain Python function over numpy arrays and pre-drawn random numbers. Small
mazes run it as Python (no compiler start-up: ``laby3d generate`` for a 20×20 maze stays well
under half a second); large mazes run the same function compiled by numba (cached on disk), so
both paths give the same result for the same inputs.

``LABY3D_JIT=always`` or ``never`` overrides the size rule (used by the tests to compare paths).
"""

from __future__ import annotations

import os
import types
from collections.abc import Callable
from typing import Any

#: Mazes with at least this many cells use the compiled kernels.
JIT_MIN_CELLS = 10_000


class Kernel:
    """A function that runs as Python for small inputs and compiled for large ones."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.__doc__ = function.__doc__
        self._compiled: Callable[..., Any] | None = None

    def __call__(self, *args: Any, cells: int) -> Any:
        """Run the kernel; ``cells`` (the maze size) chooses Python or compiled code."""
        mode = os.environ.get("LABY3D_JIT", "auto")
        if mode == "never" or (mode != "always" and cells < JIT_MIN_CELLS):
            return self.function(*args)
        if self._compiled is None:
            self._compiled = _compile(self.function)
        return self._compiled(*args)


def _compile(function: Callable[..., Any]) -> Callable[..., Any]:
    """numba-compile ``function``, with the :func:`helper` functions it calls compiled too."""
    import numba

    names = function.__code__.co_names
    helpers = {
        name: numba.njit(cache=True)(value)
        for name, value in function.__globals__.items()
        if name in names and getattr(value, "_laby3d_helper", False)
    }
    if helpers:
        function = types.FunctionType(function.__code__, {**function.__globals__, **helpers}, function.__name__)
    return numba.njit(cache=True, nogil=True)(function)


def kernel(function: Callable[..., Any]) -> Kernel:
    """Decorator: make ``function`` a :class:`Kernel`."""
    return Kernel(function)


def helper(function: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator: a plain function that kernels may call (compiled along with them)."""
    function._laby3d_helper = True  # type: ignore[attr-defined]
    return function
