"""Numbers as typed, range-checked before use (issue 21): no boolean read as 1, no inf or
denormal reaching the geometry, no policy whose file cannot be read back.

Every float and int option is taken from the option registry, so a new option is covered the
moment it exists.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import laby3d
from laby3d.cli import main
from laby3d.config import load_batch
from laby3d.errors import Laby3dError, ParameterError
from laby3d.options.base import is_length
from laby3d.options.build import nested, validated_job
from laby3d.options.flags import base_type
from laby3d.options.job import job_flag_fields

NUMBER_FIELDS = [(path, field) for path, field, _ in job_flag_fields() if base_type(field.annotation) in (int, float)]
LENGTHS = [path for path, field in NUMBER_FIELDS if is_length(field)]
#: Formats that read every option of every section (with a laser kit for the laser's own).
EVERY_FORMAT = ["stl", "svg", "html", "gif", "worksheet.pdf"]


def yaml_value(value: Any) -> str:
    return {True: "true", False: "false"}.get(value, repr(value)) if isinstance(value, bool) else repr(value)


@pytest.mark.parametrize("path", [path for path, _ in NUMBER_FIELDS])
@pytest.mark.parametrize("value", [True, False])
def test_a_boolean_is_not_a_number_in_yaml(tmp_path, capsys, path: str, value: bool) -> None:
    *sections, name = path.split(".")
    indent = "    "
    lines = ["jobs:", "  - name: x"]
    for depth, section in enumerate(sections):
        lines.append(f"{indent}{'  ' * depth}{section}:")
    lines.append(f"{indent}{'  ' * len(sections)}{name}: {yaml_value(value)}")
    config = tmp_path / "class.yaml"
    config.write_text("\n".join(lines) + "\n")
    with pytest.raises(Laby3dError) as error:
        load_batch(config)
    assert f"class.yaml: jobs[0] (x).{path}: must be a" in str(error.value)
    assert main(["validate", str(config)]) == 2
    assert f".{path}: must be a" in capsys.readouterr().err


def keyword(path: str) -> str:
    flags = {p: names[0] for p, _, names in job_flag_fields()}
    return flags[path].lstrip("-").replace("-", "_")


@pytest.mark.parametrize("path", [path for path, _ in NUMBER_FIELDS if not path.startswith("maze.") and path != "seed"])
def test_a_boolean_is_not_a_number_as_a_python_keyword(path: str) -> None:
    maze = laby3d.generate(3, 3, seed=1)
    with pytest.raises(ParameterError) as error:
        laby3d.render(maze, "txt", **{keyword(path): True})
    assert error.value.field == keyword(path) and "must be a" in str(error.value)


@pytest.mark.parametrize("path", LENGTHS)
@pytest.mark.parametrize("value", [5e-324, 1e-300, 1e-5, -5e-324, math.inf, math.nan, 1e308])
def test_lengths_below_a_micrometre_or_beyond_range_are_refused_naming_the_field(path: str, value: float) -> None:
    data = nested({path: value, "formats": EVERY_FORMAT, "laser.mode": "stack"})
    with pytest.raises(ParameterError) as error:
        validated_job(data)
    assert error.value.field == path, error.value


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("print.bed", "1e308x1e308"),
        ("print.bed", "5e-324x5e-324x5e-324"),
        ("print.bed", "inf x 200"),
        ("print.bed", "200x200x200x200"),
        ("print.bed", "1" * 5000 + "x200"),
        ("laser.sheet", "1e308x400"),
        ("laser.sheet", "0.0001x400"),
        ("laser.sheet", "nanx400"),
    ],
)
def test_sizes_typed_as_text_are_range_checked_whatever_the_formats(path: str, text: str) -> None:
    for formats in (["png"], EVERY_FORMAT):
        with pytest.raises(ParameterError) as error:
            validated_job(nested({path: text, "formats": formats}))
        message = str(error.value)
        assert error.value.field == path and "1..5000" in message and len(message) < 200


def test_the_cli_refuses_a_bed_of_1e308_without_a_bug(tmp_path, capsys) -> None:
    status = main(["generate", "--rows", "3", "--cols", "3", "--bed", "1e308x1e308", "-o", str(tmp_path / "m.stl")])
    assert status == 2 and "--bed must look like" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


weights = st.one_of(
    st.floats(min_value=5e-324, max_value=1e308, allow_nan=False, allow_infinity=False),
    st.sampled_from([5e-324, 1e-320, 1e-300, 1e-6, 1.0, 1e300, 1.7e308]),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["newest", "oldest", "random", "max"]), weights), min_size=1, max_size=5))
def test_every_policy_accepted_writes_a_maze_file_that_reads_back(mix: list[tuple[str, float]]) -> None:
    policy = ",".join(f"{name}:{weight!r}" for name, weight in mix)
    try:
        maze = laby3d.generate(4, 5, algorithm="growing_tree", policy=policy, seed=3)
    except ParameterError as error:
        assert error.field == "policy" and len(str(error)) <= 300
        return
    back = laby3d.Maze.from_json(maze.to_json())
    assert back.to_json() == maze.to_json()
    assert laby3d.generate(4, 5, algorithm="growing_tree", policy=back.options["policy"], seed=3).passage_count == 19


def test_a_policy_whose_share_underflows_is_refused_up_front() -> None:
    with pytest.raises(ParameterError, match="its share is 0"):
        laby3d.generate(3, 3, algorithm="growing_tree", policy="newest:1e-300,random:1e300")


@pytest.mark.parametrize(("algorithm", "option"), [("sidewinder", "bias"), ("binary_tree", "bias"), ("eller", "join")])
@pytest.mark.parametrize("value", [True, False, np.bool_(True)])
def test_algorithm_options_refuse_booleans_as_python_keywords(algorithm: str, option: str, value: Any) -> None:
    with pytest.raises(ParameterError) as error:
        laby3d.generate(4, 4, algorithm=algorithm, seed=1, **{option: value})
    assert error.value.field == option
