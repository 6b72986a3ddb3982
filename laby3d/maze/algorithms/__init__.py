"""The registry of maze generation algorithms, filled from an explicit list of modules."""

from __future__ import annotations

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
from laby3d.maze.algorithms.base import Algorithm
from laby3d.maze.algorithms.graph import GRAPH_CARVERS, GraphCarver

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


def get_algorithm(name: str) -> Algorithm:
    """The registered algorithm called ``name``; raises :class:`ParameterError` otherwise."""
    try:
        return ALGORITHMS[name]
    except KeyError:
        raise ParameterError(f"must be one of {', '.join(ALGORITHMS)}, got {name!r}", field="algorithm") from None


def graph_carver(name: str, shape: str) -> GraphCarver:
    """The version of algorithm ``name`` that runs on any cell graph, for a ``shape`` maze; raises
    :class:`ParameterError` (on ``algorithm``) for an unknown name or a square-grid-only one."""
    get_algorithm(name)
    if name not in GRAPH_CARVERS:
        raise ParameterError(
            f"{name} works on the square grid only, not on {shape} mazes; for {shape} use one of "
            f"{', '.join(GRAPH_CARVERS)}",
            field="algorithm",
        )
    return GRAPH_CARVERS[name]


__all__ = ["ALGORITHMS", "GRAPH_CARVERS", "Algorithm", "GraphCarver", "get_algorithm", "graph_carver"]
