"""Every option is defined once: its CLI flag, `laby3d schema` entry and README row all come from
the field, and every front end names a bad option the way its user typed it."""

from __future__ import annotations

import argparse
import typing
from pathlib import Path
from typing import Any

import pytest
import yaml

from laby3d.cli import build_parser, main
from laby3d.config import ConfigError, batch_schema, load_batch
from laby3d.options import SECTIONS, Job
from laby3d.options.base import as_data, option_fields
from laby3d.options.job import job_flag_fields
from laby3d.options.tables import option_tables

ROOT = Path(__file__).parent.parent
FIELDS = job_flag_fields()


def _generate_actions() -> dict[str, argparse.Action]:
    parser = build_parser()
    verbs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    generate = verbs.choices["generate"]
    return {flag: action for action in generate._actions for flag in action.option_strings}


def test_every_section_field_is_an_option() -> None:
    paths = {path for path, _, _ in FIELDS}
    for section, model in SECTIONS.items():
        assert {f"{section}.{name}" for name in option_fields(model)} <= paths
    assert {"seed", "label", "lang"} <= paths


@pytest.mark.parametrize(("path", "field", "flags"), FIELDS, ids=[path for path, _, _ in FIELDS])
def test_flag_schema_and_readme_follow_the_field(path: str, field: Any, flags: list[str]) -> None:
    actions = _generate_actions()
    action = actions[flags[0]]
    assert action.default is argparse.SUPPRESS  # defaults come from the field, not from argparse
    assert field.description and field.description.replace("%", "%%") in (action.help or "")
    if field.default not in (None, False, True):
        shown = f"{field.default:g}" if isinstance(field.default, float) else str(field.default)
        assert f"[default: {shown}]" in (action.help or "")
    kind = typing.get_args(field.annotation) or (field.annotation,)
    literal = next((k for k in kind if typing.get_origin(k) is typing.Literal), field.annotation)
    if typing.get_origin(literal) is typing.Literal:
        assert tuple(action.choices or ()) == typing.get_args(literal)
    schema = batch_schema()
    if "." in path:
        section, name = path.split(".")
        model = SECTIONS[section].__name__
        entry = schema["$defs"][model]["properties"][name]
    else:
        entry = schema["properties"]["jobs"]["items"]["properties"][path]
    assert entry.get("description") == field.description
    keys = {"gt": "exclusiveMinimum", "ge": "minimum", "lt": "exclusiveMaximum", "le": "maximum"}
    for bound, key in keys.items():
        if getattr(field.limits, bound) is not None:
            found = entry.get(key, next((a.get(key) for a in entry.get("anyOf", []) if key in a), None))
            assert found == getattr(field.limits, bound), (path, key)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"| `{path}` | {', '.join(f'`{f}`' for f in flags)} |" in readme


def test_readme_tables_are_the_generated_ones() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start, end = "<!-- options: laby3d schema --markdown -->\n", "<!-- options end -->"
    assert start in readme, "README lacks the option tables (laby3d schema --markdown)"
    shown = readme.split(start, 1)[1].split(end, 1)[0]
    assert shown.strip() == option_tables().strip(), "README option tables differ: paste laby3d schema --markdown"


def _out_of_range(field: Any) -> Any | None:
    """A value just outside the field's range, if it has one."""
    limits = field.limits
    if limits.gt is not None:
        return limits.gt
    if limits.ge is not None:
        return limits.ge - 1
    if limits.le is not None:
        return limits.le + 1
    if limits.lt is not None:
        return limits.lt
    return None


RANGED = [(path, field, flags) for path, field, flags in FIELDS if _out_of_range(field) is not None]


@pytest.mark.parametrize(("path", "field", "flags"), RANGED, ids=[path for path, _, _ in RANGED])
def test_a_bad_value_is_named_as_typed(
    tmp_path: Path, path: str, field: Any, flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from laby3d.cli import main

    bad = _out_of_range(field)
    typed = f"{bad:g}" if isinstance(bad, float) else str(bad)
    outputs = ["-o", str(tmp_path / "m.stl"), "-o", str(tmp_path / "m.txt")]
    assert main(["generate", flags[0], typed, *outputs]) == 2  # in-process: a subprocess adds nothing here
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"laby3d: error: {flags[0]} must be "), lines
    assert list(tmp_path.iterdir()) == []
    *sections, name = path.split(".")
    job: dict[str, Any] = {"name": "x", "formats": ["stl"]}
    target = job
    for section in sections:
        target = target.setdefault(section, {})
    target[name] = bad
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({"jobs": [job]}))
    with pytest.raises(ConfigError) as error:
        load_batch(config)
    assert str(error.value).startswith(f"c.yaml: jobs[0] (x).{path}: must be ")


def test_python_keywords_are_the_flags_and_errors_name_them() -> None:
    import laby3d

    maze = laby3d.generate(3, 3, seed=1)
    assert laby3d.render(maze, "txt", show_solution=True, charset="ascii").count(b"+") > 0
    with pytest.raises(laby3d.ParameterError, match=r"^nozzle must be >= 0.1, got 0$"):
        laby3d.render(maze, "stl", nozzle=0)
    with pytest.raises(laby3d.ParameterError, match="^colour is not an option"):
        laby3d.render(maze, "stl", colour="red")


def test_a_bug_is_not_a_user_error(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, tmp_path) -> None:
    import laby3d.mesh.solid
    from laby3d.errors import InternalError

    def broken(*args: Any, **kwargs: Any) -> None:
        raise InternalError("the solid is not closed")

    monkeypatch.setattr(laby3d.mesh.solid, "maze_solid", broken)
    status = main(["generate", "--rows", "3", "--cols", "3", "-o", str(tmp_path / "m.stl")])
    message = capsys.readouterr().err
    assert status == 1 and "a bug in laby3d" in message and "report it" in message
    assert "Traceback" not in message and not (tmp_path / "m.stl").exists()


def test_defaults_are_the_fields_defaults() -> None:
    from laby3d.cli import job_from_flags

    args = build_parser().parse_args(["generate"])
    assert as_data(job_from_flags(args, ["maze.json"]), exclude={"formats"}) == as_data(Job(), exclude={"formats"})


def test_every_algorithm_option_is_a_maze_field() -> None:
    from laby3d.maze.algorithms import ALGORITHMS
    from laby3d.options import MazeSpec

    declared = {name for algorithm in ALGORITHMS.values() for name in algorithm.options}
    assert declared == {"policy", "bias", "join", "down"}  # written out: a new option must be seen
    assert declared <= set(option_fields(MazeSpec))


@pytest.mark.parametrize(
    ("flag", "shown"),
    [
        ("--nozzle", "nozzle diameter, mm (≥ 0.1, ≤ 5) [default: 0.4]"),
        ("--rows", "number of rows (≥ 1, ≤ 2000) [default: 15]"),
        ("--bias", "binary_tree: probability that a cell opens north rather than east (≥ 0, ≤ 1)"),
        ("--wall-thickness", "(≥ 0.2, ≤ 5000) [default: 1.6]"),
    ],
)
def test_help_shows_ranges_and_defaults_as_written_here(flag: str, shown: str) -> None:
    """Hand-written expectations, so a change in how help is made shows up here."""
    assert shown in " ".join((_generate_actions()[flag].help or "").split()).replace("%%", "%")


def test_what_validate_accepts_a_class_set_makes() -> None:
    """A name is its maze's label: a class list's name longer than a label is refused when the
    list is checked, not half-way through the class set (each pupil's job re-checks its label)."""
    from laby3d.options.build import validated_job

    formats = ["png", "worksheet.pdf"]
    job = validated_job({"names": ["a" * 60, "Léa"], "formats": formats})
    assert job.pupil_job("a" * 60).label == "a" * 60
    with pytest.raises(ConfigError, match=r"names\[1\]: must be at most 60 characters"):
        load_batch_text(f"jobs: [{{name: c, names: [Ana, {'b' * 61}], formats: [png]}}]")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"print": {"cell_size": 10**400}}, "print.cell_size must be a finite number"),  # YAML and JSON take it
        ({"print": {"fleet": "mini=²"}}, "print.fleet must be printers and counts such as mini=2"),
        ({"names": ["x"] * 2000}, "names must have at most 1000 items"),  # the count, before each name
        ({"print": {"margin": 1e-9}}, "print.margin is below laby3d's resolution of 0.001 mm"),
    ],
)
def test_odd_values_get_one_line_in_words(data: dict[str, Any], message: str) -> None:
    from laby3d.errors import ParameterError
    from laby3d.options.build import validated_job

    with pytest.raises(ParameterError) as caught:
        validated_job(data)
    assert str(caught.value).startswith(message)


def test_an_output_folder_is_expanded_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``$X/out`` with X=``~/sub`` is what a shell makes of it, ``~/sub/out`` (expanding twice
    would read the ``~`` that came from the variable)."""
    monkeypatch.setenv("X", "~/sub")
    config = tmp_path / "class.yaml"
    config.write_text("output_dir: $X/out\njobs: [{name: a}]\n", encoding="utf-8")
    batch, _ = load_batch(config)
    assert batch.output_dir == "~/sub/out"


def load_batch_text(text: str) -> Any:
    """:func:`load_batch` of a batch file holding ``text``."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "class.yaml"
        path.write_text(text, encoding="utf-8")
        return load_batch(path)
