"""Safe JSON loading for files a user gives (maze files, scene files): one set of rules.

:func:`load_json` refuses, with a one-line :class:`MazeFileError`, before parsing:

- text over the kind's size, or that is not Unicode (a lone surrogate);
- nesting deeper than the kind's depth, and more arrays, objects or commas than the largest
  valid file of that kind holds (counted in linear time and bounded memory, so neither Python's
  recursion limit nor a file of millions of empty objects is ever reached);

and while parsing:

- ``NaN`` and ``Infinity``, numbers written with more than :data:`MAX_NUMBER_TEXT` characters,
  and numbers too large for a float (``1e400``);
- duplicate keys (the last one would silently win);

(the Python form of a classroom file is read by the same rules: :mod:`laby3d.maze.classroom`)
- keys and string values of objects longer than :data:`MAX_STRING` characters, holding a lone
  surrogate or a control character (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029): such text
  would reach pages, file metadata and error messages. Strings inside arrays are never text a
  reader uses (cells, walls and paths are numbers): their field refuses them by type.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np

from laby3d.errors import MazeFileError
from laby3d.quoting import shown

#: Longest number text (a seed has at most 19 digits, a size in mm a few more).
MAX_NUMBER_TEXT = 100
#: Longest key or string value of an object.
MAX_STRING = 1000
#: A JSON string; an unterminated one (and a final lone backslash) runs to the end of the text, so
#: every match attempt succeeds and the scan stays linear whatever the quotes and backslashes.
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\(?:.|\Z)[^"\\]*)*(?:"|\Z)', re.DOTALL)
_SCAN_CHUNK = 1 << 20
_NOT_BRACKET = bytes(set(range(256)) - set(b"[]{}"))
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True, kw_only=True)
class JsonLimits:
    """What a kind of JSON file may hold; each limit is that of the largest valid file."""

    #: what the file is, for messages: ``"a maze file"``
    kind: str
    #: most characters (and bytes of UTF-8)
    max_bytes: int
    #: most arrays and objects
    max_containers: int
    #: most commas
    max_commas: int
    #: deepest nesting of arrays and objects
    max_depth: int = 16
    #: what the arrays and commas hold, for the message when there are too many
    why: str = ""
    #: most objects, when each object is one thing the file counts (a classroom file's cells)
    max_objects: int | None = None
    #: what an object is, for the message when there are too many: ``"cells"``
    objects: str = "objects"


@dataclass(frozen=True, kw_only=True)
class JsonShape:
    """What JSON text would build, counted before parsing (brackets and commas outside strings)."""

    #: deepest nesting of arrays and objects
    depth: int
    #: number of arrays and objects
    containers: int
    #: number of commas (one less than the elements, per array or object)
    commas: int
    #: number of objects
    objects: int = 0


def load_json(text: str, limits: JsonLimits) -> Any:
    """The JSON value of ``text`` under ``limits`` and the rules of this module; raises
    :class:`MazeFileError` (one line, at most a few quoted characters of any value)."""
    if not isinstance(text, str):
        raise MazeFileError(f"{limits.kind} is text, got {type(text).__name__}")
    if len(text) > limits.max_bytes:
        raise MazeFileError(f"file is {len(text):,} characters, {limits.kind} has at most {limits.max_bytes:,}")
    try:
        encoded = text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise MazeFileError(f"not valid Unicode: lone surrogate at character {error.start}") from None
    if len(encoded) > limits.max_bytes:
        raise MazeFileError(f"file is {len(encoded):,} bytes, {limits.kind} has at most {limits.max_bytes:,}")
    shape = json_shape(encoded)
    if shape.depth > limits.max_depth:
        raise MazeFileError(
            f"arrays and objects nest {shape.depth} deep, {limits.kind} nests at most {limits.max_depth} deep"
        )
    if limits.max_objects is not None and shape.objects > limits.max_objects:
        raise MazeFileError(
            f"holds {shape.objects:,} {limits.objects}; {limits.kind} holds at most {limits.max_objects:,}"
        )
    if shape.containers > limits.max_containers or shape.commas > limits.max_commas:
        raise MazeFileError(
            f"holds {shape.containers:,} arrays and objects and {shape.commas:,} commas, {limits.kind} at most "
            f"{limits.max_containers:,} and {limits.max_commas:,}" + (f" ({limits.why})" if limits.why else "")
        )
    try:
        return json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_int=_integer,
            parse_float=_float,
            object_pairs_hook=checked_object,
        )
    except MazeFileError:
        raise
    except json.JSONDecodeError as error:
        what = error.msg[:1].lower() + error.msg[1:]
        raise MazeFileError(f"not valid JSON: line {error.lineno} column {error.colno}: {what}") from None
    except (ValueError, RecursionError) as error:  # unreachable after the checks above; never escapes
        raise MazeFileError(f"not valid JSON: {shown(str(error), 80)}") from None


def json_shape(encoded: bytes) -> JsonShape:
    """The :class:`JsonShape` of UTF-8 JSON text, in linear time and bounded memory.

    Exact for text that is valid JSON up to its deepest point, which is all the parser would
    reach before failing.

    >>> json_shape(b'{"a": [[1, 2], "[[[,"]}')
    JsonShape(depth=3, containers=3, commas=2, objects=1)
    """
    outside_strings = _JSON_STRING.sub(b'""', encoded)  # UTF-8 multi-byte sequences hold no '"' or '\\'
    brackets = np.frombuffer(outside_strings.translate(None, _NOT_BRACKET), dtype=np.uint8)
    depth = deepest = 0
    for start in range(0, len(brackets), _SCAN_CHUNK):
        steps = (brackets[start : start + _SCAN_CHUNK] & 2).astype(np.int32) - 1  # +1 for [ and {, −1 for ] and }
        running = np.cumsum(steps) + depth
        deepest = max(deepest, int(running.max()))
        depth = int(running[-1])
    return JsonShape(
        depth=deepest,
        containers=int(np.count_nonzero(brackets & 2)),
        commas=outside_strings.count(b","),
        objects=int(np.count_nonzero(brackets == ord("{"))),
    )


def _refuse_constant(name: str) -> NoReturn:
    raise MazeFileError(f"{name} is not a number a laby3d file may hold")


def check_number_text(text: str) -> None:
    """Raise :class:`MazeFileError` unless the number written ``text`` has at most
    :data:`MAX_NUMBER_TEXT` characters."""
    if len(text) > MAX_NUMBER_TEXT:
        raise MazeFileError(f"a number of {len(text):,} characters (at most {MAX_NUMBER_TEXT}): {shown(text, 30)}")


def check_finite(value: float, text: str) -> float:
    """``value``, the number written ``text``, unless it is too large for a float."""
    if not math.isfinite(value):
        raise MazeFileError(f"the number {shown(text, 30)} is too large")
    return value


def _integer(text: str) -> int:
    check_number_text(text)
    return int(text)


def _float(text: str) -> float:
    check_number_text(text)
    return check_finite(float(text), text)


def check_text(value: str, name: str, longest: int = MAX_STRING) -> None:
    """Raise :class:`MazeFileError` naming ``name`` unless ``value`` is at most ``longest``
    characters of valid Unicode without control characters."""
    if len(value) > longest:
        raise MazeFileError(f"{name} must be at most {longest:,} characters, got {len(value):,}")
    if _SURROGATE.search(value):
        raise MazeFileError(f"{name} is not valid Unicode (lone surrogate): {shown(value)}")
    control = _CONTROL.search(value)
    if control:
        raise MazeFileError(f"{name} holds the control character U+{ord(control[0]):04X}: {shown(value)}")


def checked_object(pairs: list[tuple[str, Any]], lines: list[int] | None = None) -> dict[str, Any]:
    """The object of ``pairs`` (key, value), each checked in order: the key's text (by
    :func:`check_text`), no key twice, a string value's text; raises :class:`MazeFileError`,
    starting with the key's line when ``lines`` gives them (a Python literal's)."""
    result: dict[str, Any] = {}
    first: dict[str, int] = {}
    for index, (key, value) in enumerate(pairs):
        where = f"line {lines[index]}: " if lines else ""
        try:
            check_text(key, f"the key {shown(key, 30)}")
            if key in result:
                raise MazeFileError(f"duplicate key {shown(key)}" + (f" (first at line {first[key]})" if lines else ""))
            if isinstance(value, str):
                check_text(value, key if len(key) <= 40 else shown(key, 40))
        except MazeFileError as error:
            raise MazeFileError(f"{where}{error}") from None
        result[key] = value
        first[key] = lines[index] if lines else 0
    return result
