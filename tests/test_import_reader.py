"""`laby3d import` reads JSON and a Python literal by one rule set, says every refusal in its own
words (never Python's: "line None", "sys.set_int_max_str_digits()", "maximum recursion depth"),
names the encoding a file was saved in with the fix, and takes exactly the cells its documents
say (issue 28).

The oracle of "one rule set" is the pair of texts a test writes itself for one value: JSON text
and Python text of the same lists, dicts and constants (duplicates and control characters
included), which both readers must accept alike or both refuse.
"""

from __future__ import annotations

import json
import pprint
import re
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import laby3d
from laby3d.cli import main
from laby3d.errors import MazeFileError
from laby3d.jsonsafe import load_json
from laby3d.maze.classroom import (
    CELL_BYTES,
    JSON_LIMITS,
    MAX_JSON_CELLS,
    MAX_PYTHON_CELLS,
    classroom_from_json,
    classroom_from_python,
    classroom_from_text,
    python_literal,
)

ROOT = Path(__file__).parent.parent
#: Python's own words a user must never see.
PYTHONS_WORDS = re.compile(
    r"line None|set_int_max_str_digits|recursion|ast construction|not valid Python: $|null bytes"
)


def refusal(call: Any) -> str:
    start = time.perf_counter()
    with pytest.raises(MazeFileError) as caught:
        call()
    message = str(caught.value)
    assert time.perf_counter() - start < 2.0, message
    assert "\n" not in message and len(message) <= 300 and not PYTHONS_WORDS.search(message), message
    return message


# --- one rule set ---------------------------------------------------------------------------------

#: A value as (kind, ...) so that an object may repeat a key: ("object", [(key, value), ...]).
scalars = st.one_of(
    st.booleans(),
    st.none(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=8),
    st.sampled_from(["N", "E", "S", "O", "a\x00b", "tab\there", "\u2028", "é"]),
)
keys = st.one_of(st.sampled_from(["N", "E", "S", "O", "zone"]), st.text(max_size=4))
trees = st.recursive(
    scalars.map(lambda value: ("scalar", value)),
    lambda children: st.one_of(
        st.lists(children, max_size=4).map(lambda items: ("list", items)),
        st.lists(st.tuples(keys, children), max_size=4).map(lambda pairs: ("object", pairs)),
    ),
    max_leaves=12,
)


def as_json(tree: tuple) -> str:
    kind, content = tree
    if kind == "scalar":
        return json.dumps(content)
    if kind == "list":
        return "[" + ", ".join(as_json(item) for item in content) + "]"
    return "{" + ", ".join(f"{json.dumps(key)}: {as_json(value)}" for key, value in content) + "}"


def as_python(tree: tuple) -> str:
    kind, content = tree
    if kind == "scalar":
        return repr(content)
    if kind == "list":
        return "[" + ", ".join(as_python(item) for item in content) + "]"
    return "{" + ", ".join(f"{key!r}: {as_python(value)}" for key, value in content) + "}"


def read(call: Any) -> tuple[str, Any]:
    try:
        return "value", call()
    except MazeFileError as error:
        return "refused", re.sub(r"^line \d+: ", "", str(error)).split(" (first at line")[0]


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@settings(max_examples=300, deadline=None)
@given(tree=trees)
def test_json_and_python_texts_of_one_value_are_read_alike(tree: tuple) -> None:
    from_json = read(lambda: load_json(as_json(tree), JSON_LIMITS))
    from_python = read(lambda: python_literal(as_python(tree)))
    assert from_json[0] == from_python[0], (as_json(tree), from_json, from_python)
    if from_json[0] == "value":
        assert from_json == from_python
    else:
        assert from_json[1] == from_python[1]


def test_a_repeated_key_is_refused_in_both_forms() -> None:
    """The Python form kept the last of two "O" keys silently; the JSON reader refused it."""
    python = "labyrinthe = [\n    [{'N': False, 'E': False, 'S': False, 'O': True,\n      'O': False}],\n]\n"
    assert refusal(lambda: classroom_from_python(python)) == "line 3: duplicate key 'O' (first at line 2)"
    assert refusal(lambda: classroom_from_json('[[{"N": false, "E": false, "S": false, "O": true, "O": true}]]')) == (
        "duplicate key 'O'"
    )


# --- Python's words replaced ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" + "-" * 100_000 + "1]", "line 1: signs one after another: a number takes one sign at most"),
        ("[" + "- " * 50_000 + "1]", "line 1: signs one after another"),
        ("[" + "not " * 10_000 + "True]", "line 1: 'not' is not a value: only lists, dicts, True, False, None"),
        ("x = [\n" + "1+" * 100_000 + "1]", "line 2: '+' between two values: only lists, dicts"),
        ("[" + "a." * 100_000 + "b]", "line 1: 'a' is not a value"),
        ("[\n\n" + "9" * 5000 + "]", "line 3: a number of 5,000 characters (at most 100)"),
        ("[0x" + "f" * 200 + "]", "line 1: a number of 202 characters (at most 100)"),
        ("[1e400]", "the number '1e400' is too large"),
        ("[-1e999]", "the number '-1e999' is too large"),
        ("[\0]", "line 1: '\\x00' cannot be in a classroom file"),
        ("[1j]", "line 1: '1j' is a complex number"),
        ("[b'N']", "line 1: only lists, dicts"),
        ("[f'{x}']", "line 1: only lists, dicts"),
        ("[{1, 2}]", "line 1: only lists, dicts"),
        ("[{**x}]", "line 1: '*' cannot be in a classroom file"),
        ("[{1: True}]", "line 1: a key must be a string such as 'N', got 1"),
        ("[[{'N': True}]]\nimport os", "line 2: 'import' is not a value"),
        ("[1, -]", "line 1: a sign before something else than a number"),
        ("[1 -]", "line 1: '-' between two values"),
        ("[[{'N': True}]", "not valid Python: line 1: '[' was never closed"),
        ("labyrinthe = [[\n{'N': True}\n]", "not valid Python: line 1: '[' was never closed"),
    ],
)
def test_pythons_own_messages_are_replaced_by_what_to_do(text: str, message: str) -> None:
    assert message in refusal(lambda: classroom_from_python(text))


def test_a_text_neither_reader_takes_keeps_the_useful_half() -> None:
    """ "neither JSON (…) nor a Python literal (…)" was cut at 300 characters in its second half,
    the one that said what was wrong with a pupil's Python file."""
    python = (
        "labyrinthe = [\n" + "    [{'N': False, 'E': True, 'S': True, 'O': True}],\n" * 40 + "    [{'N': Flase}]\n]\n"
    )
    message = refusal(lambda: classroom_from_text(python))
    assert message.startswith("neither JSON nor a Python literal: line 42: 'Flase' is not a value")
    assert refusal(lambda: classroom_from_text('[[{"N": tru}]]')).startswith(
        "neither a Python literal nor JSON: not valid JSON: line 1 column 9: expecting value"
    )


# --- encodings named, with the fix ----------------------------------------------------------------

FORM = laby3d.to_classroom(laby3d.generate(3, 4, seed=2))


@pytest.mark.parametrize(
    ("encoding", "named"),
    [
        ("utf-16-le", "UTF-16 text (without a byte-order mark), not UTF-8"),
        ("utf-16-be", "UTF-16 text (without a byte-order mark), not UTF-8"),
        ("utf-16", "UTF-16 text (byte-order mark FF FE), not UTF-8"),
        ("utf-32", "UTF-32 text (byte-order mark FF FE 00 00), not UTF-8"),
        ("cp1252", "not UTF-8 text (byte 0xe9 at offset 4, line 1), perhaps Windows-1252 or Latin-1 ('é')"),
    ],
)
@pytest.mark.parametrize("ending", [".json", ".py", ".txt"])
def test_a_file_in_another_encoding_is_named_with_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], encoding: str, named: str, ending: str
) -> None:
    """UTF-16 without a byte-order mark got "Expecting value" or "null bytes"."""
    text = "# Zoé\n" + repr(FORM) if ending == ".py" else "\n" + json.dumps(FORM)
    if encoding == "cp1252":
        text = "# Zoé\n" + repr(FORM) if ending != ".json" else '["Zoé", ' + json.dumps(FORM) + "]"
    path = tmp_path / f"labyrinthe{ending}"
    path.write_bytes(text.encode(encoding))
    assert main(["import", str(path), "-o", str(tmp_path / "m.maze.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"laby3d: error: {path}: ") and named in err, err
    assert err.endswith("save the file as UTF-8 (in the editor's Save as…, Encoding: UTF-8)")
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_standard_input_in_utf16_is_named(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import sys

    class Stdin:
        buffer = io.BytesIO(repr(FORM).encode("utf-16-le"))

    monkeypatch.setattr(sys, "stdin", Stdin())
    assert main(["import", "-", "-o", "m.maze.json"]) == 2
    assert "standard input: UTF-16 text (without a byte-order mark), not UTF-8; save" in capsys.readouterr().err


def test_the_other_readers_name_the_encoding_too(tmp_path: Path) -> None:
    from laby3d.maze.mazefile import read_maze_file
    from laby3d.yamlsafe import YamlError, load_yaml_file

    (tmp_path / "b.yaml").write_bytes("jobs:\n  - {name: Zoé}\n".encode("utf-16-le"))
    with pytest.raises(YamlError, match=r"b.yaml: UTF-16 text \(without a byte-order mark\), not UTF-8; save"):
        load_yaml_file(tmp_path / "b.yaml")
    (tmp_path / "m.maze.json").write_bytes(laby3d.generate(3, 3, seed=1).to_json().encode("utf-16-be"))
    with pytest.raises(MazeFileError, match=r"UTF-16 text \(without a byte-order mark\), not UTF-8; save"):
        read_maze_file(tmp_path / "m.maze.json")
    (tmp_path / "z.maze.json").write_bytes(b'{"format"\x00: 1}')
    with pytest.raises(MazeFileError, match="not text: a zero byte at offset 9, line 1"):
        read_maze_file(tmp_path / "z.maze.json")


# --- the documented limits are the enforced ones --------------------------------------------------


def test_the_documents_quote_the_limits_the_code_enforces() -> None:
    table = (ROOT / "docs" / "classroom-form.md").read_text(encoding="utf-8")
    row = next(line for line in table.splitlines() if line.startswith("| cells |"))
    assert row == f"| cells | {MAX_JSON_CELLS:,} (500×500) | {MAX_PYTHON_CELLS:,} (100×100) |"
    row = next(line for line in table.splitlines() if line.startswith("| bytes |"))
    assert row == f"| bytes | {CELL_BYTES} per cell + 10,000 | {CELL_BYTES} per cell + 10,000 |"
    assert JSON_LIMITS.max_bytes == CELL_BYTES * MAX_JSON_CELLS + 10_000


def form_text(rows: int, cols: int, style: str) -> str:
    form = laby3d.to_classroom(laby3d.generate(rows, cols, seed=5))
    if style == "json.dump":
        return json.dumps(form)
    if style == "json.dump indent=4":
        return json.dumps(form, indent=4)
    if style == "print":
        return repr(form)
    return "labyrinthe = " + pprint.pformat(form)


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@pytest.mark.parametrize("style", ["print", "pprint"])
def test_the_python_form_takes_exactly_its_documented_cells(style: str) -> None:
    """A 101×100 Python file was accepted though the documents say 10,000 cells."""
    assert classroom_from_python(form_text(100, 100, style)).rows == 100
    text = form_text(101, 100, style)
    message = refusal(lambda: classroom_from_python(text))
    assert message == "holds 10,100 cells; a classroom file in Python holds at most 10,000"


@pytest.mark.slow
@pytest.mark.parametrize("style", ["json.dump", "json.dump indent=4"])
def test_the_json_form_takes_exactly_its_documented_cells(style: str) -> None:
    """json.dump(indent=4) of a 500×500 maze was refused by its size, and 501×500 accepted, though
    the documents say 250,000 cells."""
    assert classroom_from_json(form_text(500, 500, style)).rows == 500
    text = form_text(501, 500, style)
    message = refusal(lambda: classroom_from_json(text))
    assert message == "holds 250,500 cells; a classroom file in JSON holds at most 250,000"


def test_the_json_form_counts_its_cells() -> None:
    rows = [[{"N": False}] * 2000] * 126  # 252,000 cells in a file well under its size limit
    message = refusal(lambda: classroom_from_json(json.dumps(rows)))
    assert message == "holds 252,000 cells; a classroom file in JSON holds at most 250,000"
    rows = [[0] * 2000] * 126  # numbers, not dicts: counted once parsed
    message = refusal(lambda: classroom_from_json(json.dumps(rows)))
    assert message == "holds 252,000 cells; a classroom file in JSON holds at most 250,000"
