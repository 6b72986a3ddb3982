"""Optional just-in-time compilation of the kernels with numba, chosen by measured cost.

A kernel is a plain Python function over numpy arrays and pre-drawn random numbers. It runs as
Python unless compiling pays: each kernel declares what it costs as Python per unit of work
(``python_ns``, nanoseconds per cell, measured by ``bench/bench_jit.py``), and the compiled path
is taken when the Python run would take longer than numba's start-up in this process (importing
numba, if not yet imported, plus loading the kernel from the on-disk cache). So a 100×100
maze never pays numba's import, and a 1000×1000 one always runs compiled. Both paths give the
same result for the same inputs (tested).

``LABY3D_JIT=always`` or ``never`` overrides the rule (used by the tests to compare paths).
"""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Callable
from typing import Any, overload

#: Importing numba in a fresh process, s (bench/bench_jit.py: 0.5–0.7 s on this 2-core machine).
NUMBA_IMPORT_S = 0.6
#: Loading one compiled kernel from numba's on-disk cache, s (bench/bench_jit.py: 0.1–0.3 s).
KERNEL_LOAD_S = 0.2
#: Python cost of a kernel that has not been measured, ns per cell (compiles from about 10,000 cells).
DEFAULT_PYTHON_NS = 80_000


class Kernel:
    """A function that runs as Python where that is faster and compiled where it is not."""

    def __init__(self, function: Callable[..., Any], python_ns: float) -> None:
        self.function = function
        self.python_ns = python_ns
        self.__doc__ = function.__doc__
        self._compiled: Callable[..., Any] | None = None

    def compiles_for(self, cells: int) -> bool:
        """Whether a run over ``cells`` cells takes the compiled path: ``LABY3D_JIT`` when set,
        else when the Python run would outlast numba's start-up (nothing to start once loaded)."""
        mode = os.environ.get("LABY3D_JIT", "auto")
        if mode in ("never", "always"):
            return mode == "always"
        if self._compiled is not None:
            return True
        start_up = KERNEL_LOAD_S + (0.0 if "numba" in sys.modules else NUMBA_IMPORT_S)
        return cells * self.python_ns * 1e-9 > start_up

    def __call__(self, *args: Any, cells: int) -> Any:
        """Run the kernel; ``cells`` (the size of the work) chooses Python or compiled code."""
        if not self.compiles_for(cells):
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


@overload
def kernel(function: Callable[..., Any], *, python_ns: float = DEFAULT_PYTHON_NS) -> Kernel: ...
@overload
def kernel(*, python_ns: float = DEFAULT_PYTHON_NS) -> Callable[[Callable[..., Any]], Kernel]: ...


def kernel(function: Callable[..., Any] | None = None, *, python_ns: float = DEFAULT_PYTHON_NS) -> Any:
    """Decorator: make ``function`` a :class:`Kernel` (``@kernel`` or ``@kernel(python_ns=…)``)."""
    if function is None:
        return lambda inner: Kernel(inner, python_ns)
    return Kernel(function, python_ns)


def helper(function: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator: a plain function that kernels may call (compiled along with them)."""
    function._laby3d_helper = True  # type: ignore[attr-defined]
    return function
