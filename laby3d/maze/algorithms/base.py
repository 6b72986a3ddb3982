"""What every generation algorithm provides, and the checked options they take.

An algorithm has one or more *carvers*, keyed by the tessellation kind they take: ``"square"``
for the square grid's own kernels (arithmetic neighbours, the draws that make each seed's square
maze), ``"any"`` for the version that runs on any cell graph (the tessellation's CSR adjacency).
A carver returns a :class:`Carving`: the passages in the order it opened them and, where it
examines walls it then leaves closed (Kruskal), those walls with when it took them, so the lesson
and the exercise's files read the history the carver recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.errors import ParameterError

if TYPE_CHECKING:
    from laby3d.tessellation import CellGraph, Tessellation


@dataclass(frozen=True, eq=False)
class Carving:
    """What a carver did (cell indices of the tessellation)."""

    #: ``(cells − 1, 2)`` int32 neighbour pairs, in the order the walls were opened.
    passages: np.ndarray
    #: ``(m, 2)`` int32 walls taken and left closed because both cells were already joined, in
    #: the order taken (None: the carver takes no wall it does not open).
    rejected: np.ndarray | None = None
    #: ``(m,)`` int32: how many passages were open when each rejected wall was taken.
    rejected_at: np.ndarray | None = None


#: ``carve(tessellation, rng, options) -> Carving``.
Carver = Callable[["Tessellation", np.random.Generator, Mapping[str, Any]], Carving]
#: A square-grid kernel's entry: ``carve(rows, cols, rng, options) -> (rows·cols − 1, 2)`` pairs.
GridCarve = Callable[[int, int, np.random.Generator, Mapping[str, Any]], np.ndarray]
#: A cell-graph kernel's entry: ``carve(graph, rng, options) -> (cells − 1, 2)`` pairs.
GraphCarve = Callable[["CellGraph", np.random.Generator, Mapping[str, Any]], np.ndarray]


def on_grid(carve: GridCarve) -> Carver:
    """The carver of a square-grid kernel that opens every wall it takes."""

    def carver(tessellation: Tessellation, rng: np.random.Generator, options: Mapping[str, Any]) -> Carving:
        return Carving(carve(tessellation.rows, tessellation.cols or 0, rng, options))

    carver.__doc__ = carve.__doc__
    return carver


def on_graph(carve: GraphCarve) -> Carver:
    """The carver of a cell-graph kernel that opens every wall it takes."""

    def carver(tessellation: Tessellation, rng: np.random.Generator, options: Mapping[str, Any]) -> Carving:
        return Carving(carve(tessellation.graph, rng, options))

    carver.__doc__ = carve.__doc__
    return carver


@dataclass(frozen=True)
class Option:
    """One algorithm option: default, help text and a parser that raises on bad values."""

    default: Any
    description: str
    parse: Callable[[str, Any], Any]


@dataclass(frozen=True)
class Algorithm:
    """A registered maze generator: its carvers by tessellation kind (``"square"``, ``"any"``)."""

    name: str
    summary: str
    carvers: Mapping[str, Carver]
    uniform: bool = False
    options: Mapping[str, Option] = field(default_factory=dict)

    def carver_for(self, kind: str) -> Carver | None:
        """The carver for a tessellation of ``kind``: its own, else the one for any cell graph."""
        return self.carvers.get(kind) or self.carvers.get("any")

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults merged with ``given``, each value parsed; unknown names are errors."""
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            allowed = ", ".join(sorted(self.options)) or "none"
            raise ParameterError(f"is not an option of {self.name} (its options: {allowed})", field=unknown[0])
        return {name: option.parse(name, given.get(name, option.default)) for name, option in self.options.items()}


def probability(name: str, value: Any) -> float:
    """Parse a probability in [0, 1] (a number or its text; never a boolean)."""
    if isinstance(value, (bool, np.bool_)):
        raise ParameterError(f"must be a number in [0, 1], got {value!r}", field=name)
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ParameterError(f"must be a number in [0, 1], got {value!r}", field=name) from None
    if not 0.0 <= number <= 1.0:
        raise ParameterError(f"must be in [0, 1], got {value!r}", field=name)
    return number


def cell_neighbour_pairs(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """All east pairs and south pairs of neighbouring cell indices, each ``(k, 2)`` int64."""
    index = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    east = np.stack([index[:, :-1].ravel(), index[:, 1:].ravel()], axis=1)
    south = np.stack([index[:-1, :].ravel(), index[1:, :].ravel()], axis=1)
    return east, south
