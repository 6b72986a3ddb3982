"""Values quoted for error messages, never longer than a line, whatever the value holds.

A hostile file can hold a string of megabytes, an integer of thousands of digits or a list that
aliases itself a billion times over; ``repr`` of such a value would take the memory and time the
reader just refused to spend. :func:`shown` walks the value lazily and stops at the limit.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

#: Most characters of a value an error message quotes.
SHOWN_LIMIT = 60
#: Most characters of a path an error message shows (its end: the file's own name).
SHOWN_PATH_LIMIT = 100
#: Integers with more bits than this are described, not written out (10**60 has 200 bits).
_LONGEST_INTEGER_BITS = 200


def shown(value: Any, limit: int = SHOWN_LIMIT) -> str:
    """``repr(value)``, or its first ``limit − 1`` characters and ``…``; computed lazily.

    >>> shown("abc")
    "'abc'"
    >>> shown("x" * 1000, limit=10)
    "'xxxxxxxx…"
    >>> shown(10**5000)
    '<integer of 5001 digits>'
    >>> lol = ["lol"] * 10
    >>> for _ in range(9):
    ...     lol = [lol] * 10
    >>> len(shown(lol))
    60
    """
    pieces: list[str] = []
    length = 0
    for piece in _repr_pieces(value, limit + 1):
        pieces.append(piece)
        length += len(piece)
        if length > limit:
            return "".join(pieces)[: limit - 1] + "…"
    return "".join(pieces)


def shown_path(path: str | os.PathLike[str], limit: int = SHOWN_PATH_LIMIT) -> str:
    """``path`` as typed, control characters escaped, and cut to its last ``limit − 1``
    characters after ``…`` when longer (the end names the file).

    >>> shown_path("out/a.stl")
    'out/a.stl'
    >>> shown_path("d/" * 100 + "m.stl", limit=12)
    '…d/d/d/m.stl'
    >>> shown_path("a\\nb")
    'a\\\\nb'
    """
    text = "".join(char if char.isprintable() else repr(char)[1:-1] for char in os.fsdecode(path))
    return text if len(text) <= limit else "…" + text[-(limit - 1) :]


def _repr_pieces(value: Any, room: int) -> Iterator[str]:
    """The pieces of ``repr(value)`` in order; a piece never exceeds ``room`` characters."""
    if isinstance(value, bool) or value is None:
        yield repr(value)
    elif isinstance(value, int):
        if value.bit_length() > _LONGEST_INTEGER_BITS:
            digits = _digit_count(value)
            yield f"<integer of {digits} digits>"
        else:
            yield repr(value)
    elif isinstance(value, str):
        yield repr(value[:room])
    elif isinstance(value, (bytes, bytearray)):
        yield repr(bytes(value[:room]))
    elif isinstance(value, Mapping):
        yield "{"
        for index, (key, item) in enumerate(value.items()):
            if index:
                yield ", "
            yield from _repr_pieces(key, room)
            yield ": "
            yield from _repr_pieces(item, room)
        yield "}"
    elif isinstance(value, (list, tuple)):
        opening, closing = ("[", "]") if isinstance(value, list) else ("(", ")")
        yield opening
        for index, item in enumerate(value):
            if index:
                yield ", "
            yield from _repr_pieces(item, room)
        yield closing
    else:
        yield repr(value)[:room]


def _digit_count(value: int) -> int:
    """Decimal digits of ``abs(value)``, exact, without converting it to text."""
    magnitude = abs(value)
    digits = int(magnitude.bit_length() * 0.30102999566398120)  # log10(2)
    return digits + 1 if magnitude >= 10**digits else digits
