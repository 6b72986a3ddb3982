"""The class exercise's files: the maze as its rows of ``N``/``E``/``S``/``O`` dicts (True = open) as
JSON (``.classroom.json``) or Python source (``.classroom.py``), read and written.

Reading takes what a pupil's program gives: JSON (``json.dump(labyrinthe, f)``), or a Python
literal, alone (``print(labyrinthe)``) or assigned to one name (``labyrinthe = [...]``). Python
is read with :func:`ast.literal_eval`, never run. Both are checked before parsing against
:data:`JSON_LIMITS` / :data:`PYTHON_LIMITS` (size, nesting, number of lists and dicts, commas), so
a hostile file is refused in linear time and bounded memory; the Python reader accepts fewer
cells because Python's own parser needs about 10 KB per cell. The entrance and exit rule, and
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
from laby3d.jsonsafe import JsonLimits, JsonShape, json_shape, load_json
from laby3d.maze.convert import from_classroom, to_classroom
from laby3d.maze.model import MAX_SIDE, Maze
from laby3d.quoting import shown_path
from laby3d.textfiles import read_limited_text

#: Most cells of a classroom file in JSON (500×500), and in Python (100×100).
MAX_JSON_CELLS, MAX_PYTHON_CELLS = 250_000, 10_000
#: Name given to the maze in a written ``.classroom.py``.
PYTHON_NAME = "labyrinthe"


def _limits(kind: str, cells: int) -> JsonLimits:
    """Limits of a classroom file of at most ``cells`` cells: a list per row, a dict per cell
    of at most 7 keys (sides, zone, entrance and exit marks), 100 characters per cell."""
    return JsonLimits(
        kind=kind,
        max_bytes=100 * cells + 10_000,
        max_containers=cells + MAX_SIDE + 8,
        max_commas=7 * cells + MAX_SIDE + 8,
        max_depth=8,
        why="a list per row, a dict of at most 7 keys per cell",
    )


JSON_LIMITS = _limits(f"a classroom file in JSON (at most {MAX_JSON_CELLS:,} cells)", MAX_JSON_CELLS)
PYTHON_LIMITS = _limits(f"a classroom file in Python (at most {MAX_PYTHON_CELLS:,} cells)", MAX_PYTHON_CELLS)
#: A Python comment or string literal (any prefix, single or triple quotes; an unterminated one
#: runs to the end of its line, or of the text for triple quotes). Each character is matched by one
#: branch only, so the scan stays linear.
_PYTHON_STRING_OR_COMMENT = re.compile(
    r"""#[^\n]*|[rRbBuUfF]{0,2}(?:'''(?:[^'\\]|\\.|'(?!''))*(?:'''|\Z)|\"\"\"(?:[^"\\]|\\.|"(?!""))*(?:\"\"\"|\Z)"""
    r"""|'(?:[^'\\\n]|\\.)*(?:'|$)|"(?:[^"\\\n]|\\.)*(?:"|$))""",
    re.DOTALL | re.MULTILINE,
)


def read_classroom(path: str | os.PathLike[str]) -> Maze:
    """The maze of a classroom file (``-``: standard input), JSON or Python by its ending
    (``.json``, ``.py``; any other is tried as JSON, then as Python); every error names the file."""
    name = "standard input" if str(path) == "-" else shown_path(path)
    python = str(path).lower().endswith(".py")
    limit = (PYTHON_LIMITS if python else JSON_LIMITS).max_bytes
    if str(path) == "-":
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise MazeFileError(f"{name}: more than {limit:,} bytes, at most {limit:,} are read")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise MazeFileError(f"{name}: not UTF-8 text (byte at offset {error.start})") from None
    else:
        text = read_limited_text(path, name=name, limit=limit, error=MazeFileError)
    try:
        if python:
            return classroom_from_python(text)
        if str(path).lower().endswith(".json"):
            return classroom_from_json(text)
        return classroom_from_text(text)
    except MazeFileError as error:
        raise MazeFileError(f"{name}: {error}") from None


def classroom_from_json(text: str) -> Maze:
    """The maze of a classroom file's JSON text."""
    return from_classroom(load_json(text, JSON_LIMITS))


def classroom_from_text(text: str) -> Maze:
    """The maze of a classroom file's text, JSON or a Python literal."""
    try:
        rows = load_json(text, JSON_LIMITS)
    except MazeFileError as json_error:
        if not str(json_error).startswith("not valid JSON"):
            raise
        try:
            rows = python_literal(text)
        except MazeFileError as python_error:
            raise MazeFileError(f"neither JSON ({json_error}) nor a Python literal ({python_error})") from None
    return from_classroom(rows)


def classroom_from_python(text: str) -> Maze:
    """The maze of a classroom file's Python text."""
    return from_classroom(python_literal(text))


def python_literal(text: str) -> Any:
    """The value of Python source holding one literal, alone or assigned to one name, read with
    :func:`ast.literal_eval` after the checks of :data:`PYTHON_LIMITS` (never run)."""
    limits = PYTHON_LIMITS
    if len(text) > limits.max_bytes:
        raise MazeFileError(f"text is {len(text):,} characters, {limits.kind} has at most {limits.max_bytes:,}")
    shape = python_shape(text)
    if shape.depth > limits.max_depth:
        raise MazeFileError(f"brackets nest {shape.depth} deep, {limits.kind} nests at most {limits.max_depth} deep")
    if shape.containers > limits.max_containers or shape.commas > limits.max_commas:
        raise MazeFileError(
            f"holds {shape.containers:,} brackets and {shape.commas:,} commas, {limits.kind} at most "
            f"{limits.max_containers:,} and {limits.max_commas:,} ({limits.why})"
        )
    try:
        module = ast.parse(text, mode="exec")
    except SyntaxError as error:
        raise MazeFileError(f"not valid Python: line {error.lineno}: {error.msg}") from None
    except (ValueError, MemoryError, RecursionError) as error:  # null bytes, huge numbers
        raise MazeFileError(f"not valid Python: {str(error)[:80]}") from None
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
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        bad = next((n for n in ast.walk(node) if not isinstance(n, _LITERAL_NODES)), node)
        raise MazeFileError(
            f"line {getattr(bad, 'lineno', '?')}: only lists, dicts, True, False, None, numbers and strings "
            "may be written (the file is read, never run)"
        ) from None


_LITERAL_NODES = (ast.List, ast.Tuple, ast.Dict, ast.Constant, ast.expr_context, ast.UnaryOp, ast.USub)


def python_shape(text: str) -> JsonShape:
    """Nesting depth, number of brackets and commas of Python source outside its strings and
    comments, in linear time.

    >>> python_shape("x = [{'[': (1, 2)}, '''],'''] # ]]")
    JsonShape(depth=3, containers=3, commas=2)
    """
    outside = _PYTHON_STRING_OR_COMMENT.sub('""', text)
    brackets = outside.translate(str.maketrans("([{", "[[[", "")).translate(str.maketrans(")]}", "]]]"))
    return json_shape(brackets.encode("utf-8", "surrogatepass"))


def classroom_json(maze: Maze) -> str:
    """The classroom form of ``maze`` as JSON, one row of cells per line."""
    lines = [json.dumps(row, ensure_ascii=False) for row in to_classroom(maze)]
    return "[\n" + ",\n".join(f"  {line}" for line in lines) + "\n]\n"


def classroom_py(maze: Maze) -> str:
    """The classroom form of ``maze`` as Python source assigning it to :data:`PYTHON_NAME`, one
    row of cells per line, with a comment saying what it is."""
    lines = [repr(row) for row in to_classroom(maze)]
    made = f"{maze.algorithm}, seed {maze.seed}" if maze.algorithm is not None else "read by laby3d"
    header = (
        f"# A {maze.rows}×{maze.cols} maze ({made}) in the class exercise's form: rows of cells, each cell\n"
        "# {'N': …, 'E': …, 'S': …, 'O': …} with True where the side is open; the entrance and the exit\n"
        "# are the border sides left open (the first in reading order is the entrance).\n"
    )
    return header + f"{PYTHON_NAME} = [\n" + "".join(f"    {line},\n" for line in lines) + "]\n"


#: Columns of ``.walls.csv``.
WALL_COLUMNS = ("step", "row", "col", "side", "first_number", "second_number", "opened")


def walls_csv(maze: Maze) -> str:
    """The walls in the order the algorithm took them (:func:`laby3d.maze.observe.walls_taken`)
    as CSV: a wall is ``(row, col, side)`` from its first cell, with the zone numbers of its two
    cells then and whether it was opened (``yes``) or rejected (``no``).

    >>> import laby3d
    >>> print(walls_csv(laby3d.generate(2, 3, algorithm="kruskal", seed=7)), end="")
    step,row,col,side,first_number,second_number,opened
    1,0,2,S,2,5,yes
    2,1,1,E,4,2,yes
    3,0,1,E,1,4,yes
    4,0,1,S,1,1,no
    5,0,0,S,0,3,yes
    6,1,0,E,0,1,yes
    """
    from laby3d.maze.observe import walls_taken

    cols = maze.grid.cols
    lines = [",".join(WALL_COLUMNS)]
    for step, wall in enumerate(walls_taken(maze), start=1):
        row, col = divmod(wall.first, cols)
        side = "S" if wall.second == wall.first + cols else "E"
        numbers = f"{wall.first_number},{wall.second_number}"
        lines.append(f"{step},{row},{col},{side},{numbers},{'yes' if wall.opened else 'no'}")
    return "\n".join(lines) + "\n"
