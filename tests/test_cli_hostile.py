"""Whatever is typed on the command line: one line on stderr, the documented exit status, no
traceback, and no file written by a run that failed (issue 11's CLI cases and a fuzz)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laby3d.cli import main
from laby3d.options.job import job_flag_fields


def run(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "laby3d", *args], capture_output=True, text=True, cwd=cwd, input=stdin, timeout=120
    )


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


# (arguments, exit status, text the one-line message holds)
CASES = [
    (["generate", "--rows", "2000", "--cols", "2000", "-o", "x.stl"], 2, "--rows 2000 with cols 2000: would need"),
    (["generate", "--rows", "3", "--seed", "9" * 5000, "-o", "x.txt"], 2, "--seed must be a whole number"),
    (["generate", "--rows", "abc"], 2, "--rows must be a whole number, got 'abc'"),
    (["generate", "--cell-size", "nan", "-o", "x.stl"], 2, "--cell-size must be a finite number"),
    (["generate", "--wall-height", "1e-300", "-o", "x.stl"], 2, "--wall-height must be >= 0.2"),
    (["generate", "--label", "x" * 500, "-o", "x.stl"], 2, "--label must be at most 60 characters"),
    (["generate", "-o", "x.stl", "-o", "y.stl"], 2, "--output gives two stl files"),
    (["generate", "-o", "x.docx"], 2, "unknown format"),
    (["export", "missing.maze.json", "-o", "x.png"], 2, "missing.maze.json: cannot read: No such file"),
    (["batch", "missing.yaml"], 2, "missing.yaml"),
    (["batch", "x.yaml", "--help-me"], 2, "unrecognized arguments"),
]


@pytest.mark.parametrize(("args", "status", "message"), CASES, ids=[" ".join(c[0])[:40] for c in CASES])
def test_hostile_command_lines(tmp_path: Path, args: list[str], status: int, message: str) -> None:
    result = run(*args, cwd=tmp_path)
    assert result.returncode == status
    assert message in one_line(result.stderr)
    assert list(tmp_path.iterdir()) == []


def test_file_system_errors_name_the_path_and_cause(tmp_path: Path) -> None:
    (tmp_path / "folder.png").mkdir()
    result = run("generate", "--rows", "3", "--cols", "3", "-o", "folder.png", "-o", "m.txt", cwd=tmp_path)
    assert result.returncode == 1 and "is a directory" in one_line(result.stderr)
    (tmp_path / "afile").write_text("x")
    result = run("generate", "--rows", "3", "--cols", "3", "-o", "afile/m.png", "-o", "m.txt", cwd=tmp_path)
    assert result.returncode == 1 and "afile" in one_line(result.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "folder.png"]  # m.txt not written either


def test_hostile_maze_files(tmp_path: Path) -> None:
    cases = {
        "script.maze.json": '{"format": "laby3d.maze", "version": 1, "rows": 1, "cols": 2, '
        '"algorithm": "</script><script>alert(1)</script>", "cells": [[10, 8]]}',
        "nested.maze.json": "[" * 100_000 + "]" * 100_000,
        "binary.maze.json": "\udcff",
    }
    for name, text in cases.items():
        (tmp_path / name).write_bytes(text.encode("utf-8", "surrogateescape"))
        result = run("export", name, "-o", "out.html", cwd=tmp_path)
        assert result.returncode == 2, (name, result.stderr)
        one_line(result.stderr)
        assert not (tmp_path / "out.html").exists()


def test_a_closed_pipe_is_not_an_error(tmp_path: Path) -> None:
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {sys.executable} -m laby3d show --rows 200 --cols 200 --seed 1 | head -1"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0 and done.stderr == "" and done.stdout.count("\n") == 1


def test_text_and_pictures_are_not_held_to_the_solid_budget(tmp_path: Path) -> None:
    result = run("generate", "--rows", "600", "--cols", "600", "--seed", "1", "-o", "big.txt", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "big.txt").stat().st_size > 600 * 600


FLAGS = [flags[0] for _, _, flags in job_flag_fields()]
hostile_text = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["-1", "0", "1e309", "nan", "inf", "-0", "9" * 400, "1,5", "", " ", "\u202e", "0x10"]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(choices=st.lists(st.tuples(st.sampled_from(FLAGS), hostile_text), min_size=1, max_size=3))
def test_fuzzed_flags_never_crash(tmp_path_factory, choices: list[tuple[str, str]]) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    args = ["generate", "--rows", "4", "--cols", "4", "-o", str(folder / "m.txt"), "-o", str(folder / "m.stl")]
    for flag, value in choices:
        args += [f"{flag}={value}"]
    try:
        status = main(args)
    except SystemExit as leave:  # argparse's own refusal (a bad choice, a missing value): exit 2
        status = int(leave.code or 0)
    assert status in (0, 2)
    if status == 2:
        assert list(folder.iterdir()) == []
