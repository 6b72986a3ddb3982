"""Reading laby3d's SVG back as a laser program would: page, layers, subpaths (own parser)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import deque

import numpy as np
import shapely

from laby3d.geometry.params import Fabrication
from laby3d.maze.model import Maze
from laby3d.maze.sides import SIDE_BITS

SVG = "{http://www.w3.org/2000/svg}"
#: LightBurn's colour palette (its documentation's RGB table): C00–C29 are output layers, every one
#: of them sent to the laser when enabled; T1 and T2 are the tool layers that never output.
LIGHTBURN_OUTPUT = (
    "#000000 #0000ff #ff0000 #00e000 #d0d000 #ff8000 #00e0e0 #ff00ff #b4b4b4 #0000a0 "
    "#a00000 #00a000 #a0a000 #c08000 #00a0ff #a000a0 #808080 #7d87b9 #bb7784 #4a6fe3 "
    "#d33f6a #8cd78c #f0b98d #f6c4e1 #fa9ed4 #500a78 #b45a00 #004754 #86fa88 #ffdb66"
).split()
LIGHTBURN_TOOLS = ("#f36926", "#0c96d9")
INKSCAPE = "{http://www.inkscape.org/namespaces/inkscape}"


def parse_svg(data: bytes) -> dict:
    """Page size, layer order (by id), each layer's subpaths as ((k, 2) points in mm, closed),
    its stroke colour, and which layers are hidden."""
    root = ET.fromstring(data)
    width, height = (float(root.get(k).removesuffix("mm")) for k in ("width", "height"))
    assert root.get("width").endswith("mm") and root.get("height").endswith("mm")
    view = [float(v) for v in root.get("viewBox").split()]
    assert not [e for e in root.iter() if e.get("transform")], "no transforms"
    layers: dict[str, list[tuple[np.ndarray, bool]]] = {}
    colours: dict[str, str] = {}
    order, hidden = [], []
    for group in root.findall(f"{SVG}g"):
        assert group.get(f"{INKSCAPE}groupmode") == "layer"
        name = group.get("id")
        order.append(name)
        if "display:none" in (group.get("style") or ""):
            hidden.append(name)
        for element in group:
            assert element.get("fill") == "none"
            colour = element.get("stroke")
            assert colours.setdefault(name, colour) == colour, f"one colour per layer ({name})"
        for path in group.iter(f"{SVG}path"):
            layers.setdefault(name, []).extend(subpaths(path.get("d")))
    text = [e for e in root.iter() if e.tag == f"{SVG}text"]
    return {
        "width": width,
        "height": height,
        "viewBox": view,
        "layers": layers,
        "colours": colours,
        "order": order,
        "ids": order,
        "hidden": hidden,
        "text": text,
    }


def greedy_travel(strokes: list[tuple[np.ndarray, bool]], head: np.ndarray | None = None) -> float:
    """Rapid travel of the greedy nearest-neighbour order from ``head`` ((0, 0) when None), mm:
    always go to the closest free stroke end (either end of an open stroke, any point of a
    closed one). Brute force over all candidate points: independent of laby3d's own ordering
    code."""
    points = np.concatenate([p if closed else p[[0, -1]] for p, closed in strokes])
    owner = np.concatenate([np.full(len(p) if closed else 2, k) for k, (p, closed) in enumerate(strokes)])
    index = np.concatenate([np.arange(len(p)) if closed else np.array([0, 1]) for p, closed in strokes])
    free = np.ones(len(points), dtype=bool)
    head = np.zeros(2) if head is None else np.asarray(head, dtype=float)
    total = 0.0
    for _ in range(len(strokes)):
        distance = np.where(free, np.hypot(points[:, 0] - head[0], points[:, 1] - head[1]), np.inf)
        best = int(np.argmin(distance))
        total += float(distance[best])
        stroke, closed = strokes[owner[best]]
        free[owner == owner[best]] = False
        head = stroke[index[best]] if closed else (stroke[-1] if index[best] == 0 else stroke[0])
    return total


def subpaths(d: str) -> list[tuple[np.ndarray, bool]]:
    """``M x,y L x,y … [Z]`` subpaths of a path ``d`` (the only commands laby3d writes)."""
    result = []
    for chunk in re.findall(r"M[^M]*", d):
        closed = chunk.rstrip().endswith("Z")
        numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", chunk)]
        result.append((np.array(numbers).reshape(-1, 2), closed))
    return result


def unit_segments(points: np.ndarray, unit: float) -> list[tuple]:
    """A polyline cut into grid steps of ``unit`` (axis-aligned segments only)."""
    steps = []
    for a, b in zip(points[:-1], points[1:], strict=True):
        delta = b - a
        assert (np.abs(delta) > 1e-9).sum() == 1, f"segment {a}->{b} is not axis-aligned or has zero length"
        count = round(np.abs(delta).sum() / unit)
        assert abs(np.abs(delta).sum() - count * unit) < 1e-6
        for k in range(count):
            p, q = a + delta * k / count, a + delta * (k + 1) / count
            steps.append(tuple(sorted([tuple(np.round(p, 6)), tuple(np.round(q, 6))])))
    return steps


def closed_walls_and_bound(maze: Maze) -> tuple[int, int]:
    """Closed wall segments (border included) and the least number of strokes for them, computed
    from the cell bits alone: half the odd-degree lattice points per connected wall piece."""
    rows, cols = maze.rows, maze.cols
    edges = []
    for r in range(rows):
        for c in range(cols):
            bits = int(maze.grid.cells[r, c])
            if not bits & SIDE_BITS["N"]:
                edges.append(((r, c), (r, c + 1)))
            if not bits & SIDE_BITS["W"]:
                edges.append(((r, c), (r + 1, c)))
            if c == cols - 1 and not bits & SIDE_BITS["E"]:
                edges.append(((r, c + 1), (r + 1, c + 1)))
            if r == rows - 1 and not bits & SIDE_BITS["S"]:
                edges.append(((r + 1, c), (r + 1, c + 1)))
    neighbours: dict = {}
    for a, b in edges:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    seen: set = set()
    bound = 0
    for start in neighbours:
        if start in seen:
            continue
        piece, queue = [], deque([start])
        seen.add(start)
        while queue:
            point = queue.popleft()
            piece.append(point)
            for other in neighbours[point]:
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
        odd = sum(len(neighbours[p]) % 2 for p in piece)
        bound += max(1, odd // 2)
    return len(edges), bound


def footprint_from_boxes(maze: Maze, fab: Fabrication) -> shapely.Geometry:
    """The canonical footprint by brute force: union of a post per lattice point and a box per wall."""
    t, s = fab.wall_thickness, fab.cell_size
    offset = fab.margin + t / 2
    boxes = []
    for i in range(maze.rows + 1):
        for j in range(maze.cols + 1):
            x, y = offset + j * s, offset + (maze.rows - i) * s
            boxes.append(shapely.box(x - t / 2, y - t / 2, x + t / 2, y + t / 2))
    for r in range(maze.rows):
        for c in range(maze.cols):
            bits = int(maze.grid.cells[r, c])
            x, y = offset + c * s, offset + (maze.rows - r) * s
            if not bits & SIDE_BITS["N"]:
                boxes.append(shapely.box(x, y - t / 2, x + s, y + t / 2))
            if not bits & SIDE_BITS["W"]:
                boxes.append(shapely.box(x - t / 2, y - s, x + t / 2, y))
            if c == maze.cols - 1 and not bits & SIDE_BITS["E"]:
                boxes.append(shapely.box(x + s - t / 2, y - s, x + s + t / 2, y))
            if r == maze.rows - 1 and not bits & SIDE_BITS["S"]:
                boxes.append(shapely.box(x, y - s - t / 2, x + s, y - s + t / 2))
    return shapely.union_all(boxes)


def signed_area(points: np.ndarray) -> float:
    x, y = points[:, 0], points[:, 1]
    return float((x * np.roll(y, -1) - np.roll(x, -1) * y).sum() / 2)
