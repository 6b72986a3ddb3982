"""Options a command cannot honour are refused, not silently dropped: one line naming the flag,
exit status 2, nothing written. Which options each output reads is a table
(:attr:`laby3d.export.formats.Format.options`); a test here watches every renderer at work and
checks that the table names every option it really reads, so the CLI never refuses one that
matters."""

from __future__ import annotations

from pathlib import Path

import pytest

import laby3d
from laby3d.cli import main
from laby3d.export.formats import FORMATS
from laby3d.export.scene import scene_json
from laby3d.geometry.params import Fabrication
from laby3d.options.job import SECTIONS, Job
from laby3d.options.walk import WalkSpec


@pytest.fixture
def files(tmp_path: Path) -> Path:
    """A folder holding a maze file and a scene file of the same 4×4 maze."""
    maze = laby3d.generate(4, 4, seed=3)
    (tmp_path / "m.maze.json").write_text(maze.to_json(), encoding="utf-8")
    (tmp_path / "m.scene.json").write_text(scene_json(maze, Fabrication(), walk=WalkSpec()), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["export", "m.scene.json", "--seed", "3", "-o", "out.stl"], "--seed has no effect with export"),
        (
            ["export", "m.maze.json", "--no-trail", "-o", "out.stl"],
            "--trail has no effect on the files asked for (stl)",
        ),
        (["export", "m.maze.json", "--laser-mode", "stack", "-o", "out.html"], "--laser-mode has no effect"),
        (["generate", "--entrance", "0,0,W", "-o", "out.png"], "--entrance has no effect unless placement is explicit"),
        (["generate", "--placement", "hardest", "--exit", "3,3,E", "-o", "out.png"], "--exit has no effect unless"),
        (["generate", "--cell-size", "14"], "--cell-size has no effect without an output file (-o)"),
        (["generate", "--cell-size", "14", "-o", "out.maze.json"], "(maze.json)"),
        (["generate", "--scene-global", "MAZE_B", "-o", "out.html"], "--scene-global has no effect"),
        (["generate", "--label", "Ana", "-o", "out.png"], "--label has no effect on the files asked for (png)"),
        (["show", "--label", "Ana"], "--label has no effect with show"),
        (["show", "--lang", "fr"], "--lang n’a pas d’effet avec « laby3d show »"),  # said in the language typed
        (["show", "--input", "m.maze.json", "--preset", "quick"], "--preset has no effect with --input"),
        (["show", "--sets-after", "3", "--solution"], "--solution has no effect with --sets-after"),
        (["stats", "--label", "Ana", "--lang", "fr"], "--label n’a pas d’effet avec stats"),
        (["stats", "--seeds", "5"], "--seeds has no effect without --table"),
        (["stats", "--table", "--seed", "1"], "--seed has no effect with --table"),
        (["stats", "--table", "--algorithm", "prim"], "--algorithm has no effect with --table"),
        (["stats", "--table", "--input", "m.maze.json"], "--input has no effect with --table"),
        (
            ["generate", "--shape", "theta", "--rows", "5", "--cols", "9", "-o", "out.png"],
            "--cols has no effect with shape theta: a round maze's size is its number of rings, rows",
        ),
        (["show", "--shape", "theta", "--cols", "9"], "--cols has no effect with shape theta"),
        (
            ["generate", "--shape", "theta", "--cols", "9", "--lang", "fr", "-o", "out.png"],
            "--cols n’a pas d’effet avec la forme theta : la taille d’un labyrinthe rond est son nombre d’anneaux",
        ),
    ],
)
def test_options_a_command_cannot_honour_are_refused(
    files: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(files)
    before = sorted(files.iterdir())
    assert main(args) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], captured.err
    assert lines[0].startswith("laby3d: ") and "Traceback" not in captured.err
    assert sorted(files.iterdir()) == before, "nothing written"


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "--rows", "3", "--cols", "3", "--scene-global", "MAZE_B", "-o", "out.js"],
        ["generate", "--rows", "3", "--cols", "3", "--cell-size", "14", "--label", "Ana", "-o", "out.stl"],
        ["generate", "--rows", "3", "--cols", "3", "--show-solution", "--charset", "ascii"],
        ["generate", "--rows", "3", "--cols", "3", "--placement", "explicit", "--entrance", "0,0,W", "--exit", "2,2,E"],
        ["export", "m.scene.json", "--no-trail", "--lang", "fr", "-o", "out.html"],
        ["export", "m.maze.json", "--preset", "quick", "-o", "out.stl"],
        ["show", "--seed", "3", "--preset", "quick"],
        ["stats", "--table", "--rows", "3", "--cols", "3", "--seeds", "1"],
    ],
)
def test_options_a_command_honours_are_accepted(
    files: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.chdir(files)
    assert main(args) == 0, capsys.readouterr().err


def test_yaml_entrance_without_explicit_placement_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    config = tmp_path / "class.yaml"
    config.write_text("jobs:\n  - name: a\n    maze: {rows: 4, cols: 4, entrance: '0,0,W'}\n", encoding="utf-8")
    assert main(["validate", str(config)]) == 2
    error = capsys.readouterr().err
    assert "jobs[0] (a).maze.entrance: has no effect unless placement is explicit (it is corners)" in error


def _sections() -> dict[type, str]:
    return {**{model: name for name, model in SECTIONS.items()}, Job: ""}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(FORMATS))
def test_each_format_declares_every_option_it_reads(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Watch the option models while one format is rendered (with whatever the pipeline does
    around it: printability report, laser companions): every option field read must be one the
    format's table entry names, or the CLI would refuse an option that changes the file."""
    from laby3d.options.build import nested, validated_job
    from laby3d.options.flags import all_flags
    from laby3d.pipeline import render_all

    options = set(all_flags())
    maze = laby3d.generate(3, 3, seed=1)
    job = validated_job(nested({"maze.rows": 3, "maze.cols": 3, "label": "Ana", "formats": [name]}))
    read: set[str] = set()
    for model, section in _sections().items():

        def watched(self: object, attribute: str, _section: str = section) -> object:
            path = f"{_section}.{attribute}" if _section else attribute
            if path in options:
                read.add(path)
            return object.__getattribute__(self, attribute)

        monkeypatch.setattr(model, "__getattribute__", watched)
    render_all(maze, job, [name])
    monkeypatch.undo()
    unnamed = sorted(path for path in read if not path.startswith("maze.") and not FORMATS[name].reads(path))
    assert read or not FORMATS[name].options, "the watch saw nothing"
    assert unnamed == [], f"{name} reads {unnamed} but its table entry does not name them"
