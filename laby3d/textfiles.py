"""Reading a text file a user gave: its size checked before reading, UTF-8 strictly (a
byte-order mark allowed), every problem one line naming the file."""

from __future__ import annotations

import os


def read_limited_text(path: str | os.PathLike[str], *, name: str, limit: int, error: type[Exception]) -> str:
    """The text of ``path``; raises ``error`` with a message starting with ``name`` when the file
    cannot be read, is over ``limit`` bytes or is not UTF-8 (naming the byte, its offset and line)."""
    try:
        with open(path, "rb") as stream:
            size = os.fstat(stream.fileno()).st_size
            if size > limit:
                raise error(f"{name}: file is {size:,} bytes, at most {limit:,} are read")
            data = stream.read(limit + 1)
    except OSError as cause:
        raise error(f"{name}: cannot read: {cause.strerror or cause}") from None
    try:
        return data.decode("utf-8-sig")  # a byte-order mark, as Windows editors write, is allowed
    except UnicodeDecodeError as cause:
        line = data.count(b"\n", 0, cause.start) + 1
        raise error(
            f"{name}: not UTF-8 text (byte 0x{data[cause.start]:02x} at offset {cause.start}, line {line}); "
            "save the file as UTF-8"
        ) from None
