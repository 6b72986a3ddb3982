"""Solver, distance map and statistics."""

from __future__ import annotations

import numpy as np
import pytest
from mazecheck import distances, open_neighbours

import laby3d
from laby3d.maze.placement import PLACEMENTS


def test_distance_map_is_a_bfs_layering() -> None:
    maze = laby3d.generate(15, 11, algorithm="wilson", seed=2)
    distance = laby3d.distance_map(maze)
    assert distance[0, 0] == 0
    for r in range(15):
        for c in range(11):
            if distance[r, c] > 0:
                assert min(distance[n] for n in open_neighbours(maze, r, c)) == distance[r, c] - 1


@pytest.mark.parametrize("algorithm", ["kruskal", "backtracker", "binary_tree"])
def test_stats_match_an_independent_count(algorithm: str) -> None:
    """Each cell classified from its open neighbours (not from the bit masks' popcount), and the
    longest path found by brute force over every cell as a start."""
    maze = laby3d.generate(9, 11, algorithm=algorithm, seed=11)
    kinds = {"dead": 0, "junction": 0, "straight": 0, "turn": 0}
    for r in range(maze.rows):
        for c in range(maze.cols):
            near = open_neighbours(maze, r, c)
            if len(near) == 1:
                kinds["dead"] += 1
            elif len(near) >= 3:
                kinds["junction"] += 1
            elif near[0][0] == near[1][0] or near[0][1] == near[1][1]:
                kinds["straight"] += 1
            else:
                kinds["turn"] += 1
    stats = maze.stats()
    assert (stats.dead_ends, stats.junctions, stats.straights, stats.turns) == (
        kinds["dead"],
        kinds["junction"],
        kinds["straight"],
        kinds["turn"],
    )
    cells = [(r, c) for r in range(maze.rows) for c in range(maze.cols)]
    assert stats.longest_path == max(max(distances(maze, cell).values()) for cell in cells) + 1
    entrance, exit_ = (maze.entrance.row, maze.entrance.col), (maze.exit.row, maze.exit.col)
    assert stats.solution_length == distances(maze, entrance)[exit_] + 1


def test_growing_tree_policies_span_the_dead_end_range() -> None:
    """Newest-first is the backtracker (about 10% dead ends); random-first is Prim-like (about 27%).

    Oldest-first, with the picked cell kept in the bag until it is exhausted, grows a
    breadth-first tree with long straight spokes and few dead ends (about 7%).
    """

    def dead_ends(policy: str) -> float:
        mazes = [laby3d.generate(30, 30, algorithm="growing_tree", policy=policy, seed=s) for s in range(5)]
        return float(np.mean([m.stats().dead_end_percent for m in mazes]))

    assert 8 < dead_ends("newest") < 13
    assert 23 < dead_ends("random") < 32
    assert dead_ends("oldest") < 10


@pytest.mark.parametrize("placement", [p for p in PLACEMENTS if p != "explicit"])
def test_placements_give_a_solvable_maze(placement: str) -> None:
    maze = laby3d.generate(9, 13, placement=placement, seed=4)
    assert maze.solution[0] == (maze.entrance.row, maze.entrance.col)
    assert maze.solution[-1] == (maze.exit.row, maze.exit.col)


def test_hardest_placement_spans_the_farthest_border_cells() -> None:
    maze = laby3d.generate(12, 12, placement="hardest", seed=9)
    for other in ("corners", "opposite-sides"):
        assert len(maze.solution) >= len(laby3d.generate(12, 12, placement=other, seed=9).solution)


def test_explicit_placement() -> None:
    maze = laby3d.generate(5, 5, placement="explicit", entrance="0,2,N", exit="4,2,S", seed=1)
    assert (maze.entrance.side, maze.exit.side) == ("N", "S")
    assert maze.solution[0] == (0, 2) and maze.solution[-1] == (4, 2)
