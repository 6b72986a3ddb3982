"""Whatever is typed on the command line: one line on stderr, the documented exit status, no
traceback, and no file written by a run that failed (issue 11's CLI cases and a fuzz)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import laby3d
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
    (["generate", "--rows", "2000", "--cols", "2000", "-o", "x.stl"], 2, "--rows 2000 with cols 2000: the stl would"),
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


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_file_system_errors_name_the_path_and_cause(tmp_path: Path) -> None:
    (tmp_path / "folder.png").mkdir()
    result = run("generate", "--rows", "3", "--cols", "3", "-o", "folder.png", "-o", "m.txt", cwd=tmp_path)
    assert result.returncode == 1 and "is a directory" in one_line(result.stderr)
    (tmp_path / "afile").write_text("x")
    result = run("generate", "--rows", "3", "--cols", "3", "-o", "afile/m.png", "-o", "m.txt", cwd=tmp_path)
    assert result.returncode == 1 and "afile" in one_line(result.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "folder.png"]  # m.txt not written either


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
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


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
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


# --- issue 21: paths, standard output, encodings, message length --------------------------------


def status_and_error(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str]:
    try:
        status = main(args)
    except SystemExit as leave:
        status = int(leave.code or 0)
    return status, capsys.readouterr().err


@pytest.mark.parametrize(
    ("yaml", "fragment"),
    [
        ('output_dir: "a\\0b"\n', "output_dir: cannot hold the NUL character"),
        ("output_dir: " + "d/" * 2500 + "\n", "output_dir: must be at most 4000 characters"),
    ],
    ids=["NUL in output_dir", "5,000-character output_dir"],
)
def test_an_output_dir_no_file_system_takes_is_refused_by_validate_and_batch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], yaml: str, fragment: str
) -> None:
    config = tmp_path / "class.yaml"
    config.write_text(yaml + "jobs:\n  - {maze: {rows: 3, cols: 3}, seed: 1, formats: [txt]}\n")
    for verb in ("validate", "batch"):
        status, err = status_and_error(capsys, [verb, str(config)])
        assert status == 2 and fragment in one_line(err), err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["class.yaml"]


def test_a_folder_named_manifest_json_is_named_not_a_bug(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "class.yaml"
    config.write_text("jobs:\n  - {maze: {rows: 3, cols: 3}, seed: 1, formats: [txt]}\n")
    (tmp_path / "out" / "manifest.json").mkdir(parents=True)
    status, err = status_and_error(capsys, ["batch", str(config), "--output-dir", str(tmp_path / "out")])
    assert status == 1 and "its manifest.json is a folder" in one_line(err) and "internal" not in err


def test_paths_1500_and_2500_folders_deep(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "class.yaml"
    config.write_text("jobs:\n  - {maze: {rows: 3, cols: 3}, seed: 1, formats: [txt]}\n")
    too_deep = str(tmp_path.joinpath(*["d"] * 2500))
    status, err = status_and_error(capsys, ["batch", str(config), "--output-dir", too_deep])
    assert status == 1 and "file systems allow 4,000" in one_line(err) and "internal" not in err
    status, err = status_and_error(capsys, ["generate", "--rows", "3", "--cols", "3", "-o", too_deep + "/m.txt"])
    assert status == 1 and "file systems allow 4,000" in one_line(err)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["class.yaml"]


def test_standard_output_to_a_full_disk_is_one_line_not_exit_120(tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "laby3d", "show", "--rows", "30", "--cols", "30", "--seed", "1"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
        )
    assert done.returncode == 1
    assert one_line(done.stderr) == "laby3d: error: cannot write to standard output: no space left on device"


def test_a_full_standard_output_in_process(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    import errno

    class Full(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(sys, "stdout", Full())
    assert main(["list"]) == 1
    assert "cannot write to standard output: no space left on device" in capsys.readouterr().err


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_any_console_encoding_shows_the_maze_and_the_messages(tmp_path: Path, encoding: str) -> None:
    """`laby3d show` under a cp1252 or cp850 console was "a bug in laby3d" (issue 20), and an ASCII
    standard output failed on "×": text art falls back to +--+ and the rest to look-alikes."""
    environment = {**os.environ, "PYTHONIOENCODING": encoding}
    done = subprocess.run(
        [sys.executable, "-m", "laby3d", "generate", "--rows", "3", "--cols", "4", "--seed", "1", "--show-solution"],
        capture_output=True,
        env=environment,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode(encoding)
    assert text.splitlines()[0] == ("maze 3×4 kruskal seed 1" if encoding == "cp1252" else "maze 3x4 kruskal seed 1")
    assert text.splitlines()[1].startswith("+--+") and "*" in text
    done = subprocess.run(
        [sys.executable, "-m", "laby3d", "generate", "--label", "Zoé ☃ " * 20, "-o", "m.stl"],
        capture_output=True,
        env=environment,
        cwd=tmp_path,
    )
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert "--label" in one_line(done.stderr.decode(encoding))


@pytest.mark.parametrize("encoding", ["cp1252", "cp850", "ascii", "utf-8"])
def test_show_in_process_under_each_console_encoding(
    monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes], encoding: str
) -> None:
    buffer = io.BytesIO()
    console = io.TextIOWrapper(buffer, encoding=encoding)
    monkeypatch.setattr(sys, "stdout", console)
    assert main(["show", "--rows", "2", "--cols", "3", "--seed", "4", "--solution"]) == 0
    console.flush()
    text = buffer.getvalue().decode(encoding)
    boxes = encoding == "utf-8"
    assert ("─" in text) == boxes and ("+--" in text) != boxes
    reference = laby3d.generate(2, 3, seed=4).to_ascii(solution=True, charset="unicode" if boxes else "ascii")
    assert text == reference


LONG_TEXT = st.one_of(
    st.text(min_size=300, max_size=3000),
    st.integers(300, 20_000).map(lambda n: "x" * n),
    st.integers(2001, 3000).map(lambda n: "d/" * n + "m.txt"),  # over 4,000 bytes: refused, never made
    st.integers(301, 5000).map(lambda n: "9" * n),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    verb=st.sampled_from(["generate", "export", "show", "stats", "batch", "validate", "list", "schema", "serve"]),
    where=st.sampled_from(["flag", "path", "output", "yaml"]),
    flag=st.sampled_from(FLAGS),
    value=LONG_TEXT,
)
@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_every_message_is_one_short_line_whatever_is_typed(
    tmp_path_factory, monkeypatch, capsys, verb: str, where: str, flag: str, value: str
) -> None:
    """Sources are short on their own: the cut at 300 characters in main is lifted here."""
    from laby3d import console

    monkeypatch.setattr(console, "MAX_MESSAGE", 10**9)
    folder = tmp_path_factory.mktemp("long")
    monkeypatch.chdir(folder)
    value = value.replace("\0", "")
    args = {
        "generate": ["generate", "--rows", "3", "--cols", "3", "-o", "m.txt"],
        "export": ["export", "m.maze.json", "-o", "m.txt"],
        "show": ["show", "--rows", "3", "--cols", "3"],
        "stats": ["stats", "--rows", "3", "--cols", "3"],
        "batch": ["batch", "b.yaml"],
        "validate": ["validate", "b.yaml"],
        "list": ["list"],
        "schema": ["schema"],
        "serve": ["serve", "--port"],  # never a valid port: no server starts
    }[verb]
    (folder / "m.maze.json").write_text(laby3d.generate(3, 3, seed=1).to_json())
    (folder / "b.yaml").write_text("jobs:\n  - {maze: {rows: 3, cols: 3}, seed: 1, formats: [txt]}\n")
    if where == "flag" and verb in ("generate", "export", "show", "stats"):
        args.append(f"{flag}={value}")
    elif verb == "serve":
        args.append(value)
    elif where == "path" and verb in ("export", "batch", "validate"):
        args[1] = value
    elif where == "output" and verb in ("generate", "export"):
        args[-1] = value
    elif where == "yaml" and verb in ("batch", "validate"):
        (folder / "b.yaml").write_text(f"jobs:\n  - {{label: {json.dumps(value)}, names: [{json.dumps(value)}]}}\n")
    status, err = status_and_error(capsys, args)
    assert status in (0, 1, 2), err
    assert "internal error" not in err and "Traceback" not in err, err[:500]
    for line in err.splitlines():
        assert len(line) <= 300, line[:400]
