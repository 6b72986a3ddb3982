"""Hostile maze files and YAML documents, at the library level (issue 11).

Every case must be refused by laby3d's own error (MazeFileError, YamlError), quickly, with a
one-line message of bounded length that names the field or line, never with another exception,
a hang or a memory blow-up. A hypothesis fuzz mutates valid maze files: each outcome is a Maze
(which then round-trips) or a MazeFileError.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import laby3d
from laby3d.maze.mazefile import maze_from_json, read_maze_file
from laby3d.yamlsafe import YamlError, load_yaml, load_yaml_file

#: Longest message a refusal may print (a value is quoted with at most 60 characters).
LONGEST_MESSAGE = 300
#: Time a refusal may take: every case here takes milliseconds; the bound leaves room for a busy CI.
SECONDS = 2.0
VALID = json.loads(laby3d.generate(3, 4, algorithm="growing_tree", seed=5, placement="hardest").to_json())


def edited(**changes: Any) -> str:
    data = json.loads(json.dumps(VALID))
    data.update(changes)
    return json.dumps(data)


def spliced(key: str, raw: str) -> str:
    """The valid file with ``key``'s value replaced by the raw JSON text ``raw``."""
    data = json.loads(json.dumps(VALID))
    data[key] = "@@RAW@@"
    return json.dumps(data).replace('"@@RAW@@"', raw)


def assert_refusal(call: Callable[[], object], error: type[Exception], fragment: str) -> str:
    start = time.perf_counter()
    with pytest.raises(error) as caught:
        call()
    elapsed = time.perf_counter() - start
    message = str(caught.value)
    assert fragment in message
    assert "\n" not in message and len(message) <= LONGEST_MESSAGE, message
    assert elapsed < SECONDS, f"took {elapsed:.2f} s"
    return message


MAZE_FILES = {
    "script in algorithm": (edited(algorithm="</script><script>alert(document.domain)</script>"), "algorithm must be"),
    "escaped lone surrogate": (edited(algorithm="\ud800"), "algorithm is not valid Unicode (lone surrogate)"),
    "raw lone surrogate": ('{"format": "laby3d.maze", "x": "\ud800"}', "not valid Unicode: lone surrogate"),
    "NUL in algorithm": (edited(algorithm="kruskal\u0000"), "algorithm holds the control character U+0000"),
    "NUL in a key": (edited(**{"a\u0000": 1}), "the key 'a\\x00' holds the control character U+0000"),
    "NUL in an option": (edited(options={"policy": "newest\u0000"}), "policy holds the control character U+0000"),
    "line separator in an option": (edited(options={"policy": "newest\u2028"}), "control character U+2028"),
    "10 MB algorithm": (edited(algorithm="x" * 10_000_000), "algorithm must be at most 1,000 characters"),
    "10 MB unknown key": (edited(**{"k" * 10_000_000: 1}), "the key 'kkkk"),
    "5,000-digit seed": (spliced("seed", "9" * 5000), "a number of 5,000 characters (at most 100)"),
    "5,000-digit cell": (spliced("cells", "[[" + "1" * 5000 + "]]"), "a number of 5,000 characters"),
    "5,000-digit fraction": (spliced("seed", "0." + "1" * 5000), "a number of 5,002 characters"),
    "30-digit seed": (spliced("seed", "9" * 30), "seed must be an integer in 0..9223372036854775807"),
    "negative seed": (edited(seed=-1), "seed must be an integer in 0.."),
    "1e400 seed": (spliced("seed", "1e400"), "the number '1e400' is too large"),
    "NaN seed": (spliced("seed", "NaN"), "NaN is not a number"),
    "-Infinity rows": (spliced("rows", "-Infinity"), "-Infinity is not a number"),
    "float rows": (edited(rows=3.0), "rows must be an integer in 1..2000"),
    "boolean rows": (edited(rows=True), "rows must be an integer in 1..2000"),
    "rows 10**12": (edited(rows=10**12), "rows must be an integer in 1..2000"),
    "string version": (edited(version="1"), "format must be 'laby3d.maze' version 1"),
    "array nested 100,000 deep": ("[" * 100_000 + "]" * 100_000, "nest 100000 deep"),
    "object nested 100,000 deep": ('{"a":' * 100_000 + "1" + "}" * 100_000, "nest 100000 deep"),
    "nesting in the options": (spliced("options", '{"policy": ' + "[" * 5000 + "]" * 5000 + "}"), "nest 5002 deep"),
    "brackets inside a string": (edited(algorithm="[" * 100_000), "algorithm must be at most 1,000 characters"),
    "100,000 escaped quotes": ('{"a": "' + '\\"' * 100_000, "not valid JSON"),
    "escaped quotes, lone backslash at the end": ('"' + '\\"' * 100_000 + "\\", "not valid JSON"),
    "100,000 quotes": ('"' * 100_000, "not valid JSON"),
    "4 million empty arrays": ('{"solution": [' + "[]," * 4_003_000 + "[]]}", "holds 4,003,003 arrays and objects"),
    "13 million numbers": ('{"cells": [' + "0," * 13_000_000 + "0]}", "and 13,000,000 commas"),
    "duplicate key": (edited()[:-1] + ', "rows": 3}', "duplicate key 'rows'"),
    "entrance = exit": (edited(exit=VALID["entrance"]), "entrance and exit must differ"),
    "entrance not a mapping": (edited(entrance=[0, 0, "W"]), "entrance must be an object with row, col and side"),
    "entrance off the grid": (edited(entrance={"row": 99, "col": 0, "side": "W"}), "entrance.row must be"),
    "exit side inside": (edited(exit={"row": 1, "col": 1, "side": "N"}), "not on the border or not open"),
    "unknown option": (edited(options={"bias": 0.5}), "options.bias is not an option of growing_tree"),
    "option as a list": (edited(options={"policy": ["newest"]}), "options.policy must be a number or a string"),
    "options without algorithm": (edited(algorithm=None), "options need an algorithm"),
    "cells as booleans": (edited(cells=[[True] * 4] * 3), "cell (0, 0) must be an integer 0..15, got True"),
    "cells as floats": (edited(cells=[[1.0] * 4] * 3), "cell (0, 0) must be an integer 0..15, got 1.0"),
    "2000 x 2000 declared, 3 rows given": (edited(rows=2000, cols=2000), "cells must be a list of 2000 rows"),
    "solution of garbage": (edited(solution=[["x"]] * 100_000), "solution is not the path"),
    "top-level array": ("[1, 2, 3]", "a maze file must hold a JSON object, got list"),
    "top-level null": ("null", "a maze file must hold a JSON object, got NoneType"),
    "empty text": ("", "not valid JSON"),
    "byte-order mark in the text": ("\ufeff" + edited(), "not valid JSON"),
    "truncated": (edited()[:100], "not valid JSON"),
    "missing cells": (json.dumps({k: v for k, v in VALID.items() if k != "cells"}), "missing key 'cells'"),
}


@pytest.mark.parametrize(("text", "fragment"), list(MAZE_FILES.values()), ids=list(MAZE_FILES))
def test_hostile_maze_file_is_refused_quickly_on_one_line(text: str, fragment: str) -> None:
    assert_refusal(lambda: maze_from_json(text), laby3d.MazeFileError, fragment)


def test_maze_file_on_disk_non_utf8_bom_and_oversize(tmp_path: Path) -> None:
    latin = tmp_path / "latin.maze.json"
    latin.write_bytes(b'{"format": "laby3d.maze", "algorithm": "\xe9"}')
    assert_refusal(lambda: read_maze_file(latin), laby3d.MazeFileError, f"{latin}: not UTF-8 text (byte 0xe9")
    utf16 = tmp_path / "utf16.maze.json"
    utf16.write_bytes(edited().encode("utf-16"))
    assert_refusal(
        lambda: read_maze_file(utf16), laby3d.MazeFileError, "UTF-16 text (byte-order mark FF FE), not UTF-8; save"
    )
    with_bom = tmp_path / "bom.maze.json"
    with_bom.write_bytes(b"\xef\xbb\xbf" + edited().encode())
    assert read_maze_file(with_bom).rows == 3  # as Windows editors save it


BOMB_VALUE = "&a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"


def laughs(place: str) -> str:
    """A 'billion laughs' (10 × 9 aliases deep: 10⁹ strings) whose last alias sits at ``place``."""
    lines = ["bombs:", f"  a: {BOMB_VALUE}"]
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"  {name}: &{name} [{', '.join(['*' + previous] * 10)}]")
    return "\n".join(lines) + "\n" + place.replace("BOMB", "*i") + "\n"


YAML_DOCUMENTS = {
    "laughs in label": (laughs("label: BOMB"), "expands to more than 100,000 values"),
    "laughs in names": (laughs("names: [Ana, BOMB]"), "expands to more than 100,000 values"),
    "laughs in output_dir": (laughs("output_dir: BOMB"), "expands to more than 100,000 values"),
    "laughs in defaults.label": (laughs("defaults:\n  label: BOMB"), "expands to more than 100,000 values"),
    "laughs in maze.policy": (laughs("jobs:\n  - maze:\n      policy: BOMB"), "expands to more than 100,000 values"),
    "merge-key laughs": (
        "a: &a {x: 1, y: 2}\n"
        + "".join(
            f"{n}: &{n} {{<<: [{', '.join(['*' + p] * 10)}]}}\n" for p, n in zip("abcdefgh", "bcdefghi", strict=True)
        ),
        "expands to more than 100,000 values",
    ),
    "aliases nesting deep": (
        "a0: &a0 [x]\n" + "".join(f"a{i}: &a{i} [*a{i - 1}]\n" for i in range(1, 40)),
        "aliases nest lists and mappings more than 32 deep",
    ),
    "flow nested 100,000 deep": ("[" * 100_000 + "]" * 100_000, "line 1:"),
    "block nested 40 deep": ("".join("  " * i + "a:\n" for i in range(40)) + "  " * 40 + "b: 1\n", "nest more than 32"),
    "duplicate top-level key": ("label: Ana\nseed: 1\nlabel: Bob\n", "line 3: duplicate key 'label' (first at line 1)"),
    "duplicate nested key": ("jobs:\n  - maze: {rows: 5, rows: 6}\n", "line 2: duplicate key 'rows'"),
    "5,000-digit integer": ("seed: " + "9" * 5000, "an integer of 5,000 characters"),
    "5,000-digit hexadecimal": ("seed: 0x" + "f" * 5000, "an integer of 5,002 characters"),
    "escaped lone surrogate": ('label: "\\ud800"', "line 1:"),
    "python object": ("label: !!python/object/apply:os.system [ls]", "could not determine a constructor"),
    "binary": ("label: !!binary aGVsbG8=", "tag tag:yaml.org,2002:binary is not allowed"),
    "set": ("names: !!set {Ana, Bob}", "tag tag:yaml.org,2002:set is not allowed"),
    "two documents": ("seed: 1\n---\nseed: 2\n", "but found another document"),
    "undefined alias": ("label: *nowhere\n", "found undefined alias"),
    "tab indentation": ("jobs:\n\t- name: a\n", "line 2:"),
    "2 MB document": ("label: " + "x" * 2_000_000, "document is over 1,048,576 bytes"),
    "aliased long text": (
        "a: &a " + "x" * 500_000 + "\nnames: [" + ", ".join(["*a"] * 10) + "]\n",
        "expands to more than 4,194,304 characters",
    ),
    "100,000-item list": ("names:\n" + "- a\n" * 100_001, "expands to more than 100,000 values"),
}


@pytest.mark.parametrize(("text", "fragment"), list(YAML_DOCUMENTS.values()), ids=list(YAML_DOCUMENTS))
def test_hostile_yaml_is_refused_quickly_on_one_line(text: str, fragment: str) -> None:
    message = assert_refusal(lambda: load_yaml(text, "batch.yaml"), YamlError, fragment)
    assert message.startswith("batch.yaml: ")


def test_billion_laughs_is_refused_in_milliseconds() -> None:
    bomb = laughs("label: BOMB")
    assert len(bomb.encode()) < 600
    start = time.perf_counter()
    with pytest.raises(YamlError):
        load_yaml(bomb, "bomb.yaml")
    assert time.perf_counter() - start < 0.05


def test_yaml_file_non_utf8_is_named(tmp_path: Path) -> None:
    latin = tmp_path / "classe.yaml"
    latin.write_bytes("jobs:\n  - label: Zoé\n".encode("latin-1"))
    message = assert_refusal(
        lambda: load_yaml_file(latin), YamlError, "not UTF-8 text (byte 0xe9 at offset 19, line 2)"
    )
    assert message.startswith("classe.yaml: ")
    big = tmp_path / "big.yaml"
    with big.open("wb") as stream:
        stream.truncate(2 << 20)
    assert_refusal(lambda: load_yaml_file(big), YamlError, "big.yaml: file is 2,097,152 bytes")


def test_yaml_plain_scalars_follow_yaml_1_2() -> None:
    expected = {"a": "no", "b": "on", "c": 10, "d": "2024-01-01", "e": "1:20", "f": True, "g": 31, "h": 1000, "i": None}
    block = "a: no\nb: on\nc: 010\nd: 2024-01-01\ne: 1:20\nf: true\ng: 0x1f\nh: 1_000\ni: ~"
    assert load_yaml(block, "t.yaml") == expected
    flow = "{a: no, b: on, c: 010, d: 2024-01-01, e: '1:20', f: true, g: 0x1f, h: 1_000, i: null}"
    assert load_yaml(flow, "t.yaml") == expected


def test_control_characters_are_left_to_the_fields() -> None:
    assert load_yaml('name: "a\\0b\\e[31m"', "t.yaml") == {"name": "a\x00b\x1b[31m"}


def test_merge_keys_may_override_without_being_duplicates() -> None:
    text = "base: &base {rows: 5, cols: 5}\njob: {<<: *base, cols: 9}\n"
    assert load_yaml(text, "t.yaml")["job"] == {"rows": 5, "cols": 9}


# --- fuzz: random mutations of valid maze files -------------------------------------------------

VALID_FILES = [
    laby3d.generate(rows, cols, algorithm=algorithm, seed=seed, placement=placement).to_json()
    for rows, cols, algorithm, seed, placement in [
        (1, 1, "kruskal", 1, "corners"),
        (2, 3, "wilson", 2, "center"),
        (4, 4, "growing_tree", 3, "hardest"),
        (3, 5, "sidewinder", 4, "opposite-sides"),
    ]
]
HOSTILE_TEXT = st.one_of(
    st.text(
        alphabet=st.one_of(st.characters(), st.sampled_from(["\ud800", "\udfff", "\u0000", "\u2028", '"', "\\", "["])),
        max_size=30,
    ),
    st.sampled_from(["</script><script>alert(1)</script>", "kruskal", "newest", "N", "W"]),
)
JSON_VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.sampled_from([0, 1, 15, 16, -1, 2**63 - 1, 2**63, 10**400]),
        st.floats(allow_nan=True, allow_infinity=True),
        HOSTILE_TEXT,
    ),
    lambda children: st.one_of(st.lists(children, max_size=5), st.dictionaries(HOSTILE_TEXT, children, max_size=5)),
    max_leaves=12,
)


@st.composite
def mutated_maze_files(draw: st.DrawFn) -> str:
    """A valid maze file with a few random edits: of its JSON values, or of its raw text."""
    text = draw(st.sampled_from(VALID_FILES))
    data = json.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["value", "cell", "opening", "delete", "add", "text"]))
        if kind == "value":
            data[draw(st.sampled_from(sorted(data)))] = draw(JSON_VALUES)
        elif kind == "cell" and isinstance(data.get("cells"), list) and data["cells"]:
            row = draw(st.integers(0, len(data["cells"]) - 1))
            if isinstance(data["cells"][row], list) and data["cells"][row]:
                column = draw(st.integers(0, len(data["cells"][row]) - 1))
                data["cells"][row][column] = draw(st.one_of(st.integers(-2, 17), JSON_VALUES))
        elif kind == "opening" and isinstance(data.get("entrance"), dict):
            data[draw(st.sampled_from(["entrance", "exit"]))] = {
                key: draw(JSON_VALUES | st.integers(-1, 5) | st.sampled_from("NESW")) for key in ("row", "col", "side")
            }
        elif kind == "delete" and data:
            del data[draw(st.sampled_from(sorted(data)))]
        elif kind == "add":
            data[draw(HOSTILE_TEXT)] = draw(JSON_VALUES)
    text = json.dumps(data, ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):  # raw edits: cut, insert or repeat a piece of text
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["cut", "insert", "repeat"]))
        if edit == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 20)) :]
        elif edit == "insert":
            text = text[:at] + draw(HOSTILE_TEXT | st.sampled_from(["[" * 50, "{", "]", ",", "9" * 5000])) + text[at:]
        else:
            text = text[:at] + text[at : at + 30] * draw(st.integers(2, 50)) + text[at:]
    return text


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_maze_files())
def test_fuzzed_maze_files_give_a_maze_or_a_maze_file_error(text: str) -> None:
    try:
        maze = maze_from_json(text)
    except laby3d.MazeFileError as error:
        message = str(error)
        assert message and "\n" not in message and len(message) <= LONGEST_MESSAGE, message
        return
    assert laby3d.Maze.from_json(maze.to_json()).to_json() == maze.to_json()


# --- scene files: the same reader and rules as maze files (issue 21) ----------------------------


def scene_text(maze: laby3d.Maze) -> str:
    from laby3d.export.scene import scene_json
    from laby3d.geometry.params import Fabrication
    from laby3d.options.walk import WalkSpec

    return scene_json(maze, Fabrication(), walk=WalkSpec())


VALID_SCENE = json.loads(scene_text(laby3d.generate(3, 4, algorithm="growing_tree", seed=5, placement="hardest")))


def scene_spliced(key: str, raw: str) -> str:
    """The valid scene with ``key``'s value replaced by the raw JSON text ``raw``."""
    data = json.loads(json.dumps(VALID_SCENE))
    data[key] = "@@RAW@@"
    return json.dumps(data).replace('"@@RAW@@"', raw)


SCENE_FILES = {
    "5,000-digit number": (scene_spliced("cell_size", "9" * 5000), "a number of 5,000 characters (at most 100)"),
    "5,000-digit wall": (scene_spliced("walls", "[[" + "1" * 5000 + "]]"), "a number of 5,000 characters"),
    "1e400 size": (scene_spliced("wall_height", "1e400"), "the number '1e400' is too large"),
    "NaN size": (scene_spliced("cell_size", "NaN"), "NaN is not a number"),
    "duplicate key": (scene_spliced("units", '"mm", "units": "mm"'), "duplicate key 'units'"),
    "duplicate nested key": (
        scene_spliced("walk", '{"overview": true, "overview": false}'),
        "duplicate key 'overview'",
    ),
    "nested 100,000 deep": ("[" * 100_000 + "]" * 100_000, "nest 100000 deep"),
    "nesting in walk": (scene_spliced("walk", "[" * 5000 + "]" * 5000), "nest 5001 deep"),
    "13 million empty objects": ("[" + "{}," * 13_000_000 + "{}]", "holds 13,000,002 arrays and objects"),
    "control character in a key": (scene_spliced("walk", '{"a\\u0007": 1}'), "holds the control character U+0007"),
    "lone surrogate in units": (scene_spliced("units", '"\\udfff"'), "units is not valid Unicode"),
    "10 MB units": (scene_spliced("units", '"' + "m" * 10_000_000 + '"'), "units must be at most 1,000 characters"),
    "not an object": ("[]", "scene file: must hold a JSON object"),
}


@pytest.mark.parametrize(("text", "fragment"), list(SCENE_FILES.values()), ids=list(SCENE_FILES))
def test_hostile_scene_file_is_refused_quickly_on_one_line(text: str, fragment: str) -> None:
    from laby3d.export.scene import maze_from_scene

    message = assert_refusal(lambda: maze_from_scene(text), laby3d.MazeFileError, fragment)
    assert message.startswith("scene file: ")


def test_a_scene_file_holds_at_most_what_the_largest_scene_holds() -> None:
    """The pre-parse limits of a scene follow the largest page the budget lets laby3d write;
    a file past them is refused without being parsed (127 MB of empty objects took 3 GB)."""
    from laby3d.budget import largest_scene_cells
    from laby3d.export.scene import maze_from_scene, scene_limits

    limits = scene_limits()  # a square scene holds about 125 bytes a cell (tests/test_walk_shapes.py)
    assert 125 * largest_scene_cells("square") <= limits.max_bytes < 400_000_000
    empty_objects = "[" + "{}," * limits.max_containers + "{}]"
    assert len(empty_objects) < limits.max_bytes
    assert_refusal(lambda: maze_from_scene(empty_objects), laby3d.MazeFileError, f"holds {limits.max_containers + 2:,}")


VALID_SCENES = [
    scene_text(laby3d.generate(rows, cols, algorithm=algorithm, seed=seed, placement=placement))
    for rows, cols, algorithm, seed, placement in [
        (1, 1, "kruskal", 1, "corners"),
        (2, 3, "wilson", 2, "center"),
        (3, 4, "growing_tree", 3, "hardest"),
    ]
]
SCENE_KEYS = sorted(VALID_SCENE)


@st.composite
def mutated_scene_files(draw: st.DrawFn) -> str:
    """A valid scene file with a few random edits: of its values, walls and doors, or raw text."""
    data = json.loads(draw(st.sampled_from(VALID_SCENES)))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["value", "wall", "door", "size", "delete", "add"]))
        if kind == "value":
            data[draw(st.sampled_from(SCENE_KEYS))] = draw(JSON_VALUES)
        elif kind == "wall" and isinstance(data.get("walls"), list) and data["walls"]:
            wall = draw(st.integers(0, len(data["walls"]) - 1))
            data["walls"][wall] = draw(st.lists(st.one_of(st.integers(-5, 50), JSON_VALUES), max_size=5))
        elif kind == "door":
            opening = data.get(draw(st.sampled_from(["entrance", "exit"])))
            if isinstance(opening, dict):
                opening["door"] = draw(JSON_VALUES)
        elif kind == "size":
            name = draw(st.sampled_from(["cell_size", "wall_thickness", "wall_height"]))
            data[name] = draw(st.floats(allow_nan=False, allow_infinity=False) | st.integers(-1, 100) | JSON_VALUES)
        elif kind == "delete" and data:
            del data[draw(st.sampled_from(sorted(data)))]
        elif kind == "add":
            data[draw(HOSTILE_TEXT)] = draw(JSON_VALUES)
    text = json.dumps(data, ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):
        at = draw(st.integers(0, len(text)))
        insert = draw(HOSTILE_TEXT | st.sampled_from(["[" * 50, "{", "]", ",", "9" * 5000, "1e999", '"x":1,']))
        text = text[:at] + insert + text[at:]
    return text


def check_scene_outcome(text: str) -> None:
    """A maze that round-trips through its own scene, or one line of MazeFileError."""
    from laby3d.export.scene import maze_from_scene

    try:
        maze = maze_from_scene(text)
    except laby3d.MazeFileError as error:
        message = str(error)
        assert message and "\n" not in message and len(message) <= LONGEST_MESSAGE, message
        return
    assert maze_from_scene(scene_text(maze)).to_json() == maze.to_json()


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_scene_files())
def test_fuzzed_scene_files_give_a_maze_or_a_maze_file_error(text: str) -> None:
    check_scene_outcome(text)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_scene_files())
def test_fuzzed_scene_files_long_run(text: str) -> None:
    check_scene_outcome(text)
