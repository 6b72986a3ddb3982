"""The registry of maze generation algorithms, filled from an explicit list of modules.

It is also the one carver registry: each algorithm's carvers are keyed by the tessellation kind
they take (``"square"``: the square grid's kernels, which make each seed's square maze; ``"any"``:
any cell graph), and :func:`carver_for` is the one place that picks a carver for a maze.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from laby3d.errors import ParameterError
from laby3d.maze.algorithms import (
    aldous_broder,
    backtracker,
    binary_tree,
    eller,
    growing_tree,
    hunt_and_kill,
    kruskal,
    prim,
    recursive_division,
    sidewinder,
    wilson,
)
from laby3d.maze.algorithms.base import Algorithm, Carver, Carving
from laby3d.quoting import shown

if TYPE_CHECKING:
    from laby3d.tessellation import Tessellation

ALGORITHMS: dict[str, Algorithm] = {
    module.ALGORITHM.name: module.ALGORITHM
    for module in (
        kruskal,
        backtracker,
        growing_tree,
        wilson,
        aldous_broder,
        prim,
        eller,
        hunt_and_kill,
        sidewinder,
        binary_tree,
        recursive_division,
    )
}
#: The algorithms that run on any cell graph (every shape), in the registry's order.
GRAPH_ALGORITHMS: tuple[str, ...] = tuple(name for name, found in ALGORITHMS.items() if "any" in found.carvers)


def get_algorithm(name: str) -> Algorithm:
    """The registered algorithm called ``name``; raises :class:`ParameterError` otherwise."""
    try:
        return ALGORITHMS[name]
    except (KeyError, TypeError):
        raise ParameterError(f"must be one of {', '.join(ALGORITHMS)}, got {shown(name)}", field="algorithm") from None


def check_algorithm(name: str, kind: str) -> Algorithm:
    """The algorithm ``name`` when it can carve a tessellation of ``kind``; raises
    :class:`ParameterError` (on ``algorithm``) for an unknown name or a square-grid-only one."""
    algorithm = get_algorithm(name)
    if algorithm.carver_for(kind) is None:
        raise _square_only(name, kind)
    return algorithm


def carver_for(name: str, tessellation: Tessellation) -> Carver:
    """The carver of algorithm ``name`` for ``tessellation`` (its kind's own, else any graph's)."""
    carver = get_algorithm(name).carver_for(tessellation.kind)
    if carver is None:
        raise _square_only(name, tessellation.kind)
    return carver


def _square_only(name: str, kind: str) -> ParameterError:
    return ParameterError(
        f"{name} works on the square grid only, not on {kind} mazes; for {kind} use one of "
        f"{', '.join(GRAPH_ALGORITHMS)}",
        field="algorithm",
    )


__all__ = [
    "ALGORITHMS",
    "GRAPH_ALGORITHMS",
    "Algorithm",
    "Carver",
    "Carving",
    "carver_for",
    "check_algorithm",
    "get_algorithm",
]
