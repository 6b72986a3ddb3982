"""The shape option end to end: one field (``maze.shape``, ``--shape``), checked up front by the
job (so ``validate`` says it too), theta sized by its rings, and every format but the maze file
refused for other shapes until it draws them."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml
from mazecheck import assert_shaped_perfect
from shapedcheck import body_count, edge_problems, read_stl

import laby3d
from laby3d.batch import expand, run_batch
from laby3d.cli import main
from laby3d.config import load_batch
from laby3d.errors import ParameterError
from laby3d.export.formats import FORMATS
from laby3d.maze.model import Maze
from laby3d.options.build import validated_job


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_generate_writes_a_theta_maze_file(tmp_path: Path, capsys) -> None:
    path = tmp_path / "round.maze.json"
    code, out, _ = run(capsys, "generate", "--shape", "theta", "--rows", "7", "--seed", "4", "-o", str(path))
    assert code == 0 and out.startswith("maze theta 7 rings kruskal seed 4")
    maze = Maze.from_json(path.read_text(encoding="utf-8"))
    assert (maze.shape, maze.rows, maze.cols, maze.seed) == ("theta", 7, None, 4)
    assert_shaped_perfect(maze)
    assert path.read_text(encoding="utf-8") == laby3d.generate(7, shape="theta", seed=4).to_json()


def test_generate_without_output_prints_the_maze_file(capsys) -> None:
    code, out, _ = run(capsys, "generate", "--shape", "hex", "--rows", "3", "--cols", "4", "--seed", "2")
    assert code == 0
    assert json.loads(out.split("\n", 1)[1])["shape"] == "hex"


@pytest.mark.parametrize("fmt", [name for name, fmt in FORMATS.items() if "theta" not in fmt.shapes])
def test_other_formats_are_refused_up_front(fmt: str, tmp_path: Path, capsys) -> None:
    path = tmp_path / f"m.{fmt}"
    code, _, err = run(capsys, "generate", "--shape", "theta", "--rows", "5", "-o", str(path))
    assert code == 2
    unable = [name for name, other in FORMATS.items() if "theta" not in other.shapes]
    why = FORMATS[fmt].square_only
    refusal = f"takes square mazes only ({why})" if why else "does not draw theta mazes yet"
    expected = f"--output {fmt} {refusal}; for theta mazes laby3d writes every format but {', '.join(unable)}"
    assert err.strip() == f"laby3d: error: {expected}"
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("maze", "formats", "field", "words"),
    [
        ({"shape": "theta", "rows": 6}, ["maze.json", "txt"], "formats", "txt takes square mazes only (text art"),
        ({"shape": "hex", "algorithm": "eller"}, ["maze.json"], "maze.algorithm", "square grid only"),
        ({"shape": "theta", "rows": 951}, ["maze.json"], "maze.rows", "2..950 for a theta maze"),
        ({"shape": "triangle", "cols": 1}, ["maze.json"], "maze.cols", "touches only at corners"),
        ({"shape": "hex", "rows": 2000, "cols": 2000}, ["maze.json"], "maze.rows", "at most 2,000,000"),
        (
            {"shape": "hex", "rows": 4, "cols": 4, "placement": "explicit", "entrance": "1,1,W", "exit": "3,3,E"},
            ["maze.json"],
            "maze.entrance",
            "is inside the maze",
        ),
        ({"shape": "circle"}, ["maze.json"], "maze.shape", "'square', 'theta', 'hex', 'triangle'"),
    ],
)
def test_the_job_checks_the_shape(maze: dict, formats: list, field: str, words: str) -> None:
    with pytest.raises(ParameterError) as caught:
        validated_job({"maze": maze, "formats": formats})
    assert caught.value.field == field
    assert words in caught.value.detail


def test_validate_names_the_job_and_field(tmp_path: Path, capsys) -> None:
    config = tmp_path / "class.yaml"
    job = {"name": "round", "maze": {"shape": "theta", "rows": 6}, "formats": ["png", "txt"]}
    config.write_text(yaml.safe_dump({"jobs": [job]}))
    code, _, err = run(capsys, "validate", str(config))
    assert code == 2
    assert "formats" in err and "txt takes square mazes only" in err


def test_a_batch_of_shaped_mazes(tmp_path: Path) -> None:
    data = {
        "jobs": [
            {"name": "hexes", "count": 2, "seed": 3, "maze": {"shape": "hex", "rows": 5}, "formats": ["maze.json"]}
        ]
    }
    config = tmp_path / "b.yaml"
    config.write_text(yaml.safe_dump(data))
    _, jobs = load_batch(config)
    with ThreadPoolExecutor(1) as pool:
        manifest = run_batch(expand(jobs, tmp_path / "out"), tmp_path / "out", executor=pool)
    files = sorted((tmp_path / "out").rglob("*.maze.json"))
    assert len(files) == 2, manifest
    for path in files:
        maze = Maze.from_json(path.read_text(encoding="utf-8"))
        assert (maze.shape, maze.rows, maze.cols) == ("hex", 5, 15)
        assert_shaped_perfect(maze)


def test_export_and_stats_of_a_shaped_file(tmp_path: Path, capsys) -> None:
    path = tmp_path / "t.maze.json"
    path.write_text(laby3d.generate(5, shape="triangle", cols=6, seed=1).to_json(), encoding="utf-8")
    code, _, err = run(capsys, "export", str(path), "-o", str(tmp_path / "t.stl"))
    assert code == 0, err
    _, triangles = read_stl(tmp_path / "t.stl")
    assert edge_problems(triangles) == 0 and body_count(triangles) == 1
    code, out, _ = run(capsys, "stats", "--input", str(path))
    assert code == 0 and "maze triangle 5×6" in out and "dead_ends" in out
    code, _, err = run(capsys, "show", "--input", str(path))
    assert code == 2 and "show prints square mazes only" in err


def test_render_refuses_and_writes_by_shape() -> None:
    maze = laby3d.generate(4, shape="theta", seed=2)
    assert laby3d.render(maze, "maze.json") == maze.to_json().encode()
    with pytest.raises(ParameterError) as caught:
        laby3d.render(maze, "txt")
    assert caught.value.field == "formats"


def test_list_names_the_shapes_and_the_grid_only_algorithms(capsys) -> None:
    from laby3d.maze.algorithms import ALGORITHMS, GRAPH_ALGORITHMS
    from laby3d.tessellation import SHAPES

    code, out, _ = run(capsys, "list")
    assert code == 0
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ") and line.split()}
    for name in ALGORITHMS:
        assert ("(square grid only)" in lines[name]) == (name not in GRAPH_ALGORITHMS)
    assert all(name in lines for name in SHAPES)
