"""Mazes of every shape: every graph-generic algorithm makes perfect, reproducible mazes; the
square-grid-only ones are refused; placement puts the openings on the outline; a square maze's
view through the shared interface is the same maze."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mazecheck import assert_shaped_perfect, assert_shaped_solution, polygon_neighbours, tree_distances

import laby3d
from laby3d.errors import ParameterError
from laby3d.maze.algorithms import ALGORITHMS, GRAPH_ALGORITHMS
from laby3d.maze.grid import wall_lattice
from laby3d.maze.model import Maze
from laby3d.maze.placement import PLACEMENTS
from laby3d.maze.solve import solution_polyline
from laby3d.maze.walls import closed_walls
from laby3d.tessellation import SHAPES

OTHER_SHAPES = [name for name in SHAPES if name != "square"]
GRID_ONLY = sorted(set(ALGORITHMS) - set(GRAPH_ALGORITHMS))


def size_of(shape: str, data: st.DataObject) -> tuple[int, int | None]:
    if shape == "theta":
        return data.draw(st.integers(2, 9)), None
    return data.draw(st.integers(1, 12)), data.draw(st.integers(2, 12))


@pytest.mark.parametrize("algorithm", GRAPH_ALGORITHMS)
@pytest.mark.parametrize("shape", OTHER_SHAPES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**63 - 1))
def test_every_graph_algorithm_is_perfect_and_reproducible(
    shape: str, algorithm: str, data: st.DataObject, seed: int
) -> None:
    rows, cols = size_of(shape, data)
    placement = data.draw(st.sampled_from([p for p in PLACEMENTS if p != "explicit"]))
    maze = laby3d.generate(rows, cols, shape=shape, algorithm=algorithm, seed=seed, placement=placement)
    assert isinstance(maze, Maze)
    assert (maze.shape, maze.rows, maze.cols, maze.seed) == (shape, rows, cols, seed)
    assert_shaped_perfect(maze)
    assert_shaped_solution(maze)
    text = maze.to_json()
    assert (
        laby3d.generate(rows, cols, shape=shape, algorithm=algorithm, seed=seed, placement=placement).to_json() == text
    )
    again = Maze.from_json(text)
    assert again.to_json() == text
    assert np.array_equal(again.open_walls, maze.open_walls)


@pytest.mark.parametrize("algorithm", GRAPH_ALGORITHMS)
@pytest.mark.parametrize(("shape", "rows", "cols"), [("theta", 45, None), ("hex", 70, 90), ("triangle", 60, 100)])
def test_large_maze_is_perfect(shape: str, rows: int, cols: int | None, algorithm: str) -> None:
    """Unreached cells and overflows show up at larger sizes."""
    maze = laby3d.generate(rows, cols, shape=shape, algorithm=algorithm, seed=1)
    assert maze.passage_count == maze.cell_count - 1
    assert len(tree_distances(maze, 0)) == maze.cell_count


@pytest.mark.parametrize("algorithm", GRAPH_ALGORITHMS)
def test_carve_order_is_the_maze(algorithm: str) -> None:
    maze = laby3d.generate(7, shape="theta", algorithm=algorithm, seed=4)
    order = {tuple(sorted(pair)) for pair in maze.carve_order.tolist()}
    assert len(order) == len(maze.carve_order) == maze.cell_count - 1
    assert order == {tuple(pair) for pair in maze.passages.tolist()}


@pytest.mark.parametrize("algorithm", GRAPH_ALGORITHMS)
def test_python_and_compiled_kernels_agree(algorithm: str, monkeypatch: pytest.MonkeyPatch) -> None:
    mazes = []
    for mode in ("never", "always"):
        monkeypatch.setenv("LABY3D_JIT", mode)
        mazes.append(laby3d.generate(6, 7, shape="hex", algorithm=algorithm, seed=99).to_json())
    assert mazes[0] == mazes[1]


@pytest.mark.parametrize("shape", ["square", "hex"])
def test_python_and_compiled_braids_and_routes_agree(shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A braided maze has several shortest routes: both paths braid alike and find the same one."""
    mazes = []
    for mode in ("never", "always"):
        monkeypatch.setenv("LABY3D_JIT", mode)
        mazes.append(laby3d.generate(9, 11, shape=shape, outline="heart", braid=70, seed=5).to_json())
    assert mazes[0] == mazes[1]


@pytest.mark.parametrize("algorithm", GRID_ONLY)
@pytest.mark.parametrize("shape", OTHER_SHAPES)
def test_grid_only_algorithms_are_refused(shape: str, algorithm: str) -> None:
    with pytest.raises(ParameterError) as caught:
        laby3d.generate(5, None if shape == "theta" else 5, shape=shape, algorithm=algorithm)
    assert caught.value.field == "algorithm"
    message = str(caught.value)
    assert algorithm in message and shape in message and all(name in message for name in GRAPH_ALGORITHMS)
    assert "\n" not in message


def test_seed_is_drawn_and_recorded() -> None:
    maze = laby3d.generate(4, 5, shape="triangle")
    assert isinstance(maze.seed, int)
    assert laby3d.generate(4, 5, shape="triangle", seed=maze.seed).to_json() == maze.to_json()


@pytest.mark.parametrize("shape", OTHER_SHAPES)
def test_hardest_is_the_farthest_pair_of_boundary_cells(shape: str) -> None:
    for seed in range(4):
        maze = laby3d.generate(6, None if shape == "theta" else 7, shape=shape, seed=seed, placement="hardest")
        t = maze.tessellation
        boundary = sorted(set(t.boundary_cells.tolist()))
        farthest = max(tree_distances(maze, a)[b] for a in boundary for b in boundary)
        ends = [t.cell_index(o.row, o.col) for o in (maze.entrance, maze.exit)]
        assert tree_distances(maze, ends[0])[ends[1]] == farthest


def test_theta_goes_from_the_centre_to_the_rim() -> None:
    for placement in ("corners", "center"):
        maze = laby3d.generate(6, shape="theta", seed=2, placement=placement)
        assert (maze.entrance.row, maze.entrance.col, maze.entrance.side) == (0, 0, None)
        assert maze.exit.row == 5 and maze.exit.side == "out"
    centre_first = laby3d.generate(6, shape="theta", seed=2, placement="center")
    distances = tree_distances(centre_first, 0)
    rim = [centre_first.tessellation.cell_index(5, col) for col in range(centre_first.tessellation.row_length(5))]
    assert distances[centre_first.cell_of(centre_first.exit)] == max(distances[cell] for cell in rim)


@pytest.mark.parametrize(
    ("shape", "rows", "cols", "entrance", "exit", "field"),
    [
        ("theta", 5, None, "0,0", "4,3,out", None),
        ("theta", 5, None, "0,0", "3,3,out", "exit"),
        ("hex", 4, 5, "0,0,nw", "3,4,E", None),
        ("hex", 4, 5, "1,1,W", "3,4,E", "entrance"),
        ("triangle", 4, 5, "0,0,W", "0,0,W", "exit"),
        ("triangle", 4, 5, "9,0,W", "3,4,E", "entrance"),
    ],
)
def test_explicit_openings(shape, rows, cols, entrance, exit, field) -> None:
    if field is None:
        maze = laby3d.generate(rows, cols, shape=shape, seed=1, placement="explicit", entrance=entrance, exit=exit)
        assert_shaped_perfect(maze)
        assert_shaped_solution(maze)
        return
    with pytest.raises(ParameterError) as caught:
        laby3d.generate(rows, cols, shape=shape, seed=1, placement="explicit", entrance=entrance, exit=exit)
    assert caught.value.field == field


def test_square_maze_through_the_shared_interface() -> None:
    """The view's closed walls are those of laby3d.maze.walls; same solution, statistics, file."""
    maze = laby3d.generate(7, 9, algorithm="wilson", seed=12)
    view = maze
    assert view.shape == maze.shape == "square" and view is view
    walls = closed_walls(view)
    closed = {tuple(sorted(map(tuple, walls.vertices[pair].astype(int).tolist()))) for pair in walls.segments()}
    horizontal, vertical = wall_lattice(maze.grid)
    expected = {((j, i), (j + 1, i)) for i, j in zip(*np.nonzero(horizontal), strict=True)}
    expected |= {((j, i), (j, i + 1)) for i, j in zip(*np.nonzero(vertical), strict=True)}
    assert closed == expected and len(walls.segments()) == len(expected)
    assert view.solution == maze.solution
    assert view.stats() == maze.stats()
    assert view.to_json() == maze.to_json()
    assert polygon_neighbours(view.tessellation) == set(map(tuple, view.tessellation.edges.tolist()))


@pytest.mark.parametrize("shape", OTHER_SHAPES)
def test_closed_walls_are_every_wall_but_the_passages_and_openings(shape: str) -> None:
    maze = laby3d.generate(5, None if shape == "theta" else 6, shape=shape, seed=6, placement="hardest")
    t = maze.tessellation
    walls = closed_walls(maze)
    assert len(walls) == maze.closed_interior_walls + len(t.boundary_cells) - 2
    closed = {tuple(sorted(pair)) for pair in walls.segments().tolist()}
    passages = set()
    for edge in np.flatnonzero(maze.open_walls):
        chain = t.wall_vertices[t.wall_starts[edge] : t.wall_starts[edge + 1]].tolist()
        passages |= {tuple(sorted(pair)) for pair in zip(chain, chain[1:], strict=False)}
    for wall in (maze.boundary_wall_of(maze.entrance), maze.boundary_wall_of(maze.exit)):
        chain = t.boundary_vertices[t.boundary_starts[wall] : t.boundary_starts[wall + 1]].tolist()
        passages |= {tuple(sorted(pair)) for pair in zip(chain, chain[1:], strict=False)}
    every: set = set()
    for cell in range(t.cell_count):
        ring = t.polygon_vertices[t.polygon_starts[cell] : t.polygon_starts[cell + 1]].tolist()
        every |= {tuple(sorted(pair)) for pair in zip(ring, ring[1:] + ring[:1], strict=True)}
    assert closed.isdisjoint(passages) and closed | passages == every
    mm = walls.polylines(scale=10.0)
    assert np.allclose(mm[0], walls.polyline(0) * 10.0)


def test_shaped_mazes_pickle_and_stay_read_only() -> None:
    maze = laby3d.generate(5, 6, shape="hex", seed=3, algorithm="prim")
    again = pickle.loads(pickle.dumps(maze))
    assert again.to_json() == maze.to_json()
    assert np.array_equal(again.carve_order, maze.carve_order)
    for array in (again.open_walls, again.carve_order, again.passages, again.tessellation.vertices):
        assert not array.flags.writeable
    with pytest.raises(TypeError):
        again.options["x"] = 1  # type: ignore[index]


@pytest.mark.parametrize("shape", OTHER_SHAPES)
def test_solution_polyline_goes_through_the_openings(shape: str) -> None:
    maze = laby3d.generate(5, None if shape == "theta" else 6, shape=shape, seed=8, placement="hardest")
    line = solution_polyline(maze)
    t = maze.tessellation
    assert len(line) == 2 * len(maze.solution) + 1
    assert np.allclose(line[0], t.boundary_midpoints[maze.boundary_wall_of(maze.entrance)])
    assert np.allclose(line[-1], t.boundary_midpoints[maze.boundary_wall_of(maze.exit)])
    assert np.allclose(line[1::2], t.centres[maze.solution_cells])


def test_statistics_count_every_cell() -> None:
    for shape in OTHER_SHAPES:
        stats = laby3d.generate(8, None if shape == "theta" else 8, shape=shape, seed=1).stats()
        maze = laby3d.generate(8, None if shape == "theta" else 8, shape=shape, seed=1)
        degree = np.bincount(maze.passages.ravel(), minlength=maze.cell_count)
        assert stats.dead_ends == (degree == 1).sum()
        assert stats.junctions == (degree >= 3).sum()
        assert stats.straights + stats.turns == (degree == 2).sum()
        if shape == "triangle":
            assert stats.straights == 0
        assert stats.longest_path == max(max(tree_distances(maze, c).values()) for c in range(maze.cell_count)) + 1
