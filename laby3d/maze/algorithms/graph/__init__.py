"""The generators that work on any cell graph (``laby3d.tessellation``): one module each, the
same steps as the square kernels, over the graph's CSR adjacency. Square mazes keep the square
kernels; these make the mazes of every other shape."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from laby3d.maze.algorithms.graph import (
    aldous_broder,
    backtracker,
    growing_tree,
    hunt_and_kill,
    kruskal,
    prim,
    wilson,
)
from laby3d.tessellation.base import CellGraph

#: ``carve(graph, rng, options) -> (cells − 1, 2)`` int32 cell-index pairs, in opening order.
GraphCarver = Callable[[CellGraph, np.random.Generator, Mapping[str, Any]], np.ndarray]

#: Algorithm name → its graph version.
GRAPH_CARVERS: dict[str, GraphCarver] = {
    "kruskal": kruskal.carve,
    "backtracker": backtracker.carve,
    "growing_tree": growing_tree.carve,
    "wilson": wilson.carve,
    "aldous_broder": aldous_broder.carve,
    "prim": prim.carve,
    "hunt_and_kill": hunt_and_kill.carve,
}

__all__ = ["GRAPH_CARVERS", "GraphCarver"]
