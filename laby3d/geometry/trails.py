"""Closed walls as few continuous pen/laser strokes as possible (lines mode).

The closed walls form a graph on the lattice points. A connected graph with ``2k`` odd-degree
points needs at least ``k`` strokes (one when ``k = 0``); pairing the odd points by virtual
edges makes every degree even, an Euler circuit then walks every wall exactly once, and
cutting it at the virtual edges gives exactly that minimum. The walk prefers to go straight
on, so most strokes follow whole wall runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from laby3d.accel import kernel
from laby3d.maze.grid import wall_lattice
from laby3d.unionfind import component_roots

if TYPE_CHECKING:
    from laby3d.maze.model import Maze

# direction of an edge walked from its first to its second point: 0 east, 1 south, 2 west, 3 north


@kernel
def _circuits(
    vertex_count: int,
    first: np.ndarray,
    second: np.ndarray,
    direction: np.ndarray,
    offsets: np.ndarray,
    incident: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    edges = first.shape[0]
    used = np.zeros(edges, dtype=np.bool_)
    stack_vertex = np.empty(edges + 1, dtype=np.int64)
    stack_edge = np.empty(edges + 1, dtype=np.int64)
    stack_heading = np.empty(edges + 1, dtype=np.int64)
    walk_edge = np.empty(edges, dtype=np.int64)  # edges in walk order (per circuit, reversed)
    walk_from = np.empty(edges, dtype=np.int64)
    circuit_start = np.empty(edges + 1, dtype=np.int64)
    circuits = 0
    k = 0
    for start in range(vertex_count):
        if offsets[start] == offsets[start + 1]:
            continue
        free = False
        for slot in range(offsets[start], offsets[start + 1]):
            if not used[incident[slot]]:
                free = True
        if not free:
            continue
        circuit_start[circuits] = k
        circuits += 1
        top = 0
        stack_vertex[0] = start
        stack_edge[0] = -1
        stack_heading[0] = -1
        while top >= 0:
            vertex = stack_vertex[top]
            heading = stack_heading[top]
            chosen = -1
            for slot in range(offsets[vertex], offsets[vertex + 1]):
                edge = incident[slot]
                if used[edge]:
                    continue
                outward = direction[edge] if first[edge] == vertex else (direction[edge] + 2) % 4
                if chosen < 0 or outward == heading:
                    chosen = edge
                    if outward == heading:
                        break
            if chosen >= 0:
                used[chosen] = True
                other = second[chosen] if first[chosen] == vertex else first[chosen]
                top += 1
                stack_vertex[top] = other
                stack_edge[top] = chosen
                stack_heading[top] = direction[chosen] if first[chosen] == vertex else (direction[chosen] + 2) % 4
            else:
                if stack_edge[top] >= 0:
                    walk_edge[k] = stack_edge[top]
                    walk_from[k] = stack_vertex[top]  # walked backwards: from the deeper vertex
                    k += 1
                top -= 1
    circuit_start[circuits] = k
    return walk_edge[:k], walk_from[:k], circuit_start[: circuits + 1]


def wall_graph(maze: Maze) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Closed walls as lattice edges: first and second point ids (``i·(cols+1) + j``), direction."""
    horizontal, vertical = wall_lattice(maze.grid)
    width = maze.grid.cols + 1
    i, j = np.nonzero(horizontal)
    h_first = i * width + j
    i, j = np.nonzero(vertical)
    v_first = i * width + j
    first = np.concatenate([h_first, v_first])
    second = np.concatenate([h_first + 1, v_first + width])
    direction = np.concatenate([np.zeros(len(h_first), np.int64), np.ones(len(v_first), np.int64)])
    return first.astype(np.int64), second.astype(np.int64), direction


def odd_point_bound(maze: Maze) -> int:
    """The least number of strokes that can draw every closed wall once."""
    first, second, _ = wall_graph(maze)
    count = (maze.grid.rows + 1) * (maze.grid.cols + 1)
    degree = np.bincount(np.concatenate([first, second]), minlength=count)
    component = component_roots(count, first, second)
    touched = degree > 0
    total = 0
    for label in np.unique(component[touched]):
        odd = int(((degree % 2 == 1) & (component == label)).sum())
        total += max(1, odd // 2)
    return total


def wall_strokes(maze: Maze) -> list[np.ndarray]:
    """Strokes drawing every closed wall exactly once: lattice ``(i, j)`` points, ``(k, 2)`` int,
    with straight-through points dropped. As many strokes as :func:`odd_point_bound`."""
    first, second, direction = wall_graph(maze)
    width = maze.grid.cols + 1
    count = (maze.grid.rows + 1) * width
    degree = np.bincount(np.concatenate([first, second]), minlength=count)
    component = component_roots(count, first, second)
    odd = np.flatnonzero(degree % 2 == 1)
    odd = odd[np.argsort(component[odd], kind="stable")]  # pairs stay within a component
    real = len(first)
    first = np.concatenate([first, odd[0::2]])
    second = np.concatenate([second, odd[1::2]])
    direction = np.concatenate([direction, np.full(len(odd) // 2, -9, np.int64)])  # never "straight on"
    ends = np.concatenate([first, second])
    order = np.argsort(ends, kind="stable")
    offsets = np.concatenate([[0], np.cumsum(np.bincount(ends, minlength=count))])
    incident = np.concatenate([np.arange(len(first)), np.arange(len(first))])[order]
    walk_edge, walk_from, starts = _circuits(count, first, second, direction, offsets, incident, cells=len(first))
    strokes: list[np.ndarray] = []
    for c in range(len(starts) - 1):
        # The circuit was recorded backwards: reversed, each edge runs towards its recorded point.
        edges = walk_edge[starts[c] : starts[c + 1]][::-1]
        tos = walk_from[starts[c] : starts[c + 1]][::-1]
        froms = np.where(first[edges] == tos, second[edges], first[edges])
        virtual = edges >= real
        if virtual.any():  # rotate so the circuit starts right after a virtual edge
            shift = int(np.flatnonzero(virtual)[0]) + 1
            edges, froms, tos, virtual = (np.roll(a, -shift) for a in (edges, froms, tos, virtual))
        piece = np.cumsum(virtual)  # stroke number of every position; virtual edges end strokes
        heads = np.flatnonzero(~virtual & np.concatenate([[True], virtual[:-1]]))
        real_at = np.flatnonzero(~virtual)
        # points: the start of each stroke, then the end of each of its edges, in walk order
        order = np.argsort(np.concatenate([2 * heads, 2 * real_at + 1]), kind="stable")
        points = np.concatenate([froms[heads], tos[real_at]])[order]
        owners = np.concatenate([piece[heads], piece[real_at]])[order]
        strokes.extend(_split_strokes(np.stack([points // width, points % width], axis=1), owners))
    return strokes


def _split_strokes(points: np.ndarray, owners: np.ndarray) -> list[np.ndarray]:
    """Split a point sequence where ``owners`` changes, dropping straight-through points."""
    same_before = np.concatenate([[False], owners[1:] == owners[:-1]])
    same_after = np.concatenate([owners[:-1] == owners[1:], [False]])
    step_in = np.diff(points, axis=0, prepend=points[:1])
    step_out = np.diff(points, axis=0, append=points[-1:])
    straight = same_before & same_after & (step_in == step_out).all(axis=1)
    kept, kept_owner = points[~straight], owners[~straight]
    cuts = np.flatnonzero(kept_owner[1:] != kept_owner[:-1]) + 1
    return np.split(kept, cuts)
