"""A planar wall graph as the fewest continuous strokes: any tessellation's walls (lines mode,
:mod:`.lines`).

A connected graph with ``2k`` odd-degree vertices needs at least ``k`` strokes (one when
``k = 0``). Steps: (1) pair the odd vertices of each component by virtual edges, so every
degree is even; (2) walk an Euler circuit of each component (Hierholzer), at every vertex
taking the free wall that turns least from the way the walk arrives (a real wall before a
virtual edge), so strokes follow straight runs and arcs; (3) cut each circuit at its virtual
edges: exactly ``k`` strokes per component, or one closed ring when it had no odd vertex.
"""

from __future__ import annotations

import math

import numpy as np

from laby3d.accel import kernel
from laby3d.unionfind import component_roots

#: The cost of taking a virtual edge, above any turn (π at most): real walls go first.
_VIRTUAL_COST = 10.0


def euler_strokes(vertices: np.ndarray, segments: np.ndarray) -> list[tuple[np.ndarray, bool]]:
    """Strokes drawing every segment of the graph once: ``(vertex ids, closed)``, as many as the
    odd-vertex bound; a closed stroke's ids do not repeat its first one. ``vertices``
    ``(V, 2)`` positions (any unit; only the turning angles are read), ``segments`` ``(S, 2)``."""
    if not len(segments):
        return []
    count = len(vertices)
    first, second = segments[:, 0].astype(np.int64), segments[:, 1].astype(np.int64)
    degree = np.bincount(np.concatenate([first, second]), minlength=count)
    component = component_roots(count, first, second)
    odd = np.flatnonzero(degree % 2 == 1)
    odd = odd[np.argsort(component[odd], kind="stable")]  # pairs stay within a component
    real = len(first)
    first = np.concatenate([first, odd[0::2]])
    second = np.concatenate([second, odd[1::2]])
    delta = vertices[second] - vertices[first]
    angle = np.arctan2(delta[:, 1], delta[:, 0])
    ends = np.concatenate([first, second])
    order = np.argsort(ends, kind="stable")
    offsets = np.concatenate([[0], np.cumsum(np.bincount(ends, minlength=count))])
    incident = np.concatenate([np.arange(len(first)), np.arange(len(first))])[order]
    walk_edge, walk_from, starts = _circuits(count, first, second, angle, real, offsets, incident, cells=len(first))
    strokes: list[tuple[np.ndarray, bool]] = []
    for c in range(len(starts) - 1):
        # recorded backwards: reversed, each edge runs towards its recorded vertex
        edges = walk_edge[starts[c] : starts[c + 1]][::-1]
        tos = walk_from[starts[c] : starts[c + 1]][::-1]
        froms = np.where(first[edges] == tos, second[edges], first[edges])
        virtual = edges >= real
        if not virtual.any():
            strokes.append((froms, True))
            continue
        shift = int(np.flatnonzero(virtual)[0]) + 1  # start right after a virtual edge
        edges, froms, tos, virtual = (np.roll(a, -shift) for a in (edges, froms, tos, virtual))
        cuts = np.flatnonzero(virtual)
        begin = 0
        for cut in cuts:
            if cut > begin:
                strokes.append((np.concatenate([froms[begin:cut], tos[cut - 1 : cut]]), False))
            begin = cut + 1
    return strokes


@kernel(python_ns=4_000)
def _circuits(
    vertex_count: int,
    first: np.ndarray,
    second: np.ndarray,
    angle: np.ndarray,
    real: int,
    offsets: np.ndarray,
    incident: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hierholzer's circuits of an even graph: edges in walk order (each circuit backwards), the
    vertex each edge was walked from (seen backwards), and where each circuit starts. At a
    vertex the walk takes the free edge turning least from its heading (``angle[e]`` is edge
    ``e``'s direction from ``first`` to ``second``; edges from ``real`` on are virtual and come
    last); ties: the first in ``incident`` order."""
    edges = first.shape[0]
    used = np.zeros(edges, dtype=np.bool_)
    stack_vertex = np.empty(edges + 1, dtype=np.int64)
    stack_edge = np.empty(edges + 1, dtype=np.int64)
    stack_heading = np.empty(edges + 1, dtype=np.float64)
    walk_edge = np.empty(edges, dtype=np.int64)
    walk_from = np.empty(edges, dtype=np.int64)
    circuit_start = np.empty(edges + 1, dtype=np.int64)
    circuits = 0
    k = 0
    for start in range(vertex_count):
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
        stack_heading[0] = math.nan
        while top >= 0:
            vertex = stack_vertex[top]
            heading = stack_heading[top]
            chosen = -1
            best = 0.0
            for slot in range(offsets[vertex], offsets[vertex + 1]):
                edge = incident[slot]
                if used[edge]:
                    continue
                outward = angle[edge] if first[edge] == vertex else angle[edge] + math.pi
                if edge >= real:
                    cost = _VIRTUAL_COST
                elif math.isnan(heading):
                    cost = 0.0
                else:
                    cost = abs((outward - heading + math.pi) % (2 * math.pi) - math.pi)
                if chosen < 0 or cost < best:
                    chosen = edge
                    best = cost
            if chosen >= 0:
                used[chosen] = True
                forward = first[chosen] == vertex
                top += 1
                stack_vertex[top] = second[chosen] if forward else first[chosen]
                stack_edge[top] = chosen
                stack_heading[top] = angle[chosen] if forward else angle[chosen] + math.pi
            else:
                if stack_edge[top] >= 0:
                    walk_edge[k] = stack_edge[top]
                    walk_from[k] = stack_vertex[top]
                    k += 1
                top -= 1
    circuit_start[circuits] = k
    return walk_edge[:k], walk_from[:k], circuit_start[: circuits + 1]
