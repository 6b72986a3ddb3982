"""Every seed keeps its maze: a table of mazes made before the one-model change (every algorithm
× shape × size up to 150×150, hardest placement and the other policies on a sample) as
(passages, entrance, exit), checked against today's ``laby3d.generate``.

The passages are read from the maze file with a reader written here (the version-1 bit masks
decoded by hand, the version-2 pairs as listed), not from laby3d's model, so a change of model
cannot hide a changed maze. ``tests/golden/seed_table.json`` holds a SHA-256 of the sorted
passages per maze (the passages themselves for mazes of at most 30 cells) and the openings;
``pytest tests/test_seed_table.py --update-golden`` rewrites it (only on purpose: a new
algorithm or size; a changed maze is a broken promise to every class that printed one).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import laby3d

TABLE = Path(__file__).parent / "golden" / "seed_table.json"
SQUARE_ALGORITHMS = (
    "kruskal",
    "backtracker",
    "growing_tree",
    "wilson",
    "aldous_broder",
    "prim",
    "eller",
    "hunt_and_kill",
    "sidewinder",
    "binary_tree",
    "recursive_division",
)
GRAPH_ALGORITHMS = ("kruskal", "backtracker", "growing_tree", "wilson", "aldous_broder", "prim", "hunt_and_kill")
SIZES = {
    "square": [(1, 1), (1, 6), (6, 1), (2, 3), (7, 9), (31, 17), (150, 150)],
    "hex": [(1, 2), (2, 3), (7, 9), (31, 17), (150, 150)],
    "triangle": [(1, 2), (2, 3), (7, 9), (31, 17), (150, 150)],
    "theta": [(2, None), (5, None), (20, None), (60, None)],
}
#: Algorithm options that change the maze (each with every shape that takes the algorithm).
OPTIONS = [
    ("growing_tree", {"policy": "oldest"}),
    ("growing_tree", {"policy": "newest:0.5,random:0.5"}),
    ("sidewinder", {"bias": 0.3}),
    ("binary_tree", {"bias": 0.8}),
]
OTHER_PLACEMENTS = ("corners", "opposite-sides", "center")


def cases() -> list[tuple[str, str, int, int | None, int, str, dict]]:
    """(shape, algorithm, rows, cols, seed, placement, options) of every maze in the table."""
    found = []
    for shape, sizes in SIZES.items():
        algorithms = SQUARE_ALGORITHMS if shape == "square" else GRAPH_ALGORITHMS
        for algorithm in algorithms:
            for rows, cols in sizes:
                for seed in (0, 7) if rows * (cols or rows) <= 400 else (3,):
                    found.append((shape, algorithm, rows, cols, seed, "hardest", {}))
            for placement in OTHER_PLACEMENTS:
                rows, cols = sizes[min(4, len(sizes) - 1) - 1]
                found.append((shape, algorithm, rows, cols, 5, placement, {}))
        for algorithm, options in OPTIONS:
            if algorithm in algorithms:
                rows, cols = sizes[-2]
                found.append((shape, algorithm, rows, cols, 11, "hardest", options))
    return found


def key(shape: str, algorithm: str, rows: int, cols: int | None, seed: int, placement: str, options: dict) -> str:
    size = f"{rows}" if cols is None else f"{rows}x{cols}"
    extra = "".join(f" {name}={value}" for name, value in options.items())
    return f"{shape} {algorithm} {size} seed {seed} {placement}{extra}"


def passages_of(data: dict) -> list[list[int]]:
    """Sorted ``[a, b]`` cell-index pairs of the open interior walls of a parsed maze file."""
    if data["version"] == 1:  # bit masks N=1 E=2 S=4 W=8, cell index row·cols + col
        cols = data["cols"]
        pairs = []
        for r, row in enumerate(data["cells"]):
            for c, mask in enumerate(row):
                if mask & 2 and c + 1 < cols:
                    pairs.append([r * cols + c, r * cols + c + 1])
                if mask & 4 and r + 1 < len(data["cells"]):
                    pairs.append([r * cols + c, (r + 1) * cols + c])
        return sorted(pairs)
    return sorted([sorted(pair) for pair in data["passages"]])


def entry(maze_file: str) -> dict:
    """What the table keeps of one maze: its passages (or their digest) and openings."""
    data = json.loads(maze_file)
    passages = passages_of(data)
    text = json.dumps(passages, separators=(",", ":"))
    found: dict = {"passage_count": len(passages), "sha256": hashlib.sha256(text.encode()).hexdigest()}
    if len(passages) < 30:
        found["passages"] = passages
    for name in ("entrance", "exit"):
        opening = data[name]
        found[name] = None if opening is None else [opening["row"], opening["col"], opening["side"]]
    return found


def made(case: tuple) -> dict:
    shape, algorithm, rows, cols, seed, placement, options = case
    maze = laby3d.generate(rows, cols, shape=shape, algorithm=algorithm, seed=seed, placement=placement, **options)
    return entry(maze.to_json())


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@pytest.mark.parametrize("shape", list(SIZES))
def test_every_seed_keeps_its_maze(shape: str, request: pytest.FixtureRequest) -> None:
    """Every maze of the table is made again, passage for passage, with its entrance and exit."""
    table = {key(*case): made(case) for case in cases() if case[0] == shape}
    stored = json.loads(TABLE.read_text(encoding="utf-8")) if TABLE.exists() else {}
    if request.config.getoption("--update-golden"):
        stored = {name: value for name, value in stored.items() if not name.startswith(f"{shape} ")} | table
        TABLE.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return
    expected = {name: value for name, value in stored.items() if name.startswith(f"{shape} ")}
    assert sorted(table) == sorted(expected), "the table's cases changed: rewrite it with --update-golden on purpose"
    changed = [name for name in expected if table[name] != expected[name]]
    assert not changed, f"{len(changed)} of {len(expected)} seeds give another maze, e.g. {changed[:5]}"


def test_reader_decodes_bit_masks() -> None:
    """The table's own reader, on a maze drawn by hand: 2×2, a U-shaped tree."""
    data = {"version": 1, "rows": 2, "cols": 2, "cells": [[4, 4], [3, 9]], "entrance": None, "exit": None}
    assert passages_of(data) == [[0, 2], [1, 3], [2, 3]]
