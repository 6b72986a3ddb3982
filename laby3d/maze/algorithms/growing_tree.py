"""Growing tree: a bag of active cells and a pick policy.

1. Put a random cell in the bag.
2. Pick a cell from the bag by the policy: ``newest`` (a stack: the backtracker), ``oldest``
   (a queue), ``random`` (Prim-like), ``max`` (the largest cell index), or a weighted mix
   such as ``newest:0.75,random:0.25``.
3. Open the wall to a random unvisited neighbour and add it to the bag; if there is none,
   remove the picked cell. Stop when the bag is empty.

The bag keeps insertion order (a linked list), an array for uniform picks (swap-remove) and a
lazy max-heap, so every pick is O(1) or O(log n).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.accel import helper, kernel
from laby3d.errors import ParameterError
from laby3d.maze.algorithms.base import Algorithm, Option, on_graph, on_grid
from laby3d.maze.algorithms.csr import gather_csr
from laby3d.maze.algorithms.neighbours import gather
from laby3d.quoting import shown

if TYPE_CHECKING:
    from laby3d.tessellation import CellGraph

POLICIES = ("newest", "oldest", "random", "max")
UNVISITED, IN_BAG, DONE = 0, 1, 2
# bag[0] size, bag[1] head (oldest), bag[2] tail (newest), bag[3] heap size


@helper
def _bag_add(
    cell: int,
    status: np.ndarray,
    bag: np.ndarray,
    members: np.ndarray,
    slot: np.ndarray,
    before: np.ndarray,
    after: np.ndarray,
    heap: np.ndarray,
) -> None:
    status[cell] = IN_BAG
    members[bag[0]] = cell
    slot[cell] = bag[0]
    bag[0] += 1
    before[cell] = bag[2]
    after[cell] = -1
    if bag[2] >= 0:
        after[bag[2]] = cell
    else:
        bag[1] = cell
    bag[2] = cell
    i = bag[3]  # heap push, sift up
    bag[3] += 1
    heap[i] = cell
    while i > 0 and heap[(i - 1) // 2] < heap[i]:
        parent = (i - 1) // 2
        heap[i], heap[parent] = heap[parent], heap[i]
        i = parent


@helper
def _bag_remove(
    cell: int,
    status: np.ndarray,
    bag: np.ndarray,
    members: np.ndarray,
    slot: np.ndarray,
    before: np.ndarray,
    after: np.ndarray,
) -> None:
    status[cell] = DONE
    bag[0] -= 1
    last = members[bag[0]]
    members[slot[cell]] = last
    slot[last] = slot[cell]
    if before[cell] >= 0:
        after[before[cell]] = after[cell]
    else:
        bag[1] = after[cell]
    if after[cell] >= 0:
        before[after[cell]] = before[cell]
    else:
        bag[2] = before[cell]


@helper
def _heap_max(status: np.ndarray, bag: np.ndarray, heap: np.ndarray) -> int:
    while status[heap[0]] != IN_BAG:  # pop cells that left the bag, sift down
        bag[3] -= 1
        heap[0] = heap[bag[3]]
        i = 0
        while True:
            largest = i
            for child in (2 * i + 1, 2 * i + 2):
                if child < bag[3] and heap[child] > heap[largest]:
                    largest = child
            if largest == i:
                break
            heap[i], heap[largest] = heap[largest], heap[i]
            i = largest
    return heap[0]


@kernel(python_ns=26_000)  # ns per cell as Python: bench/bench_jit.py
def _grid_growing_tree(rows: int, cols: int, draws: np.ndarray, cumulative: np.ndarray) -> np.ndarray:
    n = rows * cols
    status = np.zeros(n, dtype=np.uint8)
    bag = np.array([0, -1, -1, 0], dtype=np.int64)
    members = np.empty(n, dtype=np.int32)
    slot = np.empty(n, dtype=np.int32)
    before = np.empty(n, dtype=np.int32)
    after = np.empty(n, dtype=np.int32)
    heap = np.empty(n, dtype=np.int32)
    choices = np.empty(4, dtype=np.int32)
    out = np.empty((n - 1, 2), dtype=np.int32)
    _bag_add(int(draws[0] * n), status, bag, members, slot, before, after, heap)
    d = 1
    k = 0
    while bag[0] > 0:
        u = draws[d]
        if u < cumulative[0]:
            cell = bag[2]
        elif u < cumulative[1]:
            cell = bag[1]
        elif u < cumulative[2]:
            share = (u - cumulative[1]) / (cumulative[2] - cumulative[1])
            cell = members[min(int(share * bag[0]), bag[0] - 1)]
        else:
            cell = _heap_max(status, bag, heap)
        m = gather(cell, rows, cols, status, UNVISITED, choices)
        if m == 0:
            _bag_remove(cell, status, bag, members, slot, before, after)
        else:
            nxt = choices[int(draws[d + 1] * m)]
            out[k, 0] = cell
            out[k, 1] = nxt
            k += 1
            _bag_add(nxt, status, bag, members, slot, before, after, heap)
        d += 2
    return out


def parse_policy(name: str, value: Any) -> tuple[tuple[str, float], ...]:
    """Parse ``newest`` or ``newest:0.75,random:0.25`` into normalised (policy, weight) pairs.

    >>> parse_policy("policy", "newest:3,random:1")
    (('newest', 0.75), ('random', 0.25))
    """
    text = str(value).replace(" ", "")
    weights: dict[str, float] = {}
    for part in filter(None, text.split(",")):
        policy, _, weight = part.partition(":")
        if policy not in POLICIES:
            raise ParameterError(f"must name policies among {', '.join(POLICIES)}, got {shown(policy)}", field=name)
        try:
            number = float(weight) if weight else 1.0
        except ValueError:
            raise ParameterError(f"weight of {policy!r} must be a number, got {shown(weight)}", field=name) from None
        if not 0 < number < math.inf:
            raise ParameterError(f"weight of {policy!r} must be a finite number > 0, got {shown(weight)}", field=name)
        weights[policy] = weights.get(policy, 0.0) + number
    if not weights:
        raise ParameterError(f"must name at least one of {', '.join(POLICIES)}, got {shown(value)}", field=name)
    largest = max(weights.values())
    if not math.isfinite(largest):  # two huge weights of one policy added up
        raise ParameterError(f"weights must add up to a finite number, got {shown(value)}", field=name)
    scaled = {policy: weight / largest for policy, weight in weights.items()}  # no overflow when added
    total = math.fsum(scaled.values())
    shares = {policy: scaled[policy] / total for policy in POLICIES if policy in scaled}
    for policy, share in shares.items():
        if share == 0:  # underflow: the maze file would say 0, which no reader takes
            raise ParameterError(
                f"weight of {policy!r} ({weights[policy]:g}) is too small next to {largest:g}: its share is 0",
                field=name,
            )
    return tuple(shares.items())


def policy_thresholds(options: Mapping[str, Any]) -> np.ndarray:
    """Cumulative weights of the parsed ``policy`` option, in :data:`POLICIES` order; a draw
    below the first picks the newest cell, and so on (the last is 2: every draw < 1 picks one)."""
    weights = dict(options["policy"])
    cumulative = np.cumsum([weights.get(policy, 0.0) for policy in POLICIES])
    cumulative[-1] = 2.0
    return cumulative


def carve_grid(rows: int, cols: int, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a growing-tree maze, in opening order."""
    draws = rng.random(4 * rows * cols + 1)
    return _grid_growing_tree(rows, cols, draws, policy_thresholds(options), cells=rows * cols)


@kernel(python_ns=65_000)  # ns per cell as Python (bench/bench_shapes.py; on the square kernels' scale)
def _graph_growing_tree(
    indptr: np.ndarray, neighbours: np.ndarray, draws: np.ndarray, cumulative: np.ndarray, max_degree: int
) -> np.ndarray:
    n = indptr.shape[0] - 1
    status = np.zeros(n, dtype=np.uint8)
    bag = np.array([0, -1, -1, 0], dtype=np.int64)
    members = np.empty(n, dtype=np.int32)
    slot = np.empty(n, dtype=np.int32)
    before = np.empty(n, dtype=np.int32)
    after = np.empty(n, dtype=np.int32)
    heap = np.empty(n, dtype=np.int32)
    choices = np.empty(max(max_degree, 1), dtype=np.int32)
    out = np.empty((n - 1, 2), dtype=np.int32)
    _bag_add(int(draws[0] * n), status, bag, members, slot, before, after, heap)
    d = 1
    k = 0
    while bag[0] > 0:
        u = draws[d]
        if u < cumulative[0]:
            cell = bag[2]
        elif u < cumulative[1]:
            cell = bag[1]
        elif u < cumulative[2]:
            share = (u - cumulative[1]) / (cumulative[2] - cumulative[1])
            cell = members[min(int(share * bag[0]), bag[0] - 1)]
        else:
            cell = _heap_max(status, bag, heap)
        m = gather_csr(cell, indptr, neighbours, status, UNVISITED, choices)
        if m == 0:
            _bag_remove(cell, status, bag, members, slot, before, after)
        else:
            nxt = choices[int(draws[d + 1] * m)]
            out[k, 0] = cell
            out[k, 1] = nxt
            k += 1
            _bag_add(nxt, status, bag, members, slot, before, after, heap)
        d += 2
    return out


def carve_graph(graph: CellGraph, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a growing-tree maze on ``graph``, in opening order."""
    indptr, neighbours, _ = graph.adjacency
    n = graph.cell_count
    draws = rng.random(4 * n + 1)
    return _graph_growing_tree(indptr, neighbours, draws, policy_thresholds(options), graph.max_degree, cells=n)


ALGORITHM = Algorithm(
    "growing_tree",
    "bag of active cells picked newest/oldest/random/max or a weighted mix",
    {"square": on_grid(carve_grid), "any": on_graph(carve_graph)},
    options={
        "policy": Option(
            "newest:0.5,random:0.5",
            "pick policy: newest, oldest, random, max, or weighted mix like newest:0.75,random:0.25",
            parse_policy,
        )
    },
)
