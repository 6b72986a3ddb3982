"""The terminal side of the CLI: text that every console encoding can show, one-line errors of
bounded length, and standard output failures (a full disk, a closed pipe) told apart from bugs.

Encodings: laby3d keeps the encoding the console (or the pipe, or the file) already has, which is
what its reader decodes, and replaces only the characters that encoding lacks: ``×`` by ``x``,
``→`` by ``->``, box drawing by ``+-|``, accents dropped when the bare letter exists (``é`` →
``e``), anything else as a ``\\u`` escape (:data:`ERRORS`). Forcing UTF-8 instead would turn
every ``×`` and ``─`` into mojibake on a cp1252 or cp850 console and in a Windows pipe read in
the ANSI code page. Text art falls back to the ASCII charset (``+--+``) when the console cannot
draw boxes (:func:`can_draw_boxes`).
"""

from __future__ import annotations

import codecs
import sys
import unicodedata
from typing import Any, TextIO

#: Longest error line the CLI prints (a value quoted in it is shortened first, laby3d.quoting).
MAX_MESSAGE = 300
#: Name of the codec error handler that writes look-alikes (registered on import).
ERRORS = "laby3d-console"
#: Characters laby3d writes and their ASCII look-alikes.
LOOK_ALIKES = {
    "×": "x",
    "→": "->",
    "←": "<-",
    "…": "...",
    "–": "-",
    "—": "-",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "«": '"',
    "»": '"',
    "•": "*",
    "≥": ">=",
    "≤": "<=",
    "µ": "u",
    "³": "3",
    "²": "2",
    "°": " deg",
    "\u00a0": " ",
    "\u202f": " ",
}
_BOX_HORIZONTAL = "─╴╶"
_BOX_VERTICAL = "│╵╷"
#: What text art draws with the unicode charset (laby3d.draw.ascii).
BOX_CHARACTERS = "─│┌┐└┘├┤┬┴┼╴╵╶╷•"


def look_alike(character: str) -> str:
    """An ASCII stand-in for ``character`` (``\\uXXXX`` when there is none).

    >>> look_alike("×"), look_alike("é"), look_alike("┼"), look_alike("☃")
    ('x', 'e', '+', '\\\\u2603')
    """
    if character in LOOK_ALIKES:
        return LOOK_ALIKES[character]
    if character in _BOX_HORIZONTAL:
        return "-"
    if character in _BOX_VERTICAL:
        return "|"
    if "\u2500" <= character <= "\u257f":
        return "+"
    bare = unicodedata.normalize("NFKD", character).encode("ascii", "ignore").decode()
    if bare:
        return bare
    return character.encode("ascii", "backslashreplace").decode()


def _replace(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(look_alike(char) for char in error.object[error.start : error.end]), error.end


codecs.register_error(ERRORS, _replace)


def set_up_streams() -> None:
    """Standard output and error write look-alikes for what their encoding lacks, instead of
    failing (``PYTHONIOENCODING=ascii``, a cp1252 pipe) or escaping (Python's default for
    standard error); a handler the user chose (``PYTHONIOENCODING=ascii:replace``) is kept."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) in ("strict", "backslashreplace", None):
            try:
                reconfigure(errors=ERRORS)
            except (ValueError, OSError):
                pass  # a stream already written to in an odd state: left as it is


def can_draw_boxes(stream: Any = None) -> bool:
    """Whether ``stream`` (default standard output) can encode text art's box drawing."""
    encoding = getattr(stream if stream is not None else sys.stdout, "encoding", None) or "utf-8"
    try:
        BOX_CHARACTERS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def one_line(message: str, limit: int = MAX_MESSAGE) -> str:
    """``message`` on one line of at most ``limit`` characters (its end cut, ``…`` marking it).

    >>> one_line("a\\nb")
    'a b'
    >>> len(one_line("x" * 1000))
    300
    """
    flat = " ".join(message.split("\n"))
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class StandardOutputError(OSError):
    """Standard output could not be written (not a closed pipe: that one is BrokenPipeError)."""


class GuardedOutput:
    """Standard output whose write failures raise :class:`StandardOutputError` (or
    :class:`BrokenPipeError`), so the CLI tells them from a bug."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise StandardOutputError(error.errno, error.strerror) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise StandardOutputError(error.errno, error.strerror) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
