"""What every generation algorithm provides, and the checked options they take."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from laby3d.errors import ParameterError

#: ``carve(rows, cols, rng, options) -> (rows·cols − 1, 2)`` int cell-index pairs, in opening order.
Carver = Callable[[int, int, np.random.Generator, Mapping[str, Any]], np.ndarray]


@dataclass(frozen=True)
class Option:
    """One algorithm option: default, help text and a parser that raises on bad values."""

    default: Any
    description: str
    parse: Callable[[str, Any], Any]


@dataclass(frozen=True)
class Algorithm:
    """A registered maze generator."""

    name: str
    summary: str
    carve: Carver
    uniform: bool = False
    options: Mapping[str, Option] = field(default_factory=dict)

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
