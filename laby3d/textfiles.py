"""Reading a text file a user gave: its size checked before reading, UTF-8 strictly (a
byte-order mark allowed), every problem one line naming the file and, for text in another
encoding, which one it looks like and the fix (save it as UTF-8)."""

from __future__ import annotations

import codecs
import os

#: Byte-order marks of the encodings an editor may save text in, and their names.
BYTE_ORDER_MARKS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)
#: What to do about text in another encoding than UTF-8.
SAVE_AS_UTF8 = "save the file as UTF-8 (in the editor's Save as…, Encoding: UTF-8)"


def read_limited_text(path: str | os.PathLike[str], *, name: str, limit: int, error: type[Exception]) -> str:
    """The text of ``path``; raises ``error`` with a message starting with ``name`` when the file
    cannot be read, is over ``limit`` bytes or is not UTF-8 (:func:`decoded`)."""
    try:
        with open(path, "rb") as stream:
            size = os.fstat(stream.fileno()).st_size
            if size > limit:
                raise error(f"{name}: file is {size:,} bytes, at most {limit:,} are read")
            data = stream.read(limit + 1)
    except OSError as cause:
        raise error(f"{name}: cannot read: {cause.strerror or cause}") from None
    return decoded(data, name=name, error=error)


def decoded(data: bytes, *, name: str, error: type[Exception]) -> str:
    """``data`` as UTF-8 text (a byte-order mark, as Windows editors write, is allowed); raises
    ``error`` naming the file, the encoding the bytes look like (UTF-16 or UTF-32 with or
    without a byte-order mark, Windows-1252 or Latin-1), the first byte at fault and the fix.

    >>> decoded("[1]".encode("utf-16-le"), name="m.json", error=ValueError)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: m.json: UTF-16 text (without a byte-order mark), not UTF-8; save the file as UTF-8 ...
    """
    for mark, encoding in BYTE_ORDER_MARKS:
        if data.startswith(mark):
            raise error(f"{name}: {encoding} text (byte-order mark {mark.hex(' ').upper()}), not UTF-8; {SAVE_AS_UTF8}")
    if b"\0" in data:
        raise error(f"{name}: {_with_zero_bytes(data)}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as cause:
        line = data.count(b"\n", 0, cause.start) + 1
        byte = data[cause.start]
        guess = ""
        try:
            guess = f", perhaps Windows-1252 or Latin-1 ({data[cause.start : cause.start + 1].decode('cp1252')!r})"
        except UnicodeDecodeError:
            pass
        raise error(
            f"{name}: not UTF-8 text (byte 0x{byte:02x} at offset {cause.start}, line {line}){guess}; {SAVE_AS_UTF8}"
        ) from None


def _with_zero_bytes(data: bytes) -> str:
    """What text holding zero bytes is: UTF-16 or UTF-32 without a byte-order mark (Latin letters
    and digits in those encodings take a zero byte beside each, in the same place of every
    2 or 4), or not text at all."""
    head = data[: 1 << 16]
    for width, encoding in ((4, "UTF-32"), (2, "UTF-16")):
        usable = len(head) - len(head) % width
        places = [head[place:usable:width].count(0) for place in range(width)]
        zero_places = sum(1 for count in places if count >= 0.9 * (usable // width))
        if usable and zero_places == width - 1:
            endian = "le" if places[0] < 0.9 * (usable // width) else "be"
            try:
                head[:usable].decode(f"{encoding.lower()}-{endian}")
            except UnicodeDecodeError:
                continue
            return f"{encoding} text (without a byte-order mark), not UTF-8; {SAVE_AS_UTF8}"
    offset = data.index(b"\0")
    line = data.count(b"\n", 0, offset) + 1
    return f"not text: a zero byte at offset {offset}, line {line} (a text file holds none)"
