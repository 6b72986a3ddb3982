"""Pictures: golden ASCII art, matplotlib files and the generation GIF."""

from __future__ import annotations

import io

import numpy as np
import pytest

import laby3d
from laby3d.draw.animation import generation_gif
from laby3d.draw.pictures import maze_picture
from laby3d.maze.observe import partial_maze, zone_numbers

GOLDEN_MAZES = [("kruskal", 6, 10, 1), ("backtracker", 5, 8, 7), ("wilson", 4, 4, 42)]


@pytest.mark.parametrize(("algorithm", "rows", "cols", "seed"), GOLDEN_MAZES)
def test_ascii_golden(golden, algorithm: str, rows: int, cols: int, seed: int) -> None:
    maze = laby3d.generate(rows, cols, algorithm=algorithm, seed=seed)
    text = maze.to_ascii() + "\n" + maze.to_ascii(solution=True) + "\n" + maze.to_ascii(charset="ascii")
    golden(f"ascii_{algorithm}_{rows}x{cols}_seed{seed}.txt", text)


def test_ascii_draws_every_closed_wall() -> None:
    """Horizontal wall characters under each cell match the maze's closed south walls."""
    maze = laby3d.generate(7, 9, seed=2)
    lines = maze.to_ascii().splitlines()
    assert len(lines) == 2 * 7 + 1
    for r in range(6):
        row = lines[2 * r + 2].ljust(2 * 9 + 1)
        drawn = np.array([row[2 * c + 1] == "─" for c in range(9)])
        assert np.array_equal(drawn, ~maze.grid.open_south[r])


def test_kruskal_zone_labels_while_it_runs() -> None:
    maze = laby3d.generate(4, 5, algorithm="kruskal", seed=3)
    assert zone_numbers(maze, 0).ravel().tolist() == list(range(20))
    labels = zone_numbers(maze, 7)
    assert len(np.unique(labels)) == 20 - 7  # each step joins two zones
    assert len(np.unique(zone_numbers(maze, 19))) == 1
    text = partial_maze(maze, 7).to_ascii(labels=labels)
    assert all(str(number) in text for number in np.unique(labels).tolist())


@pytest.mark.parametrize("fmt", ["png", "pdf", "ps"])
def test_pictures_are_valid_and_byte_stable(fmt: str) -> None:
    maze = laby3d.generate(12, 16, seed=5)
    data = maze_picture(maze, fmt, solution=True, heatmap=True)
    assert data == maze_picture(maze, fmt, solution=True, heatmap=True)
    magic = {"png": b"\x89PNG", "pdf": b"%PDF", "ps": b"%!PS"}[fmt]
    assert data.startswith(magic)


def test_png_shows_the_walls_top_left_first() -> None:
    """The top-left cell's north wall is dark; the entrance (west of (0, 0)) is light."""
    from PIL import Image

    maze = laby3d.generate(10, 10, seed=1)
    image = np.asarray(Image.open(io.BytesIO(maze_picture(maze, "png"))).convert("L"))
    assert image.min() < 50 and image.max() > 200
    dark_rows = np.flatnonzero((image < 100).mean(axis=1) > 0.8)
    assert len(dark_rows) > 0 and dark_rows[0] < image.shape[0] * 0.1  # top border is one long wall


def test_generation_gif_has_frames_from_grid_to_maze() -> None:
    from PIL import Image

    maze = laby3d.generate(8, 8, algorithm="backtracker", seed=1)
    data = generation_gif(maze, every=9)
    image = Image.open(io.BytesIO(data))
    assert image.n_frames == 8  # steps 0, 9, ..., 63
    image.seek(0)
    first = np.asarray(image.convert("L"))
    image.seek(7)
    last = np.asarray(image.convert("L"))
    assert (first < 128).sum() > (last < 128).sum()  # walls disappear as passages open
