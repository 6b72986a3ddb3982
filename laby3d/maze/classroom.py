"""The class exercise's files: the maze as its rows of ``N``/``E``/``S``/``O`` dicts (True = open) as
JSON (``.classroom.json``) or Python source (``.classroom.py``), read and written.

Reading takes what a pupil's program gives: JSON (``json.dump(labyrinthe, f)``), or a Python
literal, alone (``print(labyrinthe)``) or assigned to one name (``labyrinthe = [...]``). Python
is never run: its text is scanned for what a literal holds (brackets, commas, colons, one sign
before a number, numbers, strings, True/False/None), then parsed with :func:`ast.parse` and read
node by node by the JSON reader's rules (:mod:`laby3d.jsonsafe`: no key twice, keys and texts
without control characters, numbers of at most 100 characters). Both are checked before parsing
against :data:`JSON_LIMITS` / :data:`PYTHON_LIMITS` (size, nesting, number of lists and dicts,
commas), so a hostile file is refused in linear time and bounded memory, and after parsing
against their number of cells, :data:`MAX_JSON_CELLS` and :data:`MAX_PYTHON_CELLS` (Python's
own parser needs about 10 KB per cell: its limit is smaller). The entrance and exit rule, and
every check of the cells, are :func:`laby3d.maze.convert.from_classroom`'s.

>>> import laby3d
>>> maze = laby3d.generate(2, 2, seed=3)
>>> print(classroom_json(maze), end="")
[
  [{"N": false, "E": true, "S": true, "O": true}, {"N": false, "E": false, "S": false, "O": true}],
  [{"N": true, "E": true, "S": false, "O": false}, {"N": false, "E": true, "S": false, "O": true}]
]
>>> classroom_from_text(classroom_py(maze)).grid.cells.tolist() == maze.grid.cells.tolist()
True
"""

from __future__ import annotations

import ast
import json
import os
import re
import sys
from typing import Any

from laby3d.errors import MazeFileError
from laby3d.jsonsafe import (
    JsonLimits,
    JsonShape,
    check_finite,
    check_number_text,
    checked_object,
    json_shape,
    load_json,
)
from laby3d.maze.convert import from_classroom, to_classroom
from laby3d.maze.model import MAX_SIDE, Maze
from laby3d.quoting import shown, shown_path
from laby3d.textfiles import decoded, read_limited_text

#: Most cells of a classroom file in JSON (500×500), and in Python (100×100): docs/classroom-form.md
#: quotes them.
MAX_JSON_CELLS, MAX_PYTHON_CELLS = 250_000, 10_000
#: Most bytes a cell may take: ``json.dump(..., indent=4)`` of a cell with every optional key
#: takes about 160, ``print(labyrinthe)`` 48.
CELL_BYTES = 250
#: Name given to the maze in a written ``.classroom.py``.
PYTHON_NAME = "labyrinthe"
#: What a classroom file may hold, for messages.
LITERALS = "only lists, dicts, True, False, None, numbers and strings may be written (the file is read, never run)"


def _limits(form: str, cells: int) -> JsonLimits:
    """Limits of a classroom file of at most ``cells`` cells: a list per row, a dict per cell
    of at most 7 keys (sides, zone, entrance and exit marks), :data:`CELL_BYTES` per cell."""
    return JsonLimits(
        kind=f"a classroom file in {form}",
        max_bytes=CELL_BYTES * cells + 10_000,
        max_containers=cells + MAX_SIDE + 8,
        max_commas=7 * cells + MAX_SIDE + 8,
        max_depth=8,
        why=f"at most {cells:,} cells: a list per row, a dict of at most 7 keys per cell",
        max_objects=cells,
        objects="cells",
    )


JSON_LIMITS = _limits("JSON", MAX_JSON_CELLS)
PYTHON_LIMITS = _limits("Python", MAX_PYTHON_CELLS)
#: A Python comment or string literal (any prefix, single or triple quotes; an unterminated one
#: runs to the end of its line, or of the text for triple quotes). Each character is matched by one
#: branch only, so the scan stays linear.
_PYTHON_STRING_OR_COMMENT = re.compile(
    r"""#[^\n]*|[rRbBuUfF]{0,2}(?:'''(?:[^'\\]|\\.|'(?!''))*(?:'''|\Z)|\"\"\"(?:[^"\\]|\\.|"(?!""))*(?:\"\"\"|\Z)"""
    r"""|'(?:[^'\\\n]|\\.)*(?:'|$)|"(?:[^"\\\n]|\\.)*(?:"|$))""",
    re.DOTALL | re.MULTILINE,
)
#: The pieces of Python source outside strings and comments, for :func:`check_python_text`.
_PYTHON_PIECE = re.compile(
    r"""(?P<space>(?:[ \t\f\r\n]|\\\r?\n)+)|(?P<string>"")"""
    r"""|(?P<number>(?:0[xXoObB][0-9a-fA-F_]*|(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][-+]?[0-9_]+)?)[jJ]?)"""
    r"""|(?P<name>[^\W\d]\w*)|(?P<open>[\[({])|(?P<close>[\])}])|(?P<comma>[,:])|(?P<assign>=(?!=))|(?P<sign>[-+])"""
    r"""|(?P<other>.)""",
    re.DOTALL,
)
_CONSTANT_NAMES = ("True", "False", "None")


def read_classroom(path: str | os.PathLike[str], *, placement: str | None = None, seed: int = 0) -> Maze:
    """The maze of a classroom file (``-``: standard input), JSON or Python by its ending
    (``.json``, ``.py``; any other is tried as JSON, then as Python); every error names the file.
    ``placement`` and ``seed`` open a closed maze (:func:`laby3d.maze.convert.from_classroom`)."""
    name = "standard input" if str(path) == "-" else shown_path(path)
    python = str(path).lower().endswith(".py")
    limit = (PYTHON_LIMITS if python else JSON_LIMITS).max_bytes
    if str(path) == "-":
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise MazeFileError(f"{name}: more than {limit:,} bytes, at most {limit:,} are read")
        text = decoded(data, name=name, error=MazeFileError)
    else:
        text = read_limited_text(path, name=name, limit=limit, error=MazeFileError)
    try:
        if python:
            return classroom_from_python(text, placement=placement, seed=seed)
        if str(path).lower().endswith(".json"):
            return classroom_from_json(text, placement=placement, seed=seed)
        return classroom_from_text(text, placement=placement, seed=seed)
    except MazeFileError as error:
        raise MazeFileError(f"{name}: {error}") from None


def classroom_from_json(text: str, *, placement: str | None = None, seed: int = 0) -> Maze:
    """The maze of a classroom file's JSON text (a closed one opened by ``placement``)."""
    rows = _checked_cells(load_json(text, JSON_LIMITS), MAX_JSON_CELLS, "JSON")
    return from_classroom(rows, placement=placement, seed=seed)


def classroom_from_text(text: str, *, placement: str | None = None, seed: int = 0) -> Maze:
    """The maze of a classroom file's text, JSON or a Python literal: when neither reads it, the
    message is the reader's whose form the text looks like (Python's when it holds a name, a
    single quote or a comment), the other's in short."""
    try:
        return classroom_from_json(text, placement=placement, seed=seed)
    except MazeFileError as json_error:
        if not str(json_error).startswith("not valid JSON"):
            raise
        try:
            rows = python_literal(text)
        except MazeFileError as python_error:
            if _looks_like_python(text):
                raise MazeFileError(f"neither JSON nor a Python literal: {python_error}") from None
            raise MazeFileError(f"neither a Python literal nor JSON: {json_error}") from None
    return from_classroom(_checked_cells(rows, MAX_PYTHON_CELLS, "Python"), placement=placement, seed=seed)


def _looks_like_python(text: str) -> bool:
    """Whether ``text`` uses what Python writes and JSON does not: True/False/None, a single
    quote, a comment, or a start JSON never has (a name, a bracket)."""
    if re.match(r"\s*(?:(?!(?:true|false|null)\b)[^\W\d]|\()", text):
        return True
    return re.search(r"\b(?:True|False|None)\b|'|#", text[:100_000]) is not None


def classroom_from_python(text: str, *, placement: str | None = None, seed: int = 0) -> Maze:
    """The maze of a classroom file's Python text (a closed one opened by ``placement``)."""
    rows = _checked_cells(python_literal(text), MAX_PYTHON_CELLS, "Python")
    return from_classroom(rows, placement=placement, seed=seed)


def _checked_cells(rows: Any, most: int, form: str) -> Any:
    """``rows`` unless it holds more than ``most`` cells (the documented limit of the ``form``)."""
    if isinstance(rows, list):
        cells = sum(len(row) for row in rows if isinstance(row, list))
        if cells > most:
            raise MazeFileError(f"holds {cells:,} cells; a classroom file in {form} holds at most {most:,}")
    return rows


def python_literal(text: str) -> Any:
    """The value of Python source holding one literal, alone or assigned to one name, read by the
    JSON reader's rules after the checks of :data:`PYTHON_LIMITS` and :func:`check_python_text`
    (never run)."""
    limits = PYTHON_LIMITS
    if len(text) > limits.max_bytes:
        raise MazeFileError(f"text is {len(text):,} characters, {limits.kind} has at most {limits.max_bytes:,}")
    outside = _outside_strings(text)
    shape = _shape(outside)
    cells = outside.count("{")
    if cells > MAX_PYTHON_CELLS:
        raise MazeFileError(f"holds {cells:,} cells; {limits.kind} holds at most {MAX_PYTHON_CELLS:,}")
    if shape.depth > limits.max_depth:
        raise MazeFileError(f"brackets nest {shape.depth} deep, {limits.kind} nests at most {limits.max_depth} deep")
    if shape.containers > limits.max_containers or shape.commas > limits.max_commas:
        raise MazeFileError(
            f"holds {shape.containers:,} brackets and {shape.commas:,} commas, {limits.kind} at most "
            f"{limits.max_containers:,} and {limits.max_commas:,} ({limits.why})"
        )
    check_python_text(outside)
    try:
        module = ast.parse(text, mode="exec")
    except SyntaxError as error:
        where = f"line {error.lineno}: " if error.lineno else ""
        raise MazeFileError(f"not valid Python: {where}{error.msg}") from None
    except (ValueError, MemoryError, RecursionError):  # unreachable after the checks above; never escapes
        raise MazeFileError(f"not valid Python: too complex a text for {LITERALS}") from None
    if len(module.body) != 1:
        where = f"line {module.body[1].lineno} holds more" if module.body else "it is empty"
        raise MazeFileError(f"must hold one list, alone or as 'labyrinthe = [...]'; {where}")
    statement = module.body[0]
    if isinstance(statement, ast.Expr):
        node = statement.value
    elif (
        isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)
    ):
        node = statement.value
    else:
        raise MazeFileError(f"line {statement.lineno}: must be one list, alone or as 'labyrinthe = [...]'")
    return _value(node, text)


def _outside_strings(text: str) -> str:
    """``text`` with each string literal as ``""`` and each comment removed, line breaks kept."""
    return _PYTHON_STRING_OR_COMMENT.sub(
        lambda found: ("" if found[0][0] == "#" else '""') + "\n" * found[0].count("\n"), text
    )


def check_python_text(outside: str) -> None:
    """Refuse, naming its line, anything in Python source (strings and comments taken out:
    :func:`_outside_strings`) that a literal of lists, dicts and constants does not hold: a name
    but ``True``/``False``/``None`` and the one assigned, an operator but one sign before a
    number, a number of more characters than the JSON reader takes. One pass,
    before Python's parser, which would overflow on long chains (``- - - 1``, ``1+1+…``)."""
    line, previous, names = 1, "", 0
    pieces = _PYTHON_PIECE.finditer(outside)
    for piece in pieces:
        kind, value = piece.lastgroup or "other", piece[0]
        if kind == "space":
            line += value.count("\n")
            continue
        if kind == "name" and value not in _CONSTANT_NAMES:
            names += 1
            if previous or names > 1:
                raise MazeFileError(f"line {line}: {shown(value, 30)} is not a value: {LITERALS}")
            kind = "target"
        elif kind == "number":
            try:
                check_number_text(value)  # the JSON reader's rule
            except MazeFileError as error:
                raise MazeFileError(f"line {line}: {error}") from None
            if value[-1] in "jJ":
                raise MazeFileError(f"line {line}: {shown(value, 30)} is a complex number: {LITERALS}")
        elif kind == "sign":
            if previous == "sign":
                raise MazeFileError(f"line {line}: signs one after another: a number takes one sign at most")
            if previous not in ("", "open", "comma", "assign"):
                raise MazeFileError(f"line {line}: {value!r} between two values: {LITERALS}")
        elif kind == "assign" and previous != "target":
            raise MazeFileError(f"line {line}: '=' after a value: {LITERALS}")
        elif kind == "other":
            raise MazeFileError(f"line {line}: {shown(value)} cannot be in a classroom file: {LITERALS}")
        if previous == "sign" and kind != "number":
            raise MazeFileError(f"line {line}: a sign before something else than a number: {LITERALS}")
        previous = kind
    if previous == "sign":
        raise MazeFileError(f"line {line}: a sign at the end: {LITERALS}")


def _value(node: ast.AST, source: str) -> Any:
    """The plain value of a literal node of ``source``, by the JSON reader's rules
    (:mod:`laby3d.jsonsafe`)."""
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or value is None or isinstance(value, int | str):
            return value
        if isinstance(value, float):
            return check_finite(value, ast.get_source_segment(source, node) or str(value))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        number = node.operand.value if isinstance(node.operand, ast.Constant) else None
        if type(number) is int:
            return -number if isinstance(node.op, ast.USub) else number
        if isinstance(number, float):
            signed = -number if isinstance(node.op, ast.USub) else number
            return check_finite(signed, ast.get_source_segment(source, node) or str(signed))
    elif isinstance(node, ast.List | ast.Tuple):
        return [_value(element, source) for element in node.elts]
    elif isinstance(node, ast.Dict):
        return _dict(node, source)
    raise MazeFileError(f"line {getattr(node, 'lineno', '?')}: {LITERALS}")


def _dict(node: ast.Dict, source: str) -> dict[str, Any]:
    """A dict node as the JSON reader reads an object: string keys, each once, texts checked."""
    pairs: list[tuple[str, Any]] = []
    for key_node, value_node in zip(node.keys, node.values, strict=True):
        if key_node is None:
            raise MazeFileError(f"line {value_node.lineno}: '**' unpacks a dict: {LITERALS}")
        key = _value(key_node, source)
        if not isinstance(key, str):
            raise MazeFileError(f"line {key_node.lineno}: a key must be a string such as 'N', got {shown(key)}")
        pairs.append((key, _value(value_node, source)))
    return checked_object(pairs, [key.lineno for key in node.keys if key is not None])


def _shape(outside: str) -> JsonShape:
    brackets = outside.translate(str.maketrans("([{", "[[[", "")).translate(str.maketrans(")]}", "]]]"))
    return json_shape(brackets.encode("utf-8", "surrogatepass"))


def python_shape(text: str) -> JsonShape:
    """Nesting depth, number of brackets and commas of Python source outside its strings and
    comments, in linear time.

    >>> python_shape("x = [{'[': (1, 2)}, '''],'''] # ]]")
    JsonShape(depth=3, containers=3, commas=2, objects=0)
    """
    return _shape(_outside_strings(text))


def classroom_json(maze: Maze) -> str:
    """The classroom form of ``maze`` as JSON, one row of cells per line."""
    lines = [json.dumps(row, ensure_ascii=False) for row in to_classroom(maze)]
    return "[\n" + ",\n".join(f"  {line}" for line in lines) + "\n]\n"


def classroom_py(maze: Maze, lang: str = "en") -> str:
    """The classroom form of ``maze`` as Python source assigning it to :data:`PYTHON_NAME`, one
    row of cells per line, with a comment in ``lang`` saying what it is."""
    from laby3d.draw.strings import text

    lines = [repr(row) for row in to_classroom(maze)]
    made = (
        text("classroom_made", lang, algorithm=maze.algorithm, seed=maze.seed)
        if maze.algorithm is not None
        else text("classroom_read", lang)
    )
    header = text("classroom_comment", lang, rows=maze.rows, cols=maze.cols, made=made)
    return header + f"{PYTHON_NAME} = [\n" + "".join(f"    {line},\n" for line in lines) + "]\n"


def walls_csv(maze: Maze, lang: str = "en", *, numbering: str = "west-north") -> str:
    """The walls in the order the algorithm took them (:func:`laby3d.maze.observe.walls_taken`),
    one a step, as CSV: a wall is ``(row, col, side)`` from its first cell (by ``numbering``:
    ``E`` or ``S`` with ``west-north``, any of ``N``, ``E``, ``S``, ``O`` with ``drawn-side``),
    with the zone numbers of its two cells then and whether it was opened (``yes``) or rejected
    (``no``); the header and the yes/no in ``lang`` (``etape,ligne,colonne,cote,…`` and
    ``oui``/``non``: the side letters are the exercise's, the same in French).

    >>> import laby3d
    >>> print(walls_csv(laby3d.generate(2, 3, algorithm="kruskal", seed=7)), end="")
    step,row,col,side,first_number,second_number,opened
    1,0,2,S,2,5,yes
    2,1,1,E,4,2,yes
    3,0,1,E,1,4,yes
    4,0,1,S,1,1,no
    5,0,0,S,0,3,yes
    6,1,0,E,0,1,yes
    >>> print(walls_csv(laby3d.generate(2, 3, algorithm="kruskal", seed=7), "fr").splitlines()[4])
    4,0,1,S,1,1,non
    """
    from laby3d.draw.strings import text
    from laby3d.maze.observe import walls_taken

    cols = maze.grid.cols
    opened = {True: text("yes", lang), False: text("no", lang)}
    lines = [text("walls_columns", lang)]
    for step, wall in enumerate(walls_taken(maze, numbering=numbering), start=1):
        row, col = divmod(wall.first, cols)
        side = wall.side(cols)
        numbers = f"{wall.first_number},{wall.second_number}"
        lines.append(f"{step},{row},{col},{side},{numbers},{opened[wall.opened]}")
    return "\n".join(lines) + "\n"
