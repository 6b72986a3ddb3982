"""Straightforward plain-Python maze generators (lists, no numpy), the benchmark's yardstick."""

from __future__ import annotations

import random  # noqa: TID251 - local random.Random(seed) instances only


def _neighbours(cell: int, rows: int, cols: int) -> list[int]:
    r, c = divmod(cell, cols)
    out = []
    if r > 0:
        out.append(cell - cols)
    if c < cols - 1:
        out.append(cell + 1)
    if r < rows - 1:
        out.append(cell + cols)
    if c > 0:
        out.append(cell - 1)
    return out


def kruskal(rows: int, cols: int, seed: int) -> list[tuple[int, int]]:
    """Union-find Kruskal over a shuffled wall list."""
    rng = random.Random(seed)
    walls = [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
    walls += [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)]
    rng.shuffle(walls)
    parent = list(range(rows * cols))
    size = [1] * (rows * cols)

    def find(x: int) -> int:
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    passages = []
    for a, b in walls:
        ra, rb = find(a), find(b)
        if ra != rb:
            if size[ra] < size[rb]:
                ra, rb = rb, ra
            parent[rb] = ra
            size[ra] += size[rb]
            passages.append((a, b))
    return passages


def backtracker(rows: int, cols: int, seed: int) -> list[tuple[int, int]]:
    """Iterative recursive backtracker."""
    rng = random.Random(seed)
    visited = [False] * (rows * cols)
    stack = [0]
    visited[0] = True
    passages = []
    while stack:
        cell = stack[-1]
        options = [n for n in _neighbours(cell, rows, cols) if not visited[n]]
        if not options:
            stack.pop()
            continue
        nxt = rng.choice(options)
        visited[nxt] = True
        passages.append((cell, nxt))
        stack.append(nxt)
    return passages


def wilson(rows: int, cols: int, seed: int) -> list[tuple[int, int]]:
    """Loop-erased random walks with last-exit pointers."""
    rng = random.Random(seed)
    n = rows * cols
    in_tree = [False] * n
    in_tree[0] = True
    exit_to = [0] * n
    passages = []
    for start in range(n):
        cell = start
        while not in_tree[cell]:
            exit_to[cell] = rng.choice(_neighbours(cell, rows, cols))
            cell = exit_to[cell]
        cell = start
        while not in_tree[cell]:
            in_tree[cell] = True
            passages.append((cell, exit_to[cell]))
            cell = exit_to[cell]
    return passages


REFERENCES = {"kruskal": kruskal, "backtracker": backtracker, "wilson": wilson}
