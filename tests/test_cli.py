"""The command line: outputs by suffix, one-line errors with exit 2 and no file left behind."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "laby3d", *args], capture_output=True, text=True, cwd=cwd)


def test_generate_writes_every_requested_format(tmp_path: Path) -> None:
    names = ["m.maze.json", "m.txt", "m.png", "m.pdf", "m.ps", "m.gif"]
    result = run(
        "generate", "--rows", "6", "--cols", "8", "--seed", "3", *sum((["-o", str(tmp_path / n)] for n in names), [])
    )
    assert result.returncode == 0, result.stderr
    for name in names:
        assert (tmp_path / name).stat().st_size > 0
    data = json.loads((tmp_path / "m.maze.json").read_text())
    assert (data["rows"], data["cols"], data["seed"]) == (6, 8, 3)


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_same_seed_gives_identical_files(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        outputs = [str(tmp_path / folder / f"m.{ext}") for ext in ("maze.json", "png", "pdf", "txt")]
        args = sum((["-o", o] for o in outputs), [])
        assert run("generate", "-a", "wilson", "--seed", "8", "--show-solution", *args).returncode == 0
    for name in ("m.maze.json", "m.png", "m.pdf", "m.txt"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["generate", "--rows", "0"], "laby3d: error: --rows must be >= 1, got 0"),
        (["generate", "-a", "labyrinth"], "argument --algorithm/-a: invalid choice: 'labyrinth'"),
        (["generate", "-a", "binary_tree", "--bias", "2"], "laby3d: error: --bias must be <= 1, got 2"),
        (
            ["generate", "-a", "binary_tree", "--join", "0.5"],
            "--join is not an option of binary_tree (its options: bias)",
        ),
        (["generate", "--nozzle", "0"], "laby3d: error: --nozzle must be >= 0.1, got 0"),
        (["generate", "--wall-thickness", "12"], "laby3d: error: --wall-thickness must be < cell_size (10 mm)"),
        (["generate", "-o", "x.docx"], "unknown format"),
    ],
)
def test_user_errors_are_one_line_exit_2_and_write_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    result = run(*args, "-o", "good.png", cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_show_stats_list_and_export(tmp_path: Path) -> None:
    maze_file = tmp_path / "m.maze.json"
    assert run("generate", "--seed", "1", "-o", str(maze_file)).returncode == 0
    shown = run("show", "--input", str(maze_file), "--solution")
    assert shown.returncode == 0 and "•" in shown.stdout
    assert "dead_ends" in run("stats", "--input", str(maze_file)).stdout
    assert "wilson" in run("list").stdout
    assert run("export", str(maze_file), "-o", str(tmp_path / "again.maze.json")).returncode == 0
    assert (tmp_path / "again.maze.json").read_bytes() == maze_file.read_bytes()


def test_bad_maze_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.maze.json"
    bad.write_text('{"format": "laby3d.maze", "version": 1, "rows": 1, "cols": 2, "cells": [[2, 0]]}')
    result = run("export", str(bad), "-o", str(tmp_path / "x.png"))
    assert result.returncode == 2 and "open on one side only" in result.stderr
    assert not (tmp_path / "x.png").exists()
